"""A deterministic game driver for tests and benchmarks, on CPython and MicroPython alike.

``play(island, players, seed)`` plays a whole game with seeded dice and a chooser that
tries every kind of action (re-rolls, jokers, gold trades, builds, undo, and illegal
actions, which must be refused without effect), and returns the game. The same seed
gives the same game on every runtime, so its fingerprint (the log, the save, and a
checksum of every answer the game gave: refusal reasons, buildable items, usable
jokers) can be compared across runtimes.
"""

from catan import codec
from catan.dice import SeededDice
from catan.game import Game, IllegalAction


class Chooser:
    """A tiny linear congruential generator for the driver's choices (small ints only),
    and a running checksum of what the game answered (refusal reasons, what was
    buildable and which jokers were usable at each decision)."""

    def __init__(self, seed):
        self.x = seed & 0x7FFF
        self.trace = 0xFFFF

    def note(self, data):
        self.trace = codec.crc16(data, self.trace)

    def below(self, n):
        self.x = (self.x * 1103 + 12345) & 0x7FFF
        return (self.x >> 3) % n


def _try(c, action, *args):
    # An action that may be illegal: it must either act or be refused with a reason.
    try:
        action(*args)
        return True
    except IllegalAction as e:
        assert str(e), "a refusal without a reason"
        c.note(str(e).encode())
        return False


def _best(g, items):
    rank = (2, 3, 4, 1)  # road, settlement, city, knight
    best = items[0]
    for item in items:
        if rank[g.island.kind(item)] > rank[g.island.kind(best)]:
            best = item
    return best


def turn_steps(g, c):
    """One turn: roll, maybe re-roll, then builds (mostly), jokers, trades and the odd
    undo or illegal action, then end the turn. Yields before each post-roll decision."""
    g.roll()
    while g.rolls_left() and not g.buildable() and c.below(4):
        _try(c, g.roll, c.below(1 << g.dice_count()))  # mask 0 is refused with a reason
    while not g.over():
        yield
        items = g.buildable()
        c.note(bytes(items) + b"|" + bytes(g.usable_jokers()))
        choice = c.below(20)
        if items and choice < 15:
            # Mostly the item that scores best (a city, a settlement, then a road), else any.
            g.build(_best(g, items) if c.below(3) else items[c.below(len(items))])
        elif choice == 15 and g.usable_jokers():
            jokers = g.usable_jokers()
            _try(c, g.joker, jokers[c.below(len(jokers))], c.below(g.dice_count()), c.below(6))
        elif choice == 16:
            _try(c, g.trade, c.below(6))
        elif choice == 17:
            _try(c, g.undo)
        elif choice == 18:
            # An illegal build, for the record: it must change nothing.
            _try(c, g.build, c.below(g.island.n_items + 2))
        elif not items:
            break
    if not g.over():
        g.end_turn()


def steps(island, players, seed, max_turns=400):
    """A whole game with SeededDice(seed), yielding the game before each post-roll
    decision (so a caller can save it, or measure the heap, as the game goes)."""
    g = Game(island, players, SeededDice(seed))
    c = Chooser(seed)
    g.trace = c  # the driver's notes ride on the game for fingerprint() (test code only)
    while not g.over() and g.game_turn < max_turns:
        for _ in turn_steps(g, c):
            yield g
    yield g


def play(island, players, seed, on_action=None, max_turns=400):
    """The game ``steps`` plays, played to its end; ``on_action(g)`` at each step."""
    for g in steps(island, players, seed, max_turns):
        if on_action:
            on_action(g)
    return g


def fingerprint(g):
    """A short text that pins a finished game: results, log checksum, save checksum."""
    results = [g.result(p) for p in range(g.players)]
    save = codec.dumps(g)
    return "island=%d players=%d turns=%d results=%s winners=%s log=%04x save=%d:%04x " \
        "answers=%04x" % (g.island.number, g.players, g.game_turn, results, g.winners(),
                          codec.crc16(g.log), len(save), codec.crc16(save[:-2]), g.trace.trace)
