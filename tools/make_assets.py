"""Generate the fonts and sprites of lib/catan/ui/ from the ASCII-art sources in tools/assets/.

    python3 tools/make_assets.py            # write lib/catan/ui/font_small.py, font_large.py,
                                            # sprites.py, sprites_big.py, sprites_mid.py
    python3 tools/make_assets.py --check    # exit 1 if a generated module is out of date
    python3 tools/make_assets.py --preview DIR   # also write PNG contact sheets of every cell

Sources (drawn for this project; no third-party font data):
- ``font_small.txt``: the small proportional font, one "glyph C" block per character.
- ``font_large.txt``: the large font's spacing and line pitch. Its glyphs are the small one's
  doubled (``double``: pixel doubling that fills the stair-steps of diagonals, half of the EPX
  rule), drawn so by the canvas from the small font's cells (``SCALE`` 2): ``font_large.py``
  holds no cells of its own (on stock firmware a font's table is heap; 3.4 KB for this one), so
  this file takes no glyph blocks.
- ``sprites.txt``: 16x16 sprites, one "sprite NAME" block each. The map's symbols and the
  faces of its joker cards are also made half as large again (``grow``: doubled as the large
  font, then one of every four rows and columns left out) into ``sprites_big.py``, 24x24, for the
  larger maps (320x240); a symbol's inside there is its silhouette one pixel in all round. The
  same symbols with two rows and columns drawn twice (``grow_mid``, 18x18) make
  ``sprites_mid.py``, for the 240x240 map.

A block is a header line then ``height`` rows of ``#`` (ink) and ``.`` (blank), all as long as the
cell is wide. Lines starting with ``;`` are comments; ``key value`` lines set ``height``,
``spacing``, ``line`` and ``first``.

Generated module format (read by ``catan.ui.canvas``): ``HEIGHT``, ``BPR`` (bytes per row),
``FIRST`` (code of cell 0), ``COUNT``, ``SPACING`` (blank columns after a cell), ``LINE`` (line
pitch), ``SCALE``, ``WIDTHS`` (bytes: width of each cell as drawn) and ``DATA`` (bytes: cell i is
HEIGHT rows of BPR bytes at offset i * HEIGHT * BPR, leftmost pixel in the most significant bit,
i.e. framebuf's MONO_HLSB). ``SCALE`` is 1, or for the large font 2: its ``DATA`` is the small
font's (cells of HEIGHT / 2 rows of one byte), each pixel drawn as two by two and the diagonals
smoothed as ``double`` does. Sprite modules also name each sprite index (``BRICK = 0``, ...).
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ASSETS = os.path.join(ROOT, "tools", "assets")
OUT = os.path.join(ROOT, "lib", "catan", "ui")
COMMAND = "python3 tools/make_assets.py"


class Sheet:
    """Cells of 1-bit pixels: ``cells`` is a list of (name, rows), rows a list of 0/1 lists."""

    def __init__(self, height, spacing=0, line=0, first=0):
        self.height = height
        self.spacing = spacing
        self.line = line or height
        self.first = first
        self.cells = []


def parse(path, header="glyph"):
    """Read an ASCII-art source into a Sheet."""
    settings = {}
    cells = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        text = lines[i].rstrip()
        i += 1
        if not text or text.startswith(";"):
            continue
        if text.startswith(header + " "):
            name = text[len(header) + 1:]
            if name == "space":
                name = " "
            height = settings.get("height")
            if height is None:
                raise SystemExit("%s:%d: 'height' must come before the first %s" % (path, i, header))
            rows = [r.rstrip() for r in lines[i:i + height]]
            if len(rows) != height or len({len(r) for r in rows}) != 1 or set("".join(rows)) - set("#."):
                raise SystemExit("%s:%d: %s %r: need %d rows of '#'/'.' of one length"
                                 % (path, i, header, name, height))
            cells.append((name, [[1 if ch == "#" else 0 for ch in r] for r in rows]))
            i += height
            continue
        key, _, value = text.partition(" ")
        if key not in ("height", "spacing", "line", "first"):
            raise SystemExit("%s:%d: unknown line %r" % (path, i, text))
        settings[key] = int(value)
    sheet = Sheet(settings.get("height", 0), settings.get("spacing", 0), settings.get("line", 0),
                  settings.get("first", 0))
    sheet.cells = cells
    return sheet


def double(rows):
    """Double a 1-bit cell, smoothing diagonals: a blank sub-pixel whose two neighbours on its
    corner's sides are ink (and the other two blank) is filled. This is the filling half of the
    EPX / Scale2x rule; its other half, which cuts convex corners, is left out because it makes
    square letters round (D looked like O)."""
    h, w = len(rows), len(rows[0])

    def at(x, y):
        return rows[y][x] if 0 <= x < w and 0 <= y < h else 0

    out = [[0] * (2 * w) for _ in range(2 * h)]
    for y in range(h):
        for x in range(w):
            p = rows[y][x]
            up, right, left, down = at(x, y - 1), at(x + 1, y), at(x - 1, y), at(x, y + 1)
            out[2 * y][2 * x] = p | (up & left & (1 - right) & (1 - down))
            out[2 * y][2 * x + 1] = p | (up & right & (1 - left) & (1 - down))
            out[2 * y + 1][2 * x] = p | (down & left & (1 - right) & (1 - up))
            out[2 * y + 1][2 * x + 1] = p | (down & right & (1 - left) & (1 - up))
    return out


# The rows and columns of a doubled 16-px cell that ``grow`` leaves out: one of each source
# pixel's two in every other source pixel, mirrored about the middle of the 15 pixels a symbol
# spans (15 -> 23 pixels, its middle column stays the middle one), and the last (blank) one.
_DROP = (3, 7, 11, 15, 18, 22, 26, 31)


def grow(rows):
    """A 16-px cell half as large again (24 px): doubled (``double``), then the rows and
    columns of ``_DROP`` left out (of each pixel's two, one stays: no line of it is lost)."""
    big = double(rows)
    return [[r[x] for x in range(len(r)) if x not in _DROP] for y, r in enumerate(big)
            if y not in _DROP]


# The pixels of a 16-px cell that ``grow_mid`` draws twice: two, mirrored about the middle of
# the 15 pixels a symbol spans (15 -> 17 pixels, its middle column stays the middle one).
_TWICE = (3, 11)


def grow_mid(rows):
    """A 16-px cell one eighth larger (18 px): the rows and columns of ``_TWICE`` repeated."""
    def wide(r):
        out = []
        for x, p in enumerate(r):
            out += [p, p] if x in _TWICE else [p]
        return out

    out = []
    for y, r in enumerate(rows):
        out += [wide(r), wide(r)] if y in _TWICE else [wide(r)]
    return out


def shrink(rows):
    """The cells of ``rows`` whose eight neighbours are all ink: a silhouette one pixel in."""
    h, w = len(rows), len(rows[0])

    def at(x, y):
        return rows[y][x] if 0 <= x < w and 0 <= y < h else 0

    return [[int(all(at(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)))
             for x in range(w)] for y in range(h)]


# The large map's sprites (sprites_big.py), by name in sprites.txt: a silhouette then its inside
# (made from it), the sword, the cross of a used joker, the faces a joker gives.
BIG_SHAPES = ("MAP_SETTLEMENT", "MAP_CITY", "MAP_KNIGHT")
BIG_OTHERS = ("MAP_SWORD", "CROSS", "BRICK", "LUMBER", "WOOL", "GRAIN", "ORE", "GOLD", "JOKER")


def big_sprites(sprites, scale=grow, side=24):
    """The sheet of sprites_big.py (or with ``grow_mid``, 18, sprites_mid.py) from the 16x16
    sheet."""
    cells = dict(sprites.cells)
    out = Sheet(side)
    for n in BIG_SHAPES:
        rows = scale(cells[n])
        out.cells += [(n, rows), (n + "_IN", shrink(rows))]
    out.cells += [(n, scale(cells[n])) for n in BIG_OTHERS]
    return out


# The sprites drawn inside an edge (widgets.picture: the pale faces on white, the used joker's
# cross), in the order of their ``k`` there: each sheet's last 2 * 4 cells are their edges.
EDGED = ("WOOL", "GRAIN", "GOLD", "CROSS")


def add_edges(sheet):
    """Append to a sprite sheet two cells for each of ``EDGED``: its edge (the pixels beside
    one of its own, left, right, above or below: a pixel wider all round than its cell holds)
    as seen from a pixel up and left of the sprite, then what that cell misses of it from a
    pixel down and right; drawn there in the edge's colour, then the sprite, they give the
    edge of four draws a pixel off each way in two."""
    cells = dict(sheet.cells)
    for name in EDGED:
        rows = cells[name]
        h = len(rows)
        w = len(rows[0])
        edge = {(x + dx, y + dy) for y in range(h) for x in range(w) if rows[y][x]
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
        first = [[int((x - 1, y - 1) in edge) for x in range(w)] for y in range(h)]
        rest = edge - {(x - 1, y - 1) for y in range(h) for x in range(w)}
        second = [[int((x + 1, y + 1) in rest) for x in range(w)] for y in range(h)]
        if sum(map(sum, second)) != len(rest):
            raise SystemExit("sprites.txt: %s's edge is wider than two cells a pixel off hold" % name)
        sheet.cells += [(name + "_EDGE", first), (name + "_EDGE", second)]
    return sheet


def font_sheet(sheet, expect_first=32, expect_count=95):
    """Check a font has one glyph for every code from ``first``, in order."""
    names = [n for n, _ in sheet.cells]
    want = [chr(c) for c in range(expect_first, expect_first + expect_count)]
    if names != want:
        missing = sorted(set(want) - set(names))
        raise SystemExit("font needs glyphs %r..%r in order; missing %r, got order %r"
                         % (want[0], want[-1], missing, "".join(names)))
    return sheet


def large_from_small(small, settings):
    """The large font as the canvas draws it: every small glyph doubled (``double``), with the
    spacing and line pitch of ``settings`` (font_large.txt)."""
    big = Sheet(2 * small.height, settings.spacing or 2 * small.spacing,
                settings.line or 2 * small.line, small.first)
    if settings.height and settings.height != big.height:
        raise SystemExit("font_large.txt: height must be %d" % big.height)
    if settings.cells:
        raise SystemExit("font_large.txt: the canvas draws the large font from the small one's "
                         "cells, doubled; it takes no glyphs (%s): change font_small.txt"
                         % ", ".join(repr(n) for n, _ in settings.cells))
    if any(len(rows[0]) > 8 for _, rows in small.cells):
        raise SystemExit("font_small.txt: the large font is drawn from cells of at most 8 "
                         "pixels across (a byte a row)")
    big.cells = [(n, double(rows)) for n, rows in small.cells]
    return big


def pack(sheet):
    """``(bpr, widths bytes, data bytes)`` of a sheet in the canvas's cell format."""
    width = max(len(rows[0]) for _, rows in sheet.cells)
    bpr = (width + 7) // 8
    widths = bytearray()
    data = bytearray()
    for _, rows in sheet.cells:
        widths.append(len(rows[0]))
        for r in rows:
            bits = r + [0] * (8 * bpr - len(r))
            for b in range(bpr):
                v = 0
                for bit in bits[8 * b:8 * b + 8]:
                    v = (v << 1) | bit
                data.append(v)
    return bpr, bytes(widths), bytes(data)


def _bytes_literal(name, data, per_line=16):
    lines = ["%s = (" % name]
    for i in range(0, len(data), per_line):
        lines.append('    b"%s"' % "".join("\\x%02x" % b for b in data[i:i + per_line]))
    lines.append(")")
    return "\n".join(lines)


def module_text(sheet, doc, sources, names=None, cells_of=None):
    """The Python source of a generated module; with ``cells_of`` (a font module's dotted name),
    of a font drawn twice as large from that font's cells (``SCALE`` 2: its ``DATA`` is theirs,
    imported, and only its widths are its own)."""
    bpr, widths, data = pack(sheet)
    out = [
        '"""%s"""' % doc,
        "",
        "# GENERATED FILE, do not edit: made by `%s`" % COMMAND,
        "# from %s (drawn by hand for this project, no third-party data)." % ", ".join(sources),
        "",
    ]
    if cells_of:
        bpr = 1  # (the source's cells: at most 8 pixels across, large_from_small checks it)
        out += ["from %s import DATA  # the cells, each pixel drawn as two by two" % cells_of, ""]
    out += [
        "HEIGHT = %d  # rows per cell" % sheet.height,
        "BPR = %d  # bytes per row" % bpr,
        "FIRST = %d  # code of cell 0" % sheet.first,
        "COUNT = %d" % len(sheet.cells),
        "SPACING = %d  # blank columns after each cell" % sheet.spacing,
        "LINE = %d  # line pitch" % sheet.line,
        "SCALE = %d  # pixels across a pixel of DATA (2: diagonals smoothed)" % (2 if cells_of else 1),
        "",
    ]
    if names:
        out += ["%s = %d" % (n, i) for i, n in enumerate(names)] + [""]
        if len(sheet.cells) > len(names):
            out += ["# cells %d..%d: the edges of %s, two each (tools/make_assets.py, add_edges)"
                    % (len(names), len(sheet.cells) - 1, ", ".join(EDGED)), ""]
    out += [_bytes_literal("WIDTHS", widths), ""]
    if not cells_of:
        out += [_bytes_literal("DATA", data), ""]
    return "\n".join(out)


def build():
    """``{module file name: source text}`` of every generated module."""
    small = font_sheet(parse(os.path.join(ASSETS, "font_small.txt")))
    large = large_from_small(small, parse(os.path.join(ASSETS, "font_large.txt")))
    sprites = parse(os.path.join(ASSETS, "sprites.txt"), header="sprite")
    names = [n for n, _ in sprites.cells]
    for n in names:
        if not n.isidentifier() or n.upper() != n:
            raise SystemExit("sprites.txt: sprite names are UPPER_CASE identifiers, not %r" % n)
    big = big_sprites(sprites)
    mid = big_sprites(sprites, grow_mid, 18)
    big_names = [n for n, _ in big.cells]
    for sheet in (sprites, big, mid):
        add_edges(sheet)
    return {
        "font_small.py": (small, module_text(
            small, "Small font: printable ASCII, caps 7 px, cell %d px high." % small.height,
            ["tools/assets/font_small.txt"])),
        "font_large.py": (large, module_text(
            large, "Large font: the small font doubled, diagonals smoothed, cell %d px high; drawn"
            " from the small\nfont's cells by the canvas (no table of its own)." % large.height,
            ["tools/assets/font_small.txt", "tools/assets/font_large.txt"],
            cells_of="catan.ui.font_small")),
        "sprites.py": (sprites, module_text(
            sprites, "16x16 1-bit sprites, drawn in one palette colour with ``Canvas.sprite``.",
            ["tools/assets/sprites.txt"], names)),
        "sprites_big.py": (big, module_text(
            big, "24x24 sprites of the larger maps: the map's symbols of ``sprites`` half as large"
            " again\n(see ``tools/make_assets.py``); imported only where a layout draws them.",
            ["tools/assets/sprites.txt"], big_names)),
        "sprites_mid.py": (mid, module_text(
            mid, "18x18 sprites of the 240x240 map: the symbols of ``sprites_big`` one eighth"
            " larger than\n``sprites``' (see ``tools/make_assets.py``); imported only where a"
            " layout draws them.",
            ["tools/assets/sprites.txt"], big_names)),
    }


def preview(sheet, path, scale=4, per_row=16):
    """A PNG contact sheet of every cell (ink white on blue, cells outlined) for eyeballing."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import png

    cw = max(len(r[0]) for _, r in sheet.cells) + 2
    ch = sheet.height + 2
    n = len(sheet.cells)
    cols = min(per_row, n)
    rows = (n + cols - 1) // cols
    w, h = cols * cw + 1, rows * ch + 1
    px = bytearray(w * h)
    for i, (_, cell) in enumerate(sheet.cells):
        ox, oy = (i % cols) * cw + 1, (i // cols) * ch + 1
        for y in range(-1, sheet.height + 1):  # the cell's box in grey
            for x in range(-1, len(cell[0]) + 1):
                inside = 0 <= y < sheet.height and 0 <= x < len(cell[0])
                px[(oy + y) * w + ox + x] = 1 if not inside else (2 if cell[y][x] else 0)
    png.write(path, png.encode(w, h, px, [0x1B5394, 0x3A3F45, 0xFFFFFF], scale))


def main(argv):
    outputs = build()
    stale = []
    for name, (_sheet, text) in outputs.items():
        path = os.path.join(OUT, name)
        old = None
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                old = f.read()
        if old != text:
            stale.append(name)
            if "--check" not in argv:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
    if "--preview" in argv:
        folder = argv[argv.index("--preview") + 1]
        for name, (sheet, _) in outputs.items():
            preview(sheet, os.path.join(folder, name.replace(".py", ".png")))
    if "--check" in argv:
        if stale:
            print("out of date (run %s): %s" % (COMMAND, ", ".join(stale)))
            return 1
        print("generated modules are up to date")
        return 0
    print("wrote %s" % ", ".join(stale) if stale else "nothing to do: modules up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
