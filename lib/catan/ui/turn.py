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

The screen is one class, ``Turn``, in sections by job, in this order:

- targets: what is selectable now and where the cursor goes (keys, joystick);
- geometry: where the panel puts the tray, the buttons, the lines (from the layout);
- info lines: what the panel says about the target under the cursor;
- painting: the painting, each part only where it meets the clip;
- the screen: its state (every attribute is set in ``__init__``, the panel's rows in
  ``place``), choosing and acting (a person's keys, a computer's steps), time, the coach's hint
  and the work done ahead in idle time.

One class of one module: on the device every module's globals and tables cost heap (as five
modules the parts cost 4.7 KB more), a class some 150 bytes, and a method found in a class's
own dict is found soonest (a cursor move asks for dozens). The constants below are inlined only
in the module that defines them.
"""

from catan import const
from catan.game import BUILD, OVER, REROLL, ROLL, popcount
from catan.maps import ANY, COSTS, FACE_NAMES, GOLD, ROAD, TURNS_ONE
from catan.ui import canvas as cv
from catan.ui import sheet
from catan.ui import widgets as wg

# targets besides items (0..) and jokers (sheet.JOKER + j)
DIE = const(100)  # DIE + i: die i
RES = const(110)  # RES + r: resource r in a picker
ROLL_B = const(120)
KEEP_B = const(121)
TRADE_B = const(122)
UNDO_B = const(123)
END_B = const(124)

# modes
_NORMAL = const(0)
_PICK_DIE = const(1)  # the die a joker changes
_PICK_RES = const(2)  # the resource of a trade or a "?" joker
_CONFIRM_X = const(3)  # end an Island One turn without a build?

_LABELS = {ROLL_B: "Roll", KEEP_B: "Keep", TRADE_B: "Trade", UNDO_B: "Undo", END_B: "End"}
_KIND_TITLES = const(("Road", "Settlement", "City", "Knight"))


class Turn:
    # ------------------------------------------------------------------ targets
    #
    # The turn screen's targets, and where the cursor goes.
    #
    # A *target* is a number: an item of the map (0.., as ``Island`` numbers them), a joker
    # (``sheet.JOKER + j``), a die (``DIE + i``), a resource of the picker (``RES + r``) or a button
    # (``ROLL_B`` .. ``END_B``). ``targets`` lists what is legal now, in the order X and Y step through;
    # ``stops`` adds the rest of the map; ``steer`` follows the joystick; ``region`` is where a target
    # lies on the screen (what to redraw when the cursor comes or goes).
    def retarget(self, home=False):
        """Recompute the legal targets after a change; keep the cursor where it can stay."""
        g = self.game
        if self.level is not None or g.phase == OVER:
            t = []
        elif self.mode == _PICK_DIE:
            t = [DIE + i for i in range(g.dice_count()) if self._joker_die_ok(i)]
        elif self.mode == _PICK_RES:
            t = [RES + r for r in range(GOLD) if self._res_ok(r)]
        elif self.mode == _CONFIRM_X:
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
            if g.phase == REROLL and self.mode == _NORMAL and not home and KEEP_B in t:
                self.cursor = KEEP_B
            elif self.mode == _CONFIRM_X:
                self.cursor = UNDO_B  # "Back": A twice never writes an X
            elif g.phase == BUILD and self.mode == _NORMAL and not home and len(t) > 1:
                # after a build, a joker or a trade: never on Undo, whose A would take it back
                self.cursor = t[0] if t[0] != UNDO_B else t[1]
            else:
                self.cursor = t[0] if t else -1

    def stops(self):
        """Where Y takes the cursor: the targets, then, while a person plays freely, the rest
        of the map."""
        g = self.game
        t = self.targets
        if self.level is not None or self.mode != _NORMAL or g.phase == OVER:
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
        if i + step < 0 and self.game.phase == REROLL and self.mode == _NORMAL:
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

    # ------------------------------------------------------------------ geometry
    #
    # Where the turn screen's panel puts things: the header, the dice tray, the status line, the buttons
    # or the resource picker, the info lines, the message, the score and the foot, from the top down.
    # ``place`` works the rows out once per screen, from the layout (``app.lay``) and the game; the
    # methods give a die's, a resource's or a button's place one number at a time (painting asks often:
    # a tuple is a new object, dear on the device).
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
        # the status line, a pixel clear of the cursor's frame round a die of the last row
        self.sy = self.ty + (self.ds + 1) * self.rows + 2
        self.by = self.sy + wg.LINE + 2  # buttons / picker
        self.iy = self.by + 17  # info lines
        self.fy = lay.ph - wg.LINE - 1  # the foot: key help
        # the score: Island One's track (two rows of 12 pixels), Island Two's VP boxes and
        # awards (17 pixels), just above the foot, so the info lines get the room between
        high = wg.score_height(g, lay.pw - 5, lay.big) if lay.mh == lay.ph else 0  # (or
        # under the map: sheet.draw)
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
        if self.mode == _CONFIRM_X:
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
        return self.iy + 4 if self.mode == _PICK_RES else self.iy

    def _foot_top(self):
        # The top of the foot's part that a message changes: its place (``my``), or higher
        # where a message of several lines above the track reaches into the info lines
        # (as _paint_panel draws it: its box ends just above the track).
        top = self.my - 2
        if self.msg:
            box = self._msg_end() - 2 - len(self._msg_lines) * wg.LINE  # the top of its box
            y = self._iy()  # and the info lines it hides (_paint_panel draws none of them)
            while y + wg.LINE <= box:
                y += wg.LINE
            top = min(top, box, y)
        return top

    def _msg_end(self):
        # Where a message's box ends: just above the track, or, where it would hide some of
        # the info lines there (the question the panel asks: "Choose the die it changes."),
        # at the panel's foot, over the track and the key help, which come back with the next key.
        end = self.ky - 2
        lines = self._lines()
        n = len(lines)
        if not self.room and n >= 2 and lines[n - 2] == ("", 0):  # the key help: may go
            n -= 2
        if end - 2 - len(self._msg_lines) * wg.LINE < self._iy() + n * wg.LINE:
            end = self.lay.ph
        return end

    def _refresh_foot(self):
        lay = self.lay
        top = self._foot_top()
        self.app.refresh(lay.px, top, lay.pw, lay.ph - top)

    # ------------------------------------------------------------------ info lines
    #
    # What the turn screen's panel says: the info lines about the target under the cursor, kept while
    # the screen and the game stay as they are, and redrawn only where they change.
    def _dice_shown(self, t):
        # the dice the tray frames: those a build under the cursor (``t``) would spend (kept
        # for the last target asked, in this state)
        g = self.game
        if g.phase == BUILD and self.mode == _NORMAL and 0 <= t < sheet.JOKER and t in self.targets:
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
            x0 = x + (c.text_width(a, None, k) if k else 0)
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
        if self.mode == _PICK_DIE:
            return [("Joker: %s. Choose the die it changes." % _joker_name(g, self.joker),
                     cv.WHITE)]
        if self.mode == _PICK_RES:
            if self.joker >= 0:
                return [("Which resource should the joker give?", cv.WHITE)]
            return [("Trade 2 gold for one:", cv.WHITE)]
        if self.mode == _CONFIRM_X:
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

    # ------------------------------------------------------------------ painting
    #
    # How the turn screen is painted: the map (``sheet``), the panel (header, dice tray, status, buttons
    # or picker, score, info lines, message, foot) and the cursor. Each part is drawn only where it
    # meets the canvas's clip: a partial redraw paints just the rectangles that changed (``App.draw``).
    def paint(self, c):
        # Each part is drawn only where it meets the clip (a partial redraw paints just the
        # rectangles that changed, and on the device the Python deciding costs the most).
        g = self.game
        lay = self.lay
        p = g.player
        if c.visible(lay.mx, 0, lay.mw, lay.ph):  # (the map, and the score under it on 240x240)
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
        # (not under a message's box at the panel's foot: it comes back with the next key)
        if self.ky < self.fy and c.visible(x, self.ky, w, self.fy - self.ky) and not (
                self.msg and self._msg_end() == lay.ph):
            wg.score(c, x + 3, self.ky, w - 5, g, p, lay.big)
        y = self._iy()
        # a message ends just above the score; the info lines it would cover are not drawn
        # (_foot_top: what it changes)
        stop = self._msg_end() - 2 - len(self._msg_lines) * wg.LINE if self.msg else lay.ph
        for line, colour in self._lines():
            if y + wg.LINE > stop:
                break
            if c.visible(x, y, w, wg.LINE):
                c.text(x + 3, y, line, colour)
            y += wg.LINE
        top = self._foot_top()
        if self.msg and c.visible(x, top, w, lay.ph - top):
            lines = self._msg_lines
            end = self._msg_end()
            top = end - len(lines) * wg.LINE
            c.fill_rect(x, top - 2, w, end - top + 2, cv.BLACK)
            for k in range(len(lines)):
                c.text(x + 3, top + k * wg.LINE, lines[k], self.msg_colour)
        if self.room and c.visible(x, self.fy, w, wg.LINE):
            c.text(x + 3, self.fy, self._keys(c), cv.ORE)

    def _keys(self, c):
        # the key help, whole keys only (the last dropped first)
        back = "menu" if self.mode == _NORMAL else "cancel"
        keys = self.app.keys_help(back)
        while c.text_width(keys) > self.lay.pw - 6 and " " in keys:
            keys = keys[:keys.rindex(" ")]
        return keys

    def _paint_header(self, c):
        # Who plays, which turn, their score so far at the right; left of it, in a multi-seat
        # game, every other seat's total (Island One's points, Island Two's VP) in a chip of
        # its colour after the seat's number, in seat order. Where they leave too little room,
        # the turn goes short, or with four seats on Island One (two-digit totals) goes: the
        # track's boxes show it; a tall panel has a second row for them instead, each named
        # (``hh``).
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
                # named in full on a tall panel; else by the seat's number, a line between
                # it and the total (a chip is told by more than its colour)
                n = "%d" % (q + 1)
                if v and two:
                    v = "%s %s" % (self.app.seat_name(q), v)
                    n = ""
                chips.append(v)
                chips.append(n)
                chips.append(c.text_width(v) + (c.text_width(n) + 3 if n else 0))
        chips = self._chips
        if two:  # the second row: left to right
            left = x + 3
            for q in range(g.players):
                v = chips[3 * q]
                if not v:
                    continue
                cw = chips[3 * q + 2] + 4
                c.fill_rect(left, wg.BAR + 1, cw, wg.BAR - 2, wg.PLAYER_COLOUR[q])
                c.text(left + 2, wg.BAR + 2, v, cv.BLACK)
                left += cw + 3
        elif g.players > 1:
            right -= 3
            for q in range(g.players - 1, -1, -1):  # right to left
                v = chips[3 * q]
                if not v:
                    continue
                cw = chips[3 * q + 2] + 4
                right -= cw
                c.fill_rect(right - 1, 0, cw + 2, wg.BAR, cv.DEEP)
                c.fill_rect(right, 1, cw, wg.BAR - 2, wg.PLAYER_COLOUR[q])
                line = c.text(right + 2, 2, chips[3 * q + 1], cv.BLACK)
                c.vline(line, 2, wg.BAR - 4, cv.BLACK)
                c.text(line + 2, 2, v, cv.BLACK)
                right -= 1
        head = "Turn %d/%d" % (turn, TURNS_ONE) if one else "Turn %d" % turn
        if pen + 4 + c.text_width(head) > right - 2:
            head = "%d/%d" % (turn, TURNS_ONE) if one else "T%d" % turn
        if pen + 4 + c.text_width(head) <= right - 2:  # (else Island One's track shows it)
            c.text(pen + 4, 2, head, cv.BLACK)

    def _paint_buttons(self, c):
        # the buttons of this moment, or the resource picker
        g = self.game
        if self.mode == _PICK_RES:
            for r in range(GOLD):
                rx, ry = self._res_xy(r)
                ok = RES + r in self.targets
                c.fill_rect(rx + 2, ry + 2, 18, 18, cv.WHITE if ok else cv.DARK)
                wg.picture(c, rx + 3, ry + 3, wg.FACE_SPRITE[r],
                           wg.FACE_COLOUR[r] if ok else cv.LIGHT)
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
            elif b == END_B and self.mode == _CONFIRM_X:
                label = "End: X"
            elif b == UNDO_B and self.mode == _CONFIRM_X:
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

    # ------------------------------------------------------------------ the screen

    def __init__(self, app):
        self.app = app
        self.game = g = app.game
        lay = app.lay
        self.lay = lay
        self.place(lay, g)  # the panel's rows (geometry)
        self.msg = ""
        self.msg_colour = cv.LIGHT
        self.level = app.level(g.player)
        self.next_ms = 0
        self.mode = _NORMAL
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
        if self.msg:  # a message stays until the next key
            self._refresh_foot()  # (while the message still says how far it reaches)
            self.msg = ""
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
            if self.mode != _NORMAL:
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
        self.mode = _NORMAL
        self.joker = -1
        self.app.refresh_all()
        self.retarget()

    def choose(self):
        g = self.game
        t = self.cursor
        if self.mode == _PICK_DIE:
            self.jdie = t - DIE
            if g.island.jokers[self.joker][0] == ANY:
                self.mode = _PICK_RES
                self.app.refresh_all()
                self.retarget(True)
            else:
                self.act(("joker", self.joker, self.jdie, None))
        elif self.mode == _PICK_RES:
            r = t - RES
            if self.joker >= 0:
                self.act(("joker", self.joker, self.jdie, r))
            else:
                self.act(("trade", r))
        elif self.mode == _CONFIRM_X:
            if t == END_B:
                self.act(("end",))
            else:
                self.cancel()
        elif DIE <= t < RES:
            before = self._lines()
            was = self.marks
            self.marks ^= 1 << (t - DIE)
            self._marked(was)
            self._info_changed(before)
        elif t == ROLL_B:
            self.act(("roll", None if g.phase == ROLL else self.marks))
        elif t == KEEP_B:
            self.act(("stop",))
        elif t == TRADE_B:
            self.joker = -1
            self.mode = _PICK_RES
            self.app.refresh_all()
            self.retarget(True)
        elif t == UNDO_B:
            self.act(("undo",))
        elif t == END_B:
            if g.island.number == 1 and not g.built:
                self.mode = _CONFIRM_X
                self.app.refresh_all()
                self.retarget(True)
            else:
                self.act(("end",))
        elif 0 <= t < DIE and t not in self.targets:
            self.say(self._why_not(t))
        elif t >= sheet.JOKER:
            self.joker = t - sheet.JOKER
            self.mode = _PICK_DIE
            self.app.refresh_all()
            self.retarget(True)
        elif t >= 0:
            self.act(("build", t))

    def _marked(self, was):
        # the dice whose marks differ from ``was``, and Roll (which counts them), repainted
        changed = was ^ self.marks
        for i in range(6):
            if changed >> i & 1:
                self.app.refresh(*self.region(DIE + i))
        if changed:
            self.app.refresh(*self._button_box(ROLL_B))

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
        # a refusal or the coach's line was about the state before; what the action brings (a
        # save that failed: ``App.perform``) is said after it
        self.msg = ""
        why = self.app.perform(action)
        if why:
            self.say(why)
            return
        self.after(action)

    def after(self, action):
        """The screen's part after an action was carried out (by a person or a computer)."""
        if action[0] == "roll":
            self.marks = 0
        if action[0] != "end":
            old = self.cursor
            self.mode = _NORMAL
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
        """Show ``text`` in the foot until the next key (a slow reader reads it whole)."""
        self._refresh_foot()  # where the message shown until now lay
        self.msg = text
        self.msg_colour = colour
        w = self.lay.pw - 6
        c = self.app.c
        self._msg_lines = [self._fit(c, line, w) for line in wg.wrap(c, text, w)[:3]]
        self._refresh_foot()

    # ------------------------------------------------------------------ time

    def tick(self, now):
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

    # ------------------------------------------------------------------ the coach, work ahead

    def hint(self, back=None):
        """Ask the coach: point at its choice and show its expected value (and the value of
        what A would do now: "yours"). ``back``: the cursor's place before the step that the
        press asking for the hint made first (a held Y), where it is put back."""
        g = self.game
        if g.phase == OVER or self.level is not None:
            return
        old = self.cursor
        marks = self.marks
        before = self._lines()
        if back is not None and (back in self.targets or back in self.stops()):
            self.cursor = back
        advice = self.app.advice(self._yours())
        if isinstance(advice, str):  # no room for the coach (App.no_room)
            self._hinted(old, before, marks)
            self.say(advice)
            return
        action, best, unit, mine = advice
        op = action[0]
        if self.mode == _CONFIRM_X and op != "end":
            self.cancel()  # the coach would not end here: back in the turn
        if self.mode == _CONFIRM_X:
            # "Nothing built: end with an X?" and the coach ends: its "End: X" (cancelling
            # would only lead back to this question)
            goal = END_B
        elif self.mode != _NORMAL:
            # picking a joker's die or a resource: the pick stays; the cursor goes to the
            # coach's die or resource when its advice is this very joker or trade
            goal = None
            if op == "joker" and action[1] == self.joker:
                goal = DIE + action[2] if self.mode == _PICK_DIE else RES + action[3]
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
        self._hinted(old, before, marks)
        text = "Coach: " + describe(g, action)
        if best is not None:
            text += ", %s %s" % (tenths(best), unit)
            if mine is not None and abs(mine - best) >= 0.05:
                text += "; yours %s" % tenths(mine)
        self.say(text, cv.SKY)

    def _hinted(self, old, before, marks):
        # What a hint changed, repainted, not the whole screen: the dice it marked (``marks``
        # were the marks before), the cursor's places from ``old``, the info lines (``before``)
        # and the dice they frame. (Leaving a picker for the turn, ``cancel`` repaints it all.)
        self._marked(marks)
        if self.cursor != old:
            self._cursor_moved(old, before)
        else:
            self._info_changed(before)

    def _yours(self):
        # What A would do where the cursor is, as an action the coach values (None: nothing
        # it values: a die's mark on its own, a picker, a joker, a trade, Undo, the map)
        g = self.game
        t = self.cursor
        if self.mode == _CONFIRM_X:
            return ("end",) if t == END_B else None  # "End: X" (or "Back")
        if self.mode != _NORMAL:
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

    def think(self, until, coach=True):
        """Idle time: work out ahead what the computer (or, for a person, with ``coach``, the
        coach, which also reviews each choice on Island One) needs for its next decision."""
        g = self.game
        if self.level is None:
            kept = self._kept_lines()
            for t in (self.cursor, self._step(1), self._step(-1)):  # the next key's lines
                if t is not None and t not in kept:
                    if until():
                        return False
                    self._lines(t)
            if not coach:  # the coach works when asked, not ahead (the memory plan's choice)
                return True
        players = self.app.players()
        if self.level is None:
            return players.think(g, players.HARD, until, g.player, True)
        q = (g.player + 1) % g.players  # the next seat: its tables once this plan is known
        level = self.app.level(q)
        then = (players.HARD, q, True) if level is None else (level, q, False)
        return players.think(g, self.level, until, g.player, then=then)


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
