"""Tests of the Island Two solver against the independent brute force (``brute2.py``) on
small sub-games, and of its model against the rules core. Under a minute.

Run: python -m pytest tools/solver/test_island2.py
"""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import brute2
import island2_dp as dp
from island1_model import FULL, MULTISETS
from island2_model import (DESERTS, EMPTY_GROUP, EMPTY_SHEET, GROUP_INDEX,
                           GROUPS, N_GROUPS, N_SHEETS, ROAD_MASKS, SHEET_INDEX, SHEETS,
                           SINGLES, group_level, masks_of, state_of,
                           unused_jokers)

ALL_ROADS = (1 << 17) - 1


def test_model_sizes():
    assert len(ROAD_MASKS) == 77
    assert N_SHEETS == 1353 and N_GROUPS == 2430
    assert int((~dp.WON).sum()) == 1901710
    assert SHEETS[EMPTY_SHEET] == (0, 0, 0) and GROUPS[EMPTY_GROUP] == ((0,) * 5, 0, 0)


def test_states_round_trip_and_agree_with_the_game():
    """masks_of gives a sheet the game accepts (every site on its road, jokers only of
    built knights), with the game's VP; state_of maps it back; the deserts are alike."""
    from catan.game import Game
    rng = np.random.default_rng(1)
    for _ in range(300):
        gi, si = int(rng.integers(N_GROUPS)), int(rng.integers(N_SHEETS))
        roads, builds, jokers = masks_of(gi, si)
        assert state_of(roads, builds, jokers) == (gi, si)
        g = Game(2, 1, None)
        g.roads[0], g.builds[0], g.jokers[0] = roads, builds, jokers
        for item in range(g.island.n_items):
            if g.is_built(item):
                assert all(g.is_built(n) for n in g.island.needs(item))
        for j in range(7):
            assert not g.joker_used(j) or g.joker_unlocked(j)
        solo_vp = brute2.vp(roads, builds)
        assert (solo_vp >= 10) == bool(dp.WON[gi, si])
    # The two deserts: one knight on either is the same state.
    a = state_of(0, 1 << DESERTS[0][0], 0)
    b = state_of(0, 1 << DESERTS[1][1], 0)
    assert a == b and GROUPS[a[0]] == ((0,) * 5, 0, 1)


# -------------------------------------------------- the build step after the roll

def _monotone_values(seed):
    """Random values of every state that, like true values, never drop when a joker is
    saved (the solver uses minimal joker sets), and treat the deserts alike."""
    rng = np.random.default_rng(seed)
    single = rng.uniform(-3, 3, size=(5, 3, N_SHEETS + 1))
    single[:, 1] = single[:, 2] + rng.uniform(0, 2, size=(5, N_SHEETS + 1))
    desert = rng.uniform(-3, 3, size=(4, N_SHEETS + 1))
    desert[2] = desert[3] + rng.uniform(0, 2, size=N_SHEETS + 1)
    u = np.empty((N_GROUPS, N_SHEETS + 1))
    for gi, (ks, d1, d2) in enumerate(GROUPS):
        u[gi] = sum(single[i, k] for i, k in enumerate(ks)) + desert[d1] + desert[d2]
    u[:, N_SHEETS] = -np.inf
    return u


def _sample_groups():
    rng = np.random.default_rng(7)
    picked = [EMPTY_GROUP,
              GROUP_INDEX[((1, 0, 0, 1, 1), 1, 1)],  # K4 K5: KR's late joker pays a road
              GROUP_INDEX[((0, 1, 2, 0, 0), 0, 1)],  # a desert half built: KK, KR unlock "?"
              GROUP_INDEX[((1, 1, 1, 1, 1), 2, 2)],  # every joker ready
              GROUP_INDEX[((2, 2, 0, 2, 1), 1, 3)]]
    picked += [int(g) for g in rng.choice(N_GROUPS, 5, replace=False)]
    return picked


