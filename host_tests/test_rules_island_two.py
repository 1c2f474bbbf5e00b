"""Island Two (the red side, "Plus": race to 10 VP): rules.md "Island Two" and maps.md, one
rule per test. Dice letters: B brick, L lumber, W wool, G grain, O ore, $ gold.
"""

import random

import pytest

from helpers import (COST, DESERTS_TWO, FACE, NEEDS_TWO, RESOURCES, VP_TWO, at_build, build,
                     built, closure, item, joker_of, letters, new_game, pass_turn, put_sheet,
                     random_turn, refused, road_ideals, roll, turn)
from catan.game import Game
from catan.maps import ORE

MAIN_LINE = "R0 R2 R3 R5 R6 R7 R8 R9 R10 R12 R13 R14 R15 R16"


def two_players(a="", b="", longest=-1, largest=-1):
    """A two-player game with sheets ``a`` and ``b`` in place, and the awards held by the
    seats given (-1: nobody)."""
    g = new_game(2, 2)
    for p, sheet in enumerate((a, b)):
        put_sheet(g, sheet, p, longest=longest == p, largest=largest == p)
    return g


def play(g, text, *names):
    """Roll ``text`` and build ``names`` (the turn stays open)."""
    roll(g, text)
    g.stop()
    return build(g, *names)


# ============================================================= players, dice

@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_solo_and_two_to_four_players(players):
    """rules.md: Island Two — 2 to 4 players in seat order, or one player racing alone."""
    g = new_game(2, players)
    seen = []
    for _ in range(2 * players):
        seen.append(g.player)
        pass_turn(g)
    assert seen == [t % players for t in range(2 * players)]


@pytest.mark.parametrize("players", [0, 5])
def test_player_count_outside_one_to_four(players):
    """rules.md: Island Two — at most 4 players (and at least the solo player)."""
    with pytest.raises(ValueError):
        Game(2, players, None)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_dice_ramp(players):
    """rules.md: Dice ramp — the n-th turn of the game, whoever plays it, rolls
    min(6, n + 2) dice: 3, 4, 5, 6, 6, ..."""
    g = new_game(2, players)
    for n in range(1, 10):
        count = min(6, n + 2)
        assert g.dice_count() == count
        if count < 6:
            refused(g, "roll", 1 << count)  # no die beyond the turn's dice
        roll(g, "W" * count)  # the roll throws exactly these dice (helpers checks)
        assert letters(g) == "W" * count
        g.end_turn()


def test_solo_rolls_six_dice_every_turn():
    """rules.md: Solo play — one player races alone with 6 dice every turn."""
    g = new_game(2, 1)
    for _ in range(5):
        assert g.dice_count() == 6
        pass_turn(g)


# ============================================================= victory points

@pytest.mark.parametrize("name", list(NEEDS_TWO))
def test_victory_points_of_every_item(name):
    """rules.md: Victory points — settlement 1, city 2; roads and knights are worth nothing
    by themselves. (The player holds both awards already, so no award changes hands.)"""
    cost = COST[name[0]]
    g = new_game(2, 1)
    put_sheet(g, " ".join(closure(2, name)), longest=True, largest=True)
    before = g.vp(0)
    play(g, cost + "$" * (6 - len(cost)), name)
    assert g.vp(0) - before == VP_TWO[name]


def test_sheet_is_worth_nineteen():
    """maps.md: VP on the sheet: 7 settlements + 4 cities x 2 + Longest Road 2 + Largest
    Army 2 = 19."""
    g = new_game(2, 1)
    put_sheet(g, " ".join(NEEDS_TWO), longest=True, largest=True)
    assert g.vp(0) == 19


def test_no_score_track_and_no_penalty():
    """rules.md: Island Two — there is no score track and no -2 for a turn without a build."""
    g = new_game(2, 2)
    for _ in range(6):
        pass_turn(g)
    assert g.vp(0) == g.vp(1) == 0 and not g.over()


# ============================================================= free order

