"""Playing Island One with value tables, on the real rules core (``catan.game.Game``).

``TablePolicy(V)`` plays the policy that is optimal for the tables V (V[t + 1] is the
value of the sheet after turn t): at each roll it keeps the sub-multiset with the best
keep value, and after the last roll it makes the best build (type, concrete builds,
jokers), paid as ``island1_model.pay_plan`` says. ``greedy_tables()`` gives the tables of
a one-turn greedy player (next turns are worth nothing, except a tiny bonus per unused
joker so that ties keep jokers). ``play_game`` plays one game and checks, turn by turn,
that the game's sheet and score box are the ones the solver predicted.
"""

import itertools

import numpy as np

from catan.dice import SeededDice
from catan.game import BUILD, Game
from catan.maps import ISLAND_ONE

import island1_dp as dp
import keep_recursion as kr
from island1_model import (CITIES, EMPTY_SHEET, FULL_INDEX, GROUPS, KNIGHTS,
                           N_ROADS, N_SHEETS, SETTLEMENTS, SHEETS, SHEET_INDEX, TURNS,
                           TYPE_COSTS, X, counts_of, pay_plan, sheet_successors)

# Game joker index of solver joker j (the joker unlocked by the j-th knight).
GAME_JOKER = [next(i for i, (_, m) in enumerate(ISLAND_ONE.jokers) if m == 1 << b)
              for b, _, _ in KNIGHTS]


# ----------------------------------------------------------- state <-> game masks

def state_of(roads, builds, jokers):
    """(group row, sheet index) of a player's game masks (road, building, joker bits)."""
    def level(chain):
        n = 0
        while n < len(chain) and builds >> chain[n][0] & 1:
            n += 1
        return n
    k = level(KNIGHTS)
    used = sum(1 << j for j in range(len(KNIGHTS)) if jokers >> GAME_JOKER[j] & 1)
    return dp.group_index(k, used), SHEET_INDEX[(roads, level(SETTLEMENTS), level(CITIES))]


def masks_of(gi, sheet):
    """The game masks (roads, builds, jokers) of a solver state."""
    k, used = GROUPS[gi]
    roads, s, c = SHEETS[sheet]
    builds = 0
    for chain, n in ((SETTLEMENTS, s), (CITIES, c), (KNIGHTS, k)):
        for b, _, _ in chain[:n]:
            builds |= 1 << b
    jokers = sum(1 << GAME_JOKER[j] for j in range(len(KNIGHTS)) if used >> j & 1)
    return roads, builds, jokers


# ------------------------------------------------------------------ decisions

def sub_multisets(counts):
    """Every sub-multiset of ``counts`` (largest first)."""
    subs = itertools.product(*[range(c, -1, -1) for c in counts])
    return sorted(subs, key=lambda k: -sum(k))


def best_keep(w, counts, tol):
    """The sub-multiset of ``counts`` with the best keep value in ``w`` (keep values per
    level, one state), ties within ``tol`` keeping more dice."""
    best, keep = -np.inf, None
    for k in sub_multisets(counts):
        val = w[sum(k)][kr.POS[k], 0]
        if val > best + tol:
            best, keep = val, k
    return keep


def reroll_tables(f3):
    """(W2, W1): the keep values (lists per level) of the second and the first re-roll,
    from the values ``f3`` (462, 1) of the final rolls."""
    w2 = kr.keep_values(f3)
    return w2, kr.keep_values(kr.best_keep_values(w2))


def greedy_tables(bonus=1e-6):
    """Next-turn values of the one-turn greedy player: 0 plus ``bonus`` per unused joker."""
    v = np.zeros((TURNS + 2, len(GROUPS), N_SHEETS))
    for gi, (k, used) in enumerate(GROUPS):
        v[:TURNS + 1, gi] = bonus * (k - bin(used).count("1"))
    return v


class TablePolicy:
    """Decisions that are optimal with respect to value tables V (see module doc)."""

    def __init__(self, v):
        self.v = v
        self._ext = {}

    def v_ext(self, t):
        if t not in self._ext:
            self._ext[t] = dp.extend(self.v[t + 1])
        return self._ext[t]

    def turn_tables(self, t, gi, sheet):
        """(F3, W2, W1) for one state at turn t: final values (462,) and the keep values of
        the second and first re-roll (lists per level)."""
        f3 = dp.final_values(self.v_ext(t), dp.group_plan(gi), np.array([sheet]))
        return (f3[:, 0],) + reroll_tables(f3)

    @staticmethod
    def choose_keep(w, counts):
        """The sub-multiset of ``counts`` to keep (ties: keep more dice)."""
        return best_keep(w, counts, 1e-9)

    def choose_build(self, t, gi, sheet, counts):
        """The best move on the final roll: None (build nothing) or a dict with the build
        type, joker mask, target state, points and value."""
        v_ext = self.v_ext(t)
        plan = dp.group_plan(gi)
        best = {"value": X + v_ext[gi][sheet]}
        choice = None
        for c in plan.per_m[FULL_INDEX[tuple(counts)]]:
            typ, jm, tgi, kpts = plan.columns[c]
            for target, pts in sheet_successors(SHEETS[sheet], typ):
                ti = SHEET_INDEX[target]
                val = v_ext[tgi][ti] + pts + kpts
                if val > best["value"] + 1e-9:
                    best = {"value": val}
                    choice = {"type": typ, "jokers": jm, "group": tgi, "sheet": ti,
                              "points": pts + kpts, "value": val}
        return choice


