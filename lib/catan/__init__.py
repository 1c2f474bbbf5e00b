"""Catan Dice Game: the rules core and its presentation, for MicroPython and CPython.

``const`` is MicroPython's compile-time constant marker; on CPython it is the identity,
so every module of the package can write ``from catan import const`` and run on both.

``TABLES`` holds what must outlive the modules that use it: on a small heap the computer players'
code is dropped and imported again (``ui.app.App.release_players``), but the arrays of their dice
tables, allocated once (``players.reroll.reserve``), stay here and are taken up again.
"""

__version__ = "0.1.0"
TABLES = [None, False]  # the players' table arrays, and whether the dice multisets in them are made

try:
    from micropython import const
except ImportError:  # CPython: host tests, the simulator, the tools

    def const(value):
        return value
