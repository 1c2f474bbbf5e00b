"""firmware/app_main.py end to end on fake hardware with a stub App (the real one: mpt_fw_game.py):
the first frame and every later dirty rectangle, decoded from the SPI stream, equal
the canvas; presses reach app.handle; the backlight waits for the first frame; idle dims, then
sleeps the panel; the press that wakes it is swallowed."""

import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for _p in (ROOT / "firmware", ROOT / "host_tests" / "mp", ROOT):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

import app_main
import fake_hw
from catan.ui.canvas import Canvas, lut565


class GS4Canvas(Canvas):
    """Pure-Python canvas drawing into a shared GS4_HMSB buffer (FbCanvas' layout)."""

    def __init__(self, w, h, buf):
        Canvas.__init__(self, w, h)
        self.buffer = buf
        self.stride = (w + 1) >> 1

    def _fill(self, x, y, w, h, c):
        b = self.buffer
        for yy in range(y, y + h):
            o = yy * self.stride
            for xx in range(x, x + w):
                k = o + (xx >> 1)
                b[k] = (b[k] & 0xF0) | c if xx & 1 else (b[k] & 0x0F) | (c << 4)

    def get_pixel(self, x, y):
        v = self.buffer[y * self.stride + (x >> 1)]
        return v & 15 if x & 1 else v >> 4


class StubApp:
    def __init__(self, canvas, store, roles=None, plan=None):
        self.canvas = canvas
        self.store = store
        self.events = []
        self.ticks = 0
        self.pending = True

    def handle(self, role):
        self.events.append(role)
        self.pending = True

    def tick(self, now):
        self.ticks += 1

    def draw(self):
        if not self.pending:
            return
        self.pending = False
        c = self.canvas
        n = len(self.events)
        if n == 0:
            c.fill_rect(0, 0, c.width, c.height, 0)
            c.text(10, 10, "hello", 9)
        else:
            c.fill_rect(20 + 8 * n, 60, 8, 8, n % 16)


def Clock():
    return fake_hw.Clock((1 << 30) - 20_000)  # wraps during the run


def fake_hardware(board):
    """A stand-in for ``machine`` on ``board``, and the list of the SPI buses it made."""
    spis = []

    def SPI(id, **kw):
        s = fake_hw.SPI(id, dc=board.DISPLAY["dc"], cs=board.DISPLAY["cs"])
        spis.append(s)
        return s

    return types.SimpleNamespace(Pin=fake_hw.Pin, PWM=fake_hw.PWM, SPI=SPI, ADC=fake_hw.ADC), spis


def run_app(board, hw, App, clk, max_loops, ticks_ms=None):
    """``app_main.run`` of ``App`` on the fake hardware ``hw`` with a GS4Canvas and no store,
    on the time of ``clk`` (its ticks_ms unless ``ticks_ms`` is given): the app."""
    return app_main.run(board, hw=hw, App=App, make_canvas=GS4Canvas, store=object(),
                        ticks_ms=ticks_ms or clk.ticks_ms, ticks_diff=clk.ticks_diff,
                        sleep_ms=clk.sleep_ms, max_loops=max_loops)


