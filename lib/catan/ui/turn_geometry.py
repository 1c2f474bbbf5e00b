"""Where the turn screen's panel puts things (a part of ``turn.Turn``): the header, the dice
tray, the status line, the buttons or the resource picker, the info lines, the message, the
score and the foot, from the top down. ``place`` works the rows out once per screen, from the
layout (``app.lay``) and the game; the methods give a die's, a resource's or a button's place
one number at a time (painting asks often: a tuple is a new object, dear on the device).
"""

from catan.game import REROLL, ROLL
from catan.ui import widgets as wg
from catan.ui.turn_targets import CONFIRM_X, END_B, KEEP_B, PICK_RES, ROLL_B, TRADE_B, UNDO_B


class Geometry:
    def place(self, lay, g):
        """Set the panel's rows for layout ``lay`` and game ``g``: ``hh`` (the header's
        height), ``rows`` and ``ds`` (the tray's rows and dice), ``ty``, ``sy``, ``by``, ``iy``,
        ``my``, ``ky``, ``fy`` (the tops of the tray, the status line, the buttons, the info
        lines, the message, the score and the foot) and ``room`` (whether the message has a
        place of its own)."""
        # panel geometry: the header is one bar, or on a tall panel in a multi-seat game two
        # (the other seats' totals in a row of their own, the turn said in full above)
        self.rows = (6 + lay.per_row - 1) // lay.per_row
        self.hh = 2 * wg.BAR if lay.big and g.players > 1 else wg.BAR
        self.ty = self.hh + 3
        # the tray's dice: ``lay.die`` pixels, a pixel apart; on a tall panel drawn with the
        # faces of sprites_big (widgets.die)
        self.ds = lay.die
        self._dsheet = None
        self._dfaces = wg.FACE_SPRITE
        if self.ds > 18:
            from catan.ui import sprites_big as big

            self._dsheet = big
            self._dfaces = (big.BRICK, big.LUMBER, big.WOOL, big.GRAIN, big.ORE, big.GOLD,
                            big.JOKER)
        self.sy = self.ty + (self.ds + 1) * self.rows + 1  # status line
        self.by = self.sy + wg.LINE + 2  # buttons / picker
        self.iy = self.by + 17  # info lines
        self.fy = lay.ph - wg.LINE - 1  # the foot: key help
        # the score: Island One's track (two rows of 12 pixels), Island Two's VP boxes and
        # awards (17 pixels), just above the foot, so the info lines get the room between
        high = 26 if g.island.number == 1 else 19
        self.ky = self.fy - high
        # A message (a refusal, the coach, a computer's move) takes up to three lines: just
        # above the score track, in a place of its own where the panel has room for it below
        # the info lines (240x240, 320x240: the few longest info texts reach into it, and a
        # message covers their last lines while it shows). Where it has not (240x135), the
        # score goes to the foot, the key help becomes the last info line when there is room
        # for it, and a message covers the info lines while it shows.
        self.my = self.ky - 3 * wg.LINE - 2
        self.room = self.my - 2 >= self.iy + 3 * wg.LINE
        if not self.room:
            self.fy = lay.ph
            self.ky = self.my = lay.ph - high + 2

    def _die_xy(self, i):
        return self._die_x(i), self._die_y(i)

    # (painting asks for one number at a time: a tuple is a new object, dear on the device)
    def _die_x(self, i):
        return self.lay.px + 3 + (i % self.lay.per_row) * (self.ds + 1)

    def _die_y(self, i):
        return self.ty + (i // self.lay.per_row) * (self.ds + 1)

    def _res_xy(self, r):
        return self.lay.px + 2 + 21 * r, self.by - 3

    def _buttons(self):
        g = self.game
        if self.mode == CONFIRM_X:
            return (END_B, UNDO_B)
        if g.phase == ROLL:
            return (ROLL_B,)
        if g.phase == REROLL:
            return (ROLL_B, KEEP_B)
        return (TRADE_B, UNDO_B, END_B)

    def _button_box(self, b):
        bs = self._buttons()
        if b not in bs:
            return None
        w = self._button_w(len(bs))
        return self._button_x(bs.index(b), w), self.by, w, 13

    def _button_w(self, n):  # the width of each of ``n`` buttons
        return (self.lay.pw - 4 - 3 * (n - 1)) // n

    def _button_x(self, k, w):  # the left of button ``k`` of width ``w``
        return self.lay.px + 2 + k * (w + 3)

    def _iy(self):
        # the first info line: below the resource picker's frame when it shows
        return self.iy + 4 if self.mode == PICK_RES else self.iy

    def _foot_top(self):
        # The top of the foot's part that a message changes: its place (``my``), or higher
        # where a message of several lines above the track reaches into the info lines
        # (as _paint_panel draws it: its box ends just above the track).
        top = self.my - 2
        if self.msg:
            box = self.ky - 4 - len(self._msg_lines) * wg.LINE  # the top of its box
            y = self._iy()  # and the info lines it hides (_paint_panel draws none of them)
            while y + wg.LINE <= box:
                y += wg.LINE
            top = min(top, box, y)
        return top

    def _refresh_foot(self):
        lay = self.lay
        top = self._foot_top()
        self.app.refresh(lay.px, top, lay.pw, lay.ph - top)
