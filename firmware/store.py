"""Saves, statistics and settings on flash, written so that a power cut never loses a committed
record (beyond the one being written) and a bad file never crashes the game.

``Store(root)``: ``read(name) -> bytes or None`` and ``write(name, data) -> bool``.

A file holds one record: ``b"CDG"``, version byte 1, payload length (4 bytes, big-endian),
CRC-32 of the payload (4 bytes, big-endian), payload. ``write``:

1. writes the record to ``name.tmp`` and closes it (nothing else is touched yet);
2. if ``name`` holds a valid record, renames it over ``name.bak`` (the previous good copy);
3. renames ``name.tmp`` over ``name``. Renames are atomic on littlefs (and POSIX). MicroPython's
   ``os`` has ``rename`` but no ``replace``; rename over an existing file works on both.

Nothing is deleted before the new record is on flash. A cut between 2 and 3 leaves no ``name``,
and ``read`` then returns ``name.bak``: the last committed record.

``read`` verifies ``name``, else falls back to ``name.bak``. A file that is corrupt, truncated,
foreign or larger than any record (``limit``, checked with ``os.stat`` before anything is read),
and a folder where a file belongs, is renamed aside to ``name.bad`` (``name.bad2``... if that is
taken) and recorded in ``self.problems`` (a list of ``(name, what)`` the app can show;
``take_problems()`` empties it). When a write fails because something stands in its way (a
folder at ``name``, ``name.tmp`` or ``name.bak``, or a file where the save folder belongs),
that is set aside and reported the same way, and the write is tried once more (without
``os.stat``, what is in the way is told by ``os.listdir`` and ``open``: the save folder itself
is set aside only if it is really a file). Only a ``name.tmp`` the write itself opened is
removed after a failure: littlefs's ``remove`` deletes an empty folder too. Errors (full
flash, I/O) make ``write`` return False with ``self.error`` set; neither method raises
OSError. ``write`` refuses a record larger than ``limit``: ``read`` would refuse it.
"""

from catan import const

_MAGIC = const(b"CDG")
_VERSION = const(1)
_HEAD = const(12)
LIMIT = 8192  # the largest record, header included (a game save is about 150 bytes)
_DIR = const(0x4000)  # S_IFDIR in st_mode

try:
    from binascii import crc32 as _crc32
except ImportError:  # a port without binascii.crc32
    _crc32 = None


def crc32(data):
    if _crc32 is not None:
        return _crc32(data) & 0xFFFFFFFF
    c = 0xFFFFFFFF
    for b in data:
        c ^= b
        for _ in range(8):
            c = (c >> 1) ^ (0xEDB88320 & -(c & 1))
    return c ^ 0xFFFFFFFF


def pack(data):
    n = len(data)
    c = crc32(data)
    head = bytearray(_HEAD)
    head[0:3] = _MAGIC
    head[3] = _VERSION
    for i in range(4):
        head[4 + i] = (n >> (24 - 8 * i)) & 0xFF
        head[8 + i] = (c >> (24 - 8 * i)) & 0xFF
    return bytes(head) + bytes(data)


def unpack(rec):
    """The payload of a record, or a string saying what is wrong with it."""
    if len(rec) < _HEAD or rec[0:3] != _MAGIC:
        return "foreign" if len(rec) >= 3 and rec[0:3] != _MAGIC else "truncated"
    if rec[3] != _VERSION:
        return "version %d" % rec[3]
    n = (rec[4] << 24) | (rec[5] << 16) | (rec[6] << 8) | rec[7]
    c = (rec[8] << 24) | (rec[9] << 16) | (rec[10] << 8) | rec[11]
    if len(rec) != _HEAD + n:
        return "truncated" if len(rec) < _HEAD + n else "trailing bytes"
    data = bytes(rec[_HEAD:])
    if crc32(data) != c:
        return "checksum"
    return data