def test_settlements_cities_knights_in_any_order():
    """rules.md: Island Two — no ordering: settlements, cities and knights may be built in
    any order (here S3 with no S1 or S2, C4 first of the cities, K9 first of the knights)."""
    g = at_build("BLWGOO", 2, 1, MAIN_LINE + " R11")
    build(g, "S3")
    g.end_turn()
    turn(g, "OOOGG$", "C4")
    turn(g, "OWG$$$", "K9")
    assert {"S3", "C4", "K9"} <= built(g)


@pytest.mark.parametrize("site,road", [("S4", "R9"), ("C3", "R7"), ("S7", "R16")])
def test_free_order_sites_still_need_their_road(site, road):
    """rules.md: Island Two — no ordering, but sites still need their road."""
    cost = COST[site[0]]
    g = at_build(cost + "$" * (6 - len(cost)), 2, 1,
                 " ".join(n for n in closure(2, site) if n != road))
    assert road in refused(g, "build", item(g, site))


# ============================================================= jokers

@pytest.mark.parametrize("sheet", ["K6", "K7", "K8", "K9", "K6 K8", "K7 K9"])
def test_desert_joker_needs_both_knights(sheet):
    """rules.md: Jokers — each desert's "?" joker is used only after both knights of that
    desert are built; the reason names them."""
    g = at_build("$$$$$$", 2, 1, sheet)
    for pair in DESERTS_TWO:
        j = joker_of(g, pair[0])
        reason = refused(g, "joker", j, 0, ORE)
        assert pair[0] in reason and pair[1] in reason


@pytest.mark.parametrize("pair", DESERTS_TWO)
@pytest.mark.parametrize("resource", list(RESOURCES))
def test_desert_joker_any_resource(pair, resource):
    """rules.md: Jokers — a desert's "?" joker gives any resource once both its knights are
    built."""
    g = at_build("$$$$$$", 2, 1, " ".join(pair))
    g.joker(joker_of(g, pair[0]), 5, FACE[resource])
    assert letters(g) == "$$$$$" + resource


def test_desert_joker_with_knights_built_this_turn():
    """rules.md: Jokers — a desert's joker may be used in the turn its second knight is built."""
    g = at_build("OWG$$$", 2, 1, "K6")
    build(g, "K7")
    g.joker(joker_of(g, "K7"), 3, ORE)
    assert letters(g) == "O$$"


def test_one_joker_per_desert():
    """rules.md: Jokers — the two knights of a desert share one joker, used once; the other
    desert's joker is separate."""
    g = at_build("$$$$$$", 2, 1, "K6 K7 K8 K9")
    top, centre = joker_of(g, "K6"), joker_of(g, "K8")
    assert top == joker_of(g, "K7") and centre == joker_of(g, "K9") and top != centre
    g.joker(top, 0, ORE)
    assert "used" in refused(g, "joker", top, 1, ORE)
    g.joker(centre, 1, ORE)
    assert letters(g) == "OO$$$$"
    assert len(g.island.jokers) == 7  # K1..K5, and one per desert


# ============================================================= Largest Army

def test_largest_army_first_to_three_knights():
    """rules.md: Largest Army (2 VP) — the first player to have 3 knights takes it; two
    knights are not enough."""
    g = two_players("K1", "K1 K2")
    play(g, "OWG", "K2")
    assert g.largest == -1 and g.vp(0) == 0
    g.end_turn()
    play(g, "OWG$", "K3")
    assert g.largest == 1 and g.vp(1) == 2


def test_largest_army_any_knights_count():
    """rules.md: Largest Army — any three knights (free order, desert knights too)."""
    g = new_game(2, 1)
    turn(g, "OWGOWG", "K7", "K9")
    assert g.largest == -1
    play(g, "OWG$$$", "K8")
    assert g.largest == 0 and g.knights(0) == 3


def test_largest_army_tie_keeps_holder():
    """rules.md: Largest Army — afterwards only strictly more knights take it over; an equal
    count leaves it with the holder."""
    g = two_players("K1 K2 K3", "K1 K2", largest=0)
    pass_turn(g)
    play(g, "OWG$", "K3")
    assert g.largest == 0 and (g.vp(0), g.vp(1)) == (2, 0)


