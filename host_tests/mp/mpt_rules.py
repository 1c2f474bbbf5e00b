"""The rules core under MicroPython: the rules checks that matter most, run on the VM.

Run by host_tests/test_micropython.py under the unix port (Pico-sized heap) and the
WebAssembly port (32-bit), importing the core from .mpy files. The full rules suite
is pytest on CPython; the fingerprints printed here are compared with CPython's by
host_tests/test_same_on_micropython.py, which proves both runtimes play the same game.
"""

import gc

from autoplay import fingerprint, play
from catan import codec, maps
from catan.dice import HardwareDice, ScriptedDice, SeededDice, code_to_seed, seed_to_code
from catan.game import Game, IllegalAction

B, L, W, G, O, AU = maps.BRICK, maps.LUMBER, maps.WOOL, maps.GRAIN, maps.ORE, maps.GOLD


def refused(action, *args):
    try:
        action(*args)
    except IllegalAction as e:
        return str(e)
    raise AssertionError("accepted: %r" % (args,))


def rolled(island, players, faces, extra=()):
    # A game whose first roll shows ``faces``, rolling stopped.
    g = Game(island, players, ScriptedDice(list(faces) + list(extra)))
    g.roll()
    g.stop()
    return g


def check_seed_examples():
    # Island One: "a turn with a road and a knight scores 2".
    one = maps.ISLAND_ONE
    g = rolled(1, 1, (B, L, O, W, G, AU))
    g.build(one.item("R0"))
    g.build(one.item("K1"))
    g.end_turn()
    assert g.score(0) == 2, g.score(0)
    # Then one road a turn, and two turns with no build: each X counts -2.
    g = Game(1, 1, ScriptedDice([B, L, W, W, W, W] * 15))
    roads = iter(range(16))
    for t in range(15):
        g.roll()
        if t not in (4, 9):
            g.build(next(roads))
        g.end_turn()
    assert g.over() and g.score(0) == 13 - 4, g.score(0)
    assert list(g.track).count(maps.X_PENALTY) == 2


def check_building_rules():
    one = maps.ISLAND_ONE
    g = rolled(1, 1, (B, L, B, L, W, G))
    assert refused(g.build, one.item("S4")) == "S4 needs road R2 first"
    assert "comes after" in refused(g.build, one.item("K2"))
    g.build(one.item("R0"))
    g.build(one.item("R2"))
    assert refused(g.build, one.item("S4")).startswith("S4 comes after S3")
    before = (g.roads[0], g.builds[0], g.spent, bytes(g.faces))
    assert refused(g.build, one.item("R3"))
    assert (g.roads[0], g.builds[0], g.spent, bytes(g.faces)) == before
    g.undo()
    g.undo()
    assert g.roads[0] == 0 and g.spent == 0
    assert refused(g.undo) == "nothing to undo this turn"


def check_jokers_and_trades():
    # Six gold: three trades; the knight built this turn lends its joker at once.
    g = rolled(1, 1, (AU,) * 6)
    for r in (O, W, G):
        g.trade(r)
    assert refused(g.trade, O) == "a trade needs two gold dice"
    g.build(maps.ISLAND_ONE.item("K1"))
    assert g.usable_jokers() == [], "no free die left"
    # Island Two: a desert joker needs both its knights.
    two = maps.ISLAND_TWO
    g = rolled(2, 1, (O, W, G, O, W, G))
    g.build(two.item("K6"))
    assert refused(g.joker, 5, 0, B) == "build K6 and K7 first"
    g.build(two.item("K7"))
    assert g.usable_jokers() == [], "every die is spent"


def check_island_two():
    g = Game(2, 3, ScriptedDice([B] * 100))
    counts = []
    for _ in range(6):
        counts.append(g.dice_count())
        g.roll()
        g.end_turn()
    assert counts == [3, 4, 5, 6, 6, 6], counts
    assert Game(2, 1, None).dice_count() == 6
    # Longest Road: the grey road R5 takes it; a 5-road path without it does not.
    g = Game(2, 2, None)
    g.roads[0] = 1 << 0 | 1 << 2 | 1 << 3 | 1 << 4
    assert g.road_length(0) == 5 and g.longest == -1
    g.roads[1] = 1 << 0 | 1 << 1 | 1 << 2
    assert g.road_length(1) == 3  # R1 and R2 branch at one corner: branches do not add


def check_dice():
    counts = [0] * 6
    d = HardwareDice(lambda n: bytes(range(256))[:n] if n <= 256 else None)
    for byte in range(256):
        f = byte % 6 if byte < 252 else -1
        if f >= 0:
            counts[f] += 1
    assert counts == [42] * 6
    assert 0 <= d.face() <= 5
    assert code_to_seed(seed_to_code(12345)) == 12345
    try:
        from golden_dice import GOLDEN
    except ImportError:
        GOLDEN = {}
    for seed, faces in GOLDEN.items():
        s = SeededDice(seed)
        assert [s.face(k) for k in range(len(faces))] == faces, seed


def check_saves():
    g = play(2, 4, 7)
    data = codec.dumps(g)
    h = codec.loads(data)
    assert codec.dumps(h) == data
    for n in range(len(data)):
        try:
            codec.loads(data[:n])
            raise AssertionError("a truncated save loaded")
        except codec.SaveError:
            pass
    state = []

    def round_trip(g):
        s = codec.dumps(g)
        assert codec.dumps(codec.loads(s)) == s
        state.append(len(s))

    play(1, 2, 11, round_trip)
    assert state and max(state) < 100, max(state)


check_seed_examples()
check_building_rules()
check_jokers_and_trades()
check_island_two()
check_dice()
check_saves()
gc.collect()
for island, players in ((1, 1), (1, 4), (2, 1), (2, 2), (2, 4)):
    for seed in (1, 2024):
        print(fingerprint(play(island, players, seed)))
print("ALL-OK")
