"""The device figures of `make bench`, measured on the emulated Pico (emulated time: deterministic).

    python tools/emu/figures.py [--board NAME] [--turns N] [--games N] [--tree DIR]
                                                     (also: tools/bench.py -k rp2040)

- ``rp2040_boot_ms``: reset to the last pixel of the first frame.
- ``rp2040_cursor_ms``: the press edge of an 80 ms press to the last SPI pixel byte, mean over the
  cursor moves of a scripted solo Island One game (the turn screen: dice, Roll, Keep, End; a
  player who never builds).
- ``rp2040_menu_ms``: the same for a move between the rows of a menu (the new-game form; mean).
- ``rp2040_roll_ms``: press edge of Roll to the last pixel (mean); ``rp2040_redraw_ms``: a full
  redraw of the turn screen (back from the pause menu; mean).
- ``rp2040_hint_ms_worst``: the coach's hint, from the long press being recognised (press edge +
  600 ms) to its last pixel, at each kind of moment of the scripted game's turns: before the first
  roll, between rolls, in the build phase.
- ``rp2040_computer_ms_worst``: the slowest single decision of the hard computer (on the device's
  REPL, after the framebuffer and the screens are in the heap as in a game), over whole games on
  either island.
- ``rp2040_free_min`` / ``rp2040_largest_block_min``: the smallest free heap and largest free block
  read from RAM after any key of the scripted game, once the screen is quiet (the main loop
  collects garbage in its first quiet round after a key).
- ``rp2040_spi_bytes_per_cursor_move``: pixel bytes sent per cursor move (mean).

A path that dies on the device is reported by name with the sentinel -1 and its error in
``rp2040_errors`` (printed, not in bench.json).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pico  # noqa: E402

LONG_MS = 600  # firmware/buttons.py: a press this long is a long press
HINT_WAIT_MS = 30_000
FAILED = -1


class Recorder:
    """Presses keys on an EmulatedPico and keeps the figures of each."""

    def __init__(self, p):
        self.p = p
        self.free = []
        self.largest = []
        self.errors = []

    def key(self, role, press_ms=pico.PRESS_MS):
        """Press ``role``; (ms from the press edge to the last pixel, pixel bytes sent)."""
        before = self.p.stats()
        t0 = self.p.key(role, press_ms=press_ms)
        after = self.p.stats()
        h = self.p.heap()
        self.free.append(h["free"])
        self.largest.append(h["largest"])
        sent = after["pixel_bytes"] - before["pixel_bytes"]
        return (after["last_pixel_ns"] - t0) / 1e6 if sent else None, sent

    def died(self, what):
        out = self.p.read_serial()
        if "Error" in out or "Traceback" in out:
            lines = [ln for ln in out.splitlines() if "Error" in ln] or ["?"]
            self.errors.append("%s: %s" % (what, lines[-1].strip()))
            self.p.serial = ""
            return True
        return False


def _mean(xs):
    """The mean of the presses that drew something (None: the press was not seen)."""
    xs = [x for x in xs if x is not None]
    return round(sum(xs) / len(xs), 1) if xs else FAILED


def scripted_game(board, turns=15, hints=True, tree=None):
    """A solo Island One game played by keys on a four-button board; its figures."""
    cursor, spi, rolls, redraws, hint_ms = [], [], [], [], []
    with pico.EmulatedPico(board, tree=tree) as p:
        out = {"rp2040_boot_ms": round(p.boot(), 1)}
        r = Recorder(p)
        menu = []
        r.key("a")  # New game
        for k in ("y", "x", "x"):  # down to Players, back up, up to Start (the menu wraps)
            menu.append(r.key(k)[0])
        r.key("a")  # start
        for turn in range(turns):
            if hints and turn == 0:
                hint_ms.append(_hint(r, "before the first roll"))
            ms, _ = r.key("a")  # Roll
            rolls.append(ms)
            if hints and turn == 0:
                hint_ms.append(_hint(r, "between rolls"))
            for k in ("x", "x", "x", "y", "y", "y", "y"):  # back from Roll to die 4, on to Keep
                ms, sent = r.key(k)
                cursor.append(ms)
                spi.append(sent)
            r.key("b")  # pause
            ms, _ = r.key("b")  # back: the whole turn screen again
            redraws.append(ms)
            r.key("a")  # Keep: the build phase
            if hints and turn == 0:
                hint_ms.append(_hint(r, "in the build phase"))
            ms, sent = r.key("x")  # to End
            cursor.append(ms)
            spi.append(sent)
            r.key("a")  # End: asks before an X if nothing was built, on Back
            r.key("x")  # the X
            r.key("a")
            if r.died("turn %d" % (turn + 1)):
                break
        r.died("the game")
        out.update({
            "rp2040_cursor_ms": _mean(cursor),
            "rp2040_menu_ms": _mean(menu),
            "rp2040_roll_ms": _mean(rolls),
            "rp2040_redraw_ms": _mean(redraws),
            "rp2040_spi_bytes_per_cursor_move": _mean(spi),
            "rp2040_free_min": min(r.free),
            "rp2040_largest_block_min": min(r.largest),
        })
        if hints:
            out["rp2040_hint_ms_worst"] = FAILED if FAILED in hint_ms else round(max(hint_ms), 1)
        return out, r.errors


def _hint(r, moment):
    p = r.p
    p.pin("y", True)
    t0 = p.ns
    p.run(LONG_MS + 100)
    p.pin("y", False)
    p.settle(quiet_ms=300, max_ms=HINT_WAIT_MS, first=True)
    st = p.stats()
    if r.died("hint " + moment):
        p.power_cut()  # the error screen stays: power up again and Continue the saved game
        p.boot()
        r.key("a")
        return FAILED
    if st["last_pixel_ns"] < t0:
        r.errors.append("hint %s: nothing on the screen %d ms after the press" % (moment, HINT_WAIT_MS))
        return FAILED
    return (st["last_pixel_ns"] - t0) / 1e6 - LONG_MS


COMPUTER = r"""
import gc, time
buf = bytearray(%(fb)d)
import catan.ui.app, catan.ui.turn, catan.ui.sheet
from catan.game import Game
from catan.dice import SeededDice
from catan.players import next_action, apply
worst = [0, 0]
for island, seats in ((1, 1), (2, 4)):
    for seed in range(%(games)d):
        g = Game(island, seats, SeededDice(seed + 1))
        while not g.over():
            t = time.ticks_us()
            a = next_action(g, 2, g.player)
            dt = time.ticks_diff(time.ticks_us(), t)
            if dt > worst[island - 1]:
                worst[island - 1] = dt
            apply(g, a)
        gc.collect()
