"""The framebuf canvas's text and sprite drawer in viper (lib/catan/ui/fb_canvas.py, given it by
firmware/app_main.py), in its own module so that a port without the native emitter fails at
import here and the canvas keeps its Python way.

Measured on the emulated RP2040: a glyph of the small font cost about 250 us in Python and
framebuf (a ``blit`` with a palette: 120 us, a call per pixel), about 25 us here, where a
whole line is one call; a hex of 60 rows 2 ms of ``hline`` calls and Python, 0.35 ms here.
"""

import micropython


# p: an array("i") [``n``, colour, clip x0, y0, x1, y1 (exclusive), the buffer's bytes per
# row, the sheet's FIRST, COUNT, SPACING, HEIGHT, BPR, ..., p[17]: 1 if the sheet's SCALE is 2,
# else 0] (no negative numbers: viper reads them unsigned); buf: the GS4_HMSB buffer; s: the
# codes (``n`` characters of a str without newlines, or bytes); widths, data: the sheet's WIDTHS
# and DATA (see catan/ui/canvas.py); x, y: where the first cell goes. Draws the set bits of each
# cell inside the clip in the colour, a code the sheet lacks as "?", as Canvas.text does; a
# sheet of SCALE 2 (the large font) from cells of HEIGHT / 2 rows of a byte, each row's bits
# worked out as canvas.doubled does; returns the pen x after the last cell (its width and the
# spacing added per cell). (90 lines: a line of text is one call, its loops inlined; a viper
# function called per cell or row costs what it saves.)
@micropython.viper
def cells(p: ptr32, buf: ptr8, s: ptr8, widths: ptr8, data: ptr8, x: int, y: int) -> int:  # noqa: F821
    n = p[0]
    pen = x
    c = p[1]
    cx0 = p[2]
    cx1 = p[4]
    stride = p[6]
    first = p[7]
    count = p[8]
    h = p[10]
    bpr = p[11]
    twice = p[17]
    n2 = h >> 1  # (a doubled cell's rows in data)
    r0 = p[3] - y
    if r0 < 0:
        r0 = 0
    r1 = p[5] - y
    if r1 > h:
        r1 = h
    hi = c << 4
    i = 0
    k = 0
    while k < n:
        code = s[i]
        i += 1
        k += 1
        if code >= 0x80:  # a character of several UTF-8 bytes: not in any sheet
            while (s[i] & 0xC0) == 0x80:
                i += 1
            code = 63
        g = code - first
        if g < 0 or g >= count:
            g = 63 - first  # "?"
        w = widths[g]
        a = cx0 - pen
        if a < 0:
            a = 0
        b = cx1 - pen
        if b > w:
            b = w
        if a < b:
            row = r0
            o = (g * h + row) * bpr
            top = 8 * bpr - 1  # the bit of the cell's column 0 in a row's bits
            if twice:
                o = g * n2
                top = w - 1
            q0 = (y + row) * stride
            while row < r1:
                if twice:  # the row's bits worked out (canvas.doubled)
                    sy = o + (row >> 1)  # the cell's row in data
                    cur = data[sy]
                    near = 0
                    far = 0
                    if sy > o:
                        near = data[sy - 1]
                    if sy + 1 < o + n2:
                        far = data[sy + 1]
                    if row & 1:
                        j = near
                        near = far
                        far = j
                    left = cur >> 1
                    right = (cur << 1) & 0xFF
                    even = cur | (near & left & (right ^ 0xFF) & (far ^ 0xFF))
                    odd = cur | (near & right & (left ^ 0xFF) & (far ^ 0xFF))
                    v = 0
                    j = 7
                    while j > 7 - (w >> 1):
                        v = (v << 2) | (((even >> j) & 1) << 1) | ((odd >> j) & 1)
                        j -= 1
                else:
                    v = data[o]  # the row's bits, column 0 the highest
                    j = 1
                    while j < bpr:
                        v = (v << 8) | data[o + j]
                        j += 1
                    o += bpr
                if v:
                    m = 1 << (top - a)
                    xx = pen + a
                    end = pen + b
                    while xx < end:
                        if v & m:
                            q = q0 + (xx >> 1)
                            if xx & 1:
                                buf[q] = (buf[q] & 0xF0) | c
                            else:
                                buf[q] = (buf[q] & 0x0F) | hi
                        m >>= 1
                        xx += 1
                q0 += stride
                row += 1
        pen += w + p[9]
    return pen


