"""The turn screen: the current player's map, the dice tray, and every action of a turn.

X and Y move the cursor among the *targets*, what is legal now: while rolling, the dice (A
marks a die to re-roll or keeps it), Roll and Keep; while building, the items the dice pay
for, the usable jokers, the gold trade, Undo and End. Y past the last target (Keep, End) goes
on through every other road, site, knight and joker of the map, built or not, to show its
value, cost and what it still needs (A there refuses with the reason), then round to the
first target; X steps back. The joystick reaches every item of the map too. Choosing a
joker asks for the die it changes (and for a "?" joker the resource); a trade asks for the
resource. Ending an Island One turn with nothing built asks to confirm the X. A refused action
shows its reason in the panel's foot and changes nothing.

A computer seat plays here too, one action per step at the chosen animation speed, its
cursor on what it acts on; any key finishes its turn at once.

The screen is one class, ``Turn``, made of parts a module each, by job:

- ``turn_targets``: what is selectable now and where the cursor goes (keys, joystick);
- ``turn_geometry``: where the panel puts the tray, the buttons, the lines (from the layout);
- ``turn_info``: what the panel says about the target under the cursor;
- ``turn_paint``: the painting, each part only where it meets the clip;
- ``turn_hint``: the coach's hint and the work done ahead in idle time;
- here: the screen's state, choosing and acting (a person's keys, a computer's steps), time.
"""

from catan import const
from catan.game import REROLL, ROLL
from catan.maps import ANY
from catan.ui import canvas as cv
from catan.ui import sheet
from catan.ui import widgets as wg
from catan.ui.turn_geometry import Geometry
from catan.ui.turn_hint import HintAndThink
from catan.ui.turn_info import InfoLines, describe
from catan.ui.turn_paint import Painting
from catan.ui.turn_targets import (CONFIRM_X, DIE, END_B, KEEP_B, NORMAL, PICK_DIE, PICK_RES, RES,
                                   ROLL_B, TRADE_B, UNDO_B, Targets)

_MSG_MS = const(3000)  # how long a refusal or a note stays in the foot


