"""Computer players for both islands, one action at a time.

    action = next_action(game, level, seed)   # ("roll", mask), ("stop",), ("joker", j, die,
    apply(game, action)                       #  resource), ("trade", resource), ("build",
                                              #  item), ("end",); None when the game is over

Levels: EASY (greedy: builds the most points the dice allow, re-rolls toward the best
single build, no jokers), MEDIUM (one-turn planning: re-rolls toward the build set with
the best value x chance, uses jokers and gold trades) and HARD (MEDIUM's planner with a
better value: on Island One the exact solver's values through a compact table,
``catan.coach_table``; on Island Two a race value that counts the other players:
awards taken or denied, and who is close to 10 VP).

Every decision is a function of the game state and ``seed`` (used only to break ties),
so a seat replays the same way. The work per decision is a few hundred small plans.

How a decision is made: a *plan* is a set of up to three builds that the sheet allows in
one turn (built in ascending item order, which respects every "needs"). While rolling,
each plan's dice are kept and the rest re-rolled; the plan scores
P(complete) x value + (1 - P) x value of building nothing, where P is the exact chance of
completing its missing resources in the rolls left (``_chance``, cached) after jokers
(and, as a variant, a kept pair of gold). After rolling, the best affordable plan is
paid (gold trades first, then jokers) and built, one action per call. A plan may be paid
in more than one way (which joker; the joker of a knight the plan builds first, which the
rules allow the same turn): MEDIUM and HARD value each (``_Context.pays``).
"""

from array import array

from catan.game import BUILD, OVER, REROLL, ROLL, popcount
from catan.maps import (ANY, AWARD_VP, COSTS, GOLD, GREY_ROAD, KNIGHT, START, TURNS_ONE,
                        WIN_VP, X_PENALTY)

EASY = 0
MEDIUM = 1
HARD = 2
LEVELS = ("easy", "medium", "hard")
EXACT_MEDIUM = True  # Island One's medium: the exact re-rolls for its one-turn value
# Island Two progress weights: open site VP, unused jokers, knights toward an unclaimed /
# a held Largest Army, roads toward the grey road / any road while another holds it,
# a build that would win next turn.
W2 = [0.3, 0.5, 0.6, 0.3, 0.45, 0.1, 1.0]
_GREY_PATH = 0x0D  # R0, R2, R3: the roads before the grey road R5


def level_of(name):
    """The level number of "easy", "medium", "hard" (or of 0, 1, 2)."""
    if isinstance(name, int):
        if 0 <= name < 3:
            return name
    elif name in LEVELS:
        return LEVELS.index(name)
    raise ValueError("level must be easy, medium or hard")


# ----------------------------------------------------------------- the API

def next_action(game, level, seed=0):
    """The next action of the player whose turn it is, as a tuple (see module doc)."""
    level = level_of(level)
    if game.phase == OVER:
        return None
    if game.phase == ROLL:
        return ("roll", (1 << game.dice_count()) - 1)
    ctx = _Context(game, level, seed)
    if game.phase == REROLL:
        mask = ctx.reroll_mask()
        return ("roll", mask) if mask else ("stop",)
    return ctx.build_step()


def apply(game, action):
    """Carry out an action from ``next_action`` on ``game`` (``Game.perform``)."""
    game.perform(action)


def play_turn(game, level, seed=0):
    """Play the current player's whole turn; the list of actions taken."""
    p = game.player
    turns = game.turns[p]
    done = []
    while game.phase != OVER and game.player == p and game.turns[p] == turns:
        a = next_action(game, level, seed)
        apply(game, a)
        done.append(a)
    return done


def play_game(game, levels, seed=0):
    """Play ``game`` to the end with level ``levels[p]`` in seat p; the number of actions."""
    n = 0
    while game.phase != OVER:
        apply(game, next_action(game, levels[game.player], seed + game.player))
        n += 1
    return n


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


# ------------------------------------------------------------- plans

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


# ------------------------------------------------------------ the context

