"""How the turn screen is painted (a part of ``turn.Turn``): the map (``sheet``), the panel
(header, dice tray, status, buttons or picker, score, info lines, message, foot) and the
cursor. Each part is drawn only where it meets the canvas's clip: a partial redraw paints
just the rectangles that changed (``App.draw``).
"""

from catan.game import OVER, REROLL, ROLL, popcount
from catan.maps import GOLD, TURNS_ONE
from catan.ui import canvas as cv
from catan.ui import sheet
from catan.ui import widgets as wg
from catan.ui.turn_targets import (CONFIRM_X, DIE, END_B, KEEP_B, NORMAL, PICK_RES, RES, ROLL_B,
                                   TRADE_B, UNDO_B)

_LABELS = {ROLL_B: "Roll", KEEP_B: "Keep", TRADE_B: "Trade", UNDO_B: "Undo", END_B: "End"}


class Painting:
    def paint(self, c):
        # Each part is drawn only where it meets the clip (a partial redraw paints just the
        # rectangles that changed, and on the device the Python deciding costs the most).
        g = self.game
        lay = self.lay
        p = g.player
        if c.visible(lay.mx, lay.my, lay.mw, lay.mh):
            sheet.draw(c, lay, g, p, self.cursor if 0 <= self.cursor < DIE else None,
                       self._buildable())
        if c.visible(lay.px - 1, 0, lay.pw + 1, lay.ph):
            self._paint_panel(c)
        self._paint_frame(c)

    def paint_cursor(self, c):
        """The cursor alone, over the screen as painted without it (``App.move_cursor``): a
        road lit, or the frame around a site, a knight, a joker or a die."""
        t = self.cursor
        if 0 <= t < self.game.island.n_roads:
            lay = self.lay
            right = lay.mx + lay.mw  # (the panel is painted over anything of the map beyond)
            if c.clip_x1 > right:
                c.set_clip(c.clip_x0, c.clip_y0, right - c.clip_x0, c.clip_y1 - c.clip_y0)
            sheet.draw_lit_road(c, lay, self.game, t, self._buildable())
        else:
            self._paint_frame(c)

    def _paint_frame(self, c):
        # The cursor's frame around a site, a knight, a joker or a die, drawn last in a paint
        # (over whatever it touches). What it covers is kept when it lies wholly in the clip
        # (a paint of the whole screen, say), to be put back when the cursor leaves.
        t = self.cursor
        if not self._ringed(t):
            return
        if self._ring_of != t:
            self._ring_of = t
            self._ring = self.region(t)
        x, y, w, h = self._ring
        if x >= c.clip_x1 or y >= c.clip_y1 or x + w <= c.clip_x0 or y + h <= c.clip_y0:
            return
        if x >= c.clip_x0 and y >= c.clip_y0 and x + w <= c.clip_x1 and y + h <= c.clip_y1 \
                and not c.kept(x, y, w, h):
            c.keep(x, y, w, h)
        wg.frame(c, x + 2, y + 2, w - 4, h - 4)

    def _paint_panel(self, c):
        g = self.game
        lay = self.lay
        p = g.player
        x = lay.px
        w = lay.pw
        c.fill_rect(x - 1, 0, w + 1, lay.ph, cv.DEEP)
        if c.visible(x, 0, w, self.hh):
            self._paint_header(c)
        if c.visible(x, self.ty - 2, w, (self.ds + 1) * self.rows + 3):
            self._paint_tray(c)
        if c.visible(x, self.sy, w, wg.LINE):
            c.text(x + 3, self.sy, self._status(), cv.LIGHT)
        if c.visible(x, self.by - 3, w, 22):
            self._paint_buttons(c)
        if c.visible(x, self.ky, w, 26):
            wg.score(c, x + 3, self.ky, w - 5, g, p)
        y = self._iy()
        # a message ends just above the score; the info lines it would cover are not drawn
        # (_foot_top: what it changes)
        stop = self.ky - 4 - len(self._msg_lines) * wg.LINE if self.msg else lay.ph
        for line, colour in self._lines():
            if y + wg.LINE > stop:
                break
            if c.visible(x, y, w, wg.LINE):
                c.text(x + 3, y, line, colour)
            y += wg.LINE
        top = self._foot_top()
        if self.msg and c.visible(x, top, w, lay.ph - top):
            lines = self._msg_lines
            end = self.ky - 2
            top = end - len(lines) * wg.LINE
            c.fill_rect(x, top - 2, w, end - top + 2, cv.BLACK)
            for k in range(len(lines)):
                c.text(x + 3, top + k * wg.LINE, lines[k], self.msg_colour)
        if self.room and c.visible(x, self.fy, w, wg.LINE):
            c.text(x + 3, self.fy, self._keys(c), cv.ORE)

    def _keys(self, c):
        # the key help, whole keys only (the last dropped first)
        back = "menu" if self.mode == NORMAL else "cancel"
        keys = self.app.keys_help(back)
        while c.text_width(keys) > self.lay.pw - 6 and " " in keys:
            keys = keys[:keys.rindex(" ")]
        return keys

    def _paint_header(self, c):
        # Who plays, which turn, their score so far at the right; left of it, in a multi-seat
        # game, every other seat's total (Island One's points, Island Two's VP) in a chip of
        # its colour, in seat order. Where they leave too little room, the turn goes short;
        # a tall panel has a second row for them instead, each named (``hh``).
        g = self.game
        x = self.lay.px
        w = self.lay.pw
        p = g.player
        one = g.island.number == 1
        if one:
            turn = min(g.turns[p] + 1, TURNS_ONE)
            score = "%d" % g.score(p)
        else:
            turn = g.turns[p] + 1
            score = "VP %d" % g.vp(p)
        c.fill_rect(x, 0, w, wg.BAR, wg.PLAYER_COLOUR[p])
        pen = c.text(x + 3, 2, self.app.seat_name(p), cv.BLACK)
        right = x + w - 3 - c.text_width(score)
        c.text(right, 2, score, cv.BLACK)
        two = self.hh > wg.BAR
        key = len(g.log) << 2 | p  # the others' totals: texts and widths, made once per action
        if self._chips_key != key:
            self._chips_key = key
            chips = self._chips = []
            for q in range(g.players):
                v = "%d" % (g.score(q) if one else g.vp(q)) if q != p else ""
                if v and two:
                    v = "%s %s" % (self.app.seat_name(q), v)
                chips.append(v)
                chips.append(c.text_width(v))
        chips = self._chips
        if two:  # the second row: left to right
            left = x + 3
            for q in range(g.players):
                v = chips[2 * q]
                if not v:
                    continue
                cw = chips[2 * q + 1] + 4
                c.fill_rect(left, wg.BAR + 1, cw, wg.BAR - 2, wg.PLAYER_COLOUR[q])
                c.text(left + 2, wg.BAR + 2, v, cv.BLACK)
                left += cw + 3
        elif g.players > 1:
            right -= 3
            for q in range(g.players - 1, -1, -1):  # right to left
                v = chips[2 * q]
                if not v:
                    continue
                cw = chips[2 * q + 1] + 4
                right -= cw
                c.fill_rect(right - 1, 0, cw + 2, wg.BAR, cv.DEEP)
                c.fill_rect(right, 1, cw, wg.BAR - 2, wg.PLAYER_COLOUR[q])
                c.text(right + 2, 2, v, cv.BLACK)
                right -= 1
        head = "Turn %d/%d" % (turn, TURNS_ONE) if one else "Turn %d" % turn
        if pen + 5 + c.text_width(head) > right - 2:
            head = "%d/%d" % (turn, TURNS_ONE) if one else "T%d" % turn
        c.text(pen + 5, 2, head, cv.BLACK)

    def _paint_buttons(self, c):
        # the buttons of this moment, or the resource picker
        g = self.game
        if self.mode == PICK_RES:
            for r in range(GOLD):
                rx, ry = self._res_xy(r)
                ok = RES + r in self.targets
                c.fill_rect(rx + 2, ry + 2, 18, 18, cv.WHITE if ok else cv.DARK)
                c.sprite(rx + 3, ry + 3, wg.FACE_SPRITE[r], wg.FACE_COLOUR[r] if ok else cv.LIGHT)
                if RES + r == self.cursor:
                    wg.frame(c, rx + 2, ry + 2, 18, 18)
            return
        bs = self._buttons()
        n = len(bs)
        bw = self._button_w(n)
        by = self.by
        for k in range(n):
            b = bs[k]
            bx = self._button_x(k, bw)
            if not c.visible(bx, by, bw, 13):
                continue
            state = 2 if b == self.cursor else (1 if b in self.targets else 0)
            label = _LABELS[b]
            if b == ROLL_B and g.phase == REROLL:
                label = "Roll %d" % popcount(self.marks)
            elif b == END_B and self.mode == CONFIRM_X:
                label = "End: X"
            elif b == UNDO_B and self.mode == CONFIRM_X:
                label = "Back"
            wg.button(c, bx, by, bw, label, state)

    def _fit(self, c, s, w):
        while len(s) > 1 and c.text_width(s) > w:
            s = s[:-1]
        return s

    def _paint_tray(self, c):
        g = self.game
        n = g.dice_count()
        cost = self._dice_shown(self.cursor)
        for i in range(6):
            x = self._die_x(i)
            y = self._die_y(i)
            if not c.visible(x - 2, y - 2, self.ds + 4, self.ds + 4):
                continue
            if i >= n:
                style = wg.DIE_OFF
            elif g.phase == ROLL:
                style = wg.DIE_BLANK
            elif g.spent >> i & 1:
                style = wg.DIE_SPENT
            elif g.phase == REROLL and self.marks >> i & 1:
                style = wg.DIE_MARKED
            else:
                style = wg.DIE_FACE
            wg.die(c, x, y, g.faces[i], style, cost >> i & 1, self._dsheet, self._dfaces)

    def _status(self):
        g = self.game
        extra = ""
        if g.dice_count() < 6:
            extra = ", %d dice" % g.dice_count()
        if g.phase == ROLL:
            return "Roll the dice" + extra
        if g.phase == REROLL:
            return "Rolls left %d%s" % (g.rolls_left(), extra)
        if g.phase == OVER:
            return "Game over"
        if g.island.number == 1:
            return "Build: +%d this turn" % g.points
        return "Build: %d built" % g.built
