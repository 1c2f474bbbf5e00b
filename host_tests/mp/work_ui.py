"""Benchmark workload: the app on a 240x135 framebuf canvas under MicroPython.

steps() (the heap figure, one key per step): a whole two-player Island One game played by
keys as a person would, with a plain policy (keep the first roll, build what the cursor
offers first, else end the turn); the store keeps only the latest record of each name.
With HINT set (tools/bench.py writes such a copy) it also asks the coach for one hint on
the way: the coach and its tables are loaded for it and dropped after.

Run plainly (tools/bench.py's timing run), it then plays a solo Island One game choosing
like the hard computer player, through keys, and prints per key the mean time to handle it
and redraw (``ui_render_ms_per_key``) and, for the cursor moves (X/Y), the bytes the redraw
marked dirty as RGB565 (``ui_bytes_per_cursor_move``; a full 240x135 frame is 64,800).
"""

import gc
import time

import ui_autokeys
from memstore import MemStore
from catan.ui.app import HUMAN, App
from catan.ui.fb_canvas import FbCanvas

W = 240
H = 135
HINT = globals().get("HINT", False)


def _dice(seed):
    from catan.dice import SeededDice

    return SeededDice(21 if seed is None else seed)


def steps():
    buf = bytearray(((W + 1) // 2) * H)  # first, as the device does
    c = FbCanvas(W, H, buf)
    app = App(c, MemStore(), dice=_dice)
    app.draw()
    yield
    app.new_game(1, (HUMAN, HUMAN))
    app.draw()
    c.take_dirty()
    yield
    now = 0
    g = app.game
    hinted = False
    while not g.over():
        if app.screen.__class__.__name__ != "Turn":
            keys = ["a"]
        elif HINT and not hinted and g.turns[0] == 2 and g.phase == 1:
            keys = ["y_long"]  # ask the coach once: its tables count in the peak
            hinted = True
        else:
            keys = ui_autokeys.next_keys(app, ui_autokeys.plain(g))
        for k in keys:
            now += 50
            ui_autokeys.press(app, k, now)
            c.take_dirty()
            yield
    print("ui_game_keys_done", 1)


def timing():
    c = FbCanvas(W, H)
    app = App(c, MemStore(), dice=_dice)
    app.new_game(1, (HUMAN,))
    app.draw()
    c.take_dirty()
    stats = {"n": 0, "us": 0, "moves": 0, "bytes": 0}
    real_press = ui_autokeys.press

    def timed(app, key, now):
        t0 = time.ticks_us()
        real_press(app, key, now)
        stats["us"] += time.ticks_diff(time.ticks_us(), t0)
        stats["n"] += 1
        area = 0
        for r in c.take_dirty():
            area += r[2] * r[3]
        if key in ("x", "y"):
            stats["moves"] += 1
            stats["bytes"] += 2 * area

    ui_autokeys.press = timed
    try:
        ui_autokeys.play(app, "hard")
    finally:
        ui_autokeys.press = real_press
    print("ui_keys_per_game", stats["n"])
    print("ui_render_ms_per_key %d.%03d" % (stats["us"] // stats["n"] // 1000,
                                             stats["us"] // stats["n"] % 1000))
    print("ui_bytes_per_cursor_move", stats["bytes"] // max(1, stats["moves"]))
    print("ui_final_score", app.game.score(0))


if __name__ == "__main__":
    for _ in steps():
        pass
    gc.collect()
    timing()
    print("ALL-OK")
