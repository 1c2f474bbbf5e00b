"""When to re-roll: which dice each level keeps and throws again.

EASY and MEDIUM (on Island Two) keep the dice of the plan with the best value x chance,
the exact chance that the dice thrown again complete its missing resources (``_chance``).
HARD (and MEDIUM on Island One) keep by the keep tables of the turn, an expectimax over
the multisets of its dice (K a multiset of faces):

    W2(K)  a roll K of all n dice: the value of the best plan it pays for (``final_work``);
           a keep K of fewer: the mean of W2 over the dice thrown again (``_expect``), its
           value before the last roll
    W1(K)  a roll K: the best W2 of a keep within it (``_best_within``); a keep: the mean
           of W1 over the dice thrown again, its value with two rolls left
    W0(K)  the same once more; W0 of no dice is the value before the first roll (the coach)

The arrays are made once and kept (``reserve``: a device allocates them right after its
framebuffer); the tables hold one turn's state at a time (``_TURN``), worked out in slices
by a generator (``tables_ready``: ``players.think`` runs it in idle time, ``turn_tables`` when a
decision needs it).
"""

import catan
from catan import const
from catan.game import REROLL, ROLL
from catan.maps import ANY, GOLD
from catan.players.plans import Context, cover, drain, all_plans, plans_work
from catan.players.tables import find_key
from catan.players.values import table_work

_EASY = const(0)  # players.EASY
_MEDIUM = const(1)  # players.MEDIUM
_HARD = const(2)  # players.HARD

EXACT_MEDIUM = True  # Island One's medium: the exact re-rolls for its one-turn value


def needs_tables(game, level):
    # Whether the next decision at ``level`` keeps by the keep tables.
    return game.phase in (ROLL, REROLL) and (
        level == _HARD or (level == _MEDIUM and EXACT_MEDIUM and game.island.number == 1))


# ----------------------------------------------------------- dice chances

def _chances():
    # The cache of ``_chance``: every key it can meet (the missing counts of up to six dice, 1..3
    # rolls) in ascending order, and the chance worked out for each (0.0: not yet; a chance
    # asked of ``_chance`` is never 0): two arrays of a fixed size (``catan.reserve``), so the
    # cache never grows in play. A small heap makes them at boot, beside the dice tables (a
    # four-seat Island Two game on the stock Pico W found no block mid-game for the dict the
    # cache once was); the keys are written at the first chance asked.
    if catan.TABLES[2] is None:
        catan.reserve(False, True)
    keys, chances = catan.TABLES[2]
    if not keys[0]:
        i = 0
        for parts in range(1, 7):
            for p in _partitions(parts, 6, 6):
                for n in range(sum(p), 7):
                    for rolls in (1, 2, 3):
                        keys[i] = _key(p, n, rolls)
                        i += 1
        if i != len(keys):
            raise ValueError("catan.reserve's chance keys: %d, not %d" % (len(keys), i))
    return keys, chances


def _partitions(parts, most, left):
    # The ways of writing at most ``left`` as ``parts`` counts of at most ``most`` each, largest
    # first, in ascending order (so their keys ascend).
    if not parts:
        yield ()
        return
    for a in range(1, min(most, left - parts + 1) + 1):
        for rest in _partitions(parts - 1, a, left - a):
            yield (a,) + rest


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
    keys, chances = _chances()
    k = _key(deficit, n, rolls)
    slot = find_key(keys, k)
    if keys[slot] != k:
        slot = None  # beyond six dice: not kept
    elif chances[slot]:
        return chances[slot]
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
        chances[slot] = total
    return total


def _key(deficit, n, rolls):
    k = sorted([d for d in deficit if d], reverse=True)
    v = 0
    for d in k:
        v = v * 8 + d
    return (v * 8 + n) * 4 + rolls


# ------------------------------------------------------------ dice multisets

_MS = None


def dice_multisets():
    """(keys, sizes, child): the 924 multisets of 0..6 dice, packed as sum(count[f] << 3f),
    sorted by size and then by key (so adding a die always moves to a later index, and the
    462 multisets of fewer than six dice come first); child[6i + f]: the index of multiset i
    plus a die f, for those 462. Made once, with the three value tables of ``turn_tables``
    (``_W``): compact arrays, allocated together and kept, because the Pico's heap is small
    and fragments."""
    if _MS is None:
        drain(_make_multisets())
    return _MS


_FIRST = const((0, 1, 7, 28, 84, 210, 462, 924))  # the index of the first multiset of each size
_TRI = const((1, 3, 6, 10, 15, 21, 28))  # multisets of 0..r dice of three faces (sum <= r)
_TET = const((1, 4, 10, 20, 35, 56, 84))  # and of four faces