@pytest.mark.parametrize("gi", _sample_groups())
def test_build_values_match_action_search(gi):
    """For a group, random sheets and random final rolls: the solver's best build equals
    the exhaustive search over builds, jokers (any die, any allowed resource) and gold
    trades on the game's masks. Random values make the choice of roads, knights and
    jokers matter; KK and KR check that a new knight's joker pays only for what follows."""
    u = _monotone_values(gi)
    search = brute2.after_roll_search(lambda r, b, j: u[state_of(r, b, j)])
    rng = np.random.default_rng(gi)
    plan = dp.group_plan(gi)
    jokers = bin(unused_jokers(GROUPS[gi])).count("1")  # the search slows with each
    rolls, n_sheets = (30, 4) if jokers <= 3 else (4, 2) if jokers <= 5 else (3, 1)
    for si in rng.choice(N_SHEETS, n_sheets, replace=False):
        sheets = np.array([si])
        fast = dp.build_values(u, plan, sheets, dp.external_values(u, plan, sheets))[:, 0]
        masks = masks_of(gi, int(si))
        for j in rng.choice(len(FULL), rolls, replace=False):
            slow = search(*masks, MULTISETS[FULL[j]], False)
            assert fast[j] == slow or abs(fast[j] - slow) < 1e-9, (
                GROUPS[gi], SHEETS[si], MULTISETS[FULL[j]], fast[j], slow)


# ------------------------------------------------------------ the fixed point

def test_fixed_point_matches_brute_force():
    """Random best-build values per roll (some rolls build nothing): Newton's root of
    x = -1 + G(x) equals the brute force's bisection and secant on its own dice tables."""
    rng = np.random.default_rng(3)
    build = rng.uniform(-8, 0, size=(len(FULL), 6))
    build[rng.uniform(size=build.shape) < 0.4] = -np.inf
    build[:, 5] = -np.inf
    build[0, 5] = -1.0  # only one roll builds: a long wait
    fast, _ = dp.solve_states(build)
    order = [brute2.FINAL_INDEX[MULTISETS[i]] for i in FULL]
    for c in range(build.shape[1]):
        slow_in = np.empty(len(FULL))
        slow_in[order] = build[:, c]
        slow = brute2.fixed_point(slow_in)
        assert abs(fast[c] - slow) < 1e-9, (c, fast[c], slow)


# ------------------------------------------------- whole sub-games, from scratch

def _state(ks, d1, d2, roads, s, c):
    return GROUP_INDEX[(ks, d1, d2)], SHEET_INDEX[(roads, s, c)]


SUBGAMES = [
    _state((1, 0, 0, 0, 0), 0, 1, ALL_ROADS, 3, 2),      # 9 VP, two knights: one build wins
    _state((0, 0, 0, 0, 0), 0, 2, ALL_ROADS, 2, 2),      # 8 VP, desert joker ready
    _state((2, 0, 0, 1, 0), 0, 0, ALL_ROADS, 2, 2),      # 8 VP, K4's lumber joker
    _state((1, 1, 0, 0, 0), 0, 0, ALL_ROADS & ~(1 << 11), 1, 3),  # 9 VP: R11 for C4?
]


@pytest.mark.parametrize("state", SUBGAMES)
def test_subgame_values_match_brute_force(state):
    """The expected turns to 10 VP from a state near the end, solved lazily by the fast
    solver (every state it needs, from scratch) and by the brute force on the game's
    masks: equal to 1e-9."""
    gi, si = state
    fast = dp.solve_lazily(dp.empty_table(), gi, si)
    slow = brute2.value(*masks_of(gi, si))
    assert abs(fast - slow) < 1e-9, (GROUPS[gi], SHEETS[si], fast, slow)
    assert -fast >= 1.0


