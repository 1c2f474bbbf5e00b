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
from catan.ui import memory
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
    # (those imported by the test leave their package too: a package attribute left behind would
    # be what a later ``from catan.ui import font_large`` takes, with no module in sys.modules)
    memory.forget([k for k in sys.modules if k.startswith(("catan.players", "catan.ui."))
                   and k not in saved])
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


# ------------------------------------------------------------------ the plan, chosen at boot


def test_the_plan_is_chosen_from_where_the_code_runs_and_the_heap():
    assert memory.regime(True, 160_000) == ROOMY  # a game UF2: the code in flash, whatever the heap
    assert memory.regime(True, 100_000) == ROOMY
    assert memory.regime(False, 246_000) == TIGHT  # a Pico's stock firmware
    assert memory.regime(False, 230_000) == TIGHT
    assert memory.regime(False, 229_999) == SMALL
    assert memory.regime(False, 205_000) == SMALL  # a Pico W's


@pytest.mark.parametrize("regime", ALL, ids=REGIMES)
def test_what_the_plan_keeps_from_boot(modules, regime):
    # the tables' arrays at boot on every plan, the chance cache too on a small heap; the
    # players' code once the first frame is up, except on a small heap (loaded when asked)
    plan = MemoryPlan(regime)
    memory.forget(["catan.players"])
    catan.TABLES[:] = [None, False, None]
    plan.reserve()
    assert catan.TABLES[0] is not None and catan.TABLES[1] is False
    assert (catan.TABLES[2] is not None) == (regime == SMALL)
    plan.boot_players()
    assert ("catan.players" in sys.modules) == (regime != SMALL)


@pytest.mark.parametrize("regime", ALL, ids=REGIMES)
def test_the_players_asked_for_bring_the_arrays_their_level_needs_on_a_small_heap(modules,
                                                                                 regime):
    # On a small heap the arrays come before the code: the chance cache for any level, the
    # tables' arrays too for the medium and hard ones. Elsewhere the players are imported as
    # they are (their arrays made at boot, the chance cache when first needed).
    plan = MemoryPlan(regime)
    for level, had, made in ((0, (None, None), (None, True)), (1, (None, True), (True, True)),
                             (2, (True, None), (True, True)), (2, (None, None), (True, True))):
        memory.forget(["catan.players"])
        catan.TABLES[:] = [None, False, None]
        catan.reserve(had[0] is not None, had[1] is not None)
        assert plan.players(level) is sys.modules["catan.players"]
        now = (catan.TABLES[0] is not None or None, catan.TABLES[2] is not None or None)
        assert now == (made if regime == SMALL else had), (level, had)


