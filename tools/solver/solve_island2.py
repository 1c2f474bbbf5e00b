"""Solve Island Two's solo race exactly: the minimum expected number of turns to 10 VP.

    python tools/solver/solve_island2.py --out build/solver/island2.npz

writes the value table and prints the optimum, the solve time and the peak memory.

The .npz holds:
- ``T``: (groups, sheets) float64, the expected number of turns to 10 VP from each state
  under optimal play (0 for a won state), before the turn begins;
- ``sheets``: (sheets, 3) int: road mask, settlements built, cities built;
- ``groups``: (groups, 7) int: the codes of K1..K5 (0 not built, 1 joker unused, 2 used)
  and of the two deserts, sorted (0, 1 or 2 knights, 3: both and the joker used);
- ``optimum``: float64, the expected turns from the empty sheet; ``seconds``; ``peak_mb``
  (the largest resident size of the main process or a worker).
See README.md in this folder for the method.
"""

import argparse
import os
import resource
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import island2_dp as dp
from island2_model import GROUPS, SHEETS


def peak_memory_mb():
    """Peak resident memory of this process and its finished workers, in MB."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return own / 1024.0, kids / 1024.0


def save_table(path, u, seconds=None, peak_mb=None):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    np.savez_compressed(
        path,
        T=-u,
        sheets=np.array(SHEETS, dtype=np.int32),
        groups=np.array([ks + (d1, d2) for ks, d1, d2 in GROUPS], dtype=np.int32),
        optimum=np.float64(dp.optimum(u)),
        seconds=np.float64(-1 if seconds is None else seconds),
        peak_mb=np.float64(-1 if peak_mb is None else peak_mb),
    )


def load_table(path):
    """U (groups, sheets) as ``dp.solve`` returns it: minus the expected turns."""
    with np.load(path) as z:
        return -z["T"].astype(np.float64)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="build/solver/island2.npz")
    ap.add_argument("--workers", type=int, default=2,
                    help="processes solving the groups of one level (default 2)")
    args = ap.parse_args(argv)
    open_states = int((~dp.WON).sum())
    print("Island Two solo race: %d sheets x %d groups = %d states, %d not yet won"
          % (len(SHEETS), len(GROUPS), len(SHEETS) * len(GROUPS), open_states))
    t0 = time.time()
    u = dp.solve(workers=args.workers)
    elapsed = time.time() - t0
    assert not np.isnan(u).any()
    print("optimum: %.6f expected turns to 10 VP from the empty sheet" % dp.optimum(u))
    own, kids = peak_memory_mb()
    print("solve time: %.1f s; peak memory: %.0f MB (main), %.0f MB (largest worker)"
          % (elapsed, own, kids))
    if args.out:
        save_table(args.out, u, elapsed, max(own, kids))
        print("table written to %s" % args.out)


if __name__ == "__main__":
    main()
