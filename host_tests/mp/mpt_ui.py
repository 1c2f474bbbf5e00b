"""The app's screens through the framebuf back end under real MicroPython.

Without arguments (host_tests/test_micropython.py, unix and wasm ports, .mpy build): plays the
scenes of ui_scenes.py that need no computer player at 240x135 and checks after every key that
the partial redraws left exactly the picture a full repaint gives; then plays a whole game
of each island by keys with the same check after every key; prints ALL-OK last.

``mpt_ui.py OUTDIR W H [NAME ...]`` (host_tests/test_ui_screens.py, unix port): renders the
named scenes (default: all) at WxH, writes each picture's GS4 buffer to ``OUTDIR/NAME.gs4``,
checks partial against full redraws as well, and plays each scene again on a canvas in bands
(the device's stock firmware), whose bands sent must make the full repaint's picture; prints
ALL-OK.
"""

import gc
import sys

import ui_autokeys
import ui_scenes
from catan.ui.fb_canvas import FbCanvas

_SIMPLE = ("title", "new_game_seats", "game_code", "turn_reroll", "turn_refused", "turn_build",
           "turn_joker_die", "turn_trade", "turn_confirm_x", "turn_built", "pause", "stats_one",
           "dice_fairness", "rules_island_two", "settings", "storage_problem", "settings_swap",
           "new_game_fair", "rules_keys")


# The two pictures' buffers at 240x135 (the panel's and a full repaint's), made once, first, as
# the device makes its framebuffer: made again for each game, they found no 16 KB block after a
# whole game had split the heap, depending on the length of the checkout's path.
_BUFFERS = []


def canvases(w, h):
    """Two canvases of ``w`` x ``h``: the one the app draws into and one for a full repaint (at
    240x135 over the buffers made first, ``_BUFFERS``)."""
    if (w, h) != (240, 135):
        return FbCanvas(w, h), FbCanvas(w, h)
    if not _BUFFERS:
        _BUFFERS.extend((bytearray(120 * 135), bytearray(120 * 135)))
    return FbCanvas(w, h, _BUFFERS[0]), FbCanvas(w, h, _BUFFERS[1])


def play(name, w, h, banded=False):
    c, full = canvases(w, h)
    steps = [0]

    def check(app):
        ui_scenes.repaint(app, full)
        steps[0] += 1
        if c.buffer != full.buffer:
            raise AssertionError("%s at %dx%d, step %d: partial redraw differs from a full one"
                                 % (name, w, h, steps[0]))

    ui_scenes.run(name, c, check)
    if banded:
        play_banded(name, w, h, full)
    return c


