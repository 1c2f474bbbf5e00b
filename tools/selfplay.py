"""Self-play of the computer players (``catan.players``) on the real rules core.

    python tools/selfplay.py --island 1 --policy hard --games 2000 --seed 1
    python tools/selfplay.py --island 1 --policy coach --games 2000 --seed 1   # the device coach
    python tools/selfplay.py --island 2 --policy medium --games 2000          # solo: turns to 10 VP
    python tools/selfplay.py --island 2 --players 4 --policy hard,easy,easy,easy --games 1000

Game i (0..N-1) uses ``SeededDice(seed + i)`` and choice seed ``seed + i``, so a run is
reproducible. With several seats the policy list is rotated by i (``--no-rotate`` keeps
it), so every policy plays every seat equally often. Prints one JSON object: Island One
the final score (mean, sd, se, quantiles) per policy and, with several seats, win rates
(a shared win counts 1/k); Island Two solo the turns to 10 VP; Island Two with seats the
win rates per policy and per seat, and the game length in turns.
"""

import argparse
import json
import math
import multiprocessing
import os
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "lib"))

from catan import players
from catan.players import coach
from catan.dice import SeededDice
from catan.game import Game


def play(island, policies, seed):
    """One game: (results by seat, winners, seat 0's turns, turns of the whole game).
    A policy is a level of catan.players, or "coach": the device coach's advice."""
    levels = [p if p == "coach" else players.level_of(p) for p in policies]
    game = Game(island, len(levels), SeededDice(seed))
    while not game.over():
        level = levels[game.player]
        if level == "coach":
            game.perform(coach.hint(game)[0])
        else:
            game.perform(players.next_action(game, level, seed + game.player))
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
        if p != "coach":
            players.level_of(p)
    if args.players:
        if len(policies) == 1:
            policies = policies * args.players
        if len(policies) != args.players:
            ap.error("give one policy, or one per seat")
    print(json.dumps(run(args.island, policies, args.games, args.seed, not args.no_rotate,
                         args.workers), indent=1))


if __name__ == "__main__":
    main()
