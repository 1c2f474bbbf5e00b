"""The browser's store (web/webmain.py's WebStore) under the real App, on CPython: the page's
localStorage stood in for by a dict of hex records, its refusals (quota full) by calls to
``failed`` as the page's worker makes them, after the write that was refused."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for _p in (ROOT / "web", ROOT / "firmware", Path(__file__).parent / "mp"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

import ui_autokeys
import ui_scenes
from catan.dice import SeededDice
from catan.players import next_action
from catan.ui.app import HUMAN, App
from catan.ui.dio_canvas import DioCanvas
from catan.ui.records import Stats
from webmain import WebStore


class Page:
    """localStorage ({name: hex}) and the page's answers: it refuses the records named in
    ``refuse`` (each time they come), telling the store after the write, as the worker does."""

    def __init__(self, saves=None):
        self.saves = dict(saves or {})
        self.refuse = set()
        self.refused = []  # names, in the order refused, not yet told to the store
        self.sent = []

    def save(self, name, hex_):
        self.sent.append(name)
        if name in self.refuse:
            self.refused.append(name)
        else:
            self.saves[name] = hex_

    def answer(self, store):
        for name in self.refused:
            store.failed(name, "the browser refused it: QuotaExceededError")
        self.refused = []


def _app(page):
    store = WebStore(dict(page.saves), page)
    app = App(DioCanvas(240, 135), store, roles=ui_scenes.ROLES,
              dice=lambda s: SeededDice(5 if s is None else s))
    app.draw()
    return app


def _at_the_end(page):
    # a solo Island One game one action from its end, in the page's saves; continued, ended
    from catan.ui.app import pack_save
    from store import pack

    g, levels = ui_scenes._almost_over(1, (HUMAN,))
    page.saves["game"] = pack(pack_save(g, levels)).hex()
    app = _app(page)
    ui_autokeys.press(app, "a", app.now + 50)  # Continue
    assert app.perform(next_action(app.game, 1, 0)) is None
    assert type(app.screen).__name__ == "GameOver"
    return app


def test_a_high_score_survives_a_closed_tab_at_the_end_screen():
    page = Page()
    app = _at_the_end(page)
    score = app.game.score(0)
    assert app.screen.pending == [(0, score)]
    again = _app(page)  # the tab is closed (or reloaded) before the initials
    assert again.stats.games[0] == 1 and again.stats.high[0] == [(score, "P1 ")]
    assert not again.has_save()


def test_a_refused_record_is_kept_sent_again_and_named():
    page = Page()
    page.refuse = {"stats"}  # the page refuses the statistics at the game's end
    app = _at_the_end(page)
    score = app.game.score(0)
    page.answer(app.store)
    assert "stats" not in page.saves
    # the player is told which record, at the next write; that write sends it again
    page.refuse = set()
    app.settings.brightness = 5
    app.save_settings()
    assert "stats" in page.saves and page.sent[-2:] == ["stats", "settings"]
    app.draw()
    text = " ".join(app._notes) + " ".join(getattr(app.screen, "text", "").split())
    assert "stats was not saved (the browser refused it: QuotaExceededError)" in text, text
    again = _app(page)  # and the game is in the statistics, with its high score
    assert again.stats.games[0] == 1 and again.stats.high[0] == [(score, "P1 ")]
    assert Stats.load(again.store).games[0] == 1


def test_a_record_refused_again_is_told_once_and_kept_until_stored():
    page = Page()
    page.refuse = {"stats"}
    app = _at_the_end(page)
    for _ in range(3):  # every write sends it again; the player is told once
        page.answer(app.store)
        app.save_settings()
    page.answer(app.store)
    problems = [p for p in app.store.take_problems()]
    told = [n for n in app._notes if n.startswith("stats was")]
    assert len(told) + len(problems) == 1
    assert "stats" not in page.saves and "stats" in app.store.refused
    page.refuse = set()
    app.save_settings()
    assert "stats" in page.saves and not app.store.refused
