"""Computer players for both islands, one action at a time.

    action = next_action(game, level, seed)   # ("roll", mask), ("stop",), ("joker", j, die,
    apply(game, action)                       #  resource), ("trade", resource), ("build",
                                              #  item), ("end",); None when the game is over

Levels: EASY (greedy: builds the most points the dice allow, re-rolls toward the best
single build, no jokers), MEDIUM (one-turn planning: re-rolls toward the build set with
the best value x chance, uses jokers and gold trades) and HARD (MEDIUM's planner with a
better value: on Island One the exact solver's values through a compact table
(``coach_table.bin``); on Island Two the solo race's expected turns to 10 VP, from the
exact solver through ``race_table.bin``, with the awards the other players hold as VP to
make up).

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
rules allow the same turn): MEDIUM and HARD value each (``Context.pays``).

Here: the levels, the next action, and the work ahead in a front end's idle time
(``think``). The modules of the package, by what each holds (each imports only those
above it; a module costs the device about 300 bytes of heap of its own, so there are few):

    values   what a sheet is worth on each island (Island One: the value table,
             coach_table.bin beside it)
    plans    the plans a sheet allows in one turn, what they cost, how a seat pays for one
             (``Context``: the decision of the player whose turn it is), the best one now,
             the actions that carry one out
    reroll   when to re-roll: the chance of completing a plan, the keep tables of a turn
             over the multisets of its dice, each level's choice
    coach    the coach, loaded when first asked (``from catan.players import coach``)

The levels are constants in each module too (``_HARD = const(2)``: no name to look up).
"""

from catan.game import BUILD, OVER, REROLL, ROLL, IllegalAction
from catan.players import reroll
from catan.players.plans import Context, plan_actions, plans_work
from catan.players.reroll import drop_work, finish_work, needs_tables, tables_ready, turn_key, reroll_mask
from catan.players.reroll import reserve  # noqa: F401 (the API)
from catan.players.values import table_work

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


# ----------------------------------------------------------------- the API

def next_action(game, level, seed=0):
    """The next action of the player whose turn it is, as a tuple (see module doc)."""
    level = level_of(level)
    if game.phase == OVER:
        return None
    if game.phase == ROLL:
        return ("roll", (1 << game.dice_count()) - 1)
    ctx = Context(game, level, seed)
    if game.phase == REROLL:
        mask = reroll_mask(ctx)
        return ("roll", mask) if mask else ("stop",)
    return next(plan_actions(game, built_now(ctx)[0]))


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


# ----------------------------------------------------------- the work ahead

# The work ahead, in a front end's idle time (``think``), on the next decision: the keep tables
# of a turn (``reroll``), the values of the plans the dice pay for in the build phase, and,
# while a computer builds, the next seat's tables in the state its plan leads to. Each is a
# generator that yields between short steps, run in slices until the front end needs the
# time back; a decision asked before the work is done finishes it (``reroll.turn_tables``,
# ``built_now``). What is worked out is kept for the state it belongs to until ``forget``.

def forget():
    """Drop every table and plan worked out so far (the next decisions start afresh)."""
    reroll._TURN[0] = _NOW[0] = _AHEAD[0] = _AHEAD[1] = None
    drop_work(reroll._WORK)
    drop_work(_NOW_WORK)


_NOW = [None, None, None]  # the key of a state in the build phase, its best plan, by item
_NOW_WORK = [None, None, None]  # the key, generator and game of the plans being valued (apart
# from ``_WORK``: a computer's build steps do not stop the next seat's tables, see ``_ahead``)


def _now_key(g, level, seed):
    return turn_key(g, level) + (0 if level == HARD else seed, g.phase, g.spent,
                                  bytes(g.faces))


def _now_ready(game, level, seed, ctx=None):
    # The generator of the work left for the best plan now (None: nothing left).
    # (As ``reroll.tables_ready``: the work in hand goes on for the same key from a game still in it.)
    key = _now_key(game, level, seed)
    if _NOW[0] == key:
        return None
    w = _NOW_WORK
    if w[0] != key or w[2] is not game and _now_key(w[2], level, seed) != key:
        drop_work(w)
        w[1] = _now(ctx or Context(game, level, seed), key)
        w[0] = key
        w[2] = game
    return w[1]


def _now(ctx, key):
    if ctx.one and ctx.level == HARD:
        yield from table_work()  # (opened once)
    g = ctx.game
    counts = g.unspent()
    free = 0
    for c in counts:
        free += c
    plans = []
    yield from plans_work(ctx.isl, ctx.roads, ctx.builds, free, ctx.level == EASY, plans)
    yield
    by_item = {} if ctx.level == HARD else None
    yield from ctx.now_work(counts, plans, by_item)
    _NOW[0] = key
    _NOW[1] = ctx.best
    _NOW[2] = by_item


def built_now(ctx):
    """(best, values by item) in the build phase: ``Context._best_now``'s (value, items,
    trades, jokers) over every plan the free dice pay for, and (HARD) the best value of a
    plan with each item; worked out once a state (``think`` may have done it)."""
    finish_work(_now_ready(ctx.game, ctx.level, ctx.seed, ctx), _NOW_WORK)
    return _NOW[1], _NOW[2]


_AHEAD = [None, None]  # a computer's build-phase state (its ``_now_key`` and the next seat's
# level, seed and coach), the work from it


def _ahead(game, level, seed, then):
    # The work left on the tables of the next seat (``then``: its level, seed and whether
    # the coach wants W0) in the state that the plan of the computer now building leads to
    # (None: nothing left). Its build steps and its end take a step pause each, in which
    # the next seat's tables get made; if the turn ends otherwise, their key does not match
    # and they are made again.
    key = _now_key(game, level, seed) + then
    if _AHEAD[0] != key:
        _AHEAD[0] = key
        _AHEAD[1] = _ahead_work(game, _NOW[1], then)
    return _AHEAD[1]


def _ahead_work(game, best, then):
    # (The tables' slices through ``reroll.step``: other work may take the arrays between.)
    g = yield from _after_plan(game, best)
    level, seed, coach = then
    if g is not None and needs_tables(g, level):
        ctx = Context(g, level, seed)
        while reroll.step(g, level, coach, ctx):
            yield


def _after_plan(game, best):
    # A copy of ``game`` (``Game.copy``: the game its save would load) with ``best``'s plan
    # carried out and the turn ended (None if the plan cannot be carried out so). A
    # generator, yielding between the actions.
    g = game.copy()
    yield
    try:
        for action in plan_actions(g, best):
            g.perform(action)
            yield
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
        if not _run(_ahead(game, level, seed, then), until, None):
            return False
        _AHEAD[1] = None  # the copy's work is done: let it go (its key stays, not to redo it)
        return True
    if game.phase != OVER and needs_tables(game, level):
        return _run(tables_ready(game, level, coach and game.phase == ROLL), until, reroll._WORK)
    return True


def _run(gen, until, work):
    # ``gen``'s slices until ``until()``; True (and the slot ``work``, if any, let go) once it
    # is done.
    if gen is not None:
        for _ in gen:
            if until():
                return False
        if work is not None:
            drop_work(work)
    return True
