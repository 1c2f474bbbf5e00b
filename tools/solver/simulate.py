"""Play many games of Island One on the real rules core with the solver's policy.

    python tools/solver/simulate.py --tables build/solver/island1.npz --games 4000
    python tools/solver/simulate.py --policy greedy --games 4000

Each game uses ``catan.dice.SeededDice(seed)`` for seeds first..first+games-1 and checks
every turn against the solver's prediction (see ``policy.play_game``). Prints the mean
score, its standard error and, for the optimal policy, the z-score of the difference
from the computed optimum.
"""

import argparse
import math
import multiprocessing
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import policy
from island1_model import EMPTY_SHEET
from solve_island1 import load_tables

_POLICY = None


def _init(kind, tables):
    global _POLICY
    v = policy.greedy_tables() if kind == "greedy" else load_tables(tables)
    _POLICY = policy.TablePolicy(v)


def _play(seed):
    return policy.play_game(_POLICY, seed)


def simulate(kind, tables, games, first=1, workers=2):
    """Scores of ``games`` games (a list, in seed order)."""
    seeds = range(first, first + games)
    if workers <= 1:
        _init(kind, tables)
        return [_play(s) for s in seeds]
    with multiprocessing.Pool(workers, _init, (kind, tables)) as pool:
        return pool.map(_play, seeds, chunksize=25)


def summary(scores):
    """(mean, standard error, standard deviation)."""
    n = len(scores)
    mean = sum(scores) / n
    var = sum((s - mean) ** 2 for s in scores) / (n - 1)
    return mean, math.sqrt(var / n), math.sqrt(var)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", default="build/solver/island1.npz")
    ap.add_argument("--policy", default="optimal", choices=("optimal", "greedy"))
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    t0 = time.time()
    scores = simulate(args.policy, args.tables, args.games, args.first_seed, args.workers)
    mean, se, sd = summary(scores)
    print("%s policy, %d games: mean %.3f, SE %.3f, SD %.2f, min %d, max %d (%.0f s)"
          % (args.policy, len(scores), mean, se, sd, min(scores), max(scores),
             time.time() - t0))
    if args.policy == "optimal":
        opt = load_tables(args.tables)[1][0, EMPTY_SHEET]
        print("computed optimum %.4f: difference %+.3f = %+.2f SE"
              % (opt, mean - opt, (mean - opt) / se))


if __name__ == "__main__":
    main()
