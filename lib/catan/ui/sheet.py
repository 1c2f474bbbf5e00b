"""The island map of a player's sheet: where every hex, road, site and knight is drawn.

Geometry is data on a lattice, so both islands share one drawing routine. Hexes are
flat-topped; a point is ``(u, v)`` with ``u`` in half hex sides and ``v`` in half hex heights,
measured from the centre hex: corners and hex centres land on whole numbers (see
``shared/reference/maps.md`` for which edge each road runs along). A ``Layout`` turns lattice
points into pixels (``su`` pixels per u, ``hu`` per v, the map's centre pixel).

    draw(c, lay, game, p, cursor)      # the whole map of seat p (set a clip to redraw a part)
                                       # with the road ``cursor`` lit (a frame rings any other
                                       # target: the caller draws it, last), and its score
                                       # under it where the layout has room (240x240)
    draw_lit_road(c, lay, game, r, can)  # road r lit by the cursor over the map drawn without
    box(lay, island, target)           # the rectangle a target covers, for partial redraws

A *target* is an item number (road, site, knight) or ``JOKER + j`` for joker j. Roads are bands
along their edges; sites sit on their corners and a hex's knight left of its centre with its
joker on the right, so no badge covers another at any layout. Items are silhouettes (a house,
walls with battlements, a shield), 15x15, 17x17 on 240x240's taller hexes (from
``sprites_mid``), or 23x23 where the layout's hexes are large enough (``lay.badge``: 320x240;
drawn from ``sprites_big``; each imported only there), in three clearly
distinct states: built (white), buildable with the dice now (gold) and not yet (deep blue),
with the sheet's printed value inside (Island One's points, Island Two's VP of a site; a
sword on Island Two's knights); a joker is a card showing its resource: white while usable,
dim while locked, crossed out in red once used. Roads: built white and buildable gold (5
pixels on a 7-pixel dark border), not yet a 5-pixel dark bed; the starting road white with a
line down its middle.
"""

from catan import const
from catan.maps import GREY_ROAD, KNIGHT
from catan.ui import canvas as cv
from catan.ui import sprites
from catan.ui import widgets as wg

JOKER = const(64)  # target number of joker 0 (JOKER + j for joker j)

# Hex centres: mountains, fields, pasture, forest, hills, top desert, centre.
_HEX_U = const((-3, -3, 0, 3, 3, 0, 0))
_HEX_V = const((-1, 1, 2, 1, -1, -2, 0))
_HEX_COLOUR = (cv.ORE, cv.GRAIN, cv.WOOL, cv.LUMBER, cv.BRICK, cv.SAND, cv.SEA)


def _points(s):
    # "u,v u,v ..." -> bytes of (u + 8, v + 8) pairs (lattice points stay small and positive).
    out = bytearray()
    for pair in s.split():
        u, v = pair.split(",")
        out.append(int(u) + 8)
        out.append(int(v) + 8)
    return bytes(out)


# Per island: the starting road, then each road's two ends; each site's corner (in the order
# of Island.names); each knight's hex (index into _HEX_*) in printed order; which knights a
# hex holds two of (Island Two's deserts).
_GEOMETRY = {
    1: (
        _points("-2,-2 -1,-1  -1,-1 -2,0  -2,0 -4,0  -2,0 -1,1  -1,1 -2,2  -2,2 -4,2"
                "  -2,2 -1,3  -1,3 1,3  1,3 2,2  2,2 1,1  1,1 2,0  2,0 1,-1  1,-1 2,-2"
                "  2,2 4,2  4,2 5,1  5,1 4,0  4,0 5,-1"),
        _points("-1,-1 -1,1 -1,3 2,2 2,0 2,-2 -4,0 -4,2 5,1 5,-1"),
        bytes((0, 1, 2, 3, 4, 5)),
    ),
    2: (
        _points("-2,-2 -1,-1  -1,-1 -2,0  -2,0 -4,0  -2,0 -1,1  -1,1 -2,2  -2,2 -4,2"
                "  -2,2 -1,3  -1,3 1,3  1,3 2,2  2,2 4,2  4,2 5,1  5,1 4,0  4,0 2,0"
                "  4,0 5,-1  5,-1 4,-2  4,-2 2,-2  2,-2 1,-3  1,-3 -1,-3"),
        _points("-1,-1 -1,1 -1,3 5,1 5,-1 2,-2 -1,-3 -4,0 -4,2 2,2 2,0"),
        bytes((0, 1, 2, 3, 4, 5, 5, 6, 6)),
    ),
}

