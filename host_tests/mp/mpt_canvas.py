"""The framebuf canvas under real MicroPython: scene, dirty regions, text, clipping, allocations.

Run by host_tests/test_micropython.py (unix and wasm ports, .mpy build) and prints ALL-OK last.
With arguments (``mpt_canvas.py OUTDIR W1 H1 W2 H2 ...``, used by host_tests/test_canvas.py) it
also writes the test scene's raw GS4 buffer at each size to ``OUTDIR/scene_WxH.gs4``, which the
host compares with the displayio back end's picture, and the large font's glyphs drawn the Python
way and the native way (``large_glyph_dumps``).
"""

import gc
import sys

import canvas_scene
from catan.ui import canvas as cv
from catan.ui import font_large, font_small, sprites
from catan.ui.fb_canvas import FbCanvas


def scene_dumps(args):
    out = args[0]
    for i in range(1, len(args), 2):
        w = int(args[i])
        h = int(args[i + 1])
        c = FbCanvas(w, h)
        canvas_scene.draw(c)
        with open("%s/scene_%dx%d.gs4" % (out, w, h), "wb") as f:
            f.write(c.buffer)
        c = None
        gc.collect()
    large_glyph_dumps(out)


def large_glyph_dumps(out):
    # canvas_scene.large_glyphs by the Python way and the native one into OUTDIR/large_python.gs4
    # and large_native.gs4 (test_canvas compares each glyph with tools/make_assets.py's
    # ``double`` of its small one)
    import fb_viper

    w, h = canvas_scene.large_size()
    for name, native in (("python", None), ("native", fb_viper)):
        c = FbCanvas(w, h, native=native)
        canvas_scene.large_glyphs(c)
        with open("%s/large_%s.gs4" % (out, name), "wb") as f:
            f.write(c.buffer)
        c = None
        gc.collect()


