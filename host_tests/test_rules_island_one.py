"""Island One (the green side, score attack): rules.md "Island One" and maps.md, one rule
per test. Dice letters: B brick, L lumber, W wool, G grain, O ore, $ gold.
"""

import random

import pytest

from helpers import (COST, FACE, NEEDS_ONE, POINTS_ONE, RESOURCES, at_build, build, built,
                     closure, item, joker_of, letters, new_game, pass_turn, random_turn,
                     refused, road_ideals, roll, turn)
from catan import maps
from catan.game import Game

SETTLEMENTS = ("S3", "S4", "S5", "S7", "S9", "S11")
CITIES = ("C7", "C12", "C20", "C30")
KNIGHTS = ("K1", "K2", "K3", "K4", "K5", "K6")


def boxes(g, p=0):
    """Player ``p``'s score track: the boxes entered so far."""
    return list(g.track[p * maps.TURNS_ONE:p * maps.TURNS_ONE + g.turns[p]])


# ============================================================= players, turns

@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_one_to_four_players_in_seat_order(players):
    """rules.md: Island One — 1 to 4 players take turns in seat order (1, 2, 3, 4, 1, ...)."""
    g = new_game(1, players)
    seen = []
    for _ in range(2 * players + 1):
        seen.append(g.player)
        pass_turn(g)
    assert seen == [t % players for t in range(2 * players + 1)]


@pytest.mark.parametrize("players", [0, 5])
def test_player_count_outside_one_to_four(players):
    """rules.md: Island One — 1 to 4 players."""
    with pytest.raises(ValueError):
        Game(1, players, None)


def test_six_dice_every_turn():
    """rules.md: Rolling — Island One rolls six dice every turn."""
    g = new_game(1, 2)
    for _ in range(5):
        assert g.dice_count() == 6
        pass_turn(g)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_fifteen_turns_each_then_game_over(players):
    """rules.md: Island One — each player plays 15 turns; the game is over after the last
    player's 15th turn, and not before."""
    g = new_game(1, players)
    for _ in range(15 * players - 1):
        pass_turn(g)
    assert not g.over() and g.winners() == []
    assert g.player == players - 1 and g.turns[-1] == 14
    pass_turn(g)
    assert g.over()
    assert g.turns == [15] * players
    assert refused(g, "roll") == "the game is over"


# ============================================================= score track

def test_turn_points_summed_into_next_box():
    """rules.md: Score track — at the end of each turn the sum of the points built that turn
    is entered in the next box."""
    g = new_game()
    turn(g, "BLWGBL", "S3", "R0")  # 3 + 1
    turn(g, "BLBLBL", "R1", "R2", "R3")  # 1 + 1 + 1
    turn(g, "OWGOWG", "K1", "K2")  # 1 + 2
    assert boxes(g) == [4, 3, 3] and g.score(0) == 10


def test_no_build_scores_x_minus_two():
    """rules.md: Score track — a turn with no build enters an X worth -2."""
    g = new_game()
    pass_turn(g)
    turn(g, "BL$$$$", "R0")
    pass_turn(g)
    assert boxes(g) == [-2, 1, -2] and g.score(0) == -3


def test_starting_road_scores_nothing():
    """rules.md: Points — the starting road scores nothing."""
    g = new_game()
    assert g.score(0) == 0
    turn(g, "BLWG$$", "S3")  # the settlement on the starting road: 3, nothing for the road
    assert boxes(g) == [3]


@pytest.mark.parametrize("name", list(NEEDS_ONE))
def test_points_of_every_item(name):
    """rules.md / maps.md: Points — road 1, settlement and city their printed value, knight
    its number."""
    cost = COST[name[0]]
    g = at_build(cost + "$" * (6 - len(cost)), 1, 1, " ".join(closure(1, name)))
    build(g, name)
    g.end_turn()
    assert boxes(g) == [POINTS_ONE[name]]


def test_printed_points_total_145():
    """maps.md: the printed points of Island One add up to 16 + 39 + 69 + 21 = 145."""
    isl = maps.ISLAND_ONE
    assert sum(isl.value(i) for i in range(isl.n_items)) == 145 == sum(POINTS_ONE.values())


