"""A slow, independent solver of the last turns, to check the fast one.

It shares nothing with the fast solver's build logic: it works on the game's own masks
(roads, buildings, jokers), asks ``catan.maps`` what each item needs and costs, and
searches every sequence of actions after the last roll (a build paid with natural faces,
a joker on any die, a gold trade) depth first. The dice distributions come from
enumerating ordered throws, and keeps are enumerated sub-multiset by sub-multiset.
"""

import functools
import itertools
from collections import Counter

import island1_model  # noqa: F401  (first: puts lib/ on sys.path for catan)
from catan.maps import ANY, COSTS, GOLD, ISLAND_ONE, TURNS_ONE, X_PENALTY

ISL = ISLAND_ONE
FACES = 6


@functools.lru_cache(maxsize=None)
def throw_distribution(n):
    """{sorted multiset as counts: probability} for n dice, by enumerating 6**n throws."""
    c = Counter()
    for throw in itertools.product(range(FACES), repeat=n):
        c[tuple(throw.count(f) for f in range(FACES))] += 1
    return {m: w / FACES ** n for m, w in c.items()}


def _built(isl, roads, builds, item):
    if item < isl.n_roads:
        return bool(roads >> item & 1)
    return bool(builds >> (item - isl.n_roads) & 1)


def _can_build(isl, roads, builds, item):
    return not _built(isl, roads, builds, item) and all(
        _built(isl, roads, builds, need) for need in isl.needs(item))


def build_search(isl, stop, points):
    """search(roads, builds, jokers, counts, built) on the map ``isl``: the best over every
    legal sequence of builds, jokers and trades after the last roll of ``points(item)`` of
    the items built plus ``stop(roads, builds, jokers, built)`` of the sheet it leaves
    (``built``: something was built already this turn). Memoised."""
    @functools.lru_cache(maxsize=None)
    def search(roads, builds, jokers, counts, built):
        best = stop(roads, builds, jokers, built)
        for item in range(isl.n_items):
            cost = COSTS[isl.kind(item)]
            if _can_build(isl, roads, builds, item) and all(
                    counts[r] >= cost[r] for r in range(5)):
                left = tuple(counts[r] - cost[r] for r in range(5)) + (counts[GOLD],)
                if item < isl.n_roads:
                    nxt = (roads | 1 << item, builds)
                else:
                    nxt = (roads, builds | 1 << (item - isl.n_roads))
                best = max(best, points(item) + search(*nxt, jokers, left, True))
        for j, (gives, need) in enumerate(isl.jokers):
            if jokers >> j & 1 or builds & need != need:
                continue
            for f in range(FACES):
                for r in (range(5) if gives == ANY else (gives,)):
                    if counts[f] and f != r:
                        c = list(counts)
                        c[f] -= 1
                        c[r] += 1
                        best = max(best, search(roads, builds, jokers | 1 << j, tuple(c), built))
        if counts[GOLD] >= 2:
            for r in range(5):
                c = list(counts)
                c[GOLD] -= 2
                c[r] += 1
                best = max(best, search(roads, builds, jokers, tuple(c), built))
        return best
    return search


def after_roll_search(v_next):
    """search(roads, builds, jokers, counts, built): max over every legal sequence of
    builds, jokers and trades of the turn's box plus v_next(roads, builds, jokers) of the
    sheet it leaves (``built``: something was built already this turn)."""
    def stop(roads, builds, jokers, built):
        return v_next(roads, builds, jokers) + (0 if built else X_PENALTY)
    return build_search(ISL, stop, ISL.value)


def sub_multisets(m):
    """Every sub-multiset of the multiset ``m`` (counts), in lexicographic order."""
    return itertools.product(*[range(c + 1) for c in m])


def plus(a, b):
    return tuple(x + y for x, y in zip(a, b))


def roll_stage(values):
    """{six-dice multiset: value with one more re-roll}, from {multiset: value of stopping}."""
    keep_value = {}
    for m in values:
        for k in sub_multisets(m):
            if k not in keep_value:
                dist = throw_distribution(FACES - sum(k))
                keep_value[k] = sum(p * values[plus(k, r)] for r, p in dist.items())
    return {m: max(keep_value[k] for k in sub_multisets(m)) for m in values}


def turn_value(roads, builds, jokers, v_next):
    """Expected box of one turn plus v_next afterwards, playing the turn optimally."""
    search = after_roll_search(v_next)
    final = {m: search(roads, builds, jokers, m, False) for m in throw_distribution(FACES)}
    first = roll_stage(roll_stage(final))
    return sum(p * first[m] for m, p in throw_distribution(FACES).items())


def value(roads, builds, jokers, turns_left):
    """Optimal expected sum of the last ``turns_left`` boxes from a sheet (memoised)."""
    return _value(roads, builds, jokers, turns_left)


@functools.lru_cache(maxsize=None)
def _value(roads, builds, jokers, turns_left):
    if turns_left == 0:
        return 0.0
    return turn_value(roads, builds, jokers,
                      lambda r, b, j: _value(r, b, j, turns_left - 1))


assert TURNS_ONE == 15
