"""Timing the coach's hints in the test scripts (mpt_coach.py, mpt_race.py,
mpt_race_seats.py), plain MicroPython: imported from host_tests/mp, the script's own
folder. The lines it prints are read by tools/bench.py."""

import time

from catan.players import coach


class HintTimer:
    """``coach.hint`` timed: the number of hints, their total and worst microseconds."""

    def __init__(self):
        self.n = self.total = self.worst = 0

    def hint(self, g):
        """``coach.hint(g)`` (action, best), its time noted."""
        t0 = time.ticks_us()
        got = coach.hint(g)
        dt = time.ticks_diff(time.ticks_us(), t0)
        self.n += 1
        self.total += dt
        self.worst = max(self.worst, dt)
        return got

    def report(self, name):
        """Print ``<name>_ms_mean`` and ``<name>_ms_worst``, in ms to a tenth."""
        mean = self.total // self.n
        print("%s_ms_mean %d.%d" % (name, mean // 1000, mean // 100 % 10))
        print("%s_ms_worst %d.%d" % (name, self.worst // 1000, self.worst // 100 % 10))
