"""Catan Dice Game: the rules core and its presentation, for MicroPython and CPython.

``const`` is MicroPython's compile-time constant marker; on CPython it is the identity,
so every module of the package can write ``from catan import const`` and run on both.

``TABLES`` holds what must outlive the modules that use it: on a small heap the computer players'
code is dropped and imported again (``ui.app.App.release_players``), but the arrays of their dice
tables (``reserve``: what they are is ``players.reroll``'s business) stay here and are taken up
again.
"""

__version__ = "0.1.0"
TABLES = [None, False]  # the players' table arrays, and whether the dice multisets in them are made


def reserve():
    """Allocate the players' table arrays in ``TABLES`` if they are not: the keys, sizes and
    children of the 924 multisets of 0..6 dice, three tables of a value per multiset, and the
    keys and values of the 204 dice chances the players cache (``players.reroll``), 23 KB in
    blocks of up to 5.5 KB. Here, not in the players' modules, so that a small heap can make
    them before it imports that code (``App.players``)."""
    if TABLES[0] is None:
        from array import array

        # the zeros first, so that they leave one gap below the arrays, not one between each
        zeros, more, few = bytes(4 * 924), bytes(12 * 462), bytes(8 * 204)
        half = few[:4 * 204]
        TABLES[0] = (array("i", zeros), bytearray(924), array("h", more),
                     (array("f", zeros), array("f", zeros), array("f", zeros)),
                     (array("i", half), array("d", few)))

try:
    from micropython import const
except ImportError:  # CPython: host tests, the simulator, the tools

    def const(value):
        return value
