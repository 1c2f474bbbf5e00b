"""Island One as a finite model for the exact solver: dice multisets, sheets, builds, payments.

Everything here is derived from ``catan.maps`` (the map as data), so the solver and the
game share one map.

Terms used throughout the solver:

- A *multiset* of dice is a tuple of six counts (brick, lumber, wool, grain, ore, gold).
  ``MULTISETS`` lists every multiset of 0..6 dice (924 of them), by size then
  lexicographically; ``FULL`` holds the indices of the 462 six-dice multisets.
- A *sheet* is the part of the state that is not knights: (road mask, settlement level
  0..6, city level 0..4). Only consistent sheets are kept (a built site has its road).
- A *group* is (knight level k, used-joker mask); a state is (group, sheet).
- A *build type* is one of the nine sets of builds that six dice can pay for
  (road 2 dice, knight 3, settlement 4, city 5): R, RR, RRR, S, SR, C, K, KK, KR.
  KK and KR are built knight first, so the first new knight's joker (the *late* joker)
  can pay only for the second build.
- A *payment* turns a final multiset into the cost of a build type using natural faces,
  jokers (any unspent die becomes the joker's resource) and gold trades (two gold dice
  become one resource). ``pay_plan`` finds one by exhaustive search.
"""

import functools
import itertools
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
if os.path.join(ROOT, "lib") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "lib"))

from catan.maps import (ANY, CITY, COSTS, GOLD, ISLAND_ONE, KNIGHT, ROAD,
                        SETTLEMENT, START, TURNS_ONE, X_PENALTY)

ISL = ISLAND_ONE
N_FACES = 6
N_DICE = 6
N_ROADS = ISL.n_roads
TURNS = TURNS_ONE
X = X_PENALTY


# ------------------------------------------------------------------ the map as lists

def _chain(kind):
    """The buildings of one kind in their ascending build order: (building index, points,
    site road or -1)."""
    out = [b for b in range(len(ISL.kinds)) if ISL.kinds[b] == kind]
    # Order by the 'before' chain: the first has before == START.
    order = []
    prev = START
    while len(order) < len(out):
        nxt = [b for b in out if ISL.before[b] == prev]
        assert len(nxt) == 1, "Island One has one ascending chain per kind"
        order.append(nxt[0])
        prev = nxt[0]
    return [(b, ISL.values[b], -1 if ISL.site_road[b] == START else ISL.site_road[b])
            for b in order]


SETTLEMENTS = _chain(SETTLEMENT)  # [(building, points, road)], ascending
CITIES = _chain(CITY)
KNIGHTS = _chain(KNIGHT)
N_S, N_C, N_K = len(SETTLEMENTS), len(CITIES), len(KNIGHTS)
KNIGHT_POINTS = [p for _, p, _ in KNIGHTS]
# Joker j is unlocked by knight j (K1..K6 in order) and gives JOKER_RES[j] (ANY for "?").
JOKER_RES = []
for _b, _p, _r in KNIGHTS:
    _res = [res for res, mask in ISL.jokers if mask == 1 << _b]
    assert len(_res) == 1
    JOKER_RES.append(_res[0])
N_JOKERS = len(JOKER_RES)
COST = {kind: tuple(COSTS[kind]) + (0,) for kind in (ROAD, SETTLEMENT, CITY, KNIGHT)}


# ---------------------------------------------------------------------- multisets

def _all_multisets():
    out = []
    for n in range(N_DICE + 1):
        level = [c for c in itertools.product(range(n + 1), repeat=N_FACES) if sum(c) == n]
        out.extend(sorted(level))
    return out


MULTISETS = _all_multisets()
MS_INDEX = {m: i for i, m in enumerate(MULTISETS)}
FULL = [i for i, m in enumerate(MULTISETS) if sum(m) == N_DICE]
FULL_INDEX = {MULTISETS[i]: j for j, i in enumerate(FULL)}  # six-dice multiset -> 0..461


def multinomial_prob(m):
    """Probability that sum(m) fair dice show exactly the multiset m."""
    n = sum(m)
    ways = 1
    left = n
    for c in m:
        ways *= _comb(left, c)
        left -= c
    return ways / N_FACES ** n


def _comb(n, k):
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


def counts_of(faces):
    """The multiset (tuple of six counts) of a list of faces."""
    c = [0] * N_FACES
    for f in faces:
        c[f] += 1
    return tuple(c)


# ------------------------------------------------------------------------ sheets

def road_subtrees():
    """Every set of roads that can be built: masks closed under 'the road it hangs on'."""
    parent = [-1 if ISL.roads[r] == START else ISL.roads[r] for r in range(N_ROADS)]
    out = []
    for mask in range(1 << N_ROADS):
        if all(parent[r] < 0 or mask >> parent[r] & 1
               for r in range(N_ROADS) if mask >> r & 1):
            out.append(mask)
    return out, parent


ROAD_MASKS, ROAD_PARENT = road_subtrees()


def _site_ok(roads, road):
    return road < 0 or bool(roads >> road & 1)


def sheet_ok(roads, s, c):
    """Whether settlement level s and city level c fit the roads built."""
    return (all(_site_ok(roads, SETTLEMENTS[i][2]) for i in range(s))
            and all(_site_ok(roads, CITIES[i][2]) for i in range(c)))


SHEETS = [(r, s, c) for r in ROAD_MASKS for s in range(N_S + 1) for c in range(N_C + 1)
          if sheet_ok(r, s, c)]
SHEET_INDEX = {sh: i for i, sh in enumerate(SHEETS)}
N_SHEETS = len(SHEETS)
EMPTY_SHEET = SHEET_INDEX[(0, 0, 0)]
GROUPS = [(k, used) for k in range(N_K + 1) for used in range(1 << k)]


