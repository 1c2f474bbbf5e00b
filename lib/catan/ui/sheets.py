"""Every player's sheet, read-only: one seat at a time, its map as ``sheet.draw`` paints it
(what it built, its jokers used), its score as its turn screen shows it, and its last turn:
the dice it ended with (after its jokers and trades) and what it built.

Opened from the turn screen (a long X), the pause menu, the hand-over and the end of a game
(X/Y); prev/next (X/Y, the joystick) go round the seats, and ok, back or a long X return to
the screen it was opened from. Nothing here changes the game.
"""

from catan.ui import canvas as cv
from catan.ui import sheet
from catan.ui import widgets as wg
from catan.ui.common import MOVES


class Sheets:
    """The sheets from ``seat``'s (by default the next seat's after the one playing), then
    ``owner`` again."""


    def __init__(self, app, owner, seat=None):
        self.app = app
        self.owner = owner
        g = app.game
        self.seat = (g.player + 1) % g.players if seat is None else seat

    def handle(self, key):
        if key in MOVES:
            step = -1 if key in ("prev", "up", "left") else 1
            self.seat = (self.seat + step) % self.app.game.players
            self.app.refresh_all()
        elif key in ("ok", "back", "menu", "sheet"):
            self.app.show(self.owner)

    def paint(self, c):
        app = self.app
        g = app.game
        lay = app.lay
        p = self.seat
        one = g.island.number == 1
        sheet.draw(c, lay, g, p, None, ())  # nothing shown as buildable: only a look
        x = lay.px
        w = lay.pw
        c.fill_rect(x - 1, 0, w + 1, lay.ph, cv.DEEP)
        c.fill_rect(x, 0, w, wg.BAR, wg.PLAYER_COLOUR[p])
        pen = c.text(x + 3, 2, app.seat_name(p), cv.BLACK)
        c.text(pen + 5, 2, app.level_name(p), cv.BLACK)
        score = "%d" % g.score(p) if one else "VP %d" % g.vp(p)
        c.text(x + w - 3 - c.text_width(score), 2, score, cv.BLACK)
        y = wg.BAR + 3
        if lay.mh == lay.ph:  # (or under the map: sheet.draw)
            wg.score(c, x + 3, y, w - 5, g, p, lay.big)
            y += wg.score_height(g, w - 5, lay.big) + 1
        if not one:
            c.text(x + 3, y, "road %d  knights %d" % (g.road_length(p), g.knights(p)), cv.SAND)
            y += wg.LINE + 3
        note = app.turn_note(p)
        if note:
            c.text(x + 3, y, "Last turn", cv.SAND)
            y += wg.LINE + 1
            rec = app.last_turns[p]
            per = lay.per_row
            for i in range(rec[0]):
                wg.die(c, x + 3 + i % per * 19, y + i // per * 19, rec[1 + i], wg.DIE_FACE)
            y += (rec[0] + per - 1) // per * 19 + 2
            wg.paragraph(c, x + 3, y, w - 6, note, cv.WHITE)
        c.text(x + 3, lay.ph - wg.LINE - 1, "%s: player  %s: back" % (
            app.moves_name(), app.key_name("ok")), cv.ORE)
