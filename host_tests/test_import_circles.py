"""Guard: no import circle in lib/, firmware/ or tools/ (issue 27).

Every import statement counts, at the top of a module or inside a function (an import made
when first needed is still a dependency: a module in a circle can be neither read nor tested
alone). A module is looked for as its importer would find it: beside the importer (a script's
folder), then in lib/, firmware/, the root (boards/) and tools/. Importing a module of one's own
package is no circle with the package (Python sets the package up first, whoever asks).
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROOTS = (ROOT / "lib", ROOT / "firmware", ROOT, ROOT / "tools")
SOURCES = ("lib", "firmware", "tools", "boards")
# Circles known and left to their owners, each with the issue that removes it (none today).
PENDING = ()


def find_module(name, here):
    # The file of module ``name`` as a module in folder ``here`` would import it, or None.
    parts = name.split(".")
    for base in (here,) + ROOTS:
        stem = base.joinpath(*parts)
        for f in (stem.with_suffix(".py"), stem / "__init__.py"):
            if f.is_file() and "node_modules" not in f.parts:
                return f
    return None


def _package_files(f):
    # The __init__.py files of the packages that hold ``f`` (set up before it runs).
    out = set()
    d = f.parent
    while (d / "__init__.py").is_file():
        out.add(d / "__init__.py")
        d = d.parent
    return out


def imports_of(f):
    """The project's files that ``f`` imports (any import statement, anywhere in it)."""
    here = f.parent
    names = []
    tree = ast.parse(f.read_text(encoding="utf-8"), str(f))
    if f == ROOT / "lib/catan/ui/app.py":  # it opens every on-demand screen, by name
        names += opened_by_name()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the importer's package
                pkg = f.parent
                for _ in range(node.level - 1):
                    pkg = pkg.parent
                rel = pkg.relative_to(ROOT / "lib").as_posix().replace("/", ".")
                base = rel + ("." + base if base else "")
            names.append(base)
            names += [base + "." + a.name for a in node.names]  # a module imported from a package
    own = _package_files(f)
    out = set()
    for name in names:
        parts = name.split(".")
        for k in range(1, len(parts) + 1):  # the packages on the way are imported too
            g = find_module(".".join(parts[:k]), here)
            if g is not None and g != f and g not in own:
                out.add(g)
    return out


def opened_by_name():
    """The screen modules that the screens and the app open by name (``app.open("menus",
    "Title")``: the app's memory plan imports catan.ui.menus), as module names."""
    names = []
    for f in sorted((ROOT / "lib/catan/ui").glob("*.py")):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"), str(f))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "open" and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                name = "catan.ui." + node.args[0].value
                if find_module(name, f.parent) is not None and name not in names:
                    names.append(name)
    return names


def graph():
    files = set()
    for top in SOURCES:
        files |= {p for p in (ROOT / top).rglob("*.py") if "node_modules" not in p.parts}
    return {f: imports_of(f) for f in sorted(files)}


def circles(g):
    """The strongly connected groups of more than one file (Tarjan's algorithm, iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    for start in g:
        if start in index:
            continue
        work = [(start, iter(sorted(g[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in g:
                    continue
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(g[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                group = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    group.append(w)
                    if w == v:
                        break
                if len(group) > 1:
                    out.append(sorted(group))
    return out


def test_the_walk_sees_imports():
    g = graph()
    app = ROOT / "lib/catan/ui/app.py"
    assert ROOT / "lib/catan/ui/layout.py" in g[app]  # at the top
    assert ROOT / "lib/catan/ui/turn.py" in g[app]  # inside a function
    assert ROOT / "lib/catan/ui/sheets.py" in g[app]  # by name, when first opened


def test_the_walk_finds_a_circle():
    a, b, c = (Path("/x/a.py"), Path("/x/b.py"), Path("/x/c.py"))
    assert circles({a: {b}, b: {c}, c: {a}}) == [[a, b, c]]
    assert circles({a: {b}, b: {c}, c: set()}) == []


def test_no_import_circle():
    found = [[p.relative_to(ROOT).as_posix() for p in group] for group in circles(graph())]
    found = [group for group in found if tuple(group) not in PENDING]
    assert not found, "import circles (each group imports itself round): %s" % found
