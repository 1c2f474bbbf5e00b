"""Rules common to both islands (shared/reference/rules.md, "Common to both islands" and the
decisions table), pinned one rule per test. Each docstring names the rule it pins.

Dice are written as letters: B brick, L lumber, W wool, G grain, O ore, $ gold.
"""

import re

import pytest

from helpers import (COST, FACE, NEEDS, RESOURCES, at_build, build, built, closure, item,
                     joker_of, letters, new_game, pass_turn, prerequisite_cases, put_sheet,
                     refused, roll, snapshot, turn, unspent_text)
from catan import maps
from catan.maps import BRICK, GOLD, GRAIN, LUMBER, ORE


def names_word(name, text):
    """Whether ``text`` names ``name`` as a word (R1 is not named by "R10")."""
    return re.search(r"\b%s\b" % re.escape(name), text) is not None


def enough(name):
    """Six dice that pay for item ``name`` (its cost, then gold)."""
    cost = COST[name[0]]
    return cost + "$" * (6 - len(cost))


# ==================================================================== rolling

@pytest.mark.parametrize("island", [1, 2])
def test_first_roll_throws_all_dice(island):
    """rules.md: Rolling — a turn starts by rolling all the dice the turn allows."""
    g = new_game(island, 1)
    for mask in (0b1, 0b011111, 0b111110):
        assert "all the dice" in refused(g, "roll", mask)
    roll(g, "BLWGO$", 0b111111)
    assert letters(g) == "BLWGO$"
    g2 = roll(new_game(island, 1), "OOGGWW")  # no mask: all of them
    assert letters(g2) == "OOGGWW"


def test_reroll_any_subset_including_dice_kept_earlier():
    """rules.md: Rolling — before the 2nd and 3rd roll any die may be rolled again,
    including one kept after an earlier roll."""
    g = roll(new_game(), "BBBBBB")
    roll(g, "LLL", 0b000111)  # dice 0-2 again, dice 3-5 kept
    assert letters(g) == "LLLBBB"
    roll(g, "WWWW", 0b111100)  # dice 3-5, kept after the 2nd roll, are thrown again
    assert letters(g) == "LLWWWW"


def test_up_to_three_rolls_then_faces_final():
    """rules.md: Rolling — up to three rolls in all; after the third the faces are final."""
    g = new_game()
    assert g.rolls_left() == 3
    roll(g, "$$$$$$")
    assert g.rolls_left() == 2
    roll(g, "$$$$$$", 0b111111)
    assert g.rolls_left() == 1
    roll(g, "BL", 0b000011)
    assert g.rolls_left() == 0
    assert refused(g, "roll", 0b1) == "no rolls left this turn"
    refused(g, "roll")
    refused(g, "stop")  # nothing to stop: rolling is over
    build(g, "R0")  # the final faces build without a stop
    assert built(g) == {"R0"}


@pytest.mark.parametrize("rolls", [1, 2])
def test_may_stop_after_first_or_second_roll(rolls):
    """rules.md: Rolling — the player may stop after the first or second roll."""
    g = roll(new_game(), "BL$$$$")
    if rolls == 2:
        roll(g, "WG", 0b001100)
    g.stop()
    assert g.rolls_left() == 0
    refused(g, "roll", 0b110000)
    build(g, "R0")
    assert built(g) == {"R0"}


def test_reroll_needs_at_least_one_die_and_only_dice_in_play():
    """rules.md: Rolling — a re-roll throws a choice of the turn's dice (not none, not more)."""
    g = roll(new_game(), "BLWGO$")
    refused(g, "roll", 0)
    refused(g, "roll", 1 << 6)


# ==================================================================== jokers

def test_joker_turns_one_unspent_die_to_its_resource():
    """rules.md: Resource Joker — turn one die (any not yet spent) to the joker's resource;
    the other dice are untouched and no die is added."""
    g = at_build("BL$$$W", sheet="K1")
    g.joker(joker_of(g, "K1"), 2)
    assert letters(g) == "BLO$$W"
    assert "used" in refused(g, "joker", joker_of(g, "K1"), 3)


