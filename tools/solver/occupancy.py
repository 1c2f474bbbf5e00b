"""Where a table policy goes: how often each state is met, and how often each value of
the next turn's table is looked at, by a fast simulation on the solver's model.

    visits, scores = occupancy.simulate(V, games=20000, seed=1)
    w = occupancy.decision_weights(visits, games)   # (turns 2..15, groups, sheets)

The games are played on multisets of dice with ``random.Random(seed)`` (not on
``catan.game``: ``simulate.py`` does that, with every move checked), so 20,000 games take
under a minute. ``decision_weights`` counts, for each value V_t(g, s), how many turn
decisions per game compare it: the state before turn t - 1 itself (build nothing) and
every state one build away from it. A compact value table fitted with these weights is
accurate where the choices are made (see ``tools/make_coach_table.py``).
"""

import random

import numpy as np

import island1_dp as dp
from island1_model import EMPTY_SHEET, N_DICE, N_FACES, N_SHEETS, TURNS, X
from policy import TablePolicy


def _roll(rng, counts, n):
    for _ in range(n):
        counts[rng.randrange(N_FACES)] += 1
    return counts


def simulate(v, games, seed=1):
    """({(turn, group, sheet): times met}, [final scores]) of ``games`` games played by
    the policy that is optimal for tables ``v``."""
    pol = TablePolicy(v)
    rng = random.Random(seed)
    tables, keeps, builds = {}, {}, {}
    visits, scores = {}, []
    for _ in range(games):
        gi, sheet, score = 0, EMPTY_SHEET, 0
        for t in range(1, TURNS + 1):
            state = (t, gi, sheet)
            visits[state] = visits.get(state, 0) + 1
            if state not in tables:
                tables[state] = pol.turn_tables(t, gi, sheet)
            _, w2, w1 = tables[state]
            counts = _roll(rng, [0] * N_FACES, N_DICE)
            for stage, w in ((1, w1), (2, w2)):
                key = (state, stage, tuple(counts))
                if key not in keeps:
                    keeps[key] = pol.choose_keep(w, counts)
                keep = keeps[key]
                counts = _roll(rng, list(keep), N_DICE - sum(keep))
            key = (state, tuple(counts))
            if key not in builds:
                builds[key] = pol.choose_build(t, gi, sheet, counts)
            choice = builds[key]
            if choice is None:
                score += X
            else:
                score += choice["points"]
                gi, sheet = choice["group"], choice["sheet"]
        scores.append(score)
    return visits, scores


def decision_weights(visits, games):
    """(TURNS - 1, groups, sheets): for V_t, t = 2..TURNS, the times per game that a
    decision of turn t - 1 compares it."""
    w = np.zeros((TURNS - 1, len(dp.GROUPS), N_SHEETS))
    for (t, gi, sheet), n in visits.items():
        if t == TURNS:
            continue  # the last turn looks at V_16 = 0
        row = w[t - 1]  # V_{t+1}
        row[gi, sheet] += n
        for typ, _jm, target, _pts in dp.group_plan(gi).columns:
            to = dp.SUCCESSORS[typ][0][sheet]
            row[target, np.unique(to[to < N_SHEETS])] += n
    return w / games
