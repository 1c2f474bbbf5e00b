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
# each set aside beside the ones before it (a rename over game.bad would have deleted it)
print("set aside:", sorted(os.listdir(ROOT)))
assert sorted(os.listdir(ROOT)) == ["game.bad", "game.bad2", "game.bak.bad"]
with open(ROOT + "/game.bad2", "rb") as f:
    assert f.read() == b"hello"
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

# issue 26, point 7, on a real littlefs (VfsLfs2 on a block device in RAM, where the port has
# it): an empty folder at game.tmp is set aside (littlefs's remove would delete it and the
# save be lost), and without os.stat a failed write never sets the save folder aside.


class RamBlocks:
    def __init__(self, n, size=512):
        self.size = size
        self.data = bytearray(n * size)

    def readblocks(self, block, buf, off=0):
        at = block * self.size + off
        buf[:] = self.data[at:at + len(buf)]

    def writeblocks(self, block, buf, off=None):
        at = block * self.size + (off or 0)
        self.data[at:at + len(buf)] = buf

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return len(self.data) // self.size
        if op == 5:  # block size
            return self.size
        if op == 6:  # erase
            return 0
        return None


class NoStat:
    """os without stat (a minimal port)."""
    mkdir = staticmethod(os.mkdir)
    rename = staticmethod(os.rename)
    remove = staticmethod(os.remove)
    listdir = staticmethod(os.listdir)


if hasattr(os, "VfsLfs2"):
    bdev = RamBlocks(64)
    os.VfsLfs2.mkfs(bdev)
    os.mount(os.VfsLfs2(bdev), "/lfs")
    try:
        for os_mod in (None, NoStat):
            rm("/lfs/data")
            os.mkdir("/lfs/data")
            os.mkdir("/lfs/data/game.tmp")
            s = store.Store("/lfs/data", os_mod)
            assert s.write("game", b"one"), s.error
            assert s.take_problems() == [("game.tmp", "a folder")], os_mod
            assert "game.tmp.bad" in os.listdir("/lfs/data")
            assert store.Store("/lfs/data").read("game") == b"one"
            print("littlefs, folder at game.tmp:", "no stat" if os_mod else "stat", "ok")
        # no os.stat, the flash refuses every write: the save folder stays where it is
        rm("/lfs/data")
        os.mkdir("/lfs/data")
        assert store.Store("/lfs/data").write("stats", b"st")

        def refuse(path, mode):
            if "w" in mode:
                raise OSError(28)
            return open(path, mode)
        s = store.Store("/lfs/data", NoStat, refuse)
        assert not s.write("game", b"one") and s.take_problems() == []
        assert sorted(os.listdir("/lfs")) == ["data"], os.listdir("/lfs")
        assert store.Store("/lfs/data").read("stats") == b"st"
        print("littlefs, no stat, a failed write: the save folder kept")
    finally:
        os.umount("/lfs")
else:
    print("no VfsLfs2 on this port: the littlefs cases run on the unix port")
print("ALL-OK")
