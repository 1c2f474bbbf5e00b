"""firmware/store.py on the real MicroPython filesystem (unix port: the host's; wasm port: MEMFS):
round trip, .bak kept, corrupt file moved to .bad and reported, fallback, rename over existing.
Prints ALL-OK last."""

import os

import store
from fsutil import rm

ROOT = "/tmp/mpt_store_dir"


def clean():
    for p in (ROOT, ROOT + ".bad"):
        rm(p)


clean()
s = store.Store(ROOT)
assert s.read("game") is None
assert s.write("game", b"one")
assert s.write("game", b"two")
assert s.read("game") == b"two"
names = sorted(os.listdir(ROOT))
print("files:", names)
assert names == ["game", "game.bak"]
with open(ROOT + "/game.bak", "rb") as f:
    assert store.unpack(f.read()) == b"one"
# corrupt the current file: the backup is returned, the bad one moved aside and reported
with open(ROOT + "/game", "r+b") as f:
    f.seek(14)
    f.write(b"X")
s2 = store.Store(ROOT)
assert s2.read("game") == b"one"
print("problems:", s2.problems)
assert s2.problems == [("game", "checksum")]
assert "game.bad" in os.listdir(ROOT)
# a foreign file and a truncated backup: None, no crash, both reported
with open(ROOT + "/game", "wb") as f:
    f.write(b"hello")
with open(ROOT + "/game.bak", "wb") as f:
    f.write(b"CDG\x01\x00")
s3 = store.Store(ROOT)
assert s3.read("game") is None
assert [w for _, w in s3.problems] == ["foreign", "truncated"], s3.problems
assert s3.write("game", bytes(range(256)))
assert store.Store(ROOT).read("game") == bytes(range(256))
print("crc32 from binascii:", store._crc32 is not None)

# issue 14, point 1: an oversized file is refused by its size (os.stat), set aside, reported
clean()
os.mkdir(ROOT)
with open(ROOT + "/settings", "wb") as f:
    for _ in range(64):
        f.write(b"z" * 4096)  # 256 KB: more than the heap could read at once on a Pico
s = store.Store(ROOT)
assert s.read("settings") is None
assert s.take_problems() == [("settings", "too large")]
assert "settings.bad" in os.listdir(ROOT) and "settings" not in os.listdir(ROOT)
assert s.write("settings", b"ok") and store.Store(ROOT).read("settings") == b"ok"
assert not s.write("game", b"x" * store.LIMIT)  # never written: it could not be read back

# point 2: a folder where a save file belongs (game, game.tmp, game.bak), and a file where
# the save folder belongs: set aside once, reported, and the save succeeds
for where in ("game", "game.tmp", "game.bak", "root"):
    clean()
    if where == "root":
        with open(ROOT, "wb") as f:
            f.write(b"a file")
    else:
        os.mkdir(ROOT)
        os.mkdir(ROOT + "/" + where)
    s = store.Store(ROOT)
    assert s.write("game", b"one"), (where, s.error)
    assert s.write("game", b"two"), (where, s.error)
    probs = s.take_problems()
    print(where, probs)
    assert len(probs) == 1, (where, probs)
    assert s.write("game", b"three") and s.take_problems() == []
    assert store.Store(ROOT).read("game") == b"three"
clean()
os.mkdir(ROOT)
os.mkdir(ROOT + "/stats")
s = store.Store(ROOT)
assert s.read("stats") is None and s.take_problems() == [("stats", "a folder")]
assert s.write("stats", b"st") and s.read("stats") == b"st"
clean()
print("ALL-OK")