_BUILT = const(0)
_OPEN = const(1)  # buildable with the dice now
_LATER = const(2)
_CROSS = const(3)  # the cross's edge in a sheet (widgets.picture's k)
_TWO_VP = const((0, "1", "2"))  # Island Two's printed victory points by kind: settlement, city
# The symbols of the map with 15-px badges (a joker's card, one more, is a die's sprite): the
# sheet (None: the canvas's own), an item's silhouette by kind (its inside is the next sprite),
# the sword, the cross, the faces a joker gives (as widgets.FACE_SPRITE), the row of a value's
# text in a site's and in a knight's badge.
_ART = (None, (0, sprites.MAP_SETTLEMENT, sprites.MAP_CITY, sprites.MAP_KNIGHT),
        sprites.MAP_SWORD, sprites.CROSS, wg.FACE_SPRITE, 6, 2)


def _art(lay):
    # the symbols of ``lay``'s map: the larger ones are imported the first time they are asked
    if lay.badge == 15:
        return _ART
    if lay.badge == 17:
        from catan.ui import sprites_mid as s

        rows = (7, 3)
    else:
        from catan.ui import sprites_big as s

        rows = (10, 4)
    return (s, (0, s.MAP_SETTLEMENT, s.MAP_CITY, s.MAP_KNIGHT), s.MAP_SWORD, s.CROSS,
            (s.BRICK, s.LUMBER, s.WOOL, s.GRAIN, s.ORE, s.GOLD, s.JOKER)) + rows


def _px(lay, u, v):
    return lay.cx + (u - 8) * lay.su, lay.cy + (v - 8) * lay.hu


def _left(lay):
    # How far a knight and its joker card move left of their place (the card's left edge a
    # pixel left of the hex's centre) for the card to clear a site on the hex's right corner:
    # none unless the badges are large for the hexes' width (240x240's 17-px ones). No site
    # is on a hex's left corner.
    b = lay.badge
    k = b + b // 2 - 2 * lay.su
    return k if k > 0 else 0


def _knight_xy(lay, isl, item):
    # Top-left of a knight's badge: left of the hex's centre, its joker card to the right; a
    # desert holding two knights puts them side by side, their joker below them.
    geo = _GEOMETRY[isl.number][2]
    b = lay.badge
    k = item - isl.n_roads - (len(isl.names) - len(geo))
    hexi = geo[k]
    x = lay.cx + _HEX_U[hexi] * lay.su - b - 1 - _left(lay)
    if k > 0 and geo[k - 1] == hexi:  # the second knight of a hex
        x += b + 1
    return x, lay.cy + _HEX_V[hexi] * lay.hu - b // 2


def _joker_xy(lay, isl, j):
    # Top-left of joker j's card, on the hex of the (first) knight that unlocks it.
    need = isl.jokers[j][1]
    b = 0
    while not need >> b & 1:
        b += 1
    geo = _GEOMETRY[isl.number][2]
    hexi = geo[b - (len(isl.names) - len(geo))]
    x = lay.cx + _HEX_U[hexi] * lay.su
    y = lay.cy + _HEX_V[hexi] * lay.hu - lay.badge // 2
    if need & need - 1:  # two knights: below them, clear of the sites on the left corners
        return x - 3, y + lay.badge + 1
    return x - 1 - _left(lay), y - 1


def _road_box(x0, y0, x1, y1):
    # A road's band (7 pixels across under the cursor) reaches 3 pixels past its ends' columns
    # and a row's rounding one more
    return min(x0, x1) - 4, min(y0, y1) - 4, abs(x1 - x0) + 9, abs(y1 - y0) + 9


