"""The app under each memory plan (``catan.ui.memory``). On a small heap (``SMALL``: the stock Pico
W firmware, whose heap cannot keep the computer players and the coach beside the game) they are
loaded when a computer plays or a person asks the coach, and dropped when a screen with no
computer to play comes; the game is the same game, decision for decision. On a tight heap
(``TIGHT``: a Pico's stock firmware, the game's bytecode in the heap) they are dropped before an
on-demand screen is imported. Every piece of work that can meet a ``MemoryError`` goes through the
plan's one chain, and ends in its documented answer when the chain is spent."""

import os
import sys
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
from catan.ui.memory import ROOMY, SMALL, TABLES, TIGHT, MemoryPlan, forget


@pytest.fixture
def modules():
    """sys.modules and the catan package as they were: the app drops and imports the players
    again, and the other tests keep the modules they imported."""
    saved = {k: v for k, v in sys.modules.items() if k.startswith("catan.players")}
    # each module's place in its package's namespace (the app takes those away too)
    attrs = [(sys.modules[k.rpartition(".")[0]], k.rpartition(".")[2], v) for k, v in saved.items()]
    tables = list(catan.TABLES)  # (the tests take the arrays away)
    yield
    catan.TABLES[:] = tables
    forget([k for k in sys.modules if k.startswith("catan.players") and k not in saved])
    for k in [k for k in sys.modules if k.startswith("catan.players")]:
        del sys.modules[k]
    sys.modules.update(saved)
    for package, name, module in attrs:
        setattr(package, name, module)


def _app(make, regime):
    app = App(DioCanvas(240, 135), ui_scenes.MemStore(ui_scenes._game_store(make)),
              roles=ui_scenes.ROLES, dice=lambda s: SeededDice(5 if s is None else s),
              plan=MemoryPlan(regime))
    app.draw()
    return app


def _let_go_of_players(app):
    # the players' code and work ahead, as the memory plan lets them go
    app.plan.release_players()


def _loaded():
    return "catan.players" in sys.modules


def _play(app, limit=4000, before_key=None):
    """Play on: persons by the plain policy's keys, computers on the clock; the players' modules
    seen loaded (True/False) at each person's key, and the game's save after each key.
    ``before_key(app)``, if given, is called before each person's key."""
    now, seen, saves = 0, [], []
    g = app.game
    while not g.over() and len(saves) < limit:
        s = app.screen
        if type(s).__name__ == "Turn" and s.level is not None:
            now += 1000
            app.tick(now)
            app.draw()
        else:
            if type(s).__name__ == "Turn":
                seen.append(_loaded())
                keys = ui_autokeys.next_keys(app, ui_autokeys.plain(g))
            else:
                keys = ["a"]
            for k in keys:
                if before_key is not None:
                    before_key(app)
                now += 50
                ui_autokeys.press(app, k, now)
                app.think(lambda: False)  # an idle round's work ahead, as the device gives it
        saves.append(dumps(g))
    return seen, saves


def test_on_a_small_heap_the_players_leave_when_a_person_plays_and_come_back_for_a_computer(modules):
    make = lambda: ui_scenes._played(1, (HUMAN, 2), 1)
    small = _app(make, SMALL)
    ui_autokeys.press(small, "a", 50)  # Continue
    seen, saves = _play(small)
    assert small.game.over()
    assert seen and not any(seen)  # never loaded while a person plays (no hint asked)
    big = _app(make, ROOMY)
    ui_autokeys.press(big, "a", 50)
    seen_big, saves_big = _play(big)
    assert any(seen_big)  # the work ahead loads them for the coach on a big heap
    assert saves_big == saves  # the same game


def _let_the_arrays_go(app):
    # The players' code and their table arrays go, as the memory plan's fallback chain lets
    # them go where some work finds no room without them (its step TABLES).
    app.plan.let_go(TABLES, TABLES)


def test_the_hard_player_plays_on_the_same_after_the_arrays_went(modules):
    # Let go before every key of the person's: each of the hard computer's turns then starts
    # from arrays made again (their multisets too), and plays as where they stayed (three of
    # its turns: the whole game takes long).
    make = lambda: ui_scenes._played(1, (HUMAN, 2), 1)
    games = []
    for let_go in (None, _let_the_arrays_go):
        app = _app(make, SMALL)
        ui_autokeys.press(app, "a", 50)  # Continue
        turns = app.game.turns[1]
        games.append(_play(app, limit=40, before_key=let_go)[1])
        assert app.game.turns[1] >= turns + 3
    assert games[0] == games[1]


