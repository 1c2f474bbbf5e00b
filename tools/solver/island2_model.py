"""Island Two's solo race as a finite model for the exact solver: sheets, knight groups,
build moves and payments.

Everything is derived from ``catan.maps`` (the map as data). The solo race (one player,
``catan.game.Game(2, 1, dice)``) rolls 6 dice every turn; Longest Road comes with the grey
road R5 and Largest Army with the third knight, both uncontested and never lost. The
result is the number of turns taken to reach 10 VP.

The state, reduced without loss:

- A *sheet* is (road mask, settlements built, cities built). Which settlement sites are
  built does not matter, only how many: every settlement is worth 1 VP and costs the
  same, and a site is open once its road is built, so two sheets with the same roads and
  the same counts offer the same futures (same for cities). 77 road masks, 1,353 sheets.
- A *group* is the knights and jokers: for K1..K5 a code 0 (not built), 1 (built, joker
  unused) or 2 (built, joker used), and for each desert a code 0 (no knight), 1 (one
  knight), 2 (both, "?" joker unused) or 3 (both, joker used). The two deserts are alike
  (two knights over a "?" joker), so a group keeps them sorted: 243 x 10 = 2,430 groups.
- A state with 10 VP or more is won (0 turns to go).

Jokers of a group are numbered 0..4 (K1..K5's, giving ore, grain, wool, lumber, brick)
and 5, 6 (the two desert slots, "?"). Build types are Island One's: the sets of builds
six dice can pay (road 2 dice, knight 3, settlement 4, city 5): R, RR, RRR, S, SR, C, K,
KK, KR; KK and KR build a knight first, whose joker (the *late* joker) may pay only for
the second build.
"""

import functools
import itertools

import island1_model  # noqa: F401  (first: puts lib/ on sys.path for catan)
from island1_model import BUILD_TYPES, FULL, MULTISETS, N_FACES, TYPE_COSTS
from catan.maps import (ANY, AWARD_VP, BRICK, CITY, GOLD, GRAIN, GREY_ROAD, ISLAND_TWO,
                        KNIGHT, LUMBER, ORE, SETTLEMENT, START, WIN_VP, WOOL)

ISL = ISLAND_TWO
N_ROADS = ISL.n_roads
N_FULL = len(FULL)

# ------------------------------------------------------------------ the map as lists

ROAD_PARENT = [-1 if ISL.roads[r] == START else ISL.roads[r] for r in range(N_ROADS)]
S_SITES = [b for b in range(len(ISL.kinds)) if ISL.kinds[b] == SETTLEMENT]
C_SITES = [b for b in range(len(ISL.kinds)) if ISL.kinds[b] == CITY]
K_ITEMS = [b for b in range(len(ISL.kinds)) if ISL.kinds[b] == KNIGHT]  # K1..K9
S_VP = ISL.values[S_SITES[0]]
C_VP = ISL.values[C_SITES[0]]
assert all(ISL.values[b] == S_VP for b in S_SITES)
assert all(ISL.values[b] == C_VP for b in C_SITES)


def _site_road(b):
    return -1 if ISL.site_road[b] == START else ISL.site_road[b]


S_ROADS = [_site_road(b) for b in S_SITES]
C_ROADS = [_site_road(b) for b in C_SITES]

# The jokers: five single knights and two deserts of two knights each.
SINGLES = []  # (building index of the knight, resource), K1..K5
DESERTS = []  # (building indices of its two knights)
for _res, _need in ISL.jokers:
    _bits = [b for b in range(len(ISL.kinds)) if _need >> b & 1]
    if len(_bits) == 1:
        SINGLES.append((_bits[0], _res))
    else:
        assert len(_bits) == 2 and _res == ANY
        DESERTS.append(tuple(_bits))
assert len(SINGLES) == 5 and len(DESERTS) == 2
JOKER_RES = tuple(r for _, r in SINGLES) + (ANY, ANY)  # jokers 0..6 of a group
assert JOKER_RES[:5] == (ORE, GRAIN, WOOL, LUMBER, BRICK)


def popcount(x):
    return bin(x).count("1")


# ------------------------------------------------------------------------ sheets

def road_masks():
    return [m for m in range(1 << N_ROADS)
            if all(ROAD_PARENT[r] < 0 or m >> ROAD_PARENT[r] & 1
                   for r in range(N_ROADS) if m >> r & 1)]


ROAD_MASKS = road_masks()


def _open(roads, site_roads):
    return sum(1 for r in site_roads if r < 0 or roads >> r & 1)


def open_settlements(roads):
    return _open(roads, S_ROADS)


def open_cities(roads):
    return _open(roads, C_ROADS)


SHEETS = [(m, s, c) for m in ROAD_MASKS for s in range(open_settlements(m) + 1)
          for c in range(open_cities(m) + 1)]
SHEET_INDEX = {sh: i for i, sh in enumerate(SHEETS)}
N_SHEETS = len(SHEETS)
EMPTY_SHEET = SHEET_INDEX[(0, 0, 0)]


