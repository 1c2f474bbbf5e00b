"""Animated palette GIFs for host tools, with the standard library only (no Pillow).

- ``encode(width, height, frames, palette, scale=1, loop=0)``: GIF89a bytes from ``frames``, a
  list of ``(indices, delay_ms)`` with one palette index per pixel (row-major, ``width * height``
  bytes) and a palette of up to 256 RGB888 ints (the canvas's 16 colours). Each frame after the
  first stores only the rectangle that changed since the previous one (drawn over it: disposal
  "do not dispose"), so a game where a few dice change per frame stays small.
- ``decode(data)``: ``(width, height, frames, palette)`` back, every frame composited to a whole
  picture, ``frames`` a list of ``(indices, delay_ms)``. It reads what ``encode`` writes (global
  palette, no interlace, no transparency), enough for tests to check a round trip.

GIF keeps delays in hundredths of a second: a delay is rounded to 10 ms, and at least 20 ms
(browsers show shorter delays as 100 ms).
"""

import struct

_MIN_DELAY_CS = 2


def _table_bits(n):
    bits = 1
    while (1 << bits) < n:
        bits += 1
    return bits


def _scaled(indices, width, height, scale):
    if scale == 1:
        return bytes(indices)
    cells = [bytes((i,)) * scale for i in range(256)]
    out = []
    for y in range(height):
        row = b"".join(cells[p] for p in indices[y * width:(y + 1) * width])
        out.extend([row] * scale)
    return b"".join(out)


def _changed_box(prev, cur, width, height):
    """``(x0, y0, x1, y1)`` (exclusive) around the pixels that differ, or None."""
    rows = [y for y in range(height) if prev[y * width:(y + 1) * width] != cur[y * width:(y + 1) * width]]
    if not rows:
        return None
    x0 = width
    x1 = 0
    for y in rows:
        a = prev[y * width:(y + 1) * width]
        b = cur[y * width:(y + 1) * width]
        lo = 0
        while a[lo] == b[lo]:
            lo += 1
        hi = width
        while a[hi - 1] == b[hi - 1]:
            hi -= 1
        x0 = min(x0, lo)
        x1 = max(x1, hi)
    return x0, rows[0], x1, rows[-1] + 1


def lzw(pixels, min_size):
    """The LZW code stream of ``pixels`` (bytes of indices below ``2 ** min_size``), packed
    least significant bit first, as GIF image data expects (before the sub-block split)."""
    clear = 1 << min_size
    eoi = clear + 1
    out = bytearray()
    acc = 0  # bit accumulator
    nacc = 0
    size = min_size + 1
    table = {}
    next_code = eoi + 1

    def emit(code, size):
        nonlocal acc, nacc
        acc |= code << nacc
        nacc += size
        while nacc >= 8:
            out.append(acc & 255)
            acc >>= 8
            nacc -= 8

    emit(clear, size)
    if not pixels:
        emit(eoi, size)
        if nacc:
            out.append(acc & 255)
        return bytes(out)
    w = pixels[0]
    for k in pixels[1:]:
        key = (w << 8) | k
        code = table.get(key)
        if code is not None:
            w = code
            continue
        emit(w, size)
        if next_code < 4096:
            table[key] = next_code
            next_code += 1
            # The decoder adds its entries one code later than the encoder: it widens its
            # codes once its own next entry reaches 2 ** size, which is one entry after ours.
            if next_code > (1 << size) and size < 12:
                size += 1
        else:  # the table is full: start over
            emit(clear, size)
            table = {}
            next_code = eoi + 1
            size = min_size + 1
        w = k
    emit(w, size)
    emit(eoi, size)
    if nacc:
        out.append(acc & 255)
    return bytes(out)


def _sub_blocks(data):
    out = bytearray()
    for i in range(0, len(data), 255):
        part = data[i:i + 255]
        out.append(len(part))
        out += part
    out.append(0)
    return bytes(out)


