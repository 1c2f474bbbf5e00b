"""firmware/st7789.py under real MicroPython with fake hardware: the decoded SPI stream equals the
FbCanvas render, and timings are printed. (The Thumb pixel writer, st7789_asm, needs the rp2
port's inline assembler and SPI registers: host_tests/test_emu_pico.py checks it on the device.)

Run by host_tests/test_micropython.py (firmware/ is on the path after build/mpy); prints ALL-OK last.
"""

import time

import canvas_scene
import fake_hw
import st7789
from catan.ui.canvas import lut565
from catan.ui.fb_canvas import FbCanvas

W = 240
H = 135
XO = 40
YO = 53

print("native pixel writer:", st7789.send is not None)
lut = lut565()
buf = bytearray(((W + 1) >> 1) * H)
c = FbCanvas(W, H, buf)
canvas_scene.draw(c)
dc = fake_hw.Pin(16)
cs = fake_hw.Pin(17)
panel = fake_hw.Panel(W, H, XO, YO)
spi = fake_hw.SPI(0, dc=dc, cs=cs, sink=panel)
d = st7789.ST7789(spi, dc, cs, W, H, xoff=XO, yoff=YO, bl=fake_hw.PWM(fake_hw.Pin(20)), buf=buf,
                  lut=lut)
d.show(c.take_dirty())
assert panel.outside == 0
assert fake_hw.mismatches(panel, buf, W, H, lut, XO, YO) == []

c.fill_rect(100, 60, 16, 16, 5)
rects = c.take_dirty()
n0 = spi.nbytes()
d.show(rects)
print("bytes for a 16x16 dirty region:", spi.nbytes() - n0, rects)
assert spi.nbytes() - n0 == 2 * 16 * 16 + 11
assert fake_hw.mismatches(panel, buf, W, H, lut, XO, YO) == []


def bench(reps):
    p = d._p
    t = time.ticks_us()
    for _ in range(reps):
        p[0] = 0
        p[1] = W // 2
        p[3] = W // 2
        p[4] = 0
        for _ in range(H):
            p[2] = 1
            st7789.expand_py(a, buf, lut, p)
            p[0] += W // 2
    return time.ticks_diff(time.ticks_us(), t) // reps


a = bytearray(2 * W)
print("full-frame expansion (135 lines of 240): %d us" % bench(5))
print("ALL-OK")
