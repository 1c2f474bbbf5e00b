"""The coach under real MicroPython: hints over a whole solo Island One game (a medium player
choosing), each legal and the best of the values it offers; the review keeps the costliest
choices. Prints the time per hint (``coach_hint_ms_mean``/``_worst``, this machine: tools/
bench.py reads them) and ALL-OK last."""

import time

from catan import players
from catan.players import coach
from catan.players.review import Review
from catan.dice import SeededDice
from catan.game import Game

g = Game(1, 1, SeededDice(4))
review = Review()
n = total = worst = 0
while not g.over():
    t0 = time.ticks_us()
    action, best, choices = coach.hint(g)
    dt = time.ticks_diff(time.ticks_us(), t0)
    n += 1
    total += dt
    worst = max(worst, dt)
    assert best is not None and choices, (g.phase, action)
    for a, v in choices:
        assert v <= best + 1e-3, (a, v, best)
    mine = players.next_action(g, 1, 4)
    review.note(g, mine)
    players.apply(g, mine)
assert review.worst(1) and review.worst(1)[0][2] > 0
print("hints:", n, "score:", g.score(0))
print("coach_hint_ms_mean %d.%d" % (total // n // 1000, total // n // 100 % 10))
print("coach_hint_ms_worst %d.%d" % (worst // 1000, worst // 100 % 10))
print("ALL-OK")
