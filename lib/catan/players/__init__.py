"""Computer players for both islands, one action at a time.

    action = next_action(game, level, seed)   # ("roll", mask), ("stop",), ("joker", j, die,
    apply(game, action)                       #  resource), ("trade", resource), ("build",
                                              #  item), ("end",); None when the game is over

Levels: EASY (greedy: builds the most points the dice allow, re-rolls toward the best
single build, no jokers), MEDIUM (one-turn planning: re-rolls toward the build set with
the best value x chance, uses jokers and gold trades) and HARD (MEDIUM's planner with a
better value: on Island One the exact solver's values through a compact table
(``coach_table.bin``); on Island Two a race value that counts the other players:
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

The package, by what each module holds (each imports only those above it; a module costs
the device about 300 bytes of heap of its own, so there are few):

    values   what a sheet is worth on each island (Island One: the value table,
             coach_table.bin beside it)
    plans    the plans a sheet allows in one turn, what they cost, how a seat pays for one
             (``_Context``: the decision of the player whose turn it is), the best one now,
             the actions that carry one out
    reroll   when to re-roll: the chance of completing a plan, the keep tables of a turn
             over the multisets of its dice, each level's choice
    ahead    the work ahead in idle time (``think``) and what it keeps, by state
    coach    the coach, loaded when first asked (``from catan.players import coach``)
"""

# The levels first: the modules of the package import them from here.
EASY = 0
MEDIUM = 1
HARD = 2
LEVELS = ("easy", "medium", "hard")


def level_of(name):
    """The level number of "easy", "medium", "hard" (or of 0, 1, 2)."""
    if isinstance(name, int):
        if 0 <= name < 3:
            return name
    elif name in LEVELS:
        return LEVELS.index(name)
    raise ValueError("level must be easy, medium or hard")


from catan.game import OVER, REROLL, ROLL
from catan.players.ahead import built_now, forget, think  # noqa: F401 (the API)
from catan.players.plans import _Context, _plan_actions
from catan.players.reroll import reroll_mask, reserve  # noqa: F401 (the API)


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
        mask = reroll_mask(ctx)
        return ("roll", mask) if mask else ("stop",)
    return next(_plan_actions(game, built_now(ctx)[0]))


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
