"""Device entry point, kept tiny and safe.

- Holding the board's SAFE_BOOT_BUTTON at power-on skips the game: the REPL stays free (for
  mpremote), nothing is drawn, nothing is written.
- Any uncaught exception is shown on the screen (if the display came up), appended to
  /error.log, and the game stops; saves are never touched here. Ctrl-C (KeyboardInterrupt)
  goes straight to the REPL.
"""

import sys

import app_main


def safe_boot(board):
    from machine import Pin

    n, pull, active = board.BUTTONS[board.SAFE_BOOT_BUTTON]
    p = Pin(n, Pin.IN, Pin.PULL_UP if pull == "up" else (Pin.PULL_DOWN if pull == "down" else None))
    return p.value() == active


def show_error(e):
    try:
        with open(app_main.ERROR_LOG, "a") as f:
            f.write("----\n")
            sys.print_exception(e, f)
    except Exception:
        pass
    d = app_main.display
    c = app_main.canvas
    if d is None or c is None:
        return
    try:
        text = "%s: %s" % (type(e).__name__, e)
        per_line = max(8, (c.width - 8) // 6)
        c.reset_clip()
        c.fill_rect(0, 0, c.width, c.height, 10)  # BLACK
        c.text(4, 4, "Error (see error.log)", 14)  # RED
        y = 18
        while text and y < c.height - 10:
            c.text(4, y, text[:per_line], 9)  # WHITE
            text = text[per_line:]
            y += 10
        d.show(c.take_dirty())
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


start()
