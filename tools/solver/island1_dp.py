"""The exact dynamic programme for Island One: V_t(state) for t = 1..15.

State = (group, sheet): group = (knight level k, mask of used jokers), sheet = (roads,
settlement level, city level); see ``island1_model``. ``V[t][g, s]`` is the expected sum
of the boxes of turns t..15 under optimal play; ``V[16] = 0``.

One turn, for all states at once:

1. *Final values* F3[s, m] for each of the 462 final multisets m: the best of "build
   nothing" (X + V_{t+1}(s)) and every build type that m can pay for. For one group the
   candidate moves are *columns* (build type T, joker set J): J is a minimal set of
   jokers with which m pays for T (feasibility is monotone in J, and using fewer jokers
   is never worse, so the minimal sets suffice). A column's value for a sheet is the
   best over the concrete builds of that type (which roads, ...) of
   points + V_{t+1}(target). Multisets with the same set of columns form a *pattern*.
2. Two re-roll stages and the first roll: ``keep_recursion.turn_value``.
"""

import time

import numpy as np

from island1_model import (BUILD_TYPES, FULL, GROUPS, N_K, N_SHEETS, SHEETS,
                           SHEET_INDEX, TURNS, TYPE_COSTS, TYPE_KNIGHTS, X, add_costs,
                           feasible_mask, knight_points, relevant_jokers, set_bits,
                           sheet_successors, submasks)
import keep_recursion

N_GROUPS = len(GROUPS)
N_FULL = len(FULL)


def group_index(k, used):
    """Row of group (k, used) in the value tables."""
    return (1 << k) - 1 + used


# ------------------------------------------------------------- successor tables

def _successor_table(t):
    """For build type t: (targets, points), both (N_SHEETS, width); padding targets point
    at column N_SHEETS (value -inf), so a type that cannot be built gives -inf."""
    lists = [sheet_successors(sh, t) for sh in SHEETS]
    width = max(1, max(len(x) for x in lists))
    targets = np.full((N_SHEETS, width), N_SHEETS, dtype=np.int64)
    points = np.zeros((N_SHEETS, width))
    for i, lst in enumerate(lists):
        for b, (sh, pts) in enumerate(lst):
            targets[i, b] = SHEET_INDEX[sh]
            points[i, b] = pts
    return targets, points


SUCCESSORS = {t: _successor_table(t) for t in BUILD_TYPES}


# ---------------------------------------------------------------- group plans

def _mask_of(js):
    out = 0
    for j in js:
        out |= 1 << j
    return out


class GroupPlan:
    """The columns and patterns of one group (k, used); independent of the turn.

    columns: list of (build type, joker mask J, target group row, knight points)
    patterns: list of (column indices, final-multiset indices) with a non-empty column set
    per_m: for each final multiset, its column indices
    """

    def __init__(self, k, used):
        self.k, self.used = k, used
        self.gi = group_index(k, used)
        unused = ((1 << k) - 1) & ~used
        per_m = [[] for _ in range(N_FULL)]
        self.columns = []
        for t in BUILD_TYPES:
            n_k = TYPE_KNIGHTS.get(t, 0)
            if k + n_k > N_K:
                continue
            self._add_columns(t, unused, per_m)
        self.per_m = per_m
        self.patterns = self._group_patterns(per_m)

    def _add_columns(self, t, unused, per_m):
        """Add the columns of type t: for each final multiset, the minimal joker sets
        (early jokers from ``unused``, plus the late joker k for KK and KR) that pay."""
        first, second = TYPE_COSTS[t]
        early = unused & _mask_of(relevant_jokers(add_costs(first, second)))
        late = 0
        if t in ("KK", "KR") and self.k in relevant_jokers(second):
            late = 1 << self.k
        cands = early | late
        feas = {j: feasible_mask(t, j & ~late, j & late) for j in submasks(cands)}
        col_of = {}
        for jm, mask in feas.items():
            drops = [feas[jm & ~(1 << b)] for b in set_bits(jm)]
            for mi in range(N_FULL):
                if mask[mi] and not any(d[mi] for d in drops):
                    if jm not in col_of:
                        col_of[jm] = len(self.columns)
                        n_k = TYPE_KNIGHTS.get(t, 0)
                        target = group_index(self.k + n_k, self.used | jm)
                        self.columns.append((t, jm, target, knight_points(self.k, n_k)))
                    per_m[mi].append(col_of[jm])

    @staticmethod
    def _group_patterns(per_m):
        by_pattern = {}
        for mi, cols in enumerate(per_m):
            if cols:
                by_pattern.setdefault(tuple(sorted(cols)), []).append(mi)
        return [(np.array(c), np.array(ms)) for c, ms in by_pattern.items()]


_PLANS = {}


def group_plan(gi):
    """The (cached) GroupPlan of group row gi."""
    if gi not in _PLANS:
        k, used = GROUPS[gi]
        _PLANS[gi] = GroupPlan(k, used)
    return _PLANS[gi]


# ------------------------------------------------------------------ one turn

def extend(v_next):
    """V_{t+1} with a -inf column appended (the padding target of the tables)."""
    return np.concatenate([v_next, np.full((v_next.shape[0], 1), -np.inf)], axis=1)


def column_values(v_ext, plan, sheets):
    """best[i, c]: value of column c of ``plan`` for sheet sheets[i] (-inf if unbuildable)."""
    best = np.empty((len(sheets), len(plan.columns)))
    for c, (t, _jm, target, kpts) in enumerate(plan.columns):
        targets, points = SUCCESSORS[t]
        vals = v_ext[target][targets[sheets]] + points[sheets]
        best[:, c] = vals.max(axis=1) + kpts
    return best


def final_values(v_ext, plan, sheets):
    """F3 (462, len(sheets)): the value of ending the rolls on each multiset."""
    base = X + v_ext[plan.gi][sheets]
    out = np.repeat(base[None, :], N_FULL, axis=0)
    if not plan.columns:
        return out
    best = column_values(v_ext, plan, sheets).T
    for cols, ms in plan.patterns:
        out[ms] = np.maximum(base, best[cols].max(axis=0))
    return out


ALL_SHEETS = np.arange(N_SHEETS)


def solve_turn(v_next, groups_per_chunk=16):
    """V_t (N_GROUPS, N_SHEETS) from V_{t+1}."""
    v_ext = extend(v_next)
    v = np.empty_like(v_next)
    for g0 in range(0, N_GROUPS, groups_per_chunk):
        gs = range(g0, min(N_GROUPS, g0 + groups_per_chunk))
        f3 = np.concatenate([final_values(v_ext, group_plan(g), ALL_SHEETS) for g in gs],
                            axis=1)
        v[g0:g0 + len(gs)] = keep_recursion.turn_value(f3).reshape(len(gs), N_SHEETS)
    return v


def solve(turns=TURNS, log=print):
    """Value tables V (TURNS + 2, N_GROUPS, N_SHEETS): V[t] for the last ``turns`` turns
    (t = TURNS + 1 - turns .. TURNS), V[TURNS + 1] = 0; rows not solved are NaN."""
    v = np.full((TURNS + 2, N_GROUPS, N_SHEETS), np.nan)
    v[TURNS + 1] = 0.0
    for t in range(TURNS, TURNS - turns, -1):
        t0 = time.time()
        v[t] = solve_turn(v[t + 1])
        if log:
            log("turn %2d: V(start) = %.6f  (%.1f s)"
                % (t, v[t][0, SHEET_INDEX[(0, 0, 0)]], time.time() - t0))
    return v
