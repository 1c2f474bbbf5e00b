"""Pinned faces of SeededDice: the first 30 throws (keys 0..29) for three seeds.

Computed once on CPython and pinned; host_tests/test_dice.py asserts them on CPython and
host_tests/mp/mpt_rules.py under MicroPython, so the seeded dice stay identical across
runtimes (a game code must give the same dice on the Pico and on a PC).
"""

GOLDEN = {
    1: [0, 4, 5, 0, 3, 1, 3, 4, 5, 0, 4, 2, 1, 2, 4, 3, 3, 0, 4, 0, 3, 5, 4, 0, 2, 0, 0, 2, 2, 1],
    12345: [1, 3, 3, 5, 1, 0, 0, 4, 2, 4, 1, 3, 4, 1, 4, 2, 5, 5, 3, 3, 2, 1, 5, 4, 4, 3, 3, 5, 2, 5],
    33554431: [0, 0, 2, 4, 1, 0, 1, 2, 4, 3, 0, 1, 4, 4, 1, 5, 5, 2, 0, 1, 5, 5, 5, 4, 0, 0, 0, 5, 4, 4],
}
