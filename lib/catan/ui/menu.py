"""A menu screen, and the pause menu: the one menu a game opens, kept in a module of its own
so that the rest of the menus' code (``menus``) is not on the device's heap beside a game.

A ``Menu`` is a list of rows, each a label and an optional value. prev/next (X/Y, or the
joystick) move between rows, redrawing just those two; "ok" chooses a row or steps its value,
left/right step a value back and forth, "back" leaves. Its title and rows are in the small
font, or in ``font`` (on a tall screen: see ``size``), the rows then ``font.LINE`` apart; the
note under them is always small.
"""

from catan.ui import canvas as cv
from catan.ui import font_large
from catan.ui import widgets as wg

ROW = 12  # row pitch (the menus share it)


class Menu:

    title = ""
    back_label = "back"  # what the back button does, for the foot (None: nothing)
    font = None  # the title's and the rows' font (None: the small one)
    row = ROW  # the rows' pitch
    widest = ""  # the widest row the menu shows, its label and value ("": too wide for large)

    def __init__(self, app):
        self.app = app
        self.i = 0
        self.rows = self.items()
        self.size()

    def size(self):
        """Choose ``font`` and ``row`` for the rows as they are now: on a tall screen (240
        pixels) the title and the rows in the large font where they fit (all of them, two
        lines of the note and the foot below; the title and the widest row across), as
        every menu of the layout that fits them; else the small font."""
        lay = self.app.lay
        self.font = None
        self.row = ROW
        if not lay.big or not self.widest:
            return
        big = font_large
        room = (big.HEIGHT + 8 + len(self.rows) * big.LINE + 3 + 2 * wg.LINE
                <= lay.height - wg.LINE - 1)
        c = self.app.c
        w = self.width(big) - 6
        if room and c.text_width(self.title, big) <= w and \
                c.text_width(self.widest, big) + 2 * big.SPACING <= w:
            self.font = big
            self.row = big.LINE

    # subclasses: items(), value(i), choose(i), change(i, step), back()
    def items(self):
        return []

    def value(self, i):
        return None

    def change(self, i, step):
        pass

    def back(self):
        pass

    def top(self):
        return self.bar() + 4

    def bar(self):  # the title bar's height
        return self.font.HEIGHT + 4 if self.font else wg.BAR

    def left(self):
        return 0

    def width(self, font=0):  # (``font``: the width it would have with that font)
        return self.app.lay.width

    def note(self):
        """A line of help under the rows (about the selected row)."""
        return ""

    def brief(self):
        """What must be said even where the rows leave no room for the note: a few words shown
        in the title bar then (it may change only with the rows: ``changed(True)``)."""
        return ""

    def row_box(self, i):
        return self.left(), self.top() + i * self.row, self.width(), self.row

    def handle(self, key):
        app = self.app
        if key in ("prev", "up", "next", "down"):
            old = self.i
            before = self.note()
            step = -1 if key in ("prev", "up") else 1
            self.i = (self.i + step) % len(self.rows)
            app.refresh(*self.row_box(old))
            app.refresh(*self.row_box(self.i))
            self._refresh_note(before)
        elif key in ("left", "right"):
            self.change(self.i, -1 if key == "left" else 1)
        elif key == "ok":
            self.choose(self.i)
        elif key in ("back", "menu"):
            self.back()

    def _refresh_note(self, before=None):
        # The note's place under the rows; given the note ``before``, only the lines either
        # note takes (on the device the pixels sent cost as much as the drawing)
        lay = self.app.lay
        y = self.top() + len(self.rows) * self.row + 2
        h = lay.height - y
        if before is not None:
            after = self.note()
            if after == before:
                return
            c = self.app.c
            n = max(len(wg.wrap(c, before, self.width() - 6)) if before else 0,
                    len(wg.wrap(c, after, self.width() - 6)) if after else 0)
            h = min(h, n * wg.LINE + 2)
        self.app.refresh(self.left(), y, self.width(), h)

    def changed(self, rows=False):
        """The selected row's value changed (or, with ``rows``, the list of rows)."""
        if rows:
            self.rows = self.items()
            self.i = min(self.i, len(self.rows) - 1)
            self.size()
            self.app.refresh_all()
        else:
            self.app.refresh(*self.row_box(self.i))
            self._refresh_note()

    def paint(self, c):
        lay = self.app.lay
        x = self.left()
        w = self.width()
        if not c.visible(x, 0, w, lay.height):
            return
        c.fill_rect(x, 0, w, lay.height, cv.SEA)
        font = self.font
        pitch = self.row
        top = self.top()  # (row_box, worked out once for all rows)
        foot = lay.height - wg.LINE - 1
        if c.visible(x, 0, w, self.bar()):
            wg.bar(c, x, 0, w, self.title, cv.SAND, font)
            brief = self.brief()  # in the bar where no line of the note fits under the rows
            bw = c.text_width(brief)
            if (brief and top + len(self.rows) * pitch + 3 + wg.LINE > foot
                    and c.text_width(self.title, font) + bw + 12 <= w):
                c.text(x + w - 3 - bw, 2, brief, cv.SAND)
        for i in range(len(self.rows)):  # only the rows in the clip (a move redraws two)
            by = top + i * pitch
            if c.visible(x, by, w, pitch):
                wg.row(c, x, by, w, self.rows[i], self.value(i), i == self.i, cv.WHITE, font)
        y = top + len(self.rows) * pitch + 3
        if c.visible(x, y, w, foot - y):
            for line in wg.wrap(c, self.note(), w - 6):  # the lines that fit above the foot
                if y + wg.LINE > foot:
                    break
                c.text(x + 3, y, line, cv.SAND)
                y += wg.LINE
        if c.visible(x, foot, w, wg.LINE):
            c.text(x + 3, foot, self.app.keys_help(self.back_label), cv.LIGHT)


class Pause(Menu):
    """During a game: resume, the coach, the score sheet, rules, settings, or leave.
    ``owner`` is the screen paused (the turn, with its cursor and marks), shown on resume."""

    title = "Paused"
    widest = "Players' sheets"

    def __init__(self, app, owner=None):
        self.owner = owner
        Menu.__init__(self, app)

    def resume(self):
        if self.owner is not None:
            self.app.show(self.owner)
        else:
            self.app.resume()

    def items(self):
        return ["Resume", "Coach hint", "Score sheet", "Players' sheets", "Rules card", "Settings",
                "Quit to title"]

    def note(self):
        if self.rows[self.i] == "Quit to title":
            return "The game is saved: continue it later."
        code = self.app.code()
        return "Game code %s: the same dice for whoever plays it." % code if code else ""

    def choose(self, i):
        app = self.app
        r = self.rows[i]
        if r == "Resume":
            self.resume()
        elif r == "Coach hint":
            self.resume()
            if hasattr(app.screen, "hint"):
                app.screen.hint()
        elif r == "Score sheet":
            app.open("info", "Scores", 0, self)
        elif r == "Players' sheets":
            app.open("sheets", "Sheets", self)
        elif r == "Rules card":
            app.open("info", "Rules", self)
        elif r == "Settings":
            app.open("menus", "SettingsMenu", self)
        else:
            app.title_row = "Continue"  # the title's cursor on the game just left
            app.open("menus", "Title")

    def back(self):
        self.resume()
