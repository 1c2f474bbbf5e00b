"""Tests of the Island One solver on small cases, against the independent brute force
(``brute.py``) and the real rules core. About a minute in all: one full turn is solved
once (the last turn, for every state) and shared.

Run: python -m pytest tools/solver/test_solver.py
"""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import brute
import evaluate
import island1_dp as dp
import keep_recursion as kr
import occupancy
import policy
from island1_model import (EMPTY_SHEET, FULL, GROUPS, MULTISETS, N_SHEETS,
                           ROAD_MASKS, SHEET_INDEX, SHEETS, TURNS, multinomial_prob)


# ------------------------------------------------------------------- the model

def test_model_sizes():
    assert len(ROAD_MASKS) == 117
    assert len(MULTISETS) == 924 and len(FULL) == 462
    assert len(GROUPS) == 127
    assert abs(sum(multinomial_prob(MULTISETS[i]) for i in FULL) - 1) < 1e-12


def test_distribution_matches_enumeration():
    for n in range(4):
        for m, p in brute.throw_distribution(n).items():
            assert abs(multinomial_prob(m) - p) < 1e-15


def test_state_masks_round_trip():
    rng = np.random.default_rng(3)
    for _ in range(200):
        gi, sheet = int(rng.integers(len(GROUPS))), int(rng.integers(N_SHEETS))
        assert policy.state_of(*policy.masks_of(gi, sheet)) == (gi, sheet)


# ------------------------------------------------------------ the dice recursion

def test_reroll_stage_matches_brute_force():
    rng = np.random.default_rng(5)
    final = rng.uniform(-2, 40, size=len(FULL))
    fast = kr.reroll_value(final[:, None])[:, 0]
    slow = brute.roll_stage({MULTISETS[i]: final[j] for j, i in enumerate(FULL)})
    for j, i in enumerate(FULL):
        assert abs(fast[j] - slow[MULTISETS[i]]) < 1e-9


# -------------------------------------------------- the build step after the roll

def _monotone_next_values(seed):
    """Random next-turn values that, like true values, never drop when a joker is saved."""
    rng = np.random.default_rng(seed)
    base = rng.uniform(0, 50, size=(7, N_SHEETS))
    per_joker = rng.uniform(0, 5, size=(6, N_SHEETS))
    v = np.zeros((len(GROUPS), N_SHEETS))
    for gi, (k, used) in enumerate(GROUPS):
        v[gi] = base[k] + sum(per_joker[j] for j in range(k) if not used >> j & 1)
    return v


@pytest.mark.parametrize("k", range(7))
def test_final_values_match_action_search(k):
    """For every knight level (all jokers unused, and some used), random sheets and random
    rolls: the solver's best build value equals the exhaustive action search. Random
    next values make the choice of roads and jokers matter; KK and KR check the rule
    that a knight's joker pays only for builds after it."""
    v = _monotone_next_values(11 + k)
    v_ext = dp.extend(v)
    search = brute.after_roll_search(
        lambda r, b, j: v[policy.state_of(r, b, j)])
    rng = np.random.default_rng(k)
    for used in sorted({0, (1 << k) - 1 & 0b101}):
        gi = dp.group_index(k, used)
        for sheet in rng.choice(N_SHEETS, 5, replace=False):
            fast = dp.final_values(v_ext, dp.group_plan(gi), np.array([sheet]))[:, 0]
            masks = policy.masks_of(gi, int(sheet))
            for j in rng.choice(len(FULL), 25, replace=False):
                slow = search(*masks, MULTISETS[FULL[j]], False)
                assert abs(fast[j] - slow) < 1e-9, (GROUPS[gi], SHEETS[sheet], MULTISETS[FULL[j]])


# ----------------------------------------------------- whole turns, few of them

@pytest.fixture(scope="module")
def last_turn():
    """Tables with the last turn solved for every state (V[15]; V[16] = 0)."""
    return dp.solve(1, log=None)


def _state(k, used, roads, s, c):
    return dp.group_index(k, used), SHEET_INDEX[(roads, s, c)]


STATES = [
    _state(0, 0, 0, 0, 0),            # the empty sheet
    _state(1, 0, 0b11, 1, 1),         # K1 unused, R0 R1, S3, C7
    _state(2, 0b01, 0b111, 2, 0),     # K2, joker 1 used
    _state(3, 0, 0b11111111, 3, 1),   # roads to R7: S7 next
    _state(6, 0b010010, 0b1111111111111, 4, 2),
    _state(5, 0, 0xFFFF, 6, 4),       # everything but K6
]