class _Context:
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
            self._two_setup()

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
            return self._value_one(items, used)
        return self._value_two(items, used)

    def nothing(self):
        if self._base is None:
            self._base = self.value((), self.used)
            if self.one and not self.game.built:
                self._base += X_PENALTY
        return self._base

    def _value_one(self, items, used):
        isl = self.isl
        nr = isl.n_roads
        roads, builds = self.roads, self.builds
        pts = 0
        for it in items:
            pts += isl.value(it)
            if it < nr:
                roads |= 1 << it
            else:
                builds |= 1 << (it - nr)
        if self.level == HARD:
            t = self.game.turns[self.p] + 2  # the turn after this one
            return pts + island_one_value(t, roads, builds, used)
        if self.level == EASY:
            return pts
        # MEDIUM: points, and a bonus for each unused unlocked joker while it can help.
        left = TURNS_ONE - 1 - self.game.turns[self.p]
        if left <= 0:
            return pts
        bonus = 0
        for j in range(len(isl.jokers)):
            need = isl.jokers[j][1]
            if builds & need == need and not used >> j & 1:
                bonus += 2 if left > 3 else 1
        return pts + bonus

    # ---- Island Two

    def _two_setup(self):
        g = self.game
        isl = self.isl
        self.km = 0
        for k in isl.knights():
            self.km |= 1 << (k - isl.n_roads)
        n = g.players
        self.opp = [o for o in range(n) if o != self.p]
        self.opp_len = [g.road_length(o) for o in range(n)]
        self.opp_kn = [g.knights(o) for o in range(n)]
        self.opp_base = [0] * n
        for o in range(n):
            v = 0
            for b in range(len(isl.names)):
                if g.builds[o] >> b & 1:
                    v += isl.values[b]
            self.opp_base[o] = v

    def _value_two(self, items, used):
        isl = self.isl
        g = self.game
        nr = isl.n_roads
        p = self.p
        roads, builds = self.roads, self.builds
        for it in items:
            if it < nr:
                roads |= 1 << it
            else:
                builds |= 1 << (it - nr)
        longest, largest = g.longest, g.largest
        if roads != self.roads and longest != p:
            if longest < 0:
                if roads >> GREY_ROAD & 1:
                    longest = p
            elif isl.road_length(roads) > self.opp_len[longest]:
                longest = p
        kn = popcount(builds & self.km)
        if kn != self.opp_kn[p] and largest != p:
            if largest < 0:
                if kn >= 3:
                    largest = p
            elif kn > self.opp_kn[largest]:
                largest = p
        vp = 0
        sites = 0.0
        best_site = 0
        for b in range(len(isl.names)):
            if builds >> b & 1:
                vp += isl.values[b]
            elif isl.kinds[b] != KNIGHT:
                r = isl.site_road[b]
                if r == START or roads >> r & 1:
                    sites += isl.values[b]
                    if isl.values[b] > best_site:
                        best_site = isl.values[b]
        if longest == p:
            vp += AWARD_VP
        if largest == p:
            vp += AWARD_VP
        if vp >= WIN_VP:
            return 1000.0 - len(items) * 0.01
        if self.level == EASY:  # points, and roads that open sites
            return vp + 0.1 * sites + 0.05 * popcount(roads)
        # A build that would win next turn is worth most near the end.
        finish = best_site >= WIN_VP - vp
        if not finish and largest != p and WIN_VP - vp <= AWARD_VP:
            finish = kn + 1 >= 3 if largest < 0 else kn + 1 > self.opp_kn[largest]
        # Progress: open sites, jokers in hand, knights and roads toward the awards.
        jok = 0
        for j in range(len(isl.jokers)):
            need = isl.jokers[j][1]
            if builds & need == need and not used >> j & 1:
                jok += 1
        prog = W2[0] * sites + W2[1] * jok + (W2[6] if finish else 0)
        if largest < 0:
            prog += W2[2] * min(kn, 2)
        elif largest != p:
            prog += W2[3] * kn
        if longest < 0:
            prog += W2[4] * popcount(roads & _GREY_PATH)
        elif longest != p:
            prog += W2[5] * popcount(roads)
        if self.level == MEDIUM:
            return vp + prog
        # HARD: the race. Others' victory points after the awards move, the leader's
        # threat weighed by how close they are to 10.
        worst = 0.0
        for o in self.opp:
            v = self.opp_base[o]
            if longest == o:
                v += AWARD_VP
            if largest == o:
                v += AWARD_VP
            w = v * (0.25 if v < 6 else 0.5)
            if w > worst:
                worst = w
        if worst >= 3.5:  # someone may win soon: points now beat progress
            prog *= 0.5
        # Contests: stay ahead of the nearest challenger for the awards held.
        if largest == p:
            for o in self.opp:
                if self.opp_kn[o] >= kn:
                    prog -= 0.4
        if longest == p:
            ln = isl.road_length(roads)
            for o in self.opp:
                if self.opp_len[o] >= ln:
                    prog -= 0.3
        return vp + prog - worst

    # ---- rolling

    def reroll_mask(self):
        """The dice to roll again (0: stop rolling)."""
        if self.level == HARD or (self.one and self.level == MEDIUM and EXACT_MEDIUM):
            return self._exact_reroll()
        g = self.game
        n = g.dice_count()
        counts = g.unspent()
        rolls = g.rolls_left()
        single = self.level == EASY
        plans = _plans(self.isl, self.roads, self.builds, n, single)
        base = self.nothing()
        best = self._best_now(counts, plans)[0]  # stop now
        keep = None
        for items, cost in plans:
            if not items:
                continue
            v0 = self.value(items, self.used)
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
                    if self.level == EASY or counts[GOLD] < 2:
                        break
                    d = d[:]
                    r = 0
                    for q in range(5):
                        if d[q] > d[r]:
                            r = q
                    d[r] -= 1
                    kept[GOLD] = 2
                    nk += 2
                ev = self._plan_ev(d, n - nk, rolls, items, v0, base)
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

    def _plan_ev(self, d, n, rolls, items, v0, base):
        # d: the five missing counts after the kept dice.
        p0 = _chance(d, n, rolls)
        ev = p0 * v0 + (1 - p0) * base
        if not self.jokers:
            return ev
        # With jokers: the missing resources they cover (specific first), at their cost
        # in value.
        dd = d[:]
        used = self.used
        for j, gives in self.jokers:
            if gives != ANY and dd[gives] > 0:
                dd[gives] -= 1
                used |= 1 << j
        for j, gives in self.jokers:
            if gives == ANY:
                for r in range(5):
                    if dd[r]:
                        dd[r] -= 1
                        used |= 1 << j
                        break
        if used == self.used:
            return ev
        p1 = _chance(dd, n, rolls)
        if p1 <= p0:
            return ev
        v1 = self.value(items, used)
        return p0 * v0 + (p1 - p0) * max(v1, base) + (1 - p1) * base

    # ---- Island One, hard: exact expectimax over the dice of this turn

    def _exact_reroll(self):
        g = self.game
        w1, w2 = _turn_tables(self)
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

    def final_work(self, n, out):
        """Fill the array ``out`` over ``_multisets``: at each roll of ``n`` dice, the value of
        the best plan it pays for (or of building nothing); 0 elsewhere. A generator that
        yields between slices of a few rolls (see ``think``).

        How dice pay a plan depends only on what they leave missing of its cost, how many
        gold pairs they hold and how many dice are free (``_cover``), so each plan type
        (total cost) is valued once per such shortfall and every roll reuses it."""
        keys, sizes, _ = _multisets()
        plans = _plans(self.isl, self.roads, self.builds, n, False)
        yield
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
        reach = len(self.jokers)
        base = self.nothing()
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
                if self._late(items):
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
                                    if v is None:
                                        v = memo[key] = self._type_value(
                                            [r2 - m1, m1, m2, m3, m4, m5], c, lists[t], base,
                                            seen)
                                        if v > out[i]:
                                            out[i] = v
                                        i += 1
                                        yield  # (a new shortfall is the costly part)
                                        continue
                                    if v > out[i]:
                                        out[i] = v
                                i += 1

    def _type_value(self, m, cost, lst, base, seen):
        # The best value of a plan in ``lst`` (all of total ``cost``) that the dice ``m`` pay
        # for, in any of the ways worth comparing (``base`` if none). ``seen``: values by
        # (cost, jokers used) and (plan, jokers used), shared by the rolls of one table.
        pay = _cover(m, cost, self.jokers)
        ways = self._others(m, cost, pay)  # the same for every plan of this cost
        best = base
        for way in ways:
            ck = (cost, self._mask(way))
            v = seen.get(ck)
            if v is None:
                v = -1e9
                for items in lst:
                    x = self.value(items, ck[1])
                    if x > v:
                        v = x
                seen[ck] = v
            if v > best:
                best = v
        if pay is None or pay[1]:
            for items in lst:  # a knight of the plan lends its joker to the rest
                for way in self._lent(m, items, cost, pay, ways):
                    ck = (items, self._mask(way))
                    v = seen.get(ck)
                    if v is None:
                        v = seen[ck] = self.value(items, ck[1])
                    if v > best:
                        best = v
        return best

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

    def build_step(self):
        return next(_plan_actions(self.game, built_now(self)[0]))


