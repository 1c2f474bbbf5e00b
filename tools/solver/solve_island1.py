"""Solve Island One exactly: the maximum expected final score of one sheet over 15 turns.

    python tools/solver/solve_island1.py --out build/solver/island1.npz

writes the value tables and prints the optimum, the solve time and the peak memory.

The .npz holds:
- ``V``: (16, groups, sheets), V[t - 1] = expected sum of boxes t..15 before turn t
  under optimal play (V[15], after the last turn, is 0), in ``--dtype`` (float32 default);
- ``sheets``: (sheets, 3) int: road mask, settlement level, city level of each sheet column;
- ``groups``: (groups, 2) int: knight level, used-joker mask (bit j: the joker of knight
  j + 1) of each group row;
- ``optimum``: float64, V before turn 1 on the empty sheet.
See README.md in this folder for the method.
"""

import argparse
import os
import resource
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import island1_dp as dp
from island1_model import EMPTY_SHEET, GROUPS, SHEETS, TURNS, n_states


def peak_memory_mb():
    """Peak resident memory of this process so far, in MB (Linux reports KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def save_tables(path, v, dtype, seconds=None):
    """Write the tables of ``dp.solve`` (rows t = 1..16) to ``path``, with the solve time."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    np.savez_compressed(
        path,
        V=v[1:].astype(dtype),
        sheets=np.array(SHEETS, dtype=np.int32),
        groups=np.array(GROUPS, dtype=np.int32),
        optimum=np.float64(v[1][0, EMPTY_SHEET]),
        seconds=np.float64(-1 if seconds is None else seconds),
    )


def load_tables(path):
    """The tables of a saved solve, as ``dp.solve`` returns them (float64, row 0 NaN)."""
    with np.load(path) as z:
        v = z["V"].astype(np.float64)
    return np.concatenate([np.full((1,) + v.shape[1:], np.nan), v])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="build/solver/island1.npz")
    ap.add_argument("--turns", type=int, default=TURNS,
                    help="solve only the last TURNS turns (default: all 15)")
    ap.add_argument("--dtype", default="float32", choices=("float32", "float64"))
    args = ap.parse_args(argv)
    print("Island One: %d sheets x %d groups = %d states per turn"
          % (len(SHEETS), len(GROUPS), n_states()))
    t0 = time.time()
    v = dp.solve(args.turns)
    elapsed = time.time() - t0
    first = TURNS + 1 - args.turns
    print("optimum: V(turn %d, empty sheet) = %.6f" % (first, v[first][0, EMPTY_SHEET]))
    print("solve time: %.1f s; peak memory: %.0f MB" % (elapsed, peak_memory_mb()))
    if args.out:
        save_tables(args.out, v, args.dtype, elapsed)
        print("tables written to %s" % args.out)


if __name__ == "__main__":
    main()
