"""The game on the emulated Pico: what a Pico would show, at a Pico's speed.

Window (``make emu BOARD=...``): the panel decoded from the firmware's SPI bytes, scaled up; the
keyboard is on the board's button pins (the keys of ``make sim``: a, b, x, y, arrows, Enter;
Shift is not a long press here: hold the key, as on the device). F12 or P saves a screenshot into
screenshots/, Esc quits. The window's title shows the emulated time, the heap free and its largest
free block. The emulator runs at about a third of a real Pico's speed on a busy core.

Headless, like tools/sim.py::

    python tools/emu/run.py --headless --board NAME --keys a,y,y_long,t500 --screenshot out.png

``--keys``: the board's roles (``a_long``: held 800 ms) or ``t<ms>`` (let time pass); the screen
settles after each key. ``--firmware``: ``pico`` (default: the built device tree on the official
v1.28.0 RPI_PICO UF2, ``PICO_FIRMWARE``), ``picow`` (the same on RPI_PICO_W, ``PICO_W_FIRMWARE``)
or ``uf2`` (the board's game UF2, built from ``MICROPY_SRC``).
"""

import argparse
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import pico

LONG_PRESS_MS = 800
STEP_MS = 20  # emulated time per window frame
MIN_PRESS_MS = 50  # the shortest press the window gives the pins (the buttons debounce 30 ms)


class TapTimeline:
    """The window's key presses as pin changes in emulated time. The emulator runs slower than
    the wall clock, and a busy PC delivers a key's press and release in one batch: applied as
    they arrive, a 60 ms tap would hold the pin for no emulated time at all and be lost. Here
    each change keeps its distance from the key's previous change as the wall clock measured
    it (at least MIN_PRESS_MS for a press), counted in emulated ms from where that change
    was applied: a tap stays a tap and a long press stays long, whatever the PC's load."""

    def __init__(self, min_press_ms=MIN_PRESS_MS):
        self.min_press_ms = min_press_ms
        self.queue = []  # [emulated ms, order, role, pressed], sorted
        self.last = {}  # role -> (emulated ms, wall ms) of its latest change
        self.n = 0

    def event(self, role, pressed, wall_ms, emu_ms):
        at = emu_ms
        prev = self.last.get(role)
        if prev is not None:
            gap = wall_ms - prev[1]
            if not pressed:
                gap = max(gap, self.min_press_ms)
            at = max(at, prev[0] + max(gap, 0))
        self.last[role] = (at, wall_ms)
        self.n += 1
        self.queue.append((at, self.n, role, pressed))
        self.queue.sort()

    def next_ms(self):
        """The emulated ms of the next change, or None."""
        return self.queue[0][0] if self.queue else None

    def due(self, emu_ms):
        """The changes due by ``emu_ms``, in order: [(role, pressed)]."""
        out = []
        while self.queue and self.queue[0][0] <= emu_ms:
            out.append(self.queue.pop(0)[2:])
        return out


def run_keys(p, keys):
    for k in keys:
        if not k:
            continue
        if k[0] == "t" and k[1:].isdigit():
            p.run(int(k[1:]))
        elif k.endswith("_long"):
            p.key(k[:-5], press_ms=LONG_PRESS_MS)
        else:
            p.key(k)


def headless(args):
    with pico.EmulatedPico(args.board, firmware=args.firmware) as p:
        print("emu: first frame at %.1f ms (emulated)" % p.boot())
        run_keys(p, [k.strip() for k in args.keys.split(",")] if args.keys else [])
        h = p.heap()
        print("emu: %.0f ms; heap free %d, largest free block %d" % (p.ms, h["free"], h["largest"]))
        if args.screenshot:
            p.screenshot(args.screenshot, args.scale)
            print("emu: wrote", args.screenshot)
        out = p.read_serial()
        if out.strip():
            print(out)
    return 0


def window(args, script=None):
    """The emulated Pico in a window until it is closed. For tests: ``script(frame, pico)``
    returns the pygame events to post before each frame, or None to close the window."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")  # no sound: keep ALSA quiet
    import pygame
    import sim  # tools/sim.py: the same keys as the desktop simulator

    problem = sim.display_problem()
    if problem:
        raise SystemExit((sim.NO_DISPLAY % problem).replace("sim: ", "emu: ", 1).replace(
            "tools/sim.py", "tools/emu/run.py"))
    board = pico.load_board(args.board)
    keys = sim.key_map(tuple(board.BUTTONS))
    taps = TapTimeline()
    t0 = time.monotonic()
    with pico.EmulatedPico(args.board, firmware=args.firmware) as p:
        w, h = p.window["w"], p.window["h"]
        scale = args.scale or sim.default_scale(w, h)
        pygame.init()
        screen = pygame.display.set_mode((w * scale, h * scale))
        shots = pico.ROOT / "screenshots"
        last = -1
        n = 0
        while True:
            n += 1
            if script is not None:
                posted = script(n, p)
                if posted is None:
                    return 0
                for ev in posted:
                    pygame.event.post(ev)
            wall = (time.monotonic() - t0) * 1000
            for ev in pygame.event.get():
                if ev.type == pygame.QUIT:
                    return 0
                if ev.type in (pygame.KEYDOWN, pygame.KEYUP):
                    name = pygame.key.name(ev.key)
                    if ev.type == pygame.KEYDOWN and name in sim.QUIT_KEYS:
                        return 0
                    if ev.type == pygame.KEYDOWN and name in sim.SHOT_KEYS:
                        shots.mkdir(exist_ok=True)
                        path = shots / ("emu-%s-%d.png" % (args.board, int(time.time())))
                        p.screenshot(str(path), 2)
                        print("emu: wrote", path)
                    elif name in keys:
                        taps.event(keys[name], ev.type == pygame.KEYDOWN, wall, p.ms)
            for role, pressed in taps.due(p.ms):
                p.pin(role, pressed)
            due = taps.next_ms()
            p.run(STEP_MS if due is None else max(1, min(STEP_MS, due - p.ms)))
            sent = p.stats()["pixel_bytes"]
            if sent != last:
                last = sent
                surf = pygame.Surface((w, h))
                for y, row in enumerate(p.frame()):
                    for x, v in enumerate(row):
                        surf.set_at((x, y), ((v >> 11) << 3, ((v >> 5) & 63) << 2, (v & 31) << 3))
                screen.blit(pygame.transform.scale(surf, (w * scale, h * scale)), (0, 0))
                pygame.display.flip()
                hp = p.heap() or {"free": 0, "largest": 0}
                pygame.display.set_caption("emulated Pico %s | %.1f s | free %d, largest %d" % (
                    args.board, p.ms / 1000, hp["free"], hp["largest"]))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default=pico.DEFAULT_BOARD)
    ap.add_argument("--headless", action="store_true")
    ap.add_argument("--keys", default="")
    ap.add_argument("--screenshot", default=None)
    ap.add_argument("--scale", type=int, default=0)
    ap.add_argument("--firmware", default="pico", choices=sorted(pico.FIRMWARES))
    args = ap.parse_args(argv)
    try:
        pico.check_ready(args.firmware)
    except pico.EmulatorMissing as e:
        raise SystemExit("emu: %s" % e)
    if args.headless:
        args.scale = args.scale or 1
        return headless(args)
    return window(args)


if __name__ == "__main__":
    sys.exit(main())
