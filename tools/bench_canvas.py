"""Canvas drawing speed (and, under MicroPython, memory): prints `name value` figures.

    MICROPYPATH=lib micropython tools/bench_canvas.py    # framebuf back end (or build/mpy)
    python3 tools/bench_canvas.py                        # displayio back end (Blinka), + a refresh

Pages drawn at 240x135: ``text_page`` (sea fill + 13 lines of 40 small-font characters, 520
glyphs: the worst case of a screen of text), ``large_page`` (6 lines of 18 large glyphs),
``sprite_page`` (98 sprites), ``fill_page`` (40 rectangles). Figures are milliseconds per page
(the best of the repeats) and, under MicroPython, bytes of heap taken by the fonts, sprites and
the canvas with its 16,200-byte framebuffer. These are desktop figures: a Pico is roughly 20-40x
slower than the unix port. Reports only; nothing is asserted.
"""

import gc
import sys

MICROPYTHON = sys.implementation.name == "micropython"
if not MICROPYTHON:
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "lib"))

import time

W = 240
H = 135


def now_us():
    if MICROPYTHON:
        return time.ticks_us()
    return int(time.perf_counter() * 1e6)


def elapsed_us(start):
    if MICROPYTHON:
        return time.ticks_diff(time.ticks_us(), start)
    return now_us() - start


def best_ms(fn, repeats):
    best = None
    for _ in range(repeats):
        t = now_us()
        fn()
        us = elapsed_us(t)
        best = us if best is None or us < best else best
    return best / 1000


def main():
    gc.collect()
    base = gc.mem_alloc() if MICROPYTHON else 0
    from catan.ui import canvas as cv
    from catan.ui import font_large, sprites

    gc.collect()
    assets = gc.mem_alloc() - base if MICROPYTHON else 0
    if MICROPYTHON:
        from catan.ui.fb_canvas import FbCanvas as Backend
    else:
        from catan.ui.dio_canvas import DioCanvas as Backend
    gc.collect()
    before = gc.mem_alloc() if MICROPYTHON else 0
    c = Backend(W, H)
    gc.collect()
    canvas_bytes = gc.mem_alloc() - before if MICROPYTHON else 0

    line = "Roll 2 of 3: Brick Wool Ore Grain +4 VP."  # 40 characters
    big = "Catan Dice VP 10 !"

    def text_page():
        c.fill_rect(0, 0, W, H, cv.SEA)
        for i in range(13):
            c.text(1, 1 + 10 * i, line, cv.WHITE)
        c.take_dirty()

    def large_page():
        c.fill_rect(0, 0, W, H, cv.DEEP)
        for i in range(6):
            c.text(2, 2 + 22 * i, big, cv.SAND, font_large)
        c.take_dirty()

    def sprite_page():
        c.fill_rect(0, 0, W, H, cv.SAND)
        for i in range(98):
            c.sprite(17 * (i % 14), 19 * (i // 14), i % sprites.COUNT, cv.DARK)
        c.take_dirty()

    def fill_page():
        for i in range(40):
            c.fill_rect(6 * i, (3 * i) % 100, 30, 30, i & 15)
        c.take_dirty()

    repeats = 20 if MICROPYTHON else 5
    runtime = "micropython" if MICROPYTHON else "cpython"
    print("backend", Backend.__name__, "on", runtime)
    for name, fn in (("text_page", text_page), ("large_page", large_page),
                     ("sprite_page", sprite_page), ("fill_page", fill_page)):
        print("canvas_%s_ms_%s %.2f" % (name, runtime, best_ms(fn, repeats)))
    if MICROPYTHON:
        print("canvas_assets_heap_bytes %d" % assets)
        print("canvas_240x135_heap_bytes %d" % canvas_bytes)
    else:
        refresh_ms(c, text_page)


def refresh_ms(c, text_page):
    """The simulator's cost on top of drawing: a PyGameDisplay refresh after a full text page."""
    try:
        import displayio
        from blinka_displayio_pygamedisplay import PyGameDisplay
    except ImportError:
        return
    display = PyGameDisplay(width=W, height=H, auto_refresh=False)
    group = displayio.Group()
    group.append(c.tilegrid)
    display.root_group = group

    def page_and_refresh():
        text_page()
        display.refresh()

    print("canvas_text_page_refresh_ms_cpython %.2f" % best_ms(page_and_refresh, 5))


main()
