"""The displayio back end of the canvas (Blinka displayio on CPython for the simulator; CircuitPython).

The picture is a ``displayio.Bitmap(width, height, 16)`` shown through a ``displayio.Palette(16)``
holding ``canvas.PALETTE``, in a ``TileGrid`` (``tilegrid``) that the simulator puts in its root group.
displayio tracks what changed in the bitmap by itself; the canvas's own dirty list is kept anyway,
so screens behave the same on both back ends.

Rectangles use ``bitmaptools.fill_region`` (native on CircuitPython, a Python loop in Blinka: about
17 ms for a full 240x135 fill on a desktop; a whole-screen fill uses ``Bitmap.fill``, which is
faster). 1-bit cells are written pixel by pixel through the integer index ``bitmap[y * width + x]``
(no tuple per pixel).
"""

import displayio

from catan.ui.canvas import PALETTE, Canvas

try:
    from bitmaptools import fill_region
except ImportError:  # a displayio without bitmaptools
    fill_region = None


class DioCanvas(Canvas):
    """A canvas drawing palette indices into a displayio Bitmap."""

    def __init__(self, width, height):
        Canvas.__init__(self, width, height)
        self.bitmap = displayio.Bitmap(width, height, 16)
        self.palette = displayio.Palette(16)
        for i in range(16):
            self.palette[i] = PALETTE[i]
        self.tilegrid = displayio.TileGrid(self.bitmap, pixel_shader=self.palette)

    def _fill(self, x, y, w, h, c):
        bmp = self.bitmap
        if w == self.width and h == self.height:
            bmp.fill(c)
        elif fill_region is not None and w * h > 4:
            fill_region(bmp, x, y, x + w, y + h, c)
        else:
            stride = self.width
            for yy in range(y, y + h):
                i = yy * stride + x
                for k in range(i, i + w):
                    bmp[k] = c

    def _cell(self, f, g, x, y, c):
        if f.SCALE > 1:  # (the large font: its rows are worked out, as the reference way does)
            Canvas._cell(self, f, g, x, y, c)
            return
        bmp = self.bitmap
        stride = self.width
        data = f.DATA
        bpr = f.BPR
        o = g * f.HEIGHT * bpr
        row = y * stride + x
        for _ in range(f.HEIGHT):
            for b in range(bpr):
                bits = data[o + b]
                if bits:
                    i = row + (b << 3)
                    for k in range(8):
                        if bits & (0x80 >> k):
                            bmp[i + k] = c
            o += bpr
            row += stride

    def get_pixel(self, x, y):
        return self.bitmap[x, y]
