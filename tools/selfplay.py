"""Self-play of the computer players (``catan.players``) on the real rules core.

    python tools/selfplay.py --island 1 --policy hard --games 2000 --seed 1
    python tools/selfplay.py --island 1 --policy coach --games 2000 --seed 1   # the device coach
    python tools/selfplay.py --island 2 --policy medium --games 2000          # solo: turns to 10 VP
    python tools/selfplay.py --island 2 --players 4 --policy hard,easy,easy,easy --games 1000
    python tools/selfplay.py --island 2 --policy hard,hard@6d5c8fd,hard,hard@6d5c8fd --games 1000

Game i (0..N-1) uses ``SeededDice(seed + i)`` and choice seed ``seed + i``, so a run is
reproducible. With several seats the policy list is rotated by i (``--no-rotate`` keeps
it), so every policy plays every seat equally often. Prints one JSON object: Island One
the final score (mean, sd, se, quantiles) per policy and, with several seats, win rates
(a shared win counts 1/k); Island Two solo the turns to 10 VP; Island Two with seats the
win rates per policy and per seat, and the game length in turns.

``hard@REV`` is the hard player with the values of ``lib/catan/players/values.py`` as of
git revision REV (a head-to-head of a change against the player before it).
"""

import argparse
import json
import math
import multiprocessing
import os
import subprocess
import sys
import time
import types

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "lib"))

from catan import players
from catan.players import coach
from catan.dice import SeededDice
from catan.game import Game
from catan.players import plans

# Island Two's value functions (``two_setup``, ``value_two``) by revision (None: now)
_VALUES = {None: (plans.two_setup, plans.value_two)}


def _values_at(rev):
    # Island Two's value functions of lib/catan/players/values.py as of git revision ``rev``.
    if rev not in _VALUES:
        src = subprocess.check_output(
            ["git", "-C", ROOT, "show", rev + ":lib/catan/players/values.py"])
        mod = types.ModuleType("values_at_" + rev)
        exec(compile(src, "values.py@" + rev, "exec"), mod.__dict__)
        # (public since issue 27; the names of older revisions had a leading underscore)
        _VALUES[rev] = tuple(getattr(mod, n, None) or getattr(mod, "_" + n)
                             for n in ("two_setup", "value_two"))
    return _VALUES[rev]


def _policy(p):
    # (level or "coach", revision of the values or None)
    level, _, rev = p.partition("@")
    if level == "coach":
        return level, None
    return players.level_of(level), rev or None


def play(island, policies, seed):
    """One game: (results by seat, winners, seat 0's turns, turns of the whole game).
    A policy is a level of catan.players, "coach": the device coach's advice, or
    "hard@REV": the hard player with the values of revision REV."""
    levels = [_policy(p) for p in policies]
    game = Game(island, len(levels), SeededDice(seed))
    while not game.over():
        level, rev = levels[game.player]
        plans.two_setup, plans.value_two = _values_at(rev)
        if level == "coach":
            game.perform(coach.hint(game)[0])
        else:
            game.perform(players.next_action(game, level, seed + game.player))
    plans.two_setup, plans.value_two = _VALUES[None]
    results = [game.result(p) for p in range(len(levels))]
    # Island Two ends during the winner's turn: count that turn.
    extra = 1 if island == 2 else 0
    return results, game.winners(), game.turns_taken(0), game.game_turn + extra


def _job(args):
    island, policies, seed = args
    return play(island, policies, seed)


def stats(xs):
    n = len(xs)
    s = sorted(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0

    def q(p):
        return s[min(n - 1, int(p * n))]
    return {"n": n, "mean": round(mean, 3), "sd": round(math.sqrt(var), 3),
            "se": round(math.sqrt(var / n), 3), "min": s[0], "max": s[-1],
            "quantiles": {"5": q(0.05), "25": q(0.25), "50": q(0.5), "75": q(0.75),
                          "95": q(0.95)}}


def run(island, policies, games, seed, rotate=True, workers=2):
    n = len(policies)
    jobs = []
    for i in range(games):
        k = i % n if rotate else 0
        jobs.append((island, policies[k:] + policies[:k], seed + i))
    t0 = time.time()
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            out = pool.map(_job, jobs, chunksize=10)
    else:
        out = [_job(j) for j in jobs]
    report = {"island": island, "players": n, "policy": ",".join(policies), "games": games,
              "seed": seed, "rotate": rotate}
    names = sorted(set(policies), key=policies.index)
    if n == 1:
        xs = [r[0][0] if island == 1 else r[2] for r in out]
        report["score" if island == 1 else "turns_to_win"] = stats(xs)
    else:
        wins = dict((p, 0.0) for p in names)
        seats = dict((p, 0) for p in names)
        seat_wins = [0.0] * n
        scores = dict((p, []) for p in names)
        for (results, winners, _, _), job in zip(out, jobs):
            pol = job[1]
            for s in range(n):
                seats[pol[s]] += 1
                scores[pol[s]].append(results[s])
            for w in winners:
                wins[pol[w]] += 1.0 / len(winners)
                seat_wins[w] += 1.0 / len(winners)
        report["win_rate"] = dict((p, round(wins[p] / games, 4)) for p in names)
        report["win_rate_per_seat_played"] = dict(
            (p, round(wins[p] / seats[p] * 1.0, 4)) for p in names)
        report["seat_win_rate"] = [round(w / games, 4) for w in seat_wins]
        key = "score" if island == 1 else "vp"
        report[key] = dict((p, stats(scores[p])) for p in names)
        if island == 2:
            report["game_turns"] = stats([r[3] for r in out])
    report["seconds"] = round(time.time() - t0, 1)
    return report


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--island", type=int, choices=(1, 2), default=1)
    ap.add_argument("--policy", default="hard", help="a level, or one per seat: hard,easy,...")
    ap.add_argument("--players", type=int, default=0, help="seats (default: one per policy)")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--no-rotate", action="store_true")
    args = ap.parse_args(argv)
    policies = args.policy.split(",")
    for p in policies:
        _policy(p)
    if args.players:
        if len(policies) == 1:
            policies = policies * args.players
        if len(policies) != args.players:
            ap.error("give one policy, or one per seat")
    print(json.dumps(run(args.island, policies, args.games, args.seed, not args.no_rotate,
                         args.workers), indent=1))


if __name__ == "__main__":
    main()
