"""Plans: the sets of up to three builds that a sheet allows in one turn, what they cost,
how the dice pay for one (gold trades, jokers), and the actions that carry one out.

A plan's builds are taken in ascending item order, which respects every "needs" of the
sheet; its cost is the five resource counts of its builds together.
"""

from catan.maps import ANY, COSTS, GOLD


def _plans(isl, roads, builds, units, single):
    """Plans of up to three builds from the sheet (roads, builds) that cost at most
    ``units`` dice: a list of (items, cost as five counts)."""
    out = [((), (0, 0, 0, 0, 0))]
    _extend(isl, roads, builds, units, single, 0, (), (0, 0, 0, 0, 0), out)
    return out


def _extend(isl, roads, builds, units, single, start, items, cost, out):
    nr = isl.n_roads
    for it in range(start, isl.n_items):
        if it < nr:
            if roads >> it & 1:
                continue
            kind = 0
        else:
            if builds >> (it - nr) & 1:
                continue
            kind = isl.kinds[it - nr]
        need_r = isl.need_roads[it]
        need_b = isl.need_builds[it]
        if roads & need_r != need_r or builds & need_b != need_b:
            continue
        c = COSTS[kind]
        u = c[0] + c[1] + c[2] + c[3] + c[4]
        if u > units:
            continue
        nc = (cost[0] + c[0], cost[1] + c[1], cost[2] + c[2], cost[3] + c[3], cost[4] + c[4])
        ni = items + (it,)
        out.append((ni, nc))
        if not single and len(ni) < 3 and units - u >= 2:
            if it < nr:
                _extend(isl, roads | 1 << it, builds, units - u, single, it + 1, ni, nc, out)
            else:
                _extend(isl, roads, builds | 1 << (it - nr), units - u, single, it + 1, ni, nc,
                        out)


_PAID = ((), ())


def _cover(counts, cost, jokers):
    """How the dice ``counts`` pay ``cost`` with gold trades and the jokers available
    (list of (joker, resource or ANY)): (trades, jokers used as (joker, resource)) with
    as many trades and as few jokers as possible, or None."""
    short = 0
    for r in range(5):
        if counts[r] < cost[r]:
            short += cost[r] - counts[r]
    if short == 0:
        return _PAID
    if short > len(jokers) + counts[GOLD] // 2:
        return None  # cheap test first: most rolls fail most plans
    d = [0, 0, 0, 0, 0]
    spent = 0
    dice = 0
    for r in range(5):
        c = cost[r]
        h = counts[r]
        dice += h
        if h < c:
            d[r] = c - h
            spent += h
        else:
            spent += c
    free = dice + counts[GOLD] - spent
    t = min(counts[GOLD] // 2, short, free - short)
    if t < 0:
        return None
    need = short - t
    used = []
    if need:
        for j, gives in jokers:
            if gives != ANY and d[gives] > 0:
                d[gives] -= 1
                used.append((j, gives))
                need -= 1
                if not need:
                    break
        if need:
            for j, gives in jokers:
                if gives == ANY:
                    r = 0
                    while d[r] == 0:
                        r += 1
                    d[r] -= 1
                    used.append((j, r))
                    need -= 1
                    if not need:
                        break
        if need:
            return None
    trades = []
    for r in range(5):  # the trades take what the jokers left
        while d[r] > 0:
            d[r] -= 1
            trades.append(r)
    return trades, used


def _plan_actions(g, best):
    # The actions that carry out plan ``best`` (value, items, trades, jokers) on ``g``, each
    # worked out once the one before is done: gold trades, the jokers unlocked already, a
    # joker of a knight in the plan after that knight, the other builds, the end. A computer
    # takes the first and plans again (``next_action``); ``_after_plan`` takes them all.
    _, items, trades, jok = best
    if items:
        for t in trades:
            yield ("trade", t)
        later = []
        for j, res in jok:
            if g.joker_unlocked(j):
                yield ("joker", j, _joker_die(g, items), res)
            else:
                later.append((j, res))
        nr = g.island.n_roads
        for j, res in later:
            need = g.island.jokers[j][1]
            knights = [it for it in items if it >= nr and need >> (it - nr) & 1]
            if not knights:
                break
            for it in knights:
                if not g.is_built(it):
                    yield ("build", it)
            yield ("joker", j, _joker_die(g, items), res)
        for it in items:
            if not g.is_built(it):
                yield ("build", it)
    yield ("end",)


def _joker_die(g, items):
    # A free die the plan does not need: gold first, then a surplus face.
    counts = g.unspent()
    cost = [0, 0, 0, 0, 0, 0]
    for it in items:
        c = COSTS[g.island.kind(it)]
        for r in range(5):
            cost[r] += c[r]
    best = -1
    for i in range(g.dice_count()):
        if g.spent >> i & 1:
            continue
        f = g.faces[i]
        if counts[f] > cost[f]:
            if f == GOLD:
                return i
            if best < 0:
                best = i
    return best

