"""Catan Dice Game: the rules core and its presentation, for MicroPython and CPython.

``const`` is MicroPython's compile-time constant marker; on CPython it is the identity,
so every module of the package can write ``from catan import const`` and run on both.
"""

__version__ = "0.1.0"

try:
    from micropython import const
except ImportError:  # CPython: host tests, the simulator, the tools

    def const(value):
        return value
