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

import ui_scenes  # noqa: E402
from catan.dice import SeededDice  # noqa: E402
from catan.game import Game  # noqa: E402
from catan.ui import sheet  # noqa: E402
from catan.ui.canvas import Canvas  # noqa: E402
from catan.ui.layout import Layout  # noqa: E402
from catan.ui.widgets import wrap  # noqa: E402

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

    def sprite(self, x, y, index, c, sheet=None):
        f = sheet or self.sheet
        self.ops.append(("sprite", x, y, f.WIDTHS[index], f.HEIGHT, index))
        Canvas.sprite(self, x, y, index, c, sheet)

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
    return ["info lines cut: %r shown of %r" % (shown, wrapped)] if shown != wrapped else []


@pytest.mark.parametrize("w,h", LAYOUTS, ids=["%dx%d" % s for s in LAYOUTS])
def test_no_text_runs_off_the_screen_or_is_covered(w, h):
    bad = []
    for name in ui_scenes.NAMES:
        c = Recorder(w, h)
        app = ui_scenes.run(name, c)
        c.ops = []
        ui_scenes.repaint(app, c)
        if type(app.screen).__name__ in ("Turn", "Sheets"):
            # the map's own labels: whether its elements overlap is the next test's question
            lay = app.lay
            c.ops = [op for op in c.ops if op[0] != "text" or op[1] >= lay.mx + lay.mw]
        bad += ["%s: %s" % (name, p) for p in _problems(c) + _cut(app)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("w,h,island", [(w, h, i) for w, h in LAYOUTS for i in (1, 2)])
def test_no_two_map_elements_overlap(w, h, island):
    # sites, knights and jokers each show a 14x14 badge or card (their box without the cursor
    # frame's margin): no two may share a pixel, or one hides part of the other
    lay = Layout(w, h)
    isl = Game(island, 1, SeededDice(1)).island

    def badge(t):
        x, y, bw, bh = sheet.box(lay, isl, t)
        return x + 2, y + 2, bw - 4, bh - 4

    boxes = [(isl.name(t), badge(t)) for t in range(isl.n_roads, isl.n_items)]
    boxes += [("joker %d" % j, badge(sheet.JOKER + j)) for j in range(len(isl.jokers))]
    bad = []
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            a, b = boxes[i][1], boxes[j][1]
            if a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]:
                bad.append("%s %r and %s %r" % (boxes[i][0], a, boxes[j][0], b))
    assert not bad, "\n".join(bad)
