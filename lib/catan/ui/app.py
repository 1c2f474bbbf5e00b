"""The application: screens, the game in progress, saves, statistics and settings.

    app = App(canvas, store, roles=("a", "b", "x", "y"))
    app.handle("a")        # a role event from the buttons (or the simulator's keyboard)
    app.tick(now_ms)       # time passes: messages expire, computer seats act
    app.draw()             # paint what changed into the canvas; then send canvas.take_dirty()

The same class runs on the device (framebuf canvas, flash store) and in the simulator
(displayio canvas, a folder). ``store`` has ``read(name) -> bytes or None``,
``write(name, data) -> bool`` and ``take_problems()`` (see ``firmware/store.py``).

Screens are objects with ``handle(key)``, ``paint(canvas)`` and optionally ``tick(now)`` and
``busy()``. A screen never clears the display: it asks for a region to be redrawn with
``app.refresh(x, y, w, h)``, and ``draw`` repaints each region by clipping the canvas to it
and running the screen's whole ``paint`` (primitives outside the clip cost a comparison), so
a partial redraw gives exactly the pixels of a full one. A cursor that moves asks for
``app.move_cursor(old, new, alone)`` instead: the pixels it covered are put back and the
screen's ``paint_cursor`` draws it at its new place (see ``move_cursor``). Rarely used
screens live in their own modules, imported when first opened.

``App`` (at the end) is made of parts by job, a class each: ``Computers`` (the computer players
and the coach), ``GameKeeping`` (the game in progress and its save), and ``App`` itself (the
screens, the loop, drawing, the seats). Classes of one module, not modules: each module costs
the device more heap than a class.

Roles become keys: A (or the joystick's press) is "ok", B "back", X and Y "prev" and "next"
(a four-button board moves with them), the joystick's directions pass through; long presses
give "hint" (Y), "sheet" (X) and "menu" (B). Settings can swap A and B.
"""

import gc

from catan.codec import SaveError, dumps, pack_save, unpack_save
from catan.dice import SeededDice, random_seed, seed_to_code
from catan.game import IllegalAction
from catan.maps import TURNS_ONE, X_PENALTY
from catan.ui import canvas as cv
from catan.ui.common import DIRECTIONS, HUMAN, LEVEL_NAMES
from catan.ui.layout import Layout
from catan.ui.memory import CODE, TABLES, MemoryPlan
from catan.ui.records import STEP_MS, Settings, Stats

_KEYS = {"a": "ok", "press": "ok", "b": "back", "x": "prev", "y": "next", "up": "up",
         "down": "down", "left": "left", "right": "right", "a_long": "ok", "b_long": "menu",
         "x_long": "sheet", "y_long": "hint", "press_long": "hint"}
NO_ROOM = ("Not enough memory here for the computer players and the coach: the game UF2 has "
           "room for them (see the README). Your game is saved.")


def _problem_text(p):
    # A store's problem: (name, what was wrong), set aside; or (name, what, what was done)
    return "%s was %s: %s" % (p[0], p[1], p[2] if len(p) > 2 else "set aside")


def _merged(regions):
    # The regions to repaint, overlapping ones merged when their union adds little (each
    # paint has a fixed cost on the device: two neighbouring dice are one paint, not two).
    out = []
    for r in regions:
        x, y, w, h = r
        k = 0
        while k < len(out):
            a = out[k]
            x0 = min(x, a[0])
            y0 = min(y, a[1])
            x1 = max(x + w, a[0] + a[2])
            y1 = max(y + h, a[1] + a[3])
            if (x1 - x0) * (y1 - y0) <= w * h + a[2] * a[3]:  # they overlap or touch
                x, y, w, h = x0, y0, x1 - x0, y1 - y0
                out.pop(k)
                k = 0
            else:
                k += 1
        out.append((x, y, w, h))
    return out


def _meets(r, regions):
    # True if rectangle ``r`` overlaps one of ``regions``
    x, y, w, h = r
    for a in regions:
        if x < a[0] + a[2] and a[0] < x + w and y < a[1] + a[3] and a[1] < y + h:
            return True
    return False


def _hardware_dice(seed):
    # A "random" game draws its seed from the hardware random source: its dice are as
    # unpredictable, and it has a code that can be shared like any other.
    return SeededDice(seed if seed is not None else random_seed())