# -------------------------------------------------------------- acting on a Game

def _items(gi, sheet, choice):
    """The game items of a build choice: (first part, second part), each in build order."""
    k = GROUPS[gi][0]
    roads0, s0, c0 = SHEETS[sheet]
    roads1, s1, c1 = SHEETS[choice["sheet"]]
    new_roads = [r for r in range(N_ROADS) if roads1 >> r & 1 and not roads0 >> r & 1]
    others = []
    if s1 > s0:
        others.append(N_ROADS + SETTLEMENTS[s0][0])
    if c1 > c0:
        others.append(N_ROADS + CITIES[c0][0])
    knights = [N_ROADS + KNIGHTS[k + i][0] for i in range(GROUPS[choice["group"]][0] - k)]
    typ = choice["type"]
    if typ in ("KK", "KR"):
        return knights[:1], knights[1:] + new_roads
    return new_roads + others + knights, []  # roads first: a site may need its road


def make_payment(game, steps, part1, part2, game_joker):
    """Make on ``game`` the conversions ``steps`` (("joker", joker, face, resource),
    ("trade", resource), and a ("part", ...) step where the first part is paid) with the
    builds ``part1`` and ``part2`` (game items) in their places; ``game_joker(joker)``: the
    game's index of a step's joker. Stops once the game is over (Island Two's race is won
    during a turn)."""
    split = next(i for i, step in enumerate(steps) if step[0] == "part")
    for convert, items in ((steps[:split], part1), (steps[split + 1:], part2)):
        for step in convert:
            if step[0] == "trade":
                game.trade(step[1])
                continue
            _, j, face, res = step
            die = next(i for i in range(6) if not game.spent >> i & 1 and game.faces[i] == face)
            game.joker(game_joker(j), die, res)
        for item in items:
            if game.over():
                return
            game.build(item)


def execute(game, gi, sheet, counts, choice):
    """Make the jokers, trades and builds of ``choice`` on ``game`` (in its build phase)."""
    k = GROUPS[gi][0]
    typ, jm = choice["type"], choice["jokers"]
    late = jm & (1 << k) if typ in ("KK", "KR") else 0
    first, second = TYPE_COSTS[typ]
    steps = pay_plan(counts, first, second, jm & ~late, late)
    assert steps is not None, "the solver's move cannot be paid"
    part1, part2 = _items(gi, sheet, choice)
    make_payment(game, steps, part1, part2, GAME_JOKER.__getitem__)


def reroll_mask(faces, keep):
    """Dice to roll again so that the kept faces are the multiset ``keep``."""
    left = list(keep)
    mask = 0
    for i, f in enumerate(faces):
        if left[f] > 0:
            left[f] -= 1
        else:
            mask |= 1 << i
    return mask


def roll_and_keep(game, policy, w1, w2):
    """Roll, keep as ``policy.choose_keep`` says with the keep values ``w1`` then ``w2``
    (re-rolling the rest when it keeps less than all), and stop: the final multiset."""
    faces = list(game.roll())
    for w in (w1, w2):
        keep = policy.choose_keep(w, counts_of(faces))
        if keep != counts_of(faces):
            faces = list(game.roll(reroll_mask(faces, keep)))
    if game.phase != BUILD:
        game.stop()
    return counts_of(faces)


def play_game(policy, seed, check=True, first_turn=1):
    """Play one game of Island One with ``policy`` and SeededDice(seed); the final score.
    With ``first_turn`` > 1 the empty sheet plays only turns first_turn..15 (for tests)."""
    game = Game(1, 1, SeededDice(seed))
    gi, sheet = 0, EMPTY_SHEET
    for t in range(first_turn, TURNS + 1):
        _, w2, w1 = policy.turn_tables(t, gi, sheet)
        counts = roll_and_keep(game, policy, w1, w2)
        choice = policy.choose_build(t, gi, sheet, counts)
        if choice is not None:
            execute(game, gi, sheet, counts, choice)
            gi, sheet = choice["group"], choice["sheet"]
        game.end_turn()
        if check:
            assert state_of(game.roads[0], game.builds[0], game.jokers[0]) == (gi, sheet)
            box = game.track[t - first_turn]
            assert box == (choice["points"] if choice else X), (box, choice)
    return game.score(0)