def check_buffer_layout():
    c = FbCanvas(5, 3)
    assert len(c.buffer) == 9, len(c.buffer)  # odd width: rows padded to whole bytes
    c.fill_rect(0, 0, 5, 3, cv.SAND)
    c.fill_rect(1, 0, 1, 1, cv.SKY)
    assert c.buffer[0] == (cv.SAND << 4) | cv.SKY, c.buffer[0]
    assert c.get_pixel(4, 2) == cv.SAND and c.get_pixel(1, 0) == cv.SKY
    assert c.gs4() == bytes(c.buffer)
    # an external buffer is used as is (the driver allocates it first, right after boot)
    buf = bytearray(8 * 4 // 2)
    c = FbCanvas(8, 4, buf)
    c.fill_rect(0, 0, 8, 4, cv.GOLD)
    assert buf[0] == (cv.GOLD << 4) | cv.GOLD


def check_dirty():
    c = FbCanvas(240, 135)
    assert not c.take_dirty()
    c.fill_rect(10, 10, 4, 4, cv.RED)
    assert c.take_dirty() == [(10, 10, 4, 4)]
    assert not c.take_dirty()
    c.fill_rect(10, 10, 4, 4, cv.RED)
    c.fill_rect(16, 10, 4, 4, cv.RED)  # close: merged
    c.fill_rect(200, 100, 4, 4, cv.RED)  # far: separate
    assert c.take_dirty() == [(10, 10, 10, 4), (200, 100, 4, 4)]
    c.text(5, 5, "Hi", cv.WHITE)
    assert c.take_dirty() == [(5, 5, c.text_width("Hi"), font_small.HEIGHT)]
    c.sprite(230, 130, sprites.CHECK, cv.WOOL)  # clipped by the screen
    assert c.take_dirty() == [(230, 130, 10, 5)]
    c.fill_rect(-5, -5, 3, 3, cv.RED)  # wholly outside: nothing drawn, nothing dirty
    c.hline(0, 200, 10, cv.RED)
    assert not c.take_dirty()
    c.invalidate()
    c.fill_rect(3, 3, 3, 3, cv.RED)
    assert c.take_dirty() == [(0, 0, 240, 135)]
    for i in range(20):  # more rectangles than slots: still at most 8, covering all
        c.fill_rect(12 * i, 6 * i, 2, 2, cv.RED)
    d = c.take_dirty()
    assert 0 < len(d) <= 8, d
    for i in range(20):
        x = 12 * i
        y = 6 * i
        assert any(rx <= x and ry <= y and x + 2 <= rx + rw and y + 2 <= ry + rh for rx, ry, rw, rh in d)


def check_text():
    c = FbCanvas(240, 135)
    assert c.text_width("") == 0
    a = font_small.WIDTHS[ord("A") - 32]
    assert c.text_width("A") == a
    assert c.text_width("AA") == 2 * a + font_small.SPACING
    assert c.text_width("AA\nA") == 2 * a + font_small.SPACING
    assert c.text(10, 10, "AA", cv.WHITE) == 10 + 2 * (a + font_small.SPACING)
    assert c.text_width("A", font_large) == 2 * a
    assert c.text_width("\u00e9") == c.text_width("?")  # missing glyphs are drawn as "?"
    # the ink of "I" (3 columns) starts at x
    c.fill_rect(0, 0, 240, 135, cv.SEA)
    c.text(20, 30, "I", cv.BLACK)
    assert c.get_pixel(20, 30) == cv.BLACK and c.get_pixel(22, 30) == cv.BLACK
    assert c.get_pixel(19, 30) == cv.SEA and c.get_pixel(23, 30) == cv.SEA
    assert c.get_pixel(21, 31) == cv.BLACK and c.get_pixel(20, 31) == cv.SEA  # transparent


def clip(c):
    return (c.clip_x0, c.clip_y0, c.clip_x1 - c.clip_x0, c.clip_y1 - c.clip_y0)


def check_clip():
    c = FbCanvas(40, 20)
    c.set_clip(10, 5, 8, 6)
    assert clip(c) == (10, 5, 8, 6)
    c.fill_rect(0, 0, 40, 20, cv.RED)
    c.text(0, 0, "WWWWWWWW", cv.WHITE, font_large)
    c.sprite(12, 2, sprites.CROSS, cv.GOLD)
    c.rect(-1, -1, 42, 22, cv.GOLD)
    for y in range(20):
        for x in range(40):
            inside = 10 <= x < 18 and 5 <= y < 11
            assert (c.get_pixel(x, y) != 0) == inside, (x, y)
    assert c.take_dirty() == [(10, 5, 8, 6)]
    c.set_clip(30, 0, 100, 100)
    assert clip(c) == (30, 0, 10, 20)
    c.reset_clip()
    assert clip(c) == (0, 0, 40, 20)


def check_no_allocation():
    c = FbCanvas(240, 135)
    s = "Score 42: {gold}"

    def draw():
        c.fill_rect(0, 0, 240, 135, cv.SEA)
        c.rect(5, 5, 100, 50, cv.WHITE)
        c.rect(-5, -5, 100, 50, cv.WHITE)
        c.hline(0, 60, 240, cv.GOLD)
        c.vline(120, 0, 135, cv.GOLD)
        c.text(10, 10, s, cv.WHITE)
        c.text(10, 30, s, cv.GOLD, font_large)
        c.text(200, 130, s, cv.GOLD, font_large)  # clipped path
        c.sprite(50, 80, sprites.KNIGHT, cv.BLACK)
        c.sprite(-4, 80, sprites.KNIGHT, cv.BLACK)
        for i in range(12):
            c.fill_rect(20 * i, 100, 3, 3, cv.RED)

    draw()  # first use creates the per-font scratch buffers
    c.take_dirty()
    gc.collect()
    before = gc.mem_alloc()
    draw()
    after = gc.mem_alloc()
    assert after == before, "draw calls allocated %d bytes" % (after - before)


def native_scene(c, w, h):
    # every kind of draw the native routines take over, at the edges and across them
    y = 0
    for s in ("Score 42: {gold}", "two\nlines", "caf\u00e9 \u00e9t\u00e9", ""):
        for f in (font_small, font_large):
            yield c.text(w - 60, y, s, cv.GOLD, f), c.text(-3, y + 2, s, cv.RED, f)
            y += 7
    c.sprite(w - 9, h - 5, sprites.KNIGHT, cv.BLACK)
    c.sprite(-4, 20, sprites.CROSS, cv.WHITE)
    c.sprite(w - 12, 30, sprites.MAP_CITY, cv.DEEP, None, cv.GOLD)  # a silhouette and its inside
    halves = bytes((0, 2, 5, 9, 12, 12, 9, 5, 2, 0))
    for x, y in ((20, 3), (w - 3, 30), (1, h - 4), (77, 17)):
        c.spans(x, y, halves, cv.LUMBER)
    for x0, y0, x1, y1, t in ((5, 2, 40, 30, 5), (60, 35, 20, 3, 3), (w - 10, 0, w + 5, h, 7),
                              (0, 50, -20, 90, 4), (30, 60, 31, 100, 1), (10, 10, 50, 10, 3)):
        c.band(x0, y0, x1, y1, t, cv.CURSOR)


def check_native():
    # The device's native drawing (firmware/fb_viper.py: viper, so the unix port only) gives
    # the Python way's pixels, pens and dirty rectangles, clipped or not, tracked or not, and
    # allocates nothing.
    try:
        import fb_viper
    except Exception:  # no native emitter (the wasm port)
        print("no viper: native drawing not checked")
        return
    for w, h in ((240, 135), (241, 40)):
        a = FbCanvas(w, h)
        b = FbCanvas(w, h, native=fb_viper)
        for track in (True, False):
            for clip in (None, (0, 0, w, h), (3, 5, 17, 9), (50, 0, 1, 135), (100, 30, 90, 4)):
                pens = []
                for c in (a, b):
                    c.track(track)
                    if clip:
                        c.set_clip(*clip)
                    canvas_scene.draw(c)
                    pens.append(list(native_scene(c, w, h)))
                    c.reset_clip()
                    c.track(True)
                assert pens[0] == pens[1], pens
                for f in (font_small, font_large):
                    for s in ("Score 42: {gold}", "two\nlines", "caf\u00e9 \u00e9t\u00e9", "",
                              "\n", "a\n\nlonger line", "\x7f~ \x01"):
                        assert a.text_width(s, f) == b.text_width(s, f), (s, f)
                        for n in range(len(s) + 1):  # the first n characters: the slice's width
                            want = a.text_width(s[:n], f)
                            assert a.text_width(s, f, n) == b.text_width(s, f, n) == want, (s, f, n)
                for s in ("Score 42: {gold}", "caf\u00e9 \u00e9t\u00e9", "", "\x7f~ \x01"):
                    for px in (-3, 0, 1, 4, 5, 20, 37, 200):
                        assert a.fit(s, px) == b.fit(s, px), (s, px)
                assert a.buffer == b.buffer, (w, h, clip, track)
                assert a.take_dirty() == b.take_dirty(), (w, h, clip, track)
    halves = bytes((0, 3, 3, 0))

    def draw():  # (a text of one line: a newline's slice is a new string)
        b.text(3, 3, "Score 42: {gold}", cv.WHITE)
        b.text(3, 3, "Score 42: {gold}", cv.WHITE, font_large)
        b.sprite(50, 80, sprites.KNIGHT, cv.BLACK)
        b.spans(30, 30, halves, cv.RED)
        b.band(3, 4, 30, 50, 5, cv.RED)
        b.text_width("Score 42: {gold}")
        b.text_width("two\nlines", font_large)
        b.text_width("Score 42: {gold}", None, 5)
        b.fit("Score 42: {gold}", 30)

    b.track(False)
    draw()
    gc.collect()
    before = gc.mem_alloc()
    draw()
    assert gc.mem_alloc() == before, "native draws allocated %d bytes" % (gc.mem_alloc() - before)


if len(sys.argv) > 1:
    scene_dumps(sys.argv[1:])
check_native()
check_buffer_layout()
check_dirty()
check_text()
check_clip()
check_no_allocation()
c = FbCanvas(240, 135)
canvas_scene.draw(c)
assert c.take_dirty() == [(0, 0, 240, 135)]
print("ALL-OK")
