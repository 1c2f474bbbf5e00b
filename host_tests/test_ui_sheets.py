"""Every player's sheet, read-only, and what the computers did (issue 12): the sheets screen
opened from the turn screen, the pause menu, the hand-over and the end of a game changes
nothing and returns where it came from; the line a person sees at the start of a turn says
exactly what each computer built since, with its points."""

import os
import sys
from pathlib import Path

MP_DIR = Path(__file__).parent / "mp"
if str(MP_DIR) not in sys.path:
    sys.path.insert(0, str(MP_DIR))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pytest
import ui_autokeys
import ui_scenes
from catan.codec import dumps
from catan.dice import SeededDice
from catan.game import BUILD, OP_BUILD, ROLL, Game
from catan.players import next_action
from catan.ui import canvas as cv
from catan.ui import sheet
from catan.ui import widgets as wg
from catan.ui import turn as tn
from catan.ui.app import HUMAN, App
from catan.ui.dio_canvas import DioCanvas


def _app(make, go=True):
    # the app on a saved game, on the title menu or (``go``) continuing it
    app = App(DioCanvas(240, 135), ui_scenes.MemStore(ui_scenes._game_store(make)),
              roles=ui_scenes.ROLES, dice=lambda s: SeededDice(5 if s is None else s))
    app.draw()
    if go:
        _keys(app, "a")  # Continue
    return app


def _keys(app, keys):
    for k in keys.split(","):
        ui_autokeys.press(app, k, app.now + 50)


def _screen(app):
    return type(app.screen).__name__


def _drawn_seats(app, monkeypatch):
    # the seat whose map the screen paints, by a full repaint
    seats = []
    real = sheet.draw

    def draw(c, lay, g, p, *args):
        seats.append(p)
        return real(c, lay, g, p, *args)

    monkeypatch.setattr(sheet, "draw", draw)
    app.refresh_all()
    app.draw()
    monkeypatch.setattr(sheet, "draw", real)
    return seats


def _finish_computers(app):
    while _screen(app) == "Turn" and app.screen.level is not None:
        _keys(app, "b")  # any key finishes a computer's turn


def test_the_sheets_show_each_seat_and_change_nothing(monkeypatch):
    app = _app(lambda: ui_scenes._played(1, (HUMAN, 1, 2), 3))
    g = app.game
    _keys(app, "a")  # roll
    while g.phase != BUILD:
        _keys(app, "y")
        if app.screen.cursor == tn.KEEP_B:
            _keys(app, "a")
    turn = app.screen
    _keys(app, "y")
    state = (dumps(g), bytes(g.log), turn.cursor, turn.marks, turn.mode, app.store.read("game"),
             list(app.last_turns))
    _keys(app, "x_long")
    assert _screen(app) == "Sheets" and app.screen.seat == 1  # the next seat's first
    seen = []
    for key in ("y", "y", "y", "x", "down", "left"):
        _keys(app, key)
        seen += _drawn_seats(app, monkeypatch)
    assert seen == [2, 0, 1, 0, 1, 0]
    _keys(app, "b")
    assert app.screen is turn
    _keys(app, "b,y,y,y,a")  # the pause menu's "Players' sheets"
    assert _screen(app) == "Sheets"
    _keys(app, "a")
    assert _screen(app) == "Pause"
    _keys(app, "b")
    assert app.screen is turn
    assert (dumps(g), bytes(g.log), turn.cursor, turn.marks, turn.mode, app.store.read("game"),
            list(app.last_turns)) == state
    _keys(app, "y_long")  # a long Y is still the coach
    assert turn.msg.startswith("Coach:")


def _expected(g, q, built):
    isl = g.island
    names = " ".join(isl.name(i) for i in sorted(built)) or "nothing built"
    if isl.number == 2:
        return "P%d VP %d: %s" % (q + 1, g.vp(q), names)
    pts = sum(isl.value(i) for i in built)
    return "P%d %s: %s" % (q + 1, "+%d" % pts if built else "X", names)


@pytest.mark.parametrize("island,levels", [(1, (HUMAN, 1)), (2, (2, HUMAN, 0))])
def test_the_turn_screen_says_what_each_computer_built(island, levels, monkeypatch):
    # The builds each computer made, as the app carried them out, against the lines the
    # person reads before rolling.
    app = _app(lambda: (Game(island, len(levels), SeededDice(3)), levels), go=False)
    g = app.game
    person = levels.index(HUMAN)
    built = {}
    real = app.perform

    def perform(action):
        if action[0] == "roll" and g.phase == ROLL:
            built[g.player] = []
        why = real(action)
        if why is None and action[0] == "build":
            built[g.player].append(action[1])
        if why is None and action[0] == "undo":
            built[g.player].pop()
        return why

    monkeypatch.setattr(app, "perform", perform)
    _keys(app, "a")  # Continue
    checked = 0
    while not g.over() and g.turns[person] < 8:
        _finish_computers(app)
        if _screen(app) != "Turn":
            break
        s = app.screen
        assert g.player == person and g.phase == ROLL
        want = [(_expected(g, q, built[q]), wg.PLAYER_COLOUR[q]) for q in app.computers()
                if q in built]
        assert s._info() == (want or [("Roll all %d dice." % g.dice_count(), cv.WHITE)])
        # each on one line, all shown (then, where the panel has no foot, the key help)
        assert [ln for ln in s._lines() if ln[0] and ln[0] != s._keys(app.c)] == s._info()
        checked += len(want)
        while g.player == person and not g.over():  # the person plays by keys
            for key in ui_autokeys.next_keys(app, next_action(g, 0, person)):
                _keys(app, key)
    assert checked >= 6


def test_the_winning_turn_is_the_last_turn_at_the_end_of_island_two():
    app = _app(lambda: ui_scenes._almost_over(2, (1, 2, 0)))
    g = app.game
    w = g.player
    _finish_computers(app)
    assert _screen(app) == "GameOver" and g.winner == w and g.log[-2] == OP_BUILD
    assert g.island.name(g.log[-1]) in app.turn_note(w).split(": ")[1].split()
    rec = app.last_turns[w]
    assert isinstance(rec, bytes) and len(rec) <= 1 + 6 + 3  # dice, faces, builds


def test_hand_over_and_game_over_open_the_sheets_and_come_back(monkeypatch):
    app = _app(lambda: ui_scenes._played(1, (HUMAN, HUMAN, 1), 2))
    assert _screen(app) == "HandOver"
    hand = app.screen
    _keys(app, "x")
    assert _screen(app) == "Sheets" and _drawn_seats(app, monkeypatch) == [1]
    _keys(app, "b")
    assert app.screen is hand
    app = _app(lambda: ui_scenes._almost_over(1, (HUMAN, 2)))
    _finish_computers(app)
    over = app.screen
    assert _screen(app) == "GameOver"
    _keys(app, "y")
    assert _screen(app) == "Sheets" and app.screen.seat == app.game.winners()[0]
    _keys(app, "a")
    assert app.screen is over
