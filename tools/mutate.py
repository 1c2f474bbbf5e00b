"""Mutation testing (`make mutate`): mutmut over a part of the code at a time, each judged by
its own fast selection of tests, each with its own score in build/bench.json.

Parts (``PARTS``): ``core`` (lib/catan's game.py, codec.py, maps.py, dice.py), ``players`` (the
computer players' values, coach, race, reroll and plans), ``records`` (lib/catan/ui/records.py:
settings, statistics, high scores), ``store`` (firmware/store.py: saves on flash) and ``memory``
(lib/catan/ui/memory.py: the memory plan, its residency and its fallback chain).

mutmut names a mutant by its file's path (``lib/catan/game.py`` would be module
``lib.catan.game``), while the tests import ``catan.game`` (and ``store``): so each part runs in
a staging folder, build/mutate/PART/, laid out as mutmut expects (``src/catan/`` a copy of
lib/catan, ``src/store.py`` of firmware/store.py, ``tests/`` a copy of the part's tests and their
helpers, a small conftest and setup.cfg).

    python tools/mutate.py                    # every part, one after the other
    python tools/mutate.py records store      # these parts
    python tools/mutate.py --report players   # only print the results of the last run again
    python tools/mutate.py --fresh store      # forget the last run's results, check every mutant
    python tools/mutate.py core -m NAME...    # check only these mutants again (mutmut's names)
    python tools/mutate.py -j 2 players       # two mutants at once (one by default)

The results are kept in build/mutate/PART/ between runs: a run checks only the mutants not yet
checked (a run stopped half-way goes on where it stopped). A change to the part's own files starts
it over (the mutants are made again); a change to its tests, or to the other code they run, keeps the
results and checks the survivors again.

The score is found / (found + survived + untested), where found is killed (a test
failed) or timed out (the mutant hangs a test: see HANG_FACTOR); mutants that no
test reached count against it. Mutants listed in tools/mutation_equivalents.md (equivalent:
no test can tell them from the original) are left out of the denominator and printed
apart. The figure is merged into build/bench.json as ``mutation_score_PART`` only once every
mutant of the part has been checked: a run cut short, or one asked for a few mutants while
others are still unchecked, prints the figure so far and writes nothing. The time the part's
runs took since its results were last started over is kept beside them (``seconds.txt``) and
printed with the score.
"""

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STAGE = ROOT / "build" / "mutate"
# part: (the files mutated, as staged under src/; its tests, from host_tests/; the test cases
# left out of its selection: slow ones whose work a faster test of the selection covers)
PARTS = {
    "core": (("catan/game.py", "catan/codec.py", "catan/maps.py", "catan/dice.py"),
             ("test_rules_common.py", "test_rules_island_one.py", "test_rules_island_two.py",
              "test_codec.py", "test_dice.py", "test_core_api.py", "test_properties.py",
              "test_mutants_core.py"), ()),
    "players": (("catan/players/values.py", "catan/players/coach.py", "catan/players/race.py",
                 "catan/players/reroll.py", "catan/players/plans.py"),
                ("test_players.py", "test_coach.py", "test_race.py", "test_coach_solver.py"),
                # the brute-force expectimax's two slowest cases (27 s each; its other three
                # stay), and the same decisions in any order of calls (13 s; its interrupted
                # and sliced cases stay)
                ("test_players.py::test_keep_tables_are_a_brute_force_expectimax[6-7]",
                 "test_players.py::test_keep_tables_are_a_brute_force_expectimax[4-3]",
                 "test_players.py::test_made_ahead_or_not_the_same_decisions_in_any_order_of_calls")),
    "records": (("catan/ui/records.py",), ("test_records.py",), ()),
    "store": (("store.py",), ("test_fw_store.py",), ()),
    "memory": (("catan/ui/memory.py",), ("test_memory_plan.py", "test_ui_small_heap.py"),
               # four of the six whole games by keys (10 to 13 s each; a game on each island
               # stays, the tight and the small plan) and the tight heap's game played again as
               # the roomy one's (16 s)
               ("test_memory_plan.py::test_a_whole_game_by_keys_under_every_plan[1-levels0-roomy]",
                "test_memory_plan.py::test_a_whole_game_by_keys_under_every_plan[1-levels0-small]",
                "test_memory_plan.py::test_a_whole_game_by_keys_under_every_plan[2-levels1-roomy]",
                "test_memory_plan.py::test_a_whole_game_by_keys_under_every_plan[2-levels1-tight]",
                "test_ui_small_heap.py::test_a_tight_heap_plays_the_same_game_as_a_roomy_one")),
}
# What a part's code works out once a process and keeps (code run before each of its tests, see
# CONFTEST's ``_fresh``)
FRESH = {
    "players": "import catan, catan.players\n"
               "from catan.players import race, reroll, values\n"
               "catan.TABLES[:] = [None, False, None]\n"
               "reroll._MS = reroll._W = values._ONE = race._TABLE = None\n"
               "catan.players.forget()\n",
    # (and the on-demand screens' modules as at boot: none loaded, none noted)
    "memory": "from catan.ui import memory\n"
              "memory.forget(memory._ON_DEMAND)\n"
              "memory._ON_DEMAND[:] = []\n"
              "memory._CLEAN[:] = []\n",
}
EQUIVALENTS = ROOT / "tools" / "mutation_equivalents.md"
# mutmut's own limit, on the wall clock: a mutant whose tests take this many times the
# unmutated tests' time (+ 5 s) is stopped and counts as found (it hangs). A backstop only:
# the staged conftest stops a hung test on its CPU time first (HANG_FACTOR), which a busy
# machine does not stretch; a tighter wall-clock limit took slow survivors for hung ones.
TIMEOUT_MULTIPLIER = 10.0
BENCH_JSON = ROOT / "build" / "bench.json"