def _plan_actions(g, best):
    # The actions that carry out plan ``best`` (value, items, trades, jokers) on ``g``, each
    # worked out once the one before is done: gold trades, the jokers unlocked already, a
    # joker of a knight in the plan after that knight, the other builds, the end. A computer
    # takes the first and plans again (``build_step``); ``_after_plan`` takes them all.
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


# ------------------------------------------- dice multisets, keep values

_MS = None


def _multisets():
    """(keys, sizes, child): the 924 multisets of 0..6 dice, packed as sum(count[f] << 3f),
    sorted by size and then by key (so adding a die always moves to a later index, and the
    462 multisets of fewer than six dice come first); child[6i + f]: the index of multiset i
    plus a die f, for those 462. Made once, with the three value tables of ``_turn_tables``
    (``_W``): compact arrays, allocated together and kept, because the Pico's heap is small
    and fragments."""
    if _MS is None:
        _drain(_make_multisets())
    return _MS


_FIRST = (0, 1, 7, 28, 84, 210, 462, 924)  # the index of the first multiset of each size
_TRI = (1, 3, 6, 10, 15, 21, 28)  # multisets of 0..r dice of three faces (sum <= r)
_TET = (1, 4, 10, 20, 35, 56, 84)  # and of four faces


def reserve():
    """Allocate the arrays of ``_multisets`` and ``_turn_tables`` now (filled when first
    needed): a device calls this right after its framebuffer, so that these 21 KB, kept for
    good, sit at one end of the heap instead of splitting its largest free block."""
    global _SPACE
    if _MS is None and _SPACE is None:
        n = _FIRST[7]
        # the zeros first, so that they leave one gap below the arrays, not one between each
        zeros, more = bytes(4 * n), bytes(12 * _FIRST[6])
        _SPACE = (array("i", zeros), bytearray(n), array("h", more),
                  (array("f", zeros), array("f", zeros), array("f", zeros)))


