"""Guard: every module under lib/, firmware/ and boards/ imports only what the Pico's
stock MicroPython has.

lib/ must run unchanged on the rp2 firmware, whose module set differs from CPython's and
from both host MicroPython ports (the wasm port even freezes functools, itertools, copy,
...). Every import statement is checked with `ast`, including those inside functions and
try blocks: a CPython-only fallback belongs in tools/ or host_tests/, not in lib/.
Relative imports and the project's own top-level packages in lib/ are allowed; the
lists (and the few lib/ modules that are not for the Pico) are in tools/pico_modules.py.
"""

import ast
from pathlib import Path

import pytest
from pico_modules import ALLOWED, FORBIDDEN, NOT_FOR_PICO  # tools/ (on sys.path via conftest)

LIB = Path(__file__).resolve().parents[1] / "lib"


def own_packages(lib=LIB):
    """Top-level packages and modules that lib/ itself provides (catan, ...)."""
    return {p.stem for p in lib.glob("*.py")} | {p.name for p in lib.iterdir() if p.is_dir()}


def imported_modules(source, filename="<source>"):
    """(line, top-level module name) for every absolute import in the source."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found.append((node.lineno, node.module.split(".")[0]))
    return sorted(found)


def violations(source, filename, own, extra=()):
    """Messages `file:line: ...` for each import the firmware could not satisfy."""
    out = []
    for line, name in imported_modules(source, filename):
        if name in ALLOWED or name in own or name in extra:
            continue
        why = FORBIDDEN.get(name, "not in the allow-list of the Pico's MicroPython firmware "
                                  "(tools/pico_modules.py)")
        out.append("%s:%d: imports %r: %s" % (filename, line, name, why))
    return out


LIB_FILES = sorted(LIB.rglob("*.py"))


def test_lib_has_modules():
    assert LIB_FILES, "no Python modules under %s: the import guard would check nothing" % LIB


@pytest.mark.parametrize("path", LIB_FILES, ids=[p.relative_to(LIB).as_posix() for p in LIB_FILES])
def test_imports_exist_on_pico(path):
    extra = NOT_FOR_PICO.get(path.relative_to(LIB).as_posix(), ())
    rel = path.relative_to(LIB.parent).as_posix()
    found = violations(path.read_text(encoding="utf-8"), rel, own_packages(), extra)
    assert not found, "imports the Pico firmware lacks:\n" + "\n".join(found)


def test_exemptions_are_current():
    """Every NOT_FOR_PICO entry names an existing module that still imports what it lists."""
    for rel, extra in NOT_FOR_PICO.items():
        path = LIB / rel
        assert path.exists(), "tools/pico_modules.py: NOT_FOR_PICO names a missing file %s" % rel
        used = {name for _, name in imported_modules(path.read_text(encoding="utf-8"))}
        assert set(extra) <= used, "tools/pico_modules.py: %s no longer imports %s" % (
            rel, sorted(set(extra) - used))


def test_guard_catches_hidden_imports():
    """The guard sees imports in functions, try blocks and `from` forms, not just at the top."""
    source = (
        "import os, utime\n"
        "from catan import const\n"
        "from . import dice\n"
        "try:\n"
        "    from typing import List\n"
        "except ImportError:\n"
        "    pass\n"
        "def f():\n"
        "    import itertools.chain\n"
        "    from collections import OrderedDict\n"
        "class C:\n"
        "    def g(self):\n"
        "        import numpy as np\n"
    )
    found = violations(source, "x.py", {"catan"})
    assert [m.split(": ")[0] for m in found] == ["x.py:5", "x.py:9", "x.py:13"], found
    assert "'typing'" in found[0] and "'itertools'" in found[1] and "'numpy'" in found[2]


ROOT = LIB.parent
DEVICE_FILES = sorted((ROOT / "firmware").glob("*.py")) + sorted((ROOT / "boards").glob("*.py"))


@pytest.mark.parametrize("path", DEVICE_FILES,
                         ids=[p.relative_to(ROOT).as_posix() for p in DEVICE_FILES])
def test_device_imports_exist_on_pico(path):
    """The device shell sits next to lib/ on the Pico: it may import the firmware's modules,
    lib/'s packages, its own sibling modules, and the board files."""
    own = own_packages() | {p.stem for p in (ROOT / "firmware").glob("*.py")} | {"boards",
                                                                                  "board_config"}
    found = violations(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix(), own)
    assert not found, "imports the Pico firmware lacks:\n" + "\n".join(found)
