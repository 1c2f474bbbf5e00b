"""The framebuf back end of the canvas (MicroPython, on the device).

The picture is a ``framebuf.FrameBuffer`` in ``GS4_HMSB``: 4-bit palette indices, two pixels per
byte, the left one in the high nibble, rows of ``(width + 1) // 2`` bytes (16,200 bytes at 240x135).
The display driver reads ``buffer`` and expands the dirty rectangles from ``take_dirty()`` through
``canvas.lut565()`` into RGB565, one line at a time.

Rectangles and lines use framebuf's native ``fill_rect``, ``hline``, ``vline`` and ``rect``. A 1-bit
cell (glyph or sprite) is a ``MONO_HLSB`` FrameBuffer drawn with one native
``blit(src, x, y, key, palette)``: the palette is a 2x1 GS4 FrameBuffer mapping bit 0 to ``key`` and
bit 1 to the colour, and ``key`` (compared after the palette lookup) makes bit 0 transparent. For
the small font and the sprites that FrameBuffer is one per cell, all made with the canvas over a
RAM copy of the sheet (about 6 KB; copying a cell per glyph drawn was most of a glyph's cost on
the device). Other sheets (the larger maps' sprites) copy the cell into a small per-shape
scratch FrameBuffer, and the large font (drawn from the small one's cells twice as large,
``SCALE`` 2) writes its rows there, worked out (``canvas.doubled``). ``blit`` with a palette works
on every 1.2x release; a draw allocates nothing.

On the device the canvas is given ``native``, the device's viper drawing routines (the module
firmware/fb_viper.py), which give the same pixels: text and sprites (``cells``: a line a call,
clipped there; a glyph about 25 us instead of 250), text widths (``width``: a line of 30
characters about 0.1 ms instead of 1; wrapping the turn screen's info lines cost a cursor move
up to 16 ms) and how much of a line fits (``fit``, for wrapping); the cell FrameBuffers above
are then not made. The rows of ``spans`` and ``band`` are native too (``rows``: one call, not
an ``hline`` and a loop round in Python per row) while nothing is tracked (``track(False)``, as
App.draw paints).
A text of several lines then costs a string per line; nothing else allocates.
"""

import framebuf
from array import array

from catan.ui.canvas import KEEP_BYTES, Canvas, doubled


