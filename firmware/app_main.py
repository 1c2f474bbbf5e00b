"""Build the device and run the game: board -> framebuffer -> SPI -> display -> canvas -> store ->
buttons -> App, then the main loop (poll buttons, app.handle/tick/draw, send dirty rectangles,
give idle rounds to the app's work ahead, dim and sleep when idle).

The board module is chosen by ``board_config.py`` in the device root (``BOARD = "<file in
boards/>"``), else the Display Pack. The framebuffer is allocated right after the (tiny) board module
is imported, before anything else can fragment the heap.

Everything hardware-facing is injectable (``run(board, hw=..., App=..., make_canvas=...)``), so
host tests drive the loop with fake pins and SPI and a stub App; ``max_loops`` ends the loop.
App interface (lib/catan/ui/app.py): ``App(canvas, store, roles=...)`` (the board's button
roles), ``app.handle(role)``, ``app.tick(now_ms)``, ``app.draw()``, and ``app.brightness``
(0..1000, from the player's settings), which the loop applies while the screen is awake,
and optionally ``app.think(until)`` (work ahead in slices; True when none is left);
the loop sets ``app.battery`` (VSYS in volts) every 10 s on boards that can measure it.
"""

import gc
import sys

try:
    from micropython import const  # built in (the game's package is imported later, by memory_plan)
except ImportError:  # CPython: the host's tests
    from catan import const

_DEFAULT_BOARD = const("pimoroni_display_pack")
_DIM_MS = const(60_000)  # idle time before dimming
_SLEEP_MS = const(300_000)  # idle time before the panel sleeps (backlight off, SLPIN)
_DIM_LEVEL = const(150)  # brightness when dimmed (of 1000)
_LOOP_MS = const(10)  # poll period while awake
_NAP_MS = const(2)  # while awake and idle, the buttons are looked at this often between polls
_CHECK_MS = const(100)  # how often the heap's use may be read while work goes on (see ``run``)
_THINK_MS = const(12)  # a slice of the app's work ahead in an idle round (it ends sooner at a press)
_GARBAGE = const(16_384)  # the work ahead's garbage collected once it reaches this (see ``run``)
_PLUG_RUN = const(64)  # free blocks in a row (1 KB) that end ``plug_holes``
PLUG_MAX = 2048  # and at most this many objects
_SLEEP_LOOP_MS = const(50)  # poll period while asleep
_BATTERY_MS = const(10_000)  # how often the battery is measured while awake
_SAVE_ROOT = const("/data")
ERROR_LOG = "/error.log"  # main.py appends uncaught exceptions here
SPARE = 2048  # kept from boot, freed to report an error (error.log's file object: ~1.2 KB)
# set while running, so main.py can show an uncaught exception on the screen (and tests
# can watch the app)
display = None
canvas = None
app = None


def load_board(name=None):
    if name is None:
        try:
            from board_config import BOARD as name
        except ImportError:
            name = _DEFAULT_BOARD
    pkg = __import__("boards." + name)
    return getattr(pkg, name)


_framebuffer = None
_spare = None


def release():
    """Free the game's state and the spare block kept since boot (``SPARE``), so that an error
    can be logged and shown however full the heap was (main.show_error)."""
    global app, _spare
    app = None
    _spare = None
    gc.collect()


def code_in_flash():
    """True where the game's bytecode runs from flash: frozen into a game UF2 (tools/uf2.py), this
    module's ``__file__`` is its frozen name, with no folder. On stock firmware every module is
    imported from a file (``/lib/...``) and its bytecode copied into the heap."""
    return not __file__.startswith("/")


def memory_plan():
    """The game's memory plan (``catan.ui.memory``), chosen from where its code runs and how big
    the heap is: it decides what stays in the heap and the answer to a ``MemoryError``. None in
    a device tree without the game (the host tests' rigs); the roomy plan off MicroPython (no
    ``gc.mem_free``: the host tests)."""
    try:
        from catan.ui.memory import ROOMY, MemoryPlan, regime
    except ImportError:
        return None
    free = getattr(gc, "mem_free", None)
    if free is None:
        return MemoryPlan(ROOMY)
    return MemoryPlan(regime(code_in_flash(), free() + gc.mem_alloc()))