def test_boot_frames_presses_dim_sleep_wake(monkeypatch):
    monkeypatch.setattr(app_main, "_DIM_MS", 2000)
    monkeypatch.setattr(app_main, "_SLEEP_MS", 5000)
    board = app_main.load_board("pimoroni_display_pack")
    hw, spis = fake_hardware(board)
    clk = Clock()
    # A (GP12, active low): a short press, then idle until sleep; a wake press (swallowed),
    # then a real one.
    clk.script = {1300: (12, 0), 1400: (12, 1), 9000: (12, 0), 9100: (12, 1), 10000: (12, 0),
                  10100: (12, 1)}  # the display's init sleeps take the first few hundred ms
    app = run_app(board, hw, StubApp, clk, 1000)
    assert app.events == ["a", "a"]
    d = app_main.display
    c = app_main.canvas
    assert d.width == 240 and d.height == 135 and (d.xoff, d.yoff) == (40, 53)
    panel = fake_hw.Panel()
    panel.feed(spis[0].writes)
    assert fake_hw.mismatches(panel, bytes(c.buffer), 240, 135, lut565(), 40, 53) == []
    # slept once (DISPOFF, SLPIN: not again every round while asleep), then woke (SLPOUT,
    # DISPON) once, at the press
    cmds = panel.commands
    assert cmds.count(0x10) == 1 and cmds.count(0x28) == 1, cmds
    sleep = cmds.index(0x10)
    assert cmds[sleep - 1] == 0x28 and cmds[sleep + 1:sleep + 3] == [0x11, 0x29], cmds[sleep - 1:]
    duties = d.bl.history
    assert duties[0] == 0 and 65535 in duties and 150 * 65535 // 1000 in duties
    dim = 150 * 65535 // 1000
    seq = [v for i, v in enumerate(duties) if i == 0 or duties[i - 1] != v]
    assert seq[:6] == [0, 65535, dim, 0, 65535, dim]  # dark, first frame, dim, sleep, wake, dim


def test_a_press_is_polled_within_a_nap_of_its_edge():
    # Idle, the loop naps LOOP_MS between polls but looks at the buttons every NAP_MS: a
    # press is handled within NAP_MS of its edge wherever in the period it falls.
    board = app_main.load_board("pimoroni_display_pack")
    hw, spis = fake_hardware(board)
    clk = Clock()
    edges = [1301, 1403, 1505, 1607, 1709, 1811, 1913, 2019]
    clk.script = {}
    for t in edges:
        clk.script[t] = (12, 0)  # A down
        clk.script[t + 60] = (12, 1)
    seen = []

    class Timed(StubApp):
        def handle(self, role):
            seen.append(clk.n)
            StubApp.handle(self, role)

    run_app(board, hw, Timed, clk, 1200)
    assert len(seen) == len(edges)
    waits = [s - t for s, t in zip(seen, edges)]
    assert max(waits) <= app_main._NAP_MS, waits


def test_smoke_test_screen_and_button_names():
    import smoke_test

    board = app_main.load_board("waveshare_pico_lcd_114")
    hw, spis = fake_hardware(board)
    clk = Clock()
    clk.script = {1000: (2, 0), 1100: (2, 1), 1300: (3, 0), 2500: (3, 1)}  # up; press held long
    d, c, seen = smoke_test.run(board, hw=hw, make_canvas=GS4Canvas, ticks_ms=clk.ticks_ms,
                                ticks_diff=clk.ticks_diff, sleep_ms=clk.sleep_ms, max_loops=300)
    assert seen == ["up", "press_long"]
    panel = fake_hw.Panel()
    panel.feed(spis[0].writes)
    assert fake_hw.mismatches(panel, bytes(c.buffer), 240, 135, lut565(), 40, 53) == []
    w = 240
    white = fake_hw.expected565(bytes([0x99]), 2, lut565(), 0, 0)
    assert panel.pixel(40, 53) == white and panel.pixel(40 + w - 1, 53) == white  # top corners


def test_battery_measured_every_ten_seconds_while_awake():
    board = app_main.load_board("pimoroni_display_pack")
    hw, _ = fake_hardware(board)
    clk = Clock()
    seen = []  # (ms slept since boot, app.battery) at each tick

    class App(StubApp):
        def tick(self, now):
            seen.append((clk.n, getattr(self, "battery", None)))

    def on_ms(n):
        if n == 3000:
            fake_hw.ADC.level = 30_000  # the cell runs down a little, 3 s after boot

    clk.on_ms = on_ms
    fake_hw.ADC.level = 25_000  # VSYS = 3 * 3.3 V * 25000 / 65535 = 3.78 V
    try:
        run_app(board, hw, App, clk, 1500)
    finally:
        fake_hw.ADC.level = 0
    first_ms, first = seen[0]
    assert abs(first - 3 * 3.3 * 25_000 / 65535) < 1e-9
    changed = [(ms, v) for ms, v in seen if v != first]
    assert changed, "the new level was never read"
    assert abs(changed[0][1] - 3 * 3.3 * 30_000 / 65535) < 1e-9
    assert 10_000 <= changed[0][0] - first_ms <= 10_020  # read again 10 s later, not sooner


