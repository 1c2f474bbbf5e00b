"""Every memory plan (``catan.ui.memory``) on the host: the game UF2's (``ROOMY``), a stock Pico's
(``TIGHT``) and a stock Pico W's (``SMALL``).

Under each plan: whole games by keys and every screen scene, with its residency rules checked
after every key (no module of the game is ever imported a second time while a copy of it lives:
``one_copy``); and a ``MemoryError`` injected at each place the game can meet one, in turn,
ending in the plan's documented answer (a write not saved and said, a screen at the next tick or
the turn screen saying so, a computer's move by the level below, a hint that says why not, work
ahead dropped, a review stopped and said), never an escape from ``App.handle`` or ``App.tick``
and never silence. The defects that led to the plan each have a test here.
"""

import os
import sys
import types
from pathlib import Path

import pytest

MP_DIR = Path(__file__).parent / "mp"
if str(MP_DIR) not in sys.path:
    sys.path.insert(0, str(MP_DIR))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import ui_autokeys
import ui_scenes

import catan
from catan.codec import dumps
from catan.dice import SeededDice
from catan.ui.app import HUMAN, NO_ROOM, App
from catan.ui.dio_canvas import DioCanvas
from catan.ui.memory import ROOMY, SMALL, TIGHT, MemoryPlan
from catan.ui.records import Settings, Stats

ALL = (ROOMY, TIGHT, SMALL)
REGIMES = ("roomy", "tight", "small")  # the ids of ALL


@pytest.fixture
def modules():
    """sys.modules and the catan package as they were (the plans let modules go and import them
    again; the other tests keep the modules they imported)."""
    saved = {k: v for k, v in sys.modules.items() if k.startswith(("catan.players", "catan.ui."))}
    attrs = [(sys.modules[k.rpartition(".")[0]], k.rpartition(".")[2], v) for k, v in saved.items()]
    tables = list(catan.TABLES)
    yield
    catan.TABLES[:] = tables
    for k in [k for k in sys.modules if k.startswith(("catan.players", "catan.ui."))]:
        del sys.modules[k]
    sys.modules.update(saved)
    for package, name, module in attrs:
        setattr(package, name, module)


def _app(store=None, regime=ROOMY, dice=5):
    app = App(DioCanvas(240, 135), store or ui_scenes.MemStore(), roles=ui_scenes.ROLES,
              dice=lambda s: SeededDice(dice if s is None else s), plan=MemoryPlan(regime))
    app.draw()
    return app


def _screens(app):
    # The screens reachable from the one shown (the plan's view: any attribute that is a screen).
    out = [app.screen]
    k = 0
    while k < len(out):
        for v in vars(out[k]).values():
            if hasattr(v, "paint") and hasattr(v, "handle") and not any(v is s for s in out):
                out.append(v)
        k += 1
    return out


def one_copy(app):
    """Fail if a module of the game's screens lives twice: a class of a loaded module, or of a
    live screen, that is not the one its module now holds (a module forgotten while something
    of it lived, then imported again beside it)."""
    for name, mod in list(sys.modules.items()):
        if not name.startswith("catan.ui.") or mod is None:
            continue
        for v in vars(mod).values():
            if isinstance(v, types.ModuleType) and v.__name__.startswith("catan.ui."):
                assert sys.modules.get(v.__name__, v) is v, "%s holds a second copy of %s" % (
                    name, v.__name__)
            elif isinstance(v, type) and v.__module__.startswith("catan.ui."):
                home = sys.modules.get(v.__module__)
                assert home is None or getattr(home, v.__name__, v) is v, \
                    "%s holds %s of a second copy of %s" % (name, v.__name__, v.__module__)
    for s in _screens(app):
        cls = type(s)
        home = sys.modules.get(cls.__module__)
        assert home is None or getattr(home, cls.__name__) is cls, \
            "a live %s of a forgotten copy of %s" % (cls.__name__, cls.__module__)


# ------------------------------------------------------------------ every plan, whole games


@pytest.mark.parametrize("regime", ALL, ids=REGIMES)
@pytest.mark.parametrize("island, levels", [(1, (HUMAN, 2)), (2, (HUMAN, HUMAN, 1))])
def test_a_whole_game_by_keys_under_every_plan(modules, regime, island, levels):
    # People by the plain policy's keys (which needs no players' code), computers on the clock;
    # after every key one copy of every module, and on a small heap no players' code while a
    # person plays
    app = _app(regime=regime, dice=31)
    app.new_game(island, levels)
    app.draw()
    g = app.game
    now = 0
    while not g.over() and now < 2_000_000:
        s = app.screen
        if type(s).__name__ == "Turn" and s.level is not None:
            now += 1000
            app.tick(now)
            app.draw()
            keys = ()
        elif type(s).__name__ == "Turn":
            if regime == SMALL:
                assert "catan.players" not in sys.modules  # let go where a person plays
            keys = ui_autokeys.next_keys(app, ui_autokeys.plain(g))
        else:
            keys = ["a"]  # the hand-over: the next person takes the device
        for k in keys:
            now += 50
            ui_autokeys.press(app, k, now)
            app.think(lambda: False)  # an idle round's work ahead, as the device gives it
            one_copy(app)
    assert g.over() and type(app.screen).__name__ == "GameOver"
    one_copy(app)