# The computer players and the coach, as the app uses them: their package as the memory plan
# keeps it, a computer's turn step by step, and the coach's advice. A part of ``App``: it keeps no
# state of its own.
class Computers:
    def players(self, level=2):
        """The computer players' package, for a decision at ``level`` (``MemoryPlan.players``)."""
        return self.plan.players(level)

    def no_room(self, e):
        """The players' or the coach's work found no room, even with what the memory plan could
        let go: the console says so, and the text to show is returned (the game is as it was:
        nothing was applied)."""
        print("MemoryError in the players' work (not enough heap):", e)
        return NO_ROOM

    def computer_step(self, ahead=True):
        """One action of the computer seat whose turn it is (shown by the turn screen). A
        re-roll is two steps (with ``ahead``): its dice marked, then thrown, so that the
        player sees which dice change."""
        from catan.game import REROLL

        g = self.game
        turn = self.screen
        shown = self._shown
        self._shown = None
        if shown is not None and shown[0] is turn and shown[1] == len(g.log):
            action = shown[2]  # marked at the step before: thrown now
        else:
            try:
                action = self._next_action(g)
            except MemoryError as e:
                self.open("info", "Message", "No room", self.no_room(e))
                return
            turn.show_step(action)
            if ahead and action[0] == "roll" and g.phase == REROLL and self.step_ms():
                self._shown = (turn, len(g.log), action)
                return
        self.perform(action)
        if self.screen is turn and action[0] != "end":
            turn.after(action)

    def _next_action(self, g):
        # The computer's choice, through the memory plan's chain: where its work finds no room
        # once the players' code has gone, the level below makes the move (one move played less
        # well, not a game stopped); the easy level, which needs only the chance cache, may have
        # the table arrays let go too. Its failing as well is the MemoryError.
        level = self.level(g.player)
        while True:
            try:
                return self.plan.attempt(self._decide, (g, level), TABLES if level == 0 else CODE)
            except MemoryError:
                if level == 0:
                    raise
            level -= 1
            print("No room for the computer's work: this move as", LEVEL_NAMES[level])

    def _decide(self, g, level):
        return self.players(level).next_action(g, level, g.player)

    def finish_computer_turn(self):
        g = self.game
        p = g.player
        turns = g.turns[p]
        while self.busy() and g.player == p and g.turns[p] == turns and not g.over():
            self.computer_step(False)

    def advice(self, choice=None):
        """The coach's advice now: (action, its value, unit, value of ``choice`` or None); or
        the text saying why there is none (``no_room``)."""
        try:
            return self.plan.attempt(self._advise, (choice,), CODE)
        except MemoryError as e:
            return self.no_room(e)

    def _advise(self, choice):
        self.players()
        from catan.players import coach

        g = self.game
        action, best = coach.hint(g)
        mine = None
        if choice is not None:
            try:
                mine = coach.ev(g, choice)
            except MemoryError:
                raise
            except Exception:  # a choice the coach cannot value: show the best only
                mine = None
        return action, best, coach.unit(g), mine

    def computers(self):
        return [p for p in range(self.game.players) if self.level(p) is not None]