def encode(width, height, frames, palette, scale=1, loop=0):
    """An animated GIF of ``frames`` (a list of ``(indices, delay_ms)``), each pixel ``scale`` x
    ``scale``; ``loop`` is the number of repetitions (0: for ever)."""
    if not frames:
        raise ValueError("a GIF needs at least one frame")
    if not 0 < len(palette) <= 256:
        raise ValueError("a palette has 1 to 256 colours")
    bits = _table_bits(len(palette))
    min_size = max(2, bits)
    colours = list(palette) + [0] * ((1 << bits) - len(palette))
    W = width * scale
    H = height * scale
    out = bytearray(b"GIF89a")
    out += struct.pack("<HHBBB", W, H, 0x80 | 0x70 | (bits - 1), 0, 0)
    for c in colours:
        out += bytes(((c >> 16) & 255, (c >> 8) & 255, c & 255))
    if len(frames) > 1:  # NETSCAPE2.0: repeat
        out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", loop) + b"\x00"
    prev = None
    pending_cs = 0  # delay of frames that did not change anything, added to the previous one
    chunks = []
    for indices, delay_ms in frames:
        if len(indices) != width * height:
            raise ValueError("expected %d indices, got %d" % (width * height, len(indices)))
        if max(indices) >= len(palette):
            raise ValueError("an index is outside the palette")
        cur = _scaled(indices, width, height, scale)
        cs = max(_MIN_DELAY_CS, (int(delay_ms) + 5) // 10)
        if prev is None:
            box = (0, 0, W, H)
        else:
            box = _changed_box(prev, cur, W, H)
            if box is None:
                pending_cs += cs
                continue
        if chunks:
            chunks[-1][0] += pending_cs
        pending_cs = 0
        chunks.append([cs, box, cur])
        prev = cur
    if chunks:
        chunks[-1][0] += pending_cs
    for cs, (x0, y0, x1, y1), cur in chunks:
        # graphic control: disposal 1 (leave the frame in place), no transparency
        out += b"\x21\xf9\x04\x04" + struct.pack("<H", cs) + b"\x00\x00"
        out += b"\x2c" + struct.pack("<HHHHB", x0, y0, x1 - x0, y1 - y0, 0)
        if (x0, x1) == (0, W):
            pixels = cur[y0 * W:y1 * W]
        else:
            pixels = b"".join(cur[y * W + x0:y * W + x1] for y in range(y0, y1))
        out.append(min_size)
        out += _sub_blocks(lzw(pixels, min_size))
    out += b"\x3b"
    return bytes(out)


def unlzw(data, min_size, count):
    """``count`` pixels from a GIF LZW code stream (the inverse of ``lzw``)."""
    clear = 1 << min_size
    eoi = clear + 1
    out = bytearray()
    pos = 0  # bit position
    nbits = len(data) * 8
    size = min_size + 1
    table = [bytes((i,)) for i in range(clear)] + [b"", b""]
    prev = None
    while pos + size <= nbits:
        code = 0
        for i in range(size):  # LSB first
            p = pos + i
            if data[p >> 3] >> (p & 7) & 1:
                code |= 1 << i
        pos += size
        if code == clear:
            size = min_size + 1
            table = table[:eoi + 1]
            prev = None
            continue
        if code == eoi:
            break
        if code < len(table):
            entry = table[code]
            if prev is not None and len(table) < 4096:
                table.append(prev + entry[:1])
        elif code == len(table) and prev is not None:
            entry = prev + prev[:1]
            table.append(entry)
        else:
            raise ValueError("bad LZW code %d" % code)
        out += entry
        prev = entry
        if len(table) >= (1 << size) and size < 12:
            size += 1
    if len(out) < count:
        raise ValueError("image data ends early (%d of %d pixels)" % (len(out), count))
    return bytes(out[:count])


def _read_sub_blocks(data, pos):
    """The bytes of the data sub-blocks starting at ``pos`` (each a length byte, then that
    many bytes; a zero length ends them) and the position after the terminator."""
    body = bytearray()
    while data[pos]:
        body += data[pos + 1:pos + 1 + data[pos]]
        pos += 1 + data[pos]
    return body, pos + 1


def decode(data):
    """``(width, height, frames, palette)`` of a GIF as ``encode`` writes it."""
    if data[:6] not in (b"GIF89a", b"GIF87a"):
        raise ValueError("not a GIF")
    W, H, flags, _, _ = struct.unpack("<HHBBB", data[6:13])
    pos = 13
    palette = []
    if flags & 0x80:
        n = 2 << (flags & 7)
        palette = [(data[pos + 3 * i] << 16) | (data[pos + 3 * i + 1] << 8) | data[pos + 3 * i + 2]
                   for i in range(n)]
        pos += 3 * n
    canvas = bytearray(W * H)
    frames = []
    delay = 0
    while pos < len(data):
        kind = data[pos]
        if kind == 0x3B:
            break
        if kind == 0x21:  # extension: label, then sub-blocks
            label = data[pos + 1]
            body, pos = _read_sub_blocks(data, pos + 2)
            if label == 0xF9:
                delay = struct.unpack("<H", body[1:3])[0] * 10
            continue
        if kind != 0x2C:
            raise ValueError("unexpected block 0x%02x" % kind)
        x0, y0, w, h, iflags = struct.unpack("<HHHHB", data[pos + 1:pos + 10])
        pos += 10
        if iflags & 0xC0:
            raise ValueError("local palettes and interlace are not read")
        min_size = data[pos]
        body, pos = _read_sub_blocks(data, pos + 1)
        pixels = unlzw(body, min_size, w * h)
        for y in range(h):
            o = (y0 + y) * W + x0
            canvas[o:o + w] = pixels[y * w:(y + 1) * w]
        frames.append((bytes(canvas), delay))
    return W, H, frames, palette


def write(path, data):
    """Write GIF bytes to ``path``, creating its directory (as ``png.write``)."""
    from png import write as write_file

    write_file(path, data)
