"""Benchmark workload: a full scripted 4-player Island Two game with the core.

tools/bench.py runs it under MicroPython in ever smaller heaps to find the smallest
one it completes in (``core_heap_bytes``); it prints the size of the game's save at
the start of its last turn (``core_state_bytes``) and the game's fingerprint.
"""

import gc

gc.collect()
from autoplay import fingerprint, play  # noqa: E402  (measure from an empty heap)
from catan import codec  # noqa: E402

_SEED = 1  # a seed whose scripted 4-player game reaches 10 VP


def _largest_save(g, best=[0]):
    best[0] = max(best[0], len(codec.dumps(g)))
    return best[0]


game = play(2, 4, _SEED, _largest_save)
assert game.over(), "the workload game did not finish"
print("core_state_bytes", _largest_save(game))
print(fingerprint(game))
print("ALL-OK")
