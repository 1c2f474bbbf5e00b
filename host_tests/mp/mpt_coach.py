"""The coach under real MicroPython: hints over a whole solo Island One game (a medium player
choosing), each legal and worth at least every other choice; the review keeps the costliest
choices. Prints the time per hint (``coach_hint_ms_mean``/``_worst``, this machine: tools/
bench.py reads them) and ALL-OK last."""

from catan import players
from catan.players import coach
from catan.players.review import Review
from catan.dice import SeededDice
from catan.game import Game
from hint_timer import HintTimer
from player_checks import alternatives

g = Game(1, 1, SeededDice(4))
review = Review()
timer = HintTimer()
while not g.over():
    action, best = timer.hint(g)
    assert best is not None, (g.phase, action)
    for a in alternatives(g):
        v = coach.ev(g, a)
        assert v <= best + 1e-3, (a, v, best)
    mine = players.next_action(g, 1, 4)
    review.note(g, mine)
    players.apply(g, mine)
assert review.worst(1) and review.worst(1)[0][2] > 0
print("hints:", timer.n, "score:", g.score(0))
timer.report("coach_hint")
print("ALL-OK")
