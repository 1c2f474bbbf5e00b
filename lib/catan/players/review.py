"""The coach's review of a person's Island One game: the decisions that cost the most.

    review = Review(); review.note(game, action) ... review.worst(3)
    Review.loads(review.dumps())    # kept in the store over a restart

A front end keeps a review for a whole game, while on a small heap the coach's modules are
dropped and imported again (``ui.memory.MemoryPlan.release_players``): so the coach is imported when a
decision is noted, never held here, and a review keeps no more than its own few items (a
module-level import would keep the dropped coach, its tables with it, alive through this
class).
"""

from catan import const
from catan.game import OVER, ROLL
from catan.maps import ANY, GOLD, ISLAND_ONE, TURNS_ONE


class Review:
    """The decisions that cost the most expected points in an Island One game.

    ``note(game, action)`` before a person's action is carried out: its cost is the value
    of the coach's choice minus the value of the action (rolls, keeps, builds, ending the
    turn; a joker or trade by the best the dice leave once it is done, so one that serves no
    build is charged too). ``worst(n)``:
    ``[(turn, action, loss, advice)]``, largest loss first, ``advice`` being the coach's
    choice there. Only the ``keep`` largest are kept.
    """

    def __init__(self, keep=5):
        self.keep = keep
        self.items = []

    def note(self, game, action):
        """True if ``action`` entered the review (the items changed)."""
        if game.island.number != 1 or game.phase in (ROLL, OVER):
            return False
        from catan.players.coach import ev, hint  # (see the module's doc)

        best_action, best = hint(game)
        mine = ev(game, action)
        if best is None or mine is None:
            return False
        loss = best - mine
        if loss <= 0.05:
            return False
        h = self.items
        i = 0
        while i < len(h) and h[i][2] >= loss:  # after those that cost as much or more
            i += 1
        if i >= self.keep:
            return False
        h.insert(i, (game.turns[game.player], action, loss, best_action))
        del h[self.keep:]
        return True

    def worst(self, n=3):
        return self.items[:n]

    def dumps(self):
        """The items as bytes (11 a decision), for the store: a restart keeps the review."""
        out = bytearray()
        for turn, action, loss, advice in self.items:
            out.append(turn)
            _put_action(out, action)
            v = min(65535, int(loss * 100 + 0.5))
            out.append(v >> 8)
            out.append(v & 255)
            _put_action(out, advice)
        return bytes(out)

    @classmethod
    def loads(cls, data, keep=5):
        """A review from ``dumps``; an empty one if the bytes are not such a record."""
        r = cls(keep)
        if not data or len(data) % 11 or len(data) > 11 * keep:
            return r
        for k in range(0, len(data), 11):
            action = _get_action(data, k + 1)
            advice = _get_action(data, k + 7)
            # every field in its range (a record can be whole and still wrong: written by
            # another version, or edited): a turn of Island One, actions it can hold
            if action is None or advice is None or data[k] >= TURNS_ONE:
                return cls(keep)
            r.items.append((data[k], action, ((data[k + 5] << 8) | data[k + 6]) / 100, advice))
        return r


_OPS = const(("roll", "stop", "build", "joker", "trade", "undo", "end"))


def _put_action(out, action):
    # the op's index, then three argument bytes (255: None or absent)
    out.append(_OPS.index(action[0]))
    for k in range(1, 4):
        v = action[k] if k < len(action) else None
        out.append(255 if v is None else v)


def _get_action(data, k):
    # An Island One action (the review is kept for Island One only), or None if any of its
    # bytes is out of range: the screens name its item, joker and resource without checks.
    op = data[k]
    if op >= len(_OPS):
        return None
    name = _OPS[op]
    n = (1, 0, 1, 3, 1, 0, 0)[op]
    args = [None if data[k + 1 + i] == 255 else data[k + 1 + i] for i in range(n)]
    for i in range(n, 3):
        if data[k + 1 + i] != 255:  # a byte the action does not have: not "absent"
            return None
    if name != "roll" and name != "joker" and None in args:
        return None
    isl = ISLAND_ONE
    if name == "roll":
        if args[0] is not None and not 0 < args[0] < 64:  # six dice
            return None
    elif name == "build":
        if args[0] >= isl.n_items:
            return None
    elif name == "trade":
        if args[0] >= GOLD:
            return None
    elif name == "joker":
        j, die, res = args
        if j is None or die is None or j >= len(isl.jokers) or die >= 6:
            return None
        if res is None and isl.jokers[j][0] == ANY or res is not None and res >= GOLD:
            return None
    return tuple([name] + args)
