"""Benchmark workload: the firmware on the virtual Pico (fw_rig) under the MicroPython unix
port, the SPI only counting bytes (no panel model in the heap).

tools/bench.py writes a copy with MODE set: "boot" powers on to the first frame and prints
``fw_boot_ms`` (from this script's first line: imports, framebuffer, display init, the App,
the first frame); "game" boots and plays a whole solo Island One game with the buttons (the
plain policy of ui_autokeys) and prints ``fw_spi_bytes_per_cursor_move``: the SPI bytes
between pressing X or Y and the next key, averaged.
"""

import time

T0 = time.ticks_us()
MODE = globals().get("MODE", "game")

import fw_rig

ROOT = "/tmp/work_fw_%s" % MODE
fw_rig.HW.decode = False
fw_rig.clean(ROOT)
if MODE == "boot":
    fw_rig.boot(ROOT, [], 0, False)
    us = time.ticks_diff(time.ticks_us(), T0)
    print("fw_boot_ms %d.%d" % (us // 1000, us // 100 % 10))
else:
    marks = []

    def on_key(key):
        marks.append((key, fw_rig.HW.spi.nbytes()))

    app = fw_rig.boot(ROOT, ["a", "y", "y", "y", "y", "y", "a"], 4000, True, on_key)
    assert app.game is None or app.game.over(), "the game did not end"
    total = n = 0
    for i in range(len(marks) - 1):
        if marks[i][0] in ("x", "y") and i >= 6:  # after the opening's menu moves
            total += marks[i + 1][1] - marks[i][1]
            n += 1
    print("fw_cursor_moves", n)
    print("fw_spi_bytes_per_cursor_move", total // max(n, 1))
fw_rig.clean(ROOT)
print("ALL-OK")
