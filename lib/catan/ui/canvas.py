"""The canvas protocol the screens draw through, and the 16-colour palette.

A canvas is a ``width`` x ``height`` grid of palette indices (0..15). Screens call:

- ``fill_rect(x, y, w, h, c)``, ``rect(x, y, w, h, c)`` (1-px outline), ``hline(x, y, w, c)``,
  ``vline(x, y, h, c)``;
- ``text(x, y, s, c, font=None)``: draws ``s`` with its top-left at (x, y) and returns the pen x after
  it (so differently coloured runs can be chained); ``"\\n"`` starts a new line at x. ``text_width``
  measures it (cells and spacing of the widest line);
- ``sprite(x, y, index, c, sheet=None)``: a 1-bit sprite in colour ``c``, transparent elsewhere;
- ``set_clip(x, y, w, h)`` / ``reset_clip()``: every primitive draws only inside the clip rectangle;
- ``take_dirty()``: the rectangles changed since the last call, as ``(x, y, w, h)``, and clears them;
  ``invalidate()`` marks the whole screen (after power-up, or when the panel lost its contents).

Fonts and sprite sheets share one format (see ``tools/make_assets.py``): a module with ``HEIGHT``,
``BPR`` (bytes per row), ``FIRST``, ``COUNT``, ``SPACING``, ``SCALE``, ``WIDTHS`` (bytes) and ``DATA``
(bytes: cell ``i`` is ``HEIGHT`` rows of ``BPR`` bytes at ``i * HEIGHT * BPR``, leftmost pixel in the
top bit). A font of ``SCALE`` 2 (the large one) has no cells of its own: its ``DATA`` is the small
font's, cells of ``HEIGHT / 2`` rows of a byte, each pixel drawn as two by two with the stair-steps
of diagonals filled (``doubled``; tools/make_assets.py's ``double`` made the same pixels into a
table of 3.4 KB, which on stock firmware was heap).

This class holds everything that is the same for all back ends: clipping, dirty regions, text layout,
and the decoding of 1-bit cells into runs. A back end implements ``_fill`` (a clipped, non-empty
rectangle) and ``get_pixel``; it may override ``_hline``, ``_vline``, ``_rect`` and ``_cell`` (a cell
known to lie inside the clip, of a sheet of either ``SCALE``) with faster native versions that must
give the same pixels.
Draw calls allocate nothing on MicroPython (strings are walked by index, not iterated).
"""

from catan import const
from catan.ui import font_small, sprites

KEEP_BYTES = const(640)  # what ``Canvas.keep`` keeps at most: a road's box, a button

# Palette indices. Chosen for a Catan look that stays legible on a small TFT: a blue sea behind
# sand-coloured panels, the five resource colours far apart in hue, and a cursor colour (magenta)
# that no game element uses, so it stands out on every background.
SEA = const(0)  # background sea blue
DEEP = const(1)  # deep sea: dark panels, shadows
SAND = const(2)  # the island's sand frame, light panels
BRICK = const(3)  # brick: terracotta red
LUMBER = const(4)  # lumber: dark forest green
WOOL = const(5)  # wool: light pasture green
GRAIN = const(6)  # grain: wheat yellow
ORE = const(7)  # ore: slate grey
GOLD = const(8)  # gold: amber, and the orange player
WHITE = const(9)
BLACK = const(10)
DARK = const(11)  # dark grey: text on sand, disabled dice
LIGHT = const(12)  # light grey: muted text on dark panels
CURSOR = const(13)  # highlight / cursor: magenta
RED = const(14)  # cross, warnings, the red player
SKY = const(15)  # light blue: the blue player, information

# RGB888 of each index, in index order.
PALETTE = (
    0x164884,  # SEA
    0x0A2342,  # DEEP
    0xEBD9A7,  # SAND
    0xC2522D,  # BRICK
    0x1E6B33,  # LUMBER
    0x94D350,  # WOOL
    0xF5D547,  # GRAIN
    0x83909C,  # ORE
    0xFFA530,  # GOLD
    0xFFFFFF,  # WHITE
    0x000000,  # BLACK
    0x3A3F45,  # DARK
    0xC5CBD1,  # LIGHT
    0xFF44CC,  # CURSOR (3:1 against both the sea and white)
    0xFF4B5C,  # RED
    0x78C6FF,  # SKY
)