def test_the_battery_is_measured_for_the_first_frame():
    board = app_main.load_board("pimoroni_display_pack")
    hw, _ = fake_hardware(board)
    drawn = []  # app.battery at each draw that painted

    class App(StubApp):
        def draw(self):
            if self.pending:
                drawn.append(getattr(self, "battery", None))
            return StubApp.draw(self)

    fake_hw.ADC.level = 25_000
    try:
        clk = Clock()
        run_app(board, hw, App, clk, 3)
    finally:
        fake_hw.ADC.level = 0
    assert drawn and abs(drawn[0] - 3 * 3.3 * 25_000 / 65535) < 1e-9


def test_a_press_read_a_millisecond_after_the_loop_began_neither_dims_nor_is_swallowed():
    # On the device time passes while the loop runs, so the buttons can stamp a press a little
    # later than the loop's ``now``; that is no reason to think the player has been idle for
    # minutes (the emulated Pico dimmed there and swallowed the next press as a wake-up).
    board = app_main.load_board("pimoroni_display_pack")
    hw, _ = fake_hardware(board)
    clk = Clock()

    def ticks_ms():  # each reading a millisecond after the one before
        clk.t = (clk.t + 1) & ((1 << 30) - 1)
        return clk.t

    clk.script = {1300: (12, 0), 1400: (12, 1), 1700: (12, 0), 1800: (12, 1)}
    app = run_app(board, hw, StubApp, clk, 300, ticks_ms=ticks_ms)
    assert app.events == ["a", "a"]
    assert 150 * 65535 // 1000 not in app_main.display.bl.history  # never dimmed


def test_idle_rounds_go_to_the_apps_work_ahead_in_slices_and_a_press_ends_it():
    # An app with work ahead gets the quiet rounds (each a slice that ends when ``until()``
    # says THINK_MS have passed) instead of naps; the loop stops asking once it says it is
    # done, and asks again after a key.
    board = app_main.load_board("pimoroni_display_pack")
    hw, _ = fake_hardware(board)
    clk = Clock()

    class App(StubApp):
        def __init__(self, *a, **kw):
            super().__init__(*a, **kw)
            self.slices = []  # (loop time at the start, ms it ran)
            self.left = 5  # slices of work until done

        def handle(self, role):
            super().handle(role)
            self.left = 3  # a key: new work

        def think(self, until):
            t0 = clk.n
            while not until():
                clk.sleep_ms(1)  # working
            self.slices.append((t0, clk.n - t0))
            self.left -= 1
            return self.left <= 0

    clk.script = {3000: (12, 0), 3100: (12, 1)}  # ms from the start
    app = run_app(board, hw, App, clk, 600)
    assert app.events == ["a"]
    assert len(app.slices) == 5 + 3
    assert all(ms == app_main._THINK_MS for _, ms in app.slices)  # (a button held since
    # before a slice does not cut it short: its press was seen already)
    assert app.slices[4][0] < 3000 <= app.slices[5][0]  # the new work came with the key


