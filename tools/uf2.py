"""The game UF2: MicroPython v1.28.0 with the game frozen in, one file a person drags onto a Pico.

    python tools/uf2.py --board NAME [--chip rp2040|rp2350]   # build/uf2/<board>.uf2  (make uf2 BOARD=)
    python tools/uf2.py --all                                  # every board, both chips (make uf2)

What a game UF2 holds: the stock ``RPI_PICO`` firmware (``RPI_PICO2`` for the RP2350) and, frozen
into its flash, the device tree's modules (the game, the device shell, the board file), a
``board_config`` naming the board, the device's ``main.py`` and the coach's value table as a
``bytes`` constant (``catan/players/coach_data.py``). Frozen bytecode and ``bytes`` are read in
place from flash: the heap holds only what the game makes (on stock firmware every imported
``.mpy`` is copied into the heap). A frozen ``main.py`` runs before one on the filesystem, so the
game starts at power-on whatever the filesystem holds; the board's safe-boot button still skips it.
The filesystem keeps only the saves (``/data``), in the same place and format as the stock
firmware's: a Pico can move between this UF2 and the ``make flash`` install and keep its game.

The MicroPython source is an input, never part of the repository: ``MICROPY_SRC`` (or ``--src``)
names either

- the archive ``micropython-v1.28.0-rp2-src.tar.xz`` (extracted once into build/uf2/src/), or a
  folder holding its two folders ``micropython/`` and ``picotool/``, or
- a checkout of MicroPython's ``v1.28.0`` tag with its submodules
  (``git clone -b v1.28.0 https://github.com/micropython/micropython`` then
  ``make -C micropython/ports/rp2 BOARD=RPI_PICO submodules``); the Pico SDK then finds or
  fetches picotool itself (``PICOTOOL_DIR`` may name an installed one's cmake folder).

The toolchain is Debian's ``gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib
cmake`` (``make setup`` installs them as root). Boards of one chip share a build folder
(build/uf2/work/<chip>/): after the first, a board rebuilds only the frozen modules and relinks.
"""

import argparse
import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import deploy

ROOT = deploy.ROOT
OUT = ROOT / "build" / "uf2"
SRC_CACHE = OUT / "src"
# chip -> (MicroPython board, the folder under build/uf2/ its UF2s go to)
CHIPS = {"rp2040": ("RPI_PICO", ""), "rp2350": ("RPI_PICO2", "pico2")}
TABLE_MODULE = "catan/players/coach_data.py"  # the value table as a frozen bytes constant
RACE_MODULE = "catan/players/race_data.py"  # Island Two's race table, likewise
JOBS = str(os.cpu_count() or 2)
MICROPYTHON = (1, 28, 0)  # the MicroPython the game UF2 is built from, and the one tested


class SourceMissing(RuntimeError):
    """No MicroPython source, or no toolchain: the message says what to do."""


def uf2_path(board, chip="rp2040", variant=None):
    """build/uf2/[pico2/][variant/]<board>.uf2"""
    out = OUT / CHIPS[chip][1] / (variant or "")
    return out / (board + ".uf2")


# -- the inputs -----------------------------------------------------------------------------------

def source(src=None):
    """(the MicroPython tree, the picotool source or None) from ``src`` or ``MICROPY_SRC``."""
    src = src or os.environ.get("MICROPY_SRC")
    if not src:
        raise SourceMissing(
            "MICROPY_SRC is not set: point it at a MicroPython v1.28.0 source tree (a checkout of "
            "the v1.28.0 tag with its submodules) or at micropython-v1.28.0-rp2-src.tar.xz (README)")
    src = Path(src).expanduser().resolve()
    if src.is_file():
        src = _extract(src)
    if not src.is_dir():
        raise SourceMissing("MICROPY_SRC=%s: no such file or folder" % src)
    for mp, tool in ((src, None), (src / "micropython", src / "picotool")):
        if (mp / "ports" / "rp2" / "Makefile").is_file():
            check_version(mp)
            return mp, (tool if tool and tool.is_dir() else None)
    inner = [d for d in src.iterdir() if d.is_dir()]
    if len(inner) == 1:  # an archive's one top folder
        return source(inner[0])
    raise SourceMissing("MICROPY_SRC=%s holds no MicroPython tree (ports/rp2)" % src)


