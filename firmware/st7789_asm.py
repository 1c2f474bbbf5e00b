"""The pixel writer of st7789.py in Thumb assembly (RP2040's Cortex-M0+; the RP2350's Arm cores
run it too), in its own module so that a port without the inline assembler (the unix and wasm
ports, CPython) fails at import here and st7789.py falls back to Python.

It expands GS4_HMSB pixels through the LUT straight into the SPI block's transmit FIFO, as fast
as the wire takes them: no line buffer, and one call per rectangle. Measured on the emulated
RP2040, Python's ``spi.write`` costs about 28 us a call whatever its length and expanding a
320-pixel line a pixel at a time in viper 300 us; this sends a 320x240 frame in 21.1 ms and a
240x135 one in 9.4 ms, close behind the wire at 62.5 MHz (19.7 and 8.3 ms).
"""

import micropython


# r0: the SPI block's registers (PL022: DR at 8, SR at 12, ICR at 0x20), r1: the GS4_HMSB
# buffer, r2: the LUT (16 big-endian RGB565 pairs of bytes), r3: an array("i") [first byte,
# bytes per row, rows, stride, odd]. Per row, each source byte's two pixels (high nibble
# first), then with ``odd`` the high nibble of one more byte, each pixel two bytes. ``rows``
# (at least 1) is counted down to 0. Then, as the SDK's spi_write_blocking: wait for the last
# bit, empty the receive FIFO, clear its overrun flag. (84 lines of assembler: one routine, its
# labels local to it.)
@micropython.asm_thumb
def send(r0, r1, r2, r3):
    ldr(r4, [r3, 0])
    add(r1, r1, r4)
    label(ROW)
    mov(r5, r1)
    ldr(r4, [r3, 4])
    cmp(r4, 0)
    beq(ODD)
    label(PAIR)
    ldrb(r6, [r5, 0])
    lsr(r6, r6, 4)
    lsl(r6, r6, 1)
    add(r6, r6, r2)
    label(W1)
    ldr(r7, [r0, 12])
    lsr(r7, r7, 2)  # TNF (transmit FIFO not full) into the carry
    bcc(W1)
    ldrb(r7, [r6, 0])
    str(r7, [r0, 8])
    label(W2)
    ldr(r7, [r0, 12])
    lsr(r7, r7, 2)
    bcc(W2)
    ldrb(r7, [r6, 1])
    str(r7, [r0, 8])
    ldrb(r6, [r5, 0])
    lsl(r6, r6, 28)
    lsr(r6, r6, 27)
    add(r6, r6, r2)
    label(W3)
    ldr(r7, [r0, 12])
    lsr(r7, r7, 2)
    bcc(W3)
    ldrb(r7, [r6, 0])
    str(r7, [r0, 8])
    label(W4)
    ldr(r7, [r0, 12])
    lsr(r7, r7, 2)
    bcc(W4)
    ldrb(r7, [r6, 1])
    str(r7, [r0, 8])
    add(r5, 1)
    sub(r4, 1)
    bne(PAIR)
    label(ODD)
    ldr(r4, [r3, 16])
    cmp(r4, 0)
    beq(NEXT)
    ldrb(r6, [r5, 0])
    lsr(r6, r6, 4)
    lsl(r6, r6, 1)
    add(r6, r6, r2)
    label(W5)
    ldr(r7, [r0, 12])
    lsr(r7, r7, 2)
    bcc(W5)
    ldrb(r7, [r6, 0])
    str(r7, [r0, 8])
    label(W6)
    ldr(r7, [r0, 12])
    lsr(r7, r7, 2)
    bcc(W6)
    ldrb(r7, [r6, 1])
    str(r7, [r0, 8])
    label(NEXT)
    ldr(r4, [r3, 12])
    add(r1, r1, r4)
    ldr(r4, [r3, 8])
    sub(r4, 1)
    str(r4, [r3, 8])
    bne(ROW)
    label(BUSY)
    ldr(r7, [r0, 12])
    lsr(r7, r7, 5)  # BSY into the carry
    bcs(BUSY)
    label(DRAIN)
    ldr(r7, [r0, 12])
    lsr(r7, r7, 3)  # RNE (receive FIFO not empty) into the carry
    bcc(DONE)
    ldr(r7, [r0, 8])
    b(DRAIN)
    label(DONE)
    mov(r7, 1)
    str(r7, [r0, 32])  # ICR: RORIC
