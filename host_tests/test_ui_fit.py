"""Every text of every screen at every layout is readable: inside the screen, and nothing drawn
after it covers it (no text over text, no picker or box over a label); and on the map no two
elements a player must see both of (sites, knights, jokers) overlap.

The screens are the scenes of host_tests/mp/ui_scenes.py (every screen of the app, reached by
keys), repainted whole on a canvas that records what each primitive covers.
"""

import sys
from pathlib import Path

import pytest

MP_DIR = Path(__file__).parent / "mp"
if str(MP_DIR) not in sys.path:
    sys.path.insert(0, str(MP_DIR))

import ui_scenes
from catan.dice import SeededDice
from catan.game import Game
from catan.ui import sheet
from catan.ui.canvas import PALETTE, Canvas
from catan.ui.layout import Layout
from catan.ui.widgets import wrap

LAYOUTS = [(240, 135), (240, 240), (320, 240)]


class Recorder(Canvas):
    """A canvas that draws nothing and keeps, in order, the box of every primitive (clipped
    to nothing: what a full repaint draws) and of every text."""

    def __init__(self, w, h):
        Canvas.__init__(self, w, h)
        self.ops = []  # (kind, x, y, w, h, what)

    def _fill(self, x, y, w, h, c):
        pass

    def get_pixel(self, x, y):
        return 0

    def fill_rect(self, x, y, w, h, c):
        self.ops.append(("fill", x, y, w, h, c))
        Canvas.fill_rect(self, x, y, w, h, c)

    def sprite(self, x, y, index, c, sheet=None, inside=-1):
        f = sheet or self.sheet
        self.ops.append(("sprite", x, y, f.WIDTHS[index], f.HEIGHT, index))
        Canvas.sprite(self, x, y, index, c, sheet, inside)

    def rect(self, x, y, w, h, c):
        self.ops.append(("rect", x, y, w, h, c))  # a frame: it covers what is inside it too
        Canvas.rect(self, x, y, w, h, c)

    def text(self, x, y, s, c, font=None):
        f = font or self.font
        lines = s.split("\n")
        for k, line in enumerate(lines):
            if line.strip():
                # the ink: cells from the top of the line to the font's height
                self.ops.append(("text", x, y + k * f.LINE, self.text_width(line, font), f.HEIGHT,
                                 line))
        return Canvas.text(self, x, y, s, c, font)


def _meet(a, b):
    return a[1] < b[1] + b[3] and b[1] < a[1] + a[3] and a[2] < b[2] + b[4] and b[2] < a[2] + a[4]


def _problems(c):
    out = []
    ops = c.ops
    for i, op in enumerate(ops):
        if op[0] != "text":
            continue
        kind, x, y, w, h, s = op
        if x < 0 or y < 0 or x + w > c.width or y + h > c.height:
            out.append("%r at (%d, %d) runs off the %dx%d screen" % (s, x, y, c.width, c.height))
            continue
        for later in ops[i + 1:]:  # anything drawn over it (a box, a picker, a text)
            if _meet(op, later):
                out.append("%r at (%d, %d) is covered by a later %s %r" % (s, x, y, later[0],
                                                                          later[1:]))
                break
        base = 0  # the last fill that holds the whole text: its background, over all before
        for k in range(i):
            b = ops[k]
            if b[0] == "fill" and b[1] <= x and b[2] <= y and x + w <= b[1] + b[3] and \
                    y + h <= b[2] + b[4]:
                base = k
        for earlier in ops[base:i]:  # a text or a sprite under it (a fill is its background)
            if earlier[0] != "fill" and _meet(op, earlier):
                out.append("%r at (%d, %d) is drawn over a %s %r" % (s, x, y, earlier[0],
                                                                     earlier[1:]))
                break
    return out


def _cut(app):
    # the turn screen's lines about the target under the cursor: all of them shown
    screen = app.screen
    if type(screen).__name__ != "Turn":
        return []
    wrapped = []
    for line, _ in screen._info():
        wrapped += [part for part in wrap(app.c, line, screen.lay.pw - 6) if part]
    shown = [line for line, _ in screen._lines() if line]
    if not screen.room and shown and shown[-1] == screen._keys(app.c):
        shown.pop()  # the key help, in the last line where the panel has no foot for it
    return ["info lines cut: %r shown of %r" % (shown, wrapped)] if shown != wrapped else []


def _repainted(name, w, h):
    """Scene ``name`` played on a w x h Recorder, then its screen painted whole again with
    only that repaint's operations kept: (app, recorder)."""
    c = Recorder(w, h)
    app = ui_scenes.run(name, c)
    c.ops = []
    ui_scenes.repaint(app, c)
    return app, c


