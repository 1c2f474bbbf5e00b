"""The viper line expander for st7789.py, in its own module so that a port without the native
emitter (the wasm port, CPython) fails at import here and st7789.py falls back to Python."""

import micropython


@micropython.viper
def expand(src: ptr8, so: int, x: int, n: int, dst: ptr8, lut: ptr8):  # noqa: F821
    # GS4_HMSB row starting at byte `so`: pixels x .. x+n-1 -> big-endian RGB565 in dst[0 .. 2n).
    d = 0
    i = x
    end = x + n
    while i < end:
        b = src[so + (i >> 1)]
        if i & 1:
            v = (b & 15) << 1
        else:
            v = (b >> 3) & 30
        dst[d] = lut[v]
        dst[d + 1] = lut[v + 1]
        d += 2
        i += 1
