"""Computer players (catan.players): legal actions, complete games, determinism, levels.

The level ordering checks use small seeded samples with generous margins (measured
means over 2,000 games, tools/selfplay.py: Island One easy 41.1, medium 62.1, hard 93.0;
Island Two solo turns to 10 VP easy 18.2, medium 12.6, hard 12.0). No timing assertions.
"""

import os

import pytest

from catan import players
from catan.players import plans, reroll, values
from catan.dice import ScriptedDice, SeededDice
from catan.game import BUILD, ROLL, Game
from catan.maps import ISLAND_ONE

LEVELS = ("easy", "medium", "hard")


def why_not(game, action):
    """The game's reason to refuse ``action`` (None when it is legal)."""
    op = action[0]
    if op == "roll":
        return game.why_roll(action[1])
    if op == "stop":
        return game.why_stop()
    if op == "joker":
        return game.why_joker(action[1], action[2], action[3])
    if op == "trade":
        return game.why_trade(action[1])
    if op == "build":
        return game.why_build(action[1])
    if op == "end":
        return game.why_end()
    return "unknown action %r" % (op,)


def play_checked(island, levels, seed, limit=4000):
    """Play a game, checking every action before it is applied; (game, actions)."""
    game = Game(island, len(levels), SeededDice(seed))
    actions = []
    while not game.over():
        action = players.next_action(game, levels[game.player], seed)
        assert why_not(game, action) is None, (action, why_not(game, action))
        players.apply(game, action)
        actions.append(action)
        assert len(actions) < limit, "the game does not end"
    assert players.next_action(game, levels[0]) is None
    return game, actions


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("island", (1, 2))
@pytest.mark.parametrize("seats", (1, 2, 3, 4))
def test_games_complete_with_legal_actions(island, seats, level):
    levels = [level] * seats
    game, actions = play_checked(island, levels, seed=seats * 10 + island)
    if island == 1:
        assert game.turns == [15] * seats
    else:
        assert game.winner >= 0 and game.vp(game.winner) >= 10


def test_mixed_levels_and_jokers_and_trades_are_used():
    seen = set()
    for seed in range(1, 9):
        _, actions = play_checked(1, ["hard", "medium"], seed)
        seen.update(a[0] for a in actions)
        _, actions = play_checked(2, ["easy", "hard", "medium"], seed)
        seen.update(a[0] for a in actions)
    assert {"roll", "stop", "joker", "trade", "build", "end"} <= seen


def test_one_action_at_a_time_in_build_phase():
    # After rolling, each call returns one step; a build phase ends with "end".
    game = Game(1, 1, SeededDice(5))
    acts = players.play_turn(game, "hard")
    assert acts[0][0] == "roll" and acts[-1] == ("end",)
    assert game.turns[0] == 1 and game.phase != BUILD


@pytest.mark.parametrize("island", (1, 2))
def test_deterministic(island):
    for level in LEVELS:
        a, acts_a = play_checked(island, [level, level], 77)
        b, acts_b = play_checked(island, [level, level], 77)
        assert acts_a == acts_b and bytes(a.log) == bytes(b.log)


def test_levels_accept_names_and_numbers():
    assert [players.level_of(x) for x in ("easy", "medium", "hard", 0, 2)] == [0, 1, 2, 0, 2]
    with pytest.raises(ValueError):
        players.level_of("expert")


def mean(xs):
    return sum(xs) / len(xs)


def solo_means(island, first_seed, result):
    """{level: mean of result(game)} over 30 seeded one-seat games per level."""
    means = {}
    for level in LEVELS:
        out = []
        for seed in range(1, 31):
            g = Game(island, 1, SeededDice(first_seed + seed))
            players.play_game(g, [level], seed)
            out.append(result(g))
        means[level] = mean(out)
    return means


def test_island_one_hard_beats_medium_beats_easy():
    scores = solo_means(1, 1000, lambda g: g.score(0))
    assert scores["hard"] > scores["medium"] + 15 > scores["easy"] + 25, scores
    assert scores["hard"] > 85, scores  # the optimum is 94.79


def test_island_two_solo_turns_by_level():
    turns = solo_means(2, 2000, lambda g: g.turns[0] + 1)
    assert turns["easy"] > turns["medium"] + 3, turns
    assert turns["hard"] < turns["medium"] + 1, turns


def test_island_two_hard_wins_against_easy():
    wins = 0
    games = 24
    for i in range(games):
        seat = i % 4
        levels = ["easy"] * 4
        levels[seat] = "hard"
        g = Game(2, 4, SeededDice(3000 + i))
        players.play_game(g, levels, i)
        wins += g.winner == seat
    assert wins >= games * 0.6, wins


def test_value_table_is_compact_and_sane():
    size = os.path.getsize(os.path.join(os.path.dirname(values.__file__), values.TABLE))
    assert size < 40000
    # The empty sheet before turn 2 is worth 85.45 (solver README); the table is a fit.
    v = values.island_one_value(2, 0, 0, 0)
    assert abs(v - 85.45) < 5, v
    assert values.island_one_value(16, 0, 0, 0) == 0
    # With every road, settlement and city built only the knights are left (at most 21
    # points; the solver says 11.0 before turn 5).
    full_roads = (1 << ISLAND_ONE.n_roads) - 1
    sites = (1 << 10) - 1  # S3..S11, C7..C30
    assert 5 < values.island_one_value(5, full_roads, sites, 0) < 21