def test_joker_only_on_a_die_not_spent_this_turn():
    """rules.md: Resource Joker — any die not yet spent this turn (a spent die is not)."""
    g = at_build("BLWG$$", sheet="K1")
    build(g, "R0")  # spends dice 0 and 1
    assert "not free" in refused(g, "joker", joker_of(g, "K1"), 0)
    g.joker(joker_of(g, "K1"), 4)
    assert unspent_text(g) == "$GOW"


def test_joker_once_per_game():
    """rules.md: Resource Joker — each joker is used at most once per game."""
    g = at_build("$$$$$$", sheet="K1")
    g.joker(joker_of(g, "K1"), 0)
    g.end_turn()
    roll(g, "$$$$$$")
    g.stop()
    assert "used" in refused(g, "joker", joker_of(g, "K1"), 0)
    assert joker_of(g, "K1") not in g.usable_jokers()


def test_several_jokers_in_one_turn():
    """rules.md: Resource Joker — several jokers may be used in one turn."""
    g = at_build("W$$$$$", sheet="K1 K2")
    g.joker(joker_of(g, "K1"), 1)  # ore
    g.joker(joker_of(g, "K2"), 2)  # grain
    build(g, "K3")  # wool + ore + grain
    assert "K3" in built(g)


@pytest.mark.parametrize("island", [1, 2])
def test_joker_of_a_knight_built_this_turn(island):
    """rules.md: Resource Joker — a knight built this turn may have its joker used this turn."""
    g = at_build("OWGL$$", island, 1, sheet="K1 K2 K3 K4")
    build(g, "K5")  # the brick knight
    g.joker(joker_of(g, "K5"), 4)
    build(g, "R0")  # brick (the joker) + lumber
    assert {"K5", "R0"} <= built(g)


@pytest.mark.parametrize("island", [1, 2])
def test_joker_needs_its_knight(island):
    """rules.md: Resource Joker — a joker is used only once its knight is built; the
    reason names the knight."""
    g = at_build("$$$$$$", island, 1)
    reason = refused(g, "joker", joker_of(g, "K1"), 0)
    assert names_word("K1", reason)


@pytest.mark.parametrize("island", [1, 2])
@pytest.mark.parametrize("knight,gives", [("K1", "O"), ("K2", "G"), ("K3", "W"),
                                          ("K4", "L"), ("K5", "B")])
def test_fixed_jokers_give_their_hex_resource(island, knight, gives):
    """maps.md: knights K1..K5 (mountains, fields, pasture, forest, hills) give ore, grain,
    wool, lumber, brick, and only that."""
    g = at_build("$$$$$$", island, 1, sheet=knight)
    j = joker_of(g, knight)
    other = next(r for r in RESOURCES if r != gives)
    assert "gives" in refused(g, "joker", j, 0, FACE[other])
    g.joker(j, 0)
    assert letters(g) == gives + "$$$$$"


def test_jokers_never_add_a_die():
    """rules.md: Jokers and trades never add a die: they change faces of dice that are there."""
    g = at_build("$$$$$B", sheet="K1 K2")
    g.joker(joker_of(g, "K1"), 0)
    g.trade(LUMBER)
    assert len(letters(g)) == 5 and len(letters(g, spent_too=True)) == 6


def test_usable_jokers_are_those_that_can_be_used_on_some_free_die():
    """game.py docstring: usable_jokers() lists the jokers that can be used now on some free
    die; a joker that every free die refuses is not usable."""
    g = at_build("OOOOOO", sheet="K1 K2")
    j1, j2 = joker_of(g, "K1"), joker_of(g, "K2")
    for j in (j1, j2):
        usable = any(g.why_joker(j, d, None) is None for d in range(6))
        assert (j in g.usable_jokers()) == usable, g.why_joker(j, 0, None)


# ==================================================================== gold

