"""The canvas test scene: every primitive, both fonts, every sprite, clipping, overlaps.

Plain code that runs on MicroPython and CPython alike: host_tests/mp/mpt_canvas.py draws it
through the framebuf back end under real MicroPython, host_tests/test_canvas.py through the
displayio back end under CPython, and the two pictures must be identical. Laid out for
240x135 (the smallest screen); larger screens show more sea.
"""

from catan.ui import canvas as cv
from catan.ui import font_large, font_small, sprites

DICE = (
    (sprites.BRICK, cv.BRICK),
    (sprites.LUMBER, cv.LUMBER),
    (sprites.WOOL, cv.WOOL),
    (sprites.GRAIN, cv.GRAIN),
    (sprites.ORE, cv.ORE),
    (sprites.GOLD, cv.GOLD),
)
ASCII = "".join(chr(c) for c in range(32, 127))
GLYPH_BOX = (24, 22)  # ``large_glyphs``: each glyph's box
GLYPHS_ROW = 16


def draw(c):
    """Draw the scene on canvas ``c`` (any size from 135x135 up)."""
    w = c.width
    h = c.height
    c.fill_rect(0, 0, w, h, cv.SEA)

    # Title bar: large font, a right-aligned score, a separator line.
    c.fill_rect(0, 0, w, 21, cv.DEEP)
    c.text(3, 1, "Catan Dice", cv.SAND, font_large)
    score = "VP 10"
    c.text(w - 4 - c.text_width(score, font_large), 1, score, cv.GOLD, font_large)
    c.hline(0, 21, w, cv.GOLD)

    # Six dice: a white face, a dark outline, the resource in its colour.
    x = 2
    for spr, col in DICE:
        c.fill_rect(x, 24, 20, 20, cv.WHITE)
        c.rect(x, 24, 20, 20, cv.DARK)
        c.sprite(x + 2, 26, spr, col)
        x += 22
    # The other sprites after them in several colours, wrapping to a second row.
    others = (sprites.ROAD, sprites.SETTLEMENT, sprites.CITY, sprites.KNIGHT, sprites.JOKER,
              sprites.LONGEST_ROAD, sprites.LARGEST_ARMY, sprites.CURSOR, sprites.CHECK, sprites.CROSS)
    colors = (cv.BRICK, cv.RED, cv.SKY, cv.WHITE, cv.GOLD, cv.SAND, cv.LIGHT, cv.CURSOR, cv.WOOL, cv.RED)
    x = 136
    y = 26
    for i in range(len(others)):
        if x + 8 > w:
            x = 136
            y += 18
        c.sprite(x, y, others[i], colors[i])
        x += 17
    # Palette swatches, each with a 1-pixel outline.
    for i in range(16):
        c.fill_rect(2 + 8 * i, 47, 7, 7, i)
    c.rect(1, 46, 129, 9, cv.WHITE)

    # Small font: all of printable ASCII in four lines, then three colours on one line.
    c.text(2, 57, ASCII[:24] + "\n" + ASCII[24:48] + "\n" + ASCII[48:72] + "\n" + ASCII[72:],
           cv.WHITE, font_small)
    x = c.text(2, 98, "Roll ", cv.SAND)
    x = c.text(x, 98, "3", cv.GOLD)
    c.text(x, 98, " of 3: quiz", cv.LIGHT)

    # Overlapping rectangles, outlines and lines.
    c.fill_rect(150, 60, 40, 24, cv.BRICK)
    c.fill_rect(170, 70, 40, 24, cv.LUMBER)
    c.fill_rect(160, 76, 20, 20, cv.GRAIN)
    c.rect(150, 60, 60, 34, cv.WHITE)
    c.rect(214, 60, 1, 1, cv.CURSOR)  # a 1x1 outline is one pixel
    c.rect(216, 60, 3, 2, cv.CURSOR)
    c.rect(220, 60, 1, 5, cv.CURSOR)
    c.rect(222, 60, 6, 3, cv.CURSOR)
    c.hline(150, 96, 60, cv.SKY)
    c.vline(212, 60, 37, cv.SKY)
    c.fill_rect(216, 70, 0, 10, cv.RED)  # empty: draws nothing
    c.fill_rect(216, 70, 10, -3, cv.RED)
    c.rect(216, 70, 0, 0, cv.RED)
    c.text(124, 100, "Descend: gjpqy", cv.SAND, font_small)

    # Clipping by the screen edges: rectangles, lines, outline, text and sprites half outside.
    c.fill_rect(-6, h - 8, 12, 20, cv.GOLD)
    c.rect(-3, 110, 10, 10, cv.WHITE)
    c.hline(-10, h - 2, 30, cv.RED)
    c.vline(w - 2, 24, 30, cv.RED)
    c.fill_rect(w - 5, h - 5, 50, 50, cv.CURSOR)
    c.sprite(w - 9, h - 10, sprites.SETTLEMENT, cv.SAND)
    c.sprite(100, h - 6, sprites.GOLD, cv.GOLD)
    c.text(w - 30, 112, "Off the edge", cv.WHITE)
    c.text(14, h - 5, "Cut", cv.WHITE, font_large)
    c.text(-4, 122, "Left", cv.SKY)

    # A clip rectangle: large text, a sprite and a rectangle cut at all four sides.
    c.fill_rect(30, 110, 60, 18, cv.SAND)
    c.set_clip(31, 111, 58, 16)
    c.text(24, 107, "Clip me", cv.BRICK, font_large)
    c.sprite(80, 119, sprites.KNIGHT, cv.DEEP)
    c.fill_rect(26, 123, 10, 10, cv.DARK)
    c.reset_clip()
    c.set_clip(120, 100, 0, 10)  # an empty clip draws nothing
    c.fill_rect(110, 90, 40, 40, cv.RED)
    c.reset_clip()


def large_glyphs(c):
    """Every glyph of the large font in white, ``GLYPHS_ROW`` a row, each in a box of
    ``GLYPH_BOX`` pixels at (2, 2) in it (``large_size``: the canvas's size)."""
    bw, bh = GLYPH_BOX
    for g in range(font_large.COUNT):
        c.text(bw * (g % GLYPHS_ROW) + 2, bh * (g // GLYPHS_ROW) + 2, chr(font_large.FIRST + g),
               cv.WHITE, font_large)


def large_size():
    """The width and height of ``large_glyphs``'s picture."""
    return GLYPH_BOX[0] * GLYPHS_ROW, GLYPH_BOX[1] * ((font_large.COUNT + GLYPHS_ROW - 1) // GLYPHS_ROW)
