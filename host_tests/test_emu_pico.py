"""The game on an emulated RP2040 running the real firmwares (tools/emu/): the game UF2 (the game
frozen into MicroPython v1.28.0, tools/uf2.py), and the device tree on the stock v1.28.0
``RPI_PICO`` and ``RPI_PICO_W`` firmwares.

Everything goes through the real ``main.py`` and the board's button pins, and everything seen is
decoded from the SPI bytes the firmware sends. The firmwares are inputs: ``PICO_FIRMWARE`` and
``PICO_W_FIRMWARE`` name the official UF2s, ``MICROPY_SRC`` the MicroPython source the game UF2 is
built from (CI points all three at ../shared/firmware/). A test whose input is missing is skipped,
with the reason in pytest's summary (`-ra`); CI fails before that instead.

Whole games take 7 to 15 minutes of this PC each, so ``make test`` plays the last turns of games
on each firmware, and ``make bench`` (tools/emu/figures.py) plays whole ones. A path that fails on
a firmware is marked a strict expected failure naming the issue that fixes it, so that the fix
turns it into a failure until the marker goes.
"""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools" / "emu"))
sys.path.insert(0, str(ROOT / "firmware"))

import deploy  # tools/
import figures  # tools/emu
import pico  # tools/emu
from pico import saved_game, saved_start
from panel_render import host_render

DISPLAY_PACK = "pimoroni_display_pack"
DISPLAY_PACK_2 = "pimoroni_display_pack_2"
BOARDS = ("pimoroni_display_pack", "pimoroni_display_pack_2", "waveshare_pico_lcd_114",
          "waveshare_pico_lcd_13")
FIRMWARES = ("uf2", "pico", "picow")


def _missing(firmware):
    try:
        pico.check_ready(firmware)
        return None
    except pico.EmulatorMissing as e:
        return str(e)


MISSING = {fw: _missing(fw) for fw in FIRMWARES}
# the machine's own tests run the stock Pico firmware
pytestmark = pytest.mark.skipif(MISSING["pico"] is not None, reason="emulated Pico: %s" % MISSING["pico"])


@pytest.fixture(params=FIRMWARES)
def firmware(request):
    """Each game test runs on each firmware."""
    return request.param


@pytest.fixture(scope="module")
def trees():
    """build/<board>/ for each board, built once."""
    return {}


def tree_for(trees, board, firmware):
    """The device tree a stock firmware runs (None for the game UF2: its code is in flash); a
    firmware the machine lacks skips the test (``MISSING``)."""
    if MISSING[firmware]:
        pytest.skip("emulated Pico (%s): %s" % (firmware, MISSING[firmware]))
    if firmware != "uf2" and board not in trees:
        trees[board] = pico.build_tree(board)
    return trees.get(board)


def make_pico(trees, board=DISPLAY_PACK, firmware="pico", **kw):
    return pico.EmulatedPico(board, tree=tree_for(trees, board, firmware), firmware=firmware, **kw)


def assert_no_error(p):
    problem, files = p.failure()
    assert problem is None, problem
    return files


# -- the machine: each fix the stock emulator needs, shown to matter ------------------------------

# (the game UF2's title, on every board: test_release.py boots each UF2 of a release)
@pytest.mark.parametrize("firmware", ("pico", "picow"))
@pytest.mark.parametrize("board", BOARDS)
def test_boot_shows_the_title_screen_exactly_as_the_canvas_renders_it(trees, board, firmware, tmp_path):
    with make_pico(trees, board, firmware) as p:
        ms = p.boot()
        assert 0 < ms < 5000
        p.run(300)  # (the battery was measured for the first frame: nothing more is drawn)
        got = p.frame()
        want = host_render(board)
        if got != want:
            p.screenshot(str(tmp_path / "device.png"), 2)
        diff = sum(a != b for r1, r2 in zip(got, want) for a, b in zip(r1, r2))
        assert diff == 0, "%d pixels differ (device.png in %s)" % (diff, tmp_path)
        assert_no_error(p)


