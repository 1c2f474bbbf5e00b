"""Drawing helpers the screens share: title bars, help lines, buttons, lists, dice.

Every helper draws through the canvas protocol only, from arguments only (no clock, no
state), so a screen's picture depends on its state alone and a partial redraw (a clip around
what changed, then the screen's full ``paint``) gives the same pixels as a full one.
"""

from catan import const
from catan.maps import TURNS_ONE, WIN_VP, X_PENALTY
from catan.ui import canvas as cv
from catan.ui import sprites

LINE = 10  # small font line pitch
BAR = 13  # title bar height with the small font
PLAYER_COLOUR = (cv.RED, cv.SKY, cv.GOLD, cv.WHITE)
# By face (maps.BRICK .. GOLD), then ANY: a die's or a joker's sprite and colour.
FACE_SPRITE = (sprites.BRICK, sprites.LUMBER, sprites.WOOL, sprites.GRAIN, sprites.ORE,
               sprites.GOLD, sprites.JOKER)
FACE_COLOUR = (cv.BRICK, cv.LUMBER, cv.WOOL, cv.GRAIN, cv.ORE, cv.GOLD, cv.BLACK)
# Faces too pale for white (below 3:1 on it: cv.WOOL, GRAIN and GOLD, as numbers: a const
# costs the device no name), drawn with a dark edge round them there, as the printed dice ink
# their pictures; their ``k`` in ``picture`` is their place here
_PALE = const((5, 6, 8))
_EDGES = const(4)  # the sprites a sheet holds edges for (its last cells, two each): see picture
# By kind of building (maps.ROAD .. KNIGHT).
KIND_SPRITE = (sprites.ROAD, sprites.SETTLEMENT, sprites.CITY, sprites.KNIGHT)

# die styles
DIE_BLANK = 0  # not rolled yet
DIE_FACE = 1  # a face to use
DIE_MARKED = 2  # set to be re-rolled
DIE_SPENT = 3  # spent on a build or a trade
DIE_OFF = 4  # not in play this turn (Island Two's ramp)


def bar(c, x, y, w, title, colour=cv.SAND, font=None):
    """A dark title bar with ``title`` on the left (in ``font``: the bar 4 pixels higher than
    its cells); its height."""
    h = font.HEIGHT + 4 if font else BAR
    c.fill_rect(x, y, w, h, cv.DEEP)
    c.text(x + 3, y + 2, title, colour, font)
    return h