def test_gold_trade_two_for_one():
    """rules.md: Gold trade — two gold dice become one resource of the player's choice: one
    die is turned to it, the other is put aside for the turn."""
    g = at_build("$$BWGO")
    g.trade(LUMBER)
    assert letters(g, spent_too=True) == "L$BWGO"
    assert letters(g) == "LBWGO"  # die 1 is put aside
    build(g, "S3")  # the traded lumber builds
    assert "S3" in built(g)


@pytest.mark.parametrize("gold", range(7))
def test_gold_trades_repeat_while_two_gold_remain(gold):
    """rules.md: Gold trade — repeatable while two unspent gold dice remain: with 2, 4 and 6
    gold exactly 1, 2 and 3 trades (and with 1, 3, 5 gold: 0, 1, 2)."""
    g = at_build("$" * gold + "W" * (6 - gold))
    trades = 0
    while g.can_trade():
        g.trade(ORE)
        trades += 1
    assert trades == gold // 2
    assert "two gold" in refused(g, "trade", ORE)


def test_gold_trade_only_for_a_resource():
    """rules.md: Gold trade — two gold for one of the five resources (not for gold)."""
    g = at_build("$$$$BL")
    refused(g, "trade", GOLD)
    refused(g, "trade", None)


@pytest.mark.parametrize("island", [1, 2])
def test_gold_builds_nothing(island):
    """rules.md: Gold builds nothing by itself."""
    g = at_build("$$$$$$", island, 1, sheet="R0 R1 K1")
    assert g.buildable() == []
    for name in NEEDS[island]:
        assert g.why_build(item(g, name)) is not None


# ============================================ jokers and trades after rolling only

@pytest.mark.parametrize("action", ["joker", "trade"])
def test_jokers_and_trades_not_before_rolling(action):
    """rules.md: After rolling — jokers and gold trades change the final faces, so not
    before the first roll."""
    g = put_sheet(new_game(), "K1")
    args = (joker_of(g, "K1"), 0) if action == "joker" else (BRICK,)
    assert refused(g, action, *args) == "roll the dice first"
    assert g.usable_jokers() == [] and not g.can_trade()


# ==================================================================== building

# One item of each kind on each island, and the sheet it needs.
KINDS = [(1, "R0", ""), (1, "S3", ""), (1, "C7", "R0 R1"), (1, "K1", ""),
         (2, "R0", ""), (2, "S1", ""), (2, "C1", "R0 R1"), (2, "K1", "")]


@pytest.mark.parametrize("island,name,sheet", KINDS)
def test_cost_of_each_kind(island, name, sheet):
    """rules.md: Building costs — road B+L, settlement B+L+W+G, city 3 O + 2 G, knight O+W+G:
    exactly those dice are spent."""
    g = at_build(enough(name), island, 1, sheet)
    mask = g.cost(item(g, name))
    assert sorted(letters(g)[i] for i in range(6) if mask >> i & 1) == sorted(COST[name[0]])
    build(g, name)
    assert unspent_text(g) == "$" * (6 - len(COST[name[0]]))


@pytest.mark.parametrize("island,name,sheet", KINDS)
def test_cost_missing_one_resource(island, name, sheet):
    """rules.md: Building costs — one die short of the cost, the item cannot be built and
    the reason names the missing resource."""
    for r in set(COST[name[0]]):
        g = at_build(enough(name).replace(r, "$", 1), island, 1, sheet)
        reason = refused(g, "build", item(g, name))
        assert maps.FACE_NAMES[FACE[r]] in reason


def test_a_die_is_spent_once():
    """rules.md: Building — each build spends the dice it costs; a die is spent once."""
    g = at_build("BLWGO$")
    build(g, "S3")
    assert "brick" in refused(g, "build", item(g, "R0"))
    assert "wool" in refused(g, "build", item(g, "K1"))


@pytest.mark.parametrize("island,sheet,road,site", [(1, "R0 S3", "R2", "S4"),
                                                     (2, "R0", "R2", "S2")])