@pytest.mark.parametrize("w,h", LAYOUTS, ids=["%dx%d" % s for s in LAYOUTS])
def test_no_text_runs_off_the_screen_or_is_covered(w, h):
    bad = []
    for name in ui_scenes.NAMES:
        app, c = _repainted(name, w, h)
        if type(app.screen).__name__ in ("Turn", "Sheets"):
            # the map's own labels: whether its elements overlap is the next test's question
            lay = app.lay
            c.ops = [op for op in c.ops if op[0] != "text" or op[1] >= lay.mx + lay.mw]
        bad += ["%s: %s" % (name, p) for p in _problems(c) + _cut(app)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("w,h,island", [(w, h, i) for w, h in LAYOUTS for i in (1, 2)])
def test_no_two_map_elements_overlap(w, h, island):
    # sites, knights and jokers each show a 15x15 badge or card (their box without the cursor
    # frame's margin): no two may share a pixel, or one hides part of the other
    lay = Layout(w, h)
    isl = Game(island, 1, SeededDice(1)).island

    def badge(t):
        x, y, bw, bh = sheet.box(lay, isl, t)
        return x + 2, y + 2, bw - 4, bh - 4

    boxes = [(isl.name(t), badge(t)) for t in range(isl.n_roads, isl.n_items)]
    boxes += [("joker %d" % j, badge(sheet.JOKER + j)) for j in range(len(isl.jokers))]
    bad = _overlaps(boxes)
    assert not bad, "\n".join(bad)


def _overlaps(boxes):
    # the pairs of (name, (x, y, w, h)) that share a pixel
    bad = []
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            a, b = boxes[i][1], boxes[j][1]
            if a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]:
                bad.append("%s %r and %s %r" % (boxes[i][0], a, boxes[j][0], b))
    return bad


# -- contrast (WCAG 2.x) --------------------------------------------------------------------------

AA = 4.5  # WCAG 2.x level AA for normal text


def _luminance(rgb):
    # WCAG 2.x relative luminance of an RGB888 value
    out = 0.0
    for shift, weight in ((16, 0.2126), (8, 0.7152), (0, 0.0722)):
        v = (rgb >> shift & 255) / 255
        out += weight * (v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4)
    return out


def contrast(a, b):
    """The WCAG 2.x contrast ratio of palette colours ``a`` and ``b`` (1 to 21)."""
    la = _luminance(PALETTE[a])
    lb = _luminance(PALETTE[b])
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


GRAPHIC = 3.0  # WCAG 2.1 1.4.11: graphics that carry meaning against what is next to them


class Final(Canvas):
    """A canvas with real pixels that notes which draw call set each one last, so the frame
    after a paint's last call (the cursor, frames and message boxes included) can be read
    back: each text, sprite, outline and road band, with the pixels of it still showing."""

    def __init__(self, w, h):
        Canvas.__init__(self, w, h)
        self.px = bytearray(w * h)
        self.owner = [-1] * (w * h)
        self.ops = []  # (kind, colour, what, (x, y, w, h) or None)
        self.op = -1
        self.depth = 0

    def _fill(self, x, y, w, h, c):
        px = self.px
        own = self.owner
        for yy in range(y, y + h):
            i = yy * self.width
            px[i + x:i + x + w] = bytes((c,)) * w
            own[i + x:i + x + w] = [self.op] * w

    def get_pixel(self, x, y):
        return self.px[y * self.width + x]

    def _call(self, kind, c, what, box, draw):
        # one op per call the screen makes (not per primitive it is made of)
        if self.depth:
            return draw()
        self.depth = 1
        self.op = len(self.ops)
        self.ops.append((kind, c, what, box))
        try:
            return draw()
        finally:
            self.depth = 0
            self.op = -1

    def fill_rect(self, x, y, w, h, c):
        return self._call("fill", c, None, None, lambda: Canvas.fill_rect(self, x, y, w, h, c))

    def spans(self, x, y, halves, c):
        return self._call("fill", c, None, None, lambda: Canvas.spans(self, x, y, halves, c))

    def rect(self, x, y, w, h, c):
        return self._call("outline", c, (x, y, w, h), None,
                          lambda: Canvas.rect(self, x, y, w, h, c))

    def hline(self, x, y, w, c):
        return self._call("outline", c, (x, y, w, 1), None,
                          lambda: Canvas.hline(self, x, y, w, c))

    def vline(self, x, y, h, c):
        return self._call("outline", c, (x, y, 1, h), None,
                          lambda: Canvas.vline(self, x, y, h, c))

    def band(self, x0, y0, x1, y1, thick, c, short=0, bed=-1):
        # a hollow band (``bed``) as the two bands it is: its edge, then its middle
        self._call("band", c, (x0, y0, x1, y1, thick), None,
                   lambda: Canvas.band(self, x0, y0, x1, y1, thick, c, short))
        if bed >= 0:
            self._call("band", bed, (x0, y0, x1, y1, thick - 2), None,
                       lambda: Canvas.band(self, x0, y0, x1, y1, thick - 2, bed, short + 1))

    def sprite(self, x, y, index, c, sheet=None, inside=-1):
        # a silhouette and its inside (``inside``) as the two sprites they are
        f = sheet or self.sheet
        for k, ink in ((index, c), (index + 1, inside)):
            if ink >= 0:
                self._call("sprite", ink, (k, getattr(f, "__name__", "sprites")),
                           _ink_box(f, k, x, y),
                           lambda k=k, ink=ink: Canvas.sprite(self, x, y, k, ink, sheet))

    def text(self, x, y, s, c, font=None):
        return self._call("text", c, s, None, lambda: Canvas.text(self, x, y, s, c, font))

    def shown(self):
        """{op: [pixel index, ...]}: the pixels each op set that still show."""
        out = {}
        for i, o in enumerate(self.owner):
            if o >= 0:
                out.setdefault(o, []).append(i)
        return out


