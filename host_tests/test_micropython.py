"""Run every MicroPython-side test script host_tests/mp/mpt_*.py under real MicroPython.

Each script runs under the unix port (Pico-sized fixed heap, -X heapsize=190wK) and the
wasm port (32-bit), importing the project from build/mpy (.mpy files compiled by
mpy-cross). A script passes when it exits 0 and its last stdout line is ALL-OK. The
scripts are plain MicroPython: `assert`, print, and no pytest.
"""

from pathlib import Path

import pytest

import mp_runners

MP_DIR = Path(__file__).parent / "mp"
SCRIPTS = sorted(MP_DIR.glob("mpt_*.py"))
RUNNERS = ["unix_mp", "wasm_mp"]


def _output_lines(proc):
    return proc.stdout.strip().splitlines()


def _check(ok, why, proc):
    """Fail with the command, exit code, stdout and stderr (unix tracebacks are on stdout)."""
    if not ok:
        pytest.fail("%s\n%s" % (why, mp_runners.describe(proc)), pytrace=False)


def test_scripts_exist():
    assert SCRIPTS, "no MicroPython test scripts in %s" % MP_DIR


@pytest.mark.parametrize("runner", RUNNERS)
@pytest.mark.parametrize("script", SCRIPTS, ids=[s.stem for s in SCRIPTS])
def test_mp_script(runner, script, request):
    proc = request.getfixturevalue(runner)(script)
    lines = _output_lines(proc)
    _check(proc.returncode == 0, "the script failed", proc)
    _check(lines and lines[-1] == "ALL-OK", "the last stdout line is not ALL-OK", proc)


@pytest.mark.parametrize("runner", RUNNERS)
def test_modules_come_from_mpy(runner, request):
    """The smoke script must import catan from build/mpy/catan/__init__.mpy, not from .py."""
    proc = request.getfixturevalue(runner)(MP_DIR / "mpt_smoke.py")
    _check(proc.returncode == 0, "the smoke script failed", proc)
    files = [ln.split(":", 1)[1].strip() for ln in _output_lines(proc) if ln.startswith("catan-file:")]
    _check(files and files[0].endswith("catan/__init__.mpy"), "catan was not imported from .mpy", proc)


def test_wasm_port_is_32_bit(wasm_mp):
    """The wasm port stands in for the RP2040's 32-bit object sizes and small ints."""
    proc = wasm_mp(MP_DIR / "mpt_smoke.py")
    _check("maxsize: 2147483647" in _output_lines(proc), "not a 32-bit VM", proc)


@pytest.mark.parametrize("runner", RUNNERS)
def test_runner_reports_failures(runner, request, tmp_path):
    """Exit codes are honest: an exception gives 1 with its traceback, sys.exit(n) gives n."""
    run = request.getfixturevalue(runner)
    bad = tmp_path / "raises.py"
    bad.write_text("def f():\n    raise ValueError('on purpose')\nf()\nprint('ALL-OK')\n")
    proc = run(bad)
    _check(proc.returncode == 1, "an uncaught exception must give exit code 1", proc)
    _check("ValueError: on purpose" in proc.stdout + proc.stderr, "the traceback is missing", proc)
    _check("ALL-OK" not in proc.stdout, "the script went on after the exception", proc)
    leave = tmp_path / "leaves.py"
    leave.write_text("import sys\nsys.exit(3)\n")
    proc = run(leave)
    _check(proc.returncode == 3, "sys.exit(3) must give exit code 3", proc)