def test_a_hint_on_a_small_heap_loads_the_coach_and_the_next_screen_drops_it(modules):
    app = _app(ui_scenes._solo_reroll, SMALL)
    ui_autokeys.press(app, "a", 50)  # Continue: the turn, rolled
    app.think(lambda: False)
    assert not _loaded()
    ui_autokeys.press(app, "y_long", 100)
    assert _loaded() and "oach" in app.screen.msg  # the coach's line
    ui_autokeys.press(app, "b", 150)  # the pause menu
    assert not _loaded()


def test_on_a_tight_heap_the_players_code_leaves_only_for_a_screen_with_no_room_beside_it(
        modules, monkeypatch):
    app = _app(ui_scenes._solo_reroll, TIGHT)
    ui_autokeys.press(app, "a", 50)  # Continue
    app.think(lambda: False)
    assert _loaded()  # the coach's work ahead, for a person
    ui_autokeys.press(app, "b", 100)  # the pause menu (an on-demand module), with room
    assert _loaded() and type(app.screen).__name__ == "Pause"
    ui_autokeys.press(app, "b", 150)  # back to the turn
    assert _loaded() and type(app.screen).__name__ == "Turn"
    seen = []  # the players' code in at each try of the menu's import
    _imports_find_no_room(monkeypatch, "catan.ui.menu", 2, lambda: seen.append(_loaded()))
    ui_autokeys.press(app, "b", 100)  # no room for the menu, twice
    assert type(app.screen).__name__ == "Pause"
    assert seen == [True, True, False]  # beside the code, again once collected, then without
    ui_autokeys.press(app, "b", 150)
    app.think(lambda: False)
    assert _loaded()  # imported again for the work ahead


def test_a_tight_heap_plays_the_same_game_as_a_roomy_one(modules):
    make = lambda: ui_scenes._played(2, (HUMAN, 2, 1), 1)
    games = []
    for regime in (TIGHT, ROOMY):
        app = _app(make, regime)
        ui_autokeys.press(app, "a", 50)
        games.append(_play(app)[1])
        assert app.game.over()
    assert games[0] == games[1]


def test_on_a_small_heap_the_arrays_come_before_the_code_and_stay_while_it_goes(
        modules, monkeypatch):
    order = []
    reserve = catan.reserve
    monkeypatch.setattr(catan, "reserve", lambda *a: (order.append(_loaded()), reserve(*a)))
    app = _app(ui_scenes._solo_reroll, SMALL)
    ui_autokeys.press(app, "a", 50)  # Continue
    _let_go_of_players(app)
    catan.TABLES[:] = [None, False, None]  # (as on a device before its boot made them)
    ui_autokeys.press(app, "y_long", 100)
    assert order[0] is False  # the arrays made while the players' code was not in
    arrays = catan.TABLES[0]
    assert arrays is not None and catan.TABLES[2] is not None and _loaded()
    ui_autokeys.press(app, "b", 150)  # the pause menu: the code goes, the arrays stay
    assert catan.TABLES[0] is arrays and not _loaded()


def test_a_screen_with_no_room_is_tried_again_after_each_step_of_the_chain_least_needed_first(
        modules, monkeypatch):
    app = _app(ui_scenes._solo_reroll, SMALL)
    ui_autokeys.press(app, "a", 50)  # Continue
    ui_autokeys.press(app, "y_long", 100)  # a hint: the arrays and the code in
    seen = []  # (players' code in, tables in, chance cache in) at each try of the import
    _imports_find_no_room(monkeypatch, "catan.ui.menu", 3, lambda: seen.append(
        (_loaded(), catan.TABLES[0] is not None, catan.TABLES[2] is not None)))
    ui_autokeys.press(app, "b", 150)  # the pause menu finds no room three times
    assert type(app.screen).__name__ == "Pause"  # opened at its fourth try
    # (a small heap lets the code go before any screen's import: the first try is without it)
    assert seen == [(False, True, True), (False, True, True), (False, False, True),
                    (False, False, False)]


