"""Mutation testing of the rules core (`make mutate`): mutmut over lib/catan's game.py,
codec.py, maps.py and dice.py, judged by the fast core tests.

mutmut names a mutant by its file's path (``lib/catan/game.py`` would be module
``lib.catan.game``), while the tests import ``catan.game``: so the run happens in a staging
folder, build/mutate/, laid out as mutmut expects (``src/catan/`` a copy of lib/catan,
``tests/`` a copy of the core tests and their helpers, a small conftest and setup.cfg).

    python tools/mutate.py            # stage, run mutmut, print the score and the survivors
    python tools/mutate.py --report   # only print the results of the last run again
    python tools/mutate.py --fresh    # forget the last run's results and check every mutant

The results are kept in build/mutate/ between runs: a run checks only the mutants not yet
checked. A change to the core's code starts over (the mutants are made again); a change to
the tests alone keeps the results and checks the survivors again against the new tests.

The score is found / (found + survived + untested), where found is killed (a test
failed) or timed out (the mutant hangs a test: see HANG_FACTOR); mutants that no
test reached count against it. Mutants listed in tools/mutation_equivalents.md (equivalent:
no test can tell them from the original) are left out of the denominator and printed
apart. The figure is merged into build/bench.json as ``mutation_score_core``.
"""

import argparse
import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STAGE = ROOT / "build" / "mutate"
CORE = ("game.py", "codec.py", "maps.py", "dice.py")
TESTS = ("test_rules_common.py", "test_rules_island_one.py", "test_rules_island_two.py",
         "test_codec.py", "test_dice.py", "test_core_api.py", "test_properties.py",
         "test_mutants_core.py")
EQUIVALENTS = ROOT / "tools" / "mutation_equivalents.md"
# mutmut's own limit, on the wall clock: a mutant whose tests take this many times the
# unmutated tests' time (+ 5 s) is stopped and counts as found (it hangs). A backstop only:
# the staged conftest stops a hung test on its CPU time first (HANG_FACTOR), which a busy
# machine does not stretch; a tighter wall-clock limit took slow survivors for hung ones.
TIMEOUT_MULTIPLIER = 10.0
BENCH_JSON = ROOT / "build" / "bench.json"