@pytest.mark.parametrize("regime", ALL, ids=REGIMES)
def test_every_screen_scene_under_every_plan(modules, monkeypatch, regime):
    def planned(*a, **k):
        return App(*a, plan=MemoryPlan(regime), **k)

    monkeypatch.setattr(ui_scenes, "App", planned)
    for name in ui_scenes.NAMES:
        ui_scenes.run(name, DioCanvas(240, 135), one_copy)


# ------------------------------------------------------------------ the defects


def test_a_failed_settings_write_on_the_pause_menu_imports_no_second_copy(modules):
    # Pause -> Settings -> a setting changed, its write refused -> back: the message about it
    # comes first, then the pause menu (Message(..., then=Pause)); the pause menu's module must
    # stay while that pause menu lives (before the plan, it was forgotten under the message, and
    # the next Settings imported a second copy of it).
    store = ui_scenes.MemStore()
    app = _app(store)
    app.new_game(1, (HUMAN,))
    app.draw()
    now = [0]

    def keys(*ks):
        for k in ks:
            now[0] += 50
            ui_autokeys.press(app, k, now[0])
            one_copy(app)

    keys("b")
    pause = app.screen
    while pause.rows[pause.i] != "Settings":
        keys("y")
    keys("a")
    assert type(app.screen).__name__ == "SettingsMenu"
    real = store.write
    store.write = lambda name, data: False if name == "settings" else real(name, data)
    assert app.screen.rows[app.screen.i] == "Brightness"
    keys("a")  # brightness up a step: written at once (refused)
    keys("b")  # back: the message, then the pause menu
    assert type(app.screen).__name__ == "Message" and "settings" in app.screen.text
    keys("a")
    assert app.screen is pause
    store.write = real
    keys("a")  # Settings again
    menu = sys.modules["catan.ui.menu"]
    assert type(pause) is menu.Pause and isinstance(app.screen, menu.Menu)


def _failing_writes(store, name):
    real = store.write

    def write(n, data):
        if n == name:
            raise MemoryError("memory allocation failed, allocating 1148 bytes")
        return real(n, data)

    store.write = write


def _noted(app):
    # what the app says about storage at the next chance: its notes, a Message's text or the
    # turn screen's foot
    text = " ".join(app._notes)
    s = app.screen
    return text + " " + getattr(s, "text", "") + " " + getattr(s, "msg", "")


@pytest.mark.parametrize("record", ["settings", "stats", "review"])
def test_every_write_goes_through_the_plans_chain_and_a_spent_chain_is_said(modules, record):
    # N2: the new-game Start (settings), a settings change (settings), a new game with the
    # coach's review on (review) and the initials (statistics) called the store directly: a
    # MemoryError there escaped App.handle. Now a write with no room is False, and said.
    settings = Settings()
    settings.coach = 1
    store = ui_scenes.MemStore({"settings": settings.dumps()})
    app = _app(store)
    _failing_writes(store, record)
    if record == "settings":
        app.save_settings()  # (the new-game form's Start, the settings menu's changes)
    elif record == "review":
        app.new_game(1, (HUMAN,))
    else:
        app.stats.add_high(1, 50, "ABC")
        app.wrote(app.stats.save(app), "the high scores")
    assert "not enough memory" in _noted(app)


def test_the_initials_with_no_room_for_their_write_are_said_not_raised(modules):
    app = _app(ui_scenes.MemStore(ui_scenes._game_store(lambda: ui_scenes._almost_over(1, (HUMAN,)))))
    now = 50
    ui_autokeys.press(app, "a", now)  # Continue
    while not app.game.over() and now < 5000:
        for k in ui_autokeys.next_keys(app, ui_autokeys.plain(app.game)):
            now += 50
            ui_autokeys.press(app, k, now)
    assert type(app.screen).__name__ == "GameOver" and app.screen.pending
    _failing_writes(app.store, "stats")
    ui_autokeys.press(app, "a", now + 50)  # the initials' screen
    assert type(app.screen).__name__ == "TextEntry"
    app.screen.finish()  # the initials entered: their write finds no room
    assert "high scores" in _noted(app) and "not enough memory" in _noted(app)


def test_a_statistics_reset_that_is_not_written_says_so_and_keeps_them(modules):
    # N6: the reset's write failed, the screen showed 0 games, and after a reboot the old
    # statistics were back with nothing said
    store = ui_scenes.MemStore({"stats": ui_scenes._stats()})
    app = _app(store)
    games = app.stats.games[:]
    assert sum(games)
    from catan.ui.menus import SettingsMenu

    menu = SettingsMenu(app)
    app.show(menu)
    store.write = lambda name, data: False
    at = menu.rows.index("Reset statistics")
    menu.choose(at)  # asks to confirm
    menu.choose(at)  # confirmed: not written
    assert app.stats.games == games  # what is shown is what is stored
    assert Stats.load(store).games == games
    assert type(app.screen).__name__ == "Message" and "statistics" in app.screen.text