def test_road_then_the_site_it_unlocks_in_one_turn(island, sheet, road, site):
    """rules.md: Building — several builds per turn in any legal sequence, e.g. a road and
    then the settlement it unlocks."""
    g = at_build("BLBLWG", island, 1, sheet)
    assert names_word(road, refused(g, "build", item(g, site)))
    build(g, road, site)
    assert {road, site} <= built(g)


def test_several_builds_in_any_order():
    """rules.md: Building — several builds per turn, in any sequence the player likes."""
    for order in (("K1", "R0"), ("R0", "K1")):
        g = at_build("BLOWG$")
        build(g, *order)
        assert built(g) == {"K1", "R0"}


@pytest.mark.parametrize("island", [1, 2])
def test_road_needs_an_adjacent_built_road(island):
    """rules.md: Roads — a road can be built only next to a road already built (the
    starting road is pre-built and free)."""
    g = at_build("BLBLBL", island, 1)
    assert names_word("R2", refused(g, "build", item(g, "R3")))
    build(g, "R0", "R2", "R3")  # R0 hangs on the starting road
    assert g.road_length(0) == 4


@pytest.mark.parametrize("island,sheet,past", [(1, "R0 R2", "R3"), (2, "R0 R2", "R3"),
                                               (1, "", "R0"), (2, "", "R0")])
def test_road_may_pass_an_unbuilt_site(island, sheet, past):
    """rules.md: Roads — building past an unbuilt settlement or city site is allowed."""
    g = at_build("BL$$$$", island, 1, sheet)
    build(g, past)
    assert past in built(g)


@pytest.mark.parametrize("island,sheet,site,road", [(1, "R0 S3", "S4", "R2"),
                                                    (1, "R0", "C7", "R1"),
                                                    (2, "R0", "S2", "R2"),
                                                    (2, "R0", "C1", "R1")])
def test_site_needs_its_road(island, sheet, site, road):
    """rules.md: Settlements and cities — a site can be built only once its road is built."""
    g = at_build(enough(site), island, 1, sheet)
    assert names_word(road, refused(g, "build", item(g, site)))


@pytest.mark.parametrize("island", [1, 2])
def test_starting_road_is_prebuilt(island):
    """rules.md: Roads — the starting road is pre-built and free: its settlement (and R0)
    can be built on an empty sheet, and it counts as one road."""
    g = at_build("BLWGBL", island, 1)
    first = "S3" if island == 1 else "S1"
    build(g, first, "R0")
    assert g.road_length(0) == 2


@pytest.mark.parametrize("island", [1, 2])
def test_knights_need_no_road(island):
    """rules.md: Knights need no road."""
    g = at_build("OWG$$$", island, 1)
    build(g, "K1")
    assert built(g) == {"K1"}


def test_item_built_only_once():
    """rules.md: Building — a symbol is marked once: a built item cannot be built again."""
    g = at_build("BLBL$$", 1, 1, "R0")
    assert "built already" in refused(g, "build", item(g, "R0"))


# ------------------------------------------- every item of both maps (maps.md)

ALL_ITEMS = [(1, n) for n in NEEDS[1]] + [(2, n) for n in NEEDS[2]]


@pytest.mark.parametrize("island,name", ALL_ITEMS)
def test_every_item_from_an_empty_sheet(island, name):
    """maps.md: from an empty sheet, with the dice it costs, an item is buildable exactly
    when it needs nothing but the starting road (Island One: R0, S3, K1; Island Two: R0,
    S1 and every knight)."""
    g = at_build(enough(name), island, 1)
    needs = NEEDS[island][name]
    assert (g.why_build(item(g, name)) is None) == (not needs), g.why_build(item(g, name))
    assert (item(g, name) in g.buildable()) == (not needs)


