"""The screens that show rather than ask (ui/info.py) use a tall screen's room: on 240x240 and
320x240 their titles and what they say are in the large font where it fits, spread over the
screen; on 240x135 they stay in the small font (docs/screens/240x135 is unchanged). Their
pages turn the same way, one routine for both paged screens.
"""

import sys
from pathlib import Path

import pytest

MP_DIR = Path(__file__).parent / "mp"
if str(MP_DIR) not in sys.path:
    sys.path.insert(0, str(MP_DIR))

import ui_scenes
from catan.ui import font_large, font_small
from catan.ui.canvas import Canvas

LAYOUTS = [(240, 135), (240, 240), (320, 240)]

# every scene of an info.py screen, and the tall layouts where what it says fits in the large
# font (the rules card and the coach's review going on over more pages where they need them)
BOTH = ("240x240", "320x240")
INFO = (("rules_costs", BOTH), ("rules_island_one", BOTH), ("rules_island_two", BOTH),
        ("rules_keys", BOTH), ("hand_over", BOTH),
        ("game_over_one", BOTH), ("game_over_two", BOTH), ("game_over_solo", BOTH),
        ("game_over_solo_two", BOTH), ("game_over_clean", BOTH), ("game_over_initials", BOTH),
        ("coach_review", BOTH), ("stats_one", BOTH), ("stats_two", BOTH), ("high_scores", BOTH),
        ("dice_fairness", BOTH), ("sheet_island_one", BOTH), ("sheet_island_two", BOTH),
        ("storage_problem", BOTH))


class Texts(Canvas):
    """A canvas that draws nothing and keeps every line of text: (x, y, w, h, line)."""

    def __init__(self, w, h):
        Canvas.__init__(self, w, h)
        self.texts = []

    def _fill(self, x, y, w, h, c):
        pass

    def get_pixel(self, x, y):
        return 0

    def text(self, x, y, s, c, font=None):
        f = font or self.font
        for k, line in enumerate(s.split("\n")):
            if line.strip():
                self.texts.append((x, y + k * f.LINE, self.text_width(line, font), f.HEIGHT,
                                   line))
        return Canvas.text(self, x, y, s, c, font)


def _texts(name, w, h):
    c = Texts(w, h)
    app = ui_scenes.run(name, c)
    c.texts = []
    ui_scenes.repaint(app, c)
    return app, c, c.texts


@pytest.mark.parametrize("w,h", LAYOUTS, ids=["%dx%d" % s for s in LAYOUTS])
def test_a_tall_screen_s_info_pages_use_the_large_font(w, h):
    # The title (the first text, at the top) in the large font on a 240-px screen where it
    # fits (beside the game's code in the small font), and where it fits, most of what the
    # page says (by characters of its words: the runs with a space, not a track's numbers;
    # above the key help at the foot); everything small on 240x135 as it was (the
    # hand-over's title has always been large)
    tall = h >= 200
    bad = []
    for name, fits in INFO:
        app, c, texts = _texts(name, w, h)
        title = min(texts, key=lambda t: (t[1], t[0]))
        code = app.code() if app.game is not None else ""
        shown = code and any(t[4] == code and t[1] < title[1] + title[3] for t in texts)
        room = w - 8 - (c.text_width(code) + 8 if shown else 0)
        # (a title too long for it said shorter: "Coach's review", "Dice: 2432 rolled")
        large = tall and (c.text_width(title[4], font_large) <= room or name in
                          ("coach_review", "dice_fairness"))
        if (tall or name != "hand_over") and \
                title[3] != (font_large.HEIGHT if large else font_small.HEIGHT):
            bad.append("%s: title %r" % (name, title))
        foot = h - 2 * (font_small.LINE + 1)
        body = [t for t in texts if t[1] < foot and t[1] > title[1] + 9 and " " in t[4]]
        big = [t for t in body if t[3] == font_large.HEIGHT]
        if not tall and big:
            bad.append("%s: large on 240x135 %r" % (name, big))
        chars = sum(len(t[4]) for t in body)
        if "%dx%d" % (w, h) in fits and 2 * sum(len(t[4]) for t in big) <= chars:
            bad.append("%s: mostly small %r" % (name, [t for t in body if t not in big]))
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("w,h", LAYOUTS[1:], ids=["%dx%d" % s for s in LAYOUTS[1:]])
def test_a_tall_screen_s_info_pages_fill_it(w, h):
    # a page that says a lot in the large font reaches into the lower half of the screen
    # (not its top corner), and no line runs past the right edge
    bad = []
    for name, fits in INFO:
        app, c, texts = _texts(name, w, h)
        foot = h - 2 * (font_small.LINE + 1)
        body = [t for t in texts if t[1] < foot]
        if name in ("rules_island_one", "rules_island_two", "game_over_two", "high_scores",
                    "coach_review") and "%dx%d" % (w, h) in fits:
            low = max(t[1] + t[3] for t in body)
            if low < h // 2:
                bad.append("%s: ends at y %d" % (name, low))
        bad += ["%s: %r past the edge" % (name, t) for t in texts if t[0] + t[2] > w]
    assert not bad, "\n".join(bad)