@pytest.mark.parametrize("regime", ALL, ids=REGIMES)
def test_the_plan_holds_a_frame_whole_or_in_as_few_bands_as_fit(regime):
    # (test_fw_app_main: the rows of each board's bands) the Display Pack's 16,200-byte frame
    # and the Display Pack 2.0's 38,400: whole on the game UF2, the 2.0's in three on a stock
    # Pico, and the Display Pack's in two as well on a small heap
    most = MemoryPlan(regime).band_bytes
    bands = [-(-frame // most) if most else 1 for frame in (16_200, 38_400)]
    assert bands == {ROOMY: [1, 1], TIGHT: [1, 3], SMALL: [2, 3]}[regime]


def test_the_chain_goes_no_further_than_its_caller_asks(modules):
    # work bounded at the players' code (a screen's import, say) never costs their arrays, even
    # with no code of theirs to let go
    plan = MemoryPlan(TIGHT)
    memory.forget(["catan.players"])
    catan.reserve()
    tries = []

    def work():
        tries.append(catan.TABLES[0] is not None)
        raise MemoryError("memory allocation failed, allocating 4096 bytes")

    with pytest.raises(MemoryError):
        plan.attempt(work, (), memory.CODE)
    assert tries == [True, True, True] and catan.TABLES[0] is not None


def test_screens_that_hold_each_other_are_settled_on(modules, fake_modules):
    # (a pause menu holds the paused turn, which may hold the menu back): each reached once
    a = _screen_of(fake_modules("zz_one"))
    b = _screen_of(fake_modules("zz_two"))
    a.other = b
    b.other = a
    plan = MemoryPlan(TIGHT)
    plan.load("zz_one")
    plan.load("zz_two")
    plan.settle(a, False)
    assert "catan.ui.zz_one" in sys.modules and "catan.ui.zz_two" in sys.modules


def test_no_room_for_the_players_code_at_boot_leaves_it_to_be_loaded_when_asked(modules,
                                                                                 monkeypatch):
    plan = MemoryPlan(TIGHT)
    memory.forget(["catan.players"])
    tries = []

    def players(level=2):
        tries.append(level)
        __import__("catan.players")  # (part of it in, as an import cut short leaves it)
        raise MemoryError("memory allocation failed, allocating 2048 bytes")

    monkeypatch.setattr(plan, "players", players)
    plan.boot_players()  # not raised
    assert tries == [2, 2] and "catan.players" not in sys.modules  # again once collected


def test_the_chain_tries_again_only_after_a_step_that_let_something_go(modules):
    # The players' code not loaded and their arrays gone already: work that needs the room of
    # their chance cache is tried as it was, once collected, and once the cache has gone (the
    # steps with nothing to let go are not tries of their own)
    plan = MemoryPlan(SMALL)
    memory.forget(["catan.players"])
    catan.TABLES[:] = [None, False, None]
    catan.reserve(False, True)
    tries = []

    def work():
        tries.append(catan.TABLES[2] is not None)
        if catan.TABLES[2] is not None:
            raise MemoryError("memory allocation failed, allocating 1632 bytes")
        return "done"

    assert plan.attempt(work) == "done"
    assert tries == [True, True, False]


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


@pytest.mark.parametrize("regime,w,h", [(r, w, h) for r in ALL for w, h in ((240, 135), (240, 240))],
                         ids=["%s-%dx%d" % (n, w, h) for n in REGIMES
                              for w, h in ((240, 135), (240, 240))])
def test_every_screen_scene_under_every_plan(modules, monkeypatch, regime, w, h):
    # (240x240 too: its map imports the large font, an on-demand module, for the score under it)
    def planned(*a, **k):
        return App(*a, plan=MemoryPlan(regime), **k)

    monkeypatch.setattr(ui_scenes, "App", planned)
    for name in ui_scenes.NAMES:
        ui_scenes.run(name, DioCanvas(w, h), one_copy)


# ------------------------------------------------------------------ the defects


@pytest.fixture
def fake_modules():
    """``make(name)``: a module ``catan.ui.<name>`` put in sys.modules as an import would (no
    file behind it), gone again after the test, from the plan's notes too."""
    made = []

    def make(name):
        mod = types.ModuleType("catan.ui." + name)
        sys.modules[mod.__name__] = mod
        made.append(mod.__name__)
        return mod

    yield make
    for name in made:
        sys.modules.pop(name, None)
        for notes in (memory._ON_DEMAND, memory._CLEAN):
            if name in notes:
                notes.remove(name)


def _screen_of(module):
    # a screen (an object that paints and handles keys) of a class of ``module``
    return type("Screen", (), {"paint": None, "handle": None, "__module__": module.__name__})()


def test_a_module_that_stays_keeps_a_screen_module_it_imports_loaded_after_it_was_read(
        modules, fake_modules):
    # settle reads each module that stays (whether a shown screen reaches it or not) once, and
    # notes it if it imports no on-demand module; a module that becomes on demand later (loaded
    # by name) may be one it imports: read again, or the screen's module is forgotten while the
    # module that stays holds it (a second copy)
    stays = fake_modules("zz_stays")
    shown = _screen_of(fake_modules("zz_shown"))
    plan = MemoryPlan(TIGHT)
    plan.settle(shown, False)  # read: it imports nothing on demand
    screen_module = fake_modules("zz_screen")
    stays.zz_screen = screen_module
    assert plan.load("zz_screen") is screen_module  # now on demand
    for _ in range(2):  # (and not noted clean once it was read: kept at every screen shown)
        plan.settle(shown, False)
        assert sys.modules.get(screen_module.__name__) is screen_module


def test_a_module_that_stays_keeps_the_module_of_a_class_it_imports(modules, fake_modules):
    # (``from catan.ui.menu import Pause``: the class lives in the module that stays)
    plan = MemoryPlan(TIGHT)
    screen_module = fake_modules("zz_screen")
    assert plan.load("zz_screen") is screen_module
    fake_modules("zz_stays").Pause = type("Pause", (), {"__module__": screen_module.__name__})
    plan.settle(_screen_of(fake_modules("zz_shown")), False)
    assert sys.modules.get(screen_module.__name__) is screen_module


@pytest.mark.parametrize("regime", ALL, ids=REGIMES)
def test_the_players_code_leaves_with_a_screen_shown_only_on_a_small_heap(modules, fake_modules,
                                                                           regime):
    plan = MemoryPlan(regime)
    shown = _screen_of(fake_modules("zz_shown"))
    for busy in (True, False):
        plan.players()
        plan.settle(shown, busy)
        assert ("catan.players" in sys.modules) == (busy or regime != SMALL), busy


def test_a_screen_whose_module_has_gone_is_settled_on(modules, fake_modules):
    # (a screen kept by another whose module was forgotten: nothing of it to read)
    gone = fake_modules("zz_gone")
    screen = _screen_of(gone)
    del sys.modules[gone.__name__]
    MemoryPlan(TIGHT).settle(screen, False)


@pytest.mark.parametrize("regime", ALL, ids=REGIMES)
def test_a_screen_module_imported_before_is_on_demand_once_loaded_by_name(modules, fake_modules,
                                                                         regime):
    # Already imported (by a screen that imports it, say), it is not imported again and the
    # players' code stays, even on a small heap (no import to make room for); noted as on
    # demand all the same, it goes once no screen uses it
    plan = MemoryPlan(regime)
    plan.players()
    screen_module = fake_modules("zz_screen")
    assert plan.load("zz_screen") is screen_module
    assert "catan.players" in sys.modules
    plan.settle(_screen_of(fake_modules("zz_shown")), False)
    assert screen_module.__name__ not in sys.modules


def test_what_a_screen_module_brings_in_stays_with_it_and_goes_with_it(modules, fake_modules,
                                                                        monkeypatch):
    # (the large font, imported by the menus' modules and by no module that stays): kept while
    # a screen of the module that imported it is shown, forgotten with that module after
    import builtins

    real = builtins.__import__

    def imports(name, *args):
        if name != "catan.ui.zz_screen":
            return real(name, *args)
        screen_module = fake_modules("zz_screen")
        screen_module.zz_font = fake_modules("zz_font")
        return screen_module

    monkeypatch.setattr(builtins, "__import__", imports)
    plan = MemoryPlan(TIGHT)
    screen_module = plan.load("zz_screen")
    plan.settle(_screen_of(screen_module), False)
    assert "catan.ui.zz_font" in sys.modules
    plan.settle(_screen_of(fake_modules("zz_shown")), False)
    assert "catan.ui.zz_screen" not in sys.modules and "catan.ui.zz_font" not in sys.modules


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
def test_no_room_for_the_storage_message_keeps_its_note_for_the_next_screen(modules, monkeypatch,
                                                                             regime):
    import builtins

    app = _person_turn(regime)
    app._notes.append("Could not save the game (not enough memory): it is not safe.")
    real = builtins.__import__
    full = [True]

    def tight(name, *a, **k):
        if name == "catan.ui.info" and full[0]:
            raise MemoryError("memory allocation failed, allocating 2896 bytes")
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", tight)
    sys.modules.pop("catan.ui.info", None)
    turn = app.screen
    app.show(turn)  # no room for the message, even after the chain: not raised
    assert app.screen is turn and app._notes
    full[0] = False
    app.show(turn)  # room now: the message first, then the turn
    assert type(app.screen).__name__ == "Message" and "not safe" in app.screen.text
    assert not app._notes


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