def _boots(trees, fixes):
    with make_pico(trees, fixes=fixes) as p:
        p.settle(quiet_ms=200, max_ms=2500, first=True)
        return p.stats()["pixel_bytes"], p.read_serial()


@pytest.mark.parametrize("fix", ["chipReset", "bootselPad"])
def test_without_the_boot_fixes_the_firmware_never_starts(trees, fix):
    assert _boots(trees, pico_fixes_without(fix))[0] == 0
    assert _boots(trees, None)[0] > 0


def pico_fixes_without(fix):
    return [f for f in pico.FIXES if f != fix]


def test_without_pull_ups_the_buttons_read_pressed_and_safe_boot_skips_the_game(trees):
    pixels, serial = _boots(trees, pico_fixes_without("pullUps"))
    assert pixels == 0
    assert "safe boot" in serial


def _first_game_save(trees, fixes):
    # fixed emulated times, not "until quiet": without the NOR model a write never completes
    with make_pico(trees, fixes=fixes) as p:
        p.settle(quiet_ms=200, max_ms=4000, first=True)
        for k in ("a", "x", "a"):  # New game, up to Start (the menu wraps), start
            p.key(k, settle=False)
            p.run(900)
        p.run(1500)
        return p.files(), p.stats()["flash_writes"]


def test_a_save_written_on_the_device_is_on_the_flash_and_needs_the_nor_model(trees):
    files, writes = _first_game_save(trees, None)
    assert saved_game(files) is not None and writes > 0
    files, writes = _first_game_save(trees, pico_fixes_without("norFlash"))
    assert "/data/game" not in files and writes == 0


def _boot_ms(trees, fixes):
    # Reset to the first frame's last pixel: Python and a whole frame of pixels, and no
    # button whose press falls anywhere in the main loop's 10 ms poll (a cursor move is now
    # about 30 ms, so that phase could hide what a fix changes)
    with make_pico(trees, fixes=fixes) as p:
        return p.boot()


def test_the_flash_cache_fix_makes_the_device_slower(trees):
    assert _boot_ms(trees, None) > _boot_ms(trees, pico_fixes_without("xipCache")) + 5


def _spi_write_us(trees):
    # One spi.write of 32 KB on the REPL. (The boot no longer shows the wire: the game's own
    # pixel writer, st7789_asm, fills the FIFO no faster than 62.5 MHz empties it.)
    with make_pico(trees) as p:
        p.safe_boot()
        out = p.exec(SPI_WRITE)
        return int(out.split("US")[1].split()[0])


SPI_WRITE = """
import machine, time, app_main
s = app_main.load_board().SPI
app_main.fast_peripherals(machine)
spi = machine.SPI(s["id"], baudrate=s["baudrate"], sck=machine.Pin(s["sck"]), mosi=machine.Pin(s["mosi"]))
b = bytearray(32768)
t = time.ticks_us()
spi.write(b)
print("US", time.ticks_diff(time.ticks_us(), t))
"""


def test_the_spi_timing_fix_gives_each_byte_its_time_on_the_wire(trees):
    # 32 KB at 62.5 MHz: 4.19 ms (stock rp2040js gives an SPI byte no time at all)
    assert 4194 <= _spi_write_us(trees) < 4500


def test_without_the_usb_fix_the_idle_host_storm_slows_the_device(trees):
    def boot_ms(fixes):
        with make_pico(trees, fixes=fixes) as p:
            return p.boot()

    assert boot_ms(pico_fixes_without("usbIdle")) > 1.2 * boot_ms(None)


def test_the_heap_read_from_ram_equals_gc_mem_free_on_the_repl(trees, firmware):
    # Safe boot (Y held at power-on) leaves the REPL free.
    with make_pico(trees, firmware=firmware) as p:
        p.safe_boot()
        p.call("write", text="\r\nimport gc\r\nprint('free=%d' % gc.mem_free())\r\n")
        p.run(300)
        out = p.read_serial()
        assert "safe boot" in out
        free = int(out.split("free=")[-1].split()[0])
        # the same count, less what the REPL allocated after printing it (its line history)
        assert 0 <= free - p.heap()["free"] <= 64
        assert p.heap()["total"] == (205_184 if firmware == "picow" else 245_888)  # W: 40 KB less


