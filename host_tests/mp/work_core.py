"""Benchmark workload: a full scripted 4-player Island Two game with the core.

tools/bench.py runs it under MicroPython in ever smaller heaps to find the smallest
one it completes in (``core_heap_bytes``), one decision per step (see tools/bench.py); it
prints the largest save the game made (``core_state_bytes``) and its fingerprint.
"""

from autoplay import fingerprint, steps as game_steps
from catan import codec

_SEED = 1  # a seed whose scripted 4-player game reaches 10 VP
_largest = [0]


def _measure_save(g):
    n = len(codec.dumps(g))
    if n > _largest[0]:
        _largest[0] = n


def steps():
    game = None
    for game in game_steps(2, 4, _SEED):
        _measure_save(game)
        yield
    assert game.over(), "the workload game did not finish"
    print("core_state_bytes", _largest[0])
    print(fingerprint(game))
    print("ALL-OK")


if __name__ == "__main__":
    for _ in steps():
        pass
