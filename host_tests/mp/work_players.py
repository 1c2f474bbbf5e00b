"""Benchmark workload: decision time and heap of the computer players under MicroPython.

tools/bench.py runs it (one decision per step for the heap search) and reads the
printed figures: mean and worst microseconds per decision, per level and island.
"""

import time

from catan import players
from catan.dice import SeededDice
from catan.game import Game

GAMES = ((1, "easy"), (1, "medium"), (1, "hard"), (2, "easy"), (2, "medium"), (2, "hard"))


def steps():
    for island, level in GAMES:
        g = Game(island, 1, SeededDice(11))
        total = worst = n = 0
        while not g.over():
            t0 = time.ticks_us()
            a = players.next_action(g, level, 11)
            dt = time.ticks_diff(time.ticks_us(), t0)
            total += dt
            n += 1
            if dt > worst:
                worst = dt
            players.apply(g, a)
            yield
        print("players_us_mean_%d_%s %d" % (island, level, total // n))
        print("players_us_worst_%d_%s %d" % (island, level, worst))
    print("ALL-OK")


if __name__ == "__main__":
    for _ in steps():
        pass