def centred(c, x, w, y, s, colour, font=None):
    """``s`` centred in the column ``x``..``x + w``."""
    c.text(x + (w - c.text_width(s, font)) // 2, y, s, colour, font)


def wrap(c, s, w):
    """``s`` broken into lines no wider than ``w`` pixels at spaces (a word wider than that
    alone on its line), as a list. A line is the longest run of whole words that fits
    (``c.fit``): one string made per line, not one per word and per trial (on the device each
    new string costs about 0.25 ms)."""
    out = []
    while True:
        k = c.fit(s, w)
        if k >= len(s):
            out.append(s)
            return out
        b = s.rfind(" ", 0, k + 1)  # the last space the line can end at
        if b <= 0:  # the first word does not fit: alone on its line
            b = s.find(" ", 1)
            if b < 0:
                out.append(s)
                return out
        out.append(s[:b])
        s = s[b + 1:]


def count(n, one, many):
    """``n`` and the noun for it: "1 die", "3 dice"."""
    return "%d %s" % (n, one if n == 1 else many)


def paragraph(c, x, y, w, s, colour):
    """Draw ``s`` wrapped to width ``w`` (``"\\n"`` starts a new paragraph); the y after it."""
    for part in s.split("\n"):
        for line in wrap(c, part, w):
            c.text(x, y, line, colour)
            y += LINE
    return y


def button(c, x, y, w, label, state):
    """A button 13 pixels high. state: 0 disabled, 1 enabled, 2 under the cursor."""
    if state == 2:
        c.fill_rect(x, y, w, 13, cv.CURSOR)
        fg = cv.BLACK
    else:
        c.fill_rect(x, y, w, 13, cv.SAND if state else cv.DEEP)
        fg = cv.BLACK if state else cv.ORE
    centred(c, x, w, y + 2, label, fg)


def row(c, x, y, w, label, value, selected, colour=cv.WHITE, font=None):
    """One line of a menu or form: ``label`` on the left, ``value`` right-aligned; 12 pixels
    high, or in ``font`` (the large one) its line's pitch."""
    h = font.LINE if font else 12
    ty = y + (h - font.HEIGHT) // 2 if font else y + 2
    if selected:
        c.fill_rect(x, y, w, h, cv.CURSOR)
    c.text(x + 3, ty, label, cv.BLACK if selected else colour, font)
    if value:
        c.text(x + w - 3 - c.text_width(value, font), ty, value,
               cv.BLACK if selected else cv.GOLD, font)


_DIE_INK = (cv.WHITE, cv.DARK, cv.DEEP)  # a die's ground: a face, marked, spent


def die(c, x, y, face, style, framed=False, sheet=None, faces=FACE_SPRITE):
    """One die in an 18x18 box at (x, y), or with ``sheet`` (``sprites_big``, and ``faces``
    its sprites by face) a box of its cells' side and two; ``framed`` rings it (the dice a
    build would use)."""
    s = sheet.HEIGHT + 2 if sheet else 18
    if style == DIE_OFF:
        c.fill_rect(x, y, s, s, cv.SEA)
        c.rect(x, y, s, s, cv.DEEP)
        return
    if style == DIE_BLANK:
        c.fill_rect(x, y, s, s, cv.LIGHT)
        return
    bg = _DIE_INK[style - 1]
    fg = FACE_COLOUR[face] if style == DIE_FACE else (cv.LIGHT if style == DIE_MARKED else cv.ORE)
    c.fill_rect(x, y, s, s, bg)
    picture(c, x + 1, y + 1, faces[face], fg, sheet)
    if style == DIE_MARKED:  # a re-roll mark: two corner ticks (5 pixels long in 18)
        t = s // 4 + 1
        c.hline(x + 1, y + 1, t, cv.WHITE)
        c.vline(x + 1, y + 1, t, cv.WHITE)
        c.hline(x + s - 1 - t, y + s - 2, t, cv.WHITE)
        c.vline(x + s - 2, y + s - 1 - t, t, cv.WHITE)
    if framed:  # magenta round black, as the cursor's frame
        c.rect(x, y, s, s, cv.CURSOR)
        c.rect(x + 1, y + 1, s - 2, s - 2, cv.BLACK)


def picture(c, x, y, index, colour, sheet=None, k=-1):
    """Sprite ``index`` in ``colour`` at (x, y): a die's or a joker's face, a pale one (on
    white) inside a dark-grey edge a pixel wide; with ``k`` 3 (the used joker's cross), inside
    a black one. The edge is the two cells made for the sheet's ``k``-th edged sprite (wool,
    grain, gold, the cross: tools/make_assets.py, add_edges), drawn a pixel up and left and a
    pixel down and right."""
    if k < 0:
        if colour not in _PALE:
            c.sprite(x, y, index, colour, sheet)
            return
        k = _PALE.index(colour)
    e = (sheet or c.sheet).COUNT + 2 * (k - _EDGES)
    edge = cv.BLACK if k == _EDGES - 1 else cv.DARK
    c.sprite(x - 1, y - 1, e, edge, sheet)
    c.sprite(x + 1, y + 1, e + 1, edge, sheet)
    c.sprite(x, y, index, colour, sheet)


def frame(c, x, y, w, h, colour=cv.CURSOR):
    """A 2-pixel frame just outside the rectangle (the cursor around a die or a box): magenta
    outside, black inside, so it stands out on the light hexes and on the dark sea alike."""
    c.rect(x - 2, y - 2, w + 4, h + 4, colour)
    c.rect(x - 1, y - 1, w + 2, h + 2, cv.BLACK)


def track_row(w, k=1):
    """How many of Island One's score boxes a row across ``w`` pixels holds: 8, or where that
    leaves a box too narrow for two digits with a pixel either side (in the font of scale
    ``k``: the small font 1, the large 2, its digits and margins twice as wide), 5 (three
    rows), or 4 (four)."""
    return 8 if w // 8 >= 14 * k else 5 if w // 5 >= 14 * k else 4


def track(c, x, y, w, g, p, per_row, font=None):
    """Island One's 15 score boxes of seat ``p`` in rows of ``per_row`` across ``w`` pixels, a
    pixel apart: points entered (in ``font``), an X on red, the turns to come empty (an
    outline). The boxes are 11 pixels high, the digits a pixel from their top; in the large
    font 21, 3 (the digits 7 and 14 rows high: 3 clear under them, 4 in the large)."""
    k = font.SCALE if font else 1
    h = 10 * k + 1
    bw = w // per_row
    for t in range(TURNS_ONE):
        bx = x + (t % per_row) * bw
        by = y + (t // per_row) * (h + 1)
        if t < g.turns[p]:
            v = g.track[p * TURNS_ONE + t]
            c.fill_rect(bx, by, bw - 1, h, cv.RED if v < 0 else cv.SAND)
            s = "X" if v == X_PENALTY else "%d" % v
            c.text(bx + (bw - 1 - c.text_width(s, font)) // 2, by + 2 * k - 1, s, cv.BLACK, font)
        else:
            c.rect(bx, by, bw - 1, h, cv.LIGHT)


_AWARDS = const(59)  # both awards with their "+2", and the gap before them


def score_height(g, w, big):
    """The pixels ``score`` takes across ``w`` in the small font: Island One's track, 12 a row
    of boxes; Island Two's VP boxes and awards in one row (19), or on a ``big`` (tall) panel
    narrower than both at their full size, the awards in a row of their own below (36)."""
    if g.island.number == 1:
        per = track_row(w)
        return 12 * ((TURNS_ONE + per - 1) // per) + 2
    return 36 if big and w < _AWARDS + 70 else 19


def score(c, x, y, w, g, p, big=False, font=None):
    """Seat ``p``'s score as the turn screen shows it, from (x, y) across ``w`` pixels, in
    ``score_height`` pixels: Island One's track (``track_row`` boxes a row); Island Two's VP
    boxes, then Longest Road and Largest Army, each with the "+2" it is worth, gold where
    ``p`` holds them. In the large ``font`` (a band of its own under the map: 240x240) the
    track's boxes and digits are twice the size, in 4 rows (87 pixels), and Island Two's VP
    boxes are squares, two rows of five, the awards' "+2" large below them (73
    pixels; the band is 126 wide)."""
    k = font.SCALE if font else 1
    if g.island.number == 1:
        track(c, x, y, w, g, p, track_row(w, k), font)
        return
    if font:  # square boxes, five a row, the awards below
        s = w // 5
        vp_boxes(c, x, y, s, g, p, 5, s - 1)
        y += 2 * s + 6
    elif score_height(g, w, big) > 19:  # the boxes at the score sheet's size, awards below
        vp_boxes(c, x, y + 4, 9, g, p)
        y += 17
    else:  # the boxes as wide as leave room for the awards beside them
        step = 7 if w >= _AWARDS + 70 else 5
        vp_boxes(c, x, y + 4, step, g, p)
        x += 10 * step + 1
    for icon, held in ((sprites.LONGEST_ROAD, g.longest == p),
                       (sprites.LARGEST_ARMY, g.largest == p)):
        colour = cv.GOLD if held else cv.LIGHT
        c.sprite(x, y + 1, icon, colour)
        # its "+2" right of it, centred on its 16 rows
        c.text(x + 15 + 2 * k, y + 8 - 3 * k, "+2", colour, font)
        x += 30 * k


def vp_boxes(c, x, y, step, g, p, per_row=WIN_VP, h=10):
    """Island Two: ten VP boxes ``h`` pixels high, ``step`` pixels apart in rows of
    ``per_row``, filled up to seat ``p``'s VP."""
    vp = g.vp(p)
    for k in range(WIN_VP):
        bx = x + step * (k % per_row)
        by = y + (h + 1) * (k // per_row)
        if k < vp:
            c.fill_rect(bx, by, step - 1, h, cv.GOLD)
        else:
            c.rect(bx, by, step - 1, h, cv.LIGHT)