def _ink_box(f, index, x, y):
    # the box of the pixels a cell sets, drawn at (x, y) (None: it sets none)
    w = f.WIDTHS[index]
    o = index * f.HEIGHT * f.BPR
    xs = []
    ys = []
    for r in range(f.HEIGHT):
        for col in range(w):
            if f.DATA[o + r * f.BPR + (col >> 3)] >> (7 - (col & 7)) & 1:
                xs.append(x + col)
                ys.append(y + r)
    if not xs:
        return None
    return min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


_NEAR8 = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
_NEAR4 = ((0, -1), (-1, 0), (1, 0), (0, 1))


def _inside(px, w, h, x, y, dx, dy, b):
    # True if a pixel one or two steps further in from (x, y), away from its neighbour at
    # (x + dx, y + dy), or beside those steps (an outline's corner, a sloped band's end),
    # has GRAPHIC contrast with ``b``
    for k in (1, 2):
        for e in (-1, 0, 1):
            ix = x - k * dx + e * dy
            iy = y - k * dy + e * dx
            if 0 <= ix < w and 0 <= iy < h and contrast(px[iy * w + ix], b) >= GRAPHIC:
                return True
    return False


def _describe(op):
    kind, _, what, _ = op
    return repr(what) if kind == "text" else "%s %r" % (kind, what)


def final_problems(c):
    """What the final frame on Final canvas ``c`` shows too faintly or not at all:
    - a text pixel next to a pixel of anything but itself below ``AA``;
    - a graphic (sprite, outline, road band) more than an eighth of whose edge pixels (next
      to a pixel of another colour) are faint: below ``GRAPHIC`` against that pixel, and no
      pixel one or two steps further in (its fill inside an outline, say; or at a corner,
      beside those steps) has that contrast with it either (an outline drawn round a shape,
      or a shape's fill inside a faint edge, is how a graphic is told from its ground; where
      two graphics meet, either one's edge may be what tells them apart). A few faint
      pixels, the stair of a sloped band's end, a corner where items meet, leave the shape
      plain;
    - a sprite whose ink does not lie wholly on the screen."""
    out = []
    w = c.width
    h = c.height
    px = c.px
    own = c.owner
    for op in c.ops:
        if op[0] == "sprite" and op[3]:
            x, y, bw, bh = op[3]
            if x < 0 or y < 0 or x + bw > w or y + bh > h:
                out.append("sprite %r at (%d, %d) is cut by the %dx%d screen's edge" %
                           (op[2], x, y, w, h))
    seen = set()
    for k, pixels in c.shown().items():
        kind, col, what, _ = c.ops[k]
        if kind == "fill":
            continue
        text = kind == "text"
        need = AA if text else GRAPHIC
        worst = None
        edge = set()  # (a graphic's) pixels next to another colour, and those too faint
        faint = set()
        for i in pixels:
            x = i % w
            y = i // w
            for dx, dy in (_NEAR8 if text else _NEAR4):
                qx = x + dx
                qy = y + dy
                if not (0 <= qx < w and 0 <= qy < h):
                    continue
                q = qy * w + qx
                b = px[q]
                if own[q] == k or b == col and not text:
                    continue  # (a text's strokes that run into other ink of its colour: 1:1)
                edge.add(i)
                r = contrast(col, b)
                if r >= need:
                    continue
                if not text and (_inside(px, w, h, x, y, dx, dy, b) or
                                 c.ops[own[q]][0] not in ("fill", "text") and own[q] >= 0 and
                                 _inside(px, w, h, qx, qy, -dx, -dy, col)):
                    continue  # (two graphics meet: either one's edge may tell them apart)
                faint.add(i)
                if worst is None or r < worst[0]:
                    worst = (r, b, x, y)
        if worst and (text or 8 * len(faint) > len(edge)):
            line = "%s: %s on %s is %.2f:1 at (%d, %d)" % (
                _describe(c.ops[k]), _NAMES[col], _NAMES[worst[1]], worst[0], worst[2], worst[3])
            if line not in seen:
                seen.add(line)
                out.append(line)
    return out


