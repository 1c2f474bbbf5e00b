"""Computer players under MicroPython: a game per level on both islands completes, every
action is legal, and the same seed plays the same game.

Run by host_tests/test_micropython.py under the unix port (Pico-sized heap) and the
wasm port (32-bit), importing catan from build/mpy. Prints ALL-OK last.
"""

import gc

from catan import players
from catan.dice import SeededDice
from catan.game import Game
from player_checks import cut_after, exact_chance, why_not


def play(island, levels, seed):
    g = Game(island, len(levels), SeededDice(seed))
    n = 0
    while not g.over():
        a = players.next_action(g, levels[g.player], seed)
        why = why_not(g, a)
        assert why is None, (a, why)
        players.apply(g, a)
        n += 1
        assert n < 4000, "the game does not end"
        if n % 16 == 0:
            gc.collect()
    return g


for level in players.LEVELS:
    g = play(1, [level], 3)
    assert g.turns == [15], g.turns
    print("island 1", level, "score", g.score(0))
    g = play(2, [level, "easy"], 4)
    assert g.winner >= 0 and g.vp(g.winner) >= 10
    print("island 2", level, "winner", g.winner, "turns", g.game_turn + 1)
    gc.collect()

a = play(1, ["hard"], 9)
b = play(1, ["hard"], 9)
assert bytes(a.log) == bytes(b.log)


def interrupted(cuts):
    # Issue 26, 5: a computer's work ahead on the next seat's tables (``then``) cut part-way,
    # another key's tables made in the same arrays, the first work resumed to its end: the
    # next seat's re-roll is still the one decided from nothing.
    other = Game(2, 3, SeededDice(5))
    while other.phase != 1 or other.game_turn < 4:  # a hard re-roll on Island Two
        other.perform(players.next_action(other, "hard", other.player))
    b = Game(1, 1, SeededDice(3))
    while b.phase != 2 or b.game_turn < 6:  # a hard build phase on Island One
        b.perform(players.next_action(b, "hard", 0))
    after = b.copy()
    while after.phase == 2:
        after.perform(players.next_action(after, "hard", 0))
    after.roll()
    players.forget()
    want = players.next_action(after, "hard", 0)
    for cut in cuts:
        players.forget()
        players.think(b, "hard", cut_after(cut), 0, then=("hard", 0, False))
        players.next_action(other, "hard", other.player)
        gc.collect()
        assert players.think(b, "hard", lambda: False, 0, then=("hard", 0, False))
        got = players.next_action(after, "hard", 0)
        assert got == want, (cut, got, want)
    players.forget()
    return len(cuts)


print("interrupted next seat:", interrupted((40, 150, 300, 450, 600, 700)))


def chances():
    # every chance against the exact one (player_checks), here because a MicroPython dict is
    # not ordered by insertion: the die-by-die walk must not depend on the order of its states
    from catan.players import reroll

    checked = 0
    for a in range(7):
        for b in range(a, 7):
            for c in range(b, 7):
                for d in range(c, 7):
                    for e in range(d, 7):
                        deficit = (a, b, c, d, e)
                        for n in range(sum(deficit), 7):
                            for rolls in (1, 2, 3):
                                got = reroll._chance(list(reversed(deficit)), n, rolls)
                                want = exact_chance(deficit, n, rolls)
                                assert abs(got - want) < 1e-9, (deficit, n, rolls, got, want)
                                checked += 1
        gc.collect()
    return checked


print("chances as worked out exactly:", chances())
print("ALL-OK")