def rgb565(rgb):
    """The RGB565 value (0..65535) nearest to an RGB888 value."""
    return ((rgb >> 8) & 0xF800) | ((rgb >> 5) & 0x07E0) | ((rgb >> 3) & 0x001F)


def lut565(bgr=False):
    """The palette as a 32-byte RGB565 lookup table, big-endian (the order ST7789 expects on SPI).

    ``bgr`` swaps red and blue, for panels wired BGR. The device driver expands GS4 through it.
    """
    lut = bytearray(32)
    for i in range(16):
        rgb = PALETTE[i]
        if bgr:
            rgb = ((rgb & 0xFF) << 16) | (rgb & 0xFF00) | (rgb >> 16)
        v = rgb565(rgb)
        lut[2 * i] = v >> 8
        lut[2 * i + 1] = v & 0xFF
    return bytes(lut)


_MAX_DIRTY = const(8)  # dirty rectangles kept; more are merged into their nearest neighbour
# Two dirty rectangles are merged when their bounding box adds at most this many pixels that
# neither covers. Each rectangle sent to the panel costs a window setup and a per-line loop, about
# the price of a few hundred pixels, so merging close rectangles wins and merging far ones loses.
_MERGE_WASTE = const(256)
_BIG = const(0x3FFFFFFF)  # largest small int on a 32-bit MicroPython
_MEMO = const(16)  # text widths remembered


def doubled(f, g, y, w):
    """Row ``y`` of cell ``g`` of a font of ``SCALE`` 2 (cells of ``f.HEIGHT / 2`` rows of a byte)
    drawn twice as large, as bits (its first ``w`` columns, the first the highest). Each pixel
    becomes two by two; of a blank pixel's four quarters, one is filled where the two pixels
    beside that corner (across and up or down) are ink and the two opposite them blank: the
    stair-steps of a diagonal (tools/make_assets.py's ``double``; firmware/fb_viper.py draws the
    same)."""
    # (the names of arguments other functions have: on the stock firmware each new one is a qstr)
    data = f.DATA
    n = f.HEIGHT >> 1
    o = g * n
    k = o + (y >> 1)
    cur = data[k]
    near = data[k - 1] if k > o else 0  # the row beside this half of the pixel's (above)
    far = data[k + 1] if k + 1 < o + n else 0
    if y & 1:  # the lower half: the row below is the near one
        near, far = far, near
    left = cur >> 1  # at each pixel's bit, its left neighbour's
    right = (cur << 1) & 0xFF
    even = cur | (near & left & ~right & ~far)  # each pixel's left quarter
    odd = cur | (near & right & ~left & ~far)  # and its right one
    v = 0
    for j in range(7, 7 - (w >> 1), -1):
        v = (v << 2) | ((even >> j) & 1) << 1 | ((odd >> j) & 1)
    return v