def box(lay, isl, target):
    """The rectangle ``(x, y, w, h)`` that ``target`` covers, its cursor frame included."""
    side = lay.badge
    if target >= JOKER:
        x, y = _joker_xy(lay, isl, target - JOKER)
        return x - 2, y - 2, side + 5, side + 5
    if target < isl.n_roads:
        pts = _GEOMETRY[isl.number][0]
        o = 2 * (target + 1)
        x0, y0 = _px(lay, pts[2 * o], pts[2 * o + 1])
        x1, y1 = _px(lay, pts[2 * o + 2], pts[2 * o + 3])
        return _road_box(x0, y0, x1, y1)
    if isl.kind(target) == KNIGHT:
        x, y = _knight_xy(lay, isl, target)
    else:
        pts = _GEOMETRY[isl.number][1]
        b = target - isl.n_roads
        x, y = _px(lay, pts[2 * b], pts[2 * b + 1])
        x -= side // 2
        y -= side // 2
    return x - 2, y - 2, side + 4, side + 4


_HALVES = {}  # su << 8 | hu -> the half widths of a hex's rows, top to bottom


def hexagon(c, x, y, su, hu, colour):
    # A flat-topped hex centred at (x, y): corners at x +- 2 su, half height hu. One pixel
    # narrower than its true outline, so neighbouring hexes keep a thin gap of sea.
    halves = _HALVES.get(su << 8 | hu)  # (a number: a tuple would be a new object per hex)
    if halves is None:
        full = 2 * su - 1
        halves = bytes(full - (su * (dy if dy > 0 else -dy) + hu - 1) // hu
                       for dy in range(-hu + 1, hu))
        _HALVES[su << 8 | hu] = halves
    c.spans(x, y - hu + 1, halves, colour)


def _state(game, p, item, can):
    if game.is_built(item, p):
        return _BUILT
    return _OPEN if item in can else _LATER


_PLACES = {}  # (layout, island) -> where each road, item and joker is drawn (see _places)
_LAST = [None, 0, None]  # the layout and island asked last, and their places
_ROAD_INK = (cv.WHITE, cv.GOLD, cv.ORE)  # a lit road's middle: built, buildable, grey


def _places(c, lay, isl):
    # Pixel geometry worked out once per layout and island: the roads' ends and boxes (the
    # starting road first), the items' boxes, kinds and Island One's value texts with their
    # offsets (on the device a new string costs about 0.25 ms: MicroPython looks for it among
    # the interned ones), the jokers' boxes, the symbols (``_art``). Drawing a part of the map then costs one
    # comparison per element outside it.
    last = _LAST
    if last[0] is lay and last[1] == isl.number:  # (no key tuple made per paint)
        return last[2]
    key = (lay.cx, lay.cy, lay.su, lay.hu, isl.number)
    pl = _PLACES.get(key)
    if pl is None:
        pl = _PLACES[key] = _make_places(c, lay, isl)
    last[0] = lay
    last[1] = isl.number
    last[2] = pl
    return pl


def _make_places(c, lay, isl):
    pts = _GEOMETRY[isl.number][0]
    roads = []
    for r in range(-1, isl.n_roads):
        o = 2 * (r + 1)
        x0, y0 = _px(lay, pts[2 * o], pts[2 * o + 1])
        x1, y1 = _px(lay, pts[2 * o + 2], pts[2 * o + 3])
        roads.append((x0, y0, x1, y1) + _road_box(x0, y0, x1, y1))
    items = []
    for i in range(isl.n_roads, isl.n_items):
        kind = isl.kind(i)
        if isl.number == 1:
            label = "%d" % isl.value(i)
        else:
            label = _TWO_VP[kind] if kind != KNIGHT else None
        lx = (lay.badge + 1 - c.text_width(label)) // 2 if label else 0
        items.append(box(lay, isl, i) + (kind, label, lx))
    jokers = [box(lay, isl, JOKER + j) for j in range(len(isl.jokers))]
    return roads, items, jokers, _art(lay)