@pytest.mark.parametrize("island,name", ALL_ITEMS)
def test_every_item_after_its_prerequisites(island, name):
    """maps.md: once everything an item needs is built, the item can be built."""
    g = at_build(enough(name), island, 1, " ".join(closure(island, name)))
    assert g.why_build(item(g, name)) is None
    build(g, name)
    assert name in built(g)


@pytest.mark.parametrize("island,name,missing",
                         [(1,) + c for c in prerequisite_cases(1)]
                         + [(2,) + c for c in prerequisite_cases(2)])
def test_every_missing_prerequisite_is_named(island, name, missing):
    """maps.md: with one thing it needs missing, an item cannot be built, and the reason
    names what is missing."""
    keep = [n for n in closure(island, name)
            if n != missing and missing not in closure(island, n)]
    g = at_build(enough(name), island, 1, " ".join(keep))
    assert names_word(missing, refused(g, "build", item(g, name)))


# ============================================================ end of the turn

def test_unspent_dice_lost_at_end_of_turn():
    """rules.md: unspent dice are lost at the end of the turn."""
    g = new_game()
    turn(g, "BLBL$$", "R0")  # one road's worth left over, and two gold
    roll(g, "WWWWWW")
    g.stop()
    assert unspent_text(g) == "WWWWWW"
    assert item(g, "R2") not in g.buildable() and not g.can_trade()


def test_unspent_dice_lost_island_two_ramp():
    """rules.md: unspent dice are lost at the end of the turn (Island Two, 3 then 4 dice)."""
    g = new_game(2, 2)
    roll(g, "BL$")
    g.end_turn()
    roll(g, "WWW$")
    g.stop()
    assert unspent_text(g) == "$WWW" and g.buildable() == []


# ==================================================================== undo

def test_undo_a_build():
    """rules.md: Undo — a build made this turn can be taken back: sheet and dice restored."""
    g = at_build("BLWGO$")
    before = snapshot(g)
    build(g, "S3")
    g.undo()
    assert built(g) == set() and unspent_text(g) == "$BGLOW"
    after = snapshot(g)
    for k in ("roads", "builds", "jokers", "faces", "spent", "points", "built"):
        assert after[k] == before[k]


def test_undo_a_joker():
    """rules.md: Undo — a joker used this turn can be taken back: the die and the joker
    are restored."""
    g = at_build("$$$$$$", sheet="K1")
    g.joker(joker_of(g, "K1"), 0)
    g.undo()
    assert letters(g) == "$$$$$$"
    assert joker_of(g, "K1") in g.usable_jokers()


def test_undo_a_trade():
    """rules.md: Undo — a gold trade can be taken back: both gold dice are back."""
    g = at_build("$$BLWG")
    g.trade(ORE)
    g.undo()
    assert letters(g) == "$$BLWG"


def test_undo_steps_back_in_order():
    """rules.md: Undo — marks of this turn are taken back, last first, until none is left."""
    g = at_build("BLBL$$")
    build(g, "R0")
    g.trade(GRAIN)
    build(g, "R2")
    g.undo()
    assert built(g) == {"R0"} and unspent_text(g) == "BGL"
    g.undo()
    assert built(g) == {"R0"} and unspent_text(g) == "$$BL"
    g.undo()
    assert built(g) == set() and unspent_text(g) == "$$BBLL"
    assert "nothing to undo" in refused(g, "undo")


def test_undo_only_until_the_turn_ends():
    """rules.md: Undo — until the player ends the turn, not after."""
    g = new_game()
    turn(g, "BL$$$$", "R0")
    roll(g, "BL$$$$")
    g.stop()
    refused(g, "undo")
    assert "R0" in built(g)


@pytest.mark.parametrize("rolls", [1, 2, 3])
def test_rolls_are_never_undone(rolls):
    """rules.md: Undo — rolls cannot be taken back."""
    g = roll(new_game(), "BL$$$$")
    for _ in range(rolls - 1):
        roll(g, "W", 0b100000)
    if rolls < 3:
        refused(g, "undo")  # between rolls there is nothing to take back
        g.stop()
    final = letters(g)
    refused(g, "undo")
    build(g, "R0")
    g.undo()
    assert letters(g) == final and g.rolls_left() == 0


