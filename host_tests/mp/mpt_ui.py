"""The app's screens through the framebuf back end under real MicroPython.

Without arguments (host_tests/test_micropython.py, unix and wasm ports, .mpy build): plays the
scenes of ui_scenes.py that need no computer player at 240x135 and checks after every key that
the partial redraws left exactly the picture a full repaint gives; prints ALL-OK last.

``mpt_ui.py OUTDIR W H [NAME ...]`` (host_tests/test_ui_screens.py, unix port): renders the
named scenes (default: all) at WxH, writes each picture's GS4 buffer to ``OUTDIR/NAME.gs4``,
checks partial against full redraws as well, and prints ALL-OK.
"""

import gc
import sys

import ui_scenes
from catan.ui.fb_canvas import FbCanvas

_SIMPLE = ("title", "new_game_seats", "game_code", "turn_reroll", "turn_refused", "turn_build",
           "turn_joker_die", "turn_trade", "turn_confirm_x", "turn_built", "pause", "stats_one",
           "dice_fairness", "rules_island_two", "settings", "storage_problem")


def play(name, w, h):
    c = FbCanvas(w, h)
    full = FbCanvas(w, h)
    steps = [0]

    def check(app):
        ui_scenes.repaint(app, full)
        steps[0] += 1
        if c.buffer != full.buffer:
            raise AssertionError("%s at %dx%d, step %d: partial redraw differs from a full one"
                                 % (name, w, h, steps[0]))

    ui_scenes.run(name, c, check)
    return c


def main(args):
    if not args:
        for name in _SIMPLE:
            play(name, 240, 135)
            gc.collect()
        print("scenes checked:", len(_SIMPLE))
    else:
        out = args[0]
        w = int(args[1])
        h = int(args[2])
        for name in args[3:] or ui_scenes.NAMES:
            c = play(name, w, h)
            with open("%s/%s.gs4" % (out, name), "wb") as f:
                f.write(c.buffer)
            c = None
            gc.collect()
    print("ALL-OK")


main(sys.argv[1:])
