"""The ST7789 driver against a model panel ("virtual Pico"): the captured SPI stream, decoded back
into an RGB565 picture, equals the canvas' own GS4 render through the palette, full frame and
dirty regions, at each board's size and RAM offsets; the backlight waits for the first frame."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
for _p in (ROOT / "firmware", ROOT / "host_tests" / "mp", ROOT):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

import canvas_scene  # host_tests/mp
import fake_hw
import st7789
from catan.ui.canvas import Canvas, lut565


class ListCanvas(Canvas):
    """A plain-Python canvas (index per pixel) standing in for FbCanvas on CPython."""

    def __init__(self, w, h):
        Canvas.__init__(self, w, h)
        self.px = bytearray(w * h)

    def _fill(self, x, y, w, h, c):
        for yy in range(y, y + h):
            o = yy * self.width
            self.px[o + x:o + x + w] = bytes((c,)) * w

    def get_pixel(self, x, y):
        return self.px[y * self.width + x]


def make(width, height, xoff=0, yoff=0, bgr=False):
    dc = fake_hw.Pin(16)
    cs = fake_hw.Pin(17)
    spi = fake_hw.SPI(0, dc=dc, cs=cs)
    bl = fake_hw.PWM(fake_hw.Pin(20))
    d = st7789.ST7789(spi, dc, cs, width, height, madctl=0x60, xoff=xoff, yoff=yoff, bgr=bgr,
                      bl=bl)
    return d, spi, bl


BOARDS = ["pimoroni_display_pack", "pimoroni_display_pack_2", "waveshare_pico_lcd_114",
          "waveshare_pico_lcd_13"]


def board(name):
    return __import__("boards." + name, None, None, ["x"])


@pytest.mark.parametrize("name", BOARDS)
def test_board_files_are_complete(name):
    b = board(name)
    for rot in b.ROTATIONS:
        madctl, w, h, xo, yo = rot
        assert 0 <= madctl < 256 and w + xo <= 320 and h + yo <= 320
    _, w, h, _, _ = b.ROTATIONS[b.DISPLAY["rotation"]]
    assert (w, h) == (b.DISPLAY["width"], b.DISPLAY["height"])
    assert b.SAFE_BOOT_BUTTON in b.BUTTONS
    pins = [p for p, _, _ in b.BUTTONS.values()]
    used = pins + [b.SPI["sck"], b.SPI["mosi"], b.DISPLAY["cs"], b.DISPLAY["dc"], b.BACKLIGHT["pin"]]
    if b.DISPLAY["rst"] is not None:
        used.append(b.DISPLAY["rst"])
    assert len(used) == len(set(used)), "a pin is used twice"
    assert all(0 <= p <= 29 for p in used)
    for _pin, pull, active in b.BUTTONS.values():
        assert pull in ("up", "down", None) and active in (0, 1)


@pytest.mark.parametrize("name", BOARDS)
def test_full_frame_and_dirty_regions_decode_to_the_canvas(name):
    b = board(name)
    madctl, w, h, xo, yo = b.ROTATIONS[b.DISPLAY["rotation"]]
    d, spi, bl = make(w, h, xo, yo)
    c = ListCanvas(w, h)
    canvas_scene.draw(c)
    lut = lut565()
    gs4 = c.gs4()
    d.attach(gs4, lut)
    c.take_dirty()
    d.show_all()
    panel = fake_hw.Panel()
    panel.feed(spi.take())
    assert panel.on and panel.inverted and panel.madctl == 0x60
    assert fake_hw.mismatches(panel, gs4, w, h, lut, xo, yo) == []
    # a small change: only its rectangle goes out
    c.fill_rect(10, 20, 12, 9, 5)
    c.text(30, 40, "7", 1)
    rects = c.take_dirty()
    gs4b = c.gs4()
    d.attach(gs4b, lut)
    d.show(rects)
    w2 = spi.take()
    panel.feed(w2)
    assert fake_hw.mismatches(panel, gs4b, w, h, lut, xo, yo) == []
    pix = sum(whole_bytes(rx, rw, w) * rh for rx, _, rw, rh in rects)
    assert sum(len(x[2]) for x in w2) == 2 * pix + 11 * len(rects)  # CASET 5 + RASET 5 + RAMWR 1


def whole_bytes(x, w, width):
    """The columns sent for a rectangle: from an even one to an even one or the screen's edge."""
    x0 = x & ~1
    return min((x + w + 1) & ~1, width) - x0


def test_a_rectangle_goes_out_in_whole_bytes_and_narrow_rows_share_a_write():
    d, spi, bl = make(241, 135)  # an odd width: the last column is half a byte
    c = ListCanvas(241, 135)
    d.attach(c.gs4(), lut565())
    d.show_all()
    panel = fake_hw.Panel()
    panel.feed(spi.take())
    canvas_scene.draw(c)
    gs4 = c.gs4()
    d.attach(gs4, lut565())
    d.show([(3, 5, 4, 30), (240, 0, 1, 3), (0, 100, 241, 2)])
    w = spi.take()
    panel.feed(w)
    # columns 2..7 of rows 5..34 are right (the rest of the picture is not sent)
    assert all(panel.pixel(x, y) == fake_hw.expected565(gs4, 241, lut565(), x, y)
               for x in range(2, 8) for y in range(5, 35))
    assert panel.pixel(240, 2) == fake_hw.expected565(gs4, 241, lut565(), 240, 2)
    pixels = [len(b) // 2 for dc, _, b in w if dc and len(b) > 4]
    # 6 columns: 30 rows in one write; the odd edge column alone; whole lines one a write
    assert pixels == [6 * 30, 3, 241, 241]


def test_backlight_waits_for_the_first_frame_and_dims():
    d, spi, bl = make(240, 135, 40, 53)
    assert bl.history and all(v == 0 for v in bl.history)
    d.set_brightness(500)
    assert bl.duty == 0
    d.attach(bytes(120 * 135), lut565())
    d.show([(0, 0, 4, 4)])
    assert bl.duty == 500 * 65535 // 1000
    d.set_brightness(1000)
    assert bl.duty == 65535


def test_rectangles_are_clipped_and_empty_ones_skipped():
    d, spi, bl = make(240, 135, 40, 53)
    d.attach(bytes(120 * 135), lut565())
    spi.take()
    d.show([(-5, -5, 10, 10), (235, 130, 20, 20), (300, 0, 5, 5), (0, 0, 0, 9)])
    panel = fake_hw.Panel()
    panel.feed(spi.take())
    assert panel.pixels == 30 + 30  # two 5x5 corners, each sent as 6 columns (whole bytes)


def test_bgr_sets_the_madctl_bit_and_python_expander_matches_reference():
    d, spi, bl = make(240, 135, bgr=True)
    panel = fake_hw.Panel()
    panel.feed(spi.take())
    assert panel.madctl == 0x68
    src = bytes(range(256)) * 2
    lut = lut565()
    for x, n, rows in ((0, 16, 1), (2, 14, 3), (4, 4, 2), (6, 1, 5)):
        dst = bytearray(2 * n * rows)
        p = [16 + (x >> 1), n >> 1, rows, 64, n & 1]
        st7789.expand_py(dst, src, lut, p)
        assert p[2] == 0
        for r in range(rows):
            for k in range(n):
                want = fake_hw.expected565(src[16:], 128, lut, x + k, r)
                o = 2 * (r * n + k)
                assert (dst[o] << 8) | dst[o + 1] == want