print("WORST", worst[0], worst[1])
"""


def computer(board, games=1, tree=None):
    """The hard computer's slowest decision per island, in ms, timed on the device."""
    b = pico.load_board(board)
    d = b.DISPLAY
    fb = ((d["width"] + 1) // 2) * d["height"]
    with pico.EmulatedPico(board, tree=tree) as p:
        p.safe_boot()
        res = p.exec(COMPUTER % {"fb": fb, "games": games}, max_ms=3_600_000)
    if "WORST" not in res:
        return {"rp2040_computer_ms_worst": FAILED}, ["hard computer: " + res.strip()[-300:]]
    one, two = (int(v) / 1000 for v in res.split("WORST")[1].split()[:2])
    return {"rp2040_computer_ms_worst": round(max(one, two), 1),
            "rp2040_computer_ms_worst_island1": round(one, 1),
            "rp2040_computer_ms_worst_island2": round(two, 1)}, []


def measure(board=pico.DEFAULT_BOARD, turns=15, games=1, tree=None):
    out, errors = scripted_game(board, turns, tree=tree)
    more, errs = computer(board, games, tree=tree)
    out.update(more)
    return out, errors + errs


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default=pico.DEFAULT_BOARD)
    ap.add_argument("--turns", type=int, default=15)
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--tree", default=None, help="a device tree built already (default: build it)")
    args = ap.parse_args(argv)
    out, errors = measure(args.board, args.turns, args.games, args.tree)
    for k, v in sorted(out.items()):
        print("%-36s %s" % (k, v))
    for e in errors:
        print("rp2040_errors: " + e)
    return 0


if __name__ == "__main__":
    sys.exit(main())
