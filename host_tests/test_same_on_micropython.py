"""The rules core plays the same games on CPython and on real MicroPython.

host_tests/mp/mpt_rules.py ends by printing the fingerprint of ten seeded games (both
islands, 1 to 4 players: results, a checksum of the whole log with every roll, and of
the save). Here the same script runs under CPython, and the fingerprints must match
the unix port's and the wasm port's line for line: same dice from the same seed, same
legality, same scores and awards, same bytes saved.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "host_tests" / "mp" / "mpt_rules.py"


def _fingerprints(stdout):
    return [line for line in stdout.splitlines() if line.startswith("island=")]


@pytest.fixture(scope="module")
def cpython_fingerprints():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "lib"), str(SCRIPT.parent)]))
    proc = subprocess.run([sys.executable, str(SCRIPT)], env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = _fingerprints(proc.stdout)
    assert len(lines) == 10, proc.stdout
    return lines


@pytest.mark.parametrize("runner", ["unix_mp", "wasm_mp"])
def test_same_games_as_cpython(runner, request, cpython_fingerprints):
    proc = request.getfixturevalue(runner)(SCRIPT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert _fingerprints(proc.stdout) == cpython_fingerprints