def test_the_thumb_pixel_writer_sends_exactly_the_framebuffer(trees):
    # Rectangles at odd and even columns, one pixel to whole lines, drawn over a blank frame:
    # the panel shows the buffer's pixels in each (widened to whole bytes), blank elsewhere.
    sys.path.insert(0, str(ROOT / "host_tests" / "mp"))
    import fake_hw
    from catan.ui.canvas import lut565

    rects = [(3, 5, 7, 9), (100, 50, 1, 1), (0, 0, 240, 2), (201, 120, 38, 15), (60, 70, 2, 30)]
    with make_pico(trees) as p:
        p.safe_boot()
        out = p.exec(WRITER % rects)
        assert "SENT" in out and "True" in out, out
        got = p.frame()
    src = bytes((i * 7 + (i >> 5)) & 255 for i in range(120 * 135))
    lut = lut565()
    blank = fake_hw.expected565(bytes(120 * 135), 240, lut, 0, 0)
    sent = set()
    for x, y, w, h in rects:
        x0 = x & ~1
        sent.update((xx, yy) for xx in range(x0, min((x + w + 1) & ~1, 240)) for yy in range(y, y + h))
    bad = [(x, y) for y in range(135) for x in range(240)
           if got[y][x] != (fake_hw.expected565(src, 240, lut, x, y) if (x, y) in sent else blank)]
    assert bad == []


WRITER = """
import machine, time, app_main, st7789
from catan.ui.canvas import lut565
buf = bytearray(120 * 135)
d = app_main.make_display(app_main.load_board(), machine, buf, lut565(), time.sleep_ms)
d.show_all()
for i in range(len(buf)):
    buf[i] = (i * 7 + (i >> 5)) & 255
d.show(%r)
print("SENT", d.regs is not None)
"""


# -- the game on the device, on each firmware -------------------------------------------------------

def test_new_game_roll_and_cursor_moves_on_the_device(trees, firmware):
    with make_pico(trees, firmware=firmware) as p:
        p.boot()
        p.keys(["a", "x", "a"])  # New game, up to Start, start
        levels, before = saved_game(assert_no_error(p))
        assert levels == (255,)
        p.key("a")  # Roll
        after = saved_game(assert_no_error(p))[1]
        assert after != before  # the roll was saved
        frames = []
        for _ in range(3):
            sent = p.stats()["pixel_bytes"]
            p.key("y")
            assert p.stats()["pixel_bytes"] > sent  # the cursor moved on the panel
            frames.append(p.frame())
        assert frames[0] != frames[1] != frames[2]
        assert_no_error(p)


def _hint(p, wait_ms=30_000):
    """A long press of Y; the hint must be on the screen within ``wait_ms``, without an error."""
    long_ns = p.key("y", press_ms=800, settle=False) + 600 * pico.MS  # the long press is seen
    # The hint may be on the screen already (drawn while Y was held): then only until quiet, or
    # the next pixels waited for would be its line leaving the foot 3 s on.
    drawn = p.stats()["last_pixel_ns"] > long_ns
    p.settle(quiet_ms=300, max_ms=wait_ms, first=not drawn)
    assert_no_error(p)
    assert p.stats()["last_pixel_ns"] > long_ns, "no hint on the screen %d ms after the long press" % wait_ms


def _hint_as_on_the_host(p, saves, keys, tmp_path):
    """Press ``keys`` (``y_long``: the hint), then the panel must be the host's render of the same
    saved game after the same keys: the coach's words and what they point at, pixel for pixel."""
    for k in keys:
        if k == "y_long":
            _hint(p)
        else:
            p.key(k)
    got, want = p.frame(), host_render(p.board_name, saves, keys=keys)
    if got != want:
        p.screenshot(str(tmp_path / "device.png"), 2)
    diff = sum(a != b for r1, r2 in zip(got, want) for a, b in zip(r1, r2))
    assert diff == 0, "%d pixels differ from the host's render (device.png in %s)" % (diff, tmp_path)