def n_states():
    return N_SHEETS * len(GROUPS)


def popcount(x):
    return bin(x).count("1")


def set_bits(mask):
    """The positions of the bits set in ``mask`` (a joker mask), lowest first."""
    return [j for j in range(mask.bit_length()) if mask >> j & 1]


def submasks(mask):
    """Every sub-mask of ``mask``, ``mask`` itself first and 0 last."""
    sub = mask
    while True:
        yield sub
        if sub == 0:
            return
        sub = (sub - 1) & mask


# ------------------------------------------------------------------ builds on a sheet

def road_additions(roads, n):
    """The road masks reachable by adding exactly n roads (each next to a built one)."""
    level = {roads}
    for _ in range(n):
        nxt = set()
        for m in level:
            for r in range(N_ROADS):
                if not m >> r & 1 and (ROAD_PARENT[r] < 0 or m >> ROAD_PARENT[r] & 1):
                    nxt.add(m | 1 << r)
        level = nxt
    return sorted(level)


BUILD_TYPES = ("R", "RR", "RRR", "S", "SR", "C", "K", "KK", "KR")
# (first part's cost, second part's cost) of each type; KK and KR: knight first.
_R, _S, _C, _K = (COST[ROAD], COST[SETTLEMENT], COST[CITY], COST[KNIGHT])


def add_costs(*costs):
    return tuple(sum(x) for x in zip(*costs))


ZERO = (0,) * N_FACES
TYPE_COSTS = {
    "R": (_R, ZERO), "RR": (add_costs(_R, _R), ZERO), "RRR": (add_costs(_R, _R, _R), ZERO),
    "S": (_S, ZERO), "SR": (add_costs(_S, _R), ZERO), "C": (_C, ZERO),
    "K": (_K, ZERO), "KK": (_K, _K), "KR": (_K, _R),
}
TYPE_KNIGHTS = {"K": 1, "KK": 2, "KR": 1}


def sheet_successors(sheet, t):
    """For build type t (its non-knight part), the sheets it can lead to from ``sheet``
    and the points of those non-knight builds: a list of (sheet', points)."""
    roads, s, c = sheet
    out = []
    if t in ("R", "RR", "RRR", "KR"):
        n = {"R": 1, "RR": 2, "RRR": 3, "KR": 1}[t]
        out = [((m, s, c), n) for m in road_additions(roads, n)]
    elif t == "S":
        if s < N_S and _site_ok(roads, SETTLEMENTS[s][2]):
            out = [((roads, s + 1, c), SETTLEMENTS[s][1])]
    elif t == "SR":
        if s < N_S:
            out = [((m, s + 1, c), 1 + SETTLEMENTS[s][1]) for m in road_additions(roads, 1)
                   if _site_ok(m, SETTLEMENTS[s][2])]
    elif t == "C":
        if c < N_C and _site_ok(roads, CITIES[c][2]):
            out = [((roads, s, c + 1), CITIES[c][1])]
    elif t in ("K", "KK"):
        out = [(sheet, 0)]
    return out


def knight_points(k, n):
    """Points of the next n knights after knight level k."""
    return sum(KNIGHT_POINTS[k:k + n])


# -------------------------------------------------------------------------- payment

def relevant_jokers(cost):
    """The jokers whose resource appears in ``cost`` (the others can never help)."""
    return [j for j in range(N_JOKERS)
            if JOKER_RES[j] == ANY or cost[JOKER_RES[j]] > 0]


def pay_plan(counts, first, second, early, late):
    """A way to pay ``first`` then ``second`` (cost tuples) from the dice ``counts``, or None.

    ``early``: bit mask of jokers usable for either part; ``late``: bit mask of jokers
    usable only for the second part. Returns the list of conversions, in order:
    ("joker", j, die_face, resource), ("trade", resource) and ("part", 1) marking where
    the first part is paid. Exhaustive search, so it is the ground truth of feasibility.
    """
    return _plan(tuple(counts), tuple(first), tuple(second), early, late)


@functools.lru_cache(maxsize=None)
def _plan(counts, need, second, early, late):
    r = next((i for i in range(5) if need[i] > 0), -1)
    if r < 0:
        if second is None:
            return ()
        if not any(second):
            return (("part", 1),)
        rest = _plan(counts, second, None, early | late, 0)
        return None if rest is None else (("part", 1),) + rest
    need_r = need[:r] + (need[r] - 1,) + need[r + 1:]
    if counts[r] > 0:  # a die showing r
        got = _plan(_dec(counts, r), need_r, second, early, late)
        if got is not None:
            return got
    for j in range(N_JOKERS):  # a joker turns some other die to r
        if early >> j & 1 and JOKER_RES[j] in (r, ANY):
            for f in range(N_FACES):
                if f != r and counts[f] > 0:
                    got = _plan(_dec(counts, f), need_r, second, early & ~(1 << j), late)
                    if got is not None:
                        return (("joker", j, f, r),) + got
    if counts[GOLD] >= 2:  # two gold dice become r
        got = _plan(_dec(_dec(counts, GOLD), GOLD), need_r, second, early, late)
        if got is not None:
            return (("trade", r),) + got
    return None


def _dec(counts, f):
    return counts[:f] + (counts[f] - 1,) + counts[f + 1:]


@functools.lru_cache(maxsize=None)
def feasible_mask(t, early, late):
    """Over the 462 six-dice multisets: can build type t be paid with (a subset of) the
    jokers in ``early`` (any part) and ``late`` (second part only)? A tuple of bools."""
    first, second = TYPE_COSTS[t]
    return tuple(pay_plan(MULTISETS[i], first, second, early, late) is not None
                 for i in FULL)