CONFTEST = '''"""Staged by tools/mutate.py: a part's tests against mutmut's copy of src/."""
import json
import os
import signal
import sys

# the solvers and tools the players' tests compare with (after mutmut's src/, never before it)
for _p in %r:
    if _p not in sys.path:
        sys.path.append(_p)

import pytest
from hypothesis import Phase, settings

# reproducible (a mutant is killed or not, the same every run, whatever ran before it: no
# example database), no deadline (a busy machine must not kill a mutant), and no
# shrinking: a failing example kills the mutant as it is, and shrinking it (up to minutes
# a mutant) only made the run slower. Loaded before the test modules are imported, so a
# test's own settings that name no phases take these.
settings.register_profile("mutate", deadline=None, derandomize=True, database=None,
                          phases=(Phase.explicit, Phase.reuse, Phase.generate))
settings.load_profile("mutate")

# A test that spends HANG_FACTOR times its usual CPU time (+ HANG_SLACK s) on a mutant is
# taken as hung: the run ends with mutmut's "timeout" code. CPU time, not wall time, so a
# busy machine (a nice'd run) stretches no test into a timeout; mutmut's own wall-clock
# limit, sized on the whole run, stays as the backstop.
HANG_FACTOR = 5.0
HANG_SLACK = 2.0
TIMEOUT_EXIT = 36  # mutmut's exit code for a timed-out mutant


def _durations():
    """mutmut's measured time of every test (its stats run): in memory in a child forked
    by mutmut, else (a test run by hand in mutants/) from its stats file."""
    try:
        from mutmut.state import state
        durations = state().duration_by_test
        if durations:
            return durations
    except ImportError:
        pass
    try:
        with open("mutmut-stats.json") as f:
            return json.load(f)["duration_by_test"]
    except (OSError, ValueError, KeyError):
        return {}


DURATIONS = _durations()


def _under_mutant():
    return "__mutmut_" in os.environ.get("MUTANT_UNDER_TEST", "")


def pytest_collection_modifyitems(items):
    """Fastest tests first. mutmut stops at a mutant's first failing test (-x) but hands
    pytest its tests as a set, in no order: a slow property test run first costs its full
    time even when a 2 ms test would kill the mutant."""
    if DURATIONS:
        items.sort(key=lambda item: DURATIONS.get(item.nodeid, 1e9))


# The caches the part's code fills once a process, emptied before each test. mutmut's stats run
# fills them in this process before it forks a child for each mutant: kept, they would hold the
# unmutated code's results (every mutant of the code that fills them would survive), and the
# stats would tie that code to whichever test happened to fill them first.
FRESH = %r


@pytest.fixture(autouse=True)
def _fresh():
    if FRESH:
        exec(FRESH, {})


def _hung(signum, frame):
    os._exit(TIMEOUT_EXIT)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    usual = DURATIONS.get(item.nodeid)
    if usual is None or not _under_mutant():
        yield
        return
    signal.signal(signal.SIGVTALRM, _hung)
    signal.setitimer(signal.ITIMER_VIRTUAL, usual * HANG_FACTOR + HANG_SLACK)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
'''

SETUP_CFG = """[mutmut]
source_paths = src/
only_mutate = {only}
pytest_add_cli_args_test_selection = {tests}
pytest_add_cli_args =
    -p
    no:cacheprovider
timeout_multiplier = {mult}
timeout_constant = 5.0
"""


