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

import store


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

    def read(self, n=-1):
        self.fs.step()
        return self.data if n < 0 else self.data[:n]

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


@pytest.mark.parametrize("how", ["flip", "truncate", "foreign"])
def test_a_damaged_record_never_goes_over_the_good_backup_whatever_step_is_cut(how):
    # The record at the name is damaged and its backup good (test_power_cut_at_every_step
    # starts from valid records only): a write cut at any step must leave the new record or
    # that backup. Backed up over the good one, the damaged record would leave nothing good
    # once a cut comes before the new record's rename.
    def damaged():
        fs = committed_fs(2)  # game: payload(1), game.bak: payload(0)
        data = bytearray(fs.files["/saves/game"])
        if how == "flip":
            data[-1] ^= 0x10
        elif how == "truncate":
            del data[-3:]
        else:
            data[:3] = b"PK\x03"
        fs.files["/saves/game"] = bytes(data)
        return fs

    fs = damaged()
    s = make_store(fs)
    before = fs.steps
    assert s.write("game", payload(7))
    total = fs.steps - before
    assert fs.files["/saves/game.bak"] == store.pack(payload(0))  # the good backup stays
    for cut in range(1, total + 1):
        fs = damaged()
        s = make_store(fs)
        fs.cut_at = fs.steps + cut
        with pytest.raises(PowerCut):
            s.write("game", payload(7))
        fs.cut_at = None
        got = make_store(fs).read("game")  # reboot
        assert got in (payload(7), payload(0)), (cut, got, fs.files)


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


# ------------------------------------------------- issue 14, points 1 and 2 (real files)

class NoWholeReads:
    """open() for the store that refuses to read a file whole (without a size)."""

    def __init__(self):
        self.sizes = []

    def __call__(self, path, mode):
        f = open(path, mode)
        if "r" not in mode:
            return f
        outer = self

        class Guard:
            def read(self, n=-1):
                assert n >= 0, "a whole file was read"
                outer.sizes.append(n)
                return f.read(n)

            def close(self):
                f.close()
        return Guard()


@pytest.mark.parametrize("name", ["game", "settings", "stats", "game.bak"])
def test_an_oversized_file_is_refused_without_reading_it_set_aside_and_reported(tmp_path, name):
    root = tmp_path / "saves"
    root.mkdir()
    (root / name).write_bytes(store.pack(b"x" * (2 << 20))[:12] + b"x" * (2 << 20))
    guard = NoWholeReads()
    s = store.Store(str(root), open_fn=guard)
    base = name.split(".")[0]
    assert s.read(base) is None
    assert (base if name == base else name, "too large") in s.take_problems()
    assert (root / (name + ".bad")).stat().st_size > 2 << 20 and not (root / name).exists()
    assert all(n <= store.LIMIT + 1 for n in guard.sizes)
    assert s.write(base, b"fine") and store.Store(str(root)).read(base) == b"fine"
    assert s.take_problems() == []


def test_a_record_too_large_to_read_back_is_never_written(tmp_path):
    s = store.Store(str(tmp_path))
    assert not s.write("game", b"x" * store.LIMIT) and s.error is not None
    assert s.write("game", b"x" * (store.LIMIT - 12))
    assert s.read("game") == b"x" * (store.LIMIT - 12)


@pytest.mark.parametrize("where", ["game", "game.tmp", "game.bak", "folder is a file"])
def test_whatever_stands_in_the_way_of_a_save_is_set_aside_once_and_the_save_succeeds(tmp_path, where):
    root = tmp_path / "data"
    if where == "folder is a file":
        root.write_bytes(b"not a folder")
    else:
        (root / where).mkdir(parents=True)
        (root / where / "inside").write_bytes(b"kept")
    s = store.Store(str(root))
    assert s.write("game", b"one"), s.error
    assert s.write("game", b"two"), s.error  # a backup is made: game.bak is in the way
    probs = s.take_problems()
    assert len(probs) == 1 and probs[0][1] in ("a folder", "a file"), probs
    assert s.write("game", b"three") and s.error is None and s.take_problems() == []
    assert store.Store(str(root)).read("game") == b"three"
    assert store.unpack((root / "game.bak").read_bytes()) == b"two"
    if where == "folder is a file":
        assert (tmp_path / "data.bad").read_bytes() == b"not a folder"
    else:
        assert (root / (where + ".bad") / "inside").read_bytes() == b"kept"


def test_a_folder_at_the_name_is_set_aside_when_read(tmp_path):
    (tmp_path / "game").mkdir()
    s = store.Store(str(tmp_path))
    assert s.read("game") is None and s.take_problems() == [("game", "a folder")]
    assert (tmp_path / "game.bad").is_dir()
    assert s.write("game", b"ok") and s.read("game") == b"ok"


# ---------------------------------------------- issue 26, point 7 (littlefs, no os.stat)

class LittleFsOs:
    """The host's ``os`` as littlefs behaves: ``remove`` deletes an empty folder too (POSIX
    refuses), and without ``stat`` when ``stat=False`` (a minimal port)."""

    def __init__(self, stat=True):
        import os

        self._os = os
        self.mkdir = os.mkdir
        self.rename = os.rename
        self.listdir = os.listdir
        if stat:
            self.stat = os.stat

    def remove(self, p):
        if self._os.path.isdir(p):
            self._os.rmdir(p)  # littlefs: an empty folder goes, like a file
        else:
            self._os.remove(p)


@pytest.mark.parametrize("stat", [True, False], ids=["stat", "no stat"])
def test_an_empty_folder_at_name_tmp_on_littlefs_does_not_lose_the_save(tmp_path, stat):
    root = tmp_path / "data"
    (root / "game.tmp").mkdir(parents=True)  # empty: littlefs's remove would delete it
    s = store.Store(str(root), LittleFsOs(stat))
    assert s.write("game", b"one"), s.error
    assert s.take_problems() == [("game.tmp", "a folder")]
    assert (root / "game.tmp.bad").is_dir()  # set aside, never deleted
    assert store.Store(str(root)).read("game") == b"one"
    assert s.write("game", b"two") and s.take_problems() == []


@pytest.mark.parametrize("where", ["game", "game.bak"])
def test_without_os_stat_a_folder_in_the_way_is_set_aside_and_the_save_folder_kept(tmp_path, where):
    root = tmp_path / "data"
    (root / where).mkdir(parents=True)
    (root / where / "inside").write_bytes(b"kept")
    (root / "stats").write_bytes(store.pack(b"st"))
    s = store.Store(str(root), LittleFsOs(stat=False))
    assert s.write("game", b"one") and s.write("game", b"two"), s.error
    assert s.take_problems() == [(where, "a folder")]
    assert root.is_dir() and not (tmp_path / "data.bad").exists()  # the saves stay where they are
    assert store.Store(str(root)).read("stats") == b"st"
    assert store.Store(str(root)).read("game") == b"two"


def test_without_os_stat_a_failed_write_never_sets_the_save_folder_aside(tmp_path):
    root = tmp_path / "data"
    root.mkdir()
    (root / "stats").write_bytes(store.pack(b"st"))

    def full(path, mode):  # the flash is full: every write fails
        if "w" in mode:
            raise OSError(28, "no space")
        return open(path, mode)
    s = store.Store(str(root), LittleFsOs(stat=False), full)
    assert not s.write("game", b"one") and s.error is not None
    assert s.take_problems() == []
    assert root.is_dir() and not (tmp_path / "data.bad").exists()
    assert store.Store(str(root)).read("stats") == b"st"