_SPACE = None  # the arrays ``reserve`` allocated, until ``_make_multisets`` fills them


def _make_multisets():
    # _multisets' work, as a generator yielding between slices.
    global _MS, _W, _SPACE
    reserve()
    keys, sizes, child, w = _SPACE
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
    for i in range(_FIRST[6]):
        k = keys[i]
        for f in range(6):
            child[6 * i + f] = _index(keys, k + (1 << 3 * f))
        if not i & 3:
            yield
    _MS = (keys, sizes, child)
    _W = w
    _SPACE = None


def _index(keys, k):
    # The index of the multiset k in keys.
    size = 0
    for f in range(6):
        size += k >> 3 * f & 7
    return _find(keys, k, _FIRST[size], _FIRST[size + 1] - 1)


def _find(keys, k, lo=0, hi=-1):
    # The index of k in the sorted sequence keys[lo..hi] (hi -1: the last; binary search).
    if hi < 0:
        hi = len(keys) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if keys[mid] < k:
            lo = mid + 1
        else:
            hi = mid
    return lo


def _expect(w, sizes, child, n):
    # Keep values in place: W(K) = mean over one more die of W(K + f), for every K with
    # fewer than n dice (the n-dice entries of w are given). A generator: yields between
    # slices.
    for i in range(len(sizes) - 1, -1, -1):
        if sizes[i] < n:
            b = 6 * i
            w[i] = (w[child[b]] + w[child[b + 1]] + w[child[b + 2]] + w[child[b + 3]]
                    + w[child[b + 4]] + w[child[b + 5]]) / 6
        if not i & 31:
            yield


