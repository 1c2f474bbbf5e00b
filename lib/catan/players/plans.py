"""Plans: the sets of up to three builds that a sheet allows in one turn, what they cost, how
a seat pays for one, the best one the dice pay for now, and the actions that carry one out.

A plan's builds are taken in ascending item order, which respects every "needs" of the
sheet; its cost is the five resource counts of its builds together. ``cover`` pays a cost
with the dice, gold trades and jokers; ``Context`` holds the decision of the player whose
turn it is: MEDIUM and HARD compare every way worth comparing to pay for a plan (which joker;
the joker of a knight the plan builds first, which the rules allow the same turn), value
each (``values``) and take the best.
"""

from catan import const
from catan.maps import ANY, COSTS, GOLD, KNIGHT, X_PENALTY
from catan.players.values import two_setup, value_one, value_two

_EASY = const(0)  # players.EASY
_HARD = const(2)  # players.HARD


def all_plans(isl, roads, builds, units, single):
    """Plans of up to three builds from the sheet (roads, builds) that cost at most
    ``units`` dice: a list of (items, cost as five counts)."""
    out = []
    drain(plans_work(isl, roads, builds, units, single, out))
    return out


def plans_work(isl, roads, builds, units, single, out):
    # The plans of ``all_plans`` appended to the list ``out``: a generator that yields after the
    # plans that begin with each item.
    out.append(((), (0, 0, 0, 0, 0)))
    for it in range(isl.n_items):
        k = len(out)
        _extend(isl, roads, builds, units, single, it, it + 1, (), (0, 0, 0, 0, 0), out)
        if len(out) > k:
            yield


def _extend(isl, roads, builds, units, single, start, stop, items, cost, out):
    # The plans that add an item of start..stop-1 (and then up to two later ones) to
    # ``items`` (total ``cost``), appended to ``out``.
    nr = isl.n_roads
    for it in range(start, stop):
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
                _extend(isl, roads | 1 << it, builds, units - u, single, it + 1, isl.n_items, ni,
                        nc, out)
            else:
                _extend(isl, roads, builds | 1 << (it - nr), units - u, single, it + 1,
                        isl.n_items, ni, nc, out)


_PAID = const(((), ()))


def cover(counts, cost, jokers):
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

class Context:
    """The decision of the player whose turn it is in ``game``, at ``level`` (``seed``: ties)."""

    def __init__(self, game, level, seed):
        self.game = game
        self.level = level
        self.seed = seed
        self.isl = game.island
        self.one = self.isl.number == 1
        p = self.p = game.player
        self.roads = game.roads[p]
        self.builds = game.builds[p]
        self.used = game.jokers[p]
        self.jokers = [] if level == _EASY else [
            (j, self.isl.jokers[j][0]) for j in range(len(self.isl.jokers))
            if not self.used >> j & 1 and game.joker_unlocked(j)]
        self._base = None
        self._lates = {}
        if not self.one:
            two_setup(self)

    # ---- paying

    def pays(self, counts, items, cost, pay):
        """The ways worth comparing to pay for plan ``items`` (total ``cost``) with the dice
        ``counts``, given ``pay`` = ``cover(counts, cost, self.jokers)``: a list of
        (trades, jokers as (joker, resource)) using different jokers. The alternatives:
        without one of the jokers ``pay`` uses (a gold trade may free it), and with the
        joker of a knight in the plan, built first (a knight's joker may be used the turn
        it is built)."""
        ways = self._others(counts, cost, pay)
        return ways + self._lent(counts, items, cost, pay, ways)

    def _others(self, counts, cost, pay):
        # ``pay``, and the ways without one of the jokers it uses.
        if pay is None:
            return []
        ways = [pay]
        for j, _ in pay[1]:
            self._try(counts, cost, [jr for jr in self.jokers if jr[0] != j], ways)
        return ways

    def _lent(self, counts, items, cost, pay, ways):
        # The ways with the joker of a knight in ``items``, not already in ``ways``.
        out = []
        if pay is None or pay[1]:
            for jr in self._late(items):
                self._try(counts, cost, [jr] + self.jokers, out, ways)
        return out

    def _try(self, counts, cost, jokers, out, also=()):
        # Append to ``out`` the way ``jokers`` pay, if it uses a new set of jokers.
        q = cover(counts, cost, jokers)
        if q is not None and q[1]:
            m = self._mask(q)
            for ways in (out, also):
                for w in ways:
                    if self._mask(w) == m:
                        return
            out.append(q)

    def _mask(self, pay):
        used = self.used
        for j, _ in pay[1]:
            used |= 1 << j
        return used

    def _late(self, items):
        # (joker, resource) pairs that a knight in ``items`` unlocks for the rest of them.
        if self.level == _EASY or len(items) < 2:
            return ()
        out = self._lates.get(items)
        if out is not None:
            return out
        isl = self.isl
        nr = isl.n_roads
        out = []
        for kn in items:
            if kn < nr or isl.kind(kn) != KNIGHT:
                continue
            nb, nrd = isl.need_builds[kn], isl.need_roads[kn]
            if self.builds & nb != nb or self.roads & nrd != nrd:
                continue  # it must be buildable first, before the rest
            rest = [0, 0, 0, 0, 0]
            for it in items:
                if it != kn:
                    c = COSTS[isl.kind(it)]
                    for r in range(5):
                        rest[r] += c[r]
            after = self.builds | 1 << (kn - nr)
            for j in range(len(isl.jokers)):
                gives, need = isl.jokers[j]
                if self.used >> j & 1 or self.builds & need == need or after & need != need:
                    continue
                for r in range(5):
                    if rest[r] and (gives == ANY or gives == r):
                        out.append((j, r))
        self._lates[items] = out
        return out

    # ---- values

    def value(self, items, used):
        """The value of building ``items`` now (and jokers ``used`` after this turn)."""
        if self.one:
            return value_one(self, items, used)
        return value_two(self, items, used)

    def nothing(self):
        """The value of building nothing this turn (Island One: with its X)."""
        if self._base is None:
            self._base = self.value((), self.used)
            if self.one and not self.game.built:
                self._base += X_PENALTY
        return self._base

    # ---- building

    def _best_now(self, counts, plans):
        """(value, items, trades, jokers) of the best plan the dice pay for now."""
        drain(self.now_work(counts, plans, None))
        return self.best

    def now_work(self, counts, plans, by_item):
        # _best_now into self.best, as a generator that yields before each plan; with a
        # dict ``by_item``, also each item's best plan value there (for the coach).
        best = (self.nothing(), (), (), ())
        tie = self.seed & 0xFF
        k = 0
        for items, cost in plans:
            k += 1
            if not items:
                continue
            yield
            for way in self.pays(counts, items, cost, cover(counts, cost, self.jokers)):
                trades, jok = way
                v = self.value(items, self._mask(way))
                if by_item is not None:
                    for it in items:
                        if by_item.get(it, v - 1) < v:
                            by_item[it] = v
                if self.level != _HARD:
                    v += ((k * 37 + tie) % 101) * 1e-7  # seeded tie-break
                if v > best[0] + 1e-9:
                    best = (v, items, trades, jok)
        self.best = best


def plan_actions(g, best):
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


def drain(gen):
    # Run a generator of work in slices (``now_work``, ``reroll``'s tables) to its end.
    for _ in gen:
        pass
