"""Catan Dice Game: the rules core and its presentation, for MicroPython and CPython.

``const`` is MicroPython's compile-time constant marker; on CPython it is the identity,
so every module of the package can write ``from catan import const`` and run on both.

``TABLES`` holds what must outlive the modules that use it: on a stock firmware the computer
players' code is let go and imported again (``ui.memory``: the memory plan), but the arrays of their
dice tables and of their cache of dice chances (``reserve``: what they are is ``players.reroll``'s
business) stay here and are taken up again.
"""

__version__ = "0.1.0"
# the players' table arrays, whether the dice multisets in them are made, and the arrays of the
# cache of dice chances
TABLES = [None, False, None]


def reserve(tables=True, chances=False):
    """Allocate the players' arrays in ``TABLES`` that are not: with ``tables``, the keys, sizes
    and children of the 924 multisets of 0..6 dice and three tables of a value per multiset
    (``players.reroll``), 21 KB in blocks of up to 5.5 KB; with ``chances``, the keys and values
    of the 204 dice chances the players cache, 2.4 KB (all the easy level needs). The memory plan
    makes them at boot (``ui.memory``); a player makes them when first needed if they are not.
    Here, not in the players' modules, so that a small heap can make them before it imports that
    code."""
    from array import array

    if tables and TABLES[0] is None:
        # the zeros first, so that they leave one gap below the arrays, not one between each
        zeros, more = bytes(4 * 924), bytes(12 * 462)
        TABLES[0] = (array("i", zeros), bytearray(924), array("h", more),
                     (array("f", zeros), array("f", zeros), array("f", zeros)))
    if chances and TABLES[2] is None:
        few = bytes(8 * 204)
        half = few[:4 * 204]
        TABLES[2] = (array("i", half), array("d", few))


try:
    from micropython import const
except ImportError:  # CPython: host tests, the simulator, the tools

    def const(value):
        return value
