"""Fake Pico hardware for the firmware tests (CPython and MicroPython alike).

- ``Pin``: ``value()`` read/write; input level set by the test (``pin.level = 0``).
- ``PWM``: records ``duty_u16``; ``ADC``: reads the level the test sets.
- ``SPI``: records every write as ``(dc level, cs level, bytes)``.
- ``Panel``: a model of the ST7789 fed with that stream: commands, CASET/RASET windows,
  RAMWR pixel data, into a RAM image of big-endian RGB565 words; the "virtual Pico".
- ``Clock``: ``ticks_ms``/``ticks_diff``/``sleep_ms`` over a fake 30-bit tick counter (it
  wraps like the rp2 port's); at each simulated millisecond ``n`` it sets the pin levels its
  ``script`` gives for ``n`` (``{n: (pin, level)}``) and calls ``on_ms(n)``.
- ``Board``: a 240x135 board file with four buttons, for the main-loop tests.
"""


class Board:
    NAME = "test board 240x135"
    SPI = {"id": 0, "baudrate": 62_500_000, "sck": 18, "mosi": 19, "miso": None}
    DISPLAY = {"controller": "st7789", "cs": 17, "dc": 16, "rst": None, "width": 240,
               "height": 135, "rotation": 1, "bgr": False, "invert": True}
    ROTATIONS = ((0x00, 135, 240, 52, 40), (0x60, 240, 135, 40, 53))
    BACKLIGHT = {"pin": 20, "pwm": True, "active": 1}
    BUTTONS = {"a": (12, "up", 0), "b": (13, "up", 0), "x": (14, "up", 0), "y": (15, "up", 0)}
    SAFE_BOOT_BUTTON = "y"


class Clock:
    def __init__(self, start, on_ms=None):
        self.t = start
        self.n = 0  # milliseconds slept so far
        self.script = {}
        self.on_ms = on_ms

    def ticks_ms(self):
        return self.t

    def ticks_diff(self, a, b):
        return ((a - b + (1 << 29)) & ((1 << 30) - 1)) - (1 << 29)

    def sleep_ms(self, ms):
        for _ in range(ms):
            self.t = (self.t + 1) & ((1 << 30) - 1)
            self.n += 1
            if self.n in self.script:
                k, v = self.script[self.n]
                Pin.registry[k].level = v
            if self.on_ms is not None:
                self.on_ms(self.n)


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    registry = {}  # pin number -> the last Pin made on it (tests drive inputs through it)
    forced = {}  # pin number -> input level a new Pin on it starts with (a button held at boot)

    def __init__(self, n=0, mode=None, pull=None, value=None):
        self.n = n
        Pin.registry[n] = self
        self.mode = mode
        self.pull = pull
        self.level = 1 if pull == Pin.PULL_UP else 0
        if value is not None:
            self.level = value
        if n in Pin.forced:
            self.level = Pin.forced[n]

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = 1 if v else 0

    def __call__(self, v=None):
        return self.value(v)


class PWM:
    def __init__(self, pin, freq=1000, duty_u16=0):
        self.pin = pin
        self.duty = duty_u16
        self.history = []

    def duty_u16(self, d=None):
        if d is None:
            return self.duty
        self.duty = d
        self.history.append(d)

    def freq(self, f=None):
        return 1000


class ADC:
    """``read_u16()`` gives ``ADC.level`` (the same for every channel), 0..65535."""

    level = 0

    def __init__(self, pin):
        self.pin = pin

    def read_u16(self):
        return ADC.level


class SPI:
    def __init__(self, id=0, baudrate=0, sck=None, mosi=None, miso=None, dc=None, cs=None,
                 sink=None, **kw):
        self.id = id
        self.dc = dc
        self.cs = cs
        self.writes = []
        self.sink = sink  # a Panel fed as the bytes arrive (nothing kept: small heaps)
        self.count = 0

    def write(self, data):
        dc = self.dc
        cs = self.cs
        if isinstance(dc, int):  # a pin number: the Pin made on it later (see Pin.registry)
            dc = Pin.registry[dc]
        if isinstance(cs, int):
            cs = Pin.registry[cs]
        self.count += len(data)
        if self.sink is not None:  # decoded at once: the bytes need no copy
            self.sink.feed(((dc.level if dc else 1, cs.level if cs else 0, data),))
        else:
            self.writes.append((dc.level if dc else 1, cs.level if cs else 0, bytes(data)))

    def take(self):
        w = self.writes
        self.writes = []
        return w

    def nbytes(self):
        return self.count


