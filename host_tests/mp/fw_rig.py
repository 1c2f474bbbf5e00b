"""A virtual Pico for the firmware tests and benchmarks: fake hardware for the 240x135 test
board, a player pressing its buttons (with contact bounce) as a policy chooses, and ``boot``,
which powers the device on with the real App and the real flash store for some main-loop
rounds. Plain code for MicroPython (unix and wasm ports).
"""

import gc
import sys

import fake_hw
import ui_autokeys

Board = fake_hw.Board
PINS = {"a": 12, "b": 13, "x": 14, "y": 15}


class HW:
    """``machine`` for app_main: the SPI feeds a panel model (``decode``), or only counts."""

    Pin = fake_hw.Pin
    PWM = fake_hw.PWM
    panel = None
    reused = None  # one panel model for every boot
    spi = None
    decode = True

    @staticmethod
    def SPI(id, **kw):
        if HW.decode:
            if HW.reused is None:
                HW.reused = fake_hw.Panel(240, 135, 40, 53)
            HW.panel = HW.reused
            HW.panel.reset()
            HW.panel.commands = Forget()  # a whole game's commands would fill the heap
            sink = HW.panel
        else:
            HW.panel = None
            sink = Forget()
        HW.spi = fake_hw.SPI(id, dc=16, cs=17, sink=sink)
        return HW.spi


class Forget:
    def append(self, x):
        pass

    def feed(self, writes):
        pass


sys.modules["machine"] = HW

import app_main
import store
from catan.ui.canvas import lut565


class Player:
    """Presses buttons on the fake pins: one key every 150 ms, chosen when it is due."""

    def __init__(self, opening, play, on_key=None):
        self.on_key = on_key  # on_key(key): a key is about to be pressed
        self.keys = list(opening)  # keys to press first (menus)
        self.play = play  # then choose keys (else press nothing more)
        self.events = []  # (ms, pin, level), in time order
        self.due = 200
        self.pressed = 0

    def next_key(self):
        app = app_main.app
        if self.keys:
            return self.keys.pop(0)
        if not self.play or app.screen.__class__.__name__ == "Title":
            return None  # (back at the title menu once a game is over)
        if app.screen.__class__.__name__ != "Turn":
            return "a"
        if app.busy():
            return None
        keys = ui_autokeys.next_keys(app, ui_autokeys.plain(app.game))
        self.keys = keys[1:]
        return keys[0]

    def at(self, n):
        if app_main.app is None:  # still booting: no buttons yet
            self.due = n + 200
            return
        while self.events and self.events[0][0] <= n:
            _, pin, level = self.events.pop(0)
            fake_hw.Pin.registry[pin].level = level
        if n >= self.due:
            self.due = n + 150
            key = self.next_key()
            if key is None:
                return
            if self.on_key is not None:
                self.on_key(key)
            pin = PINS[key]
            # press with bounce, release 80 ms later with bounce
            for dt, level in ((0, 0), (2, 1), (3, 0), (80, 1), (82, 0), (83, 1)):
                self.events.append((n + dt, pin, level))
            self.pressed += 1


class Game:
    player = None  # the Player of the current boot


def _drive(n):
    if Game.player is not None:
        Game.player.at(n)


Clock = fake_hw.Clock((1 << 30) - 5000, _drive)  # the tick counter wraps during the game


def seeded_app(canvas, store, roles, plan=None):
    # the real App; seeded dice make the run reproducible (the wasm port has no urandom)
    from catan.dice import SeededDice
    from catan.ui.app import App

    return App(canvas, store, roles=roles, dice=lambda seed: SeededDice(seed or 77), plan=plan)


def clean(root):
    import os

    try:
        for n in os.listdir(root):
            os.remove(root + "/" + n)
        os.rmdir(root)
    except OSError:
        pass


def boot(root, opening, loops, play=True, on_key=None):
    """Power on with the flash (``root``) as it is; press the ``opening`` keys, then
    (``play``) the policy's, for ``loops`` main-loop rounds (0: until the first frame). With
    ``HW.decode`` the picture decoded from the SPI stream must equal the canvas."""
    Clock.n = 0
    Game.player = Player(opening, play, on_key)
    app_main.app = app_main.canvas = app_main.display = HW.panel = HW.spi = None
    gc.collect()
    app_main.run(Board, hw=HW, App=seeded_app, store=store.Store(root), ticks_ms=Clock.ticks_ms,
                 ticks_diff=Clock.ticks_diff, sleep_ms=Clock.sleep_ms, max_loops=loops)
    if HW.decode:
        bad = fake_hw.mismatches(HW.panel, app_main.canvas.buffer, 240, 135, lut565(), 40, 53)
        assert bad == [], bad
        assert HW.panel.outside == 0
    return app_main.app