_NAMES = ("SEA", "DEEP", "SAND", "BRICK", "LUMBER", "WOOL", "GRAIN", "ORE", "GOLD", "WHITE",
          "BLACK", "DARK", "LIGHT", "CURSOR", "RED", "SKY")


def _final(app, c):
    # the screen painted whole, then what its final frame shows too faintly
    c.ops = []
    c.owner = [-1] * (c.width * c.height)
    ui_scenes.repaint(app, c)
    return final_problems(c)


@pytest.mark.parametrize("w,h", LAYOUTS, ids=["%dx%d" % s for s in LAYOUTS])
def test_every_text_and_graphic_contrasts_in_the_final_frame(w, h):
    # every scene, early and late in games of one to four seats on both islands
    bad = []
    for name in ui_scenes.NAMES:
        c = Final(w, h)
        app = ui_scenes.run(name, c)
        bad += ["%s: %s" % (name, p) for p in _final(app, c)]
    assert not bad, "%d below %.1f:1 (text) or %.1f:1 (graphics), or cut\n%s" % (
        len(bad), AA, GRAPHIC, "\n".join(bad))


def test_the_checks_fail_on_a_bad_scene():
    # Deliberately bad: dark grey on deep blue, a label over a sprite, then over a text; a
    # text a frame is painted beside after it; a deep-blue sprite on the sea, and the same
    # inside a light outline (fine); a sprite half off the screen
    class Bad:
        def __init__(self):
            self.screen = self

        def paint(self, c):
            c.fill_rect(0, 0, c.width, c.height, 1)  # DEEP
            c.text(4, 4, "dim", 11)  # DARK on DEEP
            c.text(4, 20, "fine", 9)  # WHITE on DEEP
            c.sprite(40, 40, 0, 9)
            c.text(42, 44, "over", 9)
            c.text(80, 80, "one", 9)
            c.text(84, 82, "two", 9)
            c.text(4, 100, "framed", 12)  # LIGHT, then a magenta frame touching it
            c.fill_rect(120, 0, 120, 60, 0)  # SEA
            c.sprite(130, 10, 0, 1)  # DEEP on SEA
            c.fill_rect(160, 10, 18, 18, 12)  # LIGHT ...
            c.sprite(161, 11, 0, 1)  # ... round a DEEP brick: its outline
            c.sprite(c.width - 8, 30, 0, 9)
            c.rect(3, 99, c.text_width("framed") + 2, 11, 13)

    c = Final(240, 135)
    low = _final(Bad(), c)
    assert any("'dim': DARK on DEEP" in p for p in low), low
    assert not any("'fine'" in p for p in low), low
    assert any("'over'" in p for p in low) and any("'two'" in p for p in low), low  # ink on ink
    assert any("'framed': LIGHT on CURSOR" in p for p in low), low
    assert any("sprite (0, 'catan.ui.sprites'): DEEP on SEA" in p and "(13" in p
               for p in low), low
    assert not any("at (16" in p or "at (17" in p for p in low), low  # the outlined one
    assert any("cut by the 240x135" in p for p in low), low
    r = Recorder(240, 135)
    Bad().paint(r)
    probs = _problems(r)
    assert any("'over'" in p and "sprite" in p for p in probs), probs
    assert any("'one'" in p and "text" in p for p in probs), probs
    assert contrast(10, 9) == pytest.approx(21.0)
    # two badges a pixel into each other, and two a pixel apart
    assert _overlaps([("S1", (10, 10, 15, 15)), ("K1", (24, 10, 15, 15))])
    assert not _overlaps([("S1", (10, 10, 15, 15)), ("K1", (25, 10, 15, 15))])


