"""When to re-roll: the exact chance that the dice thrown again complete a plan's missing
resources, and the dice each level throws again: EASY and MEDIUM (on Island Two) keep the
dice of the plan with the best value x chance; HARD (and MEDIUM on Island One) the best
keep of the turn's keep tables (``keeps``).
"""

from array import array

from catan.maps import ANY, GOLD
from catan.players import EASY, HARD, MEDIUM
from catan.players.ahead import _turn_tables
from catan.players.keeps import EXACT_MEDIUM, _index, _multisets
from catan.players.plans import _plans

# ----------------------------------------------------------- dice chances

_CHANCE = {}  # the key of each chance ``_chance`` can be asked for: its place in _CHANCES
_CHANCES = None  # the chances worked out so far (-1.0: not yet), an array made once


def _make_chances():
    # Every key ``_chance`` can meet (the missing counts of up to six dice, 1..3 rolls) gets
    # its place at once, at the first game's first chance (at boot it cost 60 ms there), so
    # the cache never grows in play: no dict resized mid-game, no float left among what a
    # game keeps (the heap stays the same from game to game).
    global _CHANCES
    parts = [()]  # the partitions of 1..6, largest part first
    for p in parts:
        if sum(p) < 6:
            for d in range(p[-1] if p else 6, 0, -1):
                if sum(p) + d <= 6:
                    parts.append(p + (d,))
    for p in parts[1:]:
        for n in range(sum(p), 7):
            for rolls in (1, 2, 3):
                _CHANCE[_key(p, n, rolls)] = len(_CHANCE)
    _CHANCES = array("d", [-1.0] * len(_CHANCE))


def _chance(deficit, n, rolls):
    """The chance that ``n`` dice thrown up to ``rolls`` times (keeping what helps) show
    the missing resources ``deficit`` (counts, one per needed resource)."""
    need = 0
    for d in deficit:
        need += d
    if need == 0:
        return 1.0
    if need > n or rolls <= 0:
        return 0.0
    if _CHANCES is None:
        _make_chances()
    slot = _CHANCE.get(_key(deficit, n, rolls))  # (None: beyond six dice, not kept)
    if slot is not None and _CHANCES[slot] >= 0.0:
        return _CHANCES[slot]
    # One throw, die by die: the distribution of what is still missing.
    dist = {tuple(deficit): 1.0}
    for _ in range(n):
        nxt = {}
        for st, pr in dist.items():
            k = 0
            for i in range(len(st)):
                if st[i]:
                    k += 1
                    ch = st[:i] + (st[i] - 1,) + st[i + 1:]
                    nxt[ch] = nxt.get(ch, 0.0) + pr / 6
            if k < 6:
                nxt[st] = nxt.get(st, 0.0) + pr * (6 - k) / 6
        dist = nxt
    total = 0.0
    for st, pr in dist.items():
        left = 0
        for d in st:
            left += d
        if left == 0:
            total += pr
        elif rolls > 1:
            total += pr * _chance(st, n - (need - left), rolls - 1)
    if slot is not None:
        _CHANCES[slot] = total
    return total


def _key(deficit, n, rolls):
    k = sorted([d for d in deficit if d], reverse=True)
    v = 0
    for d in k:
        v = v * 8 + d
    return (v * 8 + n) * 4 + rolls


# ------------------------------------------------------------ the dice to throw again

def reroll_mask(ctx):
    """The dice to roll again (0: stop rolling)."""
    if ctx.level == HARD or (ctx.one and ctx.level == MEDIUM and EXACT_MEDIUM):
        return _exact_reroll(ctx)
    g = ctx.game
    n = g.dice_count()
    counts = g.unspent()
    rolls = g.rolls_left()
    single = ctx.level == EASY
    plans = _plans(ctx.isl, ctx.roads, ctx.builds, n, single)
    base = ctx.nothing()
    best = ctx._best_now(counts, plans)[0]  # stop now
    keep = None
    for items, cost in plans:
        if not items:
            continue
        v0 = ctx.value(items, ctx.used)
        if v0 <= base:
            continue
        kept = [0, 0, 0, 0, 0, 0]
        d = [0, 0, 0, 0, 0]
        short = 0
        for r in range(5):
            k = min(counts[r], cost[r])
            kept[r] = k
            d[r] = cost[r] - k
            short += d[r]
        nk = kept[0] + kept[1] + kept[2] + kept[3] + kept[4]
        if not short:
            continue  # affordable now: counted in "stop now"
        for gold in (0, 1):
            if gold:
                if ctx.level == EASY or counts[GOLD] < 2:
                    break
                d = d[:]
                r = 0
                for q in range(5):
                    if d[q] > d[r]:
                        r = q
                d[r] -= 1
                kept[GOLD] = 2
                nk += 2
            ev = _plan_ev(ctx, d, n - nk, rolls, items, v0, base)
            if ev > best + 1e-9:
                best = ev
                keep = kept[:]
    if keep is None:
        return 0
    mask = 0
    for i in range(n):
        f = g.faces[i]
        if keep[f] > 0:
            keep[f] -= 1
        else:
            mask |= 1 << i
    return mask


def _plan_ev(ctx, d, n, rolls, items, v0, base):
    # d: the five missing counts after the kept dice.
    p0 = _chance(d, n, rolls)
    ev = p0 * v0 + (1 - p0) * base
    if not ctx.jokers:
        return ev
    # With jokers: the missing resources they cover (specific first), at their cost
    # in value.
    dd = d[:]
    used = ctx.used
    for j, gives in ctx.jokers:
        if gives != ANY and dd[gives] > 0:
            dd[gives] -= 1
            used |= 1 << j
    for j, gives in ctx.jokers:
        if gives == ANY:
            for r in range(5):
                if dd[r]:
                    dd[r] -= 1
                    used |= 1 << j
                    break
    if used == ctx.used:
        return ev
    p1 = _chance(dd, n, rolls)
    if p1 <= p0:
        return ev
    v1 = ctx.value(items, used)
    return p0 * v0 + (p1 - p0) * max(v1, base) + (1 - p1) * base


def _exact_reroll(ctx):
    # HARD (and MEDIUM on Island One): the dice outside the keep of the best value in the
    # turn's keep tables (W1 with two rolls left, W2 with one).
    g = ctx.game
    w1, w2 = _turn_tables(ctx)
    w = w1 if g.rolls_left() >= 2 else w2
    keys = _multisets()[0]
    c = g.unspent()
    best = -1e9
    keep = None
    # Every sub-multiset of the roll, largest first (ties keep more dice).
    for k0 in range(c[0], -1, -1):
        for k1 in range(c[1], -1, -1):
            for k2 in range(c[2], -1, -1):
                for k3 in range(c[3], -1, -1):
                    for k4 in range(c[4], -1, -1):
                        for k5 in range(c[5], -1, -1):
                            key = k0 | k1 << 3 | k2 << 6 | k3 << 9 | k4 << 12 | k5 << 15
                            v = w[_index(keys, key)]
                            if v > best + 1e-4 or (v > best - 1e-4 and keep is not None
                                                  and k0 + k1 + k2 + k3 + k4 + k5
                                                  > keep[0] + keep[1] + keep[2] + keep[3]
                                                  + keep[4] + keep[5]):
                                best = v
                                keep = [k0, k1, k2, k3, k4, k5]
    mask = 0
    for i in range(g.dice_count()):
        f = g.faces[i]
        if keep[f] > 0:
            keep[f] -= 1
        else:
            mask |= 1 << i
    return mask
