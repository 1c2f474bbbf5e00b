"""firmware/app_main.py and main.py under real MicroPython (FbCanvas) on
fake hardware: the frames decoded from SPI equal the framebuffer; a press reaches the App; an
exception in the App is logged and shown on screen by main.py; the safe-boot button skips the
game. A stub App stands in for the real one (see mpt_fw_game.py). Prints ALL-OK last."""

import os
import sys

import fake_hw
from catan.ui.canvas import lut565


Board = fake_hw.Board


class HW:
    Pin = fake_hw.Pin
    PWM = fake_hw.PWM
    spis = []
    panel = None

    @staticmethod
    def SPI(id, **kw):
        HW.panel = fake_hw.Panel(240, 135, 40, 53)
        s = fake_hw.SPI(id, dc=16, cs=17, sink=HW.panel)
        HW.spis[:] = [s]
        return s


sys.modules["machine"] = HW

import app_main

app_main.memory_plan = lambda: None  # the stub App paints the whole picture at once: no bands


Clock = fake_hw.Clock((1 << 30) - 3000)


class StubApp:
    def __init__(self, canvas, store, roles=None, plan=None):
        self.c = canvas
        self.events = []
        self.dirty = True

    def handle(self, role):
        self.events.append(role)
        self.dirty = True

    def tick(self, now):
        pass

    def draw(self):
        if self.dirty:
            self.dirty = False
            c = self.c
            if not self.events:
                c.fill_rect(0, 0, c.width, c.height, 0)
                c.text(8, 8, "stub app", 9)
            else:
                c.fill_rect(30 + 10 * len(self.events), 70, 9, 9, 14)
                c.text(8, 100, " ".join(self.events), 9)


Clock.script = {1000: (13, 0), 1080: (13, 1), 1500: (14, 0), 2400: (14, 1)}  # B short; X long
app = app_main.run(Board, hw=HW, App=StubApp, store=object(), ticks_ms=Clock.ticks_ms,
                   ticks_diff=Clock.ticks_diff, sleep_ms=Clock.sleep_ms, max_loops=300)
print("events:", app.events)
assert app.events == ["b", "x", "x_long"]
buf = app_main.canvas.buffer
assert fake_hw.mismatches(HW.panel, buf, 240, 135, lut565(), 40, 53) == []
assert HW.panel.outside == 0
print("spi bytes, boot + 2 updates:", HW.spis[-1].nbytes())

# main.py: an exception in the App is logged and shown, and does not escape
LOG = "/tmp/mpt_fw_main.log"
try:
    os.remove(LOG)
except OSError:
    pass
app_main.ERROR_LOG = LOG
app_main.load_board = lambda name=None: Board


class Boom(StubApp):
    def handle(self, role):
        raise ValueError("boom in the app")


Clock.n = 0
Clock.script = {500: (12, 0), 560: (12, 1)}
_run = app_main.run
app_main.run = lambda board: _run(board, hw=HW, App=Boom, store=object(), ticks_ms=Clock.ticks_ms,
                                  ticks_diff=Clock.ticks_diff, sleep_ms=Clock.sleep_ms,
                                  max_loops=100)
import main  # starts nothing: the device runs it as __main__

main.start()

with open(LOG) as f:
    log = f.read()
assert "ValueError: boom in the app" in log, log
buf = app_main.canvas.buffer
assert fake_hw.mismatches(HW.panel, buf, 240, 135, lut565(), 40, 53) == []
assert app_main.canvas.get_pixel(1, 1) == 10  # the error screen's black background
os.remove(LOG)

# safe boot: Y held at power-on -> the game does not start
calls = []
app_main.run = lambda board: calls.append(board)
fake_hw.Pin.forced[15] = 0
main.start()
assert calls == []
del fake_hw.Pin.forced[15]
main.start()
assert calls == [Board]
print("ALL-OK")
