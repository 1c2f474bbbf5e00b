"""The rules core used from outside, as another front end would (issue 13): jokers named by
their knight, "is this joker used?" at any time, what is still missing before an item,
ScriptedDice's own error, and a validated way to set up a position."""

import pytest
from catan.codec import SaveError
from catan.dice import DiceExhausted, ScriptedDice, SeededDice
from catan.game import ROLL, Game
from catan.maps import ANY, ISLAND_ONE, ISLAND_TWO
from catan.position import setup


def test_jokers_are_named_by_their_knights():
    isl = ISLAND_ONE
    for j in range(len(isl.jokers)):
        name = isl.joker_name(j)
        assert isl.joker_of(isl.item(name)) == j
    assert isl.joker_of(isl.item("R0")) == -1 and isl.joker_of(isl.item("S3")) == -1
    two = ISLAND_TWO
    names = [two.joker_name(j) for j in range(len(two.jokers))]
    assert any("+" in n for n in names)  # a joker that needs two knights names both
    for j, n in enumerate(names):
        for k in n.split("+"):
            assert two.joker_of(two.item(k)) == j or two.jokers[two.joker_of(two.item(k))][0] == ANY


def test_is_this_joker_used_between_turns():
    built = ("R0", "R1", "R2", "S3", "K1")  # 13 dice of costs: three turns (the codec checks)
    g = setup(1, 1, ScriptedDice([]), built=(built,), used=(("K1",),), turns=(3,),
              track=((_points(built[:2]), _points(built[2:4]), _points(built[4:])),))
    j = ISLAND_ONE.joker_of(ISLAND_ONE.item("K1"))
    assert g.phase == ROLL
    assert g.joker_used(j) and g.joker_used(j, 0)
    assert not any(g.joker_used(k) for k in range(len(ISLAND_ONE.jokers)) if k != j)
    assert g.why_joker(j, 0) == "roll the dice first"  # the old way could not tell


def test_what_is_still_missing_before_an_item():
    g = Game(1, 1, SeededDice(1))
    isl = g.island
    c = isl.item("C7")
    miss = g.missing(c)
    assert miss and all(not g.is_built(i) for i in miss)
    for i in miss:  # everything it names is needed, every step back
        assert c in _closure_users(isl, i)
    assert g.missing(isl.item("R0")) == [] and g.missing(isl.item("S3")) == []
    assert [isl.name(i) for i in g.missing(isl.item("S5"))] == ["R0", "R2", "R3", "R5", "S3",
                                                                 "S4"]
    built = ("R0", "R1", "R2", "S3")
    g2 = setup(1, 1, ScriptedDice([]), built=(built,), turns=(2,),
               track=((_points(built[:2]), _points(built[2:])),))
    assert g2.missing(isl.item("S3")) == []
    assert set(g2.missing(c)) < set(miss)


def _points(names):
    return sum(ISLAND_ONE.value(ISLAND_ONE.item(n)) for n in names)


def _closure_users(isl, i):
    # the items that need ``i``, directly or through others
    out = set()
    todo = [i]
    while todo:
        k = todo.pop()
        for it in range(isl.n_items):
            if k in isl.needs(it) and it not in out:
                out.add(it)
                todo.append(it)
    return out


def test_scripted_dice_say_they_ran_out():
    d = ScriptedDice([1, 2])
    assert (d.face(), d.face()) == (1, 2)
    with pytest.raises(DiceExhausted, match="ran out"):
        d.face()
    assert not issubclass(DiceExhausted, ValueError)  # not mistaken for a refused action
    g = Game(1, 1, ScriptedDice([0, 1, 2]))
    with pytest.raises(DiceExhausted):
        g.roll()


def test_setup_a_position_validated_like_a_save():
    g = setup(2, 2, SeededDice(3), built=(("R0", "R1", "K1"), ("R0",)), turns=(2, 1),
              player=1)
    assert g.player == 1 and g.turns == [2, 1] and g.is_built(g.island.item("K1"), 0)
    g.roll()  # it plays on
    with pytest.raises(SaveError):  # a settlement without its road
        setup(1, 1, ScriptedDice([]), built=(("S4",),), turns=(1,), track=((_points(["S4"]),),))
    with pytest.raises(SaveError):  # more built than two turns' dice could pay for
        built = ("R0", "R1", "R2", "S3", "K1")
        setup(1, 1, ScriptedDice([]), built=(built,), turns=(2,),
              track=((_points(built[:3]), _points(built[3:])),))
    with pytest.raises(ValueError):  # a track that does not add up to the turns
        setup(1, 1, ScriptedDice([]), turns=(2,), track=((1,),))
    with pytest.raises(SaveError):  # Largest Army with no knights
        setup(2, 2, SeededDice(3), turns=(1, 1), largest=0)
