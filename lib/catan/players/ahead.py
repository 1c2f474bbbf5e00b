"""The work ahead, in a front end's idle time (``think``), on the next decision: the keep tables
of a turn (``reroll``), the values of the plans the dice pay for in the build phase, and,
while a computer builds, the next seat's tables in the state its plan leads to. Each is a
generator that yields between short steps, run in slices until the front end needs the
time back; a decision asked before the work is done finishes it (``reroll._turn_tables``,
``built_now``). What is worked out is kept for the state it belongs to until ``forget``.
"""

from catan.game import BUILD, OVER, ROLL, IllegalAction
from catan.players import EASY, HARD, level_of, reroll
from catan.players.plans import _Context, _plan_actions, _plans_work
from catan.players.reroll import _finish, _needs_tables, _ready, _turn_key
from catan.players.values import _table_work


def forget():
    """Drop every table and plan worked out so far (the next decisions start afresh)."""
    reroll._TURN[0] = _NOW[0] = _AHEAD[0] = _AHEAD[1] = None
    reroll._WORK[0] = reroll._WORK[1] = _NOW_WORK[0] = _NOW_WORK[1] = None


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
    if ctx.one and ctx.level == HARD:
        yield from _table_work()  # (opened once)
    g = ctx.game
    counts = g.unspent()
    free = 0
    for c in counts:
        free += c
    plans = []
    yield from _plans_work(ctx.isl, ctx.roads, ctx.builds, free, ctx.level == EASY, plans)
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
            yield
            yield from gen


def _after_plan(game, best):
    # A copy of ``game`` (``Game.copy``: the game its save would load) with ``best``'s plan
    # carried out and the turn ended (None if the plan cannot be carried out so). A
    # generator, yielding between the actions.
    g = game.copy()
    yield
    try:
        for action in _plan_actions(g, best):
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
        if not _run(_ahead(game, level, seed, then), until, reroll._WORK):
            return False
        _AHEAD[1] = None  # the copy's work is done: let it go (its key stays, not to redo it)
        return True
    if game.phase != OVER and _needs_tables(game, level):
        return _run(_ready(game, level, coach and game.phase == ROLL), until, reroll._WORK)
    return True


def _run(gen, until, work):
    # ``gen``'s slices until ``until()``; True (and ``work`` let go) once it is done.
    if gen is not None:
        for _ in gen:
            if until():
                return False
        work[0] = work[1] = None
    return True
