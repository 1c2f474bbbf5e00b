"""The coach on Island Two with other players under real MicroPython (a Pico-sized heap): at
every kind of moment of a three-seat game of medium players its advice is legal, it has a
number (the expected turns to 10 VP of the player whose turn it is, from the race table),
and no keep, build or end it values is better than its own choice. Prints the time per hint
(this machine) and ALL-OK last."""

import gc

from catan import players
from catan.dice import SeededDice
from catan.game import Game
from catan.players import coach
from hint_timer import HintTimer
from player_checks import alternatives

g = Game(2, 3, SeededDice(7))
assert coach.unit(g) == "turns to 10 VP"
timer = HintTimer()
phases = 0
while not g.over():
    action, best = timer.hint(g)
    assert best is not None, (g.phase, action)
    assert best >= g.turns[g.player] + 1 - 1e-6, best
    for a in alternatives(g):
        v = coach.ev(g, a)
        assert v is None or v >= best - 1e-3, (a, v, best)
    phases |= 1 << g.phase
    players.apply(g, players.next_action(g, 1, 7 + g.player))
    gc.collect()
assert phases == 7, phases  # roll, re-roll and build
print("hints:", timer.n, "game turns:", g.game_turn + 1)
timer.report("coach_race_seats_hint")
print("ALL-OK")