# The width in pixels of the ``p[0]`` characters of ``s`` in the sheet whose FIRST, COUNT and
# SPACING are p[7..9] (Canvas.text_width: the widest line; a code the sheet lacks counts as "?").
@micropython.viper
def width(p: ptr32, s: ptr8, widths: ptr8) -> int:  # noqa: F821
    n = p[0]
    first = p[7]
    count = p[8]
    sp = p[9]
    best = 0
    pen = 0
    i = 0
    k = 0
    while k < n:
        code = s[i]
        i += 1
        k += 1
        if code == 10:
            if pen - sp > best:
                best = pen - sp
            pen = 0
            continue
        if code >= 0x80:
            while (s[i] & 0xC0) == 0x80:
                i += 1
            code = 63
        g = code - first
        if g < 0 or g >= count:
            g = 63 - first
        pen += widths[g] + sp
    if pen - sp > best:
        best = pen - sp
    return best


# How many of the ``p[0]`` characters of ``s`` (one line) fit in ``p[1]`` pixels of the sheet
# whose FIRST, COUNT and SPACING are p[7..9] (Canvas.fit).
@micropython.viper
def fit(p: ptr32, s: ptr8, widths: ptr8) -> int:  # noqa: F821
    n = p[0]
    limit = p[1]
    first = p[7]
    count = p[8]
    sp = p[9]
    pen = 0
    i = 0
    k = 0
    while k < n:
        code = s[i]
        i += 1
        if code >= 0x80:
            while (s[i] & 0xC0) == 0x80:
                i += 1
            code = 63
        g = code - first
        if g < 0 or g >= count:
            g = 63 - first
        w = widths[g]
        if pen + w > limit:
            return k
        pen += w + sp
        k += 1
    return n


# Horizontal runs of colour p[1] on consecutive rows, clipped to columns p[2]..p[4]: p[0] rows
# from row p[12] (inside the clip), p[6] the buffer's bytes per row. With p[16] = 0, a shape
# symmetric about column x (Canvas.spans): row k runs x - h .. x + h for h = halves[p[13] + k].
# Else a thick line (Canvas.band): p[16] pixels from x on the first row; the left end then
# moves by floor((dx * k + p[14]) / p[15]) after k rows (p[14] the remainder of the first row,
# 0 <= p[14] < p[15]).
@micropython.viper
def rows(p: ptr32, buf: ptr8, halves: ptr8, x: int, dx: int):  # noqa: F821
    n = p[0]
    c = p[1]
    cx0 = p[2]
    cx1 = p[4]
    stride = p[6]
    q = p[12] * stride
    k = p[13]
    r = p[14]
    dy = p[15]
    thick = p[16]
    hi = c << 4
    cc = c | hi
    a = x
    b = x
    while n > 0:
        if thick:
            b = a + thick
        else:
            h = halves[k]
            k += 1
            a = x - h
            b = x + h + 1
        left = a if a > cx0 else cx0
        end = b if b < cx1 else cx1
        if left < end:
            if left & 1:  # a lone pixel in a byte's low nibble
                o = q + (left >> 1)
                buf[o] = (buf[o] & 0xF0) | c
                left += 1
            if left < end and end & 1:  # and in a byte's high nibble
                o = q + ((end - 1) >> 1)
                buf[o] = (buf[o] & 0x0F) | hi
                end -= 1
            o = q + (left >> 1)
            stop = q + (end >> 1)
            while o < stop:
                buf[o] = cc
                o += 1
        if thick:
            r += dx
            while r >= dy:
                r -= dy
                a += 1
            while r < 0:
                r += dy
                a -= 1
        q += stride
        n -= 1
