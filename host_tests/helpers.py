"""Shared helpers for the rules tests (test_rules_*.py).

- Dice as letters: B brick, L lumber, W wool, G grain, O ore, $ gold.
- ``new_game`` / ``at_build``: games whose dice show what a test says, when it says it.
- ``put_sheet``: put marks on a sheet without playing the turns that made them.
- ``refused``: an action must raise IllegalAction with the reason ``why_*`` gives, and
  leave the game's whole state exactly as it was.
- The two maps as ``shared/reference/maps.md`` prints them, so that the tests check the
  core against the reference rather than against its own data.
"""

import copy
import os
import sys
from collections import deque

import pytest

_LIB = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib")
if _LIB not in sys.path:  # conftest.py does this too; harmless twice
    sys.path.insert(0, _LIB)

from catan.dice import ScriptedDice
from catan.game import Game, IllegalAction
from catan.maps import BRICK, GOLD, GRAIN, LUMBER, ORE, WOOL

FACE = {"B": BRICK, "L": LUMBER, "W": WOOL, "G": GRAIN, "O": ORE, "$": GOLD}
LETTER = {f: c for c, f in FACE.items()}
RESOURCES = "BLWGO"

# rules.md, "Building": the cost of each kind, by the first letter of an item's name.
COST = {"R": "BL", "S": "BLWG", "C": "OOOGG", "K": "OWG"}


def faces(text):
    """The faces of ``"BL $$"`` (spaces ignored)."""
    return [FACE[c] for c in text if not c.isspace()]


def letters(g, spent_too=False):
    """The letters of the current player's unspent dice, in die order."""
    return "".join(LETTER[g.faces[i]] for i in range(g.dice_count())
                   if spent_too or not g.spent >> i & 1)


def unspent_text(g):
    """The unspent dice as a sorted string, such as ``"$$BL"``."""
    return "".join(sorted(letters(g)))


# ---------------------------------------------------------------- the maps

def _chain(prefix, names):
    # Each of ``names`` needs the one before it.
    return {n: (() if i == 0 else (prefix + names[i - 1],)) for i, n in enumerate(names)}


# maps.md, Island One: what each item needs (its road, and the item before it in
# ascending order); "the starting road" is always there and is left out.
NEEDS_ONE = {
    "R0": (), "R1": ("R0",), "R2": ("R0",), "R3": ("R2",), "R4": ("R3",), "R5": ("R3",),
    "R6": ("R5",), "R7": ("R6",), "R8": ("R7",), "R9": ("R8",), "R10": ("R9",),
    "R11": ("R10",), "R12": ("R7",), "R13": ("R12",), "R14": ("R13",), "R15": ("R14",),
    "S3": (), "S4": ("R2", "S3"), "S5": ("R5", "S4"), "S7": ("R7", "S5"),
    "S9": ("R9", "S7"), "S11": ("R11", "S9"),
    "C7": ("R1",), "C12": ("R4", "C7"), "C20": ("R13", "C12"), "C30": ("R15", "C20"),
}
NEEDS_ONE.update({"K%d" % n: (() if n == 1 else ("K%d" % (n - 1),)) for n in range(1, 7)})

# maps.md, Island One: printed points.
POINTS_ONE = {"S3": 3, "S4": 4, "S5": 5, "S7": 7, "S9": 9, "S11": 11,
              "C7": 7, "C12": 12, "C20": 20, "C30": 30}
POINTS_ONE.update({"R%d" % r: 1 for r in range(16)})
POINTS_ONE.update({"K%d" % n: n for n in range(1, 7)})

