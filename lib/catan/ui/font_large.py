"""Large font: the small font doubled, diagonals smoothed, cell 18 px high; drawn from the small
font's cells by the canvas (no table of its own)."""

# GENERATED FILE, do not edit: made by `python3 tools/make_assets.py`
# from tools/assets/font_small.txt, tools/assets/font_large.txt (drawn by hand for this project, no third-party data).

from catan.ui.font_small import DATA  # the cells, each pixel drawn as two by two

HEIGHT = 18  # rows per cell
BPR = 1  # bytes per row
FIRST = 32  # code of cell 0
COUNT = 95
SPACING = 2  # blank columns after each cell
LINE = 20  # line pitch
SCALE = 2  # pixels across a pixel of DATA (2: diagonals smoothed)

WIDTHS = (
    b"\x06\x02\x06\x0a\x0a\x0a\x0a\x02\x06\x06\x0a\x0a\x04\x08\x02\x0a"
    b"\x0a\x0a\x0a\x0a\x0a\x0a\x0a\x0a\x0a\x0a\x02\x04\x08\x0a\x08\x0a"
    b"\x0a\x0a\x0a\x0a\x0a\x0a\x0a\x0a\x0a\x06\x0a\x0a\x0a\x0a\x0a\x0a"
    b"\x0a\x0a\x0a\x0a\x0a\x0a\x0a\x0a\x0a\x0a\x0a\x06\x0a\x06\x0a\x0a"
    b"\x04\x0a\x0a\x0a\x0a\x0a\x08\x0a\x0a\x02\x06\x08\x04\x0a\x0a\x0a"
    b"\x0a\x0a\x08\x0a\x08\x0a\x0a\x0a\x0a\x0a\x0a\x08\x02\x08\x0a"
)
