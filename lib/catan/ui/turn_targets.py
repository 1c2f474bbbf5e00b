"""The turn screen's targets, and where the cursor goes (a part of ``turn.Turn``).

A *target* is a number: an item of the map (0.., as ``Island`` numbers them), a joker
(``sheet.JOKER + j``), a die (``DIE + i``), a resource of the picker (``RES + r``) or a button
(``ROLL_B`` .. ``END_B``). ``targets`` lists what is legal now, in the order X and Y step
through; ``stops`` adds the rest of the map; ``steer`` follows the joystick; ``region`` is where
a target lies on the screen (what to redraw when the cursor comes or goes).

The class holds no state of its own: it works on the ``Turn`` it is a part of (``game``,
``mode``, ``joker``, ``cursor``, ``targets``, ``level``; the geometry of ``turn_geometry``).
"""

from catan import const
from catan.game import BUILD, OVER, REROLL, ROLL
from catan.maps import ANY, GOLD
from catan.ui import sheet

# targets besides items (0..) and jokers (sheet.JOKER + j)
DIE = const(100)  # DIE + i: die i
RES = const(110)  # RES + r: resource r in a picker
ROLL_B = const(120)
KEEP_B = const(121)
TRADE_B = const(122)
UNDO_B = const(123)
END_B = const(124)

# modes of the turn screen
NORMAL = const(0)
PICK_DIE = const(1)  # the die a joker changes
PICK_RES = const(2)  # the resource of a trade or a "?" joker
CONFIRM_X = const(3)  # end an Island One turn without a build?


class Targets:
    def retarget(self, home=False):
        """Recompute the legal targets after a change; keep the cursor where it can stay."""
        g = self.game
        if self.level is not None or g.phase == OVER:
            t = []
        elif self.mode == PICK_DIE:
            t = [DIE + i for i in range(g.dice_count()) if self._joker_die_ok(i)]
        elif self.mode == PICK_RES:
            t = [RES + r for r in range(GOLD) if self._res_ok(r)]
        elif self.mode == CONFIRM_X:
            t = [END_B, UNDO_B]  # UNDO_B reads "Back" here: it cancels
        elif g.phase == ROLL:
            t = [ROLL_B]
        elif g.phase == REROLL:
            t = [DIE + i for i in range(g.dice_count())] + [ROLL_B, KEEP_B]
        else:
            t = g.buildable()
            t += [sheet.JOKER + j for j in g.usable_jokers()]
            if g.can_trade():
                t.append(TRADE_B)
            if g.why_undo() is None:
                t.append(UNDO_B)
            t.append(END_B)
        self.targets = t
        if self.level is not None:
            return  # a computer's cursor points at what it did last
        if home or self.cursor not in t:
            if g.phase == REROLL and self.mode == NORMAL and not home and KEEP_B in t:
                self.cursor = KEEP_B
            elif self.mode == CONFIRM_X:
                self.cursor = UNDO_B  # "Back": A twice never writes an X
            elif g.phase == BUILD and self.mode == NORMAL and not home and len(t) > 1:
                # after a build, a joker or a trade: never on Undo, whose A would take it back
                self.cursor = t[0] if t[0] != UNDO_B else t[1]
            else:
                self.cursor = t[0] if t else -1

    def stops(self):
        """Where Y takes the cursor: the targets, then, while a person plays freely, the rest
        of the map."""
        g = self.game
        t = self.targets
        if self.level is not None or self.mode != NORMAL or g.phase == OVER:
            return t
        if self._stops_of is not t:  # once per list of targets (``retarget`` makes a new one)
            isl = g.island
            self._stops_of = t
            self._stops = t + [i for i in range(isl.n_items) if i not in t] + [
                sheet.JOKER + j for j in range(len(isl.jokers)) if sheet.JOKER + j not in t]
        return self._stops

    def _joker_die_ok(self, i):
        g = self.game
        if g.island.jokers[self.joker][0] != ANY:
            return g.why_joker(self.joker, i) is None
        return any(g.why_joker(self.joker, i, r) is None for r in range(GOLD))

    def _res_ok(self, r):
        g = self.game
        if self.joker >= 0:
            return g.why_joker(self.joker, self.jdie, r) is None
        return g.why_trade(r) is None

    def _ringed(self, target):
        # True if the cursor on ``target`` is a frame around it (a site, a knight, a joker, a
        # die), drawn last in a paint, not a change of how it is drawn (a road, a button)
        return self.game.island.n_roads <= target < RES

    def region(self, target):
        """The rectangle to redraw when ``target`` gains or loses the cursor."""
        lay = self.lay
        if target < 0:
            return None
        if target < DIE:
            return sheet.box(lay, self.game.island, target)
        if target < RES:
            x, y = self._die_xy(target - DIE)
            return x - 2, y - 2, self.ds + 4, self.ds + 4
        if target < ROLL_B:
            return self._res_xy(target - RES) + (22, 22)
        return self._button_box(target)

    def move(self, step):
        goal = self._step(step)
        if goal is None:
            return
        old = self.cursor
        before = self._lines()
        self.cursor = goal
        self._cursor_moved(old, before)

    def _step(self, step):
        # Where ``move(step)`` takes the cursor (None: nowhere). Among the targets, as if the
        # map had nothing else (X from the first round to the last); Y from the last target,
        # and both keys on the rest of the map, through every stop.
        old = self.cursor
        t = self.targets
        if old not in t or step > 0 and old == t[-1]:
            t = self.stops()
        if len(t) < 2:
            return None
        i = t.index(old) if old in t else 0
        if i + step < 0 and self.game.phase == REROLL and self.mode == NORMAL:
            return None  # no wrapping from die 1 round to Keep: one stray press must not end rolling
        return t[(i + step) % len(t)]

    def steer(self, role):
        """Joystick: go to the nearest target in that direction (the list order if none)."""
        here = self.region(self.cursor)
        if here is None:
            self.move(1 if role in ("down", "right") else -1)
            return
        hx = here[0] + here[2] // 2
        hy = here[1] + here[3] // 2
        best = None
        score = 0
        for t in self.stops():
            r = self.region(t)
            if t == self.cursor or r is None:
                continue
            dx = r[0] + r[2] // 2 - hx
            dy = r[1] + r[3] // 2 - hy
            ahead, side = {"right": (dx, dy), "left": (-dx, dy), "down": (dy, dx),
                           "up": (-dy, dx)}[role]
            if ahead <= 0:
                continue
            s = ahead + 2 * (side if side > 0 else -side)
            if best is None or s < score:
                best = t
                score = s
        if best is None:
            self.move(1 if role in ("down", "right") else -1)
            return
        old = self.cursor
        before = self._lines()
        self.cursor = best
        self._cursor_moved(old, before)

    def _cursor_moved(self, old, before):
        app = self.app
        new = self.cursor
        app.move_cursor(self.region(old), self.region(new), 0 <= new < RES)
        self._info_changed(before)
        a = self._dice_shown(old)
        b = self._dice_shown(self.cursor)
        for i in range(6):
            if (a ^ b) >> i & 1:
                x, y = self._die_xy(i)
                app.refresh(x, y, self.ds, self.ds)
