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
    assert s.write("game", b"one") and s.error is None  # (what was in the way is no error)
    assert s.write("game", b"two") and s.error is None  # a backup: game.bak is in the way
    assert store.unpack((root / "game.bak").read_bytes()) == b"one"
    probs = s.take_problems()
    assert probs == [("the save folder", "a file") if where == "folder is a file" else
                     (where, "a folder")], probs
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


# ------------------------------------- what the store says, word for word (the app shows it)

@pytest.mark.parametrize("rec, what", [
    (b"", "truncated"), (b"CD", "truncated"), (b"CDG", "truncated"),
    (store.pack(b"abc")[:11], "truncated"),  # a header cut short
    (b"PK\x03", "foreign"), (b"CDX" + bytes(9), "foreign"), (b"XDG" + bytes(9), "foreign"),
    (b"CDG\x02" + bytes(8), "version 2"),
    (store.pack(b"abcde")[:-1], "truncated"), (store.pack(b"abcde")[:12], "truncated"),
    (store.pack(b"abcde") + b"\0", "trailing bytes"), (store.pack(b"") + b"\0", "trailing bytes"),
    (store.pack(b"abcde")[:-1] + b"f", "checksum"),
    # a length byte set far above the record's size (no record that large is ever written)
    (b"CDG\x01\x01\x00\x00\x00" + store.pack(b"")[8:], "truncated"),
    (b"CDG\x01\x00\x01\x00\x00" + store.pack(b"")[8:], "truncated"),
])
def test_unpack_says_what_is_wrong(rec, what):
    assert store.unpack(rec) == what


@pytest.mark.parametrize("size", [0, 1, 255, 256, 65535, 65536, 1 << 24])
def test_records_of_every_length_byte_round_trip(size):
    data = bytes(size)
    assert store.unpack(store.pack(data)) == data


def test_the_problems_name_the_record_and_what_happened():
    fs = committed_fs(2)  # game: payload(1), game.bak: payload(0)
    s = make_store(fs)
    assert s.error is None
    data = bytearray(fs.files["/saves/game"])
    data[-1] ^= 1
    fs.files["/saves/game"] = bytes(data)
    assert s.read("game") == payload(0) and s.take_problems() == [("game", "checksum")]
    del fs.files["/saves/game.bad"]  # the next read: the record gone, its backup there
    assert s.read("game") == payload(0)
    assert s.take_problems() == [("game", "restored from backup")]


def test_a_root_given_with_a_slash_at_its_end_is_the_same_folder():
    for root, path in (("/saves/", "/saves/game"), ("/saves/BOX/", "/saves/BOX/game")):
        fs = FakeFS()
        s = store.Store(root, fs, fs.open)
        assert s.write("game", b"one") and s.error is None
        assert set(fs.files) == {path}


def test_a_record_too_large_says_so():
    s = make_store(FakeFS())
    assert not s.write("game", bytes(store.LIMIT))
    assert isinstance(s.error, OSError) and s.error.args == (
        "the record is larger than %d bytes" % store.LIMIT,)


def test_each_damaged_record_is_set_aside_beside_the_ones_before_until_nine():
    fs = committed_fs(1)
    s = make_store(fs)
    for k in range(1, 11):
        fs.files["/saves/game"] = b"bad %d" % k
        assert s.read("game") is None
        assert s.take_problems() == [("game", "foreign")]
    # .bad, .bad2 ... .bad9 hold the first nine; the tenth is left where it was
    assert [fs.files["/saves/game.bad" + ("" if k == 1 else str(k))] for k in range(1, 10)] == [
        b"bad %d" % k for k in range(1, 10)]
    assert fs.files["/saves/game"] == b"bad 10" and "/saves/game.bad10" not in fs.files


def test_a_failed_read_is_a_truncated_record():
    fs = committed_fs(1)

    def failing_open(path, mode):
        f = fs.open(path, mode)
        if path == "/saves/game" and "r" in mode:
            def read(n=-1):
                raise OSError(errno.EIO, "read")
            f.read = read
        return f
    s = store.Store("/saves", fs, failing_open)
    assert s.read("game") is None and s.take_problems() == [("game", "truncated")]


def test_a_full_flash_tries_the_write_once():
    fs = committed_fs(2)
    fs.capacity = fs.used()
    opened = []

    def counting_open(path, mode):
        opened.append((path, mode))
        return fs.open(path, mode)
    s = store.Store("/saves", fs, counting_open)
    assert not s.write("game", b"x") and s.error.args[0] == errno.ENOSPC
    assert opened.count(("/saves/game.tmp", "wb")) == 1


class RenameFails:
    """The host's ``os`` whose ``rename`` to a name ending ``end`` fails."""

    def __init__(self, end):
        import os

        self.end = end
        self._os = os
        self.mkdir, self.listdir, self.stat, self.remove = os.mkdir, os.listdir, os.stat, os.remove

    def rename(self, a, b):
        if b.endswith(self.end):
            raise OSError(errno.EIO, "rename")
        self._os.rename(a, b)


def test_a_backup_that_fails_says_so_and_the_record_still_goes_in(tmp_path):
    s = store.Store(str(tmp_path), RenameFails(".bak"))
    assert s.write("game", b"one") and s.error is None
    assert s.write("game", b"two") and isinstance(s.error, OSError)  # no backup this time
    assert store.Store(str(tmp_path)).read("game") == b"two"


def test_a_record_whose_last_rename_fails_says_so(tmp_path):
    s = store.Store(str(tmp_path), RenameFails("game"))
    assert not s.write("game", b"one") and isinstance(s.error, OSError)


def test_without_os_stat_an_oversized_file_is_too_large_and_a_file_for_the_folder_set_aside(
        tmp_path):
    root = tmp_path / "data"
    root.mkdir()
    (root / "game").write_bytes(store.pack(bytes(store.LIMIT)))
    s = store.Store(str(root), LittleFsOs(stat=False))
    assert s.read("game") is None and s.take_problems() == [("game", "too large")]
    (tmp_path / "other").write_bytes(b"not a folder")
    s = store.Store(str(tmp_path / "other"), LittleFsOs(stat=False))
    assert s.write("game", b"one"), s.error
    assert s.take_problems() == [("the save folder", "a file")]
    assert (tmp_path / "other.bad").read_bytes() == b"not a folder"


def test_a_record_is_read_asking_for_its_size_and_one_byte_more(tmp_path):
    # read(n) allocates n bytes at once on MicroPython: the store asks for the file's size
    # (+1 to see a file that grew), never more
    assert store.Store(str(tmp_path)).write("game", b"twelve bytes")
    guard = NoWholeReads()
    assert store.Store(str(tmp_path), open_fn=guard).read("game") == b"twelve bytes"
    assert guard.sizes == [12 + 12 + 1]


def test_what_cannot_be_set_aside_is_not_tried_again(tmp_path):
    # a folder at the name, and every name it could be set aside to taken: the write fails,
    # once (nothing was cleared: another try would fail the same way)
    (tmp_path / "game").mkdir()
    for k in range(1, 10):
        (tmp_path / ("game.bad" + ("" if k == 1 else str(k)))).write_bytes(b"kept")
    opened = []

    def counting_open(path, mode):
        opened.append((path, mode))
        return open(path, mode)
    s = store.Store(str(tmp_path), open_fn=counting_open)
    assert not s.write("game", b"one") and isinstance(s.error, OSError)
    assert opened.count((str(tmp_path / "game.tmp"), "wb")) == 1
    assert s.take_problems() == [("game", "a folder")]
    assert (tmp_path / "game").is_dir() and (tmp_path / "game.bad").read_bytes() == b"kept"
