"""app_main.plug_holes under real MicroPython: after a collection the heap's holes are filled
with one-block garbage, so that the allocator's search starts above them (see its docstring).
The wasm port collects only when control returns to JavaScript, not at ``gc.collect()`` in a
running script (README, "Benchmarks and heap figures"): there only the bounds are checked.
Prints ALL-OK last."""

import gc
import sys

import app_main

STEP = 16 if sys.maxsize >> 32 == 0 else 32  # a block

# the holes the imports left are held, so that the scene below starts above them
gc.collect()
floor = [None] * 4096
last = adjacent = n = 0
while adjacent < 16:
    floor[n] = o = object()
    adjacent = adjacent + 1 if id(o) == last + STEP else 0
    last = id(o)
    n += 1
objs = [None] * 800
for i in range(800):
    objs[i] = object()
for i in range(1, 800, 2):  # one block kept, one let go, in turn: 400 holes once collected
    objs[i] = None
gc.collect()
if sys.platform == "webassembly":
    assert 0 < app_main.plug_holes() <= app_main.PLUG_MAX
    print("ALL-OK")
    raise SystemExit
top = max(id(o) for o in objs if o is not None)
assert id(object()) < top, "no hole to fill: the scene is not what the test needs"
n = app_main.plug_holes()
# the scene's holes (but the one just taken) at least, then the first run of free blocks above
# them (how far above depends on what the interpreter left there: CI's path made it 95 blocks)
assert 399 <= n < app_main.PLUG_MAX, n
assert id(object()) > top, "a new object still lands in a hole below the kept ones"
assert id(bytearray(40)) > top  # and so does one of several blocks
gc.collect()
assert id(object()) < top, "the plugs are garbage: a collection frees the holes again"
print("ALL-OK")