def _no_room(monkeypatch):
    def full(tables=True, chances=False):
        raise MemoryError("memory allocation failed, allocating 5544 bytes")

    monkeypatch.setattr(catan, "reserve", full)
    catan.TABLES[:] = [None, False, None]  # (let go, and no room to make them again)


def test_no_room_for_the_coach_is_said_and_changes_nothing(modules, monkeypatch, capsys):
    app = _app(ui_scenes._solo_reroll, SMALL)
    ui_autokeys.press(app, "a", 50)
    before = dumps(app.game)
    _no_room(monkeypatch)
    ui_autokeys.press(app, "y_long", 100)
    assert app.screen.msg == NO_ROOM and type(app.screen).__name__ == "Turn"
    assert dumps(app.game) == before and not _loaded()
    assert "MemoryError" in capsys.readouterr().out  # the console says what happened


def test_no_room_for_a_computer_shows_why_and_keeps_the_game(modules, monkeypatch):
    app = _app(lambda: ui_scenes._played(1, (2, HUMAN), 1), SMALL)
    ui_autokeys.press(app, "a", 50)  # Continue: the computer's turn
    before = dumps(app.game)
    _no_room(monkeypatch)
    now = 50
    while type(app.screen).__name__ == "Turn" and now < 20_000:
        now += 1000
        app.tick(now)
    assert type(app.screen).__name__ == "Message" and app.screen.text == NO_ROOM
    assert dumps(app.game) == before and not _loaded()
    ui_autokeys.press(app, "a", now + 50)
    assert type(app.screen).__name__ == "Title"


@pytest.mark.parametrize("regime", (SMALL, TIGHT))
def test_the_easy_level_plays_with_the_chance_cache_alone(modules, monkeypatch, capsys, regime):
    # N3: the table arrays let go and no room to make them again: the hard computer's moves are
    # the easy level's, which needs only the chance cache (made by the plan first on a small
    # heap, by the first chance asked elsewhere), and the game goes on
    app = _app(lambda: ui_scenes._played(1, (2, HUMAN), 1), regime)
    ui_autokeys.press(app, "a", 50)  # Continue: the computer's turn
    real = catan.reserve

    def no_tables(tables=True, chances=False):
        if tables and catan.TABLES[0] is None:
            raise MemoryError("memory allocation failed, allocating 5544 bytes")
        real(False, chances)

    monkeypatch.setattr(catan, "reserve", no_tables)
    _let_go_of_players(app)
    catan.TABLES[:] = [None, False, None]  # the arrays let go (the chain's last two steps)
    turns = app.game.turns[0]
    now = 50
    while app.game.turns[0] == turns and now < 60_000:
        now += 1000
        app.tick(now)
    assert app.game.turns[0] == turns + 1 and type(app.screen).__name__ != "Message"
    assert catan.TABLES[0] is None and catan.TABLES[2] is not None  # the cache alone
    assert "this move as easy" in capsys.readouterr().out


def test_the_review_keeps_no_dropped_coach_alive(modules):
    import gc
    import weakref

    from catan.ui.records import Settings

    store = ui_scenes._game_store(ui_scenes._solo_reroll)
    settings = Settings()
    settings.coach = 1
    store["settings"] = settings.dumps()
    app = App(DioCanvas(240, 135), ui_scenes.MemStore(store), roles=ui_scenes.ROLES,
              dice=lambda s: SeededDice(5 if s is None else s), plan=MemoryPlan(SMALL))
    ui_autokeys.press(app, "a", 50)  # Continue: a person's Island One game, reviewed
    assert app.review is not None
    _let_go_of_players(app)
    log = len(app.game.log)
    for k in ui_autokeys.next_keys(app, ui_autokeys.plain(app.game)):
        ui_autokeys.press(app, k, 100)  # an action: the review asks the coach (a fresh import)
    assert len(app.game.log) > log
    coach = weakref.ref(sys.modules["catan.players.coach"])
    _let_go_of_players(app)
    gc.collect()
    assert coach() is None  # gone with its tables: the next one is not a second copy