def test_undo_does_not_mark_the_turn_as_built():
    """rules.md: Undo + Island One score track — a turn whose builds were all taken back
    built nothing and scores X."""
    g = at_build("BL$$$$")
    build(g, "R0")
    g.undo()
    g.end_turn()
    assert g.track[0] == -2


# ======================================================= illegal actions

def _rolled(text="BLWGO$", island=1, sheet=""):
    return lambda: at_build(text, island, 1, sheet)


def _rerolling():
    return roll(new_game(), "BLWGO$")


def _fresh():
    return new_game()


def _joker_used():
    g = at_build("$$$$$$", sheet="K1")
    g.joker(joker_of(g, "K1"), 0)
    return g


def _after_third_roll():
    g = roll(new_game(), "$$$$$$")
    roll(g, "$", 1)
    return roll(g, "$", 1)


def _island_one_over():
    g = new_game(1, 1)
    for _ in range(maps.TURNS_ONE):
        pass_turn(g)
    assert g.over()
    return g


def _island_two_won():
    g = at_build("BLWGBL", 2, 1, "R0 R1 R2 R3 R4 C1 C2 S2 K1 K2 K3")
    g.largest = 0
    build(g, "S1")  # 1 + 1 + 2 + 2 + Largest Army 2 = 8
    build(g, "R5")  # Longest Road: 10, the game ends here
    assert g.over()
    return g


ILLEGAL = [
    # before the first roll
    ("stop before rolling", _fresh, lambda g: ("stop",)),
    ("joker before rolling", lambda: put_sheet(new_game(), "K1"), lambda g: ("joker", 0, 0)),
    ("trade before rolling", _fresh, lambda g: ("trade", ORE)),
    ("build before rolling", _fresh, lambda g: ("build", item(g, "R0"))),
    ("undo before rolling", _fresh, lambda g: ("undo",)),
    ("end turn before rolling", _fresh, lambda g: ("end_turn",)),
    ("first roll not all dice", _fresh, lambda g: ("roll", 0b111)),
    # between rolls
    ("re-roll no dice", _rerolling, lambda g: ("roll", 0)),
    ("re-roll a seventh die", _rerolling, lambda g: ("roll", 1 << 6)),
    ("undo a roll", _rerolling, lambda g: ("undo",)),
    ("build out of order between rolls", _rerolling, lambda g: ("build", item(g, "K2"))),
    ("joker locked between rolls", _rerolling, lambda g: ("joker", 0, 0)),
    ("trade one gold between rolls", _rerolling, lambda g: ("trade", ORE)),
    # after rolling
    ("fourth roll", _after_third_roll, lambda g: ("roll", 1)),
    ("roll after stop", _rolled(), lambda g: ("roll", 1)),
    ("stop twice", _rolled(), lambda g: ("stop",)),
    ("build unaffordable", _rolled(sheet="R0 R1"), lambda g: ("build", item(g, "C7"))),
    ("build without road", _rolled(), lambda g: ("build", item(g, "R3"))),
    ("build out of order", _rolled(sheet="R0 R2"), lambda g: ("build", item(g, "S4"))),
    ("build twice", _rolled(sheet="R0"), lambda g: ("build", item(g, "R0"))),
    ("build no such item", _rolled(), lambda g: ("build", 99)),
    ("joker used", _joker_used, lambda g: ("joker", 0, 1)),
    ("joker on a spent die", _joker_used, lambda g: ("joker", 0, 0)),
    ("joker locked", _rolled(), lambda g: ("joker", 0, 0)),
    ("joker wrong resource", _rolled(sheet="K1"), lambda g: ("joker", 0, 0, BRICK)),
    ("no such joker", _rolled(sheet="K1"), lambda g: ("joker", 9, 0)),
    ("joker on no such die", _rolled(sheet="K1"), lambda g: ("joker", 0, 6)),
    ("? joker to gold", _rolled(sheet="K1 K2 K3 K4 K5 K6"), lambda g: ("joker", 5, 0, GOLD)),
    ("? joker to nothing", _rolled(sheet="K1 K2 K3 K4 K5 K6"), lambda g: ("joker", 5, 0)),
    ("trade one gold", _rolled(), lambda g: ("trade", ORE)),
    ("trade for gold", _rolled("$$$$BL"), lambda g: ("trade", GOLD)),
    ("undo nothing", _rolled(), lambda g: ("undo",)),
    ("island two ramp: fourth die", lambda: roll(new_game(2, 2), "BL$"),
     lambda g: ("roll", 0b1000)),
    ("island two ramp: joker on fourth die", lambda: at_build("BL$", 2, 2, "K1"),
     lambda g: ("joker", 0, 3)),
    ("island two: desert joker with one knight", _rolled(island=2, sheet="K6"),
     lambda g: ("joker", joker_of(g, "K6"), 0, ORE)),
]
for _what in ("roll", "stop", "build", "joker", "trade", "undo", "end_turn"):
    _args = {"roll": (), "stop": (), "build": ("R0",), "joker": (0, 0, ORE),
             "trade": (ORE,), "undo": (), "end_turn": ()}[_what]
    for _name, _setup in (("island one over", _island_one_over),
                          ("island two won", _island_two_won)):
        ILLEGAL.append(("%s: %s" % (_name, _what), _setup,
                        lambda g, w=_what, a=_args:
                        (w,) + tuple(item(g, x) if isinstance(x, str) else x for x in a)))


