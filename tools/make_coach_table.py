"""Write lib/catan/players/coach_table.bin: a compact Island One value function for the hard player.

    python tools/make_coach_table.py [--tables build/solver/island1.npz] [--rank 8]

The exact solver's tables V_t(group, sheet) for t = 2..15 (the value of a sheet after
turn t-1; V_16 = 0) are stacked into a (14 * 127) x 1225 matrix and replaced by a
rank-R factorisation shared over the turns:

    V_t(g, s) ~= sum_r GF[t, g, r] * SF[s, r]

The fit is weighted by where decisions are made: ``occupancy.decision_weights`` counts,
over 20,000 games of the optimal policy, how often each value is compared in a turn's
choice, and every value also gets a small weight (``--floor``) so that sheets the optimal
player never reaches (a person's, say) are still judged sensibly. Weighted least squares
by alternating row and column solves, starting from the plain SVD. Both factor tables
are stored as signed bytes with one scale per factor column (the rows are refitted to the
rounded columns before they are rounded), so the file is (14 * 127 + 1225) * R bytes
plus a road-subtree list (117 x 2 bytes) and a header (its layout:
``catan.players.values._Values``, which reads it from flash a turn's rows at a time).
Sheet s is the solver's sheet index (numbered as ``_Values`` does).
``tools/solver/evaluate.py --table`` gives the exact expected score of the player that uses
the result.
"""

import argparse
import os
import struct
import sys
import time

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "solver"))

import occupancy
from island1_model import GROUPS, ROAD_MASKS, SHEETS
from solve_island1 import load_tables

TURNS = 14  # V_2 .. V_15
FLOOR = 1e-4


def _solve_rows(m, w, cols, ridge=1e-6):
    """For each row i, the x minimising sum_j w[i, j] * (m[i, j] - cols[j] . x)^2."""
    a = np.einsum("ij,jk,jl->ikl", w, cols, cols) + ridge * np.eye(cols.shape[1])
    b = np.einsum("ij,ij,jk->ik", w, m, cols)
    return np.linalg.solve(a, b[..., None])[..., 0]


def fit(m, w, rank, rounds=20):
    """Row and column factors (m ~= gf @ sf.T) minimising the w-weighted squared error."""
    u, s, vt = np.linalg.svd(m, full_matrices=False)
    sf = vt[:rank].T * np.sqrt(s[:rank])
    for _ in range(rounds):
        gf = _solve_rows(m, w, sf)
        sf = _solve_rows(m.T, w.T, gf)
    return sf


def quantise(x):
    scale = np.abs(x).max(axis=0) / 127.0
    q = np.round(x / scale).astype(np.int8)
    return q, scale


def rms(err, w=None):
    w = np.ones_like(err) if w is None else w
    return float(np.sqrt((w * err * err).sum() / w.sum()))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", default=os.path.join(ROOT, "build/solver/island1.npz"))
    ap.add_argument("--rank", type=int, default=8)
    ap.add_argument("--games", type=int, default=20000,
                    help="games of the optimal policy that weight the fit")
    ap.add_argument("--floor", type=float, default=FLOOR,
                    help="weight of every value, on top of its decision weight")
    ap.add_argument("--out", default=os.path.join(ROOT, "lib/catan/players/coach_table.bin"))
    args = ap.parse_args(argv)
    t0 = time.time()
    v = load_tables(args.tables)
    m = v[2:2 + TURNS].reshape(TURNS * len(GROUPS), len(SHEETS))
    visits, scores = occupancy.simulate(v, args.games)
    w = occupancy.decision_weights(visits, args.games).reshape(m.shape)
    print("%d games of the optimal policy: mean %.3f, %d states met, %d values compared"
          % (args.games, np.mean(scores), len(visits), np.count_nonzero(w)))
    w += args.floor
    sq, ss = quantise(fit(m, w, args.rank))
    gq, gs = quantise(_solve_rows(m, w, sq * ss))
    err = (gq * gs) @ (sq * ss).T - m
    print("rank %d: error %.3f weighted, %.3f rms over all states, max %.2f (%.0f s)"
          % (args.rank, rms(err, w), rms(err), np.abs(err).max(), time.time() - t0))
    # Check the sheet order the device computes: roads ascending, then s, then c.
    assert list(ROAD_MASKS) == sorted(ROAD_MASKS)
    assert [sh[0] for sh in SHEETS] == sorted(sh[0] for sh in SHEETS)
    roads = b"".join(int(r).to_bytes(2, "little") for r in ROAD_MASKS)
    scales = [float(a * b) for a, b in zip(gs, ss)]
    head = b"CDV1" + struct.pack("<BBHHH", args.rank, TURNS, len(GROUPS), len(SHEETS),
                                 len(ROAD_MASKS))
    head += struct.pack("<%dd" % args.rank, *scales)
    with open(args.out, "wb") as f:
        f.write(head + roads + gq.tobytes() + sq.tobytes())
    print("wrote %s: %d bytes of tables" % (args.out, len(roads) + gq.size + sq.size))


if __name__ == "__main__":
    main()
