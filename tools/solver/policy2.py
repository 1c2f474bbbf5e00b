"""Playing Island Two's solo race with a value table, on the real rules core
(``catan.game.Game(2, 1, dice)``).

``TablePolicy2(U)`` plays the policy that is optimal for U (minus the expected turns to
10 VP of each state, ``island2_dp.solve``): at each roll it keeps the sub-multiset with the
best keep value, and after the last roll it makes the best move (build type, knights,
roads and sites, jokers; or nothing), paid by an exhaustive search of the dice. ``play_game``
plays one race and checks, turn by turn, that the game's state is the one predicted.
"""

import numpy as np

from catan.dice import SeededDice
from catan.game import Game
from catan.maps import GREY_ROAD

import island2_dp as dp
from island1_model import FULL_INDEX, submasks
from island2_model import (ANY, BUILD_TYPES, COST, DESERTS, GOLD, GROUPS, KNIGHT_TYPES,
                           N_ROADS, SHEETS, SHEET_INDEX, SINGLES, C_ROADS, C_SITES,
                           S_ROADS, S_SITES, JOKER_RES, feasible, joker_res, knight_moves,
                           relevant, sheet_successors, state_of, unused_jokers, use_jokers)
from policy import best_keep, make_payment, reroll_tables, roll_and_keep


def desert_slots(builds, jokers):
    """The game's desert (0: K6+K7, 1: K8+K9) in each of the model's two desert slots
    (the slots are sorted by code, so the game's order may be swapped)."""
    codes = []
    for i, pair in enumerate(DESERTS):
        n = sum(1 for b in pair if builds >> b & 1)
        codes.append(3 if n == 2 and jokers >> (5 + i) & 1 else n)
    return (0, 1) if codes[0] <= codes[1] else (1, 0)


class TablePolicy2:
    def __init__(self, u):
        self.u = u
        self.u_ext = dp.extend(u)

    def turn_tables(self, gi, si):
        """(F3, W2, W1): final values (462,) and the keep values of the second and first
        re-roll (lists per level) of state (gi, si)."""
        plan = dp.group_plan(gi)
        sheets = np.array([si])
        build = dp.build_values(self.u_ext, plan, sheets,
                                dp.external_values(self.u_ext, plan, sheets))
        f3 = np.maximum(build, self.u[gi, si])
        return (f3[:, 0],) + reroll_tables(f3)

    @staticmethod
    def choose_keep(w, counts):
        return best_keep(w, counts, 1e-12)

    def choose_move(self, gi, si, counts):
        """The best move on the final multiset ``counts``: None (build nothing) or
        (value, type, new group in slot order, late bit, jokers, target sheet)."""
        group = GROUPS[gi]
        mi = FULL_INDEX[tuple(counts)]
        unused = unused_jokers(group)
        best, choice = self.u[gi, si], None
        for t in BUILD_TYPES:
            first, second = COST[t]
            n_k = KNIGHT_TYPES.get(t, 0)
            moves = knight_moves(group, n_k) if n_k else [(group, 0)]
            early = unused & dp._joker_mask(relevant(first) | relevant(second))
            for g_new, late in moves:
                if not late & dp._joker_mask(relevant(second)):
                    late = 0
                paid = []  # joker sets that pay: only the minimal ones are moves (a
                for jm in sorted(submasks(early | late), key=lambda x: bin(x).count("1")):
                    if not feasible(t, joker_res(jm & ~late), joker_res(jm & late))[mi]:
                        continue  # joker more is never used, whatever a table believes)
                    if any(q & jm == q for q in paid):
                        continue
                    paid.append(jm)
                    tg = dp.GROUP_INDEX[use_jokers(g_new, jm)]
                    for sh in sheet_successors(SHEETS[si], t):
                        val = self.u[tg, SHEET_INDEX[sh]]
                        if val > best + 1e-12:
                            best = val
                            choice = (val, t, g_new, late, jm, SHEET_INDEX[sh])
        return choice


# -------------------------------------------------------------- acting on a Game