@pytest.mark.parametrize("what,setup,action", ILLEGAL, ids=[c[0] for c in ILLEGAL])
def test_illegal_action_raises_with_reason_and_changes_nothing(what, setup, action):
    """rules.md / game.py: an action the rules do not allow raises IllegalAction with a
    reason (the one why_* gives) and leaves the game's state exactly unchanged."""
    g = setup()
    refused(g, *action(g))


def test_game_over_accepts_no_action():
    """rules.md: the game ends (Island One after the last 15th turn, Island Two at 10 VP):
    no further action is accepted, and the reason says the game is over."""
    for g in (_island_one_over(), _island_two_won()):
        assert refused(g, "roll") == "the game is over"
        assert refused(g, "build", item(g, "K4")) == "the game is over"
        assert g.buildable() == [] and g.usable_jokers() == [] and not g.can_trade()


# ======================================================= the decisions table

@pytest.mark.parametrize("action", ["joker", "trade"])
@pytest.mark.parametrize("rolls", [1, 2])
def test_decision_no_jokers_or_trades_between_rolls(action, rolls):
    """rules.md decisions: "May jokers or gold trades be used between rolls? No: only after
    rolling is over." Using one after the 1st or 2nd roll ends rolling: no further roll
    that turn, so the die it changed is never thrown again."""
    g = put_sheet(new_game(), "K1")
    roll(g, "$$$$$$")
    if rolls == 2:
        roll(g, "$$", 0b11)
    if action == "joker":
        g.joker(joker_of(g, "K1"), 0)
    else:
        g.trade(ORE)
    assert g.rolls_left() == 0
    assert refused(g, "roll", 0b1) == "no rolls left this turn"
    assert letters(g).startswith("O")


@pytest.mark.parametrize("island,sheet,knight", [(1, "K1 K2 K3 K4 K5 K6", "K6"),
                                                 (2, "K6 K7", "K6"), (2, "K8 K9", "K8")])
def test_decision_question_joker_never_gold(island, sheet, knight):
    """rules.md decisions: "Can the '?' joker become gold? No: it becomes one of the five
    resources." """
    g = at_build("BBBBBB", island, 1, sheet)
    j = joker_of(g, knight)
    refused(g, "joker", j, 0, GOLD)
    for r in (LUMBER, maps.WOOL, GRAIN, ORE):
        assert g.why_joker(j, 0, r) is None
    g.joker(j, 0, ORE)
    assert letters(g) == "OBBBBB"


