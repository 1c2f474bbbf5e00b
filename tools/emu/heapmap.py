"""What fills the emulated Pico's heap, read straight from its RAM while the game runs.

    python tools/emu/heapmap.py [--board NAME] [--tree DIR] [--keys a,y,x,x,a,a] [--map]

Boots the device tree, presses ``--keys`` (waiting ``--wait`` ms after each), and prints the
heap's blocks by kind: each allocated block's first word is its object's type (a type in
flash: ``str``, ``float``, ``FrameBuffer``...; a class of the game, in the heap: "instance";
no type at all: "raw", which is bytecode, the qstr pool, and the data of arrays, lists and
dicts), the free total and the free runs of 1 KB or more. With ``--map``, one character per
1 KB of heap: what most of it holds ("." free). Uncollected garbage counts as allocated: read
once the device is idle (its main loop collects then).

The type of each builtin is its address in the firmware, asked of a second emulated Pico on
the same firmware (``id(str)``...) at its REPL.
"""

import argparse
import ast
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pico

TYPES = r"""
import array, framebuf
def gen():
    yield
class C:
    def m(self):
        pass
def outer():
    x = 1
    def inner():
        return x
    return inner
kinds = {"str": str, "bytes": bytes, "bytearray": bytearray, "list": list, "tuple": tuple,
         "dict": dict, "set": set, "float": float, "int": int, "function": type(outer),
         "generator function": type(gen), "generator": type(gen()), "closure": type(outer()),
         "bound method": type(C().m), "array": array.array, "FrameBuffer": framebuf.FrameBuffer,
         "memoryview": memoryview, "module": type(array), "class": type, "object": object}
print("TYPES", {k: id(v) for k, v in kinds.items()})
"""
RAM = (0x20000000, 0x20042000)
_LETTERS = {"raw": "r", "float": "f", "str": "s", "instance": "i", "function": "F", "tuple": "t",
            "FrameBuffer": "B", "memoryview": "m", "dict": "d", "list": "l", "class": "c"}


def builtin_types(board, tree):
    """{address of a builtin type in the firmware: its name}."""
    with pico.EmulatedPico(board, tree=tree) as p:
        p.safe_boot()
        out = p.exec(TYPES)
    names = ast.literal_eval(out.split("TYPES", 1)[1].strip().splitlines()[0])
    return {addr: name for name, addr in names.items()}


def kind(word, types):
    if word in types:
        return types[word]
    if RAM[0] <= word < RAM[1]:
        return "instance"
    return "other types" if 0x10000000 <= word < 0x11000000 else "raw"


def census(objects, types):
    """Bytes and counts of the allocated blocks by kind."""
    size, count = Counter(), Counter()
    for _, n, word in objects:
        k = kind(word, types)
        size[k] += n
        count[k] += 1
    return size, count


def heap_map(objects, types, total, per=1024):
    """A line of characters, one per ``per`` bytes of heap: the kind holding most of it."""
    cells = [Counter() for _ in range(total // per + 1)]
    for at, n, word in objects:
        k = kind(word, types)
        while n > 0:
            part = min(n, per - at % per)
            cells[at // per][k] += part
            at += part
            n -= part
    line = ""
    for c in cells:
        used = sum(c.values())
        line += "." if used < per // 2 else _LETTERS.get(c.most_common(1)[0][0], "?")
    return line


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default=pico.DEFAULT_BOARD)
    ap.add_argument("--tree", default=None, help="a device tree built already (default: build it)")
    ap.add_argument("--keys", default="", help="buttons to press after boot, comma-separated")
    ap.add_argument("--wait", type=int, default=3000, help="ms to run after each key")
    ap.add_argument("--map", action="store_true", help="also draw the heap, 1 KB a character")
    args = ap.parse_args(argv)
    tree = args.tree or pico.build_tree(args.board)
    types = builtin_types(args.board, tree)
    with pico.EmulatedPico(args.board, tree=tree) as p:
        p.boot()
        p.run(args.wait)
        for k in filter(None, args.keys.split(",")):
            p.key(k)
            p.run(args.wait)
        h = p.heap()
        objects = p.call("objects")["objects"]
    size, count = census(objects, types)
    print("heap %d bytes: %d free, largest free block %d" % (h["total"], h["free"], h["largest"]))
    for k, n in size.most_common():
        print("  %-22s %8d bytes in %5d blocks" % (k, n, count[k]))
    print("free runs of 1 KB or more (offset, bytes):", h["runs"])
    if args.map:
        print(heap_map(objects, types, h["total"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