# maps.md, Island Two: roads and site roads; no ordering; knights need nothing.
NEEDS_TWO = {
    "R0": (), "R1": ("R0",), "R2": ("R0",), "R3": ("R2",), "R4": ("R3",), "R5": ("R3",),
    "R6": ("R5",), "R7": ("R6",), "R8": ("R7",), "R9": ("R8",), "R10": ("R9",),
    "R11": ("R10",), "R12": ("R10",), "R13": ("R12",), "R14": ("R13",),
    "R15": ("R14",), "R16": ("R15",),
    "S1": (), "S2": ("R2",), "S3": ("R5",), "S4": ("R9",), "S5": ("R12",),
    "S6": ("R14",), "S7": ("R16",),
    "C1": ("R1",), "C2": ("R4",), "C3": ("R7",), "C4": ("R11",),
}
NEEDS_TWO.update({"K%d" % n: () for n in range(1, 10)})

# maps.md / rules.md, Island Two: settlement 1 VP, city 2, roads and knights 0.
VP_TWO = {n: {"S": 1, "C": 2}.get(n[0], 0) for n in NEEDS_TWO}

NEEDS = {1: NEEDS_ONE, 2: NEEDS_TWO}

# maps.md: the jokers' resources. Island One K1..K6; Island Two K1..K5, and one "?"
# per desert, unlocked by both its knights.
JOKER_ONE = {"K1": "O", "K2": "G", "K3": "W", "K4": "L", "K5": "B", "K6": "?"}
JOKER_TWO = {"K1": "O", "K2": "G", "K3": "W", "K4": "L", "K5": "B"}
DESERTS_TWO = (("K6", "K7"), ("K8", "K9"))


def closure(island, name):
    """Everything ``name`` needs, directly or not (maps.md), in an order it can be built."""
    out = []

    def visit(n):
        for m in NEEDS[island][n]:
            if m not in out:
                visit(m)
                out.append(m)
    visit(name)
    return out


def road_ideals(island):
    """Every set of roads that can stand on a sheet of ``island``: each road with the
    road it needs (maps.md numbers each road after the road it hangs on)."""
    ideals = [frozenset()]
    for r in [n for n in NEEDS[island] if n[0] == "R"]:
        ideals += [s | {r} for s in ideals if all(p in s for p in NEEDS[island][r])]
    return ideals


def prerequisite_cases(island):
    """(item, missing prerequisite) for every direct prerequisite of every item."""
    return [(n, m) for n in NEEDS[island] for m in NEEDS[island][n]]


# ---------------------------------------------------------------- games

class _Feed:
    # The faces the next throws will show; ScriptedDice reads it as an iterator.
    def __init__(self):
        self.queue = deque()

    def __iter__(self):
        return self

    def __next__(self):
        if not self.queue:
            raise StopIteration
        return self.queue.popleft()


def new_game(island=1, players=1):
    """A game with scripted dice: ``roll`` tells them what to show."""
    feed = _Feed()
    dice = ScriptedDice(feed)
    dice.feed = feed
    return Game(island, players, dice)


def roll(g, text, mask=None):
    """Roll the dice in ``mask`` (None: all) so that they show ``text``, one letter per
    die thrown, in die order."""
    g.dice.feed.queue.extend(faces(text))
    g.roll(mask)
    assert not g.dice.feed.queue, "the roll threw fewer dice than the test scripted"
    return g


def item(g, name):
    return g.island.item(name)


def put_sheet(g, names, p=None, longest=False, largest=False):
    """Mark ``names`` (``"R0 R2 S3"``) as built on player ``p``'s sheet (default: the
    current player); ``longest`` / ``largest``: that player holds the award."""
    p = g.player if p is None else p
    isl = g.island
    for name in names.split():
        i = isl.item(name)
        if i < isl.n_roads:
            g.roads[p] |= 1 << i
        else:
            g.builds[p] |= 1 << (i - isl.n_roads)
    if longest:
        g.longest = p
    if largest:
        g.largest = p
    q = g.player  # keep the "sheet as the turn began" in step (saves read it)
    g.turn_start = (g.roads[q], g.builds[q], g.jokers[q], g.longest, g.largest,
                    g.turn_start[5])
    return g


def at_build(text, island=1, players=1, sheet=""):
    """A game whose first roll shows ``text`` and whose rolling is over, with ``sheet``
    put in place for the current player: ready for jokers, trades and builds."""
    g = put_sheet(new_game(island, players), sheet)
    roll(g, text)
    g.stop()
    return g


