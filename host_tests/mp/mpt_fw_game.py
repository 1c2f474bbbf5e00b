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

import sys

import fw_rig
from fw_rig import boot as _boot

ROOT = "/tmp/mpt_fw_game"
# The wasm port runs this harness (a Python model of the panel decoding every byte) about
# 50 times slower: there the game is played for a few more turns instead of to its end.
FULL = sys.platform != "webassembly"

import store  # fw_rig installed the fake machine
from catan.codec import dumps


def boot(opening, loops, play=True):
    return _boot(ROOT, opening, loops, play)


fw_rig.clean(ROOT)
# 1. the first boot: New game, Island One, one person, Start; then play for a while
app = boot(["a", "y", "y", "y", "y", "y", "a"], 900)
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
app = boot(["a"], 6000 if FULL else 450)
if FULL:
    assert app.game is None or app.game.over(), "the game did not end"
    print("game over, keys pressed:", fw_rig.Game.player.pressed)
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
fw_rig.clean(ROOT)
print("ALL-OK")