def reserve():
    """Allocate the arrays of ``dice_multisets`` and ``turn_tables`` now (``catan.reserve``;
    filled when first needed): a device calls this right after its framebuffer, so that these
    21 KB, kept for good, sit at one end of the heap instead of splitting its largest free
    block. They are kept in ``catan.TABLES``: this module imported again (a small heap drops
    it between computers' turns) takes them up, with the multisets already in them."""
    global _MS, _W
    kept = catan.TABLES
    catan.reserve()
    if kept[1] and _MS is None:
        _MS = kept[0][:3]
        _W = kept[0][3]


def _make_multisets():
    # dice_multisets' work, as a generator yielding between slices: the multisets into the arrays
    # of ``reserve`` (taken up as they are when made already).
    global _MS, _W
    reserve()
    if _MS is not None:
        return
    keys, sizes, child, w = catan.TABLES[0]
    # By size, then by key: for each size, the counts of faces 5, 4, 3, 2, 1 ascending (face
    # 0 takes the rest), written straight into the arrays (no list to sort).
    i = 0
    for n in range(7):
        for m5 in range(n + 1):
            yield
            for m4 in range(n - m5 + 1):
                for m3 in range(n - m5 - m4 + 1):
                    for m2 in range(n - m5 - m4 - m3 + 1):
                        r = n - m5 - m4 - m3 - m2
                        for m1 in range(r + 1):
                            keys[i] = (r - m1) | m1 << 3 | m2 << 6 | m3 << 9 | m4 << 12 | m5 << 15
                            sizes[i] = n
                            i += 1
    # The children of one size with one face added ascend as their parents do (the same number
    # added to each key), so one walk along the next size finds them all: on the device, a
    # binary search for each was most of a cold first hint.
    for n in range(6):
        for f in range(6):
            d = 1 << 3 * f
            j = _FIRST[n + 1]
            for i in range(_FIRST[n], _FIRST[n + 1]):
                k = keys[i] + d
                while keys[j] < k:
                    j += 1
                child[6 * i + f] = j
                if not i & 63:
                    yield
    _MS = (keys, sizes, child)
    _W = w
    catan.TABLES[1] = True


def key_index(keys, k):
    # The index of the multiset k in keys.
    size = 0
    for f in range(6):
        size += k >> 3 * f & 7
    return find_key(keys, k, _FIRST[size], _FIRST[size + 1] - 1)


# ------------------------------------------------------------ the turn's tables

_W = None  # the three tables (W1, W2, W0) of ``turn_tables``, made with ``dice_multisets``
_TURN = [None, False]  # the key of the turn the tables hold, and whether W0 is done


def turn_key(g, level):
    # Everything a turn's tables depend on, by value: a copy of the game in the same state
    # (``_ahead``'s) has the same key.
    p = g.player
    return (g.island.number, g.players, g.dice_count(), level, p, g.game_turn, g.jokers[p],
            g.built, g.longest, g.largest, tuple(g.roads), tuple(g.builds))


def _work(ctx, key, first):
    # The tables for ``ctx`` into _W, a slice at a time; with ``first``, W0 too.
    if _MS is None:
        yield from _make_multisets()
    if ctx.one and ctx.level == _HARD:
        yield from table_work()  # (opened once)
    child = _MS[2]
    w1, w2, w0 = _W
    n = ctx.game.dice_count()
    if _TURN[0] != key:
        _TURN[0] = None
        yield from final_work(ctx, n, w2)
        yield from _expect(w2, child, n)
        # M(K): the best keep within K, K's value with one re-roll left; W1 from M at n.
        yield from _best_within(w1, w2, child, n)
        yield from _expect(w1, child, n)
        _TURN[0] = key
        _TURN[1] = False
    if first and not _TURN[1]:
        yield from _best_within(w0, w1, child, n)
        yield from _expect(w0, child, n)
        _TURN[1] = True


# ------------------------------------------------------------ the last roll's values