def test_seed_example_road_and_knight_score_two():
    """Seed rule text, example: a settlement (3) on turn 1, two roads (2) on turn 2, then a
    road and a knight, each worth 1: 2 in the third box."""
    g = new_game()
    turn(g, "BLWG$$", "S3")
    turn(g, "BLBL$$", "R0", "R2")
    turn(g, "LBWOG$", "R3", "K1")
    assert boxes(g) == [3, 2, 2]


def test_seed_example_55_points_with_two_x_totals_51():
    """Seed rule text, example: 55 points scored with two X's makes a final score of 51."""
    g = new_game()
    plan = [("BLWG$$", "S3"), ("BL$$$$", "R0"), ("BL$$$$", "R2"), ("BL$$$$", "R3"),
            ("BLWG$$", "S4"), ("OWGOWG", "K1", "K2"), ("OWGOWG", "K3", "K4"),
            ("OWGOWG", "K5", "K6"), ("BL$$$$", "R1"), ("OOOGG$", "C7"), ("$$$$$$",),
            ("BL$$$$", "R4"), ("OOOGG$", "C12"), ("$$$$$$",), ("BLBLBL", "R5", "R6", "R7")]
    for step in plan:
        turn(g, *step)
    assert g.over()
    assert sum(b for b in boxes(g) if b != -2) == 55
    assert boxes(g).count(-2) == 2
    assert g.score(0) == 51


def test_highest_total_wins():
    """rules.md: Island One — the highest total after 15 turns each wins."""
    g = new_game(1, 2)
    turn(g, "BL$$$$", "R0")
    for _ in range(29):
        pass_turn(g)
    assert g.over() and g.score(0) == -27 and g.score(1) == -30
    assert g.winners() == [0]


# ============================================================= ordering

@pytest.mark.parametrize("sequence", [SETTLEMENTS, CITIES, KNIGHTS])
def test_ascending_order(sequence):
    """rules.md: Ordering — settlements (3, 4, 5, 7, 9, 11), cities (7, 12, 20, 30) and
    knights (1 to 6) are built in ascending order: each needs the one before it, even with
    its road built."""
    roads = " ".join("R%d" % r for r in range(16))
    for k in range(1, len(sequence)):
        # everything before it but the one just before: refused, naming that one
        sheet = roads + " " + " ".join(sequence[:k - 1])
        cost = COST[sequence[k][0]]
        g = at_build(cost + "$" * (6 - len(cost)), 1, 1, sheet)
        reason = refused(g, "build", item(g, sequence[k]))
        assert "after %s" % sequence[k - 1] in reason


def test_orders_are_independent():
    """rules.md: Ordering — the three sequences are independent of each other: the first
    city and the first knight need no settlement."""
    g = at_build("OOOGGO", 1, 1, "R0 R1")
    build(g, "C7")
    g.end_turn()
    turn(g, "OWG$$$", "K1")
    assert built(g) == {"R0", "R1", "C7", "K1"}


def test_settlement_order_with_roads_in_one_turn():
    """rules.md: Building + Ordering — a road, then the next settlement it unlocks, in one
    turn (S3 built before)."""
    g = at_build("BLBLWG", 1, 1, "R0 S3")
    build(g, "R2", "S4")
    g.end_turn()
    assert boxes(g) == [5]


# ============================================================= jokers

@pytest.mark.parametrize("resource", list(RESOURCES))
def test_k6_joker_any_resource(resource):
    """rules.md: Island One jokers — knight 6 gives any resource ("?")."""
    g = at_build("$$$$$$", 1, 1, " ".join(KNIGHTS))
    g.joker(joker_of(g, "K6"), 3, FACE[resource])
    assert letters(g) == "$$$" + resource + "$$"


def test_joker_does_not_change_knight_points():
    """rules.md: Island One jokers — using a joker does not change the points of its knight:
    the knight's box stays, and the turn of the joker scores only what it builds."""
    g = new_game()
    turn(g, "OWG$$$", "K1")
    roll(g, "BLOO$$")
    g.stop()
    g.joker(joker_of(g, "K1"), 4)
    build(g, "R0")
    g.end_turn()
    turn(g, "$$$$$$")  # a joker-only turn builds nothing: X
    assert boxes(g) == [1, 1, -2]


# ============================================================= the 132 ceiling

def test_everything_needs_more_dice_than_fifteen_turns_give():
    """rules.md: the highest score is 132 because all six settlements, all cities, all
    knights and 16 roads need 94 resources against at most 15 x 6 = 90 rolled."""
    need = sum(len(COST[n[0]]) for n in NEEDS_ONE)
    assert need == 94 > 15 * 6
    assert sum(POINTS_ONE.values()) == 145