def play_banded(name, w, h, full):
    # The scene again on a canvas that holds a third of the rows at a time (the device's stock
    # firmware: app_main.band_rows): what it sends, band by band, as the device's driver does
    # (whole bytes), must make the panel's picture a full repaint gives, after every key.
    import fb_viper  # (firmware/: viper, so the unix port only)

    stride = (w + 1) >> 1
    c = FbCanvas(w, h, native=fb_viper, rows=(h + 2) // 3)
    panel = bytearray(stride * h)
    band = c.buffer

    def send(rects, top):
        for x, y, rw, rh in rects:
            a = x >> 1
            b = (x + rw + 1) >> 1
            for row in range(y, y + rh):
                panel[row * stride + a:row * stride + b] = band[(row - top) * stride + a:
                                                                (row - top) * stride + b]

    c.send = send
    steps = [0]

    def check(app):
        ui_scenes.repaint(app, full)
        steps[0] += 1
        if panel != full.buffer:
            n = sum(1 for k in range(len(panel)) if panel[k] != full.buffer[k])
            raise AssertionError("%s at %dx%d, step %d: the bands sent differ from a full "
                                 "repaint (%d bytes)" % (name, w, h, steps[0], n))

    ui_scenes.run(name, c, check)


def whole_game(island, levels, level):
    # A whole game played by keys; after every key the partial redraw must equal a full one.
    from catan.dice import SeededDice
    from catan.ui.app import App

    from catan.ui.memory import TIGHT, MemoryPlan

    # built as the device builds it (firmware/app_main.py): the framebuffer, the plan's arrays
    # for good (made by ``main`` at its start), then the app (a Pico's stock firmware: the code
    # is in the heap)
    c, full = canvases(240, 135)
    plan = MemoryPlan(TIGHT)
    app = App(c, ui_scenes.MemStore(), dice=lambda seed: SeededDice(31), plan=plan)
    app.new_game(island, levels)
    app.draw()
    keys = [0]

    def check(app, key):
        keys[0] += 1
        ui_scenes.repaint(app, full)
        if c.buffer != full.buffer:
            raise AssertionError("island %d, key %d (%s) on %s: partial redraw differs"
                                 % (island, keys[0], key, app.screen.__class__.__name__))

    ui_autokeys.play(app, level, check)
    assert app.game.over() and app.screen.__class__.__name__ == "GameOver"
    return keys[0]


def largest_block(most=1 << 20):
    # The largest bytearray the heap has room for now, to 256 bytes (a binary search: the unix
    # port has no call that reads it)
    gc.collect()
    lo, hi = 0, most
    while hi - lo > 256:
        mid = (lo + hi) // 2
        try:
            bytearray(mid)  # (garbage at once: the next try has the same heap)
            lo = mid
        except MemoryError:
            hi = mid
    return lo


# What the whole games must leave: the largest free block after each, at least this (bytes of
# the unix port's heap of 190K words), more than any block the game asks for once booted (the
# large font's 3.4 KB of cells, imported with a menu, were the largest; it has none of its own
# now). Measured over 24 runs from checkout paths of 10 to 60 characters, address randomisation
# on: 7.5 to 28.3 KB.
MARGIN = 4 * 1024


def keys_checked(keys, w=240, h=135):
    # Keys from the title of a fresh app (empty store), each with the check (issue 26: the
    # coach's line over the info lines of Island Two at 240x135, then a cursor move)
    from catan.dice import SeededDice
    from catan.ui.app import App

    c, full = canvases(w, h)
    app = App(c, ui_scenes.MemStore(), roles=ui_scenes.ROLES, dice=lambda seed: SeededDice(5))
    app.draw()
    now = 0
    for i in range(len(keys)):
        now += 50
        ui_autokeys.press(app, keys[i], now)
        ui_scenes.repaint(app, full)
        if c.buffer != full.buffer:
            n = sum(1 for k in range(len(c.buffer)) if c.buffer[k] != full.buffer[k])
            raise AssertionError("keys %s, key %d: partial redraw differs (%d bytes)" % (keys, i + 1, n))


def main(args):
    if not args:
        from catan.ui.memory import TIGHT, MemoryPlan

        canvases(240, 135)  # the framebuffers first, then the players' arrays (as the device)
        MemoryPlan(TIGHT).reserve()
        keys_checked("y x a a x a y_long y".split())
        gc.collect()
        for name in _SIMPLE:
            play(name, 240, 135)
            gc.collect()
        print("scenes checked:", len(_SIMPLE))
        print("keys, Island One:", whole_game(1, (255,), "easy"))
        block = largest_block()
        gc.collect()
        print("keys, Island Two:", whole_game(2, (255, 255, 0), "easy"))
        block = min(block, largest_block())
        print("largest free block after the games:", block)
        if block < MARGIN:
            raise AssertionError("the largest free block after a game, %d bytes, is below the "
                                 "margin of %d" % (block, MARGIN))
    else:
        out = args[0]
        w = int(args[1])
        h = int(args[2])
        for name in args[3:] or ui_scenes.NAMES:
            c = play(name, w, h, banded=True)
            with open("%s/%s.gs4" % (out, name), "wb") as f:
                f.write(c.buffer)
            c = None
            gc.collect()
    print("ALL-OK")


main(sys.argv[1:])
