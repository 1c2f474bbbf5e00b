"""Property tests: long random walks of legal and illegal actions never break the rules.

Each test plays games on both islands with 1 to 4 players. At every step the walk picks
an action: mostly a sensible legal one (so that games get far: builds, jokers, gold
trades, undo, many turns, Island Two awards and wins, the end of Island One), sometimes
an arbitrary one with arbitrary arguments (mostly illegal). After each step it checks
one family of invariants:

- scores and awards (Island One track vs sheet, <= 132; Island Two VP, award holders);
- every die is spent at most once (this turn's builds and trades vs the dice);
- an illegal action raises IllegalAction with the why_* reason and changes nothing;
- the save round-trips (codec.loads(codec.dumps(g)) is the same game, undo included);
- Game.replay of the log is the same game;
- the queries (buildable, usable_jokers, can_trade) agree with the why_* answers.

GameMachine (a hypothesis.stateful machine) checks all of them at once, with Hypothesis
choosing every action, so that a failure shrinks to a short program.

The maps are checked against shared/reference/maps.md by other tests; here the costs and
the Longest Road length are recomputed independently of the core.
"""

import functools
import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from catan import codec
from catan.dice import ScriptedDice, SeededDice
from catan.game import BUILD, REROLL, ROLL, Game, IllegalAction
from catan.maps import START
from helpers import saved_state, snapshot

# rules.md, "Building": brick, lumber, wool, grain, ore per kind (by the item's first letter).
COST = {"R": (1, 1, 0, 0, 0), "S": (1, 1, 1, 1, 0), "C": (0, 0, 0, 2, 3), "K": (0, 0, 1, 1, 1)}
GOLD = 5
MAX_ONE = 132  # rules.md: the most any 15-turn Island One game can score
GREY = "R5"  # maps.md: Island Two's grey road

WHY = {"roll": "why_roll", "stop": "why_stop", "joker": "why_joker", "trade": "why_trade",
       "build": "why_build", "undo": "why_undo", "end_turn": "why_end"}

MAX_STEPS = 400
# A walk is drawn as four integers (island, players, dice seed, choice seed); its choices
# come from random.Random(choice seed). Shrinking such a walk would replay hundreds of
# long games for little gain, so it is off: a failure reports the seeds and the walk's
# last actions instead.
PROFILE = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck),
                   phases=(Phase.explicit, Phase.reuse, Phase.generate))
WALKS = st.tuples(st.sampled_from((1, 2)), st.integers(1, 4), st.integers(0, (1 << 25) - 1),
                  st.integers(0, (1 << 32) - 1))


# ----------------------------------------------------------- independent rule facts

def names_built(g, p):
    isl = g.island
    return [isl.name(i) for i in range(isl.n_items) if g.is_built(i, p)]


@functools.lru_cache(maxsize=None)
def brute_road_length(isl, mask):
    """Longest simple path, in roads, through the starting road and the built roads.

    Each road joins the far end of the road it hangs on to its own far end; the starting
    road joins its outer end ("out") to its inner end ("start")."""
    adj = {"out": [("start", "S")], "start": [("out", "S")]}
    for r in range(isl.n_roads):
        if mask >> r & 1:
            q = isl.roads[r]
            a = "start" if q == START else q
            adj.setdefault(a, []).append((r, r))
            adj.setdefault(r, []).append((a, r))

    def longest(node, used):
        best = 0
        for nxt, edge in adj.get(node, ()):
            if edge not in used:
                best = max(best, 1 + longest(nxt, used | {edge}))
        return best

    return max(longest(n, frozenset()) for n in adj)


def knights(g, p):
    return sum(1 for n in names_built(g, p) if n[0] == "K")


def vp_by_hand(g, p):
    v = sum({"S": 1, "C": 2}.get(n[0], 0) for n in names_built(g, p))
    return v + 2 * (g.longest == p) + 2 * (g.largest == p)


