"""The coach: what the best computer player would do now, and what choices are worth.

    action, best = hint(game)   # the advice and its value
    ev(game, action)            # the value of any legal action (None if unknown)
    unit(game)                  # "pts" (Island One) or "turns to 10 VP" (Island Two)

Island One values are *expected final scores* of the player whose turn it is: the points
on the track, plus this turn's, plus the rest of the game. This turn is worked out exactly,
by an expectimax over the dice multisets (``reroll``, the keep tables); the turns after it
come from a compact fit of the exact solver's values (``coach_table.bin``, 24 KB, read
from flash a row at a time; most accurate where good play goes). Playing by these values
scores 94.35 on average, 99.5 % of the optimum (94.79; ``tools/solver/evaluate.py``
computes it exactly).
On Island Two the values are the expected number of turns to reach 10 VP, counting the
turns played (this turn worked out the same way, the turns after it from a compact fit of
the exact solver's values of the solo race, ``race.py``). In a game with other players the
number is still the solo race's from the player's own sheet: the race against the clock, not
against the others; an award another player holds counts as 2 VP to make up (``values``).
The hard player plays by these values, so the coach's choice is never valued worse than
another.

Everything is computed from the game state alone: nothing is kept between hints except
the players' tables of the current turn, which a front end can have worked out in
its idle time already (``players.think``).
"""

from catan import const
from catan.game import BUILD, OVER, REROLL, ROLL, IllegalAction
from catan.players import built_now, next_action
from catan.players.plans import Context
from catan.players.reroll import key_index, dice_multisets, turn_tables

_HARD = const(2)  # players.HARD


def unit(game):
    if game.island.number == 1:
        return "pts"
    return "turns to 10 VP"


def hint(game):
    """``(action, value)`` for the player whose turn it is: what the hard player would do
    now, and what it is worth (``ev``)."""
    if game.phase == OVER:
        return None, None
    action = next_action(game, _HARD, game.player)
    if action[0] in ("joker", "trade"):  # the coach's own step: worth the best plan it serves
        return action, _value(game, _done(game) + _plan_value(Context(game, _HARD, game.player),
                                                                None))
    return action, ev(game, action)


def ev(game, action):
    """The expected final score (Island One) or number of turns to 10 VP (Island Two) if
    ``action`` is taken now and the hard player's policy plays the rest of the game; None
    where the coach has no value."""
    if game.phase == OVER:
        return None
    return _value(game, _ev(game, action))


def _value(game, v):
    # ``_ev``'s value as ``ev`` gives it
    if v is None or game.island.number == 1:
        return v
    return game.turns[game.player] + 1 - v  # this turn, and minus the turns after it


def _done(game):
    # what the turns played and this turn's builds so far are worth (Island One's points)
    return game.score(game.player) + game.points if game.island.number == 1 else 0


def _ev(game, action):
    ctx = Context(game, _HARD, game.player)
    done = _done(game)
    op = action[0]
    if game.phase == ROLL:
        return done + _before_roll(ctx) if op == "roll" else None
    if game.phase == REROLL:
        if op == "roll" and action[1]:
            return done + _keep_value(ctx, action[1])
        if op == "stop":
            return done + _keep_value(ctx, 0, final=True)
        return None
    if game.phase == BUILD:
        if op == "end":
            return done + ctx.nothing()
        if op == "build":
            return done + _plan_value(ctx, action[1])
        if op in ("joker", "trade"):
            # the best plan the dice pay for once it is done, whatever the player meant it
            # for: a joker or trade that serves no build is charged like any other choice
            g = game.copy()
            try:
                g.perform(action)
            except IllegalAction:
                return None
            return done + _plan_value(Context(g, _HARD, g.player), None)
    return None


def _tables(ctx):
    keys = dice_multisets()[0]
    w1, w2 = turn_tables(ctx)
    return keys, w1, w2


def _kept_index(ctx, keys, reroll):
    g = ctx.game
    k = 0
    for i in range(g.dice_count()):  # (no die is spent before the build phase)
        if not reroll >> i & 1:
            k += 1 << 3 * g.faces[i]
    return key_index(keys, k)


def _keep_value(ctx, reroll, final=False):
    # The value of keeping every die not in ``reroll`` and rolling the rest (or, ``final``,
    # of building with the dice as they are).
    keys, w1, w2 = _tables(ctx)
    i = _kept_index(ctx, keys, reroll)
    if final:
        return w2[i]  # full multisets of w2 hold the value of the best build
    return (w1 if ctx.game.rolls_left() >= 2 else w2)[i]


def _before_roll(ctx):
    # Expected value of the first roll: the best keep of each outcome, averaged. Before a seat's
    # first roll on Island One, every game and seat has the same (W0 of an empty sheet: the
    # tables' work, 0.53 s on the stock Pico, when the coach is asked the moment a game starts;
    # test_coach checks it against them).
    g = ctx.game
    if ctx.one and not g.turns[g.player]:
        return 94.81034088134766
    return turn_tables(ctx, first=True)[2][0]


def _plan_value(ctx, item):
    # The best plan the free dice pay for now (containing ``item`` if given; else ending the
    # turn counts too: a plan may be worth less than what the dice are kept for).
    by_item = built_now(ctx)[1]
    if item is not None:
        return by_item.get(item, ctx.nothing())
    best = ctx.nothing()
    for v in by_item.values():
        if v > best:
            best = v
    return best
