"""The coach on the turn screen, and the work done ahead (a part of ``turn.Turn``): ``hint``
asks the coach and points at its choice; ``think`` uses idle time to work out what the next key
or the next decision needs (the info lines around the cursor, the players' tables).
"""

from catan.game import BUILD, OVER, REROLL
from catan.ui import canvas as cv
from catan.ui import sheet
from catan.ui.turn_info import describe, tenths
from catan.ui.turn_targets import (CONFIRM_X, DIE, END_B, KEEP_B, NORMAL, PICK_DIE, RES, ROLL_B,
                                   TRADE_B)


class HintAndThink:
    def hint(self, back=None):
        """Ask the coach: point at its choice and show its expected value (and the value of
        what A would do now: "yours"). ``back``: the cursor's place before the step that the
        press asking for the hint made first (a held Y), where it is put back."""
        g = self.game
        if g.phase == OVER or self.level is not None:
            return
        if back is not None and (back in self.targets or back in self.stops()):
            self.cursor = back  # (the whole screen is painted below)
        advice = self.app.advice(self._yours())
        if isinstance(advice, str):  # no room for the coach (App.no_room)
            self.say(advice)
            return
        action, best, unit, mine = advice
        op = action[0]
        if self.mode == CONFIRM_X and op != "end":
            self.cancel()  # the coach would not end here: back in the turn
        if self.mode == CONFIRM_X:
            # "Nothing built: end with an X?" and the coach ends: its "End: X" (cancelling
            # would only lead back to this question)
            goal = END_B
        elif self.mode != NORMAL:
            # picking a joker's die or a resource: the pick stays; the cursor goes to the
            # coach's die or resource when its advice is this very joker or trade
            goal = None
            if op == "joker" and action[1] == self.joker:
                goal = DIE + action[2] if self.mode == PICK_DIE else RES + action[3]
            elif op == "trade" and self.joker < 0:
                goal = RES + action[1]
        else:
            if op == "roll" and g.phase == REROLL:
                self.marks = action[1]
            self.retarget()
            goal = {"roll": ROLL_B, "stop": KEEP_B, "trade": TRADE_B, "end": END_B}.get(op)
            if op == "build":
                goal = action[1]
            elif op == "joker":
                goal = sheet.JOKER + action[1]
        if goal in self.targets:
            self.cursor = goal
        self.app.refresh_all()
        text = "Coach: " + describe(g, action)
        if best is not None:
            text += ", %s %s" % (tenths(best), unit)
            if mine is not None and abs(mine - best) >= 0.05:
                text += "; yours %s" % tenths(mine)
        self.say(text, cv.SKY)

    def _yours(self):
        # What A would do where the cursor is, as an action the coach values (None: nothing
        # it values: a die's mark on its own, a picker, a joker, a trade, Undo, the map)
        g = self.game
        t = self.cursor
        if self.mode == CONFIRM_X:
            return ("end",) if t == END_B else None  # "End: X" (or "Back")
        if self.mode != NORMAL:
            return None
        if g.phase == REROLL:
            if t == KEEP_B:
                return ("stop",)
            if t == ROLL_B and not self.marks:
                return None  # refused: no die is marked
            return ("roll", self.marks) if self.marks else ("stop",)  # (a die: as marked now)
        if g.phase == BUILD:
            if t == END_B:
                return ("end",)
            if 0 <= t < sheet.JOKER and t in self.targets:
                return ("build", t)
        return None

    def think(self, until):
        """Idle time: work out ahead what the computer (or, for a person, the coach, which
        also reviews each choice on Island One) needs for its next decision."""
        g = self.game
        if self.level is None:
            kept = self._kept_lines()
            for t in (self.cursor, self._step(1), self._step(-1)):  # the next key's lines
                if t is not None and t not in kept:
                    if until():
                        return False
                    self._lines(t)
            if self.app.small_heap:  # the coach works when asked, not ahead (App.small_heap)
                return True
        players = self.app.players()
        if self.level is None:
            return players.think(g, players.HARD, until, g.player, True)
        q = (g.player + 1) % g.players  # the next seat: its tables once this plan is known
        level = self.app.level(q)
        then = (players.HARD, q, True) if level is None else (level, q, False)
        return players.think(g, self.level, until, g.player, then=then)