@pytest.mark.parametrize("state", STATES)
def test_one_turn_matches_brute_force(last_turn, state):
    gi, sheet = state
    assert abs(last_turn[TURNS][gi, sheet]
               - brute.value(*policy.masks_of(gi, sheet), 1)) < 1e-9


def _turn_value(v, t, gi, sheet):
    """V_t of one state from the tables' V_{t+1}."""
    f3 = dp.final_values(dp.extend(v[t + 1]), dp.group_plan(gi), np.array([sheet]))
    return kr.turn_value(f3)[0]


@pytest.mark.parametrize("state", STATES[:3])
def test_two_turns_match_brute_force(last_turn, state):
    gi, sheet = state
    fast = _turn_value(last_turn, TURNS - 1, gi, sheet)
    assert abs(fast - brute.value(*policy.masks_of(gi, sheet), 2)) < 1e-9


def test_empty_sheet_last_turns_known_values(last_turn):
    # Regression figures of this solver (the brute force agrees, see above).
    assert abs(last_turn[TURNS][0, EMPTY_SHEET] - 2.625169363002016) < 1e-9
    assert abs(_turn_value(last_turn, TURNS - 1, 0, EMPTY_SHEET) - 5.405531263544059) < 1e-9


# ------------------------------------------------------ the policy on the real game

def test_optimal_last_turn_policy_on_the_game(last_turn):
    """Playing the last turn from the empty sheet on catan.game with SeededDice: every
    move is legal, the game's sheet and box match the solver's, and the mean score
    agrees with V_15 within 4 standard errors."""
    pol = policy.TablePolicy(last_turn)
    scores = [policy.play_game(pol, seed, first_turn=TURNS) for seed in range(1500)]
    mean, se = np.mean(scores), np.std(scores, ddof=1) / np.sqrt(len(scores))
    assert abs(mean - last_turn[TURNS][0, EMPTY_SHEET]) < 4 * se


def test_greedy_policy_plays_legal_games():
    pol = policy.TablePolicy(policy.greedy_tables())
    scores = [policy.play_game(pol, seed) for seed in range(20)]
    assert all(-30 <= s <= 132 for s in scores)


# ------------------------------------------- judging approximate tables exactly

def _evaluate_one(a_next, v_next, gi, sheet):
    a_ext, v_ext = dp.extend(a_next), dp.extend(v_next)
    return evaluate.evaluate_states(a_ext, v_ext, [gi], np.array([sheet]))[0]


@pytest.mark.parametrize("state", STATES[:3])
def test_evaluation_of_the_exact_tables_is_the_optimum(last_turn, state):
    gi, sheet = state
    got = _evaluate_one(last_turn[TURNS], last_turn[TURNS], gi, sheet)
    assert abs(got - _turn_value(last_turn, TURNS - 1, gi, sheet)) < 1e-9


def test_evaluation_of_noisy_tables_matches_playing_them(last_turn):
    """Tables with noise on V_15: the exact evaluation of the two last turns played by
    them is below the optimum, and agrees with games on catan.game within 4 SE."""
    rng = np.random.default_rng(5)
    believed = last_turn.copy()
    believed[TURNS] += rng.normal(0, 1.5, size=believed[TURNS].shape)
    exact = _evaluate_one(believed[TURNS], last_turn[TURNS], 0, EMPTY_SHEET)
    best = _turn_value(last_turn, TURNS - 1, 0, EMPTY_SHEET)
    assert exact < best - 0.05
    pol = policy.TablePolicy(believed)
    scores = [policy.play_game(pol, seed, first_turn=TURNS - 1) for seed in range(1500)]
    mean, se = np.mean(scores), np.std(scores, ddof=1) / np.sqrt(len(scores))
    assert abs(mean - exact) < 4 * se, (mean, se, exact)


def test_occupancy_counts_every_game_and_decision():
    games = 40
    visits, scores = occupancy.simulate(policy.greedy_tables(), games, seed=2)
    assert len(scores) == games and all(-30 <= s <= 132 for s in scores)
    for t in range(1, TURNS + 1):
        assert sum(n for (tt, _, _), n in visits.items() if tt == t) == games
    w = occupancy.decision_weights(visits, games)
    assert w.shape == (TURNS - 1, len(GROUPS), N_SHEETS)
    assert w[0][0, EMPTY_SHEET] == 1.0  # turn 1 starts there in every game
    assert w[0][0, SHEET_INDEX[(0b1, 0, 0)]] == 1.0  # one road away from it
    assert w[0][0, SHEET_INDEX[(0b11, 1, 0)]] == 0.0  # three builds away