def band_rows(board, limit):
    """The rows of the picture the framebuffer holds: all of them, or where the whole frame is
    over ``limit`` bytes (0: no limit; the memory plan's ``band_bytes``), the fewest equal bands
    that are not."""
    w = board.DISPLAY["width"]
    h = board.DISPLAY["height"]
    bands = 1
    if limit:
        frame = ((w + 1) >> 1) * h
        bands = (frame + limit - 1) // limit
    return (h + bands - 1) // bands


def frame_rows(board, plan):
    """The framebuffer's rows under ``plan``: in bands only where the canvas can paint them
    (native drawing)."""
    limit = plan.band_bytes if plan is not None and native_drawing() is not None else 0
    return band_rows(board, limit)


def alloc_framebuffer(board, rows=None):
    """The framebuffer (of ``rows`` rows: see ``band_rows``), made once per power-on: a second
    ``run`` in the same VM (at the REPL after Ctrl-C, or the host rigs' boots) reuses it, as a
    new one rarely fits in a heap the first run has split."""
    global _framebuffer
    n = ((board.DISPLAY["width"] + 1) >> 1) * (rows or board.DISPLAY["height"])
    if _framebuffer is None or len(_framebuffer) != n:
        _framebuffer = None
        gc.collect()
        _framebuffer = bytearray(n)
    return _framebuffer


def fast_peripherals(hw):
    """Clock the peripherals (clk_peri) from the system clock, not at 48 MHz. MicroPython's rp2
    port runs them from the USB PLL so that their rates survive machine.freq(); SPI is then at
    most 24 MHz, whatever the board asks: a whole 240x135 frame takes 21.6 ms on the wire, a
    320x240 one 51 ms. At 125 MHz the boards' 62.5 MHz (ST7789: 16 ns write cycle) is
    reached: 8.3 and 19.7 ms. ``machine.freq(cpu, peri)`` takes a peripheral clock equal to
    the CPU's; a port without that argument keeps its clock."""
    freq = getattr(hw, "freq", None)
    if freq is None:
        return
    try:
        f = freq()
        freq(f, f)
    except (TypeError, ValueError):
        pass


def spi_registers(hw, spi_id):
    """The address of SPI block ``spi_id``'s registers on an RP2040 or RP2350 (datasheets,
    address maps), where the display driver writes pixels itself; None elsewhere, or with
    hardware that has no registers (the host tests' fakes: the driver then uses ``spi.write``)."""
    import sys

    if not hasattr(hw, "mem32"):
        return None
    chip = getattr(sys.implementation, "_machine", "")
    for name, blocks in (("RP2040", (0x4003C000, 0x40040000)),
                         ("RP2350", (0x40080000, 0x40088000))):
        if name in chip:
            return blocks[spi_id]
    return None


def make_display(board, hw, buf, lut, sleep_ms=None, init=True):
    import st7789

    Pin = hw.Pin
    s = board.SPI
    d = board.DISPLAY
    madctl, w, h, xo, yo = board.ROTATIONS[d["rotation"]]
    fast_peripherals(hw)
    spi = hw.SPI(s["id"], baudrate=s["baudrate"], sck=Pin(s["sck"]), mosi=Pin(s["mosi"]))
    dc = Pin(d["dc"], Pin.OUT, value=1)
    cs = Pin(d["cs"], Pin.OUT, value=1)
    rst = Pin(d["rst"], Pin.OUT, value=1) if d["rst"] is not None else None
    b = board.BACKLIGHT
    blpin = Pin(b["pin"], Pin.OUT, value=0)
    if b.get("pwm"):
        bl = hw.PWM(blpin)
        bl.freq(1000)
    else:
        bl = blpin
    return st7789.ST7789(spi, dc, cs, w, h, madctl=madctl, xoff=xo, yoff=yo, bgr=d["bgr"],
                         invert=d["invert"], rst=rst, bl=bl, sleep_ms=sleep_ms, buf=buf, lut=lut,
                         init=init, regs=spi_registers(hw, s["id"]))


