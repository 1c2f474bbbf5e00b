"""Palette PNGs for host tools, with the standard library only (zlib + struct).

- ``encode(width, height, indices, palette, scale=1)``: PNG bytes from one palette index per pixel
  (row-major) and a palette of RGB888 ints, scaled up by pixel repetition.
- ``gs4_indices(buf, width, height)``: a GS4_HMSB framebuffer (the framebuf back end's buffer)
  as one index per pixel.
- ``bitmap_indices(bitmap)`` / ``palette_colors(palette)``: the same from a displayio Bitmap and
  Palette.
- ``decode(data)``: ``(width, height, indices, palette)`` back from a PNG written by ``encode``.

Command line, for a raw GS4 dump written under MicroPython (palette: ``catan.ui.canvas.PALETTE``)::

    python3 tools/png.py frame.gs4 240 135 frame.png [--scale 3]
"""

import os
import struct
import sys
import zlib

_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode(width, height, indices, palette, scale=1):
    """A PNG (8-bit palette) of ``indices`` (``width * height`` bytes), each pixel ``scale`` x ``scale``."""
    if len(indices) != width * height:
        raise ValueError("expected %d indices, got %d" % (width * height, len(indices)))
    if not 0 < len(palette) <= 256:
        raise ValueError("a palette has 1 to 256 colours")
    indices = bytes(indices)
    cells = [bytes((i,)) * scale for i in range(256)]
    rows = []
    for y in range(height):
        row = indices[y * width:(y + 1) * width]
        line = b"\x00" + (b"".join(cells[p] for p in row) if scale > 1 else row)
        rows.extend([line] * scale)
    plte = b"".join(struct.pack(">BBB", (c >> 16) & 255, (c >> 8) & 255, c & 255) for c in palette)
    header = struct.pack(">IIBBBBB", width * scale, height * scale, 8, 3, 0, 0, 0)
    return (_SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"PLTE", plte)
            + _chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + _chunk(b"IEND", b""))


def decode(data):
    """``(width, height, indices, palette)`` of a PNG as ``encode`` writes it (8-bit palette)."""
    if data[:8] != _SIGNATURE:
        raise ValueError("not a PNG")
    pos = 8
    idat = []
    palette = []
    width = height = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if (depth, ctype, interlace) != (8, 3, 0):
                raise ValueError("only 8-bit palette PNGs without interlace are read")
        elif kind == b"PLTE":
            palette = [(body[i] << 16) | (body[i + 1] << 8) | body[i + 2] for i in range(0, len(body), 3)]
        elif kind == b"IDAT":
            idat.append(body)
    raw = zlib.decompress(b"".join(idat))
    out = bytearray()
    for y in range(height):
        line = raw[y * (width + 1):(y + 1) * (width + 1)]
        if line[0] != 0:
            raise ValueError("only filter type 0 is read")
        out += line[1:]
    return width, height, bytes(out), palette


def gs4_indices(buf, width, height):
    """One index per pixel from a GS4_HMSB buffer (rows of ``(width + 1) // 2`` bytes)."""
    stride = (width + 1) // 2
    out = bytearray(width * height)
    for y in range(height):
        row = buf[y * stride:(y + 1) * stride]
        o = y * width
        for x in range(width):
            b = row[x >> 1]
            out[o + x] = (b & 15) if (x & 1) else (b >> 4)
    return bytes(out)


def bitmap_indices(bitmap):
    """``(width, height, indices)`` of a displayio Bitmap."""
    w, h = bitmap.width, bitmap.height
    return w, h, bytes(bitmap[x, y] for y in range(h) for x in range(w))


def palette_colors(palette):
    """The RGB888 colours of a displayio Palette."""
    return [palette[i] for i in range(len(palette))]


def write(path, data):
    """Write PNG bytes to ``path``, creating its directory."""
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    scale = 1
    if "--scale" in argv:
        scale = int(argv[argv.index("--scale") + 1])
        args.remove(str(scale))
    if len(args) != 4:
        print(__doc__)
        return 2
    src, width, height, dst = args[0], int(args[1]), int(args[2]), args[3]
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
    from catan.ui.canvas import PALETTE

    with open(src, "rb") as f:
        buf = f.read()
    write(dst, encode(width, height, gs4_indices(buf, width, height), PALETTE, scale))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
