"""The exact solvers' tables as the device reads them, a few bytes at a time: Island One's value
table (``values``) and Island Two's race table (``race``), each a file beside this module or, in a
game UF2, a frozen ``bytes`` constant read in place from flash; the value of a rank-r fit; and a
binary search (also of the dice multisets, ``reroll``).
"""


class InFlash:
    """A frozen ``bytes`` constant read like the table's file (``read``, ``readinto``, ``seek``):
    the bytes stay in flash, a read copies only what it asks for."""

    def __init__(self, data):
        self.data = memoryview(data)
        self.at = 0

    def seek(self, at):
        self.at = at

    def read(self, n):
        self.at += n
        return bytes(self.data[self.at - n:self.at])

    def readinto(self, buf):
        n = len(buf)
        buf[:] = self.data[self.at:self.at + n]
        self.at += n
        return n

    def close(self):
        pass


def open_table(name, frozen):
    """(file, path) of the table file ``name`` beside this module, open for reading; in a game
    UF2, which freezes the table as the bytes constant ``DATA`` of module
    ``catan.players.<frozen>``, a file over those bytes, read in place from flash."""
    try:
        data = __import__("catan.players." + frozen, None, None, ("DATA",)).DATA
        return InFlash(data), frozen
    except ImportError:  # the .mpy install: the file beside this module
        here = __file__.replace("\\", "/").rpartition("/")[0]
        path = (here + "/" if here else "") + name
        return open(path, "rb"), path


def fit_value(gf, at, sf, scale, rank):
    """A value of a rank-``rank`` fit: the sum over r of GF[at + r] * SF[r] * scale[r], the
    factors stored as signed bytes (the value table's and the race table's)."""
    v = 0.0
    for r in range(rank):
        a = gf[at + r]
        b = sf[r]
        if a > 127:
            a -= 256
        if b > 127:
            b -= 256
        v += a * b * scale[r]
    return v


def find_key(keys, k, lo=0, hi=-1):
    # The index of k in the sorted sequence keys[lo..hi] (hi -1: the last; binary search):
    # a sheet's road mask here, a multiset of dice in ``reroll``.
    if hi < 0:
        hi = len(keys) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if keys[mid] < k:
            lo = mid + 1
        else:
            hi = mid
    return lo