@pytest.mark.parametrize("w,h", LAYOUTS, ids=["%dx%d" % s for s in LAYOUTS])
def test_every_map_item_shows_what_it_is(w, h):
    # Without the cursor: each site prints its value (Island One's points, Island Two's VP),
    # each knight its number (Island One) or a sword (Island Two), inside a silhouette of its
    # kind (three different shapes); the starting road is white like a built road.
    from catan.maps import KNIGHT
    from catan.ui import sprites, sprites_big

    from catan.ui import sprites_mid

    lay = Layout(w, h)
    if lay.badge > 15:  # the larger maps' symbols
        sprites = sprites_big if lay.badge > 17 else sprites_mid
    n = sprites.HEIGHT * sprites.BPR
    shapes = {sprites.MAP_SETTLEMENT, sprites.MAP_CITY, sprites.MAP_KNIGHT}
    cells = [sprites.DATA[s * n:s * n + n] for s in shapes]
    assert len(set(cells)) == 3
    for island in (1, 2):
        g = Game(island, 1, SeededDice(1))
        isl = g.island
        r = Recorder(w, h)
        sheet.draw(r, lay, g, 0, None, ())
        for t in range(isl.n_roads, isl.n_items):
            x, y, bw, bh = sheet.box(lay, isl, t)
            inside = [op for op in r.ops if x <= op[1] and op[1] + op[3] <= x + bw and
                      y <= op[2] and op[2] + op[4] <= y + bh]
            kind = isl.kind(t)
            want = ("%d" % isl.value(t) if island == 1 else
                    None if kind == KNIGHT else "%d" % (1 if kind == 1 else 2))
            texts = [op[5] for op in inside if op[0] == "text"]
            spr = [op[5] for op in inside if op[0] == "sprite"]
            assert spr[0] == (sprites.MAP_SETTLEMENT, sprites.MAP_CITY, sprites.MAP_KNIGHT)[kind - 1]
            if want:
                assert texts == [want], (island, isl.name(t), texts)
            else:
                assert texts == [] and sprites.MAP_SWORD in spr, (island, isl.name(t), spr)
        c = Final(w, h)
        sheet.draw(c, lay, g, 0, None, ())
        x0, y0, x1, y1 = sheet._places(c, lay, isl)[0][0][:4]
        assert c.get_pixel((x0 + x1) // 2 + 2, (y0 + y1) // 2) == 9  # WHITE


@pytest.mark.parametrize("w,h,island", [(w, h, i) for w, h in LAYOUTS for i in (1, 2)])
def test_every_target_s_lines_are_shown_whole(w, h, island):
    # In the build phase with every knight built (every joker usable): the lines about each
    # target under the cursor all fit above the score (none cut off under it).
    from catan.dice import ScriptedDice
    from catan.codec import pack_save
    from catan.ui.app import HUMAN, App
    from memstore import MemStore

    g = Game(island, 2, ScriptedDice([0, 1, 2, 3, 4, 5] * 4))
    g.roll()
    g.stop()
    isl = g.island
    for t in range(isl.n_roads, isl.n_items):
        if isl.kind(t) == 3:
            g.builds[0] |= 1 << (t - isl.n_roads)
    c = Recorder(w, h)
    app = App(c, MemStore({"game": pack_save(g, (HUMAN, 1))}), roles=ui_scenes.ROLES)
    app.tick(0)
    app.handle("a")  # continue
    app.tick(50)
    screen = app.screen
    assert type(screen).__name__ == "Turn"
    bad = []
    for t in list(range(isl.n_items)) + [sheet.JOKER + j for j in range(len(isl.jokers))]:
        screen.cursor = t
        bad += ["%s: %s" % (t, p) for p in _cut(app)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("w,h", LAYOUTS, ids=["%dx%d" % s for s in LAYOUTS])
def test_the_turn_screen_shows_every_opponent_s_total(w, h):
    # a multi-seat game, without a key: each other seat's points (Island One) or VP (Island
    # Two) in a chip of its colour in the header, its own total at the right as before
    from catan.ui.widgets import BAR, PLAYER_COLOUR

    for name in ("turn_summary_one", "turn_summary_two", "turn_island_two", "turn_computer",
                 "turn_late_roll", "turn_late_one", "turn_late_two"):
        app, c = _repainted(name, w, h)
        g = app.game
        px = app.lay.px
        top = app.screen.ty - 3  # the header: one bar, or two on a tall panel
        assert top in (BAR, 2 * BAR)
        head = [op for op in c.ops if op[1] >= px and op[2] + op[4] <= top]
        # the turn, in full or short, but where four seats' chips leave no room for it on
        # Island One (its track shows it)
        t = g.turns[g.player] + 1
        turns = ("Turn %d/15" % t, "%d/15" % t) if g.island.number == 1 else ("Turn %d" % t,
                                                                             "T%d" % t)
        shown = [op[5] for op in head if op[0] == "text" and op[5] in turns]
        assert shown or g.players == 4 and g.island.number == 1, (name, head)
        for q in range(g.players):
            total = "%d" % (g.score(q) if g.island.number == 1 else g.vp(q))
            if q == g.player:
                last = max((op for op in head if op[0] == "text"), key=lambda op: op[1])
                assert last[5].endswith(total), (name, last)
                continue
            chips = [op for op in head if op[0] == "fill" and op[5] == PLAYER_COLOUR[q] and
                     op[3] < 40]
            assert len(chips) == 1, (name, q, head)
            x, y, cw, ch = chips[0][1:5]
            inside = [op[5] for op in head if op[0] == "text" and x <= op[1] and
                      op[1] + op[3] <= x + cw and y <= op[2] < y + ch]
            # in a row of their own (a tall panel), named; else numbered (not by colour alone)
            want = ["%d" % (q + 1), total] if top == BAR else ["%s %s" % (app.seat_name(q),
                                                                          total)]
            assert inside == want, (name, q, inside)


@pytest.mark.parametrize("w,h,island", [(w, h, i) for w, h in LAYOUTS for i in (1, 2)])
def test_the_map_s_symbols_grow_with_its_hexes(w, h, island):
    # Where the hexes are half as large again as on 240x135 (320x240: 38x66 px), so are the
    # sites, knights and jokers: drawn from sprites made that size (a 24-px sheet), not the
    # 15-px badges centred in a larger cell. The 240x240 map, a step wider than 240x135's
    # (as wide as its panel leaves it: 24 px between two corners), has 17-px ones (an 18-px
    # sheet).
    lay = Layout(w, h)
    g = Game(island, 1, SeededDice(1))
    isl = g.island
    side = {135: 15, 240: 17, 320: 23}[w if h > 135 else h]
    r = Recorder(w, h)
    sheet.draw(r, lay, g, 0, None, ())
    for t in list(range(isl.n_roads, isl.n_items)) + [sheet.JOKER + j for j in range(len(isl.jokers))]:
        x, y, bw, bh = sheet.box(lay, isl, t)
        want = side + 1 if t >= sheet.JOKER else side  # a joker's card is a die's cell
        assert (bw - 4, bh - 4) == (want, want), (isl.name(t) if t < sheet.JOKER else t, bw, bh)
        cells = [op for op in r.ops if op[0] == "sprite" and op[1] == x + 2 and op[2] == y + 2]
        assert cells and all(op[4] == side + 1 for op in cells), (t, cells)


@pytest.mark.parametrize("w,h", LAYOUTS, ids=["%dx%d" % s for s in LAYOUTS])
def test_the_map_s_hexes_are_regular_and_its_map_fills_its_rectangle(w, h):
    # A flat-topped hex is sqrt(3)/2 as high as it is wide: a hex as drawn (a pixel narrower
    # than its outline) is, within 3 %, on every layout (240x240's were 48x52, stretched).
    # Every item's box (its cursor frame included) lies in the map's rectangle (a frame at
    # its right edge on the panel's border column), that on the screen left of the panel, and
    # the map reaches within a badge's side of the rectangle's top and bottom (the room kept
    # for a site's badge at its top and bottom corners): no wider band of empty sea (240x240's
    # were 34-43 pixels).
    from catan.ui import canvas as cv

    lay = Layout(w, h)
    c = Final(w, h)
    sheet.hexagon(c, w // 2, h // 2, lay.su, lay.hu, cv.ORE)
    xs = [i % w for i in range(w * h) if c.px[i] == cv.ORE]
    ys = [i // w for i in range(w * h) if c.px[i] == cv.ORE]
    ratio = (max(ys) - min(ys) + 1) / (max(xs) - min(xs) + 1)
    assert abs(ratio / (3 ** 0.5 / 2) - 1) < 0.03, (lay.su, lay.hu, ratio)
    assert 0 <= lay.mx and lay.mx + lay.mw <= lay.px and 0 <= lay.my and lay.my + lay.mh <= h
    for island in (1, 2):
        g = Game(island, 1, SeededDice(1))
        isl = g.island
        for t in list(range(isl.n_items)) + [sheet.JOKER + j for j in range(len(isl.jokers))]:
            x, y, bw, bh = sheet.box(lay, isl, t)
            assert lay.mx <= x and x + bw <= lay.px and lay.my <= y and \
                y + bh <= lay.my + lay.mh, (island, t, (x, y, bw, bh))
        c = Final(w, h)
        sheet.draw(c, lay, g, 0, None, ())
        rows = [y for y in range(lay.my, lay.my + lay.mh)
                if any(c.px[y * w + x] != cv.SEA for x in range(lay.mx, lay.mx + lay.mw))]
        gaps = (rows[0] - lay.my, lay.my + lay.mh - 1 - rows[-1])
        assert max(gaps) <= lay.badge, (island, gaps)


def _score_ops(app, c):
    # The boxes, sprites and texts of the score a turn screen or a sheet shows: under the map
    # where the layout has room for it there (from the map's foot to the screen's), else in
    # the turn screen's panel (its ``ky`` to its foot); the band's own ground left out.
    from catan.ui import canvas as cv

    lay = app.lay
    if lay.mh < lay.ph:
        x0, y0, x1, y1 = lay.mx, lay.mh, lay.mx + lay.mw, lay.ph
    else:
        x0, y0, x1, y1 = lay.px, app.screen.ky, lay.width, app.screen.fy
    return [op for op in c.ops if x0 < op[1] + op[3] and op[1] < x1 and y0 < op[2] + op[4]
            and op[2] < y1 and not (op[0] == "fill" and op[5] == cv.DEEP)], (x0, y0, x1, y1)


def _boxes(ops):
    return [op for op in ops if op[0] in ("fill", "rect")]


def _least(boxes):
    # the narrowest and the lowest of the boxes
    return min(op[3] for op in boxes), min(op[4] for op in boxes)


_SCORED = ("turn_roll", "turn_late_one", "turn_island_two", "turn_late_two",
           "sheets_island_one", "sheets_late_two")


def test_the_score_under_the_map_fills_the_column_to_the_foot():
    # Where the layout puts the score under the map (240x240: a column 131 px wide, 93 high
    # under the regular hexes), the score uses that band: it lies in it, and leaves no more
    # empty rows under it than a badge's side (the track's 8 small boxes a row left 67), its
    # boxes no smaller than the 320x240 panel's, and a track's numbers 3 pixels or more clear
    # of their box's sides.
    from catan.ui import font_large

    big = Layout(320, 240)
    assert big.mh == big.ph, "the layout the band is measured against has its score in the panel"
    banded = [Layout(w, h) for w, h in LAYOUTS if Layout(w, h).mh < h]
    assert banded, "no layout puts the score under the map"
    for lay in banded:
        w, h = lay.width, lay.height
        for name in _SCORED:
            app, c = _repainted(name, w, h)
            ops, (x0, y0, x1, y1) = _score_ops(app, c)
            assert ops, name
            assert all(x0 <= op[1] and op[1] + op[3] <= x1 and y0 <= op[2] and op[2] + op[4] <= y1
                       for op in ops), (name, ops)
            empty = y1 - max(op[2] + op[4] for op in ops)
            assert empty <= lay.badge, (name, "%d empty rows under the score" % empty)
            boxes = _boxes(ops)
            texts = [op for op in ops if op[0] == "text"]
            if not name.startswith("turn_late"):
                continue
            app2, c2 = _repainted(name, big.width, big.height)
            least, least2 = _least(boxes), _least(_boxes(_score_ops(app2, c2)[0]))
            assert least[0] >= least2[0] and least[1] >= least2[1], (name, least, least2)
            assert all(op[4] == font_large.HEIGHT for op in texts), (name, texts)
            for op in texts:
                if op[5] == "+2":  # (an award's, beside its sprite)
                    continue
                box = [b for b in boxes if b[1] <= op[1] and op[1] + op[3] <= b[1] + b[3]
                       and b[2] <= op[2] < b[2] + b[4]]
                assert box, (name, op)
                x, _, bw = box[0][1:4]
                assert min(op[1] - x, x + bw - op[1] - op[3]) >= 3, (name, op, box)


def test_the_small_screen_does_not_load_the_large_sprites():
    # the 240x135 Display Pack must not pay for the larger layouts' sprites: its turn screens
    # and sheets (both islands, solo and several seats) never import them, nor does the
    # 240x240 map the 320x240 one's; and only the 240x240 map (its score under it) imports the
    # large font, which is on demand
    import subprocess

    code = ("import sys; sys.path[:0] = ['lib', 'host_tests/mp']\n"
            "import ui_scenes\n"
            "from catan.dice import SeededDice\nfrom catan.game import Game\n"
            "from catan.ui import sheet\nfrom catan.ui.canvas import Canvas\n"
            "from catan.ui.layout import Layout\n"
            "class C(Canvas):\n    def _fill(self, *a): pass\n    def get_pixel(self, x, y): return 0\n"
            "for name in ('turn_build', 'turn_island_two', 'turn_joker', 'turn_summary_one',\n"
            "             'sheets_island_two', 'sheets_game_over'):\n"
            "    ui_scenes.run(name, C(240, 135))\n"
            "print('catan.ui.sprites_big' in sys.modules, 'catan.ui.sprites_mid' in sys.modules)\n"
            "for i in (1, 2):\n"
            "    sheet.draw(C(240, 240), Layout(240, 240), Game(i, 1, SeededDice(1)), 0)\n"
            "print('catan.ui.sprites_big' in sys.modules)\n")
    root = Path(__file__).parent.parent
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True)
    assert out.stdout.split() == ["False", "False", "False"], out.stderr
    # (a process of its own: the scenes' menus import the large font)
    code = code[:code.index("for name")] + (
        "for w, h in ((240, 135), (320, 240), (240, 240)):\n"
        "    for i in (1, 2):\n"
        "        sheet.draw(C(w, h), Layout(w, h), Game(i, 1, SeededDice(1)), 0)\n"
        "    print('catan.ui.font_large' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True)
    assert out.stdout.split() == ["False", "False", "True"], out.stderr


@pytest.mark.parametrize("w,h", LAYOUTS[1:], ids=["%dx%d" % s for s in LAYOUTS[1:]])
def test_a_tall_panel_s_header_says_the_turn_in_full(w, h):
    # With the other seats' totals in the header, a 135-px panel shortens the turn to "T6"
    # (Island Two) or "2/15" (Island One) where they leave too little room; a 240-px panel
    # has the room for a second row of them, and says "Turn 6", "Turn 2/15"
    for name in ("turn_summary_one", "turn_summary_two", "turn_island_two", "turn_computer"):
        app, c = _repainted(name, w, h)
        g = app.game
        p = g.player
        if g.island.number == 1:
            turn = "Turn %d/15" % min(g.turns[p] + 1, 15)
        else:
            turn = "Turn %d" % (g.turns[p] + 1)
        texts = [op[5] for op in c.ops if op[0] == "text" and op[1] >= app.lay.px and op[2] < 30]
        assert turn in texts, (name, texts)


@pytest.mark.parametrize("w,h", LAYOUTS, ids=["%dx%d" % s for s in LAYOUTS])
def test_a_tall_screen_s_menus_use_the_large_font(w, h):
    # Every menu on a 240-px screen, the pause menu and the settings reached from it too: its
    # title and rows in the large font (the note under them stays small); on 240x135 all small
    from catan.ui import font_large

    for name in ("title", "title_continue", "new_game", "new_game_seats", "new_game_fair", "pause",
                 "pause_settings", "settings", "settings_swap"):
        if name == "pause_settings":  # (no scene of its own: the pause menu's Settings row)
            app, c = _repainted("pause", w, h)
            app.screen.i = app.screen.rows.index("Settings")
            app.handle("a")
            assert type(app.screen).__name__ == "SettingsMenu" and app.screen.owner is not None
            c.ops = []
            ui_scenes.repaint(app, c)
        else:
            app, c = _repainted(name, w, h)
        screen = app.screen
        rows = [op for op in c.ops if op[0] == "text" and op[5] in screen.rows]
        assert [op[5] for op in rows] == screen.rows, (name, rows)
        title = [op for op in c.ops if op[0] == "text" and op[5] == screen.title]
        want = font_large.HEIGHT if h >= 200 else 9
        assert {op[4] for op in rows + title} == {want}, (name, rows + title)


@pytest.mark.parametrize("w,h", LAYOUTS, ids=["%dx%d" % s for s in LAYOUTS])
def test_a_tall_panel_s_dice_are_larger(w, h):
    # The tray's dice: 18-px boxes with 16-px faces on a 135-px panel; on a 240-px one
    # (three dice a row there) 26-px boxes with the 24-px faces of sprites_big
    for name in ("turn_reroll", "turn_build", "turn_island_two"):
        app, c = _repainted(name, w, h)
        screen = app.screen
        side = 26 if h >= 200 else 18
        for i in range(app.game.dice_count()):
            x, y = screen._die_xy(i)
            box = [op for op in c.ops if op[0] == "fill" and op[1:5] == (x, y, side, side)]
            faces = [op for op in c.ops if op[0] == "sprite" and op[1:3] == (x + 1, y + 1)]
            assert box and faces and faces[0][4] == side - 2, (name, i, box, faces)
            if i:  # a pixel between neighbours
                px, py = screen._die_xy(i - 1)
                assert px + side < x or py + side < y, (name, i)


@pytest.mark.parametrize("w,h", LAYOUTS[1:], ids=["%dx%d" % s for s in LAYOUTS[1:]])
def test_a_rules_page_ends_at_the_end_of_a_sentence(w, h):
    # a tall screen's rules card goes on over more pages where a part needs them: each page
    # ends with a sentence (no "cities 7 12" | "20 30"), and the pages hold the whole text
    from catan.ui import font_large, info

    app = ui_scenes.run("rules_island_one", Recorder(w, h))
    card = app.screen
    words = {1: [], 2: [], 3: []}
    for i, (part, _) in enumerate(card.pages):
        if not part:
            continue
        card.page = i
        r = Recorder(w, h)
        card.paint(r)
        lines = [op[5] for op in r.ops if op[0] == "text" and op[4] == font_large.HEIGHT][1:]
        assert lines[-1].endswith("."), (part, lines)  # (the first large line: the title)
        words[part] += " ".join(lines).split()
    for k in (1, 2, 3):
        assert words[k] == info._rules(k).split(), k


@pytest.mark.parametrize("w,h", LAYOUTS, ids=["%dx%d" % s for s in LAYOUTS])
def test_the_title_shows_the_version_in_its_lower_right_corner(w, h):
    # "v" + catan.__version__, whole on the screen, below the art's column (a bug report or an
    # old UF2 told from a new one by a look)
    import catan

    app, c = _repainted("title", w, h)
    want = "v" + catan.__version__
    shown = [op for op in c.ops if op[0] == "text" and op[5] == want]
    assert len(shown) == 1, [op for op in c.ops if op[0] == "text"]
    x, y = shown[0][1:3]
    assert app.screen.width() <= x and x + c.text_width(want) <= w and y + 9 <= h
