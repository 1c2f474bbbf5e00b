"""firmware/store.py under fault injection: a fake file layer that cuts the power at every step
(open, write, flush, close, rename, remove, read) leaving a random prefix of an unclosed file, a
full filesystem, and random corruption. After every fault a fresh Store (a reboot) reads either
the record in flight or the last committed one, never older, never a crash; then writing works."""

import errno
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "firmware") not in sys.path:
    sys.path.insert(0, str(ROOT / "firmware"))

import store  # noqa: E402


class PowerCut(BaseException):
    """Not an Exception: nothing in the store may catch it, as nothing survives a real cut."""


class FakeFS:
    def __init__(self, cut_at=None, capacity=None, rng=None):
        self.files = {}
        self.dirs = set()
        self.steps = 0
        self.cut_at = cut_at
        self.capacity = capacity
        self.rng = rng or random.Random(0)
        self.open_files = []

    def step(self):
        self.steps += 1
        if self.cut_at is not None and self.steps == self.cut_at:
            # unclosed files keep a random prefix of what was written
            for f in self.open_files:
                data = f.buf
                self.files[f.path] = bytes(data[: self.rng.randint(0, len(data))])
            self.open_files = []
            raise PowerCut()

    def used(self):
        return sum(len(v) for v in self.files.values())

    # os interface
    def mkdir(self, p):
        self.step()
        if p in self.dirs:
            raise OSError(errno.EEXIST, "exists")
        self.dirs.add(p)

    def rename(self, a, b):
        self.step()
        if a not in self.files:
            raise OSError(errno.ENOENT, a)
        self.files[b] = self.files.pop(a)

    def remove(self, p):
        self.step()
        if p not in self.files:
            raise OSError(errno.ENOENT, p)
        del self.files[p]

    def open(self, p, mode):
        self.step()
        if "r" in mode:
            if p not in self.files:
                raise OSError(errno.ENOENT, p)
            return FakeFile(self, p, self.files[p])
        if self.capacity is not None and self.used() - len(self.files.get(p, b"")) >= self.capacity:
            raise OSError(errno.ENOSPC, "full")
        self.files[p] = b""
        f = FakeFile(self, p, b"", writing=True)
        self.open_files.append(f)
        return f


class FakeFile:
    def __init__(self, fs, path, data, writing=False):
        self.fs = fs
        self.path = path
        self.data = data
        self.buf = bytearray()
        self.writing = writing

    def read(self):
        self.fs.step()
        return self.data

    def write(self, b):
        self.fs.step()
        fs = self.fs
        if fs.capacity is not None and fs.used() + len(self.buf) + len(b) > fs.capacity:
            room = max(0, fs.capacity - fs.used() - len(self.buf))
            self.buf += b[:room]
            fs.files[self.path] = bytes(self.buf)
            raise OSError(errno.ENOSPC, "full")
        self.buf += b
        return len(b)

    def flush(self):
        self.fs.step()

    def close(self):
        self.fs.step()
        if self.writing:
            self.fs.files[self.path] = bytes(self.buf)
            if self in self.fs.open_files:
                self.fs.open_files.remove(self)


def payload(i):
    return ("save %d " % i).encode() * (i % 7 + 1)


def make_store(fs):
    fs_cut, fs.cut_at = fs.cut_at, None  # the constructor's mkdir is not what we test
    s = store.Store("/saves", fs, fs.open)
    fs.cut_at = fs_cut
    return s


def committed_fs(n, seed=0):
    fs = FakeFS(rng=random.Random(seed))
    s = make_store(fs)
    for i in range(n):
        assert s.write("game", payload(i))
    return fs


def count_steps(n):
    fs = committed_fs(n)
    s = make_store(fs)
    before = fs.steps
    assert s.write("game", payload(n))
    return fs.steps - before