class _PowerUp:
    """The panel's power-up steps (``ST7789.init_steps``) run between the pieces of the boot,
    so that its waits (about 300 ms) pass while the game is imported, not asleep."""

    def __init__(self, steps, ticks_ms, ticks_diff, sleep_ms):
        self.steps = steps
        self.ms = ticks_ms
        self.diff = ticks_diff
        self.sleep = sleep_ms
        self.t = ticks_ms()
        self.wait = 0
        self.done = False

    def run(self, block=False):
        """Take every step whose wait is over; with ``block``, sleep through the waits to the
        end."""
        while not self.done:
            left = self.wait - self.diff(self.ms(), self.t)
            if left > 0:
                if not block:
                    return
                self.sleep(left)
            self.t = self.ms()
            try:
                self.wait = next(self.steps)
            except StopIteration:
                self.done = True


def _battery(board, hw):
    """A function giving VSYS in volts, or None if the board cannot measure it."""
    b = getattr(board, "BATTERY", None)
    if not b or not hasattr(hw, "ADC"):
        return None
    adc = hw.ADC(hw.Pin(b["adc_pin"]))
    scale = b["scale"] * 3.3 / 65535
    return lambda: adc.read_u16() * scale


def native_drawing():
    """The module fb_viper (text, sprites and runs of rows natively), or None on a port without
    the native emitter (the canvas then draws the Python way)."""
    try:
        import fb_viper
    except Exception:
        return None
    return fb_viper