def check_sheets(g):
    """Both islands: what is built has what it needs; used jokers are unlocked; turns."""
    isl = g.island
    for p in range(g.players):
        for item in range(isl.n_items):
            if g.is_built(item, p):
                for need in isl.needs(item):
                    assert g.is_built(need, p), (p, isl.name(item), isl.name(need))
        for j in range(len(isl.jokers)):
            if g.jokers[p] >> j & 1:
                assert g.joker_unlocked(j, p), (p, j)
        expected = g.turns[g.player] + (1 if p < g.player else 0)
        assert g.turns[p] == expected, "turns out of seat order"
    assert g.game_turn == sum(g.turns)


def check_scores(g):
    """Island One: score = what is marked, <= 132. Island Two: VP and award holders."""
    check_sheets(g)
    isl = g.island
    if isl.number == 1:
        assert g.longest == g.largest == g.winner == -1
        for p in range(g.players):
            boxes = list(g.track[15 * p:15 * p + g.turns[p]])
            assert all(b == -2 or b >= 1 for b in boxes), boxes
            assert list(g.track[15 * p + g.turns[p]:15 * (p + 1)]) == [0] * (15 - g.turns[p])
            this_turn = g.points if p == g.player else 0
            marked = sum(isl.value(isl.item(n)) for n in names_built(g, p))
            assert sum(b for b in boxes if b > 0) + this_turn == marked
            assert g.score(p) == sum(b for b in boxes if b > 0) - 2 * boxes.count(-2)
            assert g.score(p) == sum(boxes) == g.result(p)
            assert marked <= MAX_ONE and g.score(p) <= MAX_ONE
        assert g.over() == (g.turns[-1] == 15)
        assert g.over() == all(t == 15 for t in g.turns)
        return
    lengths = [brute_road_length(isl, g.roads[p]) for p in range(g.players)]
    for p in range(g.players):
        assert g.road_length(p) == lengths[p], (p, bin(g.roads[p]))
    grey = [GREY in names_built(g, p) for p in range(g.players)]
    army = [knights(g, p) for p in range(g.players)]
    if g.longest < 0:
        assert not any(grey), "someone built the grey road but nobody holds Longest Road"
    else:
        assert grey[g.longest], "Longest Road without the grey road"
        assert lengths[g.longest] == max(lengths), ("a longer road than the holder's", lengths)
    if g.largest < 0:
        assert max(army) < 3, "3 knights but nobody holds Largest Army"
    else:
        assert army[g.largest] >= 3 and army[g.largest] == max(army), (g.largest, army)
    for p in range(g.players):
        assert g.vp(p) == vp_by_hand(g, p) == g.result(p)
    if g.over():
        assert g.winner == g.player and g.winners() == [g.player]
        assert g.vp(g.winner) >= 10
        assert all(g.vp(p) < 10 for p in range(g.players) if p != g.winner)
    else:
        assert g.winner == -1 and g.winners() == []
        assert all(g.vp(p) < 10 for p in range(g.players))


# -------------------------------------------------------------------- the random walk