HINT_GAME = dict(island=1, levels=(255,), seed=3)  # a person's solo game, its dice seeded


@pytest.mark.parametrize("board", (DISPLAY_PACK, DISPLAY_PACK_2))
def test_coach_hint_straight_after_start(trees, firmware, board, tmp_path):
    saves = saved_start(**HINT_GAME)
    with make_pico(trees, board, firmware, extra_files=saves) as p:
        p.boot()
        _hint_as_on_the_host(p, saves, ["a", "y_long"], tmp_path)  # Continue: before the roll


@pytest.mark.parametrize("fw", ("pico", "picow"))
def test_a_hint_after_the_pause_menu_is_drawn(fw):
    # Issue 37: on the stock Pico a hint asked after the pause menu (B, B) drew nothing for a
    # minute, where the same hint without the menu came in 413 ms. The keys as a person pressed
    # them: New game, down to Start, Start, Roll, the cursor over the dice and back, the pause
    # menu and back, the hint (the scripted game's dice: figures.fixed_dice_tree).
    with figures.fixed_dice_pico(pico.DEFAULT_BOARD, fw) as p:
        p.boot()
        p.keys(["a", "y", "y", "y", "y", "y", "a", "a", "y", "y", "y", "x", "x", "x", "b", "b"])
        _hint(p)


@pytest.mark.parametrize("moment", ("between_rolls", "build_phase"))
def test_coach_hint_after_a_roll_and_in_the_build_phase(trees, firmware, moment, tmp_path):
    # Continue, Roll, (the cursor from die 1 to Keep, Keep,) the hint
    keys = ["a", "a"] + (["y", "y", "y", "x", "y", "y", "y", "y", "y", "a"]
                         if moment == "build_phase" else []) + ["y_long"]
    saves = saved_start(**HINT_GAME)
    with make_pico(trees, firmware=firmware, extra_files=saves) as p:
        p.boot()
        _hint_as_on_the_host(p, saves, keys, tmp_path)


def test_coach_hint_on_island_two_with_its_number(trees, firmware, tmp_path):
    # A person's Island Two game with two seats (a computer the other): Continue, Roll, the hint;
    # the host's render of the same game says "turns to 10 VP" (test_race), and the panel must
    # be that render, pixel for pixel
    saves = saved_start(island=2, levels=(255, 0), seed=3)
    with make_pico(trees, firmware=firmware, extra_files=saves) as p:
        p.boot()
        _hint_as_on_the_host(p, saves, ["a", "a", "y_long"], tmp_path)


def play_to_the_end(p, firmware, max_s=1800, chunk_ms=5000):
    """Run until the saved game is over (the app then empties /data/game); press A now and then
    to go past screens that wait for a person. Fails on any error, and where the heap has the
    room (all but the stock Pico W), on a computer's move played by the level below for want of
    it (``App._next_action``)."""
    waited = 0
    while waited < max_s * 1000:
        p.run(chunk_ms)
        waited += chunk_ms
        files = assert_no_error(p)
        if "/data/game" in files and saved_game(files) is None:
            lower = p.read_serial().count(figures.LOWER)
            assert firmware == "picow" or not lower, "%d moves played by a level below" % lower
            return files
    raise AssertionError("the game did not end in %d emulated s" % max_s)


# The end of a game on each firmware, each kind of game on both Display Packs (a firmware plays
# one kind on the one and the other on the other): the other three pairs of each are `make bench`'s
# whole games (rp2040_*_errors), as are the whole games themselves (make test stays under 30 min).
ISLAND_ONE_ENDS = (("uf2", DISPLAY_PACK), ("pico", DISPLAY_PACK), ("picow", DISPLAY_PACK_2))
ISLAND_TWO_ENDS = (("uf2", DISPLAY_PACK_2), ("pico", DISPLAY_PACK_2), ("picow", DISPLAY_PACK))