def check_version(mp):
    """Raise SourceMissing unless the tree ``mp`` is MicroPython ``MICROPYTHON`` (py/mpconfig.h):
    another version builds, but not the firmware the game is tested on."""
    header = mp / "py" / "mpconfig.h"
    text = header.read_text(errors="replace") if header.is_file() else ""
    found = [re.search(r"#define MICROPY_VERSION_%s (\d+)" % part, text)
             for part in ("MAJOR", "MINOR", "MICRO")]
    got = tuple(int(m.group(1)) for m in found if m)
    if got != MICROPYTHON:
        raise SourceMissing(
            "MICROPY_SRC=%s is MicroPython %s, not v%s: point it at the v%s source (README)"
            % (mp, "v" + ".".join(map(str, got)) if len(got) == 3 else "of no version (py/mpconfig.h)",
               ".".join(map(str, MICROPYTHON)), ".".join(map(str, MICROPYTHON))))


_EXTRACTED = {}  # (archive, size, mtime) -> its folder, for this process


def _extract(archive):
    """The archive extracted under build/uf2/src/ (again only when the archive changes; hashed
    once a process, not at each look)."""
    st = archive.stat()
    key = (str(archive), st.st_size, st.st_mtime)
    if key not in _EXTRACTED:
        _EXTRACTED[key] = _extract_once(archive)
    return _EXTRACTED[key]