def test_largest_army_strictly_more_takes_it_and_holder_loses_two():
    """rules.md: Largest Army — a player with strictly more knights than the holder takes it
    over at once; the former holder loses the 2 VP."""
    g = two_players("K1 K2 K3", "K1 K2 K3", largest=0)
    pass_turn(g)
    play(g, "OWG$", "K4")
    assert g.largest == 1 and (g.vp(0), g.vp(1)) == (0, 2)


def test_largest_army_changes_hands_again():
    """rules.md: Largest Army — the former holder takes it back with strictly more again."""
    g = two_players("K1 K2 K3", "K1 K2 K3 K4", largest=1)
    play(g, "OWG", "K4")
    assert g.largest == 1  # 4 against 4
    g.end_turn()
    pass_turn(g)
    play(g, "OWG$$", "K5")
    assert g.largest == 0 and (g.vp(0), g.vp(1)) == (2, 0)


def test_jokers_do_not_reduce_knights():
    """rules.md: Largest Army — using jokers does not reduce a player's knight count."""
    g = two_players("K1 K2 K3", "K1 K2", largest=0)
    roll(g, "$$$")
    g.stop()
    g.joker(joker_of(g, "K1"), 0)
    g.joker(joker_of(g, "K2"), 1)
    g.joker(joker_of(g, "K3"), 2)
    assert g.knights(0) == 3
    g.end_turn()
    play(g, "OWG$", "K3")  # 3 against 3: the holder keeps it
    assert g.largest == 0 and g.knights(0) == 3


# ============================================================= Longest Road

@pytest.mark.parametrize("sheet,length", [
    ("", 1),  # the starting road alone
    ("R0", 2),
    ("R0 R1", 3),
    ("R0 R1 R2", 3),  # R1 and R2 branch at the same corner: the branch does not add
    ("R0 R2 R3 R5", 5),
    ("R0 R2 R3 R4", 5),
    ("R0 R1 R2 R3 R4 R5", 5),
    ("R0 R2 R3 R5 R6", 6),
    ("R0 R2 R3 R5 R6 R7 R8 R9 R10 R11", 11),
    ("R0 R2 R3 R5 R6 R7 R8 R9 R10 R11 R12", 11),
    (MAIN_LINE, 15),
    (MAIN_LINE + " R1 R4 R11", 15),
])
def test_road_length_is_longest_simple_path(sheet, length):
    """rules.md: Longest Road — a player's road is the longest simple path through their own
    built roads, the starting road included; branches do not add."""
    g = put_sheet(new_game(2, 2), sheet)
    assert g.road_length(0) == length


def test_grey_road_first_takes_longest_road():
    """rules.md: Longest Road (2 VP) — the first player to build the grey road R5 (start, R0,
    R2, R3, R5: five roads) takes it."""
    g = two_players("R0 R2 R3")
    play(g, "BL$", "R5")
    assert g.longest == 0 and g.vp(0) == 2 and g.road_length(0) == 5


def test_five_roads_without_grey_road_do_not_take_it():
    """rules.md: Longest Road — a 5-road path without R5 (start-R0-R2-R3-R4) does not take it
    while nobody holds it."""
    g = two_players("R0 R2 R3")
    play(g, "BL$", "R4")
    assert g.road_length(0) == 5 and g.longest == -1 and g.vp(0) == 0


def test_grey_road_takes_it_against_an_equal_path():
    """rules.md: Longest Road — the first to build the grey road takes it, even when another
    player already has five roads in a row elsewhere."""
    g = two_players("R0 R2 R3", "R0 R2 R3 R4")
    play(g, "BL$", "R5")
    assert g.longest == 0


def test_longest_road_tie_keeps_holder():
    """rules.md: Longest Road — a later grey road (an equal length) leaves it with the holder."""
    g = two_players("R0 R2 R3", "R0 R2 R3")
    turn(g, "BL$", "R5")
    play(g, "BL$$", "R5")
    assert g.longest == 0 and (g.vp(0), g.vp(1)) == (2, 0)