def stage(part, fresh=False):
    """Lay out build/mutate/PART/ from the work tree (kept between runs: mutmut resumes).

    Returns whether the tests changed while the code did not (the survivors of the kept
    results are then to be checked again)."""
    files, tests, left_out = PARTS[part]
    home = STAGE / part
    src = home / "src"
    code = False  # a mutated file changed: its mutants are not the same any more
    changed = False  # the tests or the code they run changed: the survivors are checked again
    copies = [(f, src / "catan" / f.relative_to(ROOT / "lib" / "catan"))
              for f in sorted((ROOT / "lib" / "catan").rglob("*"))
              if f.is_file() and f.suffix in (".py", ".bin") and "__pycache__" not in f.parts]
    copies.append((ROOT / "firmware" / "store.py", src / "store.py"))
    for f, to in copies:
        to.parent.mkdir(parents=True, exist_ok=True)
        rel = to.relative_to(src)
        if _copy(f, to):
            if str(rel) in files:
                code = True
            else:
                changed = True
                run_copy = home / "mutants" / "src" / rel  # mutmut copies src/ only once
                if run_copy.parent.exists():
                    _copy(f, run_copy)
    (home / "tests" / "mp").mkdir(parents=True, exist_ok=True)
    # mutmut compares its settings with the last run's itself (a new timeout checks the
    # timed-out mutants again, a new test selection all of them)
    only = "".join("\n    src/" + f for f in files)
    selection = "".join("\n    tests/" + t for t in tests if (ROOT / "host_tests" / t).exists())
    selection += "".join("\n    --deselect\n    tests/" + t for t in left_out)
    changed |= _write(home / "setup.cfg", SETUP_CFG.format(only=only, tests=selection,
                                                          mult=TIMEOUT_MULTIPLIER))
    for name in tests + ("helpers.py",):
        if (ROOT / "host_tests" / name).exists():
            changed |= _copy(ROOT / "host_tests" / name, home / "tests" / name)
    for f in sorted((ROOT / "host_tests" / "mp").glob("*.py")):  # the tests' helpers
        changed |= _copy(f, home / "tests" / "mp" / f.name)
    changed |= _write(home / "tests" / "conftest.py", CONFTEST % ((str(ROOT / "tools" / "solver"),),
                                                                          FRESH.get(part, "")))
    if (code or fresh) and (home / "mutants").exists():
        # the code changed: the mutants and their numbers are not the same any more
        shutil.rmtree(home / "mutants")
    if not (home / "mutants").exists():
        _write(home / "seconds.txt", "0\n")  # the time of the runs since the part started over
    return changed and (home / "mutants").exists()


def _copy(a, b):
    data = a.read_bytes()
    if b.exists() and b.read_bytes() == data:
        return False
    b.write_bytes(data)
    return True


def _write(path, text):
    if path.exists() and path.read_text() == text:
        return False
    path.write_text(text)
    return True


def mutmut_cmd():
    # this interpreter's mutmut, not the venv's bin/mutmut script: a script's #! line names
    # the interpreter of the venv it was installed in, wrong once that venv is moved
    return [sys.executable, "-m", "mutmut"]


def equivalents():
    """The mutant names listed in tools/mutation_equivalents.md (a ``name`` at a line's start)."""
    if not EQUIVALENTS.exists():
        return {}
    out = {}
    name = None
    for line in EQUIVALENTS.read_text().splitlines():
        m = re.match(r"^- `([^`]+__mutmut_\d+)`:?\s*(.*)", line)
        if m:
            name = m.group(1)
            out[name] = m.group(2)
        elif name and line.startswith("  ") and line.strip():  # the reason goes on
            out[name] += " " + line.strip()
        else:
            name = None
    return out


def results(part):
    """{mutant name: status} from mutmut's results of the part's staged run."""
    r = subprocess.run(mutmut_cmd() + ["results", "--all", "true"], cwd=STAGE / part,
                       capture_output=True, text=True)
    out = {}
    for line in r.stdout.splitlines():
        m = re.match(r"^\s*(\S+__mutmut_\d+): (.+)$", line)
        if m:
            out[m.group(1)] = m.group(2).strip()
    return out


def spent(part, more=0.0):
    """The seconds the part's runs took since its results were last started over (+ ``more``)."""
    path = STAGE / part / "seconds.txt"
    try:
        total = float(path.read_text())
    except (OSError, ValueError):
        total = 0.0
    if more:
        total += more
        path.write_text("%.0f\n" % total)
    return total