def test_group_levels_order_the_solve():
    """Every build from a group goes to a group of a higher level, or stays in the group
    and raises the sheet's level: the order the solve relies on."""
    rng = np.random.default_rng(4)
    for gi in rng.choice(N_GROUPS, 40, replace=False):
        si = int(rng.integers(N_SHEETS))
        for g2, s2 in dp.successors(int(gi), si):
            assert (group_level(GROUPS[g2]) > group_level(GROUPS[gi])
                    or (g2 == gi and dp.SHEET_LEVEL[s2] > dp.SHEET_LEVEL[si]))
        plan = dp.group_plan(int(gi))
        for c in plan.internal:
            assert plan.columns[c][0] in ("R", "RR", "RRR", "S", "SR", "C")


assert len(SINGLES) == 5


# ------------------------------------------------------ the policy on the real game

@pytest.fixture(scope="module")
def top_levels():
    """U solved for every group of level 14 and more (all knights built, few jokers left)."""
    return dp.solve(np.nonzero(dp.GROUP_LEVEL >= 14)[0], log=None)


def test_optimal_policy_on_the_game(top_levels):
    """Playing the race on catan.game (SeededDice) from a sheet with every knight built,
    K1..K5's jokers used and both "?" jokers left: every move is legal, the game's state
    after each build is the one the solver predicted, the race ends when the game says
    so, and the mean number of turns agrees with the solver's value within 4 SE."""
    import policy2
    gi = GROUP_INDEX[((2, 2, 2, 2, 2), 2, 2)]
    assert not np.isnan(top_levels[gi]).any()
    pol = policy2.TablePolicy2(top_levels)
    start = masks_of(gi, EMPTY_SHEET)
    turns = [policy2.play_game(pol, seed, start=start) for seed in range(200)]
    mean, se = np.mean(turns), np.std(turns, ddof=1) / np.sqrt(len(turns))
    assert abs(mean + top_levels[gi, EMPTY_SHEET]) < 4 * se, (mean, se)


# ------------------------------------------- judging an approximate table exactly

def _evaluate_top(top_levels, believed):
    import evaluate2 as ev
    ev._B = dp.extend(believed)
    ev._G = np.full((N_GROUPS, N_SHEETS + 1), np.nan)
    ev._G[:, :N_SHEETS][dp.WON] = 0.0
    ev._G[:, N_SHEETS] = 0.0
    for level in range(16, 13, -1):
        ev._chunk(np.nonzero(dp.GROUP_LEVEL == level)[0])
    return ev._G[:, :N_SHEETS]


def test_evaluation_of_the_exact_table_is_the_optimum(top_levels):
    gs = np.nonzero(dp.GROUP_LEVEL >= 14)[0]
    got = _evaluate_top(top_levels, np.nan_to_num(top_levels, nan=-50.0))
    assert np.nanmax(np.abs(got[gs] - top_levels[gs])) < 1e-9


def test_evaluation_of_a_noisy_table_matches_playing_it(top_levels):
    """Noise on the values of the top groups: playing by them is exactly evaluated slower
    than the optimum, and games on catan.game played by them agree within 4 SE."""
    import policy2
    rng = np.random.default_rng(5)
    believed = np.nan_to_num(top_levels, nan=-50.0)
    believed = np.where(dp.WON, 0.0, believed + rng.normal(0, 0.08, size=believed.shape))
    got = _evaluate_top(top_levels, believed)
    gi = GROUP_INDEX[((2, 2, 2, 2, 2), 2, 2)]
    exact, best = -got[gi, EMPTY_SHEET], -top_levels[gi, EMPTY_SHEET]
    assert best + 0.005 < exact < best + 1.0, (exact, best)
    pol = policy2.TablePolicy2(believed)
    turns = [policy2.play_game(pol, seed, start=masks_of(gi, EMPTY_SHEET), check=False)
             for seed in range(300)]
    mean, se = np.mean(turns), np.std(turns, ddof=1) / np.sqrt(len(turns))
    assert abs(mean - exact) < 4 * se, (mean, se, exact)