def test_longest_road_strictly_longer_takes_it_and_holder_loses_two():
    """rules.md: Longest Road — a strictly longer road takes it over at once, mid-turn; the
    former holder loses the 2 VP."""
    g = two_players("R0 R2 R3 R5", "R0 R2 R3 R5", longest=0)
    pass_turn(g)
    play(g, "BL$$", "R6")
    assert g.longest == 1 and (g.vp(0), g.vp(1)) == (0, 2)
    assert g.player == 1  # before the turn ends


def test_longest_road_branches_do_not_add_for_the_challenger():
    """rules.md: Longest Road — branches do not add: seven roads with spurs (a 5-road path)
    do not beat a 6-road path."""
    g = two_players("R0 R2 R3 R5 R6", "R0 R1 R2 R3 R4", longest=0)
    pass_turn(g)
    play(g, "BL$$", "R5")
    assert g.road_length(1) == 5 and g.longest == 0


def test_longest_road_branches_do_not_add_for_the_holder():
    """rules.md: Longest Road — the holder's spurs do not count either: a 6-road path beats
    a holder with seven roads whose longest path is 5."""
    g = two_players("R0 R1 R2 R3 R4 R5", "R0 R2 R3 R5", longest=0)
    pass_turn(g)
    play(g, "BL$$", "R6")
    assert g.longest == 1


def test_longest_road_holder_extending_keeps_it():
    """rules.md: Longest Road — the holder building on keeps it."""
    g = two_players("R0 R2 R3 R5", "R0 R2 R3 R5 R6", longest=0)
    play(g, "BL$", "R6")
    assert g.longest == 0


def test_longest_road_changes_hands_again():
    """rules.md: Longest Road — every transfer needs strictly longer: a tie with the new
    holder does not bring it back, one more road does."""
    g = two_players("R0 R2 R3 R5", "R0 R2 R3 R5 R6", longest=1)
    play(g, "BL$", "R6")
    assert g.longest == 1  # 6 against 6
    g.end_turn()
    pass_turn(g)
    play(g, "BL$$$", "R7")
    assert g.longest == 0 and (g.vp(0), g.vp(1)) == (2, 0)


def test_undo_gives_awards_back():
    """rules.md: Undo — taking back a build takes back the award it moved."""
    g = two_players("R0 R2 R3 R5 K1 K2 K3", "R0 R2 R3 R5 K1 K2 K3", longest=0, largest=0)
    for _ in range(3):
        pass_turn(g)
    play(g, "BLOWG$", "R6", "K4")
    assert (g.longest, g.largest) == (1, 1)
    g.undo()
    assert (g.longest, g.largest) == (1, 0)
    g.undo()
    assert (g.longest, g.largest) == (0, 0) and (g.vp(0), g.vp(1)) == (4, 0)


# ============================================================= winning

def test_instant_win_at_ten_mid_turn():
    """rules.md: Island Two — the first player to hold 10 VP wins at once, in the middle of
    a turn; the game ends there and no further action is accepted."""
    g = two_players("R0 R1 R2 R3 R4 S1 S2 C1 C2 K1 K2")  # 6 VP
    for _ in range(4):
        pass_turn(g)
    play(g, "BLOWG$", "R5")  # Longest Road: 8
    assert not g.over()
    build(g, "K3")  # Largest Army: 10, one die still unspent
    assert g.over() and g.winners() == [0] and g.vp(0) == 10
    assert letters(g) == "$"
    for action in (("end_turn",), ("roll",), ("build", item(g, "K4")),
                   ("joker", joker_of(g, "K1"), 5), ("trade", ORE)):
        assert refused(g, *action) == "the game is over"
    refused(g, "undo")
    assert g.player == 0 and g.turns == [2, 2]


def test_winners_empty_while_playing():
    """rules.md: Island Two — nobody wins before someone holds 10 VP."""
    g = two_players("R0 R1 R2 R3 R4 S1 S2 C1 C2")  # 6 VP
    play(g, "BL$", "R5")
    assert g.vp(0) == 8 and g.winners() == [] and not g.over()