def draw(c, lay, game, p, cursor=None, can=None):
    """Draw seat ``p``'s sheet (the map) of ``game``; ``cursor``, if a road, is drawn lit
    (the frame around any other target is the caller's: ``box`` is where it goes).

    Buildable states are shown only for the seat whose turn it is: ``can`` is
    ``game.buildable()`` if the caller has it already."""
    isl = game.island
    su = lay.su
    hu = lay.hu
    if lay.mh < lay.ph and c.visible(lay.mx, lay.mh, lay.mw, lay.ph - lay.mh):
        # a layout with room under the map (240x240) puts seat p's score there, in the
        # large font (the room is the layout's: layout._UNDER). The font is imported here,
        # not with this module: it is on demand (memory.py), and the other layouts' turn
        # screens never draw with it.
        from catan.ui import font_large

        c.fill_rect(lay.mx, lay.mh, lay.mw, lay.ph - lay.mh, cv.DEEP)
        wg.score(c, lay.mx + 3, lay.mh + 3, lay.mw - 5, game, p, lay.big, font_large)
    if not c.visible(lay.mx, lay.my, lay.mw, lay.mh):
        return
    c.fill_rect(lay.mx, lay.my, lay.mw, lay.mh, cv.SEA)
    centre = cv.SEA if isl.number == 1 else cv.SAND
    for i in range(7):
        x = lay.cx + _HEX_U[i] * su
        y = lay.cy + _HEX_V[i] * hu
        if c.visible(x - 2 * su, y - hu, 4 * su + 1, 2 * hu + 1):
            hexagon(c, x, y, su, hu, centre if i == 6 else _HEX_COLOUR[i])
    if p != game.player:
        can = ()
    elif can is None:
        can = game.buildable()
    roads, items, jokers, art = _places(c, lay, isl)
    # the clip's corners, for the loops below to test each element without a call (a call
    # costs about 25 us on the device, and a partial redraw skips most elements)
    cx = c.clip_x0
    cy = c.clip_y0
    cx1 = c.clip_x1
    cy1 = c.clip_y1
    # A road is a band along its edge: buildable, 5 pixels of gold; built, of white (both
    # on a dark border, 7 across); not yet, hollow: a light-grey edge round a 3-pixel
    # deep-blue bed (an empty road, as printed; the grey road, Island Two's R5 whose builder
    # may take Longest Road, a dark grey one). The hollow ones first: where roads meet, a
    # border closes over their ends. ``lit``: the others to draw then (bit r + 1, the
    # starting road's bit 0), ``gold`` the buildable ones of them: each road's place and
    # state are read once.
    lit = 0
    gold = 0
    for r in range(-1, isl.n_roads):
        x0, y0, x1, y1, bx, by, bw, bh = roads[r + 1]
        if bx >= cx1 or by >= cy1 or bx + bw <= cx or by + bh <= cy or r == cursor:
            continue
        st = _state(game, p, r, can) if r >= 0 else 0
        if st == _LATER:
            c.band(x0, y0, x1, y1, 5, cv.LIGHT, 0,
                   cv.DARK if isl.number == 2 and r == GREY_ROAD else cv.DEEP)
        else:
            lit |= 1 << (r + 1)
            gold |= st << (r + 1)
    r = -1
    while lit:
        if lit & 1:
            x0, y0, x1, y1, bx, by, bw, bh = roads[r + 1]
            c.band(x0, y0, x1, y1, 7, cv.DEEP, 0, _ROAD_INK[gold & 1])
            if r < 0:  # the starting road: white as a built one, a line down its middle
                c.band(x0, y0, x1, y1, 1, cv.BLACK, 2)
        lit >>= 1
        gold >>= 1
        r += 1
    if cursor is not None and 0 <= cursor < isl.n_roads:
        _lit_road(c, isl, game, p, cursor, can, roads[cursor + 1])
    _items(c, isl, game, p, can, items, jokers, art)