class Turn(Painting, Geometry, InfoLines, Targets, HintAndThink):
    # The parts' order is the order methods are looked up in: painting's first, the most asked.
    # Every attribute of the screen is set here (and the panel's rows in ``place``): the parts
    # keep none of their own.
    def __init__(self, app):
        self.app = app
        self.game = g = app.game
        lay = app.lay
        self.lay = lay
        self.place(lay, g)  # the panel's rows (turn_geometry)
        self.msg = ""
        self.msg_colour = cv.LIGHT
        self.msg_until = 0
        self.level = app.level(g.player)
        self.next_ms = 0
        self.mode = NORMAL
        self.marks = 0
        self.joker = -1
        self.jdie = -1
        self.cursor = -1
        self.targets = []
        self._stops_of = None  # the targets ``_stops`` was made from
        self._stops = None
        self._kept_state = self._can_key = self._shown_key = self._chips_key = None
        self._chips = None
        self._kept = self._can = None
        self._shown = 0
        self._ring_of = -1  # the target whose cursor frame ``_ring`` is
        self._ring = None
        self._msg_lines = ()
        self._back = None  # where the last X or Y step came from (see ``handle``)
        self.retarget(True)
        self._map_shown = self._map_key()

    # ------------------------------------------------------------------ input

    def handle(self, role):
        if self.level is not None:
            self.app.finish_computer_turn()
            return
        back = self._back
        self._back = None
        if role in ("up", "down", "left", "right"):
            self.steer(role)
        elif role == "prev" or role == "next":
            self._back = self.cursor
            self.move(-1 if role == "prev" else 1)
        elif role == "ok":
            self.choose()
        elif role == "back":
            if self.mode != NORMAL:
                self.cancel()
            else:
                self.app.pause()
        elif role == "hint":
            # a held Y stepped the cursor before it became the coach: take the step back,
            # the coach is asked about what the person had chosen
            self.hint(back if self.app.stepped else None)
        elif role == "sheet":
            self.app.open("sheets", "Sheets", self)

    def cancel(self):
        """Leave a picker or the X confirmation: back to the turn as it was."""
        self.mode = NORMAL
        self.joker = -1
        self.app.refresh_all()
        self.retarget()

    def choose(self):
        g = self.game
        t = self.cursor
        if self.mode == PICK_DIE:
            self.jdie = t - DIE
            if g.island.jokers[self.joker][0] == ANY:
                self.mode = PICK_RES
                self.app.refresh_all()
                self.retarget(True)
            else:
                self.act(("joker", self.joker, self.jdie, None))
        elif self.mode == PICK_RES:
            r = t - RES
            if self.joker >= 0:
                self.act(("joker", self.joker, self.jdie, r))
            else:
                self.act(("trade", r))
        elif self.mode == CONFIRM_X:
            if t == END_B:
                self.act(("end",))
            else:
                self.cancel()
        elif DIE <= t < RES:
            before = self._lines()
            self.marks ^= 1 << (t - DIE)
            r = self.region(t)
            self.app.refresh(*r)
            self.app.refresh(*self._button_box(ROLL_B))
            self._info_changed(before)
        elif t == ROLL_B:
            self.act(("roll", None if g.phase == ROLL else self.marks))
        elif t == KEEP_B:
            self.act(("stop",))
        elif t == TRADE_B:
            self.joker = -1
            self.mode = PICK_RES
            self.app.refresh_all()
            self.retarget(True)
        elif t == UNDO_B:
            self.act(("undo",))
        elif t == END_B:
            if g.island.number == 1 and not g.built:
                self.mode = CONFIRM_X
                self.app.refresh_all()
                self.retarget(True)
            else:
                self.act(("end",))
        elif 0 <= t < DIE and t not in self.targets:
            self.say(self._why_not(t))
        elif t >= sheet.JOKER:
            self.joker = t - sheet.JOKER
            self.mode = PICK_DIE
            self.app.refresh_all()
            self.retarget(True)
        elif t >= 0:
            self.act(("build", t))

    def _why_not(self, t):
        # why A on a map item or joker that is not a target does nothing
        g = self.game
        if t < sheet.JOKER:
            return g.why_build(t) or "keep the dice first"
        j = t - sheet.JOKER
        if g.phase == ROLL or g.joker_used(j) or not g.joker_unlocked(j):
            return g.why_joker(j, 0)
        return "keep the dice first" if g.phase == REROLL else "no free die it would change"

    def act(self, action):
        """Carry out a human action through the app (which saves it); show a refusal."""
        why = self.app.perform(action)
        if why:
            self.say(why)
            return
        self.msg = ""  # a refusal or the coach's line was about the state before
        self.after(action)

    def after(self, action):
        """The screen's part after an action was carried out (by a person or a computer)."""
        if action[0] == "roll":
            self.marks = 0
        if action[0] != "end":
            old = self.cursor
            self.mode = NORMAL
            self.joker = -1
            self.retarget(action[0] in ("roll", "stop"))
            was = self._map_shown
            key = self._map_key()
            self._map_shown = key
            if key[1:] != was[1:]:  # built, or a joker used: the whole screen
                self.app.refresh_all()
                return
            # a roll: only the panel, the items the dice now can (or no longer can) build
            # and the cursor's places change
            lay = self.lay
            self.app.refresh(lay.px - 1, 0, lay.pw + 1, lay.ph)
            changed = [t for t in key[0] if t not in was[0]]
            changed += [t for t in was[0] if t not in key[0]]
            for t in changed + [old, self.cursor]:
                if 0 <= t < DIE:
                    self.app.refresh(*self.region(t))

    def _map_key(self):
        # what the map shows, but the cursor: what is built, what can be built now
        g = self.game
        p = g.player
        return (tuple(self._buildable()), g.roads[p], g.builds[p], g.jokers[p])

    # ------------------------------------------------------------------ messages

    def say(self, text, colour=cv.RED):
        """Show ``text`` in the foot for a few seconds."""
        self._refresh_foot()  # where the message shown until now lay
        self.msg = text
        self.msg_colour = colour
        self.msg_until = None  # counted from the next tick: the work that led here (a hint worked
        # out from nothing on the device) may have taken longer than the message stays
        w = self.lay.pw - 6
        c = self.app.c
        self._msg_lines = [self._fit(c, line, w) for line in wg.wrap(c, text, w)[:3]]
        self._refresh_foot()

    # ------------------------------------------------------------------ time

    def tick(self, now):
        if self.msg:
            if self.msg_until is None:
                self.msg_until = now + _MSG_MS
            elif now - self.msg_until >= 0:
                self._refresh_foot()  # (while the message still says how far it reaches)
                self.msg = ""
        if self.level is not None and now - self.next_ms >= 0:
            self.app.computer_step()
            self.next_ms = now + self.app.step_ms()

    def busy(self):
        return self.level is not None

    def show_step(self, action):
        """A computer's action is about to be carried out: point at it, say what it is."""
        g = self.game
        op = action[0]
        old = self.cursor
        before = self._lines()
        self.cursor = -1
        if op == "build":
            self.cursor = action[1]
        elif op == "joker":
            self.cursor = sheet.JOKER + action[1]
        elif op == "roll" and g.phase == REROLL:
            self.marks = action[1]
        self.say("%s %s" % (self.app.seat_name(g.player), describe(g, action)), cv.WHITE)
        if op == "roll":
            self.app.refresh_all()
        else:
            self._cursor_moved(old, before)