def sheet_vp(sheet):
    roads, s, c = sheet
    return s * S_VP + c * C_VP + (AWARD_VP if roads >> GREY_ROAD & 1 else 0)


def sheet_level(sheet):
    roads, s, c = sheet
    return popcount(roads) + s + c


def road_additions(roads, n):
    level = {roads}
    for _ in range(n):
        level = {m | 1 << r for m in level for r in range(N_ROADS)
                 if not m >> r & 1 and (ROAD_PARENT[r] < 0 or m >> ROAD_PARENT[r] & 1)}
    return sorted(level)


def sheet_successors(sheet, t):
    """The sheets the non-knight part of build type t can lead to from ``sheet``."""
    roads, s, c = sheet
    n_roads = {"R": 1, "RR": 2, "RRR": 3, "KR": 1, "SR": 1}.get(t, 0)
    if t in ("K", "KK"):
        return [sheet]
    if t == "S":
        return [(roads, s + 1, c)] if s < open_settlements(roads) else []
    if t == "C":
        return [(roads, s, c + 1)] if c < open_cities(roads) else []
    out = road_additions(roads, n_roads)
    if t == "SR":
        return [(m, s + 1, c) for m in out if s < open_settlements(m)]
    return [(m, s, c) for m in out]


# ------------------------------------------------------------------------ groups

def canonical(ks, d1, d2):
    return (tuple(ks), min(d1, d2), max(d1, d2))


GROUPS = [(ks, d1, d2) for ks in itertools.product(range(3), repeat=5)
          for d1 in range(4) for d2 in range(d1, 4)]
GROUP_INDEX = {g: i for i, g in enumerate(GROUPS)}
N_GROUPS = len(GROUPS)
EMPTY_GROUP = GROUP_INDEX[((0,) * 5, 0, 0)]


def knights_built(group):
    ks, d1, d2 = group
    return sum(1 for k in ks if k) + min(d1, 2) + min(d2, 2)


def group_vp(group):
    return AWARD_VP if knights_built(group) >= 3 else 0


def group_level(group):
    """Knights built plus jokers used: every build with a knight or a joker raises it."""
    ks, d1, d2 = group
    return sum(ks) + d1 + d2


def unused_jokers(group):
    """Bit mask of the jokers (0..6) the group may use."""
    ks, d1, d2 = group
    mask = 0
    for i, k in enumerate(ks):
        if k == 1:
            mask |= 1 << i
    if d1 == 2:
        mask |= 1 << 5
    if d2 == 2:
        mask |= 1 << 6
    return mask


def use_jokers(group, jokers):
    """The group after the jokers in the bit mask ``jokers`` are used (canonical)."""
    ks, d1, d2 = group
    ks = list(ks)
    for i in range(5):
        if jokers >> i & 1:
            assert ks[i] == 1
            ks[i] = 2
    if jokers >> 5 & 1:
        assert d1 == 2
        d1 = 3
    if jokers >> 6 & 1:
        assert d2 == 2
        d2 = 3
    return canonical(ks, d1, d2)


def knight_choices(group):
    """The knights that can be built next, as (slot, new group before sorting the
    deserts, late joker bit or 0): slot i < 5 is K(i + 1), 5 and 6 the desert slots.
    The new group keeps the slot order so that a late joker's bit names its slot."""
    ks, d1, d2 = group
    out = []
    for i in range(5):
        if ks[i] == 0:
            nks = ks[:i] + (1,) + ks[i + 1:]
            out.append((i, (nks, d1, d2), 1 << i))
    if d1 < 2:
        out.append((5, (ks, d1 + 1, d2), 1 << 5 if d1 == 1 else 0))
    if d2 < 2 and d2 != d1:  # alike deserts: build in the first of equal ones
        out.append((6, (ks, d1, d2 + 1), 1 << 6 if d2 == 1 else 0))
    return out


def knight_moves(group, n):
    """Ways to build n (1 or 2) knights: (new group in slot order, late joker bit), the
    late joker being the first new knight's (usable for the second part only)."""
    out = set()
    for _slot, g1, late in knight_choices(group):
        if n == 1:
            out.add((g1, late))
            continue
        for _slot2, g2, _ in _choices_any(g1):
            out.add((g2, late))
    return sorted(out)


def _choices_any(group):
    # Like knight_choices but without the desert symmetry (the group is not sorted).
    ks, d1, d2 = group
    out = []
    for i in range(5):
        if ks[i] == 0:
            out.append((i, (ks[:i] + (1,) + ks[i + 1:], d1, d2), 0))
    if d1 < 2:
        out.append((5, (ks, d1 + 1, d2), 0))
    if d2 < 2:
        out.append((6, (ks, d1, d2 + 1), 0))
    return out


def state_vp(group, sheet):
    return group_vp(group) + sheet_vp(sheet)


def is_won(group, sheet):
    return state_vp(group, sheet) >= WIN_VP


# -------------------------------------------------------------------------- payment

COST = TYPE_COSTS  # (first part, second part) of each build type, six-face tuples


