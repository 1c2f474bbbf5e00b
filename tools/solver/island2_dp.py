"""The exact solver of Island Two's solo race: the minimum expected number of turns to 10 VP.

Values are kept negated, U = -(expected turns to go), so that the within-turn recursion
maximises as Island One's does (``keep_recursion``). For a state s that is not won,

    U(s) = -1 + E over the first roll [best keeps ... max(U(s), best build on the final roll)]

where "build nothing" returns to s itself. Every build adds to the sheet or to the group
(knights built + jokers used), so the states are solved in an order where all successors
are known: groups by decreasing group level, and within a group the sheets by decreasing
sheet level; only the value of s itself is unknown. With G(x) the expected best turn when
"build nothing" is worth x, U(s) is the root of -1 + G(x) = x. G is convex and piecewise
linear in x (a max of linear functions, one per dice policy), with slope p = the chance
that the policy optimal at x ends the turn without a build, so Newton's method
x' = (-1 + G(x) - p x) / (1 - p) is policy iteration: each x' is the exact value of one
policy, the values rise monotonically and stop when the policy repeats (2 to 4 steps).

Final values per group use Island One's columns and patterns (``island1_dp``): a column is
(build type, target group), i.e. which knights and which jokers (a minimal set for the
roll); its value for a sheet is the best over the concrete builds (which roads).
Columns whose target is the group itself (no knight, no joker) are *internal*: their
targets are sheets of the same group at higher levels, evaluated level by level.
"""

import time

import numpy as np

import keep_recursion as kr
from island1_model import set_bits, submasks
from island2_model import (BUILD_TYPES, COST, EMPTY_GROUP, EMPTY_SHEET, GROUP_INDEX,
                           GROUPS, JOKER_RES, KNIGHT_TYPES, N_FULL, N_GROUPS, N_SHEETS,
                           SHEET_INDEX, SHEETS, feasible, group_level, is_won, joker_res,
                           knight_moves, relevant, sheet_level, sheet_successors,
                           unused_jokers, use_jokers)

# ------------------------------------------------------------- successor tables


def _successor_table(t):
    lists = [sheet_successors(sh, t) for sh in SHEETS]
    width = max(1, max(len(x) for x in lists))
    targets = np.full((N_SHEETS, width), N_SHEETS, dtype=np.int64)
    for i, lst in enumerate(lists):
        for b, sh in enumerate(lst):
            targets[i, b] = SHEET_INDEX[sh]
    return targets


SUCCESSORS = {t: _successor_table(t) for t in BUILD_TYPES}
SHEET_LEVEL = np.array([sheet_level(sh) for sh in SHEETS])
WON = np.array([[is_won(g, sh) for sh in SHEETS] for g in GROUPS])  # (groups, sheets)


# ---------------------------------------------------------------- group plans

def _joker_mask(res_set):
    return sum(1 << j for j in range(7) if JOKER_RES[j] >= 5 or JOKER_RES[j] in res_set)


class GroupPlan:
    """Columns and patterns of one group.

    columns: list of (build type, target group row, joker mask used)
    minimal: bool array (columns, 462): the column is a minimal way to pay on that roll
    internal: indices of the columns whose target is the group itself
    patterns: list of (external column indices, multiset indices) with >= 1 column
    """

    def __init__(self, gi):
        self.gi = gi
        group = GROUPS[gi]
        unused = unused_jokers(group)
        cols = {}
        for t in BUILD_TYPES:
            first, second = COST[t]
            n_k = KNIGHT_TYPES.get(t, 0)
            moves = knight_moves(group, n_k) if n_k else [(group, 0)]
            early = unused & _joker_mask(relevant(first) | relevant(second))
            for g_new, late in moves:
                if not late & _joker_mask(relevant(second)):
                    late = 0
                cands = early | late
                feas = {}
                for jm in submasks(cands):
                    feas[jm] = np.array(feasible(t, joker_res(jm & ~late),
                                                 joker_res(jm & late)))
                for jm, mask in feas.items():
                    m = mask.copy()
                    for b in set_bits(jm):
                        m &= ~feas[jm & ~(1 << b)]
                    if m.any():
                        key = (t, GROUP_INDEX[use_jokers(g_new, jm)])
                        if key in cols:
                            cols[key][1] |= m
                        else:
                            cols[key] = [jm, m]
        self.columns = [(t, target, jm) for (t, target), (jm, _) in cols.items()]
        self.minimal = np.array([m for _, m in cols.values()]).reshape(-1, N_FULL)
        self.internal = [c for c, (_, target, _) in enumerate(self.columns) if target == gi]
        ext = np.array([target != gi for _, target, _ in self.columns], dtype=bool)
        self.patterns = []
        if len(self.columns):
            em = self.minimal & ext[:, None]
            keys, inverse = np.unique(em.T, axis=0, return_inverse=True)
            for p, key in enumerate(keys):
                if key.any():
                    self.patterns.append((np.nonzero(key)[0], np.nonzero(inverse.ravel() == p)[0]))


