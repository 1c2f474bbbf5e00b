"""Every screen of the app, reached as a player would: from a known store, by keys.

Plain code for MicroPython and CPython alike. ``run(name, canvas)`` builds the scene's store,
starts an App on ``canvas`` and plays the scene's keys, drawing after each one exactly like
the device's loop (partial redraws included); it returns the app. host_tests/mp/mpt_ui.py
renders every scene through the framebuf back end under the real MicroPython unix port,
host_tests/test_ui_screens.py through the displayio back end under CPython, and the pictures
must be identical; the CPython side also writes them to docs/screens/.

A key list holds role names ("a", "y", "x_long" ...) and "t<ms>" to let time pass (computer
turns, messages); the clock starts at 0 and every key moves it on 50 ms.
"""

from catan.codec import dumps
from catan.dice import ScriptedDice, SeededDice
from catan.game import Game
from catan.codec import pack_save
from catan.ui.app import HUMAN, App
from catan.ui.records import Stats
from memstore import MemStore  # tests take it from here too

ROLES = ("a", "b", "x", "y")


def _dice(seed):
    return SeededDice(7 if seed is None else seed)


def _solo_build():
    # Island One, one player, turn 2 in the build phase: K1 built (its ore joker usable),
    # dice brick, lumber, lumber, gold, gold, grain: R0, a trade, the joker, K2 is not yet.
    g = Game(1, 1, ScriptedDice([2, 3, 4, 0, 0, 0, 0, 1, 1, 5, 5, 3]))
    g.roll()
    g.stop()
    g.build(g.island.item("K1"))
    g.end_turn()
    g.roll()
    g.stop()
    return g, (HUMAN,)


def _solo_reroll():
    g = Game(1, 1, ScriptedDice([0, 2, 5, 3, 4, 1]))
    g.roll()
    return g, (HUMAN,)


def _played(island, levels, rounds, seed=11):
    # A game whose seats all played ``rounds`` rounds as computers, now at seat 0's roll.
    from catan.players import play_turn

    g = Game(island, len(levels), SeededDice(seed))
    for _ in range(rounds * len(levels)):
        play_turn(g, 1, g.player)
    return g, levels


def _almost_over(island, levels, seed=5):
    # A computer game stopped one action before its end (the app plays the last one).
    from catan.codec import loads
    from catan.players import apply, next_action

    g = Game(island, len(levels), SeededDice(seed))
    while True:
        before = dumps(g)
        apply(g, next_action(g, levels[g.player] if levels[g.player] != HUMAN else 1, g.player))
        if g.over():
            return loads(before, SeededDice(seed)), levels


def _stats():
    s = Stats()
    for score in (61, 74, 88, 92, 57, 103, 79, 81, 95, 70, 66, 84):
        s.add_one(score, score % 3)
    for turns, won in ((9, 1), (11, 1), (12, 0), (10, 1), (14, 1), (8, 1)):
        s.add_two(won, turns)
    for v, who in ((103, "ANN"), (95, "BOB"), (92, "ANN")):
        s.add_high(1, v, who)
    s.add_high(2, 8, "CAT")
    s.add_dice([412, 398, 405, 421, 389, 407])
    return s.dumps()


def _game_store(make):
    g, levels = make()
    return {"game": pack_save(g, levels)}


def _solo_end(island):
    # a solo game one action from its end, with a record to compare it with
    out = _game_store(lambda: _almost_over(island, (HUMAN,)))
    out["stats"] = _stats()
    return out


def _reviewed_end():
    # the coach's review on, and no costly choice noted in the game
    from catan.players.review import Review
    from catan.ui.records import Settings

    out = _game_store(lambda: _almost_over(1, (HUMAN, 2)))
    s = Settings()
    s.coach = 1
    out["settings"] = s.dumps()
    out["review"] = Review().dumps()
    return out