class FbCanvas(Canvas):
    """A canvas drawing into a GS4_HMSB FrameBuffer.

    Pass ``buf`` to draw into a buffer allocated earlier (allocate it first, right after boot,
    before the heap fragments); it needs ``(width + 1) // 2 * height`` bytes, or with ``rows``
    (fewer than ``height``: a band of the picture at a time, see ``set_band``) that many rows.
    """

    def __init__(self, width, height, buf=None, native=None, rows=None):
        stride = (width + 1) >> 1
        rows = rows or height
        if buf is None:
            buf = bytearray(stride * rows)
        self.buffer = buf
        self.fb = framebuf.FrameBuffer(buf, width, rows, framebuf.GS4_HMSB)
        self._native = native
        self._target = buf  # what the native routines draw into (see ``set_band``)
        if native is not None:
            # their arguments (see fb_viper): the count, the colour, the clip (kept up to date
            # by set_clip and reset_clip), the buffer's stride, the sheet's shape (set when
            # the sheet changes), the rows', whether the sheet is drawn twice as large
            self._np = array("i", (0,) * 18)
            self._np[6] = (width + 1) >> 1
            self._shape = None  # the sheet whose shape _np holds
            self._code = bytearray(1)  # a sprite's code
        Canvas.__init__(self, width, height)
        self._under_buf = bytearray(KEEP_BYTES)  # the pixels kept under a cursor (``keep``)
        if rows < height:
            self._banded(rows, stride)
            return
        # the back-end primitives are framebuf's own (bound once: no Python call between)
        fb = self.fb
        self._fill = fb.fill_rect
        self._hline = self._row = fb.hline
        self._vline = fb.vline
        self._rect = fb.rect
        if native is not None:
            return
        self._palbuf = bytearray(1)
        self._pal = framebuf.FrameBuffer(self._palbuf, 2, 1, framebuf.GS4_HMSB)
        # (cell height << 8 | bytes per row) -> (bytearray, FrameBuffer over it, its length);
        # keyed by shape, not by module, so a font module loaded again is not kept alive
        self._scratch = {}
        # the small font's and the sprites' cell FrameBuffers, all made now, together (the
        # canvas is made right after the framebuffer, at boot): made one by one during play
        # they would be small blocks pinned all over a fragmented heap
        self._font_cells = self._cells(self.font)
        self._sprite_cells = self._cells(self.sheet)
        self._ink = -1  # the colour the palette holds
        self._key = 0

    # -- a band of rows ----------------------------------------------------------------------------
    # On a small heap a big panel's whole picture may not fit: the buffer then holds ``rows`` rows
    # of it, a band, and ``App.draw`` paints the picture a band at a time (``set_band``), each
    # sent to the panel (``send``, the device's) before the next is painted. Then the native routines draw
    # through an address moved up by the band's top row, framebuf's own primitives at rows moved
    # up by it. What a cursor changes is kept only where it lies inside the band held, from an
    # even column to an even one (put back later, in its band, it is sent as whole bytes).

    def _banded(self, rows, stride):
        if self._native is None:
            raise ValueError("a band of rows needs the native routines (fb_viper)")
        import uctypes

        self.bands = (self.height + rows - 1) // rows
        self.band_rows = rows
        self._addr = uctypes.addressof(self.buffer)
        self._stride = stride
        self._fill = self._band_fill
        self._hline = self._row = self._band_hline
        self._vline = self._band_vline
        self._rect = self._band_rect
        self.keep = self._band_keep
        self.send = None  # the device's: send(rects, top) sends a band's rectangles to the panel
        self.set_band(0)

    def set_band(self, k):
        """Hold band ``k`` of the picture (rows ``k * band_rows`` on); the clip is all of it."""
        top = k * self.band_rows
        self.top = top
        self.bottom = min(top + self.band_rows, self.height)
        self._target = self._addr - top * self._stride
        self.reset_clip()

    def _band_fill(self, x, y, w, h, c):
        self.fb.fill_rect(x, y - self.top, w, h, c)

    def _band_hline(self, x, y, w, c):
        self.fb.hline(x, y - self.top, w, c)

    def _band_vline(self, x, y, h, c):
        self.fb.vline(x, y - self.top, h, c)

    def _band_rect(self, x, y, w, h, c):
        self.fb.rect(x, y - self.top, w, h, c)

    def _band_keep(self, x, y, w, h):
        x0 = x & -2
        x1 = x + w + 1 & -2
        self.kept_w = 0
        if y >= self.top and y + h <= self.bottom and ((x1 - x0) >> 1) * h <= KEEP_BYTES:
            self.kept_x = x
            self.kept_y = y
            self.kept_w = w
            self.kept_h = h
            under = framebuf.FrameBuffer(self._under_buf, x1 - x0, h, framebuf.GS4_HMSB)
            under.blit(self.fb, -x0, self.top - y)
            self._under = under

    def put_back_sent(self):
        """Put the kept pixels back in the band they lie in and send them (a canvas in bands);
        keep nothing."""
        x0 = self.kept_x & -2
        x1 = self.kept_x + self.kept_w + 1 & -2
        y = self.kept_y
        self.set_band(y // self.band_rows)
        self.fb.blit(self._under, x0, y - self.top)
        self.send(((x0, y, x1 - x0, self.kept_h),), self.top)
        self.kept_w = 0

    # -- the clip, also the native routines' -------------------------------------------------------

    def set_clip(self, x, y, w, h):
        Canvas.set_clip(self, x, y, w, h)
        self._native_clip()

    def reset_clip(self):
        Canvas.reset_clip(self)
        self._native_clip()

    def _native_clip(self):
        if self._native is not None:
            p = self._np
            p[2] = self.clip_x0
            p[3] = self.clip_y0
            p[4] = self.clip_x1
            p[5] = self.clip_y1

    def _native_sheet(self, f):
        # the shape of sheet ``f`` into the native arguments, if another sheet's is there
        self._shape = f
        p = self._np
        p[7] = f.FIRST
        p[8] = f.COUNT
        p[9] = f.SPACING
        p[10] = f.HEIGHT
        p[11] = f.BPR
        p[17] = f.SCALE - 1

    def text(self, x, y, s, c, font=None):
        native = self._native
        if native is None:
            return Canvas.text(self, x, y, s, c, font)
        f = font or self.font
        if f is not self._shape:
            self._native_sheet(f)
        p = self._np
        p[1] = c
        start = 0
        while True:  # a line a call (a newline continues at x, a line lower)
            end = s.find("\n", start)
            line = s if not start and end < 0 else s[start:end if end >= 0 else len(s)]
            p[0] = len(line)
            pen = native.cells(p, self._target, line, f.WIDTHS, f.DATA, x, y)
            if self._track and pen > x:
                self._mark_clipped(x, y, pen - f.SPACING, y + f.HEIGHT)
            if end < 0:
                return pen
            start = end + 1
            y += f.LINE

    def text_width(self, s, font=None, n=None):
        native = self._native
        if native is None:
            return Canvas.text_width(self, s, font, n)
        f = font or self.font
        if f is not self._shape:
            self._native_sheet(f)
        p = self._np
        p[0] = len(s) if n is None else n
        return native.width(p, s, f.WIDTHS)

    def fit(self, s, w):
        native = self._native
        if native is None:
            return Canvas.fit(self, s, w)
        f = self.font
        if f is not self._shape:
            self._native_sheet(f)
        p = self._np
        p[0] = len(s)
        p[1] = w if w > 0 else 0  # (viper reads it unsigned)
        return native.fit(p, s, f.WIDTHS)

    def _span_rows(self, x, y, halves, k0, k1, c):
        if self._native is None or self._track:  # (the Python way marks what it draws)
            Canvas._span_rows(self, x, y, halves, k0, k1, c)
            return
        p = self._np
        p[0] = k1 - k0
        p[1] = c
        p[12] = y + k0
        p[13] = k0
        p[16] = 0
        self._native.rows(p, self._target, halves, x, 0)

    def _band_rows(self, x0, y0, dx, dy, half, ya, yb, thick, c):
        if self._native is None or self._track or thick <= 0:
            Canvas._band_rows(self, x0, y0, dx, dy, half, ya, yb, thick, c)
            return
        n = dx * (ya - y0) + half
        q = n // dy  # (not divmod: no tuple)
        p = self._np
        p[0] = yb - ya
        p[1] = c
        p[12] = ya
        p[14] = n - q * dy
        p[15] = dy
        p[16] = thick
        self._native.rows(p, self._target, self._code, x0 + q, dx)

    def sprite(self, x, y, index, c, sheet=None, inside=-1):
        native = self._native
        if native is None:
            Canvas.sprite(self, x, y, index, c, sheet, inside)
            return
        f = sheet or self.sheet
        if f is not self._shape:
            self._native_sheet(f)
        p = self._np
        code = self._code
        p[0] = 1
        p[1] = c
        code[0] = f.FIRST + index
        native.cells(p, self._target, code, f.WIDTHS, f.DATA, x, y)
        if inside >= 0:
            p[1] = inside
            code[0] += 1
            native.cells(p, self._target, code, f.WIDTHS, f.DATA, x, y)
        if self._track:
            self._mark_clipped(x, y, x + f.WIDTHS[index], y + f.HEIGHT)

    def _cell(self, f, g, x, y, c):
        if c != self._ink:  # the palette: bit 0 -> key (any index but c), bit 1 -> c
            self._ink = c
            self._key = c ^ 1
            self._palbuf[0] = (self._key << 4) | c
        if f is self.font:
            cells = self._font_cells
        elif f is self.sheet:
            cells = self._sprite_cells
        else:
            h = f.HEIGHT
            bpr = f.BPR * f.SCALE
            s = self._scratch.get((h << 8) | bpr)
            if s is None:
                s = self._new_scratch(h, bpr)
            buf, sfb, n = s
            if f.SCALE > 1:  # its rows worked out (cells of a byte a row: two bytes drawn)
                w = f.WIDTHS[g]
                for r in range(h):
                    v = doubled(f, g, r, w) << (16 - w)
                    buf[2 * r] = v >> 8
                    buf[2 * r + 1] = v & 0xFF
            else:
                data = f.DATA
                o = g * n
                for k in range(n):
                    buf[k] = data[o + k]
            self.fb.blit(sfb, x, y, self._key, self._pal)
            return
        self.fb.blit(cells[g], x, y, self._key, self._pal)

    @staticmethod
    def _cells(f):
        # A FrameBuffer per cell of ``f`` over one RAM copy of its sheet.
        data = memoryview(bytearray(f.DATA))
        n = f.HEIGHT * f.BPR
        return [framebuf.FrameBuffer(data[g * n:(g + 1) * n], 8 * f.BPR, f.HEIGHT, framebuf.MONO_HLSB)
                for g in range(f.COUNT)]

    def _new_scratch(self, h, n):
        # a cell of ``h`` rows of ``n`` bytes
        buf = bytearray(h * n)
        s = (buf, framebuf.FrameBuffer(buf, 8 * n, h, framebuf.MONO_HLSB), h * n)
        self._scratch[(h << 8) | n] = s
        return s

    def _keep_pixels(self, x, y, w, h):
        # into a FrameBuffer of the rectangle's shape over one small buffer made at boot (a
        # FrameBuffer object is the only allocation: a map has too many shapes to keep one each)
        under = framebuf.FrameBuffer(self._under_buf, w, h, framebuf.GS4_HMSB)
        under.blit(self.fb, -x, -y)
        self._under = under

    def _put_back_pixels(self, x, y, w, h):
        self.fb.blit(self._under, x, y)

    def get_pixel(self, x, y):
        return self.fb.pixel(x, y - self.top)

    def gs4(self):
        return bytes(self.buffer)