def test_decision_island_one_tie_is_a_shared_win():
    """rules.md decisions: "Island One tie: shared win." """
    g = new_game(1, 3)
    for t in range(maps.TURNS_ONE):
        turn(g, "BL$$$$", "R%d" % [0, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 1][t])
        turn(g, "$$$$$$")
        turn(g, "BL$$$$", "R%d" % [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14][t])
    assert g.over()
    assert [g.score(p) for p in range(3)] == [15, -30, 15]
    assert g.winners() == [0, 2]


def test_decision_island_two_only_one_player_reaches_10():
    """rules.md decisions: "Island Two: two players pass 10 VP? Impossible: only the player
    whose turn it is gains VP, and the game ends the moment they reach 10." The player who
    loses an award on another's turn never gains; the one whose turn it is wins alone."""
    g = new_game(2, 2)
    put_sheet(g, "R0 R1 R2 R3 R4 R5 S1 S2 S3 C1 C2", 0, longest=True)  # 7 + 2 = 9 VP
    put_sheet(g, "R0 R1 R2 R3 R4 R5 S1 S2 C1 C2 K1 K2 K3", 1, largest=True)  # 6 + 2 = 8
    assert (g.vp(0), g.vp(1)) == (9, 8)
    pass_turn(g)
    roll(g, "BL$$")
    g.stop()
    build(g, "R6")  # 6 roads in a row beat 5: Longest Road passes, 10 VP
    assert (g.vp(0), g.vp(1)) == (7, 10)
    assert g.over() and g.winners() == [1]


def test_decision_award_holder_keeps_on_a_tie():
    """rules.md decisions: "Island Two: Longest Road holder ties with a challenger — the
    holder keeps it (strictly longer takes it). Same for Largest Army." """
    g = new_game(2, 2)
    put_sheet(g, "R0 R2 R3 K1 K2", 0)
    put_sheet(g, "R0 R2 R3 K1 K2", 1)
    turn(g, "BL$", "R5")  # seat 0 takes Longest Road (5)
    turn(g, "OWG$", "K3")  # seat 1 takes Largest Army (3)
    turn(g, "OWG$$", "K3")  # seat 0 ties the army
    turn(g, "BL$$$$", "R5")  # seat 1 ties the road
    assert (g.longest, g.largest) == (0, 1)
    assert (g.vp(0), g.vp(1)) == (2, 2)


def test_decision_may_choose_not_to_build():
    """rules.md decisions: "A turn where the player can build but chooses not to: allowed;
    on Island One it scores X (-2)." """
    g = at_build("BLWGO$")
    assert g.buildable()
    g.end_turn()
    assert g.track[0] == -2 and g.score(0) == -2
    g2 = at_build("BLW", 2, 2)
    assert g2.buildable()
    g2.end_turn()
    assert g2.vp(0) == 0 and g2.player == 1


def test_decision_island_two_layout_is_data(monkeypatch):
    """rules.md decisions: "Island Two layout certainty: keep the map as data in one place,
    so that a correction is a data change, not a code change." Changing the Island Two data
    in catan.maps changes what the game allows, with no other change."""
    two = maps.ISLAND_TWO
    site_road = bytearray(two.site_road)
    site_road[two.names.index("S2")] = two.item("R4")  # pretend S2 hangs on R4
    roads = bytearray(two.roads)
    roads[two.item("R4")] = two.item("R2")  # and R4 on R2
    corrected = maps.Island(2, bytes(roads), two.names, two.kinds, two.values,
                            bytes(site_road), two.before, two.jokers, two.road_points)
    monkeypatch.setattr(maps, "ISLAND_TWO", corrected)
    g = at_build("BLBLWG", 2, 1, "R0 R2")
    assert names_word("R4", refused(g, "build", item(g, "S2")))
    build(g, "R4", "S2")
    assert {"R4", "S2"} <= built(g)
