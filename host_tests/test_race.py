"""Island Two's solo race table (lib/catan/players/race.py, race_table.bin) and the coach's
numbers there: the device's reader numbers the states as the solver does, reads the same
from a frozen constant, and the coach's values are turns to 10 VP at every kind of moment."""

import os
import random
import sys

import numpy as np

from catan import players
from catan.dice import SeededDice
from catan.game import BUILD, OVER, REROLL, ROLL, Game
from catan.players import coach, race

SOLVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools", "solver")


def _solver():
    if SOLVER not in sys.path:
        sys.path.insert(0, SOLVER)
    import island2_model

    return island2_model


def _decode(path):
    # The table's product, decoded with numpy: T[group, sheet] in the solver's numbering.
    import struct

    data = open(path, "rb").read()
    rank, _, groups, sheets, n = struct.unpack("<BBHHH", data[4:12])
    scale = np.array(struct.unpack("<%dd" % rank, data[12:12 + 8 * rank]))
    at = 12 + 8 * rank + 4 * n
    gf = np.frombuffer(data, np.int8, groups * rank, at).reshape(groups, rank)
    sf = np.frombuffer(data, np.int8, sheets * rank, at + groups * rank).reshape(sheets, rank)
    return (gf * scale) @ sf.T.astype(float)


def test_the_reader_numbers_states_as_the_solver():
    m2 = _solver()
    path = os.path.join(os.path.dirname(race.__file__), race.TABLE)
    t = _decode(path)
    assert t.shape == (m2.N_GROUPS, m2.N_SHEETS)
    rng = random.Random(2)
    won = 0
    for _ in range(400):
        gi, si = rng.randrange(m2.N_GROUPS), rng.randrange(m2.N_SHEETS)
        masks = m2.masks_of(gi, si)
        got = race.turns_to_go(*masks)
        if m2.is_won(m2.GROUPS[gi], m2.SHEETS[si]):
            won += 1
            assert got == 0.0
        else:
            assert abs(got - max(1.0, t[gi, si])) < 1e-9, (m2.GROUPS[gi], m2.SHEETS[si])
    assert 0 < won < 400
    start = race.turns_to_go(0, 0, 0)
    assert abs(start - 9.4375) < 0.3  # the exact optimum (tools/solver/README.md): 9.4375


def test_the_race_table_frozen_as_bytes_reads_as_the_file(monkeypatch):
    import types

    m2 = _solver()
    rng = random.Random(3)
    states = [m2.masks_of(rng.randrange(m2.N_GROUPS), rng.randrange(m2.N_SHEETS))
              for _ in range(200)]
    monkeypatch.setattr(race, "_TABLE", None)
    from_file = [race.turns_to_go(*s) for s in states]
    frozen = types.ModuleType("catan.players.race_data")
    with open(os.path.join(os.path.dirname(race.__file__), race.TABLE), "rb") as f:
        frozen.DATA = f.read()
    monkeypatch.setitem(sys.modules, "catan.players.race_data", frozen)
    monkeypatch.setattr(race, "_TABLE", None)
    assert [race.turns_to_go(*s) for s in states] == from_file
    assert race.table().f.__class__.__name__ == "_InFlash"


def test_the_coach_counts_turns_in_the_solo_race():
    """A solo Island Two race played by a medium player: at every kind of moment the coach's
    advice is legal, its value (expected turns to 10 VP, counting the turns played) is the
    lowest it offers, and it is at least the turn being played."""
    from test_coach import legal

    g = Game(2, 1, SeededDice(6))
    assert coach.unit(g) == "turns to 10 VP"
    phases = set()
    while not g.over():
        action, best, choices = coach.hint(g)
        assert legal(g, action), (action, g.phase)
        assert best is not None and choices, g.phase
        assert best >= g.turns[0] + 1 - 1e-9
        for a, v in choices:
            assert v >= best - 1e-6, (a, v, best)
        assert choices == sorted(choices, key=lambda c: c[1])
        phases.add(g.phase)
        players.apply(g, players.next_action(g, 1, 6))
    assert phases == {ROLL, REROLL, BUILD} and g.phase == OVER


def test_the_hard_player_races_by_the_table():
    # Solo, the hard player plays by the race table: its games end, and quicker than the
    # medium player's on the same dice, on average.
    hard, medium = [], []
    for seed in range(8):
        for level, out in ((2, hard), (1, medium)):
            g = Game(2, 1, SeededDice(seed))
            players.play_game(g, [level], seed)
            out.append(g.turns_taken(0))
    assert sum(hard) < sum(medium), (hard, medium)
