"""Boot a device tree as flashed (run with the tree as the current directory and its lib/ on
the path): the board from board_config.py, fake hardware for it, firmware/app_main.py with the
real App, a few loop rounds. The picture decoded from the SPI stream must equal the canvas.
Used by host_tests/test_fw_deploy.py; prints ALL-OK last."""

import sys

import fake_hw

sys.path.insert(0, "")  # the device's root, as on the Pico (board_config.py lives there)


def main():
    import app_main

    board = app_main.load_board()
    d = board.DISPLAY
    madctl, w, h, xo, yo = board.ROTATIONS[d["rotation"]]

    class HW:
        Pin = fake_hw.Pin
        PWM = fake_hw.PWM
        panel = None

        @staticmethod
        def SPI(id, **kw):
            HW.panel = fake_hw.Panel(w, h, xo, yo)
            HW.panel.commands = []
            return fake_hw.SPI(id, dc=d["dc"], cs=d["cs"], sink=HW.panel)

    sys.modules["machine"] = HW
    import store

    clock = fake_hw.Clock(0)
    app = app_main.run(board, hw=HW, store=store.Store("saves"), ticks_ms=clock.ticks_ms,
                       ticks_diff=clock.ticks_diff, sleep_ms=clock.sleep_ms, max_loops=5)
    from catan.ui.canvas import lut565

    bad = fake_hw.mismatches(HW.panel, app_main.canvas.buffer, w, h, lut565(), xo, yo)
    assert bad == [], bad
    assert HW.panel.on and HW.panel.inverted == d["invert"]
    print("board:", board.NAME)
    print("screen:", app.screen.__class__.__name__, w, "x", h)


main()
print("ALL-OK")
