"""The standing test of issue 14 under MicroPython (see boot_cases.py): for each storage
file kind and each way it can be wrong, with seeded random bytes, the app boots on the real
filesystem (firmware/store.py) to a working title screen, reports the problem once, sets the
thing aside, and the next save succeeds. Prints ALL-OK last."""

import boot_cases
import ui_autokeys
from catan.dice import SeededDice
from catan.ui.fb_canvas import FbCanvas

ROOT = "/tmp/mpt_boot_storage"
canvas = FbCanvas(240, 135)


def dice(seed):
    return SeededDice(5 if seed is None else seed)


def press(app, key):
    ui_autokeys.press(app, key, app.now + 50)


state = 12345


def blob(n):
    # a small LCG: the same bytes on every port
    global state
    out = bytearray(n)
    for i in range(n):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        out[i] = state >> 16 & 0xFF
    return bytes(out)


cases = 0
for kind in boot_cases.KINDS:
    for how in boot_cases.HOWS:
        for size in (0, 7, 40, 200):
            boot_cases.put(ROOT, kind, how, blob(size), dice)
            reported = boot_cases.check(ROOT, kind, canvas, dice, press)
            assert reported or how == "nonsense", (kind, how, size)
            cases += 1
boot_cases.rm(ROOT)
print("cases:", cases)
print("ALL-OK")