def _best_within(w, src, sizes, child, n):
    # w[K] = the best src over the sub-multisets of K (K up to n dice): each value passes
    # to the multisets one die larger, in index order, so every K sees all of its parts.
    for i in range(len(sizes)):
        w[i] = src[i]
    for i in range(len(sizes)):
        if sizes[i] < n:
            b = 6 * i
            v = w[i]
            for f in range(6):
                c = child[b + f]
                if w[c] < v:
                    w[c] = v
        if not i & 63:
            yield


_W = None  # the three tables (W1, W2, W0) of ``_turn_tables``, made with ``_multisets``
_TURN = [None, False]  # the key of the turn the tables hold, and whether W0 is done
_WORK = [None, None, False]  # the key, generator and ``first`` of tables being worked out


def _drain(gen):
    for _ in gen:
        pass


def forget():
    """Drop every table and plan worked out so far (the next decisions start afresh)."""
    _TURN[0] = _NOW[0] = _AHEAD[0] = _AHEAD[1] = None
    _WORK[0] = _WORK[1] = _NOW_WORK[0] = _NOW_WORK[1] = None


def _finish(gen, work):
    # Run the work in hand (if any) to its end, and let it go.
    if gen is not None:
        _drain(gen)
        work[0] = work[1] = None


def _turn_key(g, level):
    # Everything a turn's tables depend on, by value: a copy of the game in the same state
    # (``_ahead``'s) has the same key.
    p = g.player
    return (g.island.number, g.players, g.dice_count(), level, p, g.game_turn, g.jokers[p],
            g.built, g.longest, g.largest, tuple(g.roads), tuple(g.builds))


def _work(ctx, key, first):
    # The tables for ``ctx`` into _W, a slice at a time; with ``first``, W0 too.
    if _MS is None:
        yield from _make_multisets()
    keys, sizes, child = _MS
    w1, w2, w0 = _W
    n = ctx.game.dice_count()
    if _TURN[0] != key:
        _TURN[0] = None
        yield from ctx.final_work(n, w2)
        yield from _expect(w2, sizes, child, n)
        # M(K): the best keep within K, K's value with one re-roll left; W1 from M at n.
        yield from _best_within(w1, w2, sizes, child, n)
        yield from _expect(w1, sizes, child, n)
        _TURN[0] = key
        _TURN[1] = False
    if first and not _TURN[1]:
        yield from _best_within(w0, w1, sizes, child, n)
        yield from _expect(w0, sizes, child, n)
        _TURN[1] = True


def _ready(game, level, first, ctx=None):
    # The generator of the work left for the tables of the turn (None: nothing left).
    key = _turn_key(game, level)
    if _TURN[0] == key and (_TURN[1] or not first):
        return None
    if _WORK[0] != key or first and not _WORK[2]:
        _WORK[0] = key
        _WORK[1] = _work(ctx or _Context(game, level, 0), key, first)
        _WORK[2] = first
    return _WORK[1]


def _turn_tables(ctx, first=False):
    """(W1, W2[, W0]): keep values before the second and the third roll (and, ``first``,
    the value of each keep before the first roll) for this turn's state; worked out once a
    turn (``think`` may have done it already)."""
    _finish(_ready(ctx.game, ctx.level, first, ctx), _WORK)
    w1, w2, w0 = _W
    return (w1, w2, w0) if first else (w1, w2)


def _needs_tables(game, level):
    return game.phase in (ROLL, REROLL) and (
        level == HARD or (level == MEDIUM and EXACT_MEDIUM and game.island.number == 1))


_NOW = [None, None, None]  # the key of a state in the build phase, its best plan, by item
_NOW_WORK = [None, None]  # the key and generator of the plans being valued (apart from
# ``_WORK``: a computer's build steps do not stop the next seat's tables, see ``_ahead``)


def _now_key(g, level, seed):
    return _turn_key(g, level) + (0 if level == HARD else seed, g.phase, g.spent,
                                  bytes(g.faces))


def _now_ready(game, level, seed, ctx=None):
    # The generator of the work left for the best plan now (None: nothing left).
    key = _now_key(game, level, seed)
    if _NOW[0] == key:
        return None
    if _NOW_WORK[0] != key:
        _NOW_WORK[0] = key
        _NOW_WORK[1] = _now(ctx or _Context(game, level, seed), key)
    return _NOW_WORK[1]