def _pay(counts, first, second, early, late):
    """Steps paying ``first`` then ``second`` from ``counts``: ("joker", game joker, face,
    resource), ("trade", resource), ("part",) between the parts; early/late: lists of
    (game joker, resource). None if impossible."""
    r = next((i for i in range(5) if first[i] > 0), -1)
    if r < 0:
        if second is None:
            return []
        rest = _pay(counts, second, None, early + late, [])
        return None if rest is None else [("part",)] + rest
    need = first[:r] + (first[r] - 1,) + first[r + 1:]
    c = list(counts)
    if c[r] > 0:
        c[r] -= 1
        got = _pay(tuple(c), need, second, early, late)
        if got is not None:
            return got
    for idx, (gj, res) in enumerate(early):
        if res in (r, ANY):
            for f in range(6):
                if f != r and counts[f] > 0:
                    c = list(counts)
                    c[f] -= 1
                    got = _pay(tuple(c), need, second, early[:idx] + early[idx + 1:], late)
                    if got is not None:
                        return [("joker", gj, f, r)] + got
    if counts[GOLD] >= 2:
        c = list(counts)
        c[GOLD] -= 2
        got = _pay(tuple(c), need, second, early, late)
        if got is not None:
            return [("trade", r)] + got
    return None


def _slot_joker(slot, slots):
    return slot if slot < 5 else 5 + slots[slot - 5]


def execute(game, gi, si, counts, choice):
    """Make the jokers, trades and builds of ``choice`` on ``game`` (in its build phase)."""
    _, t, g_new, late, jm, target = choice
    p = game.player
    slots = desert_slots(game.builds[p], game.jokers[p])
    (ks, d1, d2), (nks, nd1, nd2) = GROUPS[gi], g_new
    knights = []  # game items, the late joker's knight first
    for i in range(5):
        if nks[i] > ks[i]:
            knights.append((1 << i, N_ROADS + SINGLES[i][0]))
    for s, (a, b) in enumerate(((d1, nd1), (d2, nd2))):
        pair = DESERTS[slots[s]]
        built = [k for k in pair if game.builds[p] >> k & 1]
        todo = [k for k in pair if k not in built]
        for n in range(b - a):
            knights.append((1 << (5 + s) if a + n + 1 == 2 else 0, N_ROADS + todo[n]))
    knights.sort(key=lambda k: 0 if k[0] and k[0] == late else 1)
    roads0, _, _ = SHEETS[si]
    roads1, s1, c1 = SHEETS[target]
    new_roads = [r for r in range(N_ROADS) if roads1 >> r & 1 and not roads0 >> r & 1]
    sites = []
    if s1 > SHEETS[si][1]:
        sites.append(next(N_ROADS + b for b, r in zip(S_SITES, S_ROADS)
                          if not game.builds[p] >> b & 1 and (r < 0 or roads1 >> r & 1)))
    if c1 > SHEETS[si][2]:
        sites.append(next(N_ROADS + b for b, r in zip(C_SITES, C_ROADS)
                          if not game.builds[p] >> b & 1 and (r < 0 or roads1 >> r & 1)))
    items = [k for _, k in knights]
    if t in ("KK", "KR"):
        part1, part2 = items[:1], items[1:] + new_roads
    else:
        part1, part2 = new_roads + sites + items, []
    first, second = COST[t]
    early = [(_slot_joker(j, slots), JOKER_RES[j]) for j in range(7) if (jm & ~late) >> j & 1]
    lates = [(_slot_joker(j, slots), JOKER_RES[j]) for j in range(7) if (jm & late) >> j & 1]
    steps = _pay(tuple(counts), tuple(first), tuple(second), early, lates)
    assert steps is not None, "the solver's move cannot be paid"
    make_payment(game, steps, part1, part2, lambda gj: gj)  # steps name the game's jokers


def play_game(policy, seed, check=True, max_turns=200, start=None, visits=None):
    """Play one solo race with ``policy`` and SeededDice(seed): the turns taken to 10 VP.
    ``start``: the game's masks (roads, builds, jokers) to begin from (tests)."""
    game = Game(2, 1, SeededDice(seed))
    if start:
        game.roads[0], game.builds[0], game.jokers[0] = start
        game.longest = 0 if start[0] >> GREY_ROAD & 1 else -1  # the awards, uncontested
        game.largest = 0 if game.knights(0) >= 3 else -1
    while not game.over():
        assert game.turns[0] < max_turns
        gi, si = state_of(game.roads[0], game.builds[0], game.jokers[0])
        if visits is not None:
            visits[gi, si] += 1
        _, w2, w1 = policy.turn_tables(gi, si)
        counts = roll_and_keep(game, policy, w1, w2)
        choice = policy.choose_move(gi, si, counts)
        if choice is not None:
            execute(game, gi, si, counts, choice)
            if check and not game.over():
                want = (dp.GROUP_INDEX[use_jokers(choice[2], choice[4])], choice[5])
                assert state_of(game.roads[0], game.builds[0], game.jokers[0]) == want
        if not game.over():
            game.end_turn()
    return game.turns_taken(0)
