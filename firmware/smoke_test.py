"""Hardware check to run after wiring: ``mpremote run firmware/smoke_test.py`` (with boards/,
firmware/ and the catan package on the device; board chosen by board_config.py as in app_main).

What you should see:
- a WHITE 8x8 square in each corner, touching the edges: if one is cut or missing, or there is a
  strip of noise along an edge, the RAM offsets (board ROTATIONS) are wrong;
- a one-pixel diagonal from the top-left corner to the bottom-right corner: if it does not end
  exactly in the corners, width/height/offsets are wrong; if the picture is mirrored, MADCTL is;
- a filled block that must be RED. Computed from RGB565 (red 0xF800): BLUE means the panel is BGR
  (flip "bgr" in the board file); CYAN means the inversion is wrong (flip "invert"); YELLOW means
  both. A BLACK background with a white frame label means inversion too;
- the name of each button, on screen, when pressed (the long-press names too).
"""

import app_main
import buttons
from catan.ui.canvas import BLACK, RED, SKY, WHITE, lut565


def draw(c, board):
    w = c.width
    h = c.height
    c.fill_rect(0, 0, w, h, BLACK)
    for x, y in ((0, 0), (w - 8, 0), (0, h - 8), (w - 8, h - 8)):
        c.fill_rect(x, y, 8, 8, WHITE)
    for i in range(max(w, h)):  # the diagonal, corner to corner
        c.fill_rect(i * (w - 1) // (max(w, h) - 1), i * (h - 1) // (max(w, h) - 1), 1, 1, WHITE)
    bw = w // 4
    c.fill_rect(12, 24, bw, h // 3, RED)
    x = 16 + bw
    y = 14
    for line in ("%dx%d" % (w, h), "Block must be RED.", "blue: set bgr", "cyan: flip invert",
                 "yellow: flip both", "Press each button."):
        c.text(x, y, line, WHITE)
        y += 11
    c.text(12, h - 20, board.NAME[:36], SKY)


def run(board=None, hw=None, make_canvas=None, ticks_ms=None, ticks_diff=None, sleep_ms=None,
        max_loops=None):
    if board is None:
        board = app_main.load_board()
    buf = app_main.alloc_framebuffer(board)
    if hw is None:
        import machine as hw
    if ticks_ms is None:
        import time

        ticks_ms = time.ticks_ms
        ticks_diff = time.ticks_diff
        sleep_ms = time.sleep_ms
    d = app_main.make_display(board, hw, buf, lut565(), sleep_ms)
    c = (make_canvas or app_main._fb_canvas)(d.width, d.height, buf)
    draw(c, board)
    c.invalidate()
    d.show(c.take_dirty())
    btn = buttons.Buttons(buttons.from_board(board, hw.Pin), ticks_ms, ticks_diff)
    seen = []
    loops = 0
    while max_loops is None or loops < max_loops:
        loops += 1
        for e in btn.poll():
            seen.append(e)
            print("button:", e)
            c.fill_rect(0, c.height - 10, c.width, 10, BLACK)
            c.text(12, c.height - 10, "pressed: " + e, WHITE)
            d.show(c.take_dirty())
        sleep_ms(10)
    return d, c, seen


if __name__ == "__main__":
    run()