def report(part):
    """Print the part's results; merge its score into build/bench.json if every mutant has been
    checked. Returns (score, survivors, complete)."""
    res = results(part)
    if not res:
        print("make mutate: %s: no results (run it without --report first)" % part)
        return 0.0, {}, False
    eq = equivalents()
    found = ("killed", "timeout")
    pending = [n for n, s in res.items() if s in ("not checked", "skipped")]  # a run cut short
    killed = [n for n, s in res.items() if s in found]
    bad = {n: s for n, s in res.items() if s not in found and n not in pending}
    survivors = {n: s for n, s in bad.items() if n not in eq}
    named = sorted(n for n in bad if n in eq)
    prefixes = tuple(_module(f) + "." for f in PARTS[part][0])
    stale = sorted(n for n in eq if n.startswith(prefixes) and (n not in res or res[n] in found))
    by_file = {}
    for n in killed + list(survivors):
        f = n.split(".x")[0]
        k, t = by_file.get(f, (0, 0))
        by_file[f] = (k + (n in survivors), t + 1)
    print("part %s:" % part)
    for f in sorted(by_file):
        print("  %-22s %d checked, %d not killed" % (f, by_file[f][1], by_file[f][0]))
    total = len(killed) + len(survivors)
    score = len(killed) / total if total else 0.0
    print("mutants: %d, killed or timed out %d, equivalent (listed) %d, not killed %d%s" %
          (len(res), len(killed), len(named), len(survivors),
           ", not checked yet %d" % len(pending) if pending else ""))
    for n in sorted(survivors):
        print("  survived: %s (%s)" % (n, survivors[n]))
    for n in named:
        print("  equivalent: %s: %s" % (n, eq[n]))
    for n in stale:
        print("  listed as equivalent but killed or gone: %s" % n)
    complete = not pending and total > 0
    key = "mutation_score_" + part
    print("%s = %.4f (%s; %.0f s of runs)" % (
        key, score, "complete" if complete else "INCOMPLETE: not written to build/bench.json",
        spent(part)))
    if complete:
        figures = {}
        if BENCH_JSON.exists():
            try:
                figures = json.loads(BENCH_JSON.read_text())
            except ValueError:
                figures = {}
        figures[key] = round(score, 4)
        figures["mutation_survivors_" + part] = len(survivors)
        figures["mutation_checked_" + part] = total
        BENCH_JSON.parent.mkdir(parents=True, exist_ok=True)
        BENCH_JSON.write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n")
    return score, survivors, complete


def _module(path):
    # mutmut's module name of a staged file: src/catan/players/coach.py -> catan.players.coach
    return path[:-3].replace("/", ".")


def run(part, fresh=False, mutants=(), jobs=1):
    tests_changed = stage(part, fresh)
    t = time.monotonic()
    cmd = mutmut_cmd() + ["run", "--max-children", str(jobs)]
    again = list(mutants)
    try:
        if tests_changed and not again:
            # new tests: mutmut keeps a verdict once given, so ask again for those not killed
            eq = equivalents()
            again = sorted(n for n, st in results(part).items()
                           if st not in ("killed", "timeout", "not checked", "skipped")
                           and n not in eq)
        if again:
            print("make mutate: %s: checking %d mutants again" % (part, len(again)))
            _mutmut(part, cmd + again)
        if not mutants:
            _mutmut(part, cmd)  # every mutant not checked yet
    finally:
        spent(part, time.monotonic() - t)
    return report(part)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("parts", nargs="*", help="the parts to run (default: all): " + ", ".join(PARTS))
    ap.add_argument("--report", action="store_true", help="print the last run's results only")
    ap.add_argument("--fresh", action="store_true", help="start over: check every mutant again")
    ap.add_argument("-m", "--mutants", nargs="+", default=(),
                    help="check only these mutants again (mutmut's names; one part)")
    ap.add_argument("-j", "--jobs", type=int, default=1,
                    help="mutants checked at once (default 1: the machine stays usable)")
    args = ap.parse_args(argv)
    # stopped (kill, Ctrl-C): the time spent so far is still counted (``run``'s finally)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("make mutate: stopped"))
    parts = args.parts or list(PARTS)
    for p in parts:
        if p not in PARTS:
            ap.error("no part %r (the parts: %s)" % (p, ", ".join(PARTS)))
    if args.mutants and len(parts) != 1:
        ap.error("--mutants: name the one part they belong to")
    for p in parts:
        if args.report:
            report(p)
        else:
            run(p, args.fresh, args.mutants, args.jobs)


def _mutmut(part, cmd):
    # in a process group of its own: a run stopped (a signal, Ctrl-C) takes its workers with it
    proc = subprocess.Popen(cmd, cwd=STAGE / part, start_new_session=True)
    try:
        code = proc.wait()
    except BaseException:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        raise
    if code:
        sys.exit("make mutate: mutmut failed (exit %d)" % code)


if __name__ == "__main__":
    main()
