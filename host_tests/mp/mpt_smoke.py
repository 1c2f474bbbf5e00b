"""Smoke test under real MicroPython: the VM is MicroPython and catan imports from .mpy.

Run by host_tests/test_micropython.py under the unix and the wasm port; prints
`catan-file:` and `maxsize:` lines that the host side checks, and ALL-OK last.
"""

import sys

assert sys.implementation.name == "micropython", sys.implementation

import catan
from catan import const

assert isinstance(catan.__version__, str) and catan.__version__.count(".") == 2, catan.__version__
assert const(7) == 7

print("vm:", sys.implementation, sys.platform)
print("maxsize:", sys.maxsize)
print("catan-file:", catan.__file__)
print("ALL-OK")
