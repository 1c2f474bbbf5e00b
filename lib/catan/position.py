"""Set up a position without playing up to it: for tests, tutorials and puzzles.

    from catan.position import setup
    g = setup(1, 2, dice, built=(("R0", "R1", "S3"), ("R0",)), turns=(3, 2),
              track=((3, 0, 0), (1, -2)), player=1)

The game starts at the roll of ``player``'s next turn. Everything is checked as a loaded
save is (``catan.codec``): a sheet the rules could not reach, a track that does not add
up, an award held by the wrong player, all raise ``ValueError`` (``SaveError``) with the
reason. Loaded on demand: the device never imports it in play.
"""

from catan.codec import dumps, loads
from catan.game import Game
from catan.maps import TURNS_ONE


def _item(isl, it):
    return isl.item(it) if isinstance(it, str) else it


def setup(island_number, players, dice, built=(), used=(), turns=None, track=None,
          player=0, longest=-1, largest=-1):
    """A validated ``Game`` at the start of ``player``'s turn.

    ``built``: per player, the items built (names such as ``"R3"``/``"S7"`` or numbers; the
    free starting road need not be named). ``used``: per player, the jokers used, named by
    their knight (``"K3"``) or as indices. ``turns``: the turns each player has taken
    (default: none). ``track``: Island One, per player, the boxes of those turns (X is -2).
    ``longest``/``largest``: Island Two, who holds the awards (-1: nobody).
    """
    g = Game(island_number, players, dice)
    isl = g.island
    for p in range(players):
        for it in built[p] if p < len(built) else ():
            i = _item(isl, it)
            if not 0 <= i < isl.n_items:
                raise ValueError("there is no item %r" % (it,))
            if i < isl.n_roads:
                g.roads[p] |= 1 << i
            else:
                g.builds[p] |= 1 << (i - isl.n_roads)
        for j in used[p] if p < len(used) else ():
            if isinstance(j, str):
                j = isl.joker_of(isl.item(j))
            if not 0 <= j < len(isl.jokers):
                raise ValueError("there is no such joker")
            g.jokers[p] |= 1 << j
    turns = list(turns) if turns is not None else [0] * players
    if len(turns) != players:
        raise ValueError("one number of turns a player")
    g.turns = turns
    g.game_turn = sum(turns)
    if isl.number == 1:
        for p in range(players):
            boxes = track[p] if track is not None and p < len(track) else ()
            if len(boxes) != turns[p]:
                raise ValueError("P%d's track needs %d boxes" % (p + 1, turns[p]))
            for t in range(len(boxes)):
                g.track[p * TURNS_ONE + t] = boxes[t]
    if not 0 <= player < players:
        raise ValueError("no player %d" % player)
    g.player = player
    g.longest = longest
    g.largest = largest
    g._begin_turn()
    return loads(dumps(g), dice)  # the save's checks: SaveError (a ValueError) with the reason
