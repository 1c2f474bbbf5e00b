"""firmware/st7789.py under real MicroPython with fake hardware: the decoded SPI stream equals the
FbCanvas render, the viper expander (unix port) equals the Python one, and timings are printed.

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

print("viper:", st7789.VIPER)
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

# viper and Python expanders agree, on every start parity and length
a = bytearray(2 * W)
b = bytearray(2 * W)
for so, x, n in ((0, 0, W), (120, 1, W - 1), (240, 7, 33), (360, 3, 1), (480, 238, 2)):
    st7789.expand(buf, so, x, n, a, lut)
    st7789.expand_py(buf, so, x, n, b, lut)
    assert a[: 2 * n] == b[: 2 * n]


def bench(f, reps=50):
    t = time.ticks_us()
    for _ in range(reps):
        for y in range(H):
            f(buf, y * 120, 0, W, a, lut)
    return time.ticks_diff(time.ticks_us(), t) // reps


tp = bench(st7789.expand_py, 5)
print("full-frame expansion (135 lines of 240) python: %d us" % tp)
if st7789.VIPER:
    tv = bench(st7789.expand_viper)
    print("full-frame expansion viper: %d us (x%d)" % (tv, tp // max(tv, 1)))
print("ALL-OK")