@pytest.mark.parametrize("firmware,board", ISLAND_ONE_ENDS)
def test_the_last_turns_of_an_island_one_game_by_the_hard_computer(trees, firmware, board):
    # A whole game takes about 7 minutes of this PC: the last four turns here, then the game-over
    # screens
    with make_pico(trees, board, firmware, extra_files=saved_start(1, (2,), turns_left=4)) as p:
        p.boot()
        p.key("a")  # Continue
        play_to_the_end(p, firmware)


@pytest.mark.parametrize("firmware,board", ISLAND_TWO_ENDS)
def test_a_four_seat_island_two_game_of_computers_to_its_end(trees, firmware, board):
    # The last round on the device (each seat's computer once), then the game-over screens (a
    # whole game takes about 15 minutes of this PC; the bench plays it)
    with make_pico(trees, board, firmware,
                   extra_files=saved_start(2, (2, 1, 0, 2), turns_left=4)) as p:
        p.boot()
        p.key("a")  # Continue
        play_to_the_end(p, firmware)


def test_a_power_cut_during_a_save_loses_nothing(trees, firmware):
    # A seeded game, so that the roll in flight is known: Continue, Roll, and the power cut at
    # several points of the save the roll makes. After each the save is the game before the roll
    # or the game after it, byte for byte, never anything else; Continue then changes nothing.
    saves = saved_start(**HINT_GAME)
    with make_pico(trees, firmware=firmware, extra_files=saves) as p:
        p.boot()
        p.key("a")  # Continue
        before = saved_game(assert_no_error(p))
        p.key("a")  # Roll
        rolled = saved_game(assert_no_error(p))
    assert rolled != before
    for delay_ms in (0, 3, 9, 30):  # after the save's first write to the flash
        with make_pico(trees, firmware=firmware, extra_files=saves) as p:
            p.boot()
            p.key("a")
            writes = p.stats()["flash_writes"]
            p.key("a", settle=False)
            for _ in range(2000):
                p.run(1)
                if p.stats()["flash_writes"] > writes:
                    break
            else:
                raise AssertionError("no flash write after the roll")
            p.run(delay_ms)
            p.power_cut()
            p.boot()
            after = saved_game(assert_no_error(p))
            assert after in (before, rolled), "cut %d ms into the save" % delay_ms
            p.key("a")  # Continue
            assert saved_game(assert_no_error(p)) == after  # nothing changes until the player acts


def test_a_damaged_save_is_reported_and_set_aside(trees, firmware):
    import store

    junk = store.pack(b"G\x01\xffnot a game")[:-3] + b"xyz"
    with make_pico(trees, firmware=firmware, extra_files={"/data/game": junk}) as p:
        p.boot()
        files = p.files()
        assert "/data/game" not in files
        assert files["/data/game.bad"] == junk
        p.run(300)
        assert p.frame() != host_render(DISPLAY_PACK)  # a message, not the plain title
        p.key("a")
        assert p.frame() == host_render(DISPLAY_PACK)  # dismissed: the title, no Continue
        assert_no_error(p)


FULL_HEAP = """
import gc, app_main, main
app_main.SPARE = %d
real = app_main.run
KEEP = [None, None]  # what the failed game keeps: the error report may not count on it being freed
ERROR = MemoryError("the heap is full, on purpose")


def run(board):
    KEEP[0] = real(board, max_loops=5)  # the title on the panel
    chain = None
    try:
        while True:  # one-block objects until not one block is free
            chain = (chain,)
    except MemoryError:
        pass
    KEEP[1] = chain
    raise ERROR


app_main.run = run
main.start()
"""


def _full_heap_error(trees, firmware, spare):
    with make_pico(trees, firmware=firmware) as p:
        p.safe_boot()
        out = p.exec(FULL_HEAP % spare)
        assert "the heap is full, on purpose" in out, out
        return p.files(), p.frame()


def test_an_error_with_a_full_heap_is_logged_and_shown(trees, firmware):
    # The game fails with not one free block in the heap: main.py frees the spare block kept since
    # boot (app_main.SPARE), then logs the error and shows it.
    files, frame = _full_heap_error(trees, firmware, 2048)
    assert "MemoryError: the heap is full, on purpose" in files["/error.log"].decode(), files
    assert frame[1][1] == host_pixel(10)  # the error screen's black