def _extract_once(archive):
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    dest = SRC_CACHE / digest[:16]
    stamp = dest / ".extracted"
    SRC_CACHE.mkdir(parents=True, exist_ok=True)
    # one process extracts, the others (make test's workers all look at once) wait for it
    with open(SRC_CACHE / (digest[:16] + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not stamp.exists():
            if dest.exists():
                shutil.rmtree(dest)
            dest.mkdir(parents=True)
            print("uf2: extracting %s" % archive.name, flush=True)
            with tarfile.open(archive) as tar:
                tar.extractall(dest, filter="tar")
            stamp.write_text(str(archive) + "\n")
    return dest


def check_toolchain():
    missing = [t for t in ("arm-none-eabi-gcc", "cmake", "make") if shutil.which(t) is None]
    if missing:
        raise SourceMissing("%s not found: install Debian's gcc-arm-none-eabi libnewlib-arm-none-eabi "
                            "libstdc++-arm-none-eabi-newlib cmake (make setup does, as root)"
                            % ", ".join(missing))


def _run(cmd, log, **kw):
    with open(log, "a") as f:
        f.write("$ %s\n" % " ".join(str(c) for c in cmd))
        f.flush()
        proc = subprocess.run([str(c) for c in cmd], stdout=f, stderr=subprocess.STDOUT, **kw)
    if proc.returncode:
        tail = Path(log).read_text(errors="replace")[-3000:]
        raise SystemExit("uf2: %s failed (%d); the end of %s:\n%s" % (cmd[0], proc.returncode, log, tail))


def picotool_dir(tool_src, log):
    """The cmake folder of a picotool built from ``tool_src`` (once), for the Pico SDK's UF2 step."""
    if tool_src is None:
        return os.environ.get("PICOTOOL_DIR")
    prefix = OUT / "picotool"
    found = list(prefix.glob("lib*/cmake/picotool"))
    if found:
        return str(found[0])
    mp = tool_src.parent / "micropython"
    work = OUT / "picotool-build"
    _run(["cmake", "-S", tool_src, "-B", work, "-DPICOTOOL_NO_LIBUSB=1",
          "-DPICO_SDK_PATH=%s" % (mp / "lib" / "pico-sdk"), "-DCMAKE_INSTALL_PREFIX=%s" % prefix], log)
    _run(["cmake", "--build", work, "-j", JOBS], log)
    _run(["cmake", "--install", work], log)
    return str(next(prefix.glob("lib*/cmake/picotool")))


# -- what is frozen -------------------------------------------------------------------------------

def stage(board, dest, overrides=None):
    """The modules to freeze for ``board``, as sources laid out as the device imports them, in
    ``dest``: the device tree's ``lib/`` (deploy.py), ``main.py``, ``board_config.py`` and the
    value table as a module; ``overrides`` {path: source} replace modules (the benchmarks' fixed
    dice). Only files that changed are written (the build then recompiles only those), and files
    no longer wanted are removed."""
    files = {}
    for py, rel in deploy.lib_sources():
        files[rel] = py.read_bytes()
    for name in deploy.SHELL + tuple(deploy.NATIVE):
        files[name + ".py"] = (ROOT / "firmware" / (name + ".py")).read_bytes()
    for name in ("__init__", board):
        files["boards/%s.py" % name] = (ROOT / "boards" / (name + ".py")).read_bytes()
    files["main.py"] = (ROOT / "firmware" / "main.py").read_bytes()
    files["board_config.py"] = b'BOARD = "%s"\n' % board.encode()
    for data, rel in deploy.build_mpy.data_files():
        if rel.endswith("coach_table.bin"):
            files[TABLE_MODULE] = table_module(data.read_bytes())
        elif rel.endswith("race_table.bin"):
            files[RACE_MODULE] = table_module(data.read_bytes(), "race_table.bin")
    for rel, text in (overrides or {}).items():
        assert rel in files, rel
        files[rel] = text.encode()
    for rel, data in files.items():
        f = dest / rel
        if not f.is_file() or f.read_bytes() != data:
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_bytes(data)
    for f in sorted(dest.rglob("*"), reverse=True):  # deepest first
        if f.is_file() and f.relative_to(dest).as_posix() not in files:
            f.unlink()
        elif f.is_dir() and not any(f.iterdir()):
            f.rmdir()
    return sorted(files)


def table_module(data, name="coach_table.bin"):
    """The coach's value table as the source of a module holding one ``bytes`` constant: frozen,
    it is read in place from flash (``tables.InFlash``)."""
    lines = ['"""The coach\'s value table (%s), frozen: read in place from flash."""' % name, "",
             "DATA = ("]
    for i in range(0, len(data), 48):
        lines.append("    %r" % data[i:i + 48])
    lines.append(")")
    return ("\n".join(lines) + "\n").encode()


def manifest(stage_dir, path):
    path.write_text('include("$(PORT_DIR)/boards/manifest.py")\nfreeze(%r)\n' % str(stage_dir))
    return path


# -- the build ------------------------------------------------------------------------------------

def build(board, chip="rp2040", src=None, log=print, overrides=None, variant=None):
    """Build the game UF2 of ``board`` for ``chip``; its path (``variant``: a folder of its own for
    a build with ``overrides``, see ``stage``)."""
    if board not in deploy.BOARDS:
        raise SystemExit("uf2: no board %r (boards: %s)" % (board, ", ".join(deploy.BOARDS)))
    began = time.monotonic()  # the build's time is said with its result (the README's figure)
    check_toolchain()
    mp, tool_src = source(src)
    mcu, _sub = CHIPS[chip]
    work = OUT / "work" / chip  # one build folder a chip: a board after the first relinks
    work.mkdir(parents=True, exist_ok=True)
    logfile = OUT / "build.log"
    stage(board, work / "frozen", overrides)
    man = manifest(work / "frozen", work / "manifest.py")
    log("uf2: building %s for %s (%s), log in %s" % (board, mcu, mp, logfile.relative_to(ROOT)))
    tool = picotool_dir(tool_src, logfile)
    _run(["make", "-C", mp / "mpy-cross", "-j", JOBS], logfile)
    # cmake itself, not the port's Makefile: that one configures a build folder only once (a
    # later manifest would be ignored), and its BUILD= would move mpy-cross's build folder too.
    port = mp / "ports" / "rp2"
    cfg = ["cmake", "-S", port, "-B", work / "build", "-DPICO_BUILD_DOCS=0",
           "-DMICROPY_BOARD=%s" % mcu, "-DMICROPY_BOARD_DIR=%s" % (port / "boards" / mcu),
           "-DMICROPY_FROZEN_MANIFEST=%s" % man]
    if tool:
        cfg.append("-Dpicotool_DIR=%s" % tool)
    _run(cfg, logfile)
    _run(["cmake", "--build", work / "build", "-j", JOBS], logfile)
    out = uf2_path(board, chip, variant)
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(work / "build" / "firmware.uf2", out)
    log("uf2: %s (%d bytes) in %.0f s" % (out.relative_to(ROOT), out.stat().st_size,
                                          time.monotonic() - began))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", action="append", help="a board of boards/ (repeatable)")
    ap.add_argument("--all", action="store_true", help="every board, both chips")
    ap.add_argument("--chip", choices=sorted(CHIPS), action="append")
    ap.add_argument("--src", default=None, help="the MicroPython source (default: $MICROPY_SRC)")
    args = ap.parse_args(argv)
    boards = deploy.BOARDS if args.all or not args.board else args.board
    chips = args.chip or (sorted(CHIPS) if args.all or not args.board else ["rp2040"])
    try:
        for chip in chips:
            for board in boards:
                build(board, chip, args.src)
    except SourceMissing as e:
        raise SystemExit("uf2: %s" % e) from None
    return 0


if __name__ == "__main__":
    sys.exit(main())
