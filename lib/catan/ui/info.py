"""Screens that show rather than ask: messages, the hand-over between players, game over,
the score sheet, statistics, high scores, dice fairness and the rules card.

Paged screens turn pages with prev/next (or the joystick) and leave with "back". On a tall
screen (``lay.big``) titles and what a page says are in the large font where they fit (else
the small one), spread over the screen; the key help at the foot stays small.
"""

from catan import const
from catan.maps import AWARD_VP, COSTS, TURNS_ONE, WIN_VP
from catan.ui import canvas as cv
from catan.ui import font_large, sprites
from catan.ui import widgets as wg
from catan.ui.common import MOVES
from catan.ui.records import HIGH

_ISLANDS = const(("One", "Two"))
_BACK = const(("prev", "up", "left"))
_ON = const(("next", "down", "right"))


def turn_page(page, key, first, n):
    """The page after ``key`` (prev/up/left back one, next/down/right on, round pages
    ``first`` .. ``n - 1``), or None if ``key`` turns no page."""
    if key in _BACK:
        return (page - first - 1) % (n - first) + first
    if key in _ON:
        return (page - first + 1) % (n - first) + first
    return None


def _title(c, app, title, colour=cv.SAND, right=0, short=None):
    # A title bar across the screen, in the large font on a tall screen if ``title`` (or
    # else ``short``, the same said shorter) fits beside ``right`` pixels (the game's code);
    # its height and font.
    lay = app.lay
    f = None
    if lay.big:
        for t in (title, short):
            if t and c.text_width(t, font_large) + 8 + right <= lay.width:
                f = font_large
                title = t
                break
    return wg.bar(c, 0, 0, lay.width, title, colour, f), f


def _lines(c, texts, w, f):
    # [(line, colour)] of ``texts`` [(text, colour)] wrapped to ``w`` pixels in font ``f``
    # (the large font's widths are the small one's doubled), a None between two texts
    half = w // 2 if f is font_large else w
    out = []
    for text, colour in texts:
        if out:
            out.append(None)
        for part in text.split("\n"):
            out += [(line, colour) for line in wg.wrap(c, part, half)]
    return out


def _say(c, app, x, y, w, texts, bottom, gap=3):
    # Draw ``texts`` [(text, colour)] wrapped to ``w`` from ``y``, ``gap`` pixels between two:
    # in the large font on a tall screen if all of them fit above ``bottom``, else small; the
    # y after them.
    f = None
    if app.lay.big:
        lines = _lines(c, texts, w, font_large)
        n = len(texts) - 1
        if y + (len(lines) - n) * font_large.LINE + n * gap <= bottom:
            f = font_large
    if f is None:
        lines = _lines(c, texts, w, None)
    pitch = f.LINE if f else wg.LINE
    for line in lines:
        if line is None:
            y += gap
        else:
            c.text(x, y, line[0], line[1], f)
            y += pitch
    return y


class Message:
    """A title and a paragraph; any of ok/back continues to ``then`` (default: the title)."""


    def __init__(self, app, title, text, then=None):
        self.app = app
        self.title = title
        self.text = text
        self.then = then

    def handle(self, key):
        if key in ("ok", "back"):
            if self.then is not None:
                self.app.show(self.then)
            else:
                self.app.open("menus", "Title")

    def paint(self, c):
        lay = self.app.lay
        c.fill_rect(0, 0, lay.width, lay.height, cv.SEA)
        h = _title(c, self.app, self.title, cv.GOLD)[0]
        foot = lay.height - wg.LINE - 1
        _say(c, self.app, 4, h + 4, lay.width - 8, ((self.text, cv.WHITE),), foot - 2)
        c.text(4, foot, self.app.key_name("ok") + ": continue", cv.SAND)


