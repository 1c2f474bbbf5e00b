"""The device tree on the stock MicroPython v1.28.0 firmware in an emulated RP2040 (tools/emu/).

Everything goes through the real ``main.py`` and the board's button pins, and everything seen is
decoded from the SPI bytes the firmware sends. The firmware is an input: set ``PICO_FIRMWARE``
to the official ``RPI_PICO`` v1.28.0 UF2 (CI points it at ../shared/firmware/). Without it these
tests are skipped, with the reason in pytest's summary (`-ra`).

A path that fails on the device is marked a strict expected failure naming the issue that fixes
it, so that the fix turns it into a failure until the marker goes (none at present).
"""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools" / "emu"))
sys.path.insert(0, str(ROOT / "firmware"))

import pico  # noqa: E402  (tools/emu)

DISPLAY_PACK = "pimoroni_display_pack"
BOARDS = ("pimoroni_display_pack", "pimoroni_display_pack_2", "waveshare_pico_lcd_114",
          "waveshare_pico_lcd_13")

try:
    pico.check_ready()
    MISSING = None
except pico.EmulatorMissing as e:
    MISSING = str(e)
pytestmark = pytest.mark.skipif(MISSING is not None, reason="emulated Pico: %s" % MISSING)




@pytest.fixture(scope="module")
def trees():
    """build/<board>/ for each board, built once."""
    return {}


def make_pico(trees, board=DISPLAY_PACK, **kw):
    if board not in trees:
        trees[board] = pico.build_tree(board)
    return pico.EmulatedPico(board, tree=trees[board], **kw)


def assert_no_error(p):
    out = p.read_serial()
    assert "Traceback" not in out and "Error" not in out, out[-2000:]
    files = p.files()
    assert "/error.log" not in files, files["/error.log"].decode(errors="replace")
    return files


def saved_game(files):
    """(seat levels, the game's codec bytes) of /data/game, or None when no game is saved."""
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


def host_render(board, store_files=None, battery=0.0, keys=""):
    """The canvas render of the App on ``board``'s layout, as RGB565 rows (what the panel must show)."""
    from catan.ui.app import App
    from catan.ui.canvas import PALETTE, rgb565
    from catan.ui.dio_canvas import DioCanvas

    sys.path.insert(0, str(ROOT / "host_tests" / "mp"))
    from memstore import MemStore

    b = pico.load_board(board)
    _madctl, w, h, _x, _y = b.ROTATIONS[b.DISPLAY["rotation"]]
    c = DioCanvas(w, h)
    app = App(c, MemStore(store_files), roles=tuple(b.BUTTONS))
    if getattr(b, "BATTERY", None):
        app.battery = battery  # the emulator's ADC reads 0 V
    app.tick(0)
    app.draw()
    import png

    idx = png.gs4_indices(c.gs4(), w, h)
    lut = [rgb565(PALETTE[i]) for i in range(16)]
    return [[lut[idx[y * w + x]] for x in range(w)] for y in range(h)]


# -- the machine: each fix the stock emulator needs, shown to matter ------------------------------

@pytest.mark.parametrize("board", BOARDS)
def test_boot_shows_the_title_screen_exactly_as_the_canvas_renders_it(trees, board, tmp_path):
    with make_pico(trees, board) as p:
        ms = p.boot()
        assert 0 < ms < 5000
        p.run(300)  # the loop's first battery reading redraws the header
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


def test_the_heap_read_from_ram_equals_gc_mem_free_on_the_repl(trees):
    # Safe boot (Y held at power-on) leaves the REPL free.
    with make_pico(trees) as p:
        p.safe_boot()
        p.call("write", text="\r\nimport gc\r\nprint('free=%d' % gc.mem_free())\r\n")
        p.run(300)
        out = p.read_serial()
        assert "safe boot" in out
        free = int(out.split("free=")[-1].split()[0])
        # the same count, less what the REPL allocated after printing it (its line history)
        assert 0 <= free - p.heap()["free"] <= 64
        assert p.heap()["total"] == 245_888


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


# -- the game on the device ------------------------------------------------------------------------

