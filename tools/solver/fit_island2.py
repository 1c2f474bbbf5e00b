"""A compact fit of Island Two's exact values, for a device, and what it costs in play.

    python tools/solver/fit_island2.py --table build/solver/island2.npz --rank 12 --games 2000 \
        --weight-games 2000 --out lib/catan/players/race_table.bin

The expected turns to 10 VP, T(g, s), of the states not yet won are fitted by a low-rank
product with int8 factors and one scale per rank: T(g, s) ~= sum_r GF[g, r] SF[s, r] scale[r]
(groups x rank + sheets x rank bytes), by weighted alternating least squares (won states
have weight 0: a reader knows them by their VP). The fit is judged by its rms error and
by playing the race on catan.game by the fitted values (the same seeds as the exact
table's player, so the difference is measured paired).
"""

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import island2_dp as dp
from solve_island2 import load_table


def als(t, w, rank, iters=30, seed=0):
    """Weighted rank-``rank`` factors (G, S) of t (groups x sheets), weights w >= 0."""
    rng = np.random.default_rng(seed)
    g = rng.normal(size=(t.shape[0], rank))
    s = rng.normal(size=(t.shape[1], rank))
    for _ in range(iters):
        g = _solve_side(t, w, s)
        s = _solve_side(t.T, w.T, g)
    return g, s


def _solve_side(t, w, other, ridge=1e-6):
    out = np.empty((t.shape[0], other.shape[1]))
    eye = ridge * np.eye(other.shape[1])
    for i in range(t.shape[0]):
        wi = w[i]
        a = (other * wi[:, None]).T @ other + eye
        out[i] = np.linalg.solve(a, (other * wi[:, None]).T @ t[i])
    return out


def quantise(g, s, t, w):
    """int8 factors and scales: G scaled per rank to int8, then S refitted to the rounded G
    and rounded likewise. Returns (GF, SF, scale) with T ~= (GF * scale) @ SF.T."""
    gs = np.abs(g).max(axis=0) / 127.0
    gf = np.round(g / gs).astype(np.int8)
    gq = gf * gs
    s = _solve_side(t.T, w.T, gq)
    ss = np.abs(s).max(axis=0) / 127.0
    sf = np.round(s / ss).astype(np.int8)
    return gf, sf, gs * ss


def fitted(gf, sf, scale):
    return (gf.astype(np.float64) * scale) @ sf.astype(np.float64).T


def write_table(path, gf, sf, scale):
    """The device's race table (format in ``lib/catan/players/race.py``)."""
    import struct

    from island2_model import ROAD_MASKS
    rank = len(scale)
    out = bytearray(b"CDV2")
    out += struct.pack("<BBHHH", rank, 0, gf.shape[0], sf.shape[0], len(ROAD_MASKS))
    out += struct.pack("<%dd" % rank, *scale)
    out += struct.pack("<%dI" % len(ROAD_MASKS), *ROAD_MASKS)
    out += gf.astype(np.int8).tobytes()
    out += sf.astype(np.int8).tobytes()
    with open(path, "wb") as f:
        f.write(out)
    return len(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--table", default="build/solver/island2.npz")
    ap.add_argument("--rank", type=int, default=12)
    ap.add_argument("--games", type=int, default=0)
    ap.add_argument("--weight-games", type=int, default=0,
                    help="weigh states by the turns of this many optimal games (seeds 100001..)")
    ap.add_argument("--weight", type=float, default=100.0)
    ap.add_argument("--save", default="")
    ap.add_argument("--out", default="", help="write the device table here "
                    "(lib/catan/players/race_table.bin)")
    args = ap.parse_args(argv)
    u = load_table(args.table)
    t = -u
    w = (~dp.WON).astype(float)
    if args.weight_games:
        # Weigh each state by how often the optimal player starts a turn there (plus 1):
        # the values good play meets, the empty sheet first of all, are fitted best.
        import policy2
        visits = np.zeros_like(w)
        pol = policy2.TablePolicy2(u)
        for seed in range(100001, 100001 + args.weight_games):
            policy2.play_game(pol, seed, visits=visits)
        w *= 1.0 + args.weight * visits / args.weight_games
    t0 = time.time()
    g, s = als(t, w, args.rank)
    gf, sf, scale = quantise(g, s, t, w)
    approx = fitted(gf, sf, scale)
    approx[dp.WON] = 0.0
    err = (approx - t)[~dp.WON]
    print("rank %d: %d bytes of factors, rms error %.4f turns, max %.3f (%.0f s)"
          % (args.rank, gf.size + sf.size, np.sqrt(np.mean(err ** 2)), np.abs(err).max(),
             time.time() - t0))
    if args.out:
        print("%s: %d bytes" % (args.out, write_table(args.out, gf, sf, scale)))
    if args.save:
        np.savez_compressed(args.save, gf=gf, sf=sf, scale=scale)
    if args.games:
        import policy2
        for name, table in (("exact", u), ("fit", -approx)):
            pol = policy2.TablePolicy2(table)
            t1 = time.time()
            turns = np.array([policy2.play_game(pol, seed) for seed in range(1, args.games + 1)])
            print("%s: %.3f +- %.3f turns over %d games (%.0f s)"
                  % (name, turns.mean(), turns.std(ddof=1) / np.sqrt(len(turns)), len(turns),
                     time.time() - t1))
            if name == "exact":
                base = turns
            else:
                d = turns - base
                print("fit - exact, paired: %.3f +- %.3f" % (d.mean(), d.std(ddof=1) / np.sqrt(len(d))))


if __name__ == "__main__":
    main()