def final_work(ctx, n, out):
    """Fill the array ``out`` over ``dice_multisets``: at each roll of ``n`` dice, the value of
    the best plan it pays for (or of building nothing); 0 elsewhere. A generator that
    yields between slices of a few rolls (see ``think``).

    How dice pay a plan depends only on what they leave missing of its cost, how many
    gold pairs they hold and how many dice are free (``cover``), so each plan type
    (total cost) is valued once per such shortfall and every roll reuses it."""
    # (one generator, 90 lines: its slices share these locals, which MicroPython reads fastest;
    # split, each part would be a generator of its own to resume)
    keys, sizes, _ = dice_multisets()
    plans = []
    yield from plans_work(ctx.isl, ctx.roads, ctx.builds, n, False, plans)
    types = {}
    for items, cost in plans:
        if items:
            lst = types.get(cost)
            if lst is None:
                types[cost] = lst = []
            lst.append(items)
    costs = list(types)
    lists = [types[c] for c in costs]
    del types, plans
    reach = len(ctx.jokers)
    base = ctx.nothing()
    yield
    for i in range(len(keys)):
        out[i] = base if sizes[i] == n else 0.0
        if not i & 255:
            yield
    seen = {}
    first = _FIRST[n]
    for t in range(len(costs)):
        c = costs[t]
        c0, c1, c2, c3, c4 = c[0], c[1], c[2], c[3], c[4]
        spare = n - (c0 + c1 + c2 + c3 + c4)
        lent = 0  # a knight of a plan of this type may lend one more joker
        for items in lists[t]:
            yield
            if ctx._late(items):
                lent = 1
                break
        memo = {}  # this type's value by shortfall
        # The rolls of n dice in index order: gold, then faces 4, 3, 2, 1 ascending (face
        # 0 takes the rest); a branch already short of more than the jokers and gold
        # pairs can make up is skipped whole (``i`` moves past its rolls).
        i = first
        for m5 in range(n + 1):
            pairs = m5 >> 1  # gold pairs: each trades for any resource
            room = reach + lent + (pairs if pairs < spare else spare)  # what can make up
            r5 = n - m5
            for m4 in range(r5 + 1):
                yield
                d4 = c4 - m4 if c4 > m4 else 0
                r4 = r5 - m4
                if d4 > room:
                    i += _TET[r4]
                    continue
                for m3 in range(r4 + 1):
                    s3 = d4 + (c3 - m3 if c3 > m3 else 0)
                    r3 = r4 - m3
                    if s3 > room:
                        i += _TRI[r3]
                        continue
                    for m2 in range(r3 + 1):
                        s2 = s3 + (c2 - m2 if c2 > m2 else 0)
                        r2 = r3 - m2
                        if s2 > room:
                            i += r2 + 1
                            continue
                        for m1 in range(r2 + 1):
                            d1 = c1 - m1 if c1 > m1 else 0
                            d0 = c0 - r2 + m1 if c0 > r2 - m1 else 0
                            short = s2 + d1 + d0
                            if short <= room:
                                # the shortfall, the gold pairs and the free dice decide
                                key = (((s2 * 8 + d4) * 8 + (s3 - d4)) * 8 + d1) * 8 + d0
                                key = key * 64 + pairs * 8 + spare + short if short else -1
                                v = memo.get(key)
                                if v is None:  # (a new shortfall is the costly part)
                                    v = yield from _type_value(
                                        ctx, [r2 - m1, m1, m2, m3, m4, m5], c, lists[t], base,
                                        seen)
                                    memo[key] = v
                                    if v > out[i]:
                                        out[i] = v
                                    i += 1
                                    yield
                                    continue
                                if v > out[i]:
                                    out[i] = v
                            i += 1


def _type_value(ctx, m, cost, lst, base, seen):
    # The best value of a plan in ``lst`` (all of total ``cost``) that the dice ``m`` pay
    # for, in any of the ways worth comparing (``base`` if none). ``seen``: values by
    # (cost, jokers used) and (plan, jokers used), shared by the rolls of one table. A
    # generator that yields between a few plans' values and returns the value.
    pay = cover(m, cost, ctx.jokers)
    ways = ctx._others(m, cost, pay)  # the same for every plan of this cost
    best = base
    for way in ways:
        ck = (cost, ctx._mask(way))
        v = seen.get(ck)
        if v is None:
            v = -1e9
            k = 0
            for items in lst:
                if not k & 1:
                    yield
                k += 1
                x = ctx.value(items, ck[1])
                if x > v:
                    v = x
            seen[ck] = v
        if v > best:
            best = v
    if pay is None or pay[1]:
        for items in lst:  # a knight of the plan lends its joker to the rest
            yield
            for way in ctx._lent(m, items, cost, pay, ways):
                ck = (items, ctx._mask(way))
                v = seen.get(ck)
                if v is None:
                    v = seen[ck] = ctx.value(items, ck[1])
                if v > best:
                    best = v
    return best


# ------------------------------------------------------------ keep values