def test_both_paged_screens_turn_pages_with_one_routine():
    # Scores and Rules: prev/up/left back a page, next/down/right on, wrapping round; the
    # score sheet's page only during a game (Scores.first)
    from catan.ui import info

    from catan.ui.layout import Layout

    class App:
        game = None
        c = Texts(240, 135)
        lay = Layout(240, 135)

        def refresh_all(self):
            pass

    app = App()
    r = info.Rules(app)
    s = info.Scores(app, 1)
    seen_r = []
    seen_s = []
    for key in ("prev", "up", "left", "next", "down", "right", "next", "next"):
        r.handle(key)
        s.handle(key)
        seen_r.append(r.page)
        seen_s.append(s.page)
    assert seen_r == [3, 2, 1, 2, 3, 0, 1, 2]
    assert seen_s == [4, 3, 2, 3, 4, 1, 2, 3]
    assert info.Rules.handle is not info.Scores.handle
    assert info.turn_page(0, "left", 0, 4) == 3 and info.turn_page(4, "right", 1, 5) == 1
    assert info.turn_page(2, "ok", 0, 4) is None


@pytest.mark.parametrize("w,h", LAYOUTS, ids=["%dx%d" % s for s in LAYOUTS])
def test_the_rules_pages_say_all_of_the_card(w, h):
    # On a tall screen the rules in the large font go on over as many pages as they need:
    # read page after page, every word of the card is shown once, in order, none past the
    # foot, each page ending at a sentence's end and holding at least half as many lines as
    # its part's fullest page (no page of a word or two); on 240x135 the card keeps its 4
    # pages
    from catan.ui import info
    from catan.ui.layout import Layout

    class App:
        game = None
        c = Texts(w, h)
        lay = Layout(w, h)

        def refresh_all(self):
            pass

        def moves_name(self):
            return "X/Y"

        def key_name(self, key):
            return "A"

    app = App()
    r = info.Rules(app)
    n = len(r.pages)
    assert n == 4 if h < 200 else n > 4
    words = []
    counts = {}  # part -> its pages' lines
    for page in range(1, n):
        r.page = page
        app.c.texts = []
        r.paint(app.c)
        body = [t for t in app.c.texts[1:-1]]  # between the title and the foot
        assert body and all(t[1] + t[3] <= h - font_small.LINE - 2 for t in body), body
        assert all(t[3] == (font_large.HEIGHT if h >= 200 else font_small.HEIGHT)
                   for t in body), body
        words += " ".join(t[4] for t in body).split()
        counts.setdefault(r.pages[page][0], []).append(len(body))
        assert body[-1][4].endswith("."), body
    assert all(2 * min(v) >= max(v) for v in counts.values()), counts
    assert app.c.texts[-1][4].startswith("page %d/%d" % (n, n))
    want = " ".join(info._rules(k) for k in (1, 2, 3)).split()
    assert words == want


@pytest.mark.parametrize("w,h", LAYOUTS, ids=["%dx%d" % s for s in LAYOUTS])
def test_the_coach_s_review_says_every_choice(w, h):
    # The review's choices in the large font on a tall screen, as many a page as fit, ok
    # turning to the next until the last, whose ok ends the game (to the title); on 240x135
    # all on one page as before. Read page after page, the words are those of the one page
    # of 240x135.
    def pages(w, h):
        app, c, texts = _texts("coach_review", w, h)
        out = []
        while type(app.screen).__name__ == "GameOver":
            assert app.screen.page == 1
            c.texts = []
            ui_scenes.repaint(app, c)
            body = c.texts[1:-1]  # between the title and the foot
            assert body and all(t[1] + t[3] <= h - font_small.LINE - 2 for t in body), body
            out.append((body, c.texts[-1][4]))
            app.handle("a")  # ok
            app.tick(10 ** 6)
            assert len(out) < 9
        assert type(app.screen).__name__ == "Title"
        return out

    want = [t[4] for body, _ in pages(240, 135) for t in body]
    got = pages(w, h)
    assert " ".join(t[4] for body, _ in got for t in body).split() == " ".join(want).split()
    if h >= 200:
        assert all(t[3] == font_large.HEIGHT for body, _ in got for t in body)
        assert [foot.endswith("more") for _, foot in got] == [True] * (len(got) - 1) + [False]
    assert len(got) == (1 if h < 200 else len(got))
