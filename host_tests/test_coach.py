"""The coach (lib/catan/players/coach.py): its advice is legal and the best of what it values, its
values are consistent with play, and the after-game review keeps the costliest choices. (Its
values against the exact solvers', at every turn: test_coach_solver.py.)"""

import os
import random
import sys

MP_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mp")
if MP_DIR not in sys.path:
    sys.path.insert(0, MP_DIR)

from catan import players
from catan.players import coach
from catan.players.review import Review
from catan.dice import ScriptedDice, SeededDice
from catan.game import BUILD, REROLL, ROLL, Game
from player_checks import alternatives, why_not


def _states(seed, n=40):
    # Positions of a medium player's game, one per decision.
    g = Game(1, 1, SeededDice(seed))
    while not g.over():
        yield g
        players.apply(g, players.next_action(g, 1, seed))


# Keeps whose values differ by less than this are ties to the hard player, who keeps more dice
# (reroll.exact_reroll): its choice may be worth that much less than another keep.
TIE = 1e-4


def legal(g, action):
    return why_not(g, action) is None


def test_advice_is_legal_and_worth_at_least_every_other_choice():
    seen = set()
    for g in _states(4):
        action, best = coach.hint(g)
        assert legal(g, action), (action, g.phase)
        assert best is not None and abs(coach.ev(g, action) - best) < 1e-6
        others = alternatives(g)
        assert others
        for a in others:
            assert coach.ev(g, a) <= best + TIE, (a, g.phase)
        # and the best of them is the coach's (a joker or trade only serves a build)
        if action[0] not in ("joker", "trade"):
            assert max(coach.ev(g, a) for a in others) >= best - 1e-6
        seen.add(g.phase)
    assert seen == {ROLL, REROLL, BUILD}


def test_values_are_expected_final_scores():
    # Before the first roll of an empty sheet the value is the coach's estimate of the
    # whole game: this turn exact, the later turns from the table's fit, so near the
    # solver's optimum (94.79) but not bound by it.
    g = Game(1, 1, SeededDice(1))
    _, best = coach.hint(g)
    assert abs(best - 94.79) < 2, best
    # On the last turn nothing comes after: keeping a roll that builds a road is worth the
    # track so far plus the road; ending is worth the track minus the X.
    g = Game(1, 1, ScriptedDice([2, 2, 2, 2, 2, 2] * 14 + [0, 1, 2, 2, 2, 2]))
    for _ in range(14):
        g.roll()
        g.stop()
        g.end_turn()
    g.roll()
    g.stop()
    assert g.score(0) == -28
    assert abs(coach.ev(g, ("build", 0)) - (-28 + 1)) < 1e-6
    assert abs(coach.ev(g, ("end",)) - (-28 - 2)) < 1e-6
    action, best = coach.hint(g)
    assert action == ("build", 0) and abs(best + 27) < 1e-6
    # and once built, this turn's point counts with the track's
    g.build(0)
    assert abs(coach.ev(g, ("end",)) - (-28 + 1)) < 1e-6


def test_a_worse_keep_is_valued_lower_than_the_coach_s():
    rnd = random.Random(2)
    worse = 0
    for g in _states(9):
        if g.phase != REROLL:
            continue
        action, best = coach.hint(g)
        mask = rnd.randrange(1, 1 << g.dice_count())
        v = coach.ev(g, ("roll", mask))
        assert v <= best + 1e-6
        worse += v < best - 1e-6
    assert worse > 0


def test_island_two_with_other_players_has_numbers_too():
    # (test_race.py: the numbers at every kind of moment of such games)
    g = Game(2, 2, SeededDice(3))
    action, best = coach.hint(g)
    assert action == ("roll", 7) and coach.unit(g) == "turns to 10 VP"
    assert best >= 1 and coach.ev(g, action) == best == coach.ev(g, ("roll", None))


def test_review_keeps_the_costliest_decisions():
    r = Review(keep=3)
    g = Game(1, 1, SeededDice(5))
    while not g.over():
        a = players.next_action(g, 0, 5)  # easy: plenty of costly choices
        r.note(g, a)
        players.apply(g, a)
    worst = r.worst(3)
    assert len(worst) == 3
    assert worst[0][2] >= worst[1][2] >= worst[2][2] > 0.05
    assert all(0 <= t < 15 and a != best for t, a, _, best in worst)


def test_the_coach_s_unit_names_what_its_numbers_count():
    assert coach.unit(Game(1, 1, SeededDice(1))) == "pts"
    assert coach.unit(Game(2, 3, SeededDice(1))) == "turns to 10 VP"


def _steps(g):
    # Every legal joker and trade of a build phase.
    from catan.maps import ANY, GOLD

    out = [("trade", r) for r in range(GOLD) if g.why_trade(r) is None]
    for j in g.usable_jokers():
        gives = g.island.jokers[j][0]
        for die in range(g.dice_count()):
            for r in (range(GOLD) if gives == ANY else (None,)):
                if g.why_joker(j, die, r) is None:
                    out.append(("joker", j, die, r))
    return out


