"""firmware/store.py on the real MicroPython filesystem (unix port: the host's; wasm port: MEMFS):
round trip, .bak kept, corrupt file moved to .bad and reported, fallback, rename over existing.
Prints ALL-OK last."""

import os

import store

ROOT = "/tmp/mpt_store_dir"


def clean():
    try:
        names = os.listdir(ROOT)
    except OSError:
        return
    for n in names:
        os.remove(ROOT + "/" + n)
    os.rmdir(ROOT)


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
clean()
print("ALL-OK")
