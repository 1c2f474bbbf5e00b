"""Checks on the computer players shared by the test scripts (mpt_players.py) and the host
tests (test_players.py, test_coach.py, which put host_tests/mp on their path); plain
MicroPython and CPython: whether the game allows an action (``why_not``, asked of the
game's own ``why_*`` methods), and work ahead cut after some slices (``cut_after``)."""


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


def cut_after(slices):
    """An ``until`` for ``players.think``: true after that many slices."""
    n = [0]

    def until():
        n[0] += 1
        return n[0] > slices

    return until