def _expect(w, child, n):
    # Keep values in place: W(K) = mean over one more die of W(K + f), for every K with
    # fewer than n dice (the n-dice entries of w are given; the multisets of fewer dice are
    # the first _FIRST[n]). A generator: yields between slices.
    for i in range(_FIRST[n] - 1, -1, -1):
        b = 6 * i
        w[i] = (w[child[b]] + w[child[b + 1]] + w[child[b + 2]] + w[child[b + 3]]
                + w[child[b + 4]] + w[child[b + 5]]) / 6
        if not i & 31:
            yield


def _best_within(w, src, child, n):
    # w[K] = the best src over the sub-multisets of K (K up to n dice): each value passes
    # to the multisets one die larger, in index order, so every K sees all of its parts.
    w[:] = src  # (one copy, not a loop in Python)
    yield
    for i in range(_FIRST[n]):
        b = 6 * i
        v = w[i]
        c = child[b]  # (the six faces written out: with a loop, 14 % slower on the device)
        if w[c] < v:
            w[c] = v
        c = child[b + 1]
        if w[c] < v:
            w[c] = v
        c = child[b + 2]
        if w[c] < v:
            w[c] = v
        c = child[b + 3]
        if w[c] < v:
            w[c] = v
        c = child[b + 4]
        if w[c] < v:
            w[c] = v
        c = child[b + 5]
        if w[c] < v:
            w[c] = v
        if not i & 31:
            yield


# ------------------------------------------------------------ the work on the tables

_WORK = [None, None, False, None]  # the key, generator, ``first`` and game of the tables
# being worked out: the one slot through which table work runs (the arrays are shared, so a
# generator of it held anywhere else could be resumed after another key's work had written
# them: ``step`` is how other work takes its slices)


def drop_work(work):
    # Let go of the work in a slot (``_WORK``, ``players._NOW_WORK``): its generator and game.
    for i in range(len(work)):
        work[i] = None


def finish_work(gen, work):
    # Run the work in hand (if any) to its end, and let it go.
    if gen is not None:
        drain(gen)
        drop_work(work)


def tables_ready(game, level, first, ctx=None):
    # The generator of the work left for the tables of the turn (None: nothing left). The
    # work in hand goes on only if it is for the same key, from a game still in that state
    # (another object asking: the first may have moved on since, and the work reads it).
    key = turn_key(game, level)
    if _TURN[0] == key and (_TURN[1] or not first):
        return None
    w = _WORK
    if w[0] != key or first and not w[2] or (w[3] is not game
                                             and turn_key(w[3], level) != key):
        drop_work(w)  # (the old work goes before the new one is made: on the device, its frames)
        w[1] = _work(ctx or Context(game, level, 0), key, first)
        w[0] = key
        w[2] = first
        w[3] = game
    return w[1]


def step(game, level, first, ctx=None):
    """One slice of the work on the turn's tables for ``game`` (``tables_ready``'s), taken through
    the one slot; False once the tables are ready. Work that runs in slices of its own
    (``players._ahead``) asks again at each slice instead of keeping the generator: another
    key's tables made in the meantime replace it, and the work starts afresh."""
    gen = tables_ready(game, level, first, ctx)
    if gen is None:
        return False
    for _ in gen:
        return True
    drop_work(_WORK)
    return False


def turn_tables(ctx, first=False):
    """(W1, W2[, W0]): keep values before the second and the third roll (and, ``first``,
    the value of each keep before the first roll) for this turn's state; worked out once a
    turn (``think`` may have done it already)."""
    finish_work(tables_ready(ctx.game, ctx.level, first, ctx), _WORK)
    w1, w2, w0 = _W
    return (w1, w2, w0) if first else (w1, w2)


# ------------------------------------------------------------ the dice to throw again

def reroll_mask(ctx):
    """The dice to roll again (0: stop rolling)."""
    if ctx.level == _HARD or (ctx.one and ctx.level == _MEDIUM and EXACT_MEDIUM):
        return exact_reroll(ctx)
    g = ctx.game
    n = g.dice_count()
    counts = g.unspent()
    rolls = g.rolls_left()
    single = ctx.level == _EASY
    plans = all_plans(ctx.isl, ctx.roads, ctx.builds, n, single)
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
                if ctx.level == _EASY or counts[GOLD] < 2:
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


def exact_reroll(ctx):
    # HARD (and MEDIUM on Island One): the dice outside the keep of the best value in the
    # turn's keep tables (W1 with two rolls left, W2 with one).
    g = ctx.game
    w1, w2 = turn_tables(ctx)
    w = w1 if g.rolls_left() >= 2 else w2
    keys = dice_multisets()[0]
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
                            v = w[key_index(keys, key)]
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
