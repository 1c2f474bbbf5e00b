"""The within-turn dice recursion over multisets, vectorised across many states.

With F(m) the value of stopping on the six-dice multiset m (arrays are laid out
multiset-major: one row per multiset, one column per state, so gathers copy whole rows):

- the *keep value* W(K) of keeping the sub-multiset K and re-rolling the other dice is
  W(K) = E[F(K + r)], computed level by level: W(K) = mean over faces f of W(K + f),
  with W = F on six dice (each level is a small dense matrix product);
- the value after a roll m with a re-roll left is max over K within m of W(K), computed
  as M(K) = max(W(K), max over f in K of M(K - f)), with M = W on the empty multiset.

``reroll_value(F)`` does both steps: the value of a roll when one more re-roll is allowed.
"""

import numpy as np

from island1_model import FULL, MULTISETS, N_DICE, N_FACES, multinomial_prob

LEVELS = [[i for i, m in enumerate(MULTISETS) if sum(m) == n] for n in range(N_DICE + 1)]
POS = {}  # multiset -> position within its level
for _lvl in LEVELS:
    for _p, _i in enumerate(_lvl):
        POS[MULTISETS[_i]] = _p
assert LEVELS[N_DICE] == FULL


def _add_face(m, f, d):
    return m[:f] + (m[f] + d,) + m[f + 1:]


def _up_matrix(n):
    """(size of level n+1) x (size of level n): A[K+f, K] = 1/6, so W_n = W_{n+1} @ A."""
    a = np.zeros((len(LEVELS[n + 1]), len(LEVELS[n])))
    for p, i in enumerate(LEVELS[n]):
        m = MULTISETS[i]
        for f in range(N_FACES):
            a[POS[_add_face(m, f, 1)], p] += 1.0 / N_FACES
    return a


def _down_table(n):
    """For level n: per multiset and face, the position of K - f in level n-1 (or the pad
    position len(level n-1) when K has no f)."""
    pad = len(LEVELS[n - 1])
    t = np.full((len(LEVELS[n]), N_FACES), pad, dtype=np.int64)
    for p, i in enumerate(LEVELS[n]):
        m = MULTISETS[i]
        for f in range(N_FACES):
            if m[f] > 0:
                t[p, f] = POS[_add_face(m, f, -1)]
    return t


UP = [_up_matrix(n) for n in range(N_DICE)]
DOWN = [None] + [_down_table(n) for n in range(1, N_DICE + 1)]
PROB = np.array([multinomial_prob(MULTISETS[i]) for i in FULL])  # first-roll distribution


UP_T = [np.ascontiguousarray(a.T) for a in UP]


def keep_values(final):
    """W per level: a list of arrays (size of level n, states), n = 0..6; W[6] = final."""
    w = [None] * (N_DICE + 1)
    w[N_DICE] = final
    for n in range(N_DICE - 1, -1, -1):
        w[n] = UP_T[n] @ w[n + 1]
    return w


def best_keep_values(w, *got):
    """M over the six-dice level: max of W over all sub-multisets (the empty one included).
    With ``got`` (keep values of other tables, same shapes: one or more), also the values
    of each of them at the keeps that ``w`` chooses: (M, got[0] at M's choices, ...)."""
    m = w[0]
    gs = [g[0] for g in got]
    for n in range(1, N_DICE + 1):
        pad = np.full((1, m.shape[1]), -np.inf)
        padded = np.concatenate([m, pad], axis=0)
        best = w[n].copy()
        down = DOWN[n]
        if not got:
            for f in range(N_FACES):
                np.maximum(best, padded[down[:, f]], out=best)
        else:
            # a carried table's pad row is never chosen: the -inf beside it never wins
            padded_gs = [np.concatenate([g, pad], axis=0) for g in gs]
            best_gs = [g[n].copy() for g in got]
            for f in range(N_FACES):
                cand = padded[down[:, f]]
                better = cand > best
                np.copyto(best, cand, where=better)
                for b, p in zip(best_gs, padded_gs):
                    np.copyto(b, p[down[:, f]], where=better)
            gs = best_gs
        m = best
    return (m, *gs) if got else m


def reroll_value(final):
    """Value of each six-dice roll when one re-roll is still allowed, given the values
    ``final`` (462, states) of stopping on each roll."""
    return best_keep_values(keep_values(final))


def turn_value(final):
    """Expected value of a turn (states,), given the values (462, states) of the final
    rolls: first roll, then up to two re-rolls."""
    return PROB @ reroll_value(reroll_value(final))