def _summary(c, app, y, w, rank=False, names=None, high=(), bottom=0, label="high score!"):
    # One block per seat: its name, level (or the initials ``names`` gives it) and result
    # (``label`` after it for the seats in ``high``), then its track (Island One) or its
    # VP boxes, road and knights, and the awards it holds (Island Two). On a tall screen the
    # seat's line is in the large font, "high score!" on a line of its own where the line is
    # too long and all the blocks fit above ``bottom``, the blocks further apart and Island
    # Two's road and knights as their symbols with large numbers; the y after them.
    g = app.game
    big = app.lay.big
    two = g.island.number == 2
    order = list(range(g.players))
    if rank:
        order.sort(key=lambda p: -g.result(p) * 100 + p)
    winners = g.winners()
    rows = []  # per seat: its line's parts, its font and whether "high score!" is under it
    need = y
    for p in order:
        if two:
            res = "VP %d" % g.vp(p)
        else:
            s = g.score(p)
            res = "%d point%s" % (s, "" if s == 1 else "s")
        who = names[p] if names and p in names else app.level_name(p)
        f = None
        under = False
        if big:
            line = "%s %s  %s" % (app.seat_name(p), who, res)
            f = font_large
            if p in high and 14 + c.text_width(line + "  " + label, f) > w:
                under = True
            if 14 + c.text_width(line, f) > w:
                f = None
                under = False
        rows.append((p, who, res, f, under))
        need += (f.LINE if f else wg.LINE) + 1 + (font_large.LINE if under else 0) + \
            ((22 if two else 19) if big else 13)
    if bottom and need > bottom:  # no room for "high score!" under the lines: all in one
        rows = [(p, who, res, None if under else f, False) for p, who, res, f, under in rows]
    for p, who, res, f, under in rows:
        colour = cv.GOLD if p in winners else cv.WHITE
        k = 2 if f else 1  # the font's scale
        c.fill_rect(4, y + 2 * k, 6 * k, 6 * k, wg.PLAYER_COLOUR[p])
        pen = c.text(8 + 6 * k, y, app.seat_name(p), colour, f)
        pen = c.text(pen + 4 * k, y, who, cv.GOLD if names and p in names else cv.LIGHT, f)
        pen = c.text(pen + 6 * k, y, res, colour, f)
        if under:
            y += f.LINE
            pen = 8
        if p in high:
            c.text(pen + 6 * k, y, label, cv.GOLD, f)
        y += (f.LINE if f else wg.LINE) + 1
        if not two:
            wg.track(c, 4, y, w - 8, g, p, TURNS_ONE)
            y += 19 if big else 13
            continue
        if big:  # the boxes, then road and knights as symbols with large numbers
            wg.vp_boxes(c, 4, y + 4, 9, g, p)
            x = 9 * WIN_VP + 10
            for spr, n in ((wg.KIND_SPRITE[0], g.road_length(p)),
                           (wg.KIND_SPRITE[3], g.knights(p))):
                c.sprite(x, y + 1, spr, cv.SAND)
                x = c.text(x + 18, y, "%d" % n, cv.SAND, font_large) + 8
            ay = y + 1
        else:
            wg.vp_boxes(c, 4, y, 9, g, p)
            c.text(9 * WIN_VP + 10, y + 1, "road %d  knights %d" % (g.road_length(p),
                                                                   g.knights(p)), cv.SAND)
            ay = y - 8
        ax = w - 38
        for held, spr in ((g.longest == p, sprites.LONGEST_ROAD),
                          (g.largest == p, sprites.LARGEST_ARMY)):
            if held:
                c.sprite(ax, ay, spr, cv.GOLD)
            ax += 18
        y += 22 if big else 13
    return y


class HandOver:
    """Between two people's turns: whose turn it is now, and everyone's standing."""


    def __init__(self, app):
        self.app = app

    def handle(self, key):
        if key == "ok":
            self.app.start_turn()
        elif key in ("back", "menu"):
            self.app.pause()
        elif key in MOVES:
            self.app.open("sheets", "Sheets", self)

    def paint(self, c):
        app = self.app
        lay = app.lay
        g = app.game
        c.fill_rect(0, 0, lay.width, lay.height, cv.SEA)
        p = g.player
        c.fill_rect(0, 0, lay.width, 22, wg.PLAYER_COLOUR[p])
        wg.centred(c, 0, lay.width, 2, "Pass to %s" % app.seat_name(p), cv.BLACK, font_large)
        _summary(c, app, 26, lay.width, bottom=lay.height - wg.LINE - 1)
        c.text(4, lay.height - wg.LINE - 1, "%s: press %s to start, %s: sheets" % (
            app.seat_name(p), app.key_name("ok"), app.moves_name()), cv.SAND)