@pytest.mark.parametrize("history", [0, 1, 2, 5])
@pytest.mark.parametrize("seed", range(4))
def test_power_cut_at_every_step(history, seed):
    total = count_steps(history)
    assert total >= 6
    for cut in range(1, total + 1):
        fs = committed_fs(history, seed * 100 + cut)
        s = make_store(fs)
        fs.cut_at = fs.steps + cut
        with pytest.raises(PowerCut):
            s.write("game", payload(history))
        fs.cut_at = None
        s2 = make_store(fs)  # reboot
        got = s2.read("game")
        ok = [payload(history)] + ([payload(history - 1)] if history else [None])
        assert got in ok, (cut, got, fs.files)
        assert s2.write("game", payload(99))
        assert make_store(fs).read("game") == payload(99)


@pytest.mark.parametrize("history", [1, 3])
def test_power_cut_during_a_read_changes_nothing(history):
    fs = committed_fs(history)
    snapshot = dict(fs.files)
    s = make_store(fs)
    before = fs.steps
    s.read("game")
    n = fs.steps - before
    for cut in range(1, n + 1):
        fs.files = dict(snapshot)
        s = make_store(fs)
        fs.cut_at = fs.steps + cut
        with pytest.raises(PowerCut):
            s.read("game")
        fs.cut_at = None
        assert make_store(fs).read("game") == payload(history - 1)


def test_full_filesystem_keeps_the_old_record():
    fs = committed_fs(3)
    fs.capacity = fs.used() + 5
    s = make_store(fs)
    assert s.write("game", b"x" * 500) is False
    assert s.error is not None and s.error.args[0] == errno.ENOSPC
    assert "/saves/game.tmp" not in fs.files
    assert make_store(fs).read("game") == payload(2)
    fs.capacity = None
    assert s.write("game", b"y")
    assert s.read("game") == b"y"


@pytest.mark.parametrize("seed", range(30))
def test_random_corruption_falls_back_and_moves_the_bad_file_aside(seed):
    rng = random.Random(seed)
    fs = committed_fs(3, seed)
    target = rng.choice(["/saves/game", "/saves/game.bak", "both"])
    for p in (["/saves/game", "/saves/game.bak"] if target == "both" else [target]):
        data = bytearray(fs.files[p])
        how = rng.choice(["flip", "truncate", "foreign", "empty", "append"])
        if how == "flip":
            k = rng.randrange(len(data))
            data[k] ^= 1 << rng.randrange(8)
        elif how == "truncate":
            data = data[: rng.randrange(len(data))]
        elif how == "foreign":
            data = bytearray(b"PK\x03\x04 not a save")
        elif how == "empty":
            data = bytearray()
        else:
            data += b"\0"
        fs.files[p] = bytes(data)
    s = make_store(fs)
    got = s.read("game")
    want = {"/saves/game": payload(1), "/saves/game.bak": payload(2), "both": None}[target]
    assert got == want
    probs = s.take_problems()
    if target != "/saves/game.bak":  # a bad backup behind a good file is not even read
        assert probs and all(isinstance(w, str) for _, w in probs)
        assert any(p.endswith(".bad") for p in fs.files)
    assert s.write("game", b"fresh") and make_store(fs).read("game") == b"fresh"


def test_missing_file_reads_none_and_records_round_trip():
    fs = FakeFS()
    s = make_store(fs)
    assert s.read("stats") is None and s.problems == []
    for data in (b"", b"\0" * 300, bytes(range(256))):
        assert s.write("stats", data)
        assert s.read("stats") == data
    assert store.unpack(store.pack(b"abc")) == b"abc"
    assert store.unpack(b"CDG\x02" + bytes(8)) == "version 2"


def test_python_crc_matches_binascii():
    import binascii

    for data in (b"", b"a", bytes(range(256)) * 3):
        saved = store._crc32
        store._crc32 = None
        try:
            assert store.crc32(data) == binascii.crc32(data)
        finally:
            store._crc32 = saved


def test_real_files_on_cpython(tmp_path):
    s = store.Store(str(tmp_path / "saves"))
    assert s.write("game", b"one") and s.write("game", b"two")
    assert s.read("game") == b"two"
    assert store.unpack((tmp_path / "saves" / "game.bak").read_bytes()) == b"one"