class Walk:
    """A game and an independent record of this turn's builds, jokers and trades."""

    def __init__(self, walk, strict=False):
        island, players, dice_seed, choice_seed = walk
        self.rng = random.Random(choice_seed)
        self.strict = strict  # check refusals (why_* agrees, nothing changes) on every try
        self.g = Game(island, players, SeededDice(dice_seed))
        # This turn's accepted post-roll acts: ("build", item, ...), ("trade", r), ("joker", ...).
        self.stack = []
        self.history = []  # (name, args, accepted)

    def _int(self, lo, hi):
        return self.rng.randint(lo, hi)

    def _pick(self, seq):
        return self.rng.choice(list(seq))

    def _maybe_none(self, lo, hi):
        return None if self.rng.random() < 0.15 else self._int(lo, hi)

    def choose(self):
        """The next action: (name, args)."""
        g = self.g
        if g.over() or self._int(0, 99) < 15:
            return self.wild()
        if g.phase == ROLL:
            return "roll", (None,) if self.rng.random() < 0.5 else ((1 << g.dice_count()) - 1,)
        if g.phase == REROLL:
            pick = self._int(0, 19)
            if g.buildable() and pick < 12:
                return self.post_roll()
            if pick < 17:
                mask = self.reroll_mask()
                return ("roll", (mask,)) if mask else ("stop", ())
            if pick < 18:
                return "roll", (self._int(1, (1 << g.dice_count()) - 1),)
            return ("stop", ()) if pick < 19 else ("end_turn", ())
        return self.post_roll()

    def reroll_mask(self):
        """Keep the dice that pay for an item the sheet allows (chosen at random, mostly
        not a road); roll the others again."""
        g = self.g
        isl = g.island
        items = [i for i in range(isl.n_items) if g.why_sheet(i) is None]
        if not items:
            return 0
        others = [i for i in items if i >= isl.n_roads]
        goal = self._pick(others if others and self.rng.random() < 0.6 else items)
        need = list(COST[isl.name(goal)[0]])
        mask = 0
        for i in range(g.dice_count()):
            f = g.faces[i]
            if f < GOLD and need[f]:
                need[f] -= 1
            else:
                mask |= 1 << i
        return mask

    def post_roll(self):
        g = self.g
        pick = self._int(0, 19)
        items = g.buildable()
        if items and pick < 14:
            others = [i for i in items if i >= g.island.n_roads]
            return "build", (self._pick(others if others and self.rng.random() < 0.6 else items),)
        jokers = g.usable_jokers() if 14 <= pick < 16 or not items else []
        if jokers and pick < 16:
            free = [i for i in range(g.dice_count()) if not g.spent >> i & 1]
            return "joker", (self._pick(jokers), self._pick(free), self._int(0, 4))
        if g.can_trade() and pick < 18:
            return "trade", (self._int(0, 4),)
        if g.why_undo() is None and pick == 18:
            return "undo", ()
        return "end_turn", ()

    def wild(self):
        """Any action with any arguments, legal or not."""
        g = self.g
        name = self._pick(sorted(WHY))
        if name == "roll":
            return name, (self._maybe_none(-1, 70),)
        if name == "joker":
            return name, (self._int(-1, len(g.island.jokers)), self._int(-1, 7),
                          self._maybe_none(-1, 6))
        if name == "trade":
            return name, (self._maybe_none(-1, 6),)
        if name == "build":
            return name, (self._int(-1, g.island.n_items),)
        return name, ()

    def attempt(self, name, args):
        """Try an action; returns whether it was accepted."""
        g = self.g
        why = getattr(g, WHY[name])(*args)
        before = snapshot(g) if self.strict else None
        try:
            getattr(g, name)(*args)
        except IllegalAction as e:
            if self.strict:
                assert why is not None, "%s%r raised %r but %s said it was legal" % (
                    name, args, str(e), WHY[name])
                assert str(e) == why, (name, args, str(e), why)
                assert snapshot(g) == before, "refused %s%r changed the game" % (name, args)
            return False
        if self.strict:
            assert why is None, "%s%r was accepted but %s said %r" % (name, args, WHY[name], why)
        if name in ("build", "joker", "trade"):
            self.stack.append((name,) + tuple(args))
        elif name == "undo":
            self.stack.pop()
        elif name == "end_turn":
            self.stack = []
        return True

    def run(self, after_step=None, steps=MAX_STEPS):
        over_steps = 0
        try:
            for _ in range(steps):
                name, args = self.choose()
                self.history.append((name, args, self.attempt(name, args)))
                if after_step:
                    after_step(self)
                if self.g.over():
                    over_steps += 1
                    if over_steps > 3:
                        break
        except AssertionError as e:
            g = self.g
            tail = "\n".join("  %s%r%s" % (n, a, "" if ok else "  (refused)")
                             for n, a, ok in self.history[-12:])
            raise AssertionError("%s\nIsland %d, %d players, game turn %d, phase %d, step %d; "
                                 "last actions:\n%s" % (e, g.island.number, g.players, g.game_turn, g.phase,
                                    len(self.history), tail)) from e
        return self.g