def relevant(cost):
    """Resources (0..4) a cost needs."""
    return {r for r in range(5) if cost[r] > 0}


@functools.lru_cache(maxsize=None)
def _plan(counts, need, second, early, late):
    # early, late: sorted tuples of joker resources (ANY for "?").
    r = next((i for i in range(5) if need[i] > 0), -1)
    if r < 0:
        if second is None or not any(second):
            return True
        return _plan(counts, second, None, tuple(sorted(early + late)), ())
    need_r = need[:r] + (need[r] - 1,) + need[r + 1:]
    if counts[r] > 0 and _plan(_dec(counts, r), need_r, second, early, late):
        return True
    for idx, res in enumerate(early):
        if res in (r, ANY) and (idx == 0 or early[idx - 1] != res):
            rest = early[:idx] + early[idx + 1:]
            for f in range(N_FACES):
                if f != r and counts[f] > 0 and _plan(_dec(counts, f), need_r, second,
                                                      rest, late):
                    return True
    if counts[GOLD] >= 2 and _plan(_dec(_dec(counts, GOLD), GOLD), need_r, second,
                                   early, late):
        return True
    return False


def _dec(counts, f):
    return counts[:f] + (counts[f] - 1,) + counts[f + 1:]


def can_pay(counts, t, early, late=()):
    """Whether the six-face multiset ``counts`` pays build type t with the jokers whose
    resources are listed in ``early`` (any part) and ``late`` (second part only)."""
    first, second = COST[t]
    return _plan(tuple(counts), tuple(first), tuple(second),
                 tuple(sorted(early)), tuple(sorted(late)))


@functools.lru_cache(maxsize=None)
def feasible(t, early, late):
    """Over the 462 six-dice multisets, a tuple of bools: can_pay(m, t, early, late)."""
    return tuple(can_pay(MULTISETS[i], t, early, late) for i in FULL)


def joker_res(mask):
    return tuple(sorted(JOKER_RES[j] for j in range(7) if mask >> j & 1))


KNIGHT_TYPES = {"K": 1, "KK": 2, "KR": 1}
assert set(BUILD_TYPES) == {"R", "RR", "RRR", "S", "SR", "C", "K", "KK", "KR"}
assert (BRICK, LUMBER, KNIGHT, CITY) == (0, 1, 3, 2)


# ------------------------------------------------- the game's masks and the model's states

def state_of(roads, builds, jokers):
    """(group row, sheet column) of a sheet given as ``catan.game.Game`` keeps it: road
    mask, building mask, used-joker mask (jokers numbered as ``ISLAND_TWO.jokers``)."""
    s = sum(1 for b in S_SITES if builds >> b & 1)
    c = sum(1 for b in C_SITES if builds >> b & 1)
    ks = [0] * 5
    for i, (b, _) in enumerate(SINGLES):
        if builds >> b & 1:
            ks[i] = 2 if jokers >> i & 1 else 1
    ds = []
    for i, pair in enumerate(DESERTS):
        n = sum(1 for b in pair if builds >> b & 1)
        ds.append(3 if n == 2 and jokers >> (5 + i) & 1 else n)
    return GROUP_INDEX[canonical(ks, *ds)], SHEET_INDEX[(roads, s, c)]


def masks_of(gi, si):
    """A sheet of the game (roads, builds, jokers) in state (gi, si): the first open sites
    in printed order are the built ones."""
    roads, s, c = SHEETS[si]
    ks, d1, d2 = GROUPS[gi]
    builds = jokers = 0
    for sites, site_roads, n in ((S_SITES, S_ROADS, s), (C_SITES, C_ROADS, c)):
        for b, r in zip(sites, site_roads):
            if n and (r < 0 or roads >> r & 1):
                builds |= 1 << b
                n -= 1
        assert n == 0
    for i, (b, _) in enumerate(SINGLES):
        if ks[i]:
            builds |= 1 << b
        if ks[i] == 2:
            jokers |= 1 << i
    for i, d in enumerate((d1, d2)):
        pair = DESERTS[i]
        for b in pair[:min(d, 2)]:
            builds |= 1 << b
        if d == 3:
            jokers |= 1 << (5 + i)
    return roads, builds, jokers


def race_table_turns(path):
    """The turns to 10 VP that the device's race table at ``path`` believes, decoded with
    numpy: T[group, sheet] in this model's numbering (the file is written by
    ``fit_island2.write_table``; the device reads it in ``lib/catan/players/race.py``)."""
    import struct

    import numpy as np

    with open(path, "rb") as f:
        data = f.read()
    rank, _, groups, sheets, n = struct.unpack("<BBHHH", data[4:12])
    scale = np.array(struct.unpack("<%dd" % rank, data[12:12 + 8 * rank]))
    at = 12 + 8 * rank + 4 * n
    gf = np.frombuffer(data, np.int8, groups * rank, at).reshape(groups, rank)
    sf = np.frombuffer(data, np.int8, sheets * rank, at + groups * rank).reshape(sheets, rank)
    return (gf * scale) @ sf.T.astype(float)
