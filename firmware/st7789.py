"""A pure-Python ST7789 driver for stock MicroPython, sending a GS4_HMSB framebuffer.

The canvas draws 4-bit palette indices into a GS4_HMSB buffer (two pixels per byte, left one in
the high nibble). ``show(rects)`` sends only the given rectangles: for each one a CASET/RASET
window (plus the board's RAM offsets) and RAMWR, then its pixels expanded to big-endian RGB565
through the 16-entry LUT. A rectangle is widened to whole bytes of the buffer (an even first
column, an even width unless it ends at an odd screen edge): two pixels a byte, and the pixels
sent are the buffer's own either way.

Given ``regs``, the address of the SPI block's registers (an RP2040 or RP2350), the pixels go
straight into its transmit FIFO from Thumb assembly (firmware/st7789_asm.py), one call a
rectangle, close to the wire's speed. Otherwise (no inline assembler: the unix and wasm ports,
CPython; or fake hardware) Python expands the rows into one reusable line buffer, as many rows
of a narrow rectangle as it holds, and writes them with ``spi.write``.

Hardware is injected: ``spi`` (machine.SPI, never SoftSPI), ``dc``/``cs``/``rst`` pins (objects
with ``value(v)``), ``bl`` a machine.PWM or a Pin or None, ``sleep_ms`` a function. The backlight
stays off until the first frame has been sent. Command bytes: Sitronix ST7789VW datasheet
(SWRESET 01, SLPOUT 11, INVOFF 20, INVON 21, DISPON 29, CASET 2A, RASET 2B, RAMWR 2C,
MADCTL 36, COLMOD 3A with 0x55 = 16 bits per pixel).
"""

from array import array

from catan import const

_SWRESET = const(0x01)
_SLPIN = const(0x10)
_SLPOUT = const(0x11)
_NORON = const(0x13)
_INVOFF = const(0x20)
_INVON = const(0x21)
_DISPOFF = const(0x28)
_DISPON = const(0x29)
_CASET = const(0x2A)
_RASET = const(0x2B)
_RAMWR = const(0x2C)
_MADCTL = const(0x36)
_COLMOD = const(0x3A)
_MADCTL_BGR = const(0x08)


def expand_py(dst, src, lut, p):
    """Expand rows into ``dst`` as st7789_asm.send sends them. ``p``: [first byte, bytes per
    row, rows, stride, odd]; each byte of a row gives two pixels (high nibble first), then with
    ``odd`` the high nibble of one more byte; ``rows`` is counted down to 0."""
    d = 0
    o = p[0]
    while p[2] > 0:
        end = o + p[1]
        for i in range(o, end + p[4]):
            b = src[i]
            v = b >> 3 & 30
            dst[d] = lut[v]
            dst[d + 1] = lut[v + 1]
            d += 2
            if i < end:
                v = (b & 15) << 1
                dst[d] = lut[v]
                dst[d + 1] = lut[v + 1]
                d += 2
        o += p[3]
        p[2] -= 1


try:
    from st7789_asm import send
except Exception:  # no inline assembler (unix and wasm ports), or not MicroPython at all
    send = None


def _noop_sleep(ms):
    pass


