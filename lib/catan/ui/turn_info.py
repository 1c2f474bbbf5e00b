"""What the turn screen's panel says (a part of ``turn.Turn``): the info lines about the target
under the cursor, kept while the screen and the game stay as they are, and redrawn only where
they change; and the phrases other screens use too (``describe``, ``tenths``).
"""

from catan.game import BUILD, ROLL, popcount
from catan.maps import ANY, COSTS, FACE_NAMES, ROAD
from catan.ui import canvas as cv
from catan.ui import sheet
from catan.ui import widgets as wg
from catan.ui.turn_targets import (CONFIRM_X, DIE, END_B, KEEP_B, NORMAL, PICK_DIE, PICK_RES, RES,
                                   ROLL_B, TRADE_B, UNDO_B)

_KIND_TITLES = ("Road", "Settlement", "City", "Knight")


class InfoLines:
    def _dice_shown(self, t):
        # the dice the tray frames: those a build under the cursor (``t``) would spend (kept
        # for the last target asked, in this state)
        g = self.game
        if g.phase == BUILD and self.mode == NORMAL and 0 <= t < sheet.JOKER and t in self.targets:
            key = self._state() << 7 | t
            if self._shown_key != key:
                self._shown_key = key
                self._shown = g.cost(t)
            return self._shown
        return 0

    def _lines(self, t=None):
        # The info lines about target ``t`` (the cursor's) as drawn: wrapped to the panel, as
        # many as fit above the track. Worked out once per target and state of the screen
        # and the game (the log grows with every action), and kept for the targets around
        # the cursor: ``think`` makes those of the cursor and of where X and Y lead before
        # they are asked for (on the device a target's lines cost a key 5-10 ms).
        if t is None:
            t = self.cursor
        kept = self._kept_lines()
        out = kept.get(t)
        if out is not None:
            return out
        c = self.app.c
        out = []
        end = self.ky - 1  # above the score (a message covers the last lines while it shows)
        for line, colour in self._info(t):
            for part in wg.wrap(c, line, self.lay.pw - 6):
                if self._iy() + (len(out) + 1) * wg.LINE <= end:
                    out.append((part, colour))
        if not self.room and self._iy() + (len(out) + 2) * wg.LINE <= end:
            out.append(("", 0))
            out.append((self._keys(c), cv.ORE))
        if len(kept) >= 8:  # (a walk round the map: only the last few are kept)
            kept.clear()
        kept[t] = out
        return out

    def _state(self):
        # The state of the screen and the game that the info lines and the dice shown depend
        # on, as one number (a tuple would be a new object at each paint; on the device each
        # costs 0.1-0.4 ms): the log grows with every action.
        g = self.game
        level = 3 if self.level is None else self.level
        return ((((len(g.log) << 2 | g.phase) << 3 | self.joker + 1) << 6 | self.marks) << 2
                | self.mode) << 2 | level

    def _kept_lines(self):
        # the info lines made in this state of the screen and the game, by target
        state = self._state()
        if self._kept_state != state:
            self._kept_state = state
            self._kept = {}
        return self._kept

    def _buildable(self):
        # What the map shows as buildable now, once per game state (as _lines).
        g = self.game
        key = len(g.log) << 2 | g.phase
        if self._can_key != key:
            self._can_key = key
            self._can = g.buildable()
        return self._can

    def _info_changed(self, before):
        # Redraw only what differs between the info lines ``before`` and now: per line, from
        # the first changed character to the end of the longer text; the changed lines as
        # one rectangle (each rectangle is a paint of the screen: on the device its Python
        # costs more than the few pixels two lines' rectangles would not repaint).
        c = self.app.c
        after = self._lines()
        x = self.lay.px + 3
        left = right = top = bottom = -1
        for i in range(max(len(before), len(after))):
            a, ca = before[i] if i < len(before) else ("", 0)
            b, cb = after[i] if i < len(after) else ("", 0)
            if a == b and ca == cb:
                continue
            k = 0
            if ca == cb:
                while k < len(a) and k < len(b) and a[k] == b[k]:
                    k += 1
            x0 = x + (c.text_width(a[:k]) if k else 0)
            x1 = x + max(c.text_width(a), c.text_width(b))
            if x1 > x0:
                if top < 0:
                    left, right, top = x0, x1, i
                left = min(left, x0)
                right = max(right, x1)
                bottom = i
        if top >= 0:
            self.app.refresh(left, self._iy() + top * wg.LINE, right - left + 1,
                             (bottom - top + 1) * wg.LINE)

    def _info(self, t=None):
        # (text, colour) lines about target ``t`` (the cursor's)
        g = self.game
        isl = g.island
        if t is None:
            t = self.cursor
        if self.level is not None:
            return [("%s is playing (%s)." % (self.app.seat_name(g.player),
                                              self.app.level_name(g.player)), cv.LIGHT),
                    ("Any key: skip.", cv.ORE)]
        if self.mode == PICK_DIE:
            return [("Joker: %s. Choose the die it changes." % _joker_name(g, self.joker),
                     cv.WHITE)]
        if self.mode == PICK_RES:
            if self.joker >= 0:
                return [("Which resource should the joker give?", cv.WHITE)]
            return [("Trade 2 gold for one:", cv.WHITE)]
        if self.mode == CONFIRM_X:
            return [("Nothing built: end with an X (-2 points)?", cv.RED)]
        if t < 0:
            return []
        if t < DIE and t < sheet.JOKER:
            return self._item_info(t)
        if t >= sheet.JOKER and t < DIE:
            if t in self.targets:
                why = ("Turns one die into it, once a game.", cv.LIGHT)
            else:
                why = (_sentence(self._why_not(t)), cv.GOLD)
            return [("Joker: %s" % _joker_name(g, t - sheet.JOKER), cv.WHITE), why]
        if t < RES:
            i = t - DIE
            marked = self.marks >> i & 1
            return [("Die %d: %s" % (i + 1, FACE_NAMES[g.faces[i]]), cv.WHITE),
                    ("re-roll it" if marked else "keep it", cv.SKY if marked else cv.LIGHT),
                    ("A: %s" % ("keep" if marked else "mark to re-roll"), cv.ORE)]
        if t == ROLL_B:
            if g.phase == ROLL:  # what each computer did since this person's last turn
                app = self.app
                notes = [("%s %s" % (app.seat_name(q), app.turn_note(q)), wg.PLAYER_COLOUR[q])
                         for q in app.computers() if app.last_turns[q]]
                return notes or [("Roll all %d dice." % g.dice_count(), cv.WHITE)]
            return [("Roll the %s." % wg.count(popcount(self.marks), "marked die", "marked dice"),
                     cv.WHITE),
                    ("Mark dice with A first." if not self.marks else "", cv.ORE)]
        if t == KEEP_B:
            return [("Keep these dice and build.", cv.WHITE)]
        if t == TRADE_B:
            return [("Trade 2 gold dice for 1 resource.", cv.WHITE)]
        if t == UNDO_B:
            return [("Take back the last build, joker or trade.", cv.WHITE)]
        if t == END_B:
            if isl.number == 1 and not g.built:
                return [("End turn. Nothing built: X (-2).", cv.RED)]
            return [("End the turn.", cv.WHITE)]
        return []

    def _item_info(self, t):
        # (text, colour) lines about item ``t`` of the map: what it is and is worth, built or
        # what it costs and still needs
        g = self.game
        isl = g.island
        kind = isl.kind(t)
        value = isl.value(t)
        if isl.number == 1:
            worth = "%d point%s" % (value, "" if value == 1 else "s")
        else:
            worth = "%d VP" % value if value else "no VP"
        lines = [("%s %s: %s" % (_KIND_TITLES[kind], isl.name(t), worth), cv.WHITE)]
        if g.is_built(t):
            lines.append(("Built", cv.SKY))
        else:
            if t not in self.targets:
                why = g.why_sheet(t) or (g.phase != ROLL and g.why_build(t))
                if why:  # "R2 needs road R0 first": the title names it already
                    lines.append((_sentence(why[len(isl.name(t)) + 1:]), cv.GOLD))
            lines.append((_cost_line(kind, self.app.c, self.lay.pw - 6), cv.LIGHT))
        if isl.number == 2 and kind == ROAD:
            lines.append(("Longest road counts.", cv.ORE))
        return lines


