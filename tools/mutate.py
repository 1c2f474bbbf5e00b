"""Mutation testing of the rules core (`make mutate`): mutmut over lib/catan's game.py,
codec.py, maps.py and dice.py, judged by the fast core tests.

mutmut names a mutant by its file's path (``lib/catan/game.py`` would be module
``lib.catan.game``), while the tests import ``catan.game``: so the run happens in a staging
folder, build/mutate/, laid out as mutmut expects (``src/catan/`` a copy of lib/catan,
``tests/`` a copy of the core tests and their helpers, a small conftest and setup.cfg).

    python tools/mutate.py            # stage, run mutmut, print the score and the survivors
    python tools/mutate.py --report   # only print the results of the last run again

The score is found / (found + survived + untested), where found is killed (a test
failed) or timed out (the mutant hangs a test: see TIMEOUT_MULTIPLIER); mutants that no
test reached count against it. Mutants listed in tools/mutation_equivalents.md (equivalent:
no test can tell them from the original) are left out of the denominator and printed
apart. The figure is merged into build/bench.json as ``mutation_score_core``.
"""

import argparse
import json
import os
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
# A mutant whose tests take this many times the unmutated tests' time (+ 5 s) is stopped and
# counts as found (it hangs: a loop that never ends). mutmut's 15 spent most of a run on them.
TIMEOUT_MULTIPLIER = 3.0
BENCH_JSON = ROOT / "build" / "bench.json"

CONFTEST = '''"""Staged by tools/mutate.py: the core tests against mutmut's copy of src/catan."""
import os
from hypothesis import settings

# reproducible (a mutant is killed or not, the same every run), no deadline: a busy
# machine must not kill a mutant
settings.register_profile("mutate", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("mutate")
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


def stage():
    """Lay out build/mutate/ from the work tree (kept between runs: mutmut resumes)."""
    src = STAGE / "src" / "catan"
    tests = STAGE / "tests"
    for d in (src, tests / "mp"):
        d.mkdir(parents=True, exist_ok=True)
    changed = False
    for f in sorted((ROOT / "lib" / "catan").glob("*.py")):
        changed |= _copy(f, src / f.name)
    for name in TESTS + ("helpers.py",):
        if (ROOT / "host_tests" / name).exists():
            changed |= _copy(ROOT / "host_tests" / name, tests / name)
    changed |= _copy(ROOT / "host_tests" / "mp" / "golden_dice.py", tests / "mp" / "golden_dice.py")
    changed |= _write(tests / "conftest.py", CONFTEST)
    only = "".join("\n    src/catan/" + f for f in CORE)
    changed |= _write(STAGE / "setup.cfg", SETUP_CFG.format(only=only, mult=TIMEOUT_MULTIPLIER))
    if changed and (STAGE / "mutants").exists():
        shutil.rmtree(STAGE / "mutants")  # the code or the tests changed: start over
    return changed


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
    exe = Path(sys.executable).parent / "mutmut"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "mutmut"]


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
    ap.add_argument("--max-children", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)
    if not args.report:
        stage()
        t = time.monotonic()
        r = subprocess.run(mutmut_cmd() + ["run", "--max-children", str(args.max_children)], cwd=STAGE)
        if r.returncode:
            sys.exit("make mutate: mutmut failed (exit %d)" % r.returncode)
        report(time.monotonic() - t)
    else:
        report()


if __name__ == "__main__":
    main()