# The game in progress, as the app keeps it: a new game, its save (written after every action,
# loaded at start: ``codec.pack_save``), the actions carried out for the seat whose turn it is, the
# turns' notes, the records of a finished game, and the way back to it from a menu. A part of
# ``App``: it keeps no state of its own.
class GameKeeping:
    def new_game(self, island, levels, seed=None):
        from catan.game import Game

        self.game = Game(island, len(levels), self.make_dice(seed))
        self.levels = bytes(levels)
        self.review = None
        self.last_turns = [b""] * 4
        self.stats.last = 0  # a new play: the same code played the same way counts again
        self.before = None
        self.highs = []
        self.follow_coach(True)
        self._rolled = [0] * 6
        self.save()
        self.start_turn()

    def follow_coach(self, fresh=False):
        """The coach's review as the setting says, for the game in progress too: turned on
        during a game, it reviews from the next move; turned off, it stops. ``fresh``: a new
        game, whose review starts empty in the store too."""
        g = self.game
        if not (self.settings.coach and g is not None and not g.over()
                and g.island.number == 1 and HUMAN in self.levels):  # a person's choices
            self.review = None
        elif self.review is None:
            self.players()
            from catan.players.review import Review

            self.review = Review()
            fresh = True
        if fresh:
            self.wrote(self.write("review", b""), "the coach's review")

    def _load_review(self):
        # The coach's review of the game in progress, as saved after each costly choice.
        g = self.game
        if (g is None or g.over() or not self.settings.coach or g.island.number != 1
                or HUMAN not in self.levels):
            return
        self.players()
        from catan.players.review import Review

        self.review = Review.loads(self.store.read("review"))

    def code(self):
        """The game's code (its dice seed as six characters), or None: dice without a seed."""
        seed = getattr(self.game.dice, "seed", None) if self.game is not None else None
        return None if seed is None else seed_to_code(seed)

    def start_turn(self):
        from catan.ui.turn import Turn

        try:
            turn = self.plan.attempt(Turn, (self,))
        except MemoryError:
            self.later(self.start_turn)
            return
        self.show(turn)

    def has_save(self):
        return self.game is not None and not self.game.over()

    def _load_game(self):
        data = self.store.read("game")
        if not data:
            return
        try:
            self.game, self.levels = unpack_save(data, self.make_dice(None))
        except SaveError as e:
            self.write("game-bad", data)
            self.write("game", b"")
            self._problems.append("The saved game could not be loaded (%s). It was set aside." % e)

    def save(self):
        """Save the game (``write``)."""
        self.wrote(self.write("game", pack_save(self.game, self.levels)), "the game")

    def write(self, name, data):
        """The one door to the store: its ``write`` (so the app can stand for the store:
        ``stats.save(app)``), through the memory plan's chain (the file object of a write takes
        1.1 KB on the device: no move and no record is lost for the coach's sake). False if it
        failed, the store's reason or the heap's kept for ``wrote``."""
        try:
            return self.plan.attempt(self.store.write, (name, data))
        except MemoryError:
            self._why = "not enough memory"
            return False

    def wrote(self, ok, what):
        """Note a failed write of ``what`` and whatever the store set aside on the way; the
        next screen shown (or the turn screen, at once, if it stays) reports them."""
        if not ok:
            self._notes.append("Could not save %s (%s): it is not safe." % (
                what, self._why or getattr(self.store, "error", None) or "?"))
        self._why = None
        for p in self.store.take_problems():
            self._notes.append(_problem_text(p))

    def _say_notes(self):
        # Trouble during a turn, when the turn screen stays: its foot says it at once.
        say = getattr(self.screen, "say", None)
        if self._notes and say:
            say(" ".join(self._notes))
            self._notes = []

    def perform(self, action):
        """Carry out ``action`` for the seat whose turn it is and save; the reason if refused."""
        g = self.game
        if action[0] == "roll":  # refused before the coach's review notes it
            why = g.why_roll(action[1])
            if why:
                return why
        if self.review is not None and self.level(g.player) is None:
            try:
                # a new costly choice: keep it over a restart
                if self.plan.attempt(self.review.note, (g, action), CODE):
                    self.wrote(self.write("review", self.review.dumps()), "the coach's review")
            except MemoryError as e:  # the coach must never stop a game: its review stops
                self.review = None
                self._notes.append("The coach's review stopped: " + self.no_room(e))
            except Exception:
                self.review = None
        ending = action[0] == "end"
        if ending:
            self._note_turn()
        try:
            g.perform(action)
        except IllegalAction as e:
            return str(e)
        if g.over() and not ending:  # Island Two's race is won in the middle of a turn
            self._note_turn()
        if action[0] == "roll":
            mask = action[1]
            for i in range(g.dice_count()):
                if mask is None or mask >> i & 1:
                    self._rolled[g.faces[i]] += 1
        if action[0] == "end" or g.over():
            self._turn_over()
        else:
            self.save()
        self._say_notes()
        return None

    def _note_turn(self):
        # The turn of the seat playing, as it ends, in a few bytes: how many dice it had,
        # their faces, then the items it built (its sheet against the turn's start).
        g = self.game
        p = g.player
        n = g.dice_count()
        nr = g.island.n_roads
        fresh = (g.roads[p] & ~g.turn_start[0]) | (g.builds[p] & ~g.turn_start[1]) << nr
        rec = bytearray((n,)) + g.faces[:n]
        for i in range(g.island.n_items):
            if fresh >> i & 1:
                rec.append(i)
        self.last_turns[p] = bytes(rec)

    def turn_note(self, p):
        """Seat ``p``'s last turn in a few words, or None if none was seen (a game loaded
        from its save): Island One's points and builds ("+7: R2 S3 K1", "X: nothing
        built"), Island Two's VP now and builds ("VP 7: S3 K1")."""
        rec = self.last_turns[p]
        if not rec:
            return None
        g = self.game
        isl = g.island
        built = " ".join([isl.name(i) for i in rec[rec[0] + 1:]]) or "nothing built"
        if isl.number == 2:
            return "VP %d: %s" % (g.vp(p), built)
        v = g.track[p * TURNS_ONE + g.turns[p] - 1]
        return "%s: %s" % ("X" if v == X_PENALTY else "+%d" % v, built)

    def _turn_over(self):
        self.stats.add_dice(self._rolled)
        self._rolled = [0] * 6
        g = self.game
        if g.over():
            self._record()
            self.wrote(self.write("game", b""), "the game")
            self.open("info", "GameOver")
            return
        self.save()
        self.wrote(self.stats.save(self), "the statistics")
        p = g.player
        humans = self.humans()
        if self.level(p) is None and len(humans) > 1:
            self.open("info", "HandOver")
        else:
            self.start_turn()

    def _record(self):
        # Count a finished game once, even if the power fails before its save is cleared:
        # its mark is its save's own CRC-16 (the last two bytes; a CRC taken over them too
        # would always be 0), 0 meaning none.
        g = self.game
        st = self.stats
        d = dumps(g)
        mark = (d[-2] << 8 | d[-1]) or 1
        if st.last != mark:
            st.last = mark
            k = g.island.number - 1  # the record a solo game is compared with at its end
            self.before = (st.games[k], st.total[k], st.best[k], st.extra[k])
            for p in self.humans():
                if g.island.number == 1:
                    xs = 0
                    for t in range(g.turns[p]):
                        if g.track[p * TURNS_ONE + t] == X_PENALTY:
                            xs += 1
                    v = g.score(p)
                    st.add_one(v, xs)
                else:
                    v = g.turns_taken(p) if g.winner == p else None
                    st.add_two(g.winner == p, g.turns_taken(p))
                # a high score enters the table now, under the seat's name: its initials
                # only rename it, so leaving the end screen (a power cut) loses no score
                if v is not None and st.qualifies(g.island.number, v):
                    st.add_high(g.island.number, v, self.seat_name(p))
                    self.highs.append((p, v))
        self.wrote(st.save(self), "the statistics and high scores")

    def pause(self):
        self.open("menu", "Pause", self.screen)

    def resume(self):
        g = self.game
        if g.over():
            self.open("info", "GameOver")
        elif self.level(g.player) is None and len(self.humans()) > 1:
            self.open("info", "HandOver")  # pass and play: the device goes to that person
        else:
            self.start_turn()

    def save_summary(self):
        """The saved game in words: "Island One, P1 person, P2 medium; P2's turn 5"."""
        g = self.game
        seats = ", ".join("%s %s" % (self.seat_name(p), self.level_name(p))
                          for p in range(g.players))
        return "Island %s, %s; %s's turn %d" % (("One", "Two")[g.island.number - 1], seats,
                                                 self.seat_name(g.player),
                                                 g.turns[g.player] + 1)

    def save_settings(self, changed=False):
        """Write the settings (with ``changed``: only if they differ from the record)."""
        self.wrote(self.settings.save(self, changed), "the settings")