def test_a_joker_or_trade_is_worth_what_it_leaves_and_a_costly_one_enters_the_review():
    # A joker or gold trade is valued by the best build the dice allow once it is done, so
    # one that serves no build (the wrong resource) costs what that build loses, and the
    # review charges it; the coach's own is worth its advice.
    charged = set()
    for seed in (1, 2, 5):
        for g in _states(seed):
            if g.phase != BUILD:
                continue
            action, best = coach.hint(g)
            for step in _steps(g):
                v = coach.ev(g, step)
                after = g.copy()
                after.perform(step)
                assert abs(v - coach.hint(after)[1]) < 1e-6, step
                assert v <= best + 1e-6
                if step == action:
                    assert abs(v - best) < 1e-6
                if v < best - 0.05:
                    r = Review()
                    assert r.note(g, step) and r.items[0][1] == step
                    assert abs(r.items[0][2] - (best - v)) < 1e-6
                    charged.add(step[0])
    assert charged == {"joker", "trade"}


def test_island_one_first_roll_value_is_the_tables():
    # Before a seat's first roll on Island One the coach's value is known before the game
    # starts (``coach._before_roll``): it is the keep tables' W0 of that turn for every seat of
    # every size of game; from the second turn on, and on Island Two, it is worked out by them.
    from catan.players import reroll
    from catan.players.plans import Context

    for island, seats in ((1, 1), (1, 2), (1, 3), (1, 4), (2, 1), (2, 3)):
        g = Game(island, seats, SeededDice(seats))
        while g.turns[-1] < 2 and not g.over():
            if g.phase == ROLL:
                players.forget()
                p = g.player
                w0 = reroll.turn_tables(Context(g, players.HARD, p), True)[2][0]
                want = g.score(p) + w0 if island == 1 else g.turns[p] + 1 - w0
                assert coach.ev(g, ("roll", None)) == want, (island, seats, p, g.turns[p])
            players.apply(g, players.next_action(g, players.HARD, g.player))


def test_no_value_for_a_choice_of_another_phase():
    # ``ev`` values what can be chosen now: before a roll nothing but the roll (the turn screen
    # asks it about the build under the cursor then, and must show no number), between rolls
    # a keep or stopping, in the build phase a build, a joker, a trade or the end.
    g = Game(1, 1, SeededDice(2))
    assert g.phase == ROLL and coach.ev(g, ("roll", None)) is not None
    for a in (("stop",), ("end",), ("build", 0)):
        assert coach.ev(g, a) is None, a
    g.roll()
    assert g.phase == REROLL and coach.ev(g, ("stop",)) is not None
    for a in (("roll", 0), ("end",), ("build", 0)):
        assert coach.ev(g, a) is None, a
    g.stop()
    assert g.phase == BUILD and coach.ev(g, ("end",)) is not None
    for a in (("roll", None), ("roll", 3), ("stop",)):
        assert coach.ev(g, a) is None, a


def test_a_stop_or_a_build_is_worth_the_best_of_what_follows():
    # Stopping is worth the build phase it leads to (the keep tables' value of building with
    # the dice as they are), a build the state after it (the best plan with that item): the
    # coach's best there. Island One and Island Two solo (a race's value moves with the
    # other seats: not checked here); the tables' float32 agrees to 1e-5.
    stops = builds = 0
    for island, seed in ((1, 4), (1, 7), (2, 3)):
        g = Game(island, 1, SeededDice(seed))
        while not g.over():
            if g.phase == REROLL:
                after = g.copy()
                after.stop()
                assert abs(coach.ev(g, ("stop",)) - coach.hint(after)[1]) < 1e-5, g.rolls_left()
                stops += 1
            elif g.phase == BUILD:
                for a in alternatives(g):
                    after = g.copy()
                    after.perform(a)
                    if a[0] == "build" and not after.over():
                        assert abs(coach.ev(g, a) - coach.hint(after)[1]) < 1e-5, a
                        builds += 1
            players.apply(g, players.next_action(g, players.HARD, g.player))
    assert stops > 40 and builds > 100, (stops, builds)


def test_the_coach_s_own_joker_or_trade_is_valued_by_the_plans_it_was_chosen_by(monkeypatch):
    # The hard player chooses a joker or trade for its best plan: the hint values it by that
    # plan, already worked out, not by a second search of every plan from the state after the
    # step (the build phase's costliest work on the device). One search a state, and the same
    # value as the step's own (``ev``).
    from catan.players import plans

    searches = []
    search = plans.Context.now_work

    def counted(self, *args):
        searches.append(bytes(self.game.faces))
        return search(self, *args)

    monkeypatch.setattr(plans.Context, "now_work", counted)
    seen = 0
    for seed in (1, 2, 5):
        g = Game(1, 1, SeededDice(seed))
        while not g.over():
            if g.phase == BUILD:
                del searches[:]
                action, best = coach.hint(g)
                if action[0] in ("joker", "trade"):
                    assert len(searches) == 1, (action, searches)
                    assert abs(coach.ev(g, action) - best) < 1e-6
                    seen += 1
            players.apply(g, players.next_action(g, players.HARD, g.player))
    assert seen > 5, seen