def _now(ctx, key):
    g = ctx.game
    counts = g.unspent()
    free = 0
    for c in counts:
        free += c
    plans = _plans(ctx.isl, ctx.roads, ctx.builds, free, ctx.level == EASY)
    yield
    by_item = {} if ctx.level == HARD else None
    yield from ctx.now_work(counts, plans, by_item)
    _NOW[0] = key
    _NOW[1] = ctx.best
    _NOW[2] = by_item


def built_now(ctx):
    """(best, values by item) in the build phase: ``_Context._best_now``'s (value, items,
    trades, jokers) over every plan the free dice pay for, and (HARD) the best value of a
    plan with each item; worked out once a state (``think`` may have done it)."""
    _finish(_now_ready(ctx.game, ctx.level, ctx.seed, ctx), _NOW_WORK)
    return _NOW[1], _NOW[2]


_AHEAD = [None, None]  # a computer's build-phase state (its ``_now_key``), the work from it


def _ahead(game, level, seed, then):
    # The work left on the tables of the next seat (``then``: its level, seed and whether
    # the coach wants W0) in the state that the plan of the computer now building leads to
    # (None: nothing left). Its build steps and its end take a step pause each, in which
    # the next seat's tables get made; if the turn ends otherwise, their key does not match
    # and they are made again.
    key = _now_key(game, level, seed)
    if _AHEAD[0] != key:
        _AHEAD[0] = key
        _AHEAD[1] = _ahead_work(game, _NOW[1], then)
    return _AHEAD[1]


def _ahead_work(game, best, then):
    g = yield from _after_plan(game, best)
    level, seed, coach = then
    if g is not None and _needs_tables(g, level):
        gen = _ready(g, level, coach, _Context(g, level, seed))
        if gen is not None:
            yield from gen


def _after_plan(game, best):
    # A copy of ``game`` (through its save) with ``best``'s plan carried out and the turn
    # ended (None if the plan cannot be carried out so). A generator, yielding between steps.
    from catan.codec import dumps, loads
    from catan.game import IllegalAction

    data = dumps(game)
    yield
    g = loads(data, game.dice)
    yield
    try:
        for action in _plan_actions(g, best):
            g.perform(action)
    except IllegalAction:
        return None
    return g


def think(game, level, until, seed=0, coach=False, then=None):
    """Work ahead, in a front end's idle time, on the decision of the player whose turn it is
    at ``level`` (and ``seed``, as ``next_action`` will be given): the turn's keep tables
    (the costly part of HARD's and the coach's rolls) or, in the build phase, the values of
    the plans the dice pay for, in slices until ``until()`` is true. True when nothing is
    left to do; the decision itself (``next_action``, the coach) then takes little time.
    ``coach``: also what the coach values before the first roll. ``then``: for a computer
    (its plan decides its builds), the next seat's (level, seed, coach), whose tables are
    made in the build phase once the plan is known (``_ahead``)."""
    level = level_of(level)
    if game.phase == BUILD:
        if not _run(_now_ready(game, level, seed), until, _NOW_WORK):
            return False
        if then is None:
            return True
        then = (level_of(then[0]),) + tuple(then[1:])
        if not _run(_ahead(game, level, seed, then), until, _WORK):
            return False
        _AHEAD[1] = None  # the copy's work is done: let it go (its key stays, not to redo it)
        return True
    if game.phase != OVER and _needs_tables(game, level):
        return _run(_ready(game, level, coach and game.phase == ROLL), until, _WORK)
    return True


def _run(gen, until, work):
    # ``gen``'s slices until ``until()``; True (and ``work`` let go) once it is done.
    if gen is not None:
        for _ in gen:
            if until():
                return False
        work[0] = work[1] = None
    return True


# -------------------------------------------------------- helpers

# ------------------------------------------- Island One value (hard)

TABLE = "coach_table.bin"  # beside this module (made by tools/make_coach_table.py)
_ONE = None


