"""What lib/ may import: the modules of the Pico's stock MicroPython firmware (rp2 port).

Used by host_tests/test_imports_allowed.py (the guard) and tools/bench.py. Edit here when
the firmware or the project's targets change.
"""

# Modules of the stock rp2 firmware that lib/ may use, and their u-prefixed aliases.
PICO_MODULES = frozenset("""
    micropython gc sys os time struct array math errno io json binascii hashlib random
    collections re select framebuf machine rp2 uctypes heapq asyncio deflate
""".split())
ALLOWED = PICO_MODULES | {"u" + name for name in PICO_MODULES}  # utime, ustruct, uos, ...

# CPython modules people reach for that the firmware does not have, with what to do instead.
FORBIDDEN = {
    "typing": "no typing at run time; put type hints in docstrings or comments",
    "dataclasses": "use a plain class or a tuple",
    "enum": "use _NAME = const(n) integer constants",
    "functools": "not in the firmware",
    "itertools": "not in the firmware; write the loop",
    "abc": "not in the firmware",
    "copy": "not in the firmware; copy explicitly (list(x), bytes(x), ...)",
    "string": "not in the firmware; use str methods",
    "types": "not in the firmware",
}

# Modules of lib/ that are never loaded on the rp2 firmware, with the extra modules each
# may import (path relative to lib/). Keep this short and say why.
NOT_FOR_PICO = {
    # the displayio back end of the canvas: Blinka on CPython (simulator) and CircuitPython
    "catan/ui/dio_canvas.py": ("displayio", "bitmaptools"),
}