def test_only_the_current_player_gains_vp():
    """rules.md: Island Two — only the player whose turn it is gains VP (others can only
    lose an award)."""
    g = two_players("R0 R2 R3 R5 K1 K2 K3 S1", "R0 R2 R3 R5 K1 K2 K3", longest=0,
                    largest=0)
    for _ in range(3):
        pass_turn(g)  # turns without a build change nobody's VP
        assert (g.vp(0), g.vp(1)) == (5, 0)
    roll(g, "BLOWG$")
    g.stop()
    seen = [g.vp(0)]
    for name in ("R6", "K4"):
        build(g, name)
        seen.append(g.vp(0))
    assert seen == [5, 3, 1] and g.vp(1) == 4


def test_random_games_only_current_player_gains_and_one_winner():
    """rules.md: Island Two — in random legal 2- to 4-player games, only the current player
    gains VP (an undo may give back an award this turn took), nobody but the winner ever
    holds 10, and the winner is the player whose turn it was."""
    rng = random.Random(10)
    ended = 0
    for players in (2, 3, 4):
        for _ in range(15):
            g = new_game(2, players)
            last = [0] * players
            actor = [g.player]  # who made the action just checked

            def check(g, action, players=players, last=last, actor=actor):
                now = [g.vp(p) for p in range(players)]
                for p in range(players):
                    if p != actor[0] and action[0] != "undo":  # undo gives awards back
                        assert now[p] <= last[p]
                    if p != g.winner:
                        assert now[p] < 10
                last[:] = now
                actor[0] = g.player

            while not g.over() and g.game_turn < 300:
                random_turn(g, rng, check)
            if g.over():
                ended += 1
                assert g.winners() == [g.player] and g.vp(g.player) >= 10
    assert ended >= 20  # most random games reach a winner within 300 turns


# ============================================================= solo race

def test_solo_awards_uncontested():
    """rules.md: Solo play — Longest Road on building the grey road, Largest Army on the
    third knight, uncontested."""
    g = new_game(2, 1)
    turn(g, "BLBLBL", "R0", "R2", "R3")
    assert g.longest == -1
    turn(g, "BLOWG$", "R5", "K1")
    assert g.longest == 0
    turn(g, "OWGOWG", "K2", "K3")
    assert g.largest == 0 and g.vp(0) == 4


SOLO_BEST = [("BLBLWG", "R0", "S1"), ("BLBLBL", "R2", "R3", "R5"), ("BLWGBL", "S2", "R1"),
             ("OOOGG$", "C1"), ("BLOWG$", "R4", "K1"), ("OOOGG$", "C2")]


def test_solo_perfect_dice_reach_ten_in_seven_turns():
    """maps.md: with perfect dice a solo player reaches 10 VP in 7 turns; the result is the
    number of turns taken."""
    g = new_game(2, 1)
    for step in SOLO_BEST:
        turn(g, *step)
    assert g.vp(0) == 8 and not g.over()
    play(g, "OWGOWG", "K2", "K3")
    assert g.over() and g.winners() == [0] and g.turns[0] + 1 == 7


def test_solo_cannot_reach_ten_in_six_turns():
    """maps.md: 7 turns is the best solo result: every sheet worth 10 VP (roads on roads,
    Longest Road with R5, Largest Army with 3 knights) costs at least 39 dice, more than
    six turns of six dice."""
    best = None
    for roads in road_ideals(2):
        sites = [n for n in NEEDS_TWO if n[0] in "SC" and set(NEEDS_TWO[n]) <= roads]
        cities = sum(1 for n in sites if n[0] == "C")
        settlements = len(sites) - cities
        for army in (0, 1):
            vp_left = 10 - 2 * ("R5" in roads) - 2 * army
            for c in range(cities + 1):
                s = max(0, vp_left - 2 * c)
                if s <= settlements:
                    dice = 2 * len(roads) + 9 * army + 5 * c + 4 * s
                    best = dice if best is None else min(best, dice)
    assert best == 39 > 6 * 6