class App(GameKeeping, Computers):
    # Here: the screens, the loop (keys, time, drawing, idle work) and the seats; the parts
    # above do the rest. Every attribute of the app is set here.
    def __init__(self, canvas, store, roles=None, dice=None, plan=None):
        self.c = canvas
        self.plan = plan or MemoryPlan()  # what stays in the heap, and the answer to no room
        self.lay = Layout(canvas.width, canvas.height)
        self.store = store
        self.roles = tuple(roles) if roles else ("a", "b", "x", "y")
        self.joystick = "up" in self.roles
        self.make_dice = dice or _hardware_dice  # seed or None -> a dice source
        self.now = 0
        self._event = None  # the last key event (see ``handle``)
        self.stepped = False  # whether the long press being handled gave its short key first
        self.screen = None
        self._ticking = self._tick = None  # the screen whose tick method is kept, and it
        self._full = True
        self._regions = []
        self._cursor_from = self._cursor_to = None  # see move_cursor
        self._alone = False
        self.settings = Settings.load(store)
        self.stats = Stats.load(store)
        self.game = None
        self.battery = None  # VSYS in volts, set by the device's loop where it is measured
        self.title_row = ""  # the title menu's row last chosen, where its cursor returns
        self.levels = b""
        self._shown = None  # (turn screen, log length, action): a computer's re-roll marked
        self.review = None
        self.before = None  # a solo game's island record before it was counted (see _record)
        self.highs = []  # (seat, result) of this game's high scores still to be named (_record)
        self._rolled = [0] * 6  # faces rolled this turn, for the lifetime dice counts
        self.last_turns = [b""] * 4  # per seat, its last turn seen: see _note_turn
        self._pending = None  # (function, args) to call again at the next tick (``later``)
        self._why = None  # why the last write failed where the store cannot say (``write``)
        self._problems = [p for p in (self.settings.problem, self.stats.problem) if p]
        self._notes = []  # storage trouble met while playing, shown at the next chance
        for rec in (self.settings, self.stats):
            if rec.bad is not None:  # set aside once, then the defaults stand in its place
                self.write(rec.NAME + "-bad", rec.bad)
                rec.bad = None
                rec.save(self)
        self._load_game()
        self._load_review()
        for p in store.take_problems():
            self._problems.append(_problem_text(p))
        self.open("menus", "Title")
        if self._problems:
            self.open("info", "Message", "Storage", "\n".join(self._problems))
            self._problems = []

    # ------------------------------------------------------------------ screens

    def show(self, screen):
        """Show ``screen``; the memory plan then lets go what no screen reachable from it needs
        (``MemoryPlan.settle``). Storage trouble noted since the last screen (a save that failed)
        comes first, in a message that then shows ``screen``: a player always learns that their
        game is not safe."""
        if self._notes:
            try:  # through the plan's chain, as any screen (no room: the notes wait for the next)
                screen = self.plan.attempt(self._make, ("info", "Message",
                                                        ("Storage", "\n".join(self._notes), screen)))
                self._notes = []
            except MemoryError:
                pass
        self.screen = screen
        self.refresh_all()
        busy = getattr(screen, "busy", None)
        self.plan.settle(screen, bool(busy and busy()))

    def open(self, module, name, *args):
        """Show screen class ``name`` of on-demand module ``catan.ui.<module>`` (loaded by the
        memory plan). Where it finds no room even once the plan has let go what it could, it is
        opened at the next tick (``later``)."""
        try:
            screen = self.plan.attempt(self._make, (module, name, args))
        except MemoryError:
            self.later(self.open, module, name, *args)
            return
        self.show(screen)

    def _make(self, module, name, args):
        return getattr(self.plan.load(module), name)(self, *args)

    def later(self, again, *args):
        """``again(*args)`` found no room: it is called again at the next tick, from the main
        loop, as the last step of the memory plan's chain. The calls that led here (a computer's
        step, a person's last action) may hold objects in their frames that the collector, which
        scans the stack as it is, keeps (on the emulated Pico, the game-over screen after a game
        of computers; on the unix port's small heap, the hand-over screen of an Island Two game).
        Found no room at the next tick too: during a game, its turn screen comes back, saying
        so; else the ``MemoryError`` is raised (the device shows and logs it; every action is
        saved already)."""
        if self._pending is False:  # (its try at the next tick)
            self._pending = None
            if again != self.start_turn and self.has_save():
                self.start_turn()
                if self._pending is None:
                    self.screen.say("Not enough memory for that screen here")
                return
            raise MemoryError("no room for the next screen")
        self._pending = (again, args)

    def refresh(self, x, y, w, h):
        """Ask for the rectangle to be repainted at the next ``draw``."""
        if not self._full:
            self._regions.append((x, y, w, h))

    def refresh_all(self):
        self._full = True
        self._regions = []
        self._cursor_from = self._cursor_to = None

    def move_cursor(self, old, new, alone):
        """The screen's cursor leaves rectangle ``old`` for rectangle ``new`` (either may be
        None); ``alone``: the screen's ``paint_cursor`` draws the cursor at ``new`` by itself,
        over the screen as painted without it (a frame, say), else ``new`` is repainted. At the
        next ``draw`` the pixels kept from before the cursor came to ``old`` are put back, and
        those of ``new`` are kept before the cursor is drawn there, in place of repainting each
        rectangle, whenever that gives the same pixels as the repaint; else they are
        repainted."""
        if self._full:
            return
        if self._cursor_from is not None or self._cursor_to is not None:
            # a second move before a draw: the first one's rectangles are plain repaints
            for r in (self._cursor_from, self._cursor_to):
                if r is not None:
                    self._regions.append(r)
        self._cursor_from = old
        self._cursor_to = new
        self._alone = alone

    # ------------------------------------------------------------------ the loop

    def handle(self, role):
        key = _KEYS.get(role)
        last = self._event
        self._event = role
        # A held X or Y gives its short key on the first edge (firmware/buttons.py: a cursor
        # step) and its long one at 600 ms: the long one right after the short one of the
        # same button is that same press (the coach then asks about the cursor before it).
        self.stepped = last is not None and role.endswith("_long") and role[:-5] == last
        if key is None:
            return
        if self.settings.swap and key in ("ok", "back"):
            key = "back" if key == "ok" else "ok"
        self.screen.handle(key)

    def tick(self, now_ms):
        self.now = now_ms
        if self._pending:  # what found no room (see ``later``)
            again, args = self._pending
            self._pending = False  # (being tried again)
            gc.collect()
            again(*args)
            self._pending = None
        if self._ticking is not self.screen:  # a bound method once a screen, not every round
            self._ticking = self.screen
            self._tick = getattr(self.screen, "tick", None)
        if self._tick:
            self._tick(now_ms)

    def draw(self):
        # Every pixel painted lies in the clip, so the clip is what changed: it is marked
        # once, not by each primitive (which costs more than the drawing on the device).
        if not self._full and not self._regions and self._cursor_to is None \
                and self._cursor_from is None:
            return  # the device's loop asks every 10 ms: an idle round allocates nothing
        c = self.c
        if c.bands > 1:
            self._draw_bands(c)
            return True
        c.track(False)
        if self._full:
            self._full = False
            self._regions = []
            self._cursor_from = self._cursor_to = None
            c.drop_kept(0, 0, c.width, c.height)
            c.reset_clip()
            if c.width > self.lay.width or c.height > self.lay.height:
                c.fill_rect(0, 0, c.width, c.height, cv.DEEP)
            self.screen.paint(c)
            c.track(True)
            c.invalidate()
            return
        regions = self._regions
        self._regions = []
        old = self._cursor_from
        new = self._cursor_to
        self._cursor_from = self._cursor_to = None
        if old is not None:  # the old frame's pixels, put back if they are still kept
            if c.kept(old[0], old[1], old[2], old[3]):
                c.put_back()
                c.mark(old[0], old[1], old[2], old[3])
            else:
                regions.append(old)
        done = _merged(regions)
        if new is not None and _meets(new, done):  # a paint there: it draws the cursor
            done.append(new)
            done = _merged(done)
            new = None
        for r in done:
            if c.kept_w:  # the paint may change them (it keeps them again if it frames them)
                c.drop_kept(r[0], r[1], r[2], r[3])
            c.set_clip(r[0], r[1], r[2], r[3])
            self.screen.paint(c)
        if new is not None:  # over pixels no paint touched: what the cursor changes is kept
            c.keep(new[0], new[1], new[2], new[3])
            c.set_clip(new[0], new[1], new[2], new[3])
            if self._alone:
                self.screen.paint_cursor(c)
            else:
                self.screen.paint(c)
            done.append(new)
        c.reset_clip()
        c.track(True)
        for r in done:
            c.mark(r[0], r[1], r[2], r[3])

    def _draw_bands(self, c):
        # The canvas holds a band of the picture's rows at a time (a big panel on a small heap):
        # each band is painted, every changed rectangle in it whole (what the band held before
        # is another band's) from an even column to an even column (the panel is sent whole
        # bytes), and sent before the next (``send``). A cursor is painted with the screen; where
        # it leaves pixels the canvas kept (the paint framed them inside one band), they are put
        # back and sent instead of a repaint.
        if self._full:
            regions = [(0, 0, c.width, c.height)]
        else:
            regions = self._regions
            old = self._cursor_from
            if old is not None:
                if c.kept(old[0], old[1], old[2], old[3]) and not _meets(old, regions):
                    c.put_back_sent()
                else:
                    regions.append(old)
            if self._cursor_to is not None:
                regions.append(self._cursor_to)
            regions = _merged(regions)
        for r in regions:  # (the paint may change them: it keeps them again if it frames them)
            c.drop_kept(r[0], r[1], r[2], r[3])
        self._full = False
        self._regions = []
        self._cursor_from = self._cursor_to = None
        c.track(False)
        for k in range(c.bands):
            c.set_band(k)
            sent = []  # (not the canvas's dirty list: it merges across pixels left unpainted)
            for r in regions:
                x0 = r[0] & -2
                x1 = r[0] + r[2] + 1 & -2
                c.set_clip(x0, r[1], x1 - x0, r[3])
                x0 = c.clip_x0
                y0 = c.clip_y0
                if x0 < c.clip_x1 and y0 < c.clip_y1:
                    w = c.clip_x1 - x0
                    h = c.clip_y1 - y0
                    c.fill_rect(x0, y0, w, h, cv.DEEP)
                    self.screen.paint(c)
                    sent.append((x0, y0, w, h))
            if sent:
                c.send(sent, c.top)
        c.set_band(0)
        c.track(True)
        c.take_dirty()  # (anything marked outside a draw lay in another band: all sent now)

    def think(self, until):
        """Work ahead while nothing else happens (the main loop's idle rounds): the screen's
        ``think(until, coach)`` if it has one, in slices until ``until()`` is true (``coach``:
        whether the coach works ahead for a person, as the memory plan has it). True when there
        is nothing (left) to do until the next key or step. Work ahead that finds no room in the
        heap is dropped with the players' code (the chain's first steps): it is only ahead, and
        the decision is made when it is asked (or ``no_room`` says why not)."""
        think = getattr(self.screen, "think", None)
        if think is None:
            return True
        try:
            return think(until, self.plan.coach_ahead)
        except MemoryError:
            self.plan.let_go(CODE, CODE)
            return True

    def repeat_roles(self):
        """The buttons that should repeat while held on this screen (for the input driver):
        the joystick's directions, and X and Y where letters are typed."""
        return getattr(self.screen, "REPEAT", DIRECTIONS)

    def busy(self):
        """True while something happens without input (a computer's turn)."""
        b = getattr(self.screen, "busy", None)
        return bool(b and b())

    def finished(self):
        """True once the game that was being played has ended and its results are shown."""
        return self.game is not None and self.game.over()

    @property
    def brightness(self):
        """Backlight level for the device, 0..1000."""
        return self.settings.brightness * 100

    def power(self):
        """The power source as shown on the title screen: "USB", "battery 70%", or ""."""
        v = self.battery
        if v is None:
            return ""
        if v > 4.5:
            return "USB"
        pct = int((v - 3.3) * 100 / 0.9)  # a LiPo cell: 3.3 V empty .. 4.2 V full
        return "battery %d%%" % min(100, max(0, pct))

    def key_name(self, key):
        """The button that gives ``key`` ("ok" or "back") now: settings may swap A and B."""
        ok = key == "ok"
        return "A" if ok != bool(self.settings.swap) else "B"

    def moves_name(self):
        """What moves from item to item on this board, for help lines: "stick" or "X/Y"."""
        return "stick" if self.joystick else "X/Y"

    def keys_help(self, back="menu"):
        """The foot's key help; ``back``: what the back button does here (None: nothing)."""
        text = self.key_name("ok") + ":ok"
        if back:
            text += " %s:%s" % (self.key_name("back"), back)
        return text + (" stick" if self.joystick else " XY:move")

    # ------------------------------------------------------------------ seats

    def level(self, p):
        """The computer level of seat ``p``, or None when a person plays it."""
        v = self.levels[p] if p < len(self.levels) else HUMAN
        return None if v == HUMAN else v

    def level_name(self, p):
        v = self.level(p)
        return "person" if v is None else LEVEL_NAMES[v]

    def seat_name(self, p):
        return "P%d" % (p + 1)

    def humans(self):
        return [p for p in range(self.game.players) if self.level(p) is None]

    def step_ms(self):
        return STEP_MS[self.settings.speed]
