"""A seat's decision: ``_Context`` holds what the player whose turn it is has (sheet, jokers,
level, seed), the ways its jokers and gold pay for a plan, the value of a plan (on either
island: ``island_one``, ``island_two``) and the best plan the dice pay for now.

MEDIUM and HARD compare every way worth comparing to pay for a plan (which joker; the
joker of a knight the plan builds first, which the rules allow the same turn): ``pays``.
"""

from catan.maps import ANY, COSTS, KNIGHT, X_PENALTY
from catan.players import EASY, HARD
from catan.players.island_one import _value_one
from catan.players.island_two import _two_setup, _value_two
from catan.players.keeps import _drain
from catan.players.plans import _cover


class _Context:
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
        self.jokers = [] if level == EASY else [
            (j, self.isl.jokers[j][0]) for j in range(len(self.isl.jokers))
            if not self.used >> j & 1 and game.joker_unlocked(j)]
        self._base = None
        self._lates = {}
        if not self.one:
            _two_setup(self)

    # ---- paying

    def pays(self, counts, items, cost, pay):
        """The ways worth comparing to pay for plan ``items`` (total ``cost``) with the dice
        ``counts``, given ``pay`` = ``_cover(counts, cost, self.jokers)``: a list of
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
        q = _cover(counts, cost, jokers)
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
        if self.level == EASY or len(items) < 2:
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
            return _value_one(self, items, used)
        return _value_two(self, items, used)

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
        _drain(self.now_work(counts, plans, None))
        return self.best

    def now_work(self, counts, plans, by_item):
        # _best_now into self.best, as a generator yielding between slices of plans; with a
        # dict ``by_item``, also each item's best plan value there (for the coach).
        best = (self.nothing(), (), (), ())
        tie = self.seed & 0xFF
        k = 0
        for items, cost in plans:
            k += 1
            if not items:
                continue
            if not k & 3:
                yield
            for way in self.pays(counts, items, cost, _cover(counts, cost, self.jokers)):
                trades, jok = way
                v = self.value(items, self._mask(way))
                if by_item is not None:
                    for it in items:
                        if by_item.get(it, v - 1) < v:
                            by_item[it] = v
                if self.level != HARD:
                    v += ((k * 37 + tie) % 101) * 1e-7  # seeded tie-break
                if v > best[0] + 1e-9:
                    best = (v, items, trades, jok)
        self.best = best
