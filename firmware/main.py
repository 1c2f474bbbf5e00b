"""Device entry point, kept tiny and safe.

- Holding the board's SAFE_BOOT_BUTTON at power-on skips the game: the REPL stays free (for
  mpremote), nothing is drawn, nothing is written.
- Any uncaught exception is appended to /error.log and shown on the screen (if the display came
  up), and the game stops; saves are never touched here. Both work with a full heap: the game's
  state and a spare block kept since boot are freed first (``app_main.release``). Ctrl-C
  (KeyboardInterrupt) goes straight to the REPL.

The device runs this file as ``__main__`` (from the filesystem, or frozen into a game UF2);
importing it (tests, ``make dev``) starts nothing until ``start()``.
"""

import sys

import app_main


def safe_boot(board):
    from machine import Pin

    n, pull, active = board.BUTTONS[board.SAFE_BOOT_BUTTON]
    p = Pin(n, Pin.IN, Pin.PULL_UP if pull == "up" else (Pin.PULL_DOWN if pull == "down" else None))
    return p.value() == active


def show_error(e):
    app_main.release()
    logged = False
    try:
        with open(app_main.ERROR_LOG, "a") as f:
            f.write("----\n")
            sys.print_exception(e, f)
        logged = True
    except Exception:
        pass
    d = app_main.display
    c = app_main.canvas
    if d is None or c is None:
        return
    try:
        text = "%s: %s" % (type(e).__name__, e)
        per_line = max(8, (c.width - 8) // 6)
        for k in range(c.bands):  # (a band of rows at a time on a small heap: fb_canvas)
            if c.bands > 1:
                c.set_band(k)
            c.reset_clip()
            c.fill_rect(0, 0, c.width, c.height, 10)  # BLACK
            c.text(4, 4, "Error (see error.log)" if logged else "Error (error.log not written)", 14)  # RED
            y = 18
            rest = text
            while rest and y < c.height - 10:
                c.text(4, y, rest[:per_line], 9)  # WHITE
                rest = rest[per_line:]
                y += 10
            d.show(c.take_dirty(), c.top)
    except Exception:
        pass


def start():
    board = app_main.load_board()
    if safe_boot(board):
        print("safe boot: %s held, game skipped, REPL free" % board.SAFE_BOOT_BUTTON)
        return
    try:
        app_main.run(board)
    except Exception as e:
        sys.print_exception(e)
        show_error(e)


if __name__ == "__main__":
    start()
