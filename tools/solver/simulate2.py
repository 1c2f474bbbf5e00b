"""Play many solo races of Island Two with the solver's table on catan.game: mean turns.

    python tools/solver/simulate2.py --table build/solver/island2.npz --games 2000
"""

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import policy2
from solve_island2 import load_table


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--table", default="build/solver/island2.npz")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--first-seed", type=int, default=1)
    args = ap.parse_args(argv)
    pol = policy2.TablePolicy2(load_table(args.table))
    t0 = time.time()
    turns = [policy2.play_game(pol, s)
             for s in range(args.first_seed, args.first_seed + args.games)]
    mean = np.mean(turns)
    se = np.std(turns, ddof=1) / np.sqrt(len(turns))
    print("%d games (seeds %d..): %.3f +- %.3f turns to 10 VP (SD %.2f, min %d, max %d), %.0f s"
          % (len(turns), args.first_seed, mean, se, np.std(turns, ddof=1), min(turns),
             max(turns), time.time() - t0))


if __name__ == "__main__":
    main()