class Canvas:
    """Shared logic of the back ends: clipping, dirty regions, text layout, 1-bit cells."""

    # (About 500 lines, one class: its methods are the device's hottest code, and each part of
    # it as a class of its own would cost a lookup more per drawing call, and heap.)

    def __init__(self, width, height):
        self.width = width
        self.height = height
        self.font = font_small
        self.sheet = sprites
        self._dirty = [0] * (4 * _MAX_DIRTY)  # x0, y0, x1, y1 (exclusive) per rectangle
        self._ndirty = 0
        self._track = True  # each primitive marks what it drew (see ``track``)
        self._widths = {}  # text -> its width in the small font, for the last few texts
        # draws a clipped horizontal run (x, y, w, c) for spans and bands: a back end may put
        # its native one here
        self._row = self._hline
        self.kept_x = self.kept_y = self.kept_w = self.kept_h = 0  # nothing kept (see ``keep``)
        # the rows the canvas holds: all of them, or on a small heap a band of them at a time
        # (``bands`` of them; fb_canvas)
        self.bands = 1
        self.top = 0
        self.bottom = height
        self.reset_clip()

    # -- clipping --------------------------------------------------------------------------------
    # The clip's corners are ``clip_x0``, ``clip_y0`` (inside) and ``clip_x1``, ``clip_y1``
    # (just outside): read, never written, by code that tests many elements against it
    # (four attributes rather than a tuple: on the device each new object costs a key time).
    # It never leaves the rows the canvas holds (``top`` to ``bottom``).

    def set_clip(self, x, y, w, h):
        """Restrict drawing to a rectangle (intersected with the screen)."""
        x0 = max(x, 0)
        y0 = max(y, self.top)
        x1 = min(x + w, self.width)
        y1 = min(y + h, self.bottom)
        x1 = max(x1, x0)  # an empty clip, not a negative one
        y1 = max(y1, y0)
        self.clip_x0 = x0
        self.clip_y0 = y0
        self.clip_x1 = x1
        self.clip_y1 = y1

    def reset_clip(self):
        """Draw anywhere on the screen again."""
        self.clip_x0 = 0
        self.clip_y0 = self.top
        self.clip_x1 = self.width
        self.clip_y1 = self.bottom

    def visible(self, x, y, w, h):
        """True if the rectangle meets the clip: whatever lies wholly outside it can be skipped."""
        return x < self.clip_x1 and y < self.clip_y1 and x + w > self.clip_x0 and y + h > self.clip_y0

    # -- what lies under the cursor -----------------------------------------------------------------
    # The app keeps the pixels a cursor is about to change (``keep``) and puts them back when it
    # leaves (``put_back``), instead of repainting that part of the screen: on the device a paint
    # of a map box costs 10-18 ms, putting its pixels back well under one. One rectangle is kept
    # at a time (``kept_w`` 0: none); ``App.draw`` drops it (``drop_kept``) before any paint
    # that meets it, since the pixels there may change.

    def keep(self, x, y, w, h):
        """Keep the pixels of a rectangle (what a cursor will change) if they fit in
        ``KEEP_BYTES`` at four bits a pixel; else keep nothing."""
        if ((w + 1) >> 1) * h > KEEP_BYTES:
            self.kept_w = 0
            return
        self.kept_x = x
        self.kept_y = y
        self.kept_w = w
        self.kept_h = h
        self._keep_pixels(x, y, w, h)

    def drop_kept(self, x, y, w, h):
        """Keep nothing if the rectangle meets the kept one (a paint there may change those
        pixels)."""
        if (x < self.kept_x + self.kept_w and self.kept_x < x + w
                and y < self.kept_y + self.kept_h and self.kept_y < y + h):
            self.kept_w = 0

    def kept(self, x, y, w, h):
        """True if the pixels of exactly this rectangle are kept."""
        return (self.kept_w == w and self.kept_x == x and self.kept_y == y
                and self.kept_h == h)

    def put_back(self):
        """Draw the kept pixels where they were, and keep nothing."""
        if self.kept_w:
            self._put_back_pixels(self.kept_x, self.kept_y, self.kept_w, self.kept_h)
            if self._track:
                self._mark(self.kept_x, self.kept_y, self.kept_x + self.kept_w,
                           self.kept_y + self.kept_h)
            self.kept_w = 0

    def _keep_pixels(self, x, y, w, h):
        # (a back end may copy them natively)
        get = self.get_pixel
        self._under = bytes(get(x + k % w, y + k // w) for k in range(w * h))

    def _put_back_pixels(self, x, y, w, h):
        under = self._under
        for k in range(w * h):
            self._fill(x + k % w, y + k // w, 1, 1, under[k])

    # -- dirty regions ---------------------------------------------------------------------------

    def invalidate(self):
        """Mark the whole screen as changed."""
        d = self._dirty
        d[0] = 0
        d[1] = 0
        d[2] = self.width
        d[3] = self.height
        self._ndirty = 1

    def track(self, on):
        """Whether each primitive marks the pixels it drew. A caller that repaints known
        rectangles turns it off and marks the rectangles once (``mark``): on the device
        the bookkeeping per primitive costs more than the drawing."""
        self._track = on

    def mark(self, x, y, w, h):
        """Mark a rectangle (clipped to the screen) as changed."""
        x0 = max(x, 0)
        y0 = max(y, 0)
        x1 = min(x + w, self.width)
        y1 = min(y + h, self.height)
        if x0 < x1 and y0 < y1:
            self._mark(x0, y0, x1, y1)

    def take_dirty(self):
        """The changed rectangles as a list of ``(x, y, w, h)`` (an empty tuple if none), and
        forget them."""
        if not self._ndirty:
            return ()  # (no garbage in the main loop's idle rounds)
        d = self._dirty
        out = []
        for j in range(0, 4 * self._ndirty, 4):
            out.append((d[j], d[j + 1], d[j + 2] - d[j], d[j + 3] - d[j + 1]))
        self._ndirty = 0
        return out

    def _mark(self, x0, y0, x1, y1):
        # Add a non-empty rectangle (exclusive corners). It first absorbs the existing rectangle
        # whose union with it wastes fewest pixels, as long as that waste is small (or the list
        # is full), and repeats, since the grown rectangle may now be close to another one.
        d = self._dirty
        while True:
            n = self._ndirty
            best = -1
            bestw = _BIG
            area = (x1 - x0) * (y1 - y0)
            for j in range(0, 4 * n, 4):
                a0 = d[j]
                b0 = d[j + 1]
                a1 = d[j + 2]
                b1 = d[j + 3]
                waste = (max(x1, a1) - min(x0, a0)) * (max(y1, b1) - min(y0, b0))
                waste -= area + (a1 - a0) * (b1 - b0)
                ix = min(x1, a1) - max(x0, a0)
                iy = min(y1, b1) - max(y0, b0)
                if ix > 0 and iy > 0:
                    waste += ix * iy
                if waste < bestw:
                    bestw = waste
                    best = j
            if best < 0 or (bestw > _MERGE_WASTE and n < _MAX_DIRTY):
                j = 4 * n
                d[j] = x0
                d[j + 1] = y0
                d[j + 2] = x1
                d[j + 3] = y1
                self._ndirty = n + 1
                return
            j = best
            x0 = min(x0, d[j])
            y0 = min(y0, d[j + 1])
            x1 = max(x1, d[j + 2])
            y1 = max(y1, d[j + 3])
            k = 4 * (n - 1)  # the last rectangle takes the merged one's slot
            d[j] = d[k]
            d[j + 1] = d[k + 1]
            d[j + 2] = d[k + 2]
            d[j + 3] = d[k + 3]
            self._ndirty = n - 1

    # -- rectangles and lines --------------------------------------------------------------------

    def fill_rect(self, x, y, w, h, c):
        """Fill a rectangle with colour index ``c``."""
        x1 = x + w  # (comparisons, not min and max: half the time on the device)
        y1 = y + h
        if x < self.clip_x0:
            x = self.clip_x0
        if y < self.clip_y0:
            y = self.clip_y0
        if x1 > self.clip_x1:
            x1 = self.clip_x1
        if y1 > self.clip_y1:
            y1 = self.clip_y1
        if x < x1 and y < y1:
            self._fill(x, y, x1 - x, y1 - y, c)
            if self._track:
                self._mark(x, y, x1, y1)

    def hline(self, x, y, w, c):
        """A horizontal line of ``w`` pixels starting at (x, y)."""
        if self.clip_y0 <= y < self.clip_y1:
            x1 = min(x + w, self.clip_x1)
            x = max(x, self.clip_x0)
            if x < x1:
                self._hline(x, y, x1 - x, c)
                if self._track:
                    self._mark(x, y, x1, y + 1)

    def vline(self, x, y, h, c):
        """A vertical line of ``h`` pixels starting at (x, y)."""
        if self.clip_x0 <= x < self.clip_x1:
            y1 = min(y + h, self.clip_y1)
            y = max(y, self.clip_y0)
            if y < y1:
                self._vline(x, y, y1 - y, c)
                if self._track:
                    self._mark(x, y, x + 1, y1)

    def spans(self, x, y, halves, c):
        """A shape symmetric about column ``x``: row ``y + k`` runs from ``x - halves[k]`` to
        ``x + halves[k]`` (a hex, a diamond). One call instead of an ``hline`` per row: only
        the rows inside the clip are visited."""
        k0 = max(0, self.clip_y0 - y)
        k1 = min(len(halves), self.clip_y1 - y)
        if k0 < k1:
            self._span_rows(x, y, halves, k0, k1, c)

    def _span_rows(self, x, y, halves, k0, k1, c):
        # rows k0 .. k1 - 1 of ``spans`` (inside the clip; a back end may draw them natively)
        cx0 = self.clip_x0
        cx1 = self.clip_x1
        hl = self._row  # a bound method made once: nothing allocated per call
        left = _BIG
        right = -1
        for k in range(k0, k1):
            h = halves[k]
            a = x - h
            b = x + h + 1
            if a < cx0:
                a = cx0
            if b > cx1:
                b = cx1
            if a < b:
                hl(a, y + k, b - a, c)
                if a < left:
                    left = a
                if b > right:
                    right = b
        if self._track and left < right:
            self._mark(left, y + k0, right, y + k1)

    def band(self, x0, y0, x1, y1, thick, c, short=0, bed=-1):
        """A thick line from (x0, y0) to (x1, y1): ``thick`` pixels across each row (a flat one
        as one bar), ``short`` columns (flat) or rows (sloped) short of either end; only the
        rows inside the clip are visited. With ``bed`` (a colour), its middle then, ``thick``
        - 2 across and a pixel shorter at either end, in ``bed``: a road's edge and bed in one
        call (on the emulated Pico a band's own Python is about a third of its 0.4 ms)."""
        if y0 > y1:
            x0, y0, x1, y1 = x1, y1, x0, y0
        dx = x1 - x0
        dy = y1 - y0
        while True:
            if not dy:
                self.fill_rect(min(x0, x1) + short, y0 - thick // 2, abs(dx) + 1 - 2 * short,
                               thick, c)
            else:
                ya = max(y0 + short, self.clip_y0)
                yb = min(y1 + 1 - short, self.clip_y1)
                if ya < yb:
                    # row y's left end: x0 + (dx * (y - y0) + half) // dy - thick // 2
                    self._band_rows(x0 - thick // 2, y0, dx, dy,
                                    dy >> 1 if dx >= 0 else -(dy >> 1), ya, yb, thick, c)
            if bed < 0:
                return
            thick -= 2
            short += 1
            c = bed
            bed = -1

    def _band_rows(self, x0, y0, dx, dy, half, ya, yb, thick, c):
        # rows ya .. yb - 1 of ``band`` (inside the clip; a back end may draw them natively)
        cx0 = self.clip_x0
        cx1 = self.clip_x1
        hl = self._row  # a bound method made once: nothing allocated per call
        left = _BIG
        right = -1
        for y in range(ya, yb):
            a = x0 + (dx * (y - y0) + half) // dy
            b = a + thick
            if a < cx0:
                a = cx0
            if b > cx1:
                b = cx1
            if a < b:
                hl(a, y, b - a, c)
                if a < left:
                    left = a
                if b > right:
                    right = b
        if self._track and left < right:
            self._mark(left, ya, right, yb)

    def rect(self, x, y, w, h, c):
        """A 1-pixel outline of the rectangle."""
        if w <= 0 or h <= 0:
            return
        x1 = x + w
        y1 = y + h
        if x >= self.clip_x0 and y >= self.clip_y0 and x1 <= self.clip_x1 and y1 <= self.clip_y1:
            self._rect(x, y, w, h, c)
            if not self._track:
                return
            # The four edges, not the box: a frame changes only its border.
            self._mark(x, y, x1, y + 1)
            if h > 1:
                self._mark(x, y1 - 1, x1, y1)
            if h > 2:
                self._mark(x, y + 1, x + 1, y1 - 1)
                if w > 1:
                    self._mark(x1 - 1, y + 1, x1, y1 - 1)
            return
        self.hline(x, y, w, c)
        if h > 1:
            self.hline(x, y1 - 1, w, c)
        if h > 2:
            self.vline(x, y + 1, h - 2, c)
            if w > 1:
                self.vline(x1 - 1, y + 1, h - 2, c)

    # -- text and sprites ------------------------------------------------------------------------

    def text_width(self, s, font=None, n=None):
        """Width in pixels of ``s`` (of its widest line), or of its first ``n`` characters (no
        slice: on the device a new string costs more than measuring it): its cells and the
        spacing between them."""
        f = font or self.font
        memo = f is self.font and n is None
        if memo:  # the small font's widths are asked again and again (wrap, a line's change)
            v = self._widths.get(s)
            if v is not None:
                return v
        widths = f.WIDTHS
        first = f.FIRST
        count = f.COUNT
        sp = f.SPACING
        best = 0
        pen = 0
        for i in range(len(s) if n is None else n):
            code = ord(s[i])
            if code == 10:
                best = max(best, pen - sp)
                pen = 0
                continue
            g = code - first
            if g < 0 or g >= count:
                g = 63 - first  # "?"
            pen += widths[g] + sp
        v = max(best, pen - sp)
        if memo:
            if len(self._widths) >= _MEMO:
                self._widths = {}
            self._widths[s] = v
        return v

    def fit(self, s, w):
        """How many of the first characters of ``s`` (one line) fit in ``w`` pixels of the
        small font (``text_width`` of that many is at most ``w``)."""
        f = self.font
        widths = f.WIDTHS
        first = f.FIRST
        count = f.COUNT
        sp = f.SPACING
        pen = 0
        for i in range(len(s)):
            g = ord(s[i]) - first
            if g < 0 or g >= count:
                g = 63 - first  # "?"
            if pen + widths[g] > w:
                return i
            pen += widths[g] + sp
        return len(s)

    def text(self, x, y, s, c, font=None):
        """Draw ``s`` in colour ``c`` with its top-left corner at (x, y); return the pen x after it.

        Characters the font lacks are drawn as "?". A newline continues at x, ``font.LINE`` lower.
        """
        f = font or self.font
        widths = f.WIDTHS
        first = f.FIRST
        count = f.COUNT
        sp = f.SPACING
        h = f.HEIGHT
        cx0 = self.clip_x0
        cx1 = self.clip_x1
        # per line: its rows wholly inside the clip (then a cell inside it across takes the
        # back end's fast path), partly, or not at all (nothing to draw)
        inside = y >= self.clip_y0 and y + h <= self.clip_y1
        meets = y < self.clip_y1 and y + h > self.clip_y0
        pen = x
        n = len(s)
        i = 0
        while i <= n:
            code = ord(s[i]) if i < n else 10
            i += 1
            if code == 10:  # end of a line: mark what it covered
                if pen > x and self._track:
                    self._mark_clipped(x, y, pen - sp, y + h)
                if i <= n:
                    pen = x
                    y += f.LINE
                    inside = y >= self.clip_y0 and y + h <= self.clip_y1
                    meets = y < self.clip_y1 and y + h > self.clip_y0
                continue
            g = code - first
            if g < 0 or g >= count:
                g = 63 - first
            w = widths[g]
            if code != 32 and meets:
                if inside and pen >= cx0 and pen + w <= cx1:
                    self._cell(f, g, pen, y, c)
                elif pen < cx1 and pen + w > cx0:
                    self._cell_runs(f, g, pen, y, c, cx0, self.clip_y0, cx1, self.clip_y1)
            pen += w + sp
        return pen

    def sprite(self, x, y, index, c, sheet=None, inside=-1):
        """Draw sprite ``index`` of ``sheet`` (default: ``sprites``) in colour ``c`` at (x, y);
        with ``inside`` (a colour), the next sprite (a silhouette's inside) over it in that
        colour: the map's items in one call, not two."""
        f = sheet or self.sheet
        w = f.WIDTHS[index]
        h = f.HEIGHT
        self._draw_cell(f, index, x, y, w, c)
        if inside >= 0:
            self._draw_cell(f, index + 1, x, y, f.WIDTHS[index + 1], inside)
        if self._track:
            self._mark_clipped(x, y, x + w, y + h)

    def _mark_clipped(self, x0, y0, x1, y1):
        # Mark the part of a rectangle (exclusive corners) inside the clip, if any.
        x0 = max(x0, self.clip_x0)
        y0 = max(y0, self.clip_y0)
        x1 = min(x1, self.clip_x1)
        y1 = min(y1, self.clip_y1)
        if x0 < x1 and y0 < y1:
            self._mark(x0, y0, x1, y1)

    def _draw_cell(self, f, g, x, y, w, c):
        # Inside the clip: the back end's fast path. Partly inside: runs clipped here.
        h = f.HEIGHT
        if x >= self.clip_x0 and y >= self.clip_y0 and x + w <= self.clip_x1 and y + h <= self.clip_y1:
            self._cell(f, g, x, y, c)
        elif x < self.clip_x1 and y < self.clip_y1 and x + w > self.clip_x0 and y + h > self.clip_y0:
            self._cell_runs(f, g, x, y, c, self.clip_x0, self.clip_y0, self.clip_x1, self.clip_y1)

    def _cell_runs(self, f, g, x, y, c, cx0, cy0, cx1, cy1):
        # Decode a 1-bit cell row by row into horizontal runs of set bits, clipped, and draw each
        # run with _hline. This is the reference rendering every fast path must match.
        bpr = f.BPR
        data = f.DATA
        w = f.WIDTHS[g]
        h = f.HEIGHT
        big = f.SCALE > 1
        o = g * h * bpr
        top = w - 1 if big else 8 * bpr - 1  # the bit of the cell's column 0 in a row's bits
        for r in range(h):
            yy = y + r
            if cy0 <= yy < cy1:
                if big:
                    v = doubled(f, g, r, w)
                else:
                    v = 0
                    for k in range(bpr):
                        v = (v << 8) | data[o + k]
                start = -1
                for col in range(w + 1):
                    if col < w and (v >> (top - col)) & 1:
                        if start < 0:
                            start = col
                    elif start >= 0:
                        a = max(x + start, cx0)
                        b = min(x + col, cx1)
                        if a < b:
                            self._hline(a, yy, b - a, c)
                        start = -1
            if not big:
                o += bpr

    # -- back-end primitives (coordinates already clipped) ---------------------------------------

    def _fill(self, x, y, w, h, c):
        raise NotImplementedError

    def _hline(self, x, y, w, c):
        self._fill(x, y, w, 1, c)

    def _vline(self, x, y, h, c):
        self._fill(x, y, 1, h, c)

    def _rect(self, x, y, w, h, c):
        self._hline(x, y, w, c)
        if h > 1:
            self._hline(x, y + h - 1, w, c)
        if h > 2:
            self._vline(x, y + 1, h - 2, c)
            if w > 1:
                self._vline(x + w - 1, y + 1, h - 2, c)

    def _cell(self, f, g, x, y, c):
        self._cell_runs(f, g, x, y, c, self.clip_x0, self.clip_y0, self.clip_x1, self.clip_y1)

    def get_pixel(self, x, y):
        """The colour index at (x, y)."""
        raise NotImplementedError

    def gs4(self):
        """The whole picture as GS4_HMSB bytes (two pixels per byte, left one in the high nibble,
        rows padded to whole bytes): the framebuf back end's own layout, used to compare back ends
        and to write PNGs."""
        w = self.width
        stride = (w + 1) >> 1
        out = bytearray(stride * self.height)
        get = self.get_pixel
        for y in range(self.height):
            o = y * stride
            for x in range(0, w, 2):
                v = get(x, y) << 4
                if x + 1 < w:
                    v |= get(x + 1, y)
                out[o + (x >> 1)] = v
        return bytes(out)