# ---------------------------------------------------------------------- the properties

@PROFILE
@given(WALKS)
def test_scores_and_awards_never_break(walk):
    w = Walk(walk)
    check_scores(w.g)
    w.run(lambda w: check_scores(w.g))


def check_dice(w):
    g = w.g
    n = g.dice_count()
    assert 0 <= g.spent < 1 << n, "a spent die that does not exist"
    spent = [i for i in range(n) if g.spent >> i & 1]
    isl = g.island
    builds = [a[1] for a in w.stack if a[0] == "build"]
    trades = sum(1 for a in w.stack if a[0] == "trade")
    need = [0] * 6
    for item in builds:
        for r, c in enumerate(COST[isl.name(item)[0]]):
            need[r] += c
    need[GOLD] = trades  # each trade sets one gold die aside
    # Each die is spent once: the spent dice are exactly this turn's costs and trades.
    assert len(spent) == sum(need) <= n
    assert sum(need[:GOLD]) <= n - trades  # builds never spend more than the dice left
    have = [0] * 6
    for i in spent:
        have[g.faces[i]] += 1
    assert have == need, (have, need, [isl.name(i) for i in builds])
    if g.phase in (REROLL, BUILD):
        assert sum(g.unspent()) == n - len(spent)
    # The sheet changed this turn by exactly the builds on record.
    p = g.player
    roads0, builds0 = g.turn_start[0], g.turn_start[1]
    new = [i for i in range(isl.n_items) if g.is_built(i)
           and not (roads0 >> i & 1 if i < isl.n_roads else builds0 >> (i - isl.n_roads) & 1)]
    assert sorted(new) == sorted(builds), p
    assert len(set(builds)) == len(builds)


@PROFILE
@given(WALKS)
def test_every_die_is_spent_at_most_once(walk):
    w = Walk(walk)
    w.run(check_dice)


@PROFILE
@given(WALKS)
def test_illegal_actions_raise_with_the_why_reason_and_change_nothing(walk):
    w = Walk(walk, strict=True)
    w.run()
    # The whole game once more, with nothing but illegal attempts: all refused, nothing changed.
    g = w.g
    before = snapshot(g)
    for name, args in (("build", (-1,)), ("build", (g.island.n_items,)), ("joker", (99, 0, 0)),
                       ("roll", (0 if g.phase == REROLL else 64,)), ("trade", (GOLD,))):
        with pytest.raises(IllegalAction) as e:
            getattr(g, name)(*args)
        assert str(e.value)
        assert snapshot(g) == before


def check_save(w):
    g = w.g
    data = codec.dumps(g)
    h = codec.loads(data)
    assert saved_state(h) == saved_state(g)
    assert codec.dumps(h) == data
    if g.why_undo() is None:  # undo after loading takes back the same act
        g2 = codec.loads(data)
        g2.undo()
        h.undo()
        assert saved_state(h) == saved_state(g2)


@settings(PROFILE, max_examples=10)
@given(WALKS)
def test_save_round_trips_at_every_step(walk):
    w = Walk(walk)
    check_save(w)
    w.run(check_save)


def check_replay(w):
    g = w.g
    r = Game.replay(g.island.number, g.players, bytes(g.log))
    assert snapshot(r) == snapshot(g)


@settings(PROFILE, max_examples=10)
@given(WALKS)
def test_replaying_the_log_reproduces_every_step(walk):
    w = Walk(walk)
    w.run(check_replay)


def check_queries(w):
    g = w.g
    isl = g.island
    assert g.buildable() == [i for i in range(isl.n_items) if g.why_build(i) is None]
    assert g.can_trade() == any(g.why_trade(r) is None for r in range(5))
    usable = [j for j in range(len(isl.jokers))
              if any(g.why_joker(j, d, r) is None for d in range(6) for r in (None, 0, 1, 2, 3, 4))]
    assert g.usable_jokers() == usable, "usable_jokers() disagrees with why_joker()"
    for item in g.buildable():
        assert g.why_sheet(item) is None and g.cost(item)