class Store:
    def __init__(self, root, os_mod=None, open_fn=None, limit=LIMIT):
        if os_mod is None:
            import os as os_mod
        if open_fn is None:
            open_fn = open
        self.os = os_mod
        self.open = open_fn
        self.root = root.rstrip("/")
        self.limit = limit
        self.problems = []
        self.error = None
        self._make_root()

    def _make_root(self):
        try:
            self.os.mkdir(self.root)
        except OSError:
            pass  # exists already (or cannot be made: reads and writes will say so)

    def _kind(self, path):
        """None if nothing is at ``path``, "a folder", "too large", or the size of a file that
        may hold a record. Without ``os.stat`` (a minimal port) everything is a file of up to
        ``limit`` bytes."""
        stat = getattr(self.os, "stat", None)
        if stat is None:
            return self.limit
        try:
            st = stat(path)
        except OSError:
            return None
        if st[0] & _DIR:
            return "a folder"
        if st[6] > self.limit:
            return "too large"
        return st[6]

    def _what(self, path):
        """None if nothing is at ``path``, "a folder" or "a file". Without ``os.stat`` a
        folder is what ``os.listdir`` lists and a file what opens, so that a minimal port
        sets aside only what is really in the way (never the save folder itself)."""
        if getattr(self.os, "stat", None) is not None:
            kind = self._kind(path)
            return kind if kind is None or kind == "a folder" else "a file"
        try:
            self.os.listdir(path)
            return "a folder"
        except (AttributeError, OSError):
            pass
        try:
            self.open(path, "rb").close()
            return "a file"
        except OSError:
            return None

    def _set_aside(self, path, name, what):
        # Rename whatever is at ``path`` out of the way (never delete) and report it.
        self.problems.append((name, what))
        for k in range(1, 10):
            to = path + (".bad" if k == 1 else ".bad%d" % k)
            if self._what(to) is not None:
                continue  # taken by one set aside before: a rename over it would delete it
            try:
                self.os.rename(path, to)
                return True
            except OSError:
                pass
        return False

    def _path(self, name):
        return self.root + "/" + name

    def _load(self, path, n):
        """The file's bytes (at most ``n`` + 1 of them, ``n`` its size from ``_kind``), or None
        if it cannot be opened (missing)."""
        try:
            f = self.open(path, "rb")
        except OSError:
            return None
        # read(n) allocates n bytes at once on MicroPython: ask for the file's size (+1, to see a
        # file that grew), never for the limit, or every save needs an 8 KB free block
        try:
            return f.read(n + 1)
        except OSError:
            return b""
        finally:
            try:
                f.close()
            except OSError:
                pass

    def _check(self, path, name):
        kind = self._kind(path)
        if kind is None:
            return None
        if isinstance(kind, str):
            self._set_aside(path, name, kind)
            return None
        rec = self._load(path, kind)
        if rec is None:
            return None
        got = unpack(rec) if len(rec) <= self.limit else "too large"
        if isinstance(got, str):
            self._set_aside(path, name, got)
            return None
        return got

    def read(self, name):
        p = self._path(name)
        n = len(self.problems)
        data = self._check(p, name)
        if data is None:
            data = self._check(p + ".bak", name + ".bak")
            if data is not None and len(self.problems) == n:  # the file was missing, not bad
                self.problems.append((name, "restored from backup"))
        return data

    def take_problems(self):
        out = self.problems
        self.problems = []
        return out

    def write(self, name, data):
        self.error = None
        if _HEAD + len(data) > self.limit:
            self.error = OSError("the record is larger than %d bytes" % self.limit)
            return False
        if self._write(name, data):
            return True
        # Something may stand in the way: set it aside once, then try again.
        if self._clear_way(name):
            self.error = None
            return self._write(name, data)
        return False

    def _clear_way(self, name):
        p = self._path(name)
        cleared = False
        if self._what(self.root) == "a file":
            cleared = self._set_aside(self.root, "the save folder", "a file")
            self._make_root()
        for path, what in ((p + ".tmp", name + ".tmp"), (p, name), (p + ".bak", name + ".bak")):
            if self._what(path) == "a folder":
                cleared = self._set_aside(path, what, "a folder") or cleared
        return cleared

    def _write(self, name, data):
        p = self._path(name)
        tmp = p + ".tmp"
        f = None
        try:
            f = self.open(tmp, "wb")
            try:
                f.write(pack(data))
                f.flush()
            finally:
                f.close()
        except OSError as e:
            self.error = e
            if f is not None:  # only the half-written file this opened: if the open failed,
                try:  # what is at name.tmp is not ours (littlefs's remove takes a folder too)
                    self.os.remove(tmp)
                except OSError:
                    pass
            return False
        try:
            size = self._kind(p)
            if isinstance(size, int):
                old = self._load(p, size)
                if old is not None and not isinstance(unpack(old), str):
                    try:
                        self.os.rename(p, p + ".bak")
                    except OSError:
                        if not self._clear_way(name):  # a folder in the backup's place
                            raise
                        self.os.rename(p, p + ".bak")
        except OSError as e:
            self.error = e  # no backup this time; the new record still goes in
        try:
            self.os.rename(tmp, p)
        except OSError as e:
            self.error = e
            return False
        return True