@pytest.mark.parametrize("spent", [False, True])
def test_no_room_to_build_the_turn_screen_is_tried_again_not_raised(modules, monkeypatch, spent):
    # N5: a MemoryError building the next turn screen escaped App.tick. Now the plan's chain tries
    # it again after each step (at once, where a collection makes the room); the chain spent, at
    # the next tick.
    from catan.ui import turn

    app = _app()
    app.new_game(1, (HUMAN, 1))
    real = turn.Turn.__init__
    fails = [0, True]  # the tries that failed; whether the next fails

    def cramped(self, app):
        if fails[1]:
            fails[0] += 1
            fails[1] = spent
            raise MemoryError("memory allocation failed, allocating 752 bytes")
        real(self, app)

    monkeypatch.setattr(turn.Turn, "__init__", cramped)
    old = app.screen
    app.start_turn()
    if spent:
        assert app.screen is old and fails[0] > 1  # every step of the chain tried: at the next tick
        fails[1] = False
        app.tick(100)  # the main loop's next round
    assert type(app.screen).__name__ == "Turn" and app.screen is not old


# ------------------------------------------------------------------ every place, in turn


def _hint_now(app):
    ui_autokeys.press(app, "y_long", 100)


def _person_turn(regime):
    app = _app(ui_scenes.MemStore(ui_scenes._game_store(ui_scenes._solo_reroll)), regime)
    ui_autokeys.press(app, "a", 50)  # Continue: a person's turn, the dice rolled
    return app


@pytest.mark.parametrize("regime", ALL, ids=REGIMES)
def test_no_room_for_the_coach_is_said_in_the_foot(modules, monkeypatch, regime):
    app = _person_turn(regime)
    before = dumps(app.game)
    asked = []

    def full(self, choice):  # the coach's work, never finding room
        asked.append(1)
        raise MemoryError("memory allocation failed, allocating 472 bytes")

    monkeypatch.setattr(App, "_advise", full)
    _hint_now(app)
    assert len(asked) == 3  # at once, then collected, then without the players' code
    assert app.screen.msg == NO_ROOM and dumps(app.game) == before


@pytest.mark.parametrize("regime", ALL, ids=REGIMES)
def test_no_room_for_work_ahead_drops_it(modules, monkeypatch, regime):
    app = _person_turn(regime)
    if regime == SMALL:  # the coach works when asked, not ahead: nothing is loaded for it
        assert app.think(lambda: False) is True and "catan.players" not in sys.modules
        return
    from catan import players

    def full(*a, **k):
        raise MemoryError("memory allocation failed, allocating 1552 bytes")

    monkeypatch.setattr(players, "think", full)
    assert app.think(lambda: False) is True
    assert "catan.players" not in sys.modules  # dropped with the players' code


@pytest.mark.parametrize("regime", ALL, ids=REGIMES)
def test_no_room_for_a_write_is_false_and_said(modules, regime):
    app = _person_turn(regime)
    _failing_writes(app.store, "game")
    for k in ui_autokeys.next_keys(app, ui_autokeys.plain(app.game)):
        ui_autokeys.press(app, k, 200)
    assert "Could not save the game (not enough memory)" in _noted(app)


@pytest.mark.parametrize("regime", ALL, ids=REGIMES)
def test_no_room_for_a_screen_brings_the_turn_back_saying_so(modules, monkeypatch, regime):
    import builtins

    app = _person_turn(regime)
    real = builtins.__import__

    def full(name, *a, **k):
        if name == "catan.ui.menu":
            raise MemoryError("memory allocation failed, allocating 3421 bytes")
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", full)
    sys.modules.pop("catan.ui.menu", None)
    ui_autokeys.press(app, "b", 100)  # the pause menu: no room, even at the next tick
    app.tick(200)
    assert type(app.screen).__name__ == "Turn" and "memory" in app.screen.msg


@pytest.mark.parametrize("regime", ALL, ids=REGIMES)
def test_no_room_for_the_review_stops_it_and_says_so(modules, monkeypatch, regime):
    settings = Settings()
    settings.coach = 1
    store = ui_scenes._game_store(ui_scenes._solo_reroll)
    store["settings"] = settings.dumps()
    app = _app(ui_scenes.MemStore(store), regime)
    ui_autokeys.press(app, "a", 50)
    assert app.review is not None

    def full(g, action):
        raise MemoryError("memory allocation failed, allocating 980 bytes")

    monkeypatch.setattr(app.review, "note", full)
    for k in ui_autokeys.next_keys(app, ui_autokeys.plain(app.game)):
        ui_autokeys.press(app, k, 200)
    assert app.review is None and "review stopped" in _noted(app)