class ST7789:
    def __init__(self, spi, dc, cs, width, height, madctl=0x60, xoff=0, yoff=0, bgr=False,
                 invert=True, rst=None, bl=None, sleep_ms=None, buf=None, lut=None, init=True,
                 regs=None):
        self.spi = spi
        self.dc = dc
        self.cs = cs
        self.rst = rst
        self.bl = bl
        self.width = width
        self.height = height
        self.madctl = madctl | (_MADCTL_BGR if bgr else 0)
        self.xoff = xoff
        self.yoff = yoff
        self.invert = invert
        self.sleep_ms = sleep_ms or _noop_sleep
        self.stride = (width + 1) >> 1
        self.regs = regs if send is not None else None
        # Python's way: the one reusable line buffer
        self.line = bytearray(2 * width) if self.regs is None else None
        self._p = array("i", (0, 0, 0, 0, 0))  # the rows to send (see expand_py)
        self._cmdbuf = bytearray(1)
        self._arg4 = bytearray(4)
        self.buf = buf
        self.lut = lut
        self.lit = False
        self.brightness = 1000  # 0..1000, applied after the first frame
        self.bytes_sent = 0  # pixel bytes, for measurements
        self.backlight(0)
        cs.value(1)
        if init:  # else the caller runs init() or init_steps() itself
            self.init()

    def attach(self, buf, lut):
        """The GS4_HMSB buffer and 32-byte big-endian RGB565 LUT that show() sends."""
        self.buf = buf
        self.lut = lut

    # -- low level ------------------------------------------------------------------------------

    def _cmd(self, c, data=None):
        self.cs.value(0)
        self.dc.value(0)
        self._cmdbuf[0] = c
        self.spi.write(self._cmdbuf)
        if data:
            self.dc.value(1)
            self.spi.write(data)
        self.cs.value(1)

    def init(self):
        for ms in self.init_steps():
            self.sleep_ms(ms)

    def init_steps(self):
        """The panel's power-up as steps: each yields the ms the panel needs before the next.
        ``init`` sleeps through them; a caller with work to do (the game's imports) may do it
        during the waits instead, as long as each has passed before the next step."""
        if self.rst is not None:
            self.rst.value(1)
            yield 5
            self.rst.value(0)
            yield 20
            self.rst.value(1)
            yield 120
        # The datasheet's waits: after SWRESET, 5 ms before any command, 120 ms before SLPOUT
        # if the reset came in sleep-out mode (a soft reset of the Pico leaves the panel so);
        # after SLPOUT, 5 ms for its supplies and clocks (10 here), then commands. (The
        # backlight stays off until the first frame: nothing of the power-up shows.)
        self._cmd(_SWRESET)
        yield 120
        self._cmd(_SLPOUT)
        yield 10
        self._cmd(_COLMOD, b"\x55")
        self._cmd(_MADCTL, bytes((self.madctl,)))
        self._cmd(_INVON if self.invert else _INVOFF)
        self._cmd(_NORON)
        yield 10
        self._cmd(_DISPON)
        yield 20

    def _window(self, x, y, w, h):
        self._range(_CASET, x + self.xoff, w)
        self._range(_RASET, y + self.yoff, h)

    def _range(self, cmd, start, length):
        # CASET / RASET: first and last column (row), big-endian 16 bits each.
        a = self._arg4
        end = start + length - 1
        a[0] = start >> 8
        a[1] = start & 0xFF
        a[2] = end >> 8
        a[3] = end & 0xFF
        self._cmd(cmd, a)

    # -- frames ---------------------------------------------------------------------------------

    def show(self, rects, top=0):
        """Send the rectangles ``(x, y, w, h)`` (clipped to the screen) from the attached buffer,
        whose first row is the screen's row ``top`` (a band of the picture: fb_canvas)."""
        W = self.width
        H = self.height
        src = self.buf
        lut = self.lut
        stride = self.stride
        p = self._p
        for r in rects:
            x, y, w, h = r
            if x < 0:
                w += x
                x = 0
            if y < 0:
                h += y
                y = 0
            if x + w > W:
                w = W - x
            if y + h > H:
                h = H - y
            if w <= 0 or h <= 0:
                continue
            if x & 1:  # whole bytes: from an even column ...
                x -= 1
                w += 1
            if w & 1 and x + w < W:  # ... to an even one, or the screen's edge
                w += 1
            self._window(x, y, w, h)
            self.cs.value(0)
            self.dc.value(0)
            self._cmdbuf[0] = _RAMWR
            self.spi.write(self._cmdbuf)
            self.dc.value(1)
            p[0] = (y - top) * stride + (x >> 1)
            p[1] = w >> 1
            p[2] = h
            p[3] = stride
            p[4] = w & 1
            if self.regs is None:
                self._write_rows(w)
            else:
                send(self.regs, src, lut, p)
            self.cs.value(1)
            self.bytes_sent += 2 * w * h
        if not self.lit:
            self.lit = True
            self.backlight(self.brightness)

    def _write_rows(self, w):
        # The rows of ``_p`` (``w`` pixels each) through the line buffer, as many a write as it
        # holds.
        p = self._p
        line = self.line
        rows = len(line) // (2 * w)
        full = memoryview(line)[: 2 * w * rows]
        left = p[2]
        while left:
            k = rows if left > rows else left
            p[2] = k
            expand_py(line, self.buf, self.lut, p)
            self.spi.write(full if k == rows else full[: 2 * w * k])
            p[0] += k * p[3]
            left -= k

    def show_all(self):
        self.show(((0, 0, self.width, self.height),))

    # -- power ----------------------------------------------------------------------------------

    def backlight(self, level):
        """Drive the backlight hardware at 0..1000 (PWM duty; a plain Pin is on for any level)."""
        bl = self.bl
        if bl is None:
            return
        if hasattr(bl, "duty_u16"):
            bl.duty_u16(level * 65535 // 1000)
        else:
            bl.value(1 if level else 0)

    def set_brightness(self, level):
        """The brightness 0..1000, applied now if a frame has been shown, else at the first one."""
        level = max(0, min(1000, level))
        self.brightness = level
        if self.lit:
            self.backlight(level)

    def sleep(self, on):
        """Panel sleep (backlight off, SLPIN) or wake (SLPOUT, backlight back)."""
        if on:
            self.backlight(0)
            self._cmd(_DISPOFF)
            self._cmd(_SLPIN)
            self.sleep_ms(5)
        else:
            self._cmd(_SLPOUT)
            self.sleep_ms(120)
            self._cmd(_DISPON)
            self.backlight(self.brightness)
