"""Checks on the computer players shared by the test scripts (mpt_players.py) and the host
tests (test_players.py, test_coach.py, which put host_tests/mp on their path); plain
MicroPython and CPython: whether the game allows an action (``why_not``, asked of the
game's own ``why_*`` methods), every choice a player has now (``alternatives``), and work ahead
cut after some slices (``cut_after``)."""

from catan.game import BUILD, REROLL, ROLL


def why_not(game, action):
    """The game's reason to refuse ``action`` (an action tuple as ``catan.players`` makes
    them: ("roll", mask), ("stop",), ("joker", j, die, resource), ("trade", resource),
    ("build", item), ("end",)); None when it is legal."""
    op = action[0]
    if op == "roll":
        return game.why_roll(action[1])
    if op == "stop":
        return game.why_stop()
    if op == "joker":
        return game.why_joker(action[1], action[2], action[3])
    if op == "trade":
        return game.why_trade(action[1])
    if op == "build":
        return game.why_build(action[1])
    if op == "end":
        return game.why_end()
    return "unknown action %r" % (op,)


def alternatives(game):
    """Every choice but a joker or trade a player may set up now (what the coach's hint is
    measured against): the roll; every keep (any dice re-rolled) and stopping; every build and
    the end of the turn. Only the legal ones (``why_not``)."""
    phase = game.phase
    if phase == ROLL:
        out = [("roll", None)]
    elif phase == REROLL:
        out = [("stop",)] + [("roll", m) for m in range(1, 1 << game.dice_count())]
    elif phase == BUILD:
        out = [("build", item) for item in game.buildable()] + [("end",)]
    else:
        out = []
    return [a for a in out if why_not(game, a) is None]


def cut_after(slices):
    """An ``until`` for ``players.think``: true after that many slices."""
    n = [0]

    def until():
        n[0] += 1
        return n[0] > slices

    return until


def exact_chance(deficit, n, rolls, memo={}):
    """The chance ``reroll._chance`` works out, another way: every outcome of the ``n`` dice as
    counts per face (five resources and gold), with its multinomial chance; the dice that pay
    what is missing are kept, the others thrown again. ``deficit`` a sorted tuple (the chance is
    the same whichever resources are missing)."""
    need = sum(deficit)
    if not need:
        return 1.0
    if need > n or rolls <= 0:
        return 0.0
    key = (deficit, n, rolls)
    if key not in memo:
        total = 0.0
        for counts in _compositions(n, 6):
            ways = _factorial(n)
            for c in counts:
                ways //= _factorial(c)
            rest = tuple(sorted(max(0, deficit[r] - counts[r]) for r in range(5)))
            total += ways / 6 ** n * exact_chance(rest, n - (need - sum(rest)), rolls - 1)
        memo[key] = total
    return memo[key]


def _compositions(n, parts):
    # every way of writing n as ``parts`` counts of 0 or more, in order
    if parts == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in _compositions(n - first, parts - 1):
            yield (first,) + rest


def _factorial(n):
    out = 1
    for k in range(2, n + 1):
        out *= k
    return out