class _Values:
    """The Island One value table, read from the file ``TABLE`` a turn's rows at a time (the
    bytes of a module would sit in the heap: 24 KB; this costs about 1.5 KB).

    The file: b"CDV1", rank R, turns T, groups G, sheets S, road masks N (<BBHHH), R scales
    (<d), N road masks (<H, ascending), GF (T * G * R signed bytes), SF (S * R signed bytes).
    V_t(g, s) ~= sum_r GF[t - 2, g, r] * SF[s, r] * scale[r]: the exact solver's values for
    turn t (2..T + 1) of knight-and-joker group g and sheet s (roads, settlements, cities)."""

    def __init__(self, path):
        import struct

        from catan.maps import CITY, ISLAND_ONE, SETTLEMENT

        f = open(path, "rb")
        head = f.read(12)
        if head[:4] != b"CDV1":
            f.close()
            raise ValueError("%s is not a value table" % path)
        rank, self.turns, self.groups, sheets, n = struct.unpack("<BBHHH", head[4:])
        self.scale = struct.unpack("<%dd" % rank, f.read(8 * rank))
        roads = f.read(2 * n)
        masks = array("H", bytes(2 * n))
        for i in range(n):
            masks[i] = roads[2 * i] | roads[2 * i + 1] << 8
        self.masks = masks
        self.f = f
        self.rank = rank
        self.gf_at = 12 + 8 * rank + 2 * n
        self.sf_at = self.gf_at + self.turns * self.groups * rank
        self.rows = bytearray(self.groups * rank)  # GF of the turn ``self.t``
        self.cols = {}
        self.t = -1
        # Sheet s: the road masks in order, then within a mask the settlements x the cities
        # that its roads reach (the solver's numbering).
        isl = ISLAND_ONE
        chains = []
        for kind in (SETTLEMENT, CITY, KNIGHT):
            chain = []
            prev = START
            while True:
                nxt = -1
                for b in range(len(isl.kinds)):
                    if isl.kinds[b] == kind and isl.before[b] == prev:
                        nxt = b
                if nxt < 0:
                    break
                chain.append(nxt)
                prev = nxt
            chains.append(chain)
        self.chains = chains
        self.base = array("H", bytes(2 * n))
        self.widths = bytearray(n)
        total = 0
        for i in range(n):
            lim = []
            for chain in chains[:2]:
                k = 0
                while k < len(chain):
                    r = isl.site_road[chain[k]]
                    if r != START and not masks[i] >> r & 1:
                        break
                    k += 1
                lim.append(k)
            self.base[i] = total
            self.widths[i] = lim[1] + 1
            total += (lim[0] + 1) * (lim[1] + 1)
        if total != sheets:
            raise ValueError("%s does not match the map" % path)

    def value(self, t, roads, builds, used):
        if t > self.turns + 1:
            return 0.0
        lev = [0, 0, 0]
        for c in range(3):
            chain = self.chains[c]
            k = 0
            while k < len(chain) and builds >> chain[k] & 1:
                k += 1
            lev[c] = k
        lo = _find(self.masks, roads)
        s = self.base[lo] + lev[0] * self.widths[lo] + lev[1]
        k = lev[2]
        g = (1 << k) - 1 + (used & ((1 << k) - 1))
        rank = self.rank
        f = self.f
        if t != self.t:
            f.seek(self.gf_at + (t - 2) * self.groups * rank)
            f.readinto(self.rows)
            self.t = t
            self.cols = {}  # SF rows read this turn, by sheet (a turn meets a few dozen)
        sf = self.cols.get(s)
        if sf is None:
            f.seek(self.sf_at + s * rank)
            sf = self.cols[s] = f.read(rank)
        gf, sc = self.rows, self.scale
        row = g * rank
        v = 0.0
        for r in range(rank):
            a = gf[row + r]
            b = sf[r]
            if a > 127:
                a -= 256
            if b > 127:
                b -= 256
            v += a * b * sc[r]
        return v


def value_table():
    """The Island One value table (opened once, kept)."""
    global _ONE
    if _ONE is None:
        here = __file__.replace("\\", "/").rpartition("/")[0]
        _ONE = _Values((here + "/" if here else "") + TABLE)
    return _ONE


def island_one_value(t, roads, builds, used):
    """The value table's estimate of the points still to come from turn ``t`` (2..16) on,
    for a sheet (road mask, building mask) and the used-joker mask."""
    return value_table().value(t, roads, builds, used)