class Panel:
    """ST7789 model: RAM of RGB565 words for addresses x0..x0+w-1, y0..y0+h-1 (default: the
    whole 320x320 space of any MADCTL); a pixel written outside it is counted in ``outside``."""

    SIZE = 320

    def __init__(self, w=320, h=320, x0=0, y0=0):
        self.w = w
        self.h = h
        self.x0 = x0
        self.y0 = y0
        self.ram = bytearray(2 * w * h)
        self.reset()

    def reset(self):
        """Power-on state, RAM cleared in place (a test booting many times reuses one panel
        rather than allocating its RAM again on a fragmented heap)."""
        for i in range(len(self.ram)):
            self.ram[i] = 0
        self.outside = 0
        self.cmd = None
        self.args = bytearray()
        self.xs = self.xe = self.ys = self.ye = 0
        self.px = self.py = 0
        self.madctl = None
        self.inverted = None
        self.on = False
        self.commands = []
        self.pixels = 0
        self._half = None

    def feed(self, writes):
        for dc, cs, data in writes:
            assert cs == 0, "SPI write with CS high"
            if dc == 0:
                for c in data:
                    self._command(c)
            else:
                for b in data:
                    self._data(b)

    def _command(self, c):
        self.cmd = c
        self.args = bytearray()
        self.commands.append(c)
        self._half = None
        if c == 0x2C:
            self.px = self.xs
            self.py = self.ys
        elif c == 0x21:
            self.inverted = True
        elif c == 0x20:
            self.inverted = False
        elif c == 0x29:
            self.on = True

    def _data(self, b):
        c = self.cmd
        if c == 0x2C:
            if self._half is None:
                self._half = b
                return
            x = self.px - self.x0
            y = self.py - self.y0
            if 0 <= x < self.w and 0 <= y < self.h:
                o = 2 * (y * self.w + x)
                self.ram[o] = self._half
                self.ram[o + 1] = b
            else:
                self.outside += 1
            self._half = None
            self.pixels += 1
            self.px += 1
            if self.px > self.xe:
                self.px = self.xs
                self.py += 1
                if self.py > self.ye:
                    self.py = self.ys
            return
        self.args.append(b)
        a = self.args
        if c == 0x2A and len(a) == 4:
            self.xs = (a[0] << 8) | a[1]
            self.xe = (a[2] << 8) | a[3]
            assert self.xs <= self.xe < self.SIZE
        elif c == 0x2B and len(a) == 4:
            self.ys = (a[0] << 8) | a[1]
            self.ye = (a[2] << 8) | a[3]
            assert self.ys <= self.ye < self.SIZE
        elif c == 0x36 and len(a) == 1:
            self.madctl = a[0]

    def pixel(self, x, y):
        o = 2 * ((y - self.y0) * self.w + x - self.x0)
        return (self.ram[o] << 8) | self.ram[o + 1]


def expected565(gs4, width, lut, x, y):
    """The RGB565 word the canvas' own GS4 picture gives at (x, y) through the LUT."""
    b = gs4[y * ((width + 1) >> 1) + (x >> 1)]
    i = (b & 15) if x & 1 else (b >> 4)
    return (lut[2 * i] << 8) | lut[2 * i + 1]


def mismatches(panel, gs4, width, height, lut, xoff, yoff, limit=5):
    """Up to ``limit`` (x, y, got, want) where the panel RAM differs from the canvas render."""
    out = []
    for y in range(height):
        for x in range(width):
            got = panel.pixel(x + xoff, y + yoff)
            want = expected565(gs4, width, lut, x, y)
            if got != want:
                out.append((x, y, got, want))
                if len(out) >= limit:
                    return out
    return out