_PLANS = {}


def group_plan(gi):
    if gi not in _PLANS:
        _PLANS[gi] = GroupPlan(gi)
    return _PLANS[gi]


# ------------------------------------------------------------ final values

def column_values(u_ext, plan, cols, sheets):
    """(len(cols), len(sheets)): best target value of each column for each sheet."""
    out = np.empty((len(cols), len(sheets)))
    for i, c in enumerate(cols):
        t, target, _ = plan.columns[c]
        out[i] = u_ext[target][SUCCESSORS[t][sheets]].max(axis=1)
    return out


def external_values(u_ext, plan, sheets):
    """(462, len(sheets)): the best build through an external column on each final roll
    (-inf where none)."""
    out = np.full((N_FULL, len(sheets)), -np.inf)
    ext = [c for c in range(len(plan.columns)) if c not in plan.internal]
    if not ext:
        return out
    vals = np.full((len(plan.columns), len(sheets)), -np.inf)
    vals[ext] = column_values(u_ext, plan, ext, sheets)
    for cols, ms in plan.patterns:
        out[ms] = vals[cols].max(axis=0)
    return out


def build_values(u_ext, plan, sheets, f_ext):
    """F (462, len(sheets)): the best build on each final roll, -inf where none; f_ext
    holds the external part for these sheets, the internal part is read from u_ext."""
    out = f_ext.copy()
    if plan.internal:
        vals = column_values(u_ext, plan, plan.internal, sheets)
        for i, c in enumerate(plan.internal):
            ms = plan.minimal[c]
            out[ms] = np.maximum(out[ms], vals[i][None, :])
    return out


# ------------------------------------------------------------ the fixed point

def _up_index(n):
    """(size of level n, 6): the position in level n + 1 of K + f for each face f."""
    a = kr.UP[n]  # (level n + 1, level n), 1/6 at [K + f, K]
    idx = np.empty((a.shape[1], 6), dtype=np.int64)
    for k in range(a.shape[1]):
        rows = np.repeat(np.nonzero(a[:, k])[0], np.round(a[np.nonzero(a[:, k])[0], k] * 6)
                         .astype(int))
        idx[k] = rows
    return idx


UP_INDEX = [_up_index(n) for n in range(6)]


def keep_values(final):
    """W per level, as ``keep_recursion.keep_values``, by gathers: W(K) is the mean over
    the six faces f of W(K + f), and each row has only six terms (a dense product would
    multiply mostly zeros)."""
    w = [None] * 7
    w[6] = final
    for n in range(5, -1, -1):
        idx = UP_INDEX[n]
        up = w[n + 1]
        acc = up[idx[:, 0]]
        for f in range(1, 6):
            acc += up[idx[:, f]]
        acc *= 1.0 / 6.0
        w[n] = acc
    return w


def _stage(f, p):
    w = keep_values(np.concatenate([f, p], axis=1))
    n = f.shape[1]
    return kr.best_keep_values([x[:, :n] for x in w], [x[:, n:] for x in w])


def _best_keep_max(w):
    """M: the best keep value of each six-dice roll (``keep_recursion.best_keep_values``
    without tracking, in place)."""
    m = w[0]
    for n in range(1, 7):
        padded = np.concatenate([m, np.full((1, m.shape[1]), -np.inf)], axis=0)
        best = w[n]
        down = kr.DOWN[n]
        for f in range(6):
            np.maximum(best, padded[down[:, f]], out=best)
        m = best
    return m


DELTA = 1e-6


def turn_value_fd(build, x):
    """(G(x), p) as ``turn_value``, p by a finite difference: G at x and x + DELTA in one
    pass (G is piecewise linear, so the difference is the slope but at a kink)."""
    n = build.shape[1]
    f = np.empty((build.shape[0], 2 * n))
    np.maximum(build, x[None, :], out=f[:, :n])
    np.maximum(build, x[None, :] + DELTA, out=f[:, n:])
    m = _best_keep_max(keep_values(_best_keep_max(keep_values(f))))
    g = kr.PROB @ m
    return g[:n], (g[n:] - g[:n]) / DELTA


def turn_value(build, x):
    """(G(x), p): the expected best turn and the chance it ends without a build, when
    "build nothing" is worth x (per state) and ``build`` (462, states) the best builds."""
    f = np.maximum(build, x[None, :])
    stop = (build <= x[None, :]).astype(float)
    m, g = _stage(*_stage(f, stop))
    return kr.PROB @ m, kr.PROB @ g


def solve_states(build, tol=1e-12, max_steps=60):
    """U (states,): the root of -1 + G(x) = x for each column of ``build``, by Newton's
    method (policy iteration). Returns (U, steps taken)."""
    n = build.shape[1]
    finite = np.where(np.isfinite(build), build, np.inf).min(axis=0)
    x = np.where(np.isfinite(finite), finite, 0.0) - 1.0
    todo = np.arange(n)
    steps = 0
    while len(todo):
        steps += 1
        if steps > max_steps:
            raise RuntimeError("no convergence")
        g, p = turn_value_fd(build[:, todo], x[todo])
        xn = (-1.0 + g - p * x[todo]) / (1.0 - p)
        done = np.abs(xn - x[todo]) <= tol * (1.0 + np.abs(xn))
        x[todo] = xn
        todo = todo[~done]
    return x, steps


