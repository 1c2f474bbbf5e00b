"""A slow, independent solver of small Island Two sub-games, to check the fast one.

It shares nothing with the fast solver's model: it works on the game's own masks (roads,
buildings, jokers as ``catan.game.Game`` keeps them), asks ``catan.maps`` what each item
needs and costs, and searches every sequence of actions after the last roll (a build paid
with natural faces, a joker on any die to any resource it allows, a gold trade) depth
first (``brute.build_search``: Island One's slow search, on Island Two's map). The dice
distributions come from enumerating ordered throws and keeps are enumerated sub-multiset
by sub-multiset (as matrices, so that a turn is quick). The value of a state, minus the
expected turns to 10 VP, is the root of x = -1 + T(x) (T: the turn's expectation when
"build nothing" is worth x), found by bisection then the secant method on a bracket: a
different method from the fast solver's Newton steps.
"""

import functools

import numpy as np

import brute  # noqa: F401  (puts lib/ on sys.path; its search and dice are reused)
from brute import build_search, plus, sub_multisets, throw_distribution
from catan.maps import AWARD_VP, GREY_ROAD, ISLAND_TWO, KNIGHT, WIN_VP

ISL = ISLAND_TWO
FACES = 6
KNIGHT_BITS = [b for b in range(len(ISL.kinds)) if ISL.kinds[b] == KNIGHT]


def vp(roads, builds):
    """Victory points of a solo sheet: buildings, Longest Road with the grey road, Largest
    Army with the third knight."""
    v = sum(ISL.values[b] for b in range(len(ISL.names)) if builds >> b & 1)
    if roads >> GREY_ROAD & 1:
        v += AWARD_VP
    if sum(1 for b in KNIGHT_BITS if builds >> b & 1) >= 3:
        v += AWARD_VP
    return v


def after_roll_search(value):
    """search(roads, builds, jokers, counts, built): the best over every legal sequence of
    builds, jokers and trades (at least one build) of ``value(roads, builds, jokers)`` of
    the sheet it leaves; -inf when nothing can be built."""
    def stop(roads, builds, jokers, built):
        return value(roads, builds, jokers) if built else -np.inf
    return build_search(ISL, stop, lambda item: 0)


# ------------------------------------------------------------- the dice, as matrices

FINALS = sorted(throw_distribution(FACES))  # the six-dice multisets
FINAL_INDEX = {m: i for i, m in enumerate(FINALS)}


def _keep_tables():
    keeps = sorted({k for m in FINALS for k in sub_multisets(m)})
    index = {k: i for i, k in enumerate(keeps)}
    reach = np.zeros((len(keeps), len(FINALS)))  # keep -> final roll, probabilities
    for i, k in enumerate(keeps):
        for r, p in throw_distribution(FACES - sum(k)).items():
            reach[i, FINAL_INDEX[plus(k, r)]] += p
    subs = [[index[k] for k in sub_multisets(m)] for m in FINALS]
    width = max(len(s) for s in subs)
    sub = np.array([s + [s[0]] * (width - len(s)) for s in subs])
    first = np.array([throw_distribution(FACES)[m] for m in FINALS])
    return reach, sub, first


REACH, SUB, FIRST = _keep_tables()


def roll_stage(values):
    """Values of each six-dice roll with one more re-roll allowed, from the values of
    stopping on it (arrays over FINALS): the best keep of each roll."""
    return (REACH @ values)[SUB].max(axis=1)


def turn(values):
    """The expected value of a turn: first roll, two re-roll stages, then ``values``."""
    return FIRST @ roll_stage(roll_stage(values))


def fixed_point(builds):
    """The root of x = -1 + T(x), T(x) = turn(max(x, builds)), over a bracket."""
    def f(x):
        return -1.0 + turn(np.maximum(builds, x)) - x
    lo, hi = -1000.0, 0.0  # f(lo) > 0 > f(hi)
    assert f(lo) > 0 > f(hi)
    for _ in range(30):  # bisection to a small bracket
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    flo, fhi = f(lo), f(hi)
    for _ in range(200):  # then the secant on the bracket (f is piecewise linear)
        x = hi - fhi * (hi - lo) / (fhi - flo)
        fx = f(x)
        if abs(fx) < 1e-13 or hi - lo < 1e-13:
            return x
        if fx > 0:
            lo, flo = x, fx
        else:
            hi, fhi = x, fx
    return (lo + hi) / 2


@functools.lru_cache(maxsize=None)
def value(roads, builds, jokers):
    """Minus the expected turns to 10 VP of a solo sheet under optimal play (memoised:
    only for small sub-games)."""
    if vp(roads, builds) >= WIN_VP:
        return 0.0
    search = after_roll_search(value)
    b = np.array([search(roads, builds, jokers, m, False) for m in FINALS])
    return fixed_point(b)