class GameOver:
    """The ranking (a solo game against the player's record), then for each person a new
    high score's initials, then the coach."""


    def __init__(self, app):
        self.app = app
        self.page = 0  # 0 ranking, 1 coach review
        # seats whose result entered the high-score table (App._record, under the seat's
        # name), their initials still to ask
        self.pending = app.highs
        self.high = tuple(p for p, _ in self.pending)  # seats entering the table
        # the first game of the island enters an empty table: not a feat to hail
        self.first = app.before is not None and not app.before[0]
        self.names = {}  # seat -> the initials entered
        self.review = app.review.worst(3) if app.review is not None else []
        # the coach reviewed the game and found no choice that cost anything
        self.clean = app.review is not None and not self.review
        self.at = 0  # the review's page (a tall screen's large font may need several)
        self.pages = None  # per page of the review, (first, end) of its texts

    def handle(self, key):
        app = self.app
        if key in MOVES and self.page == 0:  # every player's sheet, the winner's first
            app.open("sheets", "Sheets", self, app.game.winners()[0])
            return
        if key != "ok" and key != "back":
            return
        if self.pending:
            p, v = self.pending[0]
            app.open("menus", "TextEntry", self, "%s %s, your initials" % (
                "First game:" if self.first else "High score!", app.seat_name(p)),
                "AAA", 3, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        elif self.review and self.page == 0:
            self.page = 1
            app.refresh_all()
        elif self.page == 1 and self.at + 1 < len(self._pages(app.c)):
            self.at += 1
            app.refresh_all()
        else:
            app.game = None
            app.open("menus", "Title")

    def entered(self, text):
        p, v = self.pending.pop(0)
        self.names[p] = text
        app = self.app
        app.stats.name_high(app.game.island.number, v, app.seat_name(p), text)
        app.wrote(app.stats.save(app), "the high scores")
        return None

    def paint(self, c):
        app = self.app
        lay = app.lay
        g = app.game
        c.fill_rect(0, 0, lay.width, lay.height, cv.SEA)
        foot = lay.height - wg.LINE - 1
        if self.page == 1:
            y = _title(c, app, "Coach: your costliest choices", cv.SKY, 0, "Coach's review")[0] + 3
            pages = self._pages(c)
            first, end = pages[self.at]
            _say(c, app, 4, y, lay.width - 8, self._says()[first:end], foot - 2)
            more = self.at + 1 < len(pages)
            c.text(4, foot, app.key_name("ok") + (": more" if more else ": done"), cv.SAND)
            return
        w = g.winners()
        if g.players == 1:
            if g.island.number == 1:
                head = "Final score %d" % g.score(0)
            else:
                head = "10 VP in %d turns" % g.turns_taken(0)
        else:
            head = " & ".join(app.seat_name(p) for p in w) + (" win!" if len(w) > 1 else " wins!")
        h = _code(c, app, head, cv.GOLD)
        y = _summary(c, app, h + 3, lay.width, True, self.names, self.high,
                     lay.height - 2 * wg.LINE - 1, "first game" if self.first else "high score!") + 2
        foot = lay.height - 2 * wg.LINE - 1
        told = True  # the coach's "no costly choices" found room
        notes = self._notes()
        if lay.big and notes:  # the notes in the large font if all of them fit
            y += 4
            lines = _lines(c, notes, lay.width - 8, font_large)
            if y + (len(lines) - len(notes) + 1) * font_large.LINE <= foot:
                for line in lines:
                    if line is not None:
                        c.text(4, y, line[0], line[1], font_large)
                        y += font_large.LINE
                notes = ()
        for text, colour in notes:
            for line in wg.wrap(c, text, lay.width - 8):
                if y + wg.LINE > foot:
                    told = False
                    break
                c.text(4, y, line, colour)
                y += wg.LINE
        c.text(4, foot, app.moves_name() + ": every player's sheet", cv.SAND)
        if self.pending:
            more = "enter your initials" + (", then the coach's review" if self.review else "")
        else:
            more = "the coach's review" if self.review else "continue"
            if self.clean and not told:
                more += " (coach: no costly choices)"
        c.text(4, lay.height - wg.LINE - 1, "%s: %s" % (app.key_name("ok"), more), cv.SAND)

    def _says(self):
        # the review's texts: what it counts, then each choice
        from catan.ui.turn import describe, tenths as _num

        g = self.app.game
        says = [("Expected points each choice lost against the coach's:", cv.SAND)]
        for turn, action, loss, advice in self.review:
            says.append(("Turn %d, -%s: you chose to %s; the coach would %s." % (
                turn + 1, _num(loss), _plain(describe(g, action)),
                _plain(describe(g, advice))), cv.WHITE))
        return says

    def _pages(self, c):
        # The review's pages: all on one where it fits (the small font where the large one
        # does not); on a tall screen, where the large font needs more, as many texts a page
        # as fit it in the large font.
        if self.pages is None:
            app = self.app
            lay = app.lay
            says = self._says()
            self.pages = [(0, len(says))]
            if lay.big:
                top = font_large.HEIGHT + 7
                room = lay.height - wg.LINE - 3 - top
                need = [len(_lines(c, (t,), lay.width - 8, font_large)) * font_large.LINE + 3
                        for t in says]
                if sum(need) - 3 > room and max(need) - 3 <= room:
                    self.pages = []
                    first = 0
                    used = 0
                    for i in range(len(says)):
                        if used and used + need[i] - 3 > room:
                            self.pages.append((first, i))
                            first = i
                            used = 0
                        used += need[i]
                    self.pages.append((first, len(says)))
        return self.pages

    def _notes(self):
        # Lines under the ranking: a solo game against the player's record as it stood before
        # it (average and best), and the coach's verdict when it found nothing to review.
        app = self.app
        g = app.game
        out = []
        if g.players == 1 and app.before is not None:
            games, total, best, wins = app.before
            if g.island.number == 1:
                s = g.score(0)
                if not games:
                    out.append(("Your first game on Island One: a score to beat next time.",
                                cv.WHITE))
                else:
                    out.append(("Your average %s over %s, best %d." % (
                        _avg(total, games), wg.count(games, "game", "games"), best), cv.WHITE))
                    out.append(_against(s * games - total, games, s > best, "%s %s your average."))
            elif g.winner == 0:
                t = g.turns_taken(0)
                if not wins:
                    out.append(("Your first race won: turns to beat next time.", cv.WHITE))
                else:
                    out.append(("Your wins took %s turns on average, %d at best." % (
                        _avg(total, wins), best), cv.WHITE))
                    out.append(_against(total - t * wins, wins, t < best,
                                        "%s turns %s your average.", ("faster than", "slower than")))
        if self.clean:
            out.append(("Coach: no costly choices this game.", cv.SKY))
        return out


class Scores:
    """Pages: 0 this game's score sheet, 1 Island One stats, 2 Island Two stats, 3 high
    scores, 4 dice fairness. The sheet page exists only during a game."""


    def __init__(self, app, page, owner=None):
        self.app = app
        self.page = page
        self.owner = owner  # the screen to return to, or None: the title
        self.first = 0 if app.game is not None and page == 0 else 1

    def handle(self, key):
        _paged(self, key, self.first, 5)

    def paint(self, c):
        lay = self.app.lay
        c.fill_rect(0, 0, lay.width, lay.height, cv.SEA)
        (self._sheet, self._stats, self._stats, self._high, self._dice)[self.page](c)
        c.text(4, lay.height - wg.LINE - 1, "X/Y: page  %s: back" % self.app.key_name("ok"),
               cv.LIGHT)

    def _sheet(self, c):
        app = self.app
        g = app.game
        lay = app.lay
        isl = g.island.number
        title = "Island %s, turn %d" % (_ISLANDS[isl - 1], g.turns[g.player] + 1)
        _summary(c, app, _code(c, app, title) + 3, lay.width, bottom=lay.height - wg.LINE - 1)

    def _stats(self, c):
        st = self.app.stats
        lay = self.app.lay
        k = self.page - 1
        h = _title(c, self.app, "Statistics: Island %s" % _ISLANDS[k])[0]
        games = st.games[k]
        if k == 0:
            avg = _avg(st.total[0], games)
            line = "%s, average %s, best %s, %s with an X" % (
                wg.count(games, "game", "games"), avg,
                "-" if not games else "%d" % st.best[0], wg.count(st.extra[0], "turn", "turns"))
            axis = ("0", "70", "130+")
        else:
            won = st.extra[1]
            line = "%s, %d won, average %s turns, best %s" % (
                wg.count(games, "game", "games"), won, _avg(st.total[1], won),
                "-" if not won else "%d" % st.best[1])
            axis = ("7", "14", "20+")
        y = _say(c, self.app, 4, h + 3, lay.width - 8, ((line, cv.WHITE),),
                 lay.height // 2) + 2
        _bars(c, 4, y, lay.width - 8, lay.height - y - 2 * wg.LINE - 4, st.hist[k], cv.GOLD)
        base = lay.height - 2 * wg.LINE - 1
        c.text(4, base, axis[0], cv.SAND)
        wg.centred(c, 0, lay.width, base, axis[1], cv.SAND)
        c.text(lay.width - 4 - c.text_width(axis[2]), base, axis[2], cv.SAND)

    def _high(self, c):
        st = self.app.stats
        lay = self.app.lay
        top = _title(c, self.app, "High scores")[0] + 3
        half = lay.width // 2
        # the rows in the large font on a tall screen where the widest fits its column
        f = font_large if lay.big and c.text_width("5. MMM  99", font_large) <= half - 8 else None
        pitch = f.LINE + 6 if f else wg.LINE + 1
        for k in range(2):
            x = 4 + k * half
            y = top
            c.text(x, y, "Island %s" % _ISLANDS[k] + ("" if k == 0 else " (turns)"), cv.GOLD)
            y += wg.LINE + (8 if f else 2)
            h = st.high[k]
            for i in range(HIGH):
                if i < len(h):
                    c.text(x, y, "%d. %s  %d" % (i + 1, h[i][1], h[i][0]), cv.WHITE, f)
                else:
                    c.text(x, y, "%d. -" % (i + 1), cv.LIGHT, f)
                y += pitch

    def _dice(self, c):
        st = self.app.stats
        lay = self.app.lay
        d = st.dice
        total = sum(d)
        top = _title(c, self.app, "Dice fairness: %d rolled" % total, cv.SAND, 0,
                     "Dice: %d rolled" % total)[0] + 4
        # the verdict under the bars: in the large font on a tall screen, in up to 3 lines
        verdict = _verdict(d)
        vf = font_large if lay.big else None
        lines = _lines(c, ((verdict, cv.SAND),), lay.width - 8, vf)
        if vf and len(lines) > 3:
            vf = None
            lines = _lines(c, ((verdict, cv.SAND),), lay.width - 8, vf)
        vh = len(lines) * vf.LINE + 2 if vf else wg.LINE  # (the small verdict: one line)
        bottom = lay.height - 2 * wg.LINE - 4 - vh
        most = max(d) or 1
        step = (lay.width - 8) // 6
        for f in range(6):
            x = 4 + f * step
            h = (bottom - top - 18) * d[f] // most
            c.fill_rect(x + 2, bottom - 18 - h, step - 6, h, wg.FACE_COLOUR[f])
            wg.die(c, x + (step - 20) // 2, bottom - 17, f, wg.DIE_FACE)
            pct = "-" if not total else "%d.%d%%" % (1000 * d[f] // total // 10,
                                                      1000 * d[f] // total % 10)
            wg.centred(c, x, step - 2, bottom + 3, pct, cv.WHITE)
        y = bottom + 3 + wg.LINE
        for line in lines:
            c.text(4, y, line[0], line[1], vf)
            y += vf.LINE if vf else wg.LINE


def _against(diff, n, new_best, form, words=("above", "below")):
    # A result against an average: ``diff / n`` to one decimal, better (positive) or worse.
    if new_best:
        return ("A new best!", cv.GOLD)
    d = _avg(diff, n)
    if d == "0.0":
        return ("Right on your average.", cv.WHITE)
    if d[0] == "-":
        return (form % (d[1:], words[1]), cv.LIGHT)
    return (form % (d, words[0]), cv.GOLD)


def _plain(phrase):
    # "re-rolls 2 dice" -> "re-roll 2 dice": the coach's phrases (``turn.describe``) begin
    # with a verb in its "-s" form
    head, sep, rest = phrase.partition(" ")
    return (head[:-1] if head[-1:] == "s" else head) + sep + rest


def _paged(screen, key, first, n):
    # A paged screen's keys: turn its page (pages ``first`` .. ``n - 1``), or leave it
    page = turn_page(screen.page, key, first, n)
    if page is not None:
        screen.page = page
        screen.app.refresh_all()
    elif key in ("ok", "back"):
        _leave(screen.app, screen.owner)


def _leave(app, owner):
    if owner is not None:
        app.show(owner)
    else:
        app.open("menus", "Title")


def _code(c, app, title, colour=cv.SAND):
    # The title bar with the game's code at its right, to share (the same dice for whoever
    # plays it): on a tall screen the title in the large font if it fits beside the code in
    # the small one, the code large too if that fits as well; the bar's height.
    code = app.code()
    w = app.lay.width
    h, f = _title(c, app, title, colour, c.text_width(code) + 8 if code else 0)
    if code:
        if f and c.text_width(title, f) + c.text_width(code, f) + 16 > w:
            f = None
        c.text(w - 4 - c.text_width(code, f), 2 if f else (h - 9) // 2, code, cv.SAND, f)
    return h


def _avg(total, n):
    if not n:
        return "-"
    # to one decimal, halves away from zero, the sign apart (floor division would take
    # -12.5 to -13.5)
    v = (10 * abs(total) + n // 2) // n
    return "%s%d.%d" % ("-" if total < 0 and v else "", v // 10, v % 10)


def _bars(c, x, y, w, h, counts, colour):
    # A bar chart of ``counts`` filling the box, one bar per count.
    most = max(counts) or 1
    n = len(counts)
    bw = w // n
    c.hline(x, y + h, bw * n, cv.SAND)
    for i in range(n):
        bh = (h - 1) * counts[i] // most
        if bh:
            c.fill_rect(x + i * bw + 1, y + h - bh, bw - 2, bh, colour)


def _verdict(d):
    # Pearson's chi-squared test of six equally likely faces (5 degrees of freedom).
    n = sum(d)
    if n < 60:
        return "Too few rolls yet to judge (60 needed)."
    chi = 0
    for k in d:
        chi += (6 * k - n) * (6 * k - n)
    chi = chi / (6 * n)  # sum((k - n/6)^2 / (n/6))
    tenths = int(chi * 10 + 0.5)
    text = "chi2 = %d.%d: " % (tenths // 10, tenths % 10)
    if chi < 11.07:  # the 95 % point of chi-squared with 5 degrees of freedom
        return text + "as even as fair dice."
    if chi < 15.09:  # the 99 % point
        return text + "a little uneven, still plausible."
    return text + "uneven: fair dice rarely do this."


def _rules(k):
    # the text of the rules card's part ``k`` (1 to 3)
    return (
        None,
        "Island One: 15 turns. Roll 6 dice up to 3 times, keeping any. Build in "
        "ascending order: settlements 3 4 5 7 9 11, cities 7 12 20 30, knights 1-6, "
        "roads 1 point each. A turn with no build scores X (-2). Each knight unlocks a "
        "joker, used once. 2 gold = 1 resource.",
        "Island Two: first to %d VP wins. Settlement 1, city 2 VP, any order. The grey "
        "road takes Longest Road (+%d), 3 knights Largest Army (+%d); a longer road or "
        "more knights takes it over. Dice ramp 3, 4, 5, then 6. Deserts need 2 knights."
        " The coach counts turns to 10 VP: a race against the clock, not the others."
        % (WIN_VP, AWARD_VP, AWARD_VP),
        "Keys: X/Y or the stick move, A chooses, B goes back or pauses. Hold Y for a "
        "coach hint, hold X for the players' sheets. A marks dice to re-roll; Keep ends "
        "rolling. Undo takes back a build, never a roll.\nEvery seat throws the same dice "
        "in a turn, and the hard computer plays as the coach advises: follow the coach and "
        "you tie with it.",
    )[k]


def _pages(c, text, w, room):
    # ``text`` in the large font wrapped to ``w`` pixels, as pages of at most ``room`` lines
    # [(line, colour)], each ending at the end of a sentence, the one nearest an even share
    # of the lines left (a sentence longer than a page is cut where the page is full)
    out = []
    while text:
        lines = _lines(c, ((text, cv.WHITE),), w, font_large)
        if len(lines) <= room:
            out.append(lines)
            break
        share = -(-len(lines) // -(-len(lines) // room))  # the lines of an even page
        best = end = -1
        best_lines = 0
        for i in range(room):  # the sentence ends on the page's lines: the nearest the share
            start = text.find(lines[i][0], end + 1)
            end = start + len(lines[i][0])
            cut = end - 1 if text[end - 1] == "." else text.rfind(". ", start, end)
            if cut >= 0 and (best < 0 or abs(i + 1 - share) <= abs(best_lines - share)):
                best = cut
                best_lines = i + 1
        if best < 0:
            out.append(lines[:room])
            text = text[end + 1:]
        else:
            out.append(_lines(c, ((text[:best + 1], cv.WHITE),), w, font_large))
            text = text[best + 2:]
    return out


class Rules:
    """The rules card: costs, then each island's scoring, then the keys. On a tall screen
    the text is in the large font, a part that needs more lines than a page holds going on
    over the next page at the end of a sentence (so there are more pages than the card's 4
    parts)."""


    def __init__(self, app, owner=None):
        self.app = app
        self.page = 0
        self.owner = owner
        # per page: (part, first line); and on a tall screen (part, page), each part's
        # pages of large lines
        self.pages = [(0, 0)]
        self.lines = None
        lay = app.lay
        if lay.big:
            room = (lay.height - wg.LINE - 3 - font_large.HEIGHT - 7) // font_large.LINE
            self.lines = [None]
            for k in (1, 2, 3):
                pages = _pages(app.c, _rules(k), lay.width - 8, room)
                self.lines.append(pages)
                self.pages += [(k, i) for i in range(len(pages))]
        else:
            self.pages += [(1, 0), (2, 0), (3, 0)]

    def handle(self, key):
        _paged(self, key, 0, len(self.pages))

    def paint(self, c):
        lay = self.app.lay
        c.fill_rect(0, 0, lay.width, lay.height, cv.SEA)
        w = lay.width
        app = self.app
        foot = lay.height - wg.LINE - 3
        part, first = self.pages[self.page]
        if part == 0:
            y = _title(c, app, "Rules: building costs")[0] + 3
            names = ("Road", "Settlement", "City", "Knight")
            # a tall screen: the names large, the costs beside them where they fit (five dice
            # after the widest name), else under them, the rows spread over the screen
            f = font_large if lay.big else None
            x0 = 90
            gap = 3
            if f:
                x0 = 32 + c.text_width("Settlement", f)
                under = x0 + 5 * 20 > w
                if under:
                    x0 = 24
                gap = 5 if under else 12
            for kind in range(4):
                c.fill_rect(3, y, 18, 18, cv.DEEP)
                c.sprite(4, y + 1, wg.KIND_SPRITE[kind], cv.WHITE)
                c.text(24, y + (0 if f else 5), names[kind], cv.WHITE, f)
                if f and under:
                    y += 20
                x = x0
                cost = COSTS[kind]
                for r in range(5):
                    for _ in range(cost[r]):
                        wg.die(c, x, y, r, wg.DIE_FACE)
                        x += 20
                y += 18 + gap
            _say(c, app, 4, y + 1, w - 8, (("Every seat throws the same dice in a turn.",
                                            cv.SAND),), foot)
            self._foot(c)
            return
        titles = (None, "Rules: Island One", "Rules: Island Two", "Rules: keys")
        y = _title(c, app, titles[part])[0] + 3
        if self.lines is None:
            wg.paragraph(c, 4, y, w - 8, _rules(part), cv.WHITE)
        else:
            for line in self.lines[part][first]:
                c.text(4, y, line[0], line[1], font_large)
                y += font_large.LINE
        self._foot(c)

    def _foot(self, c):
        app = self.app
        c.text(4, app.lay.height - wg.LINE - 1, "page %d/%d  %s: page  %s: back" % (
            self.page + 1, len(self.pages), app.moves_name(), app.key_name("ok")), cv.LIGHT)