def test_a_press_during_a_slice_of_work_ahead_ends_it_at_the_next_step():
    # The press comes 5 ms into a 12 ms slice of steps of 1 ms: it is handled after the step
    # in progress (the slice ends as soon as ``until()`` sees the button down), not 7 ms later.
    board = app_main.load_board("pimoroni_display_pack")
    hw, _ = fake_hardware(board)
    clk = Clock()

    class App(StubApp):
        def __init__(self, *a, **kw):
            super().__init__(*a, **kw)
            self.handled_at = []

        def handle(self, role):
            super().handle(role)
            self.handled_at.append(clk.n)

        def think(self, until):
            while not until():
                clk.sleep_ms(1)  # a step of work
            return False  # never done

    clk.script = {3005: (12, 0), 3100: (12, 1)}
    app = run_app(board, hw, App, clk, 600)
    assert app.events == ["a"]
    assert 3005 <= app.handled_at[0] <= 3007


def test_the_heaps_use_is_read_only_while_work_goes_on_and_rarely(monkeypatch):
    # gc.mem_alloc() walks the whole heap (8.4 ms on an RP2040): idle rounds never read it,
    # rounds of work ahead at most every CHECK_MS, a key's round never; over the limit, the
    # garbage is collected.
    board = app_main.load_board("pimoroni_display_pack")
    hw, _ = fake_hardware(board)
    clk = Clock()
    reads, collections = [], []  # (reads after a collection, to set the next limit, aside)
    use = [0]
    collected = [False]

    def mem_alloc():
        if not collected[0]:
            reads.append(clk.n)
        collected[0] = False
        return use[0]

    def collect():
        collections.append(clk.n)
        collected[0] = True
        use[0] = 0

    monkeypatch.setattr(app_main, "gc", types.SimpleNamespace(mem_alloc=mem_alloc, collect=collect))

    class App(StubApp):
        left = 0  # slices of work ahead (none until a key)

        def handle(self, role):
            super().handle(role)
            self.left = 100  # a key: work ahead for 100 slices

        def think(self, until):
            if self.left <= 0:
                return True
            while not until():
                clk.sleep_ms(1)
                use[0] += 1000  # garbage, 1 KB per ms
            self.left -= 1
            return self.left <= 0

    clk.script = {3000: (12, 0), 3100: (12, 1)}
    app = run_app(board, hw, App, clk, 1000)
    assert app.events == ["a"]
    idle = [t for t in reads if t < 2900]
    working = [t for t in reads if t >= 3000]
    assert idle == []
    assert working and all(b - a >= app_main._CHECK_MS for a, b in zip(working, working[1:]))
    assert len(working) <= 1 + (clk.n - 3000) // app_main._CHECK_MS
    assert any(t > 3100 for t in collections[1:])  # the work's garbage was collected


def test_stock_firmware_holds_the_big_frames_in_bands_of_at_most_band_bytes():
    # The Display Pack's 16,200-byte frame whole, the Pico LCD 1.3's as two bands, the Display
    # Pack 2.0's as three (the memory plan of a Pico's stock firmware); where the code is in
    # flash, the whole frame
    from catan.ui.memory import ROOMY, SMALL, TIGHT, MemoryPlan

    tight = MemoryPlan(TIGHT).band_bytes
    for name, rows in (("pimoroni_display_pack", 135), ("waveshare_pico_lcd_13", 120),
                       ("pimoroni_display_pack_2", 80)):
        board = app_main.load_board(name)
        d = board.DISPLAY
        assert app_main.band_rows(board, tight) == rows
        assert (d["width"] + 1) // 2 * rows <= tight
        assert app_main.band_rows(board, MemoryPlan(ROOMY).band_bytes) == d["height"]
    # a small heap (the stock Pico W): bands of at most 12.8 KB, the Display Pack's in two
    small = MemoryPlan(SMALL).band_bytes
    for name, rows in (("pimoroni_display_pack", 68), ("waveshare_pico_lcd_13", 80),
                       ("pimoroni_display_pack_2", 80)):
        board = app_main.load_board(name)
        assert app_main.band_rows(board, small) == rows
        assert (board.DISPLAY["width"] + 1) // 2 * rows <= small
