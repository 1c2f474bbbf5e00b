"""The menus and forms outside a game: the title menu, a new game, settings, and text entry
(the menu base class and the pause menu are in ``menu``).
"""

from catan import __version__
from catan.dice import CODE_ALPHABET, code_to_seed, random_seed, seed_to_code
from catan.ui import canvas as cv
from catan.ui import font_large
from catan.ui import widgets as wg
from catan.ui.common import HUMAN, LEVEL_NAMES
from catan.ui.menu import Menu
from catan.ui.records import SPEEDS


class _Menu(Menu):
    """A menu of this module (``Menu.size`` chooses its font)."""


class Title(_Menu):
    """The first screen: continue, new game, scores, dice, rules, settings."""

    title = "Catan Dice Game"
    back_label = None
    widest = "Scores & stats"

    def __init__(self, app):
        Menu.__init__(self, app)
        if app.title_row in self.rows:  # back from a sub-screen: the cursor where it was
            self.i = self.rows.index(app.title_row)

    def items(self):
        rows = ["New game", "Scores & stats", "Dice fairness", "Rules card", "Settings"]
        if self.app.has_save():
            rows.insert(0, "Continue")
        return rows

    def width(self, font=0):
        # the rows' column (the art right of it): wider for the large font
        if font == 0:
            font = self.font
        return 134 if font is None else 190

    def note(self):
        g = self.app.game
        if self.rows[self.i] == "Continue" and g:
            return "Island %s, %d player%s, turn %d" % (
                ("One", "Two")[g.island.number - 1], g.players, "s" if g.players > 1 else "",
                g.turns[g.player] + 1)
        return ""

    def choose(self, i):
        app = self.app
        r = self.rows[i]
        app.title_row = r
        if r == "Continue":
            app.resume()
        elif r == "New game":
            app.show(NewGame(app))
        elif r == "Scores & stats":
            app.open("info", "Scores", 1)
        elif r == "Dice fairness":
            app.open("info", "Scores", 4)
        elif r == "Rules card":
            app.open("info", "Rules")
        else:
            app.show(SettingsMenu(app))

    def paint(self, c):
        Menu.paint(self, c)
        lay = self.app.lay
        x = self.width()
        w = lay.width - x
        if not c.visible(x, 0, w, lay.height):
            return
        c.fill_rect(x, 0, w, lay.height, cv.SEA)
        c.fill_rect(x, 0, w, self.bar(), cv.DEEP)
        power = self.app.power()
        self._battery = self.app.battery  # (what ``tick`` compares with)
        self._power = power
        if power:
            low = power.startswith("battery") and self.app.battery < 3.5
            c.text(lay.width - 3 - c.text_width(power), 2, power, cv.RED if low else cv.LIGHT)
        _art(c, x + w // 2, (lay.height + self.bar()) // 2, w // 11)
        # the version, for a bug report or to tell an old UF2 from a new one
        version = "v" + __version__
        c.text(lay.width - 3 - c.text_width(version), lay.height - 11, version, cv.LIGHT)

    def tick(self, now):
        # the device's loop updates app.battery every 10 s: redraw the corner when its text
        # changes (looked at only then: the loop asks every 10 ms, and text is garbage)
        battery = self.app.battery
        if battery is getattr(self, "_battery", None):
            return
        self._battery = battery
        power = self.app.power()
        if power != getattr(self, "_power", ""):
            self._power = power
            self.app.refresh(self.width(), 0, self.app.lay.width - self.width(), self.bar())


def _art(c, cx, cy, s):
    # Seven small hexes: the island ring of the box art, drawn with the map's painter.
    from catan.ui.sheet import hexagon

    hu = s * 7 // 4
    colours = (cv.SEA, cv.ORE, cv.GRAIN, cv.WOOL, cv.LUMBER, cv.BRICK, cv.SAND)
    places = ((0, 0), (-3, -1), (-3, 1), (0, 2), (3, 1), (3, -1), (0, -2))
    for k in range(7):
        u, v = places[k]
        hexagon(c, cx + u * s, cy + v * hu, s, hu, colours[k] if k else cv.DEEP)


class NewGame(_Menu):
    """Island, seats (each a person or a computer level), dice (random or a code), start."""

    title = "New game"
    widest = "P4 computer: medium"

    def __init__(self, app):
        s = app.settings  # the setup last started (or left here), kept in the settings
        self.island = s.island
        self.seats = list(s.seats)
        self.code = None
        Menu.__init__(self, app)

    def changed(self, rows=False):
        s = self.app.settings
        s.island = self.island
        s.seats = bytes(self.seats)  # written with the settings when the game starts
        Menu.changed(self, rows)

    def items(self):
        return (["Island", "Players"] + ["P%d" % (p + 1) for p in range(len(self.seats))]
                + ["Dice", "Type a code", "Start"])

    def value(self, i):
        r = self.rows[i]
        if r == "Island":
            return ("One", "Two")[self.island - 1]
        if r == "Players":
            return "%d" % len(self.seats)
        if r[0] == "P":
            v = self.seats[int(r[1]) - 1]
            return "person" if v == HUMAN else "computer: " + LEVEL_NAMES[v]
        if r == "Dice":
            return "code " + self.code if self.code else "random"
        return None

    def top(self):
        # four seats on a 135-pixel screen: the rows move up to leave the foot clear
        if self.bar() + 4 + len(self.rows) * self.row > self.app.lay.height - wg.LINE - 1:
            return self.bar() + 1
        return self.bar() + 4

    def note(self):
        r = self.rows[self.i]
        if r == "Island":
            if self.island == 1:
                return "Score attack: 15 turns, build in order."
            return "Race to 10 VP; awards for road and army."
        if r == "Dice":
            return "A code gives everyone the same dice: share it."
        if r == "Type a code":
            return "Play the dice of a code someone shared."
        if r == "Players" and self.island == 2 and len(self.seats) == 1:
            return "One player: the solo race."
        if r[0] == "P" and len(self.seats) > 1:  # the game's fairness: said before a tie
            same = "Every seat throws the same dice in a turn: only the choices differ."
            if r != "Players" and self.seats[int(r[1]) - 1] == 2:
                return "Every seat throws the same dice in a turn; hard plays as the coach advises."
            return same
        return ""

    def brief(self):
        return "same dice for every seat" if len(self.seats) > 1 else ""

    def change(self, i, step):
        r = self.rows[i]
        if r == "Island":
            self.island = 3 - self.island
            self.changed()
        elif r == "Players":
            n = (len(self.seats) - 1 + step) % 4 + 1
            while len(self.seats) < n:
                self.seats.append(1)  # new seats: computer, medium
            del self.seats[n:]
            self.changed(True)
        elif r[0] == "P":
            p = int(r[1]) - 1
            order = (HUMAN, 0, 1, 2)
            self.seats[p] = order[(order.index(self.seats[p]) + step) % 4]
            self.changed()
        elif r == "Dice":
            self.code = None if self.code else seed_to_code(random_seed())
            self.changed()

    def choose(self, i):
        r = self.rows[i]
        if r == "Start":
            if self.app.has_save():
                self.app.show(Replace(self.app, self))
            else:
                self.start()
        elif r == "Type a code":
            self.app.show(TextEntry(self.app, self, "Game code", self.code or "", 6, CODE_ALPHABET))
        else:  # Dice (random <-> a new code) and the rest: one step on
            self.change(i, 1)

    def start(self):
        seed = code_to_seed(self.code) if self.code else None
        self.app.save_settings(True)
        self.app.new_game(self.island, self.seats, seed)

    def entered(self, text):
        """A code typed in TextEntry: None if accepted, else why not."""
        try:
            code_to_seed(text)
        except ValueError as e:
            return str(e)
        self.code = text
        return None

    def back(self):
        self.app.open("menus", "Title")


class Replace(_Menu):
    """A new game would replace the saved one: ask first, saying whose game it is."""

    title = "Replace the saved game?"
    widest = "Replace it"

    def __init__(self, app, owner):
        self.owner = owner  # the new-game form
        Menu.__init__(self, app)

    def items(self):
        return ["Keep it", "Replace it"]

    def note(self):
        return "Saved: %s. It is lost if the new game starts." % self.app.save_summary()

    def choose(self, i):
        if i == 1:
            self.owner.start()
        else:
            self.back()

    def back(self):
        self.app.show(self.owner)


class SettingsMenu(_Menu):
    title = "Settings"
    widest = "Choose with A (B: back)"

    def __init__(self, app, owner=None):
        self.owner = owner  # the screen to return to (the pause menu), or None: the title
        self.confirm = False
        self.swap_asked = False  # "Choose with" waits for a press of the button it would give
        Menu.__init__(self, app)

    def items(self):
        return ["Brightness", "Choose with", "Animation", "Coach review", "Reset statistics",
                "Back"]

    def value(self, i):
        s = self.app.settings
        r = self.rows[i]
        if r == "Brightness":
            return "%d0%%" % s.brightness
        if r == "Choose with":
            if self.swap_asked:  # (in the large font the note says what it confirms)
                return ("press %s" if self.font else "press %s to confirm") % \
                    self.app.key_name("back")
            return "B (A: back)" if s.swap else "A (B: back)"
        if r == "Animation":
            return SPEEDS[s.speed]
        if r == "Coach review":
            return "on" if s.coach else "off"
        if r == "Reset statistics" and self.confirm:
            return "sure?" if self.font else "sure? A again"
        return None

    def note(self):
        if self.swap_asked:
            return "%s would choose and %s go back. Any other key keeps %s." % (
                self.app.key_name("back"), self.app.key_name("ok"), self.app.key_name("ok"))
        if self.rows[self.i] == "Coach review":
            g = self.app.game
            now = (" Turned on during a game: from the next move." if g is not None
                   and not g.over() and g.island.number == 1 else "")
            return ("After an Island One game, see the choices that cost you most. "
                    "Each move then takes a little longer." + now)
        return ""

    def handle(self, key):
        if self.swap_asked:  # the button that would choose confirms; any other key cancels
            self.swap_asked = False
            if key == "back":
                self.app.settings.swap ^= 1
                self.app.save_settings()
            self.changed()
            if key in ("prev", "up", "next", "down"):
                Menu.handle(self, key)
            return
        if self.confirm and key in ("prev", "up", "next", "down", "back", "menu"):
            self.confirm = False  # leaving the row disarms "Reset statistics"
            self.changed()
        Menu.handle(self, key)

    def change(self, i, step, wrap=False):
        s = self.app.settings
        r = self.rows[i]
        if r == "Brightness":
            v = s.brightness + step
            if wrap:  # A steps round: 10 goes on to 1 (a board without left and right)
                v = (v - 1) % 10 + 1
            s.brightness = min(10, max(1, v))
        elif r == "Choose with":  # asked first (see handle): one stray press changes nothing
            self.swap_asked = True
            self.changed()
            return
        elif r == "Animation":
            s.speed = (s.speed + step) % len(SPEEDS)
        elif r == "Coach review":
            s.coach ^= 1
            self.app.follow_coach()  # the game in progress too, from the next move
        else:
            return
        self.app.save_settings()
        self.changed()

    def choose(self, i):
        r = self.rows[i]
        if r == "Back":
            self.back()
        elif r == "Reset statistics":
            if self.confirm:
                from catan.ui.records import Stats

                app = self.app
                fresh = Stats()
                if fresh.save(app):  # what is shown stays what is stored
                    app.stats = fresh
                else:
                    app.wrote(False, "the reset statistics")
                    app.show(self)  # (the message first, then this menu again)
                self.confirm = False
            else:
                self.confirm = True
            self.changed()
        else:
            self.change(i, 1, True)

    def back(self):
        if self.owner is not None:
            self.app.show(self.owner)
        else:
            self.app.open("menus", "Title")


class TextEntry:
    """Type a short text (a game code, initials) with four buttons: prev/next (or up/down)
    change the letter, ok goes to the next letter (and finishes on the last), back to the
    previous one (and cancels on the first). ``owner.entered(text)`` returns None to accept
    or a reason to refuse."""

    REPEAT = ("x", "y", "up", "down", "left", "right")  # held, they step through the letters

    def __init__(self, app, owner, title, text, length, alphabet):
        self.app = app
        self.owner = owner
        self.title = title
        self.alphabet = alphabet
        self.chars = [alphabet.find(ch) if ch in alphabet else 0 for ch in text[:length]]
        while len(self.chars) < length:
            self.chars.append(0)
        self.pos = 0
        self.error = ""

    def _box(self, k):
        lay = self.app.lay
        n = len(self.chars)
        x0 = (lay.width - n * 24) // 2
        return x0 + 24 * k, 40, 22, 30

    def handle(self, key):
        app = self.app
        if key in ("prev", "up", "next", "down"):
            step = -1 if key in ("prev", "up") else 1
            self.chars[self.pos] = (self.chars[self.pos] + step) % len(self.alphabet)
            app.refresh(*self._box(self.pos))
        elif key in ("ok", "right", "left", "back"):
            old = self.pos
            forward = key in ("ok", "right")
            if forward and self.pos == len(self.chars) - 1 and key == "ok":
                self.finish()
                return
            if not forward and self.pos == 0:
                if key == "back":
                    app.show(self.owner)
                return
            self.pos += 1 if forward else -1
            self.pos = min(self.pos, len(self.chars) - 1)
            app.refresh(*self._box(old))
            app.refresh(*self._box(self.pos))

    def finish(self):
        text = "".join(self.alphabet[i] for i in self.chars)
        why = self.owner.entered(text)
        if why:
            self.error = why
            self.app.refresh_all()
        else:
            self.app.show(self.owner)

    def paint(self, c):
        lay = self.app.lay
        c.fill_rect(0, 0, lay.width, lay.height, cv.SEA)
        wg.bar(c, 0, 0, lay.width, self.title)
        for k in range(len(self.chars)):
            x, y, w, h = self._box(k)
            on = k == self.pos
            c.fill_rect(x, y, w, h, cv.CURSOR if on else cv.SAND)
            ch = self.alphabet[self.chars[k]]
            c.text(x + (w - c.text_width(ch, font_large)) // 2, y + 6, ch,
                   cv.BLACK, font_large)
        y = 78
        help = "%s: letter  %s: next  %s: back" % (
            "up/down" if self.app.joystick else "X/Y", self.app.key_name("ok"),
            self.app.key_name("back"))
        y = wg.paragraph(c, 6, y, lay.width - 12, help, cv.SAND)
        if self.error:
            wg.paragraph(c, 6, y + 2, lay.width - 12, self.error, cv.RED)
