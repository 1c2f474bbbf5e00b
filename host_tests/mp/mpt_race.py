"""The coach on Island Two's solo race under real MicroPython (a Pico-sized heap): at every
kind of moment of a medium player's game its advice is legal and its value, the expected
turns to 10 VP from the race table, is the lowest it offers. Prints the time per hint
(``coach_race_hint_ms_mean``/``_worst``, this machine) and ALL-OK last."""

import gc

from catan import players
from catan.dice import SeededDice
from catan.game import Game
from catan.players import coach
from hint_timer import HintTimer
from player_checks import alternatives

g = Game(2, 1, SeededDice(6))
assert coach.unit(g) == "turns to 10 VP"
timer = HintTimer()
phases = 0
while not g.over():
    action, best = timer.hint(g)
    assert best is not None, (g.phase, action)
    assert best >= g.turns[0] + 1 - 1e-6, best
    for a in alternatives(g):
        v = coach.ev(g, a)
        assert v >= best - 1e-3, (a, v, best)
    phases |= 1 << g.phase
    players.apply(g, players.next_action(g, 1, 6))
    gc.collect()
assert phases == 7, phases  # roll, re-roll and build
print("hints:", timer.n, "turns:", g.turns_taken(0))
timer.report("coach_race_hint")
print("ALL-OK")