def test_new_game_roll_and_cursor_moves_on_the_device(trees):
    with make_pico(trees) as p:
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
    sent = p.stats()["pixel_bytes"]
    p.key("y", press_ms=800, settle=False)
    p.settle(quiet_ms=300, max_ms=wait_ms, first=True)
    assert_no_error(p)
    assert p.stats()["pixel_bytes"] > sent, "no hint on the screen %d ms after the long press" % wait_ms


def test_coach_hint_straight_after_start(trees):
    with make_pico(trees) as p:
        p.boot()
        p.keys(["a", "x", "a"])
        _hint(p)


def test_coach_hint_after_a_roll(trees):
    with make_pico(trees) as p:
        p.boot()
        p.keys(["a", "x", "a", "a"])
        _hint(p)


def play_to_the_end(p, max_s=1800, chunk_ms=5000):
    """Run until the saved game is over (the app then empties /data/game); press A now and then
    to go past screens that wait for a person. Fails on any error."""
    waited = 0
    while waited < max_s * 1000:
        p.run(chunk_ms)
        waited += chunk_ms
        files = assert_no_error(p)
        if "/data/game" in files and saved_game(files) is None:
            return files
    raise AssertionError("the game did not end in %d emulated s" % max_s)


def saved_start(island, levels, seed=1, turns_left=None):
    """/data/game holding a game of ``levels`` (0 easy, 1 medium, 2 hard), as the app saves it:
    a new game, or with ``turns_left`` the same seats' game that many turns before its end (played
    here by the same computers). The device boots to Continue, and one press plays it."""
    import store
    from catan.codec import dumps, loads
    from catan.dice import SeededDice
    from catan.game import Game
    from catan.players import play_turn
    from catan.ui.app import pack_save
    from catan.ui.records import Settings

    game = Game(island, len(levels), SeededDice(seed))
    if turns_left:
        starts = []
        while not game.over():
            starts.append(dumps(game))
            play_turn(game, levels[game.player])
        game = loads(starts[-turns_left], SeededDice(seed))

    fast = Settings()
    fast.speed = 3  # "instant": the computers' turns go at the speed of their thinking
    return {"/data/game": store.pack(pack_save(game, levels)),
            "/data/settings": store.pack(fast.dumps())}


def test_the_last_four_turns_of_an_island_one_game_by_the_hard_computer(trees):
    # A whole game takes about 7 minutes of this PC (make test stays under 20): the last four
    # turns here; whole games of the hard computer are timed by `make bench` (rp2040_computer_*)
    with make_pico(trees, extra_files=saved_start(1, (2,), turns_left=4)) as p:
        p.boot()
        p.key("a")  # Continue
        play_to_the_end(p)


def test_a_four_seat_island_two_game_of_computers_to_its_end(trees):
    # The last two rounds on the device (a whole game takes about 15 minutes of this PC: the
    # whole-game figures are `make bench`'s)
    with make_pico(trees, extra_files=saved_start(2, (2, 1, 0, 2), turns_left=8)) as p:
        p.boot()
        p.key("a")  # Continue
        play_to_the_end(p)


def test_a_power_cut_during_a_save_loses_nothing(trees):
    with make_pico(trees) as p:
        p.boot()
        p.keys(["a", "x", "a"])
        saved = saved_game(assert_no_error(p))
        writes = p.stats()["flash_writes"]
        p.key("a", settle=False)  # Roll: the app saves the rolled dice
        for _ in range(2000):
            p.run(1)
            if p.stats()["flash_writes"] > writes:
                break
        else:
            raise AssertionError("no flash write after the roll")
        p.power_cut()
        p.boot()
        files = assert_no_error(p)
        after = saved_game(files)
        assert after is not None and after[0] == saved[0]
        p.key("a")  # Continue
        files = assert_no_error(p)
        assert saved_game(files) == after  # continuing changes nothing until the player acts


def test_a_damaged_save_is_reported_and_set_aside(trees):
    import store

    junk = store.pack(b"G\x01\xffnot a game")[:-3] + b"xyz"
    with make_pico(trees, extra_files={"/data/game": junk}) as p:
        p.boot()
        files = p.files()
        assert "/data/game" not in files
        assert files["/data/game.bad"] == junk
        p.run(300)
        assert p.frame() != host_render(DISPLAY_PACK)  # a message, not the plain title
        p.key("a")
        assert p.frame() == host_render(DISPLAY_PACK)  # dismissed: the title, no Continue
        assert_no_error(p)