def test_without_the_spare_block_an_error_with_a_full_heap_is_not_logged(trees):
    files, _frame = _full_heap_error(trees, "pico", 0)
    assert "/error.log" not in files


def host_pixel(index):
    from catan.ui.canvas import PALETTE, rgb565

    return rgb565(PALETTE[index])


# -- the names the game interns on stock firmware ---------------------------------------------------

# Stock MicroPython interns each name a module's bytecode holds (a qstr: its functions, attributes,
# arguments, short strings) as the module is imported, in pools that are never freed, each twice
# the size of the one before. On both stock firmwares the first six hold 1,260 names, and the
# 1,261st makes a seventh: a 7.7 KB block, for good, wherever the heap has one then
# (micropython.qstr_info() on the emulated Pico). The game's names fit the six: see
# tools/deploy.py (compile_module) and the ``_NAME = const(...)`` of its modules; `figures.py
# --qstrs` gives each module's share.
QSTR_POOLS = 6


@pytest.mark.parametrize("fw", ("pico", "picow"))
def test_every_name_the_game_can_import_fits_the_stock_firmwares_first_qstr_pools(trees, fw):
    out, share, errors = figures.qstrs(DISPLAY_PACK, fw, tree_for(trees, DISPLAY_PACK, fw))
    assert not errors and len(share) > 40, (errors, share)
    assert out["rp2040_qstr_pools"] <= QSTR_POOLS and out["rp2040_qstr_room"] >= 0, (out, share)


# -- the game UF2: the game in flash, the saves on the filesystem ----------------------------------

def test_the_game_uf2_boots_on_a_blank_filesystem_and_makes_its_saves_folder(trees):
    with make_pico(trees, firmware="uf2", blank_fs=True) as p:
        p.boot()
        p.keys(["a", "x", "a"])  # New game, up to Start, start
        files = assert_no_error(p)
        assert saved_game(files)[0] == (255,)
        assert not [f for f in files if not f.startswith("/data/")], files  # the code is in flash
        out = p.read_serial()
    assert "Traceback" not in out


def test_a_game_moves_between_the_stock_install_and_the_game_uf2(trees):
    # Played on the stock firmware with the .mpy tree (make flash), continued on the game UF2 with
    # the same filesystem, then back: the same save format, in the same place.
    with make_pico(trees, firmware="pico") as p:
        p.boot()
        p.keys(["a", "x", "a", "a"])  # a new game, rolled
        stock = saved_game(assert_no_error(p))
        fs = p.fs_region()
    with make_pico(trees, firmware="uf2", fs=fs) as p:
        p.boot()
        p.key("a")  # Continue
        files = assert_no_error(p)
        assert saved_game(files) == stock
        p.keys(["y", "y", "y", "x", "y", "y", "y", "y", "y", "a"])  # the cursor to Keep, Keep
        moved = saved_game(assert_no_error(p))
        assert moved != stock
        fs = p.fs_region()
    with make_pico(trees, firmware="pico", fs=fs) as p:
        p.boot()
        p.key("a")
        assert saved_game(assert_no_error(p)) == moved


# -- the mip package (make mip): what mip lays on the Pico plays ---------------------------------

@pytest.mark.parametrize("firmware", ("pico", "picow"))
def test_what_mip_installs_plays_on_the_stock_firmware(trees, firmware, tmp_path):
    import json

    pkg = deploy.mip_package(DISPLAY_PACK, tmp_path / "mip")
    laid = tmp_path / "laid"  # each url's file at its target path, as mip writes them
    for dest, src in json.loads((pkg / "package.json").read_text())["urls"]:
        (laid / dest).parent.mkdir(parents=True, exist_ok=True)
        (laid / dest).write_bytes((pkg / src).read_bytes())
    with pico.EmulatedPico(DISPLAY_PACK, tree=laid, firmware=firmware) as p:
        p.boot()
        p.keys(["a", "x", "a", "a"])  # New game, Start, Roll
        assert saved_game(assert_no_error(p))[0] == (255,)
        _hint(p)