def _imports_find_no_room(monkeypatch, module, times=1, each=None):
    """The next ``times`` imports of ``module`` (taken out of sys.modules) raise MemoryError as
    MicroPython's does when the heap has no room for it (``each()`` called at each); the ones
    after them work. The list it returns holds the module's name once for each that failed."""
    import builtins

    real = builtins.__import__
    failed = []

    def tight(name, *a, **k):
        if name == module:
            if each:
                each()
            if len(failed) < times:
                failed.append(name)
                raise MemoryError("memory allocation failed, allocating 3421 bytes")
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", tight)
    sys.modules.pop(module, None)
    return failed


def test_a_screen_with_no_room_opens_at_the_next_tick(modules, monkeypatch):
    app = _app(lambda: ui_scenes._almost_over(1, (HUMAN,)), ROOMY)
    ui_autokeys.press(app, "a", 50)  # Continue
    failed = _imports_find_no_room(monkeypatch, "catan.ui.info", 5)  # the whole chain
    now = 100
    while not app.game.over() and now < 5000:
        for k in ui_autokeys.next_keys(app, ui_autokeys.plain(app.game)):
            now += 50
            ui_autokeys.press(app, k, now)
    app.tick(now + 50)  # the main loop's next round
    # the chain was spent (a try, and one after each of its steps), and the screen came at a
    # tick after it
    assert len(failed) == 5 and app.game.over() and type(app.screen).__name__ == "GameOver"


def _at_game_over():
    # A person's Island One game played to its game-over screen, a high score pending; the time
    app = _app(lambda: ui_scenes._almost_over(1, (HUMAN,)), ROOMY)
    ui_autokeys.press(app, "a", 50)  # Continue
    now = 100
    while not app.game.over() and now < 5000:
        for k in ui_autokeys.next_keys(app, ui_autokeys.plain(app.game)):
            now += 50
            ui_autokeys.press(app, k, now)
    assert type(app.screen).__name__ == "GameOver" and app.screen.pending
    return app, now


def _players_in_and_no_room_for(record, times=2):
    # A person's turn with the players loaded (as after a hint), and a store whose first
    # ``times`` writes of ``record`` find no room; ``tries``: whether the players were loaded at
    # each write of it
    app = _app(ui_scenes._solo_reroll, ROOMY)
    ui_autokeys.press(app, "a", 50)  # Continue
    import catan.players  # noqa: F401  (the players in, as after a hint)

    store = app.store
    real = store.write
    tries = []

    def tight(name, data):
        if name == record:
            tries.append(_loaded())
            if len(tries) <= times:
                raise MemoryError("memory allocation failed, allocating 1148 bytes")
        return real(name, data)

    store.write = tight
    return app, tries


def test_the_statistics_with_no_room_let_the_players_go_and_are_written(modules):
    # A turn's end writes the game and the statistics: each, with no room for its file object,
    # is written again once the players have gone (on the emulated Pico W a hard computer's
    # Island One game on the Display Pack met it in the statistics)
    app, tries = _players_in_and_no_room_for("stats")
    store = app.store
    before = store.read("stats")
    app.stats.add_dice([1, 0, 0, 0, 0, 0])
    app._turn_over()
    assert tries == [True, True, False]  # again once collected, then once the players had gone
    assert store.read("stats") != before


def test_a_write_with_no_room_after_the_players_code_has_gone_lets_the_arrays_go(modules):
    app = _app(ui_scenes._solo_reroll, ROOMY)
    ui_autokeys.press(app, "a", 50)  # Continue
    import catan.players  # (the players in, as after a hint)

    catan.reserve()
    store = app.store
    real = store.write
    tries = []  # (players' code in, arrays in) at each write of the game

    def tight(name, data):
        if name == "game":
            tries.append((_loaded(), catan.TABLES[0] is not None))
            if len(tries) < 4:
                raise MemoryError("memory allocation failed, allocating 1148 bytes")
        return real(name, data)

    store.write = tight
    app.save()
    # the least given up first: a collection, the code, then the arrays
    assert tries == [(True, True), (True, True), (False, True), (False, False)]
    assert store.read("game")  # written