def build(g, *names):
    for name in names:
        g.build(item(g, name))
    return g


def turn(g, text, *names):
    """A whole turn: roll ``text``, stop, build ``names`` in order, end the turn."""
    roll(g, text)
    g.stop()
    build(g, *names)
    g.end_turn()
    return g


def pass_turn(g):
    """A turn that rolls only gold and builds nothing."""
    roll(g, "$" * g.dice_count())
    g.end_turn()
    return g


def built(g, p=None):
    """The names of the items built on player ``p``'s sheet."""
    return {g.island.name(i) for i in range(g.island.n_items) if g.is_built(i, p)}


def joker_of(g, knight):
    """The index of the joker that knight ``knight`` (``"K3"``) belongs to."""
    bit = 1 << (item(g, knight) - g.island.n_roads)
    for j, (_, need) in enumerate(g.island.jokers):
        if need & bit:
            return j
    raise AssertionError("%s has no joker" % knight)


# ---------------------------------------------------------------- state

def snapshot(g):
    """Everything the game holds (but its dice source), as plain comparable copies."""
    out = {}
    for k, v in vars(g).items():
        if k == "dice":
            continue
        if k == "island":
            out[k] = v.number
        else:
            out[k] = copy.deepcopy(v)
    return out


def saved_state(g):
    """The snapshot as a save keeps it: the sheets as the turn began and this turn's
    actions, instead of the whole log."""
    s = snapshot(g)
    log = s.pop("log")
    start = s.pop("turn_start")
    s["turn_start"] = start[:5]
    s["turn_log"] = bytes(log[start[5]:])
    return s


_WHY = {"roll": "why_roll", "stop": "why_stop", "joker": "why_joker", "trade": "why_trade",
        "build": "why_build", "undo": "why_undo", "end_turn": "why_end"}


def refused(g, action, *args):
    """``g.<action>(*args)`` must raise IllegalAction whose reason is non-empty and the
    one ``why_<action>`` gives, and leave the game exactly as it was. Returns the reason."""
    why = getattr(g, _WHY[action])(*args)
    before = snapshot(g)
    with pytest.raises(IllegalAction) as err:
        getattr(g, action)(*args)
    reason = str(err.value)
    assert reason, "IllegalAction without a reason"
    assert why == reason
    assert snapshot(g) == before, "a refused %s changed the game" % action
    return reason


# ---------------------------------------------------------------- random play

def random_turn(g, rng, check=None):
    """One legal turn chosen at random: random dice, random re-rolls, then random builds,
    jokers, trades and undos, and the end of the turn (unless the game ended first).
    ``check(g, action)`` runs after every action (``("roll", mask)``, ``("build", 3)``,
    ``("undo",)``, ``("end_turn",)``...)."""
    n = g.dice_count()
    check = check or (lambda g, action: None)
    roll(g, "".join(rng.choice("BLWGO$") for _ in range(n)))
    check(g, ("roll", None))
    for _ in range(2):
        if rng.random() < 0.5:
            mask = rng.randrange(1, 1 << n)
            roll(g, "".join(rng.choice("BLWGO$") for _ in range(bin(mask).count("1"))),
                 mask)
            check(g, ("roll", mask))
    while not g.over() and rng.random() < 0.9:
        moves = [("build", i) for i in g.buildable()]
        if g.can_trade():
            moves += [("trade", r) for r in range(5)]
        moves += [("joker", j, d, rng.randrange(5)) for j in g.usable_jokers()
                  for d in range(n)]
        moves = [m for m in moves if getattr(g, "why_" + m[0])(*m[1:]) is None]
        if g.why_undo() is None and rng.random() < 0.1:
            moves.append(("undo",))
        if not moves:
            break
        move = rng.choice(moves)
        getattr(g, move[0])(*move[1:])
        check(g, move)
    if not g.over():
        g.end_turn()
        check(g, ("end_turn",))
