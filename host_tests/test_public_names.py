"""Guard: a module imports only public names from the project's other modules (issue 27).

A name that another module imports is part of an interface: public (no leading ``_``) and
documented where it is defined. ruff's PLC2701 says the same, but only as a preview rule (and
preview changes the stable rules too), so the check is here. Every import statement counts,
at the top or inside a function; ``import x as _y`` of a public ``x`` is fine.
"""

import ast

from test_import_circles import ROOT, SOURCES, find_module


def private_imports(f):
    """(line, module, name) of each private name ``f`` imports from another project module."""
    out = []
    for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"), str(f))):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if find_module(node.module, f.parent) is None:
                continue  # not the project's (the standard library, a package installed)
            for a in node.names:
                if a.name.startswith("_") and not a.name.startswith("__"):
                    out.append((node.lineno, node.module, a.name))
    return out


def test_the_check_sees_a_private_import(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("def f():\n    from catan.dice import _x, SeededDice as _S\n")
    assert private_imports(f) == [(2, "catan.dice", "_x")]


def test_no_private_name_crosses_a_module_border():
    found = []
    for top in SOURCES + ("host_tests",):
        for f in sorted((ROOT / top).rglob("*.py")):
            rel = f.relative_to(ROOT).as_posix()
            if "node_modules" in f.parts:
                continue
            found += ["%s:%d: %s from %s" % (rel, line, name, mod) for line, mod, name in private_imports(f)]
    assert not found, "private names imported across modules:\n" + "\n".join(found)