def test_the_value_table_frozen_as_bytes_reads_as_the_file(monkeypatch):
    # A game UF2 freezes the table as a module's bytes constant (tools/uf2.py), read in place
    # from flash through values._InFlash: the same values as the file, at every turn.
    import random
    import sys
    import types

    path = os.path.join(os.path.dirname(values.__file__), values.TABLE)
    rng = random.Random(5)
    states = [(rng.randint(2, 16), rng.getrandbits(ISLAND_ONE.n_roads) | 1, rng.getrandbits(10),
               rng.getrandbits(6)) for _ in range(300)]
    monkeypatch.setattr(values, "_ONE", None)
    from_file = [values.island_one_value(*s) for s in states]
    assert values.value_table().f.__class__ is not values._InFlash
    frozen = types.ModuleType("catan.players.coach_data")
    with open(path, "rb") as f:
        frozen.DATA = f.read()
    monkeypatch.setitem(sys.modules, "catan.players.coach_data", frozen)
    monkeypatch.setattr(values, "_ONE", None)
    assert [values.island_one_value(*s) for s in states] == from_file
    assert values.value_table().f.__class__ is values._InFlash


def test_dice_chance():
    assert abs(reroll._chance([1, 0, 0, 0, 0], 1, 1) - 1 / 6) < 1e-12
    assert abs(reroll._chance([1, 0, 0, 0, 0], 1, 2) - (1 - (5 / 6) ** 2)) < 1e-12
    assert reroll._chance([2, 0, 0, 0, 0], 1, 3) == 0
    assert reroll._chance([0, 0, 0, 0, 0], 0, 0) == 1


def test_a_knight_built_first_lends_its_joker_to_the_rest_of_the_plan():
    # Rules: a knight's joker may be used the turn the knight is built. K1-K3 built, a
    # roll of ore, wool, grain, brick and two more grain: K4 (ore, wool, grain) and road R0
    # (brick, lumber) are paid only if K4's joker (lumber) turns a spare die.
    g = Game(1, 1, ScriptedDice([2, 3, 4, 0, 2, 2]))
    nr = ISLAND_ONE.n_roads
    k4 = nr + 13
    g.builds[0] = 0b111 << 10  # K1, K2, K3
    g.roll()
    g.stop()
    ctx = plans._Context(g, players.HARD, 0)
    counts = g.unspent()
    cost = (1, 1, 1, 1, 1)
    assert plans._cover(counts, cost, ctx.jokers) is None
    ways = ctx.pays(counts, (0, k4), cost, None)
    assert ways == [([], [(3, 1)])]
    assert ctx.pays(counts, (0,), (1, 1, 0, 0, 0), None) == []  # no knight, no loan


# ------------------------------------------------------------ thinking ahead in slices


def _play_to(game, phase, level=players.HARD):
    while game.phase != phase:
        game.perform(players.next_action(game, level, game.player))


@pytest.mark.parametrize("island,seats", [(1, 1), (2, 3)])
def test_think_in_slices_gives_the_same_decisions(island, seats):
    # Work ahead one slice at a time (``until`` true at once: the smallest slices a front end
    # can ask for) before every decision: the same actions as deciding from nothing.
    sliced = Game(island, seats, SeededDice(11))
    plain = Game(island, seats, SeededDice(11))
    slices = 0
    while not plain.over():
        while not players.think(sliced, players.HARD, lambda: True):
            slices += 1
        a = players.next_action(sliced, players.HARD, sliced.player)
        players.forget()  # decide afresh
        assert a == players.next_action(plain, players.HARD, plain.player)
        sliced.perform(a)
        plain.perform(a)
    assert slices > 100  # the work really came in many slices


def test_the_next_seats_tables_are_made_while_a_computer_builds():
    # Given the next seat, a computer's idle time in its build phase goes to that seat's
    # tables in the state its plan leads to: mostly ready when its turn comes, and the
    # decisions are those made from nothing.
    players.forget()
    g = Game(2, 4, SeededDice(3))
    done = []
    ready = 0
    while not g.over():
        if g.phase == ROLL:
            ready += players.think(g, players.HARD, lambda: True)
        while not players.think(g, players.HARD, lambda: False, g.player,
                                then=(players.HARD, (g.player + 1) % 4, False)):
            pass
        done.append(players.next_action(g, players.HARD, g.player))
        g.perform(done[-1])
    players.forget()
    plain = Game(2, 4, SeededDice(3))
    for a in done:
        assert a == players.next_action(plain, players.HARD, plain.player)
        plain.perform(a)
    turns = g.game_turn
    assert turns > 20 and ready > turns * 3 // 4, (ready, turns)


def test_think_is_done_at_once_when_there_is_nothing_to_work_out():
    g = Game(2, 2, SeededDice(2))  # an easy player's first roll: no tables
    assert players.think(g, players.EASY, lambda: True)
    g = Game(1, 1, SeededDice(2))
    _play_to(g, BUILD)
    while not players.think(g, players.HARD, lambda: True):
        pass
    assert players.think(g, players.HARD, lambda: True)  # the build phase's plans: done


def test_tables_worked_out_ahead_are_those_of_the_turn():
    # Thinking for one seat and then asking for another's tables must not reuse the first.
    g = Game(2, 2, SeededDice(5))
    while not players.think(g, players.HARD, lambda: False):
        pass
    ctx = plans._Context(g, players.MEDIUM, g.player)
    w1, w2 = (list(w) for w in reroll._turn_tables(ctx))
    reroll._TURN[0] = None
    assert (list(reroll._turn_tables(ctx)[0]), list(reroll._turn_tables(ctx)[1])) == (w1, w2)