def _prefix(sequence, roads):
    # How many of ``sequence`` (in order) have their roads in ``roads``.
    k = 0
    for name in sequence:
        if not all(n in roads for n in NEEDS_ONE[name] if n[0] == "R"):
            break
        k += 1
    return k


def test_no_sheet_fifteen_turns_can_fill_scores_over_132():
    """rules.md: the highest score possible is 132. Every sheet that can stand (roads on
    roads, the orders kept) is checked against what 15 turns of 6 dice can pay: no build
    costs 1 die, so a turn that builds a city (5) spends at most 5 dice, and two cities
    (10) never share a turn; jokers and trades never add a die. So the dice spent are at
    most 90 minus the number of cities, and the best such sheet scores 132."""
    pts = POINTS_ONE
    best = 0
    for roads in road_ideals(1):
        road_dice = 2 * len(roads)
        for s in range(_prefix(SETTLEMENTS, roads) + 1):
            for c in range(_prefix(CITIES, roads) + 1):
                for k in range(7):
                    dice = road_dice + 4 * s + 6 * c + 3 * k  # a city: 5 + the idle die
                    if dice <= 90:
                        best = max(best, len(roads) + sum(pts[n] for n in SETTLEMENTS[:s])
                                   + sum(pts[n] for n in CITIES[:c]) + k * (k + 1) // 2)
    assert best == 132


BEST_GAME = [("BLWGBL", "S3", "R0"), ("BLBLWG", "R2", "S4"), ("BLBLBL", "R1", "R3", "R4"),
             ("OOOGG$", "C7"), ("OOOGG$", "C12"), ("BLBLWG", "R5", "S5"),
             ("BLBLBL", "R6", "R7", "R12"), ("BLWGBL", "S7", "R8"), ("BLBLWG", "R9", "S9"),
             ("BLBLBL", "R13", "R14", "R15"), ("OOOGG$", "C20"), ("OOOGG$", "C30"),
             ("OWGOWG", "K1", "K2"), ("OWGOWG", "K3", "K4"), ("OWGOWG", "K5", "K6")]


def test_best_case_game_scores_exactly_132():
    """rules.md: 132 with perfect dice — every settlement but S11 (and its roads R10, R11),
    all cities, all knights, no X."""
    g = new_game()
    for step in BEST_GAME:
        turn(g, *step)
    assert g.over() and -2 not in boxes(g)
    assert g.score(0) == 132
    assert built(g) == set(NEEDS_ONE) - {"S11", "R10", "R11"}


def _random_turn(g, rng, lucky):
    # One legal turn chosen at random. ``lucky``: the dice show exactly what a random plan
    # of builds needs (perfect dice), else they are random and the choices random.
    if lucky:
        plan, have, spare = [], built(g), 6
        while rng.random() < 0.9:
            options = [n for n in NEEDS_ONE if n not in have and n not in plan
                       and all(m in have or m in plan for m in NEEDS_ONE[n])
                       and len(COST[n[0]]) <= spare]
            if not options:
                break
            plan.append(rng.choice(options))
            spare -= len(COST[plan[-1][0]])
        turn(g, "".join(COST[n[0]] for n in plan) + "$" * spare, *plan)
        return
    random_turn(g, rng)


@pytest.mark.parametrize("lucky", [False, True], ids=["random dice", "perfect dice"])
def test_random_legal_games_never_exceed_132(lucky):
    """rules.md: no legal 15-turn game exceeds 132 — random legal games, with random dice
    and with dice that always show what a random plan needs."""
    rng = random.Random(132)
    for _ in range(150):
        g = new_game(1, 2)
        while not g.over():
            _random_turn(g, rng, lucky)
        for p in range(2):
            assert g.score(p) <= 132
            assert len(boxes(g, p)) == 15
            assert all(b == -2 or 1 <= b <= 30 for b in boxes(g, p))


def test_best_case_game_uses_every_die_it_can():
    """rules.md: the 132 game spends 86 dice: all 90 but the one idle die of each of the
    four city turns (so no game can squeeze one more road in)."""
    spent = sum(len(COST[n[0]]) for step in BEST_GAME for n in step[1:])
    assert spent == 90 - 4
    assert all(len(step[0]) == 6 for step in BEST_GAME)