CONFTEST = '''"""Staged by tools/mutate.py: the core tests against mutmut's copy of src/catan."""
import json
import os
import signal

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
pytest_add_cli_args_test_selection = tests/
pytest_add_cli_args =
    -p
    no:cacheprovider
timeout_multiplier = {mult}
timeout_constant = 5.0
"""


def stage(fresh=False):
    """Lay out build/mutate/ from the work tree (kept between runs: mutmut resumes).

    Returns whether the tests changed while the code did not (the survivors of the kept
    results are then to be checked again)."""
    src = STAGE / "src" / "catan"
    tests = STAGE / "tests"
    for d in (src, tests / "mp"):
        d.mkdir(parents=True, exist_ok=True)
    code = False
    for f in sorted((ROOT / "lib" / "catan").glob("*.py")):
        code |= _copy(f, src / f.name)
    changed = False
    # mutmut compares its settings with the last run's itself (a new timeout checks the
    # timed-out mutants again, a new test selection all of them)
    only = "".join("\n    src/catan/" + f for f in CORE)
    changed |= _write(STAGE / "setup.cfg", SETUP_CFG.format(only=only, mult=TIMEOUT_MULTIPLIER))
    for name in TESTS + ("helpers.py",):
        if (ROOT / "host_tests" / name).exists():
            changed |= _copy(ROOT / "host_tests" / name, tests / name)
    changed |= _copy(ROOT / "host_tests" / "mp" / "golden_dice.py", tests / "mp" / "golden_dice.py")
    changed |= _write(tests / "conftest.py", CONFTEST)
    if (code or fresh) and (STAGE / "mutants").exists():
        # the code changed: the mutants and their numbers are not the same any more
        shutil.rmtree(STAGE / "mutants")
    return changed and (STAGE / "mutants").exists()


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


def results():
    """{mutant name: status} from mutmut's results of the staged run."""
    r = subprocess.run(mutmut_cmd() + ["results", "--all", "true"], cwd=STAGE, capture_output=True,
                       text=True)
    out = {}
    for line in r.stdout.splitlines():
        m = re.match(r"^\s*(\S+__mutmut_\d+): (.+)$", line)
        if m:
            out[m.group(1)] = m.group(2).strip()
    return out


def report(elapsed=None):
    res = results()
    if not res:
        sys.exit("make mutate: no results (run it without --report first)")
    eq = equivalents()
    found = ("killed", "timeout")
    pending = [n for n, s in res.items() if s in ("not checked", "skipped")]  # a run cut short
    killed = [n for n, s in res.items() if s in found]
    bad = {n: s for n, s in res.items() if s not in found and n not in pending}
    survivors = {n: s for n, s in bad.items() if n not in eq}
    named = sorted(n for n in bad if n in eq)
    stale = sorted(n for n in eq if n not in res or res[n] in found)
    by_file = {}
    for n in killed + list(survivors):
        f = n.split(".x")[0]
        k, t = by_file.get(f, (0, 0))
        by_file[f] = (k + (n in survivors), t + 1)
    for f in sorted(by_file):
        print("  %-12s %d checked, %d not killed" % (f, by_file[f][1], by_file[f][0]))
    total = len(killed) + len(survivors)
    score = len(killed) / total if total else 0.0
    print("mutants: %d, killed or timed out %d, equivalent (listed) %d, not killed %d%s" %
          (len(res), len(killed), len(named), len(survivors),
           ", not checked yet %d (the score counts the checked ones)" % len(pending) if pending else ""))
    for n in sorted(survivors):
        print("  survived: %s (%s)" % (n, survivors[n]))
    for n in named:
        print("  equivalent: %s: %s" % (n, eq[n]))
    for n in stale:
        print("  listed as equivalent but killed or gone: %s" % n)
    print("mutation_score_core = %.4f" % score + (" (%.0f s)" % elapsed if elapsed else ""))
    figures = {}
    if BENCH_JSON.exists():
        try:
            figures = json.loads(BENCH_JSON.read_text())
        except ValueError:
            figures = {}
    figures["mutation_score_core"] = round(score, 4)
    figures["mutation_survivors_core"] = len(survivors)
    figures["mutation_checked_core"] = total
    BENCH_JSON.parent.mkdir(parents=True, exist_ok=True)
    BENCH_JSON.write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n")
    return score, survivors


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--report", action="store_true", help="print the last run's results only")
    ap.add_argument("--max-children", type=int, default=1,
                    help="mutmut's workers (default 1: leaves the other cores free)")
    ap.add_argument("--fresh", action="store_true", help="start over: check every mutant again")
    ap.add_argument("mutants", nargs="*", help="check only these mutants again (mutmut's names)")
    args = ap.parse_args(argv)
    if args.report:
        report()
        return
    tests_changed = stage(args.fresh)
    t = time.monotonic()
    run = mutmut_cmd() + ["run", "--max-children", str(args.max_children)]
    again = list(args.mutants)
    if tests_changed and not again:
        # new tests: mutmut keeps a verdict once given, so ask again for those not killed
        eq = equivalents()
        again = sorted(n for n, st in results().items()
                       if st not in ("killed", "timeout", "not checked", "skipped") and n not in eq)
    if again:
        print("make mutate: checking %d mutants again" % len(again))
        _mutmut(run + again)
    if not args.mutants:
        _mutmut(run)  # every mutant not checked yet
    report(time.monotonic() - t)


def _mutmut(cmd):
    r = subprocess.run(cmd, cwd=STAGE)
    if r.returncode:
        sys.exit("make mutate: mutmut failed (exit %d)" % r.returncode)


if __name__ == "__main__":
    main()
