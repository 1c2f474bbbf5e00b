"""The exact expected turns to 10 VP of a player who plays Island Two's solo race by an
approximate table (the device's ``race_table.bin``), with no simulation noise.

    python tools/solver/evaluate2.py --race lib/catan/players/race_table.bin

The player chooses everything by the *believed* values B (the table): its keeps, whether
to build and what (among the minimal joker sets, as the solver's moves), while the *got*
values are what those choices really give. Solved in the exact solver's order: for a state
s, with the policy fixed by B, the turn ends without a build with chance p and otherwise in
a successor of known got value (mean a), so got(s) = (-1 + a) / (1 - p) exactly (values
negated as in ``island2_dp``). With B the exact table it returns the optimum.
"""

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import island2_dp as dp
import keep_recursion as kr
from island2_model import N_FULL, N_GROUPS, N_SHEETS, race_table_turns


def _column_pairs(b_ext, g_ext, plan, cols, sheets):
    """Believed and got value of each column for each sheet: the successor the believed
    values choose, and what it is really worth."""
    vb = np.empty((len(cols), len(sheets)))
    vg = np.empty((len(cols), len(sheets)))
    for i, c in enumerate(cols):
        t, target, _ = plan.columns[c]
        succ = dp.SUCCESSORS[t][sheets]
        bb = b_ext[target][succ]
        k = bb.argmax(axis=1)
        rows = np.arange(len(sheets))
        vb[i] = bb[rows, k]
        vg[i] = g_ext[target][succ[rows, k]]
    return vb, vg


def _combine(fb, fg, vb, vg, minimal, cols):
    # Fold columns ``cols`` (values vb, vg per sheet) into the best builds fb, fg in place.
    for i, c in enumerate(cols):
        ms = minimal[c]
        better = vb[i][None, :] > fb[ms]
        fb[ms] = np.where(better, vb[i][None, :], fb[ms])
        fg[ms] = np.where(better, vg[i][None, :], fg[ms])


def build_pairs(b_ext, g_ext, plan, sheets, ext=None):
    """(B, G): (462, len(sheets)) the believed best build on each final roll (-inf: none)
    and the got value of that build. ``ext``: the external columns' part, if known."""
    if ext is None:
        ext = external_pairs(b_ext, g_ext, plan, sheets)
    fb, fg = ext[0].copy(), ext[1].copy()
    if plan.internal:
        vb, vg = _column_pairs(b_ext, g_ext, plan, plan.internal, sheets)
        _combine(fb, fg, vb, vg, plan.minimal, plan.internal)
    return fb, fg


def external_pairs(b_ext, g_ext, plan, sheets):
    fb = np.full((N_FULL, len(sheets)), -np.inf)
    fg = np.zeros((N_FULL, len(sheets)))
    cols = [c for c in range(len(plan.columns)) if c not in plan.internal]
    if cols:
        vb, vg = _column_pairs(b_ext, g_ext, plan, cols, sheets)
        _combine(fb, fg, vb, vg, plan.minimal, cols)
    return fb, fg


def got_values(fb, fg, b_self):
    """got(s) for states whose believed best builds are fb, their got values fg and whose
    own believed value is b_self."""
    stop = fb <= b_self[None, :]
    f = np.where(stop, b_self[None, :], fb)
    a = np.where(stop, 0.0, fg)
    p = stop.astype(float)
    for _ in range(2):
        m, a, p = kr.best_keep_values(dp.keep_values(f), dp.keep_values(a),
                                     dp.keep_values(p))
        f = m
    a, p = kr.PROB @ a, kr.PROB @ p
    return (-1.0 + a) / (1.0 - p)


_B = _G = None


def _chunk(gs):
    # As island2_dp._solve_chunk: the groups of one level, sheet level by sheet level.
    plans = [dp.group_plan(int(g)) for g in gs]
    open_sheets = [np.nonzero(~dp.WON[g])[0] for g in gs]
    ext = [external_pairs(_B, _G, pl, sh) for pl, sh in zip(plans, open_sheets)]
    out = []
    for lv in range(dp.SHEET_LEVEL.max(), -1, -1):
        fbs, fgs, selfs, where = [], [], [], []
        for i, g in enumerate(gs):
            sel = dp.SHEET_LEVEL[open_sheets[i]] == lv
            if sel.any():
                sh = open_sheets[i][sel]
                fb, fg = build_pairs(_B, _G, plans[i], sh,
                                     (ext[i][0][:, sel], ext[i][1][:, sel]))
                fbs.append(fb)
                fgs.append(fg)
                selfs.append(_B[g, sh])
                where.append((g, sh))
        if not where:
            continue
        x = got_values(np.concatenate(fbs, axis=1), np.concatenate(fgs, axis=1),
                       np.concatenate(selfs))
        k = 0
        for g, sh in where:
            _G[g, sh] = x[k:k + len(sh)]
            out.append((g, sh, x[k:k + len(sh)]))
            k += len(sh)
    return out


def evaluate(believed, workers=2, chunk=48, log=print):
    """The got table (groups, sheets), minus the expected turns, of playing by ``believed``
    (minus the believed turns; won states must hold 0)."""
    global _B, _G
    _B = dp.extend(believed)
    _G = np.full((N_GROUPS, N_SHEETS + 1), np.nan)
    _G[:, :N_SHEETS][dp.WON] = 0.0
    _G[:, N_SHEETS] = 0.0
    t0 = time.time()
    for level in range(dp.GROUP_LEVEL.max(), -1, -1):
        at = np.nonzero(dp.GROUP_LEVEL == level)[0]
        size = max(1, min(chunk, -(-len(at) // workers)))
        chunks = [at[c0:c0 + size] for c0 in range(0, len(at), size)]
        if workers > 1 and len(chunks) > 1:
            import multiprocessing
            with multiprocessing.get_context("fork").Pool(workers) as pool:
                results = pool.map(_chunk, chunks)
        else:
            results = [_chunk(c) for c in chunks]
        for res in results:
            for g, sh, x in res:
                _G[g, sh] = x
        if log:
            log("group level %2d done, %.0f s" % (level, time.time() - t0))
    return _G[:, :N_SHEETS]


def race_table_values(path):
    """Minus the believed turns of the device's race table, in the solver's numbering."""
    t = np.maximum(race_table_turns(path), 1.0)  # as race.py reads it
    t[dp.WON] = 0.0
    return -t


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--race", default="lib/catan/players/race_table.bin")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    t0 = time.time()
    got = evaluate(race_table_values(args.race), args.workers, log=None)
    print("playing by %s: %.6f expected turns to 10 VP (%.0f s)"
          % (args.race, -got[dp.EMPTY_GROUP, dp.EMPTY_SHEET], time.time() - t0))


if __name__ == "__main__":
    main()
