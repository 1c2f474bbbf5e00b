"""The framebuf back end of the canvas (MicroPython, on the device).

The picture is a ``framebuf.FrameBuffer`` in ``GS4_HMSB``: 4-bit palette indices, two pixels per
byte, the left one in the high nibble, rows of ``(width + 1) // 2`` bytes (16,200 bytes at 240x135).
The display driver reads ``buffer`` and expands the dirty rectangles from ``take_dirty()`` through
``canvas.lut565()`` into RGB565, one line at a time.

Rectangles and lines use framebuf's native ``fill_rect``, ``hline``, ``vline`` and ``rect``. A 1-bit
cell (glyph or sprite) is a ``MONO_HLSB`` FrameBuffer drawn with one native
``blit(src, x, y, key, palette)``: the palette is a 2x1 GS4 FrameBuffer mapping bit 0 to ``key`` and
bit 1 to the colour, and ``key`` (compared after the palette lookup) makes bit 0 transparent. For
the small font and the sprites that FrameBuffer is one per cell, made at the cell's first use over
a RAM copy of the sheet (copying a cell per glyph drawn was most of a glyph's cost on the device);
other fonts (the large one, loaded on demand and forgotten: nothing may keep it) copy the cell into
a small per-shape scratch FrameBuffer. ``blit`` with a palette works on every 1.2x release; either
way a draw allocates nothing once a cell has been drawn.
"""

import framebuf

from catan.ui.canvas import Canvas


class FbCanvas(Canvas):
    """A canvas drawing into a GS4_HMSB FrameBuffer.

    Pass ``buf`` to draw into a buffer allocated earlier (allocate it first, right after boot,
    before the heap fragments); it needs ``(width + 1) // 2 * height`` bytes.
    """

    def __init__(self, width, height, buf=None):
        Canvas.__init__(self, width, height)
        if buf is None:
            buf = bytearray(((width + 1) >> 1) * height)
        self.buffer = buf
        self.fb = framebuf.FrameBuffer(buf, width, height, framebuf.GS4_HMSB)
        self._palbuf = bytearray(1)
        self._pal = framebuf.FrameBuffer(self._palbuf, 2, 1, framebuf.GS4_HMSB)
        # (cell height << 8 | bytes per row) -> (bytearray, FrameBuffer over it, its length);
        # keyed by shape, not by module, so a font module loaded again is not kept alive
        self._scratch = {}
        self._glyphs = {}  # id(font or sprite sheet) -> [memoryview of its DATA, cell FrameBuffers]

    def _fill(self, x, y, w, h, c):
        self.fb.fill_rect(x, y, w, h, c)

    def _hline(self, x, y, w, c):
        self.fb.hline(x, y, w, c)

    def _row_filler(self):
        return self.fb.hline

    def _vline(self, x, y, h, c):
        self.fb.vline(x, y, h, c)

    def _rect(self, x, y, w, h, c):
        self.fb.rect(x, y, w, h, c)

    def _cell(self, f, g, x, y, c):
        key = c ^ 1  # any index other than c
        self._palbuf[0] = (key << 4) | c  # pixel 0 (bit clear) -> key, pixel 1 (bit set) -> c
        if f is self.font or f is self.sheet:
            # The small font and the sprites (never forgotten) draw from a FrameBuffer per
            # cell, made at its first use over a copy of the sheet: no copy per cell drawn,
            # which costs most of a glyph's time on the device.
            cells = self._glyphs.get(id(f))
            if cells is None:
                cells = self._glyphs[id(f)] = [memoryview(bytearray(f.DATA))] + [None] * f.COUNT
            sfb = cells[g + 1]
            if sfb is None:
                n = f.HEIGHT * f.BPR
                sfb = cells[g + 1] = framebuf.FrameBuffer(cells[0][g * n:(g + 1) * n], 8 * f.BPR,
                                                          f.HEIGHT, framebuf.MONO_HLSB)
            self.fb.blit(sfb, x, y, key, self._pal)
            return
        s = self._scratch.get((f.HEIGHT << 8) | f.BPR)
        if s is None:
            s = self._new_scratch(f)
        buf, sfb, n = s
        data = f.DATA
        o = g * n
        for k in range(n):
            buf[k] = data[o + k]
        self.fb.blit(sfb, x, y, key, self._pal)

    def _new_scratch(self, f):
        n = f.HEIGHT * f.BPR
        buf = bytearray(n)
        s = (buf, framebuf.FrameBuffer(buf, 8 * f.BPR, f.HEIGHT, framebuf.MONO_HLSB), n)
        self._scratch[(f.HEIGHT << 8) | f.BPR] = s
        return s

    def get_pixel(self, x, y):
        return self.fb.pixel(x, y)

    def gs4(self):
        return bytes(self.buffer)