# ------------------------------------------------------------------ the solve

def extend(u):
    return np.concatenate([u, np.full((u.shape[0], 1), -np.inf)], axis=1)


GROUP_LEVEL = np.array([group_level(g) for g in GROUPS])


_U = None  # the value table a chunk reads (a module global, so forked workers share it)


def _solve_chunk(gs):
    """Solve the groups ``gs`` (all at one group level) from _U: a list of (group, sheets,
    values) and the Newton steps taken."""
    u_ext = _U
    plans = [group_plan(int(g)) for g in gs]
    open_sheets = [np.nonzero(~WON[g])[0] for g in gs]
    f_ext = [external_values(u_ext, pl, sh) for pl, sh in zip(plans, open_sheets)]
    out = []
    total_steps = 0
    for lv in range(SHEET_LEVEL.max(), -1, -1):
        parts, where = [], []
        for i, g in enumerate(gs):
            sel = SHEET_LEVEL[open_sheets[i]] == lv
            if sel.any():
                sh = open_sheets[i][sel]
                parts.append(build_values(u_ext, plans[i], sh, f_ext[i][:, sel]))
                where.append((g, sh))
        if not parts:
            continue
        x, steps = solve_states(np.concatenate(parts, axis=1))
        total_steps += steps
        k = 0
        for g, sh in where:
            u_ext[g, sh] = x[k:k + len(sh)]  # the next sheet level reads these
            out.append((g, sh, x[k:k + len(sh)]))
            k += len(sh)
    return out, total_steps


def solve(groups=None, chunk=48, workers=1, log=print):
    """U (N_GROUPS, N_SHEETS): minus the expected turns to 10 VP from each state (0 for won
    states). ``groups``: solve only these group rows (their successors must be among
    them: e.g. every group at or above some level); the others stay NaN. ``workers`` > 1
    solves the groups of one level in that many forked processes."""
    global _U
    u_ext = np.full((N_GROUPS, N_SHEETS + 1), np.nan)
    u_ext[:, N_SHEETS] = -np.inf
    u_ext[:, :N_SHEETS][WON] = 0.0
    todo = np.arange(N_GROUPS) if groups is None else np.asarray(groups)
    t0 = time.time()
    solved = 0
    steps = []
    for level in range(GROUP_LEVEL.max(), -1, -1):
        at = todo[GROUP_LEVEL[todo] == level]
        if workers > 1:
            size = max(1, min(chunk, -(-len(at) // workers)))
        else:
            size = chunk
        chunks = [at[c0:c0 + size] for c0 in range(0, len(at), size)]
        _U = u_ext
        if workers > 1 and len(chunks) > 1:
            import multiprocessing
            with multiprocessing.get_context("fork").Pool(workers) as pool:
                results = pool.map(_solve_chunk, chunks)
        else:
            results = [_solve_chunk(c) for c in chunks]
        for out, n in results:
            steps.append(n)
            for g, sh, x in out:
                u_ext[g, sh] = x
                solved += len(sh)
        if log:
            log("group level %2d: %5d groups, %8d states so far, %.1f s"
                % (level, len(at), solved, time.time() - t0))
    _U = None
    return u_ext[:, :N_SHEETS]


def optimum(u):
    """Expected turns to 10 VP from the empty sheet."""
    return -u[EMPTY_GROUP, EMPTY_SHEET]


def successors(gi, si):
    """The states (group, sheet) that some build from state (gi, si) leads to."""
    plan = group_plan(gi)
    out = set()
    for t, target, _ in plan.columns:
        for s2 in SUCCESSORS[t][si]:
            if s2 < N_SHEETS:
                out.add((target, int(s2)))
    return out


def solve_lazily(u_ext, gi, si):
    """U of one state, solving (into u_ext, NaN where unknown) the states it needs first:
    for small sub-games, as the tests check them against the brute force."""
    if not np.isnan(u_ext[gi, si]):
        return u_ext[gi, si]
    for g2, s2 in successors(gi, si):
        solve_lazily(u_ext, g2, s2)
    plan = group_plan(gi)
    sheets = np.array([si])
    build = build_values(u_ext, plan, sheets, external_values(u_ext, plan, sheets))
    u_ext[gi, si] = solve_states(build)[0][0]
    return u_ext[gi, si]


def empty_table():
    """u_ext with the won states 0 and the others NaN (unknown)."""
    u_ext = np.full((N_GROUPS, N_SHEETS + 1), np.nan)
    u_ext[:, N_SHEETS] = -np.inf
    u_ext[:, :N_SHEETS][WON] = 0.0
    return u_ext