@settings(PROFILE, max_examples=15)
@given(WALKS)
def test_queries_agree_with_why(walk):
    w = Walk(walk)
    w.run(check_queries)


class GameMachine(RuleBasedStateMachine):
    """The same invariants, all at once, with Hypothesis choosing every action and its
    arguments (and shrinking a failure to a short program). A "sensible" rule takes the
    walk's next choice, so that games get past the first turns."""

    @initialize(island=st.sampled_from((1, 2)), players=st.integers(1, 4),
                seed=st.integers(0, (1 << 25) - 1))
    def start(self, island, players, seed):
        self.w = Walk((island, players, seed, seed), strict=True)

    @rule(steps=st.integers(1, 30))
    def sensible(self, steps):
        for _ in range(steps):
            self.w.attempt(*self.w.choose())

    @rule(mask=st.one_of(st.none(), st.integers(-1, 64)))
    def roll(self, mask):
        self.w.attempt("roll", (mask,))

    @rule()
    def stop(self):
        self.w.attempt("stop", ())

    @rule(j=st.integers(-1, 7), die=st.integers(-1, 6), resource=st.one_of(st.none(), st.integers(-1, 6)))
    def joker(self, j, die, resource):
        self.w.attempt("joker", (j, die, resource))

    @rule(resource=st.one_of(st.none(), st.integers(-1, 6)))
    def trade(self, resource):
        self.w.attempt("trade", (resource,))

    @rule(item=st.integers(-1, 37))
    def build(self, item):
        self.w.attempt("build", (item,))

    @rule()
    def undo(self):
        self.w.attempt("undo", ())

    @rule()
    def end_turn(self):
        self.w.attempt("end_turn", ())

    @invariant()
    def rules_hold(self):
        check_scores(self.w.g)
        check_dice(self.w)
        check_queries(self.w)

    @invariant()
    def save_and_replay_give_the_same_game(self):
        check_save(self.w)
        check_replay(self.w)


GameMachine.TestCase.settings = settings(max_examples=25, stateful_step_count=40, deadline=None,
                                         suppress_health_check=list(HealthCheck))
test_game_machine = GameMachine.TestCase


def test_usable_jokers_lists_only_jokers_that_can_be_used():
    """usable_jokers() promises "the jokers that can be used now (on some free die)".

    Island One, K1 built; the three free dice all show ore: K1's joker (ore) has no die
    it could turn, so why_joker refuses it on every die, and it is not usable now."""
    ore, wool, grain = 4, 2, 3
    g = Game(1, 1, ScriptedDice([ore, wool, grain, ore, ore, ore]))
    g.roll()
    g.stop()
    g.build(g.island.item("K1"))
    assert [g.why_joker(0, d) for d in range(6) if not g.spent >> d & 1] == ["that die shows ore already"] * 3
    assert g.usable_jokers() == []


def test_brute_force_road_length_agrees_on_every_road_network():
    """The core's Longest Road length equals an exhaustive search on every connected set
    of Island Two roads (each road needs the one it hangs on)."""
    from catan.maps import ISLAND_TWO as isl
    g = Game(2, 2, None)
    checked = 0
    for mask in range(1 << isl.n_roads):
        if all(isl.roads[r] == START or mask >> isl.roads[r] & 1
               for r in range(isl.n_roads) if mask >> r & 1):
            g.roads[0] = mask
            assert g.road_length(0) == brute_road_length(isl, mask), bin(mask)
            checked += 1
    assert checked > 50
    # maps.md: the grey road completes a run of 5 counting the start (start R0 R2 R3 R5).
    assert brute_road_length(isl, 1 << 0 | 1 << 2 | 1 << 3 | 1 << 5) == 5