_COST_LINES = {}  # (kind, width) -> its "Costs ..." line, made once (new strings are dear on
# the device)


def _cost_line(kind, c, w):
    # "Costs brick, lumber, wool, grain", or where that is wider than ``w`` pixels (a line
    # cut in two would not leave room for the rest), "Brick lumber wool grain"
    key = kind << 10 | w
    line = _COST_LINES.get(key)
    if line is None:
        cost = COSTS[kind]
        parts = []
        for r in range(5):
            if cost[r]:
                parts.append(("%d " % cost[r] if cost[r] > 1 else "") + FACE_NAMES[r])
        line = "Costs " + ", ".join(parts)
        if c.text_width(line) > w:
            line = _sentence(" ".join(parts))
        _COST_LINES[key] = line
    return line


def _sentence(s):
    return s[0].upper() + s[1:]


def _joker_name(g, j):
    gives, _ = g.island.jokers[j]
    what = "any resource" if gives == ANY else FACE_NAMES[gives]
    return "%s (%s)" % (what, g.joker_knights(j))


def tenths(v):
    # one decimal, without relying on float formatting quirks
    v = int(v * 10 + (0.5 if v >= 0 else -0.5))
    sign = "-" if v < 0 else ""
    v = abs(v)
    return "%s%d.%d" % (sign, v // 10, v % 10)


def describe(g, action):
    """A short phrase for an action: "re-rolls 3 dice", "builds S7", "uses the ore joker"."""
    op = action[0]
    isl = g.island
    if op == "roll":
        mask = action[1]
        if mask is None or g.phase == ROLL:
            return "rolls all dice"
        return "re-rolls " + wg.count(popcount(mask), "die", "dice")
    if op == "stop":
        return "keeps the dice"
    if op == "build":
        return "builds %s" % isl.name(action[1])
    if op == "joker":
        gives = isl.jokers[action[1]][0]
        res = action[3] if gives == ANY else gives
        return "turns die %d to %s" % (action[2] + 1, FACE_NAMES[res])
    if op == "trade":
        return "trades 2 gold for %s" % FACE_NAMES[action[1]]
    if op == "undo":
        return "takes back a build"
    return "ends the turn"
