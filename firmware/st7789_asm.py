"""The line expander of st7789.py in Thumb assembly (RP2040's Cortex-M0+; the RP2350's Arm
cores run it too), in its own module so that a port without the inline assembler (the unix
and wasm ports, CPython) fails at import here and st7789.py falls back to Python.

Measured on the emulated RP2040: about 30 us for a 320-pixel line, against 300 us for the
viper loop it replaces (a pixel at a time, its locals spilled to the stack) and 40 us of
Python to make one call: so one call expands every row that one SPI write sends."""

import micropython


# r0: dst, r1: src (GS4_HMSB), r2: lut (16 big-endian RGB565 halfwords), r3: an array("i")
# [first byte, bytes per row, rows, stride, odd]: per row, each source byte's two pixels
# (high nibble first) go out as two halfwords, then with ``odd`` the high nibble of one more
# byte. ``rows`` is counted down to 0. Bytes per row and rows must be at least 1 (or bytes per
# row 0 with ``odd``).
@micropython.asm_thumb
def expand(r0, r1, r2, r3):
    ldr(r4, [r3, 0])
    add(r1, r1, r4)
    label(ROW)
    mov(r5, r1)
    ldr(r4, [r3, 4])
    cmp(r4, 0)
    beq(ODD)
    label(PAIR)
    ldrb(r6, [r5, 0])
    lsr(r7, r6, 4)
    lsl(r7, r7, 1)
    add(r7, r7, r2)
    ldrh(r7, [r7, 0])
    strh(r7, [r0, 0])
    lsl(r6, r6, 28)
    lsr(r6, r6, 27)
    add(r6, r6, r2)
    ldrh(r6, [r6, 0])
    strh(r6, [r0, 2])
    add(r0, 4)
    add(r5, 1)
    sub(r4, 1)
    bne(PAIR)
    label(ODD)
    ldr(r4, [r3, 16])
    cmp(r4, 0)
    beq(NEXT)
    ldrb(r6, [r5, 0])
    lsr(r7, r6, 4)
    lsl(r7, r7, 1)
    add(r7, r7, r2)
    ldrh(r7, [r7, 0])
    strh(r7, [r0, 0])
    add(r0, 2)
    label(NEXT)
    ldr(r4, [r3, 12])
    add(r1, r1, r4)
    ldr(r4, [r3, 8])
    sub(r4, 1)
    str(r4, [r3, 8])
    bne(ROW)