def draw_lit_road(c, lay, game, road, can):
    """Draw road ``road`` of the seat whose turn it is under the cursor, over the map as
    ``draw`` left it without the cursor, within the clip: the same pixels as ``draw`` with
    ``cursor=road`` (the cursor's road is drawn after the others, then the items over it).
    ``can`` is ``game.buildable()``."""
    isl = game.island
    roads, items, jokers, art = _places(c, lay, isl)
    p = game.player
    _lit_road(c, isl, game, p, road, can, roads[road + 1])
    _items(c, isl, game, p, can, items, jokers, art)


def _lit_road(c, isl, game, p, r, can, place):
    # Road ``r`` under the cursor: a 7-pixel magenta band round a black one of 5 (as the
    # cursor's frame: magenta outside, black inside), its 3-pixel middle in the road's
    # colour; not yet built, none (hollow, as it is drawn without the cursor).
    x0, y0, x1, y1, bx, by, bw, bh = place
    if bx >= c.clip_x1 or by >= c.clip_y1 or bx + bw <= c.clip_x0 or by + bh <= c.clip_y0:
        return
    st = _state(game, p, r, can)
    c.band(x0, y0, x1, y1, 7, cv.CURSOR, 0, cv.BLACK)
    if st != _LATER or (isl.number == 2 and r == GREY_ROAD):
        c.band(x0, y0, x1, y1, 3, _ROAD_INK[st], 2)


def _items(c, isl, game, p, can, items, jokers, art):
    # the sites, cities and knights, then the jokers, that meet the clip
    cx = c.clip_x0
    cy = c.clip_y0
    cx1 = c.clip_x1
    cy1 = c.clip_y1
    n = isl.n_roads
    f = art[0]
    # An item's silhouette: built, white inside a deep-blue edge; buildable, gold inside it;
    # not yet, deep blue inside a light-grey edge (the edge, at 3:1 or more against the sea
    # and every hex, or the fill inside it, tells the shape from its ground); its printed
    # value inside it (``label``: Island One's points, Island Two's VP of a site; None: a
    # sword, Island Two's knight), ``lx`` pixels in, clear of the edge by a pixel all round.
    # (Drawn here, not by a function an item: a call costs about 25 us on the device.)
    for k in range(len(items)):
        x, y, w, h, kind, label, lx = items[k]
        if x >= cx1 or y >= cy1 or x + w <= cx or y + h <= cy:
            continue
        x += 2
        y += 2
        spr = art[1][kind]
        st = _state(game, p, n + k, can)
        if st == _LATER:
            c.sprite(x, y, spr, cv.LIGHT, f, cv.DEEP)
            ink = cv.LIGHT
        else:
            c.sprite(x, y, spr, cv.DEEP, f, cv.WHITE if st == _BUILT else cv.GOLD)
            ink = cv.BLACK
        if label:
            c.text(x + lx, y + art[6 if kind == KNIGHT else 5], label, ink)
        else:
            c.sprite(x, y, art[2], ink, f)
    for j in range(len(jokers)):
        x, y, w, h = jokers[j]
        if x >= cx1 or y >= cy1 or x + w <= cx or y + h <= cy:
            continue
        x += 2
        y += 2
        gives = isl.jokers[j][0]
        used = game.joker_used(j, p)
        card = w - 4
        # usable: white, its face in colour, edged black; locked or used: deep blue, its
        # face light grey, edged light grey and a deep-blue pixel inside that (the edge, or
        # the fill inside it, stands out from every hex); used, crossed out in red (edged
        # black), as on paper
        if game.joker_unlocked(j, p) and not used:
            c.fill_rect(x, y, card, card, cv.WHITE)
            wg.picture(c, x, y, art[4][gives], wg.FACE_COLOUR[gives], f)
            c.rect(x, y, card, card, cv.BLACK)
        else:
            c.fill_rect(x, y, card, card, cv.DEEP)
            c.sprite(x, y, art[4][gives], cv.LIGHT, f)
            c.rect(x, y, card, card, cv.LIGHT)
            c.rect(x + 1, y + 1, card - 2, card - 2, cv.DEEP)
            if used:
                wg.picture(c, x, y, art[3], cv.RED, f, _CROSS)
