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

``read`` verifies ``name``, else falls back to ``name.bak``. A file that is corrupt, truncated or
foreign is renamed aside to ``name.bad`` and recorded in ``self.problems`` (a list of
``(name, what)`` the app can show; ``take_problems()`` empties it). Errors (full flash, I/O)
make ``write`` return False with ``self.error`` set; neither method raises OSError.
"""

_MAGIC = b"CDG"
_VERSION = 1
_HEAD = 12

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
    def __init__(self, root, os_mod=None, open_fn=None):
        if os_mod is None:
            import os as os_mod
        if open_fn is None:
            open_fn = open
        self.os = os_mod
        self.open = open_fn
        self.root = root.rstrip("/")
        self.problems = []
        self.error = None
        try:
            os_mod.mkdir(self.root)
        except OSError:
            pass  # exists already (or cannot be made: reads and writes will say so)

    def _path(self, name):
        return self.root + "/" + name

    def _load(self, path):
        """The file's bytes, or None if it cannot be opened (missing)."""
        try:
            f = self.open(path, "rb")
        except OSError:
            return None
        try:
            return f.read()
        except OSError:
            return b""
        finally:
            try:
                f.close()
            except OSError:
                pass

    def _check(self, path, name):
        rec = self._load(path)
        if rec is None:
            return None
        got = unpack(rec)
        if isinstance(got, str):
            self.problems.append((name, got))
            try:
                self.os.rename(path, path + ".bad")
            except OSError:
                pass
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
        p = self._path(name)
        tmp = p + ".tmp"
        self.error = None
        try:
            f = self.open(tmp, "wb")
            try:
                f.write(pack(data))
                f.flush()
            finally:
                f.close()
        except OSError as e:
            self.error = e
            try:
                self.os.remove(tmp)  # only the half-written temporary file
            except OSError:
                pass
            return False
        try:
            old = self._load(p)
            if old is not None and not isinstance(unpack(old), str):
                self.os.rename(p, p + ".bak")
        except OSError as e:
            self.error = e  # no backup this time; the new record still goes in
        try:
            self.os.rename(tmp, p)
        except OSError as e:
            self.error = e
            return False
        return True