def test_the_large_font_stays_while_a_screen_that_imports_it_lives(modules):
    # Forgotten under the game-over screen's module (info), the large font would be imported
    # again by the initials' screen (menus): a second copy beside the live one (when the font
    # held its own 3.4 KB of cells, more than a stock Pico had room for)
    app, now = _at_game_over()
    assert sys.modules.get("catan.ui.font_large") is sys.modules["catan.ui.info"].font_large
    ui_autokeys.press(app, "a", now + 50)  # the initials
    assert type(app.screen).__name__ == "TextEntry"
    assert sys.modules["catan.ui.menus"].font_large is sys.modules["catan.ui.info"].font_large


def test_the_initials_entry_with_no_room_opens_at_the_next_tick(modules, monkeypatch):
    # The game-over screen's high score: the initials' screen (catan.ui.menus) is opened as
    # every on-demand screen is, so an import with no room is retried, not a crash
    app, now = _at_game_over()
    failed = _imports_find_no_room(monkeypatch, "catan.ui.menus", 5)
    ui_autokeys.press(app, "a", now + 50)
    app.tick(now + 100)  # the main loop's next round
    assert len(failed) == 5 and type(app.screen).__name__ == "TextEntry"


def test_work_ahead_with_no_room_is_dropped_and_the_game_goes_on(modules, monkeypatch):
    app = _app(ui_scenes._solo_reroll, ROOMY)
    ui_autokeys.press(app, "a", 50)  # Continue: a person's turn, the coach thinks ahead
    before = dumps(app.game)

    def full(until, coach):
        raise MemoryError("memory allocation failed, allocating 1552 bytes")

    monkeypatch.setattr(app.screen, "think", full)
    assert app.think(lambda: False) is True  # nothing more to do now: no crash
    assert not _loaded() and dumps(app.game) == before
    monkeypatch.undo()
    ui_autokeys.press(app, "y_long", 100)  # the coach, asked, works it out again
    assert "oach" in app.screen.msg


def test_a_save_with_no_room_lets_the_players_go_and_is_written(modules):
    app, tries = _players_in_and_no_room_for("game")
    store = app.store
    app.save()
    assert tries == [True, True, False]  # again once collected, then once the players had gone
    assert store.read("game")  # written


class _Cramped:
    """The players' package as on a heap with no room for the work of the ``full`` levels (every
    time, or the first ``times`` times): the levels asked, in order, in ``asked``."""

    def __init__(self, real, full, times=None):
        self.real = real
        self.full = full
        self.times = times
        self.asked = []

    def next_action(self, game, level, seed=0):
        self.asked.append(level)
        if level in self.full and self.times != 0:
            if self.times:
                self.times -= 1
            raise MemoryError("memory allocation failed, allocating 472 bytes")
        return self.real.next_action(game, level, seed)

    def __getattr__(self, name):
        return getattr(self.real, name)


@pytest.mark.parametrize("full, times, asked, played", [
    ((2,), None, [2, 2, 2, 1], 1),  # the hard computer's work never fits: the medium's move
    ((2,), 1, [2, 2], 2),  # it fits once the heap is collected: the hard computer's own move
    ((2, 1), None, [2, 2, 2, 1, 1, 1, 0], 0),
])
def test_a_computer_whose_work_finds_no_room_asks_again_then_plays_the_level_below(
        modules, monkeypatch, capsys, full, times, asked, played):
    from catan import players
    from catan.codec import loads

    app = _app(lambda: ui_scenes._played(1, (2, HUMAN), 1), SMALL)
    ui_autokeys.press(app, "a", 50)  # Continue: the hard computer's turn
    assert app.perform(("roll", 63)) is None  # its first throw: its choice of dice to keep is next
    expected = loads(dumps(app.game))
    players.apply(expected, players.next_action(expected, played, expected.player))
    cramped = _Cramped(players, full, times)
    monkeypatch.setattr(App, "players", lambda self, level=2: cramped)
    app.computer_step(False)
    assert cramped.asked == asked
    assert dumps(app.game) == dumps(expected)  # that level's move, carried out
    assert type(app.screen).__name__ == "Turn"  # the game goes on
    out = capsys.readouterr().out
    assert ("this move as " + ("easy", "medium", "hard")[played] in out) == (played < 2)
    assert "Error" not in out  # (the emulated Pico's tests fail on an error on the console)