# name -> (store maker, keys)
SCENES = (
    ("title", None, ""),
    ("title_continue", lambda: _game_store(_solo_build), ""),
    ("title_battery", None, "t10"),
    ("new_game", None, "a"),
    ("new_game_seats", None, "a,y,a,a,a,y,y,a,y,a,a"),
    ("new_game_fair", None, "a,y,a,y,y,a"),  # two seats, P2 hard: the same dice for both
    ("game_code", None, "a,y,y,y,y,a,a,y,y,a"),
    ("turn_roll", lambda: _game_store(lambda: (Game(1, 1, _dice(3)), (HUMAN,))), "a"),
    ("turn_reroll", lambda: _game_store(_solo_reroll), "a,a,y,y,a,y,a"),
    ("turn_refused", lambda: _game_store(_solo_reroll), "a,y,y,y,y,y,y,a"),
    ("turn_coach", lambda: _game_store(_solo_reroll), "a,a,y_long"),
    ("turn_build", lambda: _game_store(_solo_build), "a"),
    ("turn_joker", lambda: _game_store(_solo_build), "a,y"),
    ("turn_joker_die", lambda: _game_store(_solo_build), "a,y,a"),
    ("turn_trade", lambda: _game_store(_solo_build), "a,y,y,a"),
    ("turn_confirm_x", lambda: _game_store(_solo_build), "a,x,a"),
    ("turn_inspect", lambda: _game_store(_solo_build), "a,y,y,y,y,y,a"),
    ("turn_built", lambda: _game_store(_solo_build), "a,a"),
    ("turn_island_two", lambda: _game_store(lambda: _played(2, (HUMAN, 1, 2, 0), 5)), "a,a,t100"),
    ("turn_computer", lambda: _game_store(lambda: _played(1, (1, HUMAN), 3)), "a,t700,t700,t700"),
    ("pause", lambda: _game_store(_solo_build), "a,b"),
    ("sheet_island_one", lambda: _game_store(lambda: _played(1, (HUMAN, 1, 2), 6)), "a,b,y,y,a"),
    ("sheet_island_two", lambda: _game_store(lambda: _played(2, (HUMAN, 1, 2, 0), 6)),
     "a,b,y,y,a"),
    # three computers play their turns (a key finishes each), then the person's turn says
    # what each built; a long X shows their sheets
    ("turn_summary_one", lambda: _game_store(lambda: _played(1, (1, 2, 0, HUMAN), 4)), "a,b,b,b"),
    ("turn_summary_two", lambda: _game_store(lambda: _played(2, (1, 2, 0, HUMAN), 5)), "a,b,b,b"),
    ("sheets_island_one", lambda: _game_store(lambda: _played(1, (1, 2, 0, HUMAN), 4)),
     "a,b,b,b,x_long,y"),
    ("sheets_island_two", lambda: _game_store(lambda: _played(2, (1, 2, 0, HUMAN), 5)),
     "a,b,b,b,x_long,y,y"),
    ("hand_over", lambda: _game_store(lambda: _played(1, (HUMAN, HUMAN), 2)),
     "a,a,a,y,y,y,y,y,y,y,a,x,a,x,a"),
    # late in a game (issue 39): many items built, two-digit track boxes, three and four
    # seats; re-rolling (a die under the cursor over the status line) and building (a map
    # target under it)
    ("turn_late_roll", lambda: _game_store(lambda: _played(1, (HUMAN, 1, 2), 12, 20)), "a,a"),
    ("turn_late_one", lambda: _game_store(lambda: _played(1, (HUMAN, 1, 2, 0), 12, 13)),
     "a,a,y,y,y,y,y,y,y,a"),
    ("turn_late_two", lambda: _game_store(lambda: _played(2, (HUMAN, 1, 2, 0), 11)),
     "a,a,y,y,y,y,y,y,y,a"),
    ("sheet_late_one", lambda: _game_store(lambda: _played(1, (HUMAN, 1, 2), 12, 20)), "a,b,y,y,a"),
    ("sheets_late_two", lambda: _game_store(lambda: _played(2, (HUMAN, 1, 2, 0), 11)),
     "a,x_long,y"),
    ("game_over_one", lambda: _game_store(lambda: _almost_over(1, (HUMAN, 2))), "a"),
    ("high_score", lambda: _game_store(lambda: _almost_over(1, (HUMAN, 2))), "a,a,y,a"),
    ("game_over_initials", lambda: _game_store(lambda: _almost_over(1, (HUMAN, 2))),
     "a,a,y,a,a,a"),
    ("game_over_solo", lambda: _solo_end(1), "a,y,a"),
    ("game_over_solo_two", lambda: _solo_end(2), "a,a"),
    ("game_over_clean", _reviewed_end, "a"),
    ("game_over_two", lambda: _game_store(lambda: _almost_over(2, (1, 2, 0))), "a"),
    ("sheets_game_over", lambda: _game_store(lambda: _almost_over(2, (1, 2, 0))), "a,y"),
    ("coach_review", lambda: _game_store(lambda: _almost_over(1, (HUMAN, 2))), "a,a,a,a,a,a"),
    ("stats_one", lambda: {"stats": _stats()}, "y,a"),
    ("stats_two", lambda: {"stats": _stats()}, "y,a,y"),
    ("high_scores", lambda: {"stats": _stats()}, "y,a,y,y"),
    ("dice_fairness", lambda: {"stats": _stats()}, "y,y,a"),
    ("rules_costs", None, "y,y,y,a"),
    ("rules_island_one", None, "y,y,y,a,y"),
    ("rules_island_two", None, "y,y,y,a,y,y"),
    ("rules_keys", None, "y,y,y,a,x"),
    ("settings", None, "y,y,y,y,a,y,y,a"),
    ("settings_swap", None, "y,y,y,y,a,y,a"),  # "Choose with" asks for the other button
    ("storage_problem", lambda: {"game": b"G\x01not a save"}, ""),
)
NAMES = tuple(s[0] for s in SCENES)


def run(name, canvas, check=None):
    """Play scene ``name`` on ``canvas``; ``check(app)`` is called after every draw."""
    for scene in SCENES:
        if scene[0] == name:
            break
    else:
        raise ValueError("no scene " + name)
    _, make, keys = scene
    store = MemStore(make() if make else None)
    app = App(canvas, store, roles=ROLES, dice=_dice)
    if name == "title_battery":  # the device's loop measured VSYS: a low LiPo cell
        app.battery = 3.45
    if name == "coach_review":  # a review as the coach would have noted it during the game
        from catan.players.review import Review

        app.review = Review()
        app.review.items = [(2, ("roll", 12), 2.4, ("stop",)), (6, ("build", 16), 1.3,
                            ("build", 0)), (11, ("end",), 0.7, ("build", 2))]
    now = 0
    app.tick(now)
    app.draw()
    canvas.take_dirty()
    for key in keys.split(","):
        if not key:
            continue
        if key[0] == "t":
            now += int(key[1:]) + 1
        else:
            now += 50
            app.handle(key)
        app.tick(now)
        app.draw()
        if check:
            check(app)
        canvas.take_dirty()
    # a tall screen's rules card may give Island One's rules two pages: on to Island Two's
    while name == "rules_island_two" and app.screen.pages[app.screen.page][0] < 2:
        now += 50
        app.handle("y")
        app.tick(now)
        app.draw()
        if check:
            check(app)
        canvas.take_dirty()
    return app


def repaint(app, canvas):
    """Paint ``app``'s current screen whole on a fresh canvas (to compare with the partial
    redraws of ``run``)."""
    canvas.invalidate()
    canvas.reset_clip()
    app.screen.paint(canvas)
