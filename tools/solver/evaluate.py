"""The exact expected score of the policy that plays by approximate value tables.

    python tools/solver/evaluate.py --table lib/catan/players/coach_table.bin

A player that keeps, re-rolls and builds as the exact solver does, but judges the sheet
after the turn by tables ``A`` instead of the optimal ``V`` (the device's hard player and
coach do this with ``lib/catan/players/coach_table.bin``), has its own expected score. This module
computes it exactly: the same recursion as ``island1_dp.solve_turn``, carrying two
numbers per option, the value the player *believes* (``A``, which makes every choice) and
the value it *gets* (the policy's own expectation, which is averaged). No simulation
noise: the figure differs from a simulation only by the simulation's standard error.
"""

import argparse
import os
import struct
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import island1_dp as dp
import keep_recursion as kr
from island1_model import EMPTY_SHEET, TURNS, X


def _pick(fit, got, axis):
    """(max of fit, got at the same place) along ``axis``."""
    i = np.expand_dims(fit.argmax(axis=axis), axis)
    return (np.take_along_axis(fit, i, axis).squeeze(axis),
            np.take_along_axis(got, i, axis).squeeze(axis))


def _final_pairs(a_ext, v_ext, plan, sheets):
    base_a = X + a_ext[plan.gi][sheets]
    base_v = X + v_ext[plan.gi][sheets]
    out_a = np.repeat(base_a[None, :], len(kr.PROB), axis=0)
    out_v = np.repeat(base_v[None, :], len(kr.PROB), axis=0)
    if not plan.columns:
        return out_a, out_v
    col_a = np.empty((len(plan.columns), len(sheets)))
    col_v = np.empty_like(col_a)
    for c, (t, _jm, target, kpts) in enumerate(plan.columns):
        targets, points = dp.SUCCESSORS[t]
        tg, pts = targets[sheets], points[sheets]
        col_a[c], col_v[c] = _pick(a_ext[target][tg] + pts, v_ext[target][tg] + pts, 1)
        col_a[c] += kpts
        col_v[c] += kpts
    for cols, ms in plan.patterns:
        best_a, best_v = _pick(col_a[cols], col_v[cols], 0)
        take = best_a > base_a
        out_a[ms] = np.where(take, best_a, base_a)
        out_v[ms] = np.where(take, best_v, base_v)
    return out_a, out_v


def _reroll_pairs(fa, fv):
    """``keep_recursion.reroll_value`` for a (believed, got) pair: the keep is chosen by
    the believed values."""
    return kr.best_keep_values(kr.keep_values(fa), kr.keep_values(fv))


def evaluate_states(a_ext, v_ext, groups, sheets):
    """The policy's V_t (len(groups) * len(sheets),) of the given states, from the
    ``dp.extend``-ed believed and got values of turn t + 1."""
    pairs = [_final_pairs(a_ext, v_ext, dp.group_plan(g), sheets) for g in groups]
    fa = np.concatenate([p[0] for p in pairs], axis=1)
    fv = np.concatenate([p[1] for p in pairs], axis=1)
    fa, fv = _reroll_pairs(*_reroll_pairs(fa, fv))
    return kr.PROB @ fv


def evaluate_turn(a_next, v_next, groups_per_chunk=16):
    """The policy's V_t from its V_{t+1} (``v_next``), choices made with ``a_next``."""
    a_ext, v_ext = dp.extend(a_next), dp.extend(v_next)
    out = np.empty_like(v_next)
    n = a_next.shape[0]
    for g0 in range(0, n, groups_per_chunk):
        gs = range(g0, min(n, g0 + groups_per_chunk))
        out[g0:g0 + len(gs)] = evaluate_states(a_ext, v_ext, gs, dp.ALL_SHEETS).reshape(
            len(gs), -1)
    return out


def evaluate(a, log=print):
    """The policy's expected points of turns t..15 for every state: (TURNS + 2, groups,
    sheets) like ``dp.solve``; ``a[t]`` (t = 2..15) are the tables the player believes
    for the sheet before turn t (``a[16]`` is taken as 0, as the player knows)."""
    v = np.full(a.shape, np.nan)
    v[TURNS + 1] = 0.0
    a = a.copy()
    a[TURNS + 1] = 0.0
    for t in range(TURNS, 0, -1):
        t0 = time.time()
        v[t] = evaluate_turn(a[t + 1], v[t + 1])
        if log:
            log("turn %2d: policy V(start) = %.4f  (%.1f s)"
                % (t, v[t][0, EMPTY_SHEET], time.time() - t0))
    return v


def table_values(path):
    """Believed tables (TURNS + 2, groups, sheets) from a generated coach_table.bin (the
    layout: ``catan.players.values._Values``)."""
    data = Path(path).read_bytes()
    if data[:4] != b"CDV1":
        raise SystemExit("%s is not a value table" % path)
    rank, turns, groups, sheets, n = struct.unpack("<BBHHH", data[4:12])
    at = 12
    scale = np.frombuffer(data, dtype="<f8", count=rank, offset=at)
    at += 8 * rank + 2 * n
    gf = np.frombuffer(data, dtype=np.int8, count=turns * groups * rank, offset=at)
    sf = np.frombuffer(data, dtype=np.int8, count=sheets * rank, offset=at + gf.size)
    gf = gf.astype(np.float64).reshape(-1, rank) * scale
    sf = sf.astype(np.float64).reshape(sheets, rank)
    m = (gf @ sf.T).reshape(-1, groups, sheets)
    a = np.zeros((TURNS + 2, groups, sheets))
    a[2:2 + len(m)] = m
    return a


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--table", default="lib/catan/players/coach_table.bin")
    args = ap.parse_args(argv)
    t0 = time.time()
    v = evaluate(table_values(args.table))
    print("expected score of the policy: %.4f  (%.0f s)"
          % (v[1][0, EMPTY_SHEET], time.time() - t0))


if __name__ == "__main__":
    main()
