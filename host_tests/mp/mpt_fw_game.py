"""The virtual Pico plays the real game: firmware/app_main.py with the real App and the real
flash store, under MicroPython, on fake hardware (host_tests/mp/fake_hw.py).

Buttons are pins driven by a script with contact bounce on press and release; a player
policy (ui_autokeys) decides each next key from what the screen offers. The script boots, starts
a solo Island One game from the title menu, plays some turns, cuts the power (stops the loop
at an arbitrary moment), boots again, continues the same game from the title menu (same
state as before the cut), plays it to the end, then damages the saved game on flash and boots
once more: the damage is reported on screen, set aside, and the title menu works. After every
boot the picture decoded from the SPI stream equals the canvas. Prints ALL-OK last.
"""

import gc
import os
import sys

import fake_hw
import ui_autokeys

ROOT = "/tmp/mpt_fw_game"
DEBUG = False


Board = fake_hw.Board
PINS = {"a": 12, "b": 13, "x": 14, "y": 15}


class HW:
    Pin = fake_hw.Pin
    PWM = fake_hw.PWM
    panel = None

    @staticmethod
    def SPI(id, **kw):
        HW.panel = fake_hw.Panel(240, 135, 40, 53)
        HW.panel.commands = Forget()  # a whole game's commands would fill the heap
        return fake_hw.SPI(id, dc=16, cs=17, sink=HW.panel)


class Forget:
    def append(self, x):
        pass


sys.modules["machine"] = HW
# The wasm port runs this harness (a Python model of the panel decoding every byte) about
# 50 times slower: there the game is played for a few more turns instead of to its end.
FULL = sys.platform != "webassembly"

import app_main  # noqa: E402
import store  # noqa: E402
from catan.codec import dumps  # noqa: E402
from catan.ui.canvas import lut565  # noqa: E402


class Player:
    """Presses buttons on the fake pins: one key every 150 ms, chosen when it is due."""

    def __init__(self, opening, play):
        self.keys = list(opening)  # keys to press first (menus)
        self.play = play  # then choose keys (else press nothing more)
        self.events = []  # (ms, pin, level), in time order
        self.due = 200
        self.pressed = 0

    def next_key(self):
        app = app_main.app
        if DEBUG:
            print("screen", app.screen.__class__.__name__, getattr(app.screen, "i", ""), self.keys)
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


def seeded_app(canvas, store, roles):
    # the real App; seeded dice make the run reproducible (the wasm port has no urandom)
    from catan.dice import SeededDice
    from catan.ui.app import App

    return App(canvas, store, roles=roles, dice=lambda seed: SeededDice(seed or 77))


def clean():
    try:
        for n in os.listdir(ROOT):
            os.remove(ROOT + "/" + n)
        os.rmdir(ROOT)
    except OSError:
        pass


def boot(opening, loops, play=True):
    """Power on with the flash as it is; press the ``opening`` keys, then (``play``) the
    policy's, for ``loops`` main-loop rounds."""
    Clock.n = 0
    Game.player = Player(opening, play)
    app_main.app = app_main.canvas = app_main.display = HW.panel = None
    gc.collect()
    app_main.run(Board, hw=HW, App=seeded_app, store=store.Store(ROOT), ticks_ms=Clock.ticks_ms,
                 ticks_diff=Clock.ticks_diff, sleep_ms=Clock.sleep_ms, max_loops=loops)
    bad = fake_hw.mismatches(HW.panel, app_main.canvas.buffer, 240, 135, lut565(), 40, 53)
    assert bad == [], bad
    assert HW.panel.outside == 0
    return app_main.app


clean()
# 1. the first boot: New game, Island One, one person, Start; then play for a while
app = boot(["a", "y", "y", "y", "y", "a"], 600)
g = app.game
assert g is not None and not g.over(), ("no game started", app.screen)
turns = g.turns[0]
assert turns >= 2, turns
state = dumps(g)
print("before the cut: turn", turns + 1, "phase", g.phase, "score", g.score(0))

# 2. the power is cut (the loop just stops); the next boot offers to continue
app = boot([], 40, False)
assert app.screen.__class__.__name__ == "Title" and app.screen.rows[0] == "Continue"
assert dumps(app.game) == state, "the saved game differs from the one before the cut"
app = boot(["a"], 60, False)
assert app.screen.__class__.__name__ == "Turn" and dumps(app.game) == state

# 3. play on to the end
app = boot(["a"], 4000 if FULL else 300)
if FULL:
    assert app.game is None or app.game.over(), "the game did not end"
    print("game over, keys pressed:", Game.player.pressed)
    assert store.Store(ROOT).read("game") == b""  # nothing left to continue
else:
    assert app.game.turns[0] > turns

# 4. a damaged save on flash: reported, set aside, and the game goes on
s = store.Store(ROOT)
s.write("game", b"G\x01\x00this is not a game")
app = boot([], 30, False)
assert app.screen.__class__.__name__ == "Message", app.screen
assert "could not be loaded" in app.screen.text
app = boot([], 30, False)
assert app.screen.__class__.__name__ == "Title" and app.screen.rows[0] == "New game"
clean()
print("ALL-OK")