def _fb_canvas(w, h, buf):
    from catan.ui.fb_canvas import FbCanvas

    return FbCanvas(w, h, buf, native_drawing(), len(buf) // ((w + 1) >> 1))


def plug_holes(stop=None, run=_PLUG_RUN):
    """Fill the heap's free holes below its first run of ``run`` free blocks with one-block
    garbage (freed by the next collection); the number filled. MicroPython's allocator looks
    for room from its lowest free block up, and after a collection that is the bottom of the
    heap again: every object of two blocks or more then walks the holes left between what the
    game keeps (on the emulated Pico a full paint of the 320x240 turn screen took 98-118 ms
    after a collection, 56 ms once its 469 holes were filled, which takes 20 ms; a run of 8
    free blocks instead of 64 ended it after 30, low in that heap). A one-block object
    takes the lowest free block, so filling the holes moves the allocator's starting point up
    to the free space above them. Stops early if ``stop()`` becomes true (a button went down).
    MicroPython only: an object's id is its address."""
    step = 16 if sys.maxsize >> 32 == 0 else 32  # a block: four machine words
    last = adjacent = n = 0
    while adjacent < run and n < PLUG_MAX:
        a = id(object())
        adjacent = adjacent + 1 if a == last + step else 0
        last = a
        n += 1
        if n & 31 == 0 and stop is not None and stop():
            break
    return n


def run(board=None, hw=None, App=None, make_canvas=None, store=None, ticks_ms=None,
        ticks_diff=None, sleep_ms=None, max_loops=None):
    """Build the device (``boot``), then run the main loop (``main_loop``; ``max_loops``: that
    many rounds, for the tests); the app."""
    boot_parts = boot(board, hw, App, make_canvas, store, ticks_ms, ticks_diff, sleep_ms)
    return main_loop(boot_parts, max_loops)


def boot(board, hw, App, make_canvas, store, ticks_ms, ticks_diff, sleep_ms):
    """Board -> framebuffer -> display (powered up in the waits of the rest) -> canvas -> store
    -> buttons -> App, its first frame shown, then the players' code; sets the module's
    ``display``, ``canvas`` and ``app``. The parts the main loop needs: (board, hw, buttons, the
    battery's reading or None, gc.mem_alloc or None, ticks_ms, ticks_diff, sleep_ms). (79 lines:
    each step is one ``power.run()`` from the next, so that the panel's power-up waits pass while
    the game is imported; the order is the heap's layout.)"""
    global display, canvas, app, _spare
    if board is None:
        board = load_board()
    plan = memory_plan()
    # first, the biggest allocation (in bands where the plan says so: the code is in the heap)
    buf = alloc_framebuffer(board, frame_rows(board, plan))
    if _spare is None:
        _spare = bytearray(SPARE)
    if hw is None:
        import machine as hw
    if ticks_ms is None:
        import time

        ticks_ms = time.ticks_ms
        ticks_diff = time.ticks_diff
        sleep_ms = time.sleep_ms
    from catan.ui.canvas import lut565

    display = make_display(board, hw, buf, lut565(), sleep_ms, init=False)
    power = _PowerUp(display.init_steps(), ticks_ms, ticks_diff, sleep_ms)
    power.run()  # the panel's first wait begins: the rest of the boot runs in its waits
    if plan is not None:  # then what stays for good, so the rest of the heap stays in one piece
        plan.reserve()
    power.run()
    canvas = (make_canvas or _fb_canvas)(display.width, display.height, buf)
    if canvas.bands > 1:
        canvas.send = display.show  # each band, as it is painted
    power.run()
    if store is None:
        from store import Store

        store = Store(_SAVE_ROOT)
    import buttons

    btn = buttons.Buttons(buttons.from_board(board, hw.Pin), ticks_ms, ticks_diff)
    power.run()
    if App is None:
        from catan.ui.app import App
    power.run()
    first = App(canvas, store, roles=tuple(board.BUTTONS), plan=plan)
    battery = _battery(board, hw)
    if battery is not None:  # in the first frame, not drawn again at the loop's first round
        first.battery = battery()
    power.run()
    used = getattr(gc, "mem_alloc", None)  # MicroPython's; CPython (the host tests) has none
    gc.collect()  # the imports' garbage (measured: the first frame comes sooner with it here)
    if used:
        plug_holes()
    if canvas.bands > 1:  # each band is sent as it is painted: the first is painted in the
        # panel's power-up waits, which end before it is sent

        def first_send(rects, top):
            power.run(True)
            display.show(rects, top)

        canvas.send = first_send
        first.draw()
        canvas.send = display.show
    else:
        canvas.invalidate()
        first.draw()
        power.run(True)  # the panel is ready before the first frame
        display.show(canvas.take_dirty())  # the backlight comes on after this first frame
    if plan is not None:  # the players' code where it stays, once the first frame is shown
        plan.boot_players()
    app = first  # running now (tests wait for it before they press a button)
    return board, hw, btn, battery, used, ticks_ms, ticks_diff, sleep_ms


def main_loop(boot_parts, max_loops=None):
    """Poll the buttons, let the app handle, tick and draw, send what changed to the panel, give
    idle rounds to the app's work ahead, dim and sleep when idle; the app once ``max_loops``
    rounds have run (None: for ever)."""
    # One function of some 100 lines, on purpose: the loop's state lives in its locals, the
    # names MicroPython reads fastest; split, it would be arguments or attributes every round.
    board, hw, btn, battery, used, ticks_ms, ticks_diff, sleep_ms = boot_parts
    measured = ticks_ms()  # (the battery was measured for the first frame)
    state = 0  # 0 awake, 1 dimmed, 2 asleep
    loops = 0
    busy = False  # something was handled or drawn since the last collection
    think = getattr(app, "think", None)
    thinking = think is not None  # the app may have work to do ahead, in idle rounds
    began = [0, False]  # when the slice of work ahead began, and whether a button was down
    # The work ahead and the computers' steps make garbage (boxed floats) while the game's own
    # objects live on: left to pile up, the garbage pushes new lasting objects up the heap,
    # where they split its largest free block once it is collected (on the emulated Pico, an
    # Island Two game of computers at the instant speed then found no 3.4 KB block for its
    # last screen). A collection takes ~24 ms on an RP2040. Reading the heap's use walks all
    # of it (``gc.mem_alloc``: 8.4 ms on an RP2040), so it is read only after a round that
    # did some work, at most every _CHECK_MS: read in every idle round, it nearly doubled the
    # loop's period, and so a key's wait.
    tidy = [0]  # the heap in use at which the next collection is due
    checked = ticks_ms()  # when it was last read

    held = btn.held

    def collect():
        gc.collect()
        if used:
            tidy[0] = used() + _GARBAGE
            plug_holes(held)

    def nap():  # _LOOP_MS, cut short when a button goes down or up: a press is polled within
        # _NAP_MS of its edge, not up to _LOOP_MS later (the mean wait falls from ~5 ms to ~1)
        was = held()
        for _ in range(_LOOP_MS // _NAP_MS):
            sleep_ms(_NAP_MS)
            if held() != was:
                return

    def slice_over():  # _THINK_MS have passed, or a button went down since the slice began (its
        # press waits for one step of the work, not the rest of the slice; one held since
        # before was seen by this round's poll and does not cut every slice short)
        return ticks_diff(ticks_ms(), began[0]) >= _THINK_MS or not began[1] and held()

    while max_loops is None or loops < max_loops:
        loops += 1
        now = ticks_ms()
        events = btn.poll()
        if state and (events or btn.pressed()):
            level = getattr(app, "brightness", 1000)
            if state == 2:
                display.brightness = level  # restored by the wake-up itself, after SLPOUT
                display.sleep(False)
            else:
                display.set_brightness(level)
            state = 0
            btn.swallow()  # the press that wakes the screen does nothing else
            btn.last_activity = now
            events = []
        for e in events:
            app.handle(e)
        if events and hasattr(app, "repeat_roles"):
            btn.set_repeat(app.repeat_roles())  # letters repeat in a text entry
        if battery is not None and state == 0 and ticks_diff(now, measured) >= _BATTERY_MS:
            measured = now
            app.battery = battery()
        app.tick(now)
        if state == 0 and getattr(app, "brightness", 1000) != display.brightness:
            display.set_brightness(app.brightness)  # changed in the settings
        drew = app.draw()  # (True if it painted: in bands, already sent)
        rects = canvas.take_dirty()
        if rects:
            display.show(rects)
        worked = rects or drew  # something drawn or worked out in this round
        if events or worked:
            busy = True
            thinking = think is not None
        elif busy:  # the first quiet round after some work: collect now, not during a key
            collect()
            busy = False
        elif thinking:  # quiet: a slice of work ahead (the coach's, a computer's) instead of a nap
            began[0] = ticks_ms()
            began[1] = held()
            if think(slice_over):
                thinking = False
                collect()  # the work's leftovers, before the heap sits idle
            else:
                worked = True  # (its garbage is counted below)
        if used and worked and not events and ticks_diff(now, checked) >= _CHECK_MS:
            checked = now  # any work's garbage, also where no round is quiet (the computers
            if used() > tidy[0]:  # at the instant speed); not in a key's round
                collect()
        idle = ticks_diff(now, btn.last_activity)
        if idle < 0:  # the buttons stamped a press after this round's ``now``: not idle at all
            idle = 0
        if state == 0 and idle >= _DIM_MS:
            display.set_brightness(_DIM_LEVEL)
            state = 1
        elif state == 1 and idle >= _SLEEP_MS:
            display.sleep(True)
            state = 2
        if thinking:
            pass  # no nap: the next round goes on with the work ahead
        elif state == 2:
            sleep_ms(_SLEEP_LOOP_MS)
        else:
            nap()
    return app
