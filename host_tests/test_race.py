"""Island Two's solo race table (lib/catan/players/race.py, race_table.bin) and the coach's
numbers there: the device's reader numbers the states as the solver does, reads the same
from a frozen constant, and the coach's values are turns to 10 VP at every kind of moment."""

import os
import random
import sys

import pytest

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


def test_the_reader_numbers_states_as_the_solver():
    m2 = _solver()
    path = os.path.join(os.path.dirname(race.__file__), race.TABLE)
    t = m2.race_table_turns(path)  # the table's product, decoded with numpy
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
    assert race.table().f.__class__.__name__ == "InFlash"


def _refusal(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    with open(path, "rb") as f:
        with pytest.raises(ValueError) as e:
            race._Race(f, str(path))
    return str(e.value), str(path)


def test_a_file_that_is_not_the_race_table_is_refused_by_its_name(tmp_path):
    real = open(os.path.join(os.path.dirname(race.__file__), race.TABLE), "rb").read()
    said, path = _refusal(tmp_path, "v.bin", b"CDV1" + real[4:])  # the value table's mark
    assert said == "%s is not a race table" % path
    # a race table made for another map: its count of sheets is not the one the map's
    # roads number (1,353)
    for sheets in (1352, 1354):
        said, path = _refusal(tmp_path, "r%d.bin" % sheets,
                              real[:8] + sheets.to_bytes(2, "little") + real[10:])
        assert said == "%s does not match the map" % path


def test_the_race_table_the_players_open_is_named_when_refused(tmp_path, monkeypatch):
    # the file the players open themselves (``race.table``), not one handed to ``_Race``
    path = tmp_path / "race_table.bin"
    path.write_bytes(b"PK\x03\x04" + bytes(60))
    monkeypatch.setattr(race, "_TABLE", None)
    monkeypatch.setattr(race, "open_table", lambda name, frozen: (open(path, "rb"), str(path)))
    with pytest.raises(ValueError) as e:
        race.table()
    assert str(e.value) == "%s is not a race table" % path


def test_a_set_of_roads_no_sheet_can_hold_is_refused():
    # R1 without R0, the road it branches from: no sheet of the table has it
    with pytest.raises(ValueError) as e:
        race.turns_to_go(0b10, 0, 0)
    assert str(e.value) == "no such roads"


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


def test_the_coach_counts_turns_alone_and_with_other_players():
    """Island Two alone and with 2 and 4 seats (medium players): at every kind of moment the
    coach's advice is legal and has a number, the expected turns to 10 VP of the player whose
    turn it is, counting its turns, and it never shows its own choice worse than another it
    values (what the player may set up: any keep, any build, the end), so "yours" is never
    better than the coach's."""
    from test_coach import TIE, legal as _legal
    from player_checks import alternatives

    for n, seed in ((1, 6), (2, 11), (4, 12)):
        g = Game(2, n, SeededDice(seed))
        assert coach.unit(g) == "turns to 10 VP"
        phases = set()
        while not g.over():
            action, best = coach.hint(g)
            assert _legal(g, action), (action, g.phase)
            assert best is not None, g.phase
            assert best >= g.turns[g.player] + 1 - 1e-9
            assert abs(coach.ev(g, action) - best) < 1e-9
            for a in alternatives(g):  # (within the hard player's ties: keep more dice)
                v = coach.ev(g, a)
                assert v is None or v >= best - TIE, (a, v, best, action)
            phases.add(g.phase)
            players.apply(g, players.next_action(g, 1, seed + g.player))
        assert phases == {ROLL, REROLL, BUILD} and g.phase == OVER


def test_with_other_players_the_number_is_the_solo_race_s():
    # A sheet in a four-seat game after the dice ramp, its awards as they would be alone: the
    # coach's number before the roll is the solo race's from the same sheet and turn.
    from catan.position import setup

    sheet = ("R0", "R2", "R3", "R5", "S1", "S2", "K1")
    solo = setup(2, 1, SeededDice(1), built=(sheet,), turns=(4,), longest=0)
    four = setup(2, 4, SeededDice(1), built=((), sheet, ("R0",), ()), turns=(5, 4, 4, 4),
                 player=1, longest=1)
    assert four.dice_count() == 6
    a = coach.ev(solo, ("roll", None))
    b = coach.ev(four, ("roll", None))
    assert a is not None and abs(a - b) < 1e-9, (a, b)


def test_an_award_another_player_holds_is_2_vp_to_make_up():
    # The solo race gives a sheet Longest Road on its grey road and Largest Army on its third
    # knight; when another player holds one, the sheet is valued as the solo race's with 2 VP
    # of buildings fewer (a city, else two settlements): the VP it has to make up.
    from catan.players.plans import Context
    from catan.position import setup

    isl = Game(2, 1, SeededDice(1)).island
    bit = dict((isl.names[b], 1 << b) for b in range(len(isl.names)))
    sheet = ("R0", "R2", "R3", "R5", "S1", "S2")
    mine = setup(2, 2, SeededDice(1), built=(sheet, sheet), turns=(4, 4), longest=0)
    theirs = setup(2, 2, SeededDice(1), built=(sheet, sheet), turns=(4, 4), longest=1)
    roads, builds = mine.roads[0], mine.builds[0]
    t = race.turns_to_go(roads, builds, 0)
    assert abs(Context(mine, 2, 0).value((), 0) + t) < 1e-9
    fewer = race.turns_to_go(roads, builds & ~(bit["S1"] | bit["S2"]), 0)
    assert fewer > t
    assert abs(Context(theirs, 2, 0).value((), 0) + fewer) < 1e-9
    a = coach.ev(mine, ("roll", None))
    b = coach.ev(theirs, ("roll", None))
    assert a < b, (a, b)
    # Both awards held by the other: alone this sheet would have 11 VP, here it has 7 and is
    # valued as the solo race's with its two cities taken out (7 VP), not as a race won.
    sheet = ("R0", "R1", "R2", "R3", "R4", "R5", "S1", "S2", "S3", "C1", "C2", "K1", "K2",
             "K3")
    other = ("R0", "R2", "R3", "R5", "R6", "R7", "R8", "K4", "K5", "K6", "K7")
    g = setup(2, 2, SeededDice(1), built=(sheet, other), turns=(9, 9), longest=1, largest=1)
    assert g.vp(0) == 7
    roads, builds = g.roads[0], g.builds[0]
    assert race.turns_to_go(roads, builds, 0) == 0
    fewer = race.turns_to_go(roads, builds & ~(bit["C1"] | bit["C2"]), 0)
    assert fewer >= 1
    assert abs(Context(g, 2, 0).value((), 0) + fewer) < 1e-9
    assert coach.ev(g, ("roll", None)) > g.turns[0] + 1
