"""Play the app with keys, as a person with a four-button board would.

``keys_for(app, action)`` gives the keys (x, y, a) that make the turn screen carry out
``action`` (in catan.players' tuple form): move the cursor through the legal targets, mark
dice, choose a joker's die and resource, confirm an X. ``press(app, key, now)`` hands a key to
the app and draws, like the device's loop. ``play(app, level, ...)`` plays every human seat
with the computer level's choices, through keys only, until the game ends. Plain code for
MicroPython and CPython: the tests, the benchmarks and the simulator's autoplay use it.
"""

from catan.game import REROLL, ROLL
from catan.maps import ANY
from catan.ui import sheet
from catan.ui import turn as tn


def _move(screen, goal, out):
    # Keys that bring the cursor to ``goal`` (the shorter way round), simulated on a copy
    # of the target list; the screen itself moves when the keys are pressed. Y past the last
    # target goes through the rest of the map first; X stays among the targets.
    t = screen.targets
    if goal not in t:
        raise ValueError("target %r is not offered (%r)" % (goal, t))
    stops = screen.stops()
    if screen.cursor not in t:  # looking at the map: on with Y, round to the targets
        out.extend(["y"] * ((stops.index(goal) - stops.index(screen.cursor)) % len(stops)))
        return
    i = t.index(screen.cursor)
    j = t.index(goal)
    ahead = j - i if j >= i else len(stops) - i + j
    back = (i - j) % len(t)
    # while rolling, the cursor does not wrap backwards from die 1 (round to Keep)
    no_wrap = screen.game.phase == REROLL and screen.mode == 0
    if ahead <= back or (no_wrap and back > i):
        out.extend(["y"] * ahead)
    else:
        out.extend(["x"] * back)


def next_keys(app, action):
    """The next few keys toward ``action`` on the current turn screen (call again after
    pressing them: pickers and marks change the targets)."""
    s = app.screen
    g = app.game
    op = action[0]
    out = []
    if s.mode == 3:  # confirming an X
        _move(s, tn.END_B if op == "end" else tn.UNDO_B, out)
    elif s.mode == 1:  # a joker's die
        _move(s, tn.DIE + action[2], out)
    elif s.mode == 2:  # a resource
        _move(s, tn.RES + (action[3] if op == "joker" else action[1]), out)
    elif op == "roll" and g.phase == ROLL:
        _move(s, tn.ROLL_B, out)
    elif op == "roll" and g.phase == REROLL:
        diff = s.marks ^ action[1]
        if diff:
            i = 0
            while not diff >> i & 1:
                i += 1
            _move(s, tn.DIE + i, out)
        else:
            _move(s, tn.ROLL_B, out)
    elif op == "stop":
        _move(s, tn.KEEP_B, out)
    elif op == "build":
        _move(s, action[1], out)
    elif op == "joker":
        _move(s, sheet.JOKER + action[1], out)
    elif op == "trade":
        _move(s, tn.TRADE_B, out)
    elif op == "end":
        _move(s, tn.END_B, out)
    elif op == "undo":
        _move(s, tn.UNDO_B, out)
    out.append("a")
    return out


def plain(g):
    """A plain policy that needs no computer player: keep the first roll, build the first
    item the dice allow, else end the turn."""
    if g.phase == ROLL:
        return ("roll", None)
    if g.phase == REROLL:
        return ("stop",)
    can = g.buildable()
    return ("build", can[0]) if can else ("end",)


def press(app, key, now):
    app.handle(key)
    app.tick(now)
    app.draw()


def play(app, level, on_key=None, now=0, limit=100000):
    """Play the game on screen to its end: human seats choose as computer ``level`` would,
    by keys; computer seats play on the clock. ``on_key(app, key)`` runs after each key.
    Returns the time reached (ms)."""
    from catan.players import next_action

    g = app.game
    keys = 0
    while not g.over():
        s = app.screen
        if not isinstance(s, tn.Turn):
            key = "a"  # hand-over: the next person takes the device
        elif s.level is not None:
            now += 1000
            app.tick(now)
            app.draw()
            continue
        else:
            action = next_action(g, level, g.player)
            if action[0] == "joker" and g.island.jokers[action[1]][0] != ANY and s.mode == 2:
                raise AssertionError("a plain joker asked for a resource")
            for key in next_keys(app, action)[:-1]:
                now += 50
                press(app, key, now)
                keys += 1
                if on_key:
                    on_key(app, key)
            key = "a"
        now += 50
        press(app, key, now)
        keys += 1
        if on_key:
            on_key(app, key)
        if keys > limit:
            raise AssertionError("no end after %d keys" % limit)
    return now

