"""Island Two's solo race: the expected turns to 10 VP of a sheet, from the exact solver.

    turns_to_go(roads, builds, jokers)   # expected turns still to play, 0 once 10 VP

The values come from ``tools/solver/solve_island2.py`` (the exact optimum of the solo race)
through a compact fit, ``race_table.bin`` beside this module (``tools/solver/fit_island2.py``
writes it): read in place, a few bytes a value, from the file or (in a game UF2) from a
frozen bytes constant ``catan.players.race_data.DATA``. In a game with other players the
number is still the solo race's: the race against the clock, not against the others (an
award another player holds: ``values.value_two``).

The file: b"CDV2", rank R, 0, groups G, sheets S, road masks N (<BBHHH), R scales (<d),
N road masks (<I, ascending), GF (G * R signed bytes), SF (S * R signed bytes).
T(g, s) ~= sum_r GF[g, r] * SF[s, r] * scale[r]. Sheet s: the road masks in order, then
within a mask the settlements built x the cities built that its roads reach. Group g: the
codes of K1..K5 (0 not built, 1 joker unused, 2 used; K1 most significant, base 3) times 10,
plus the place of the two deserts' codes (0, 1 or 2 knights, 3 both and the joker used),
sorted, in the order (0,0) (0,1) .. (0,3) (1,1) .. (3,3).
"""

from array import array

from catan import const
from catan.maps import (AWARD_VP, CITY, GREY_ROAD, ISLAND_TWO, KNIGHT, SETTLEMENT, START,
                        WIN_VP)
from catan.players.tables import find_key, fit_value, open_table

TABLE = "race_table.bin"
_TABLE = None
_PAIR = const((0, 4, 7, 9))  # the place of desert codes (a, b), a <= b: _PAIR[a] + b - a


class _Race:
    def __init__(self, f, path):
        import struct

        head = f.read(12)
        if head[:4] != b"CDV2":
            f.close()
            raise ValueError("%s is not a race table" % path)
        rank, _, self.groups, sheets, n = struct.unpack("<BBHHH", head[4:])
        self.scale = struct.unpack("<%dd" % rank, f.read(8 * rank))
        raw = f.read(4 * n)
        masks = [raw[4 * i] | raw[4 * i + 1] << 8 | raw[4 * i + 2] << 16 for i in range(n)]
        del raw
        self.masks = masks
        self.f = f
        self.rank = rank
        self.gf_at = 12 + 8 * rank + 4 * n
        self.sf_at = self.gf_at + self.groups * rank
        isl = ISLAND_TWO
        self.s_roads = bytes(isl.site_road[b] for b in range(len(isl.kinds))
                             if isl.kinds[b] == SETTLEMENT)
        self.c_roads = bytes(isl.site_road[b] for b in range(len(isl.kinds))
                             if isl.kinds[b] == CITY)
        self.base = array("H", bytes(2 * n))
        self.widths = bytearray(n)
        total = 0
        for i in range(n):
            ns = _open(masks[i], self.s_roads)
            nc = _open(masks[i], self.c_roads)
            self.base[i] = total
            self.widths[i] = nc + 1
            total += (ns + 1) * (nc + 1)
        if total != sheets:
            raise ValueError("%s does not match the map" % path)

    def turns(self, roads, builds, jokers):
        isl = ISLAND_TWO
        s = c = kn = vp = 0
        ks = 0
        for b in range(len(isl.kinds)):
            if builds >> b & 1:
                kind = isl.kinds[b]
                vp += isl.values[b]
                if kind == SETTLEMENT:
                    s += 1
                elif kind == CITY:
                    c += 1
                elif kind == KNIGHT:
                    kn += 1
        if roads >> GREY_ROAD & 1:
            vp += AWARD_VP
        if kn >= 3:
            vp += AWARD_VP
        if vp >= WIN_VP:
            return 0.0
        desert = []
        for j in range(len(isl.jokers)):
            need = isl.jokers[j][1]
            n = 0
            for b in range(len(isl.kinds)):
                if need >> b & 1 and builds >> b & 1:
                    n += 1
            used = jokers >> j & 1
            if need & (need - 1):  # a desert: two knights over one joker
                desert.append(3 if n == 2 and used else n)
            else:
                ks = ks * 3 + (1 + used if n else 0)
        a, b = desert
        if a > b:
            a, b = b, a
        g = ks * 10 + _PAIR[a] + b - a
        lo = find_key(self.masks, roads)
        if self.masks[lo] != roads:
            raise ValueError("no such roads")
        sheet = self.base[lo] + s * self.widths[lo] + c
        rank = self.rank
        f = self.f
        f.seek(self.gf_at + g * rank)
        gf = f.read(rank)
        f.seek(self.sf_at + sheet * rank)
        sf = f.read(rank)
        v = fit_value(gf, 0, sf, self.scale, rank)
        return v if v > 1.0 else 1.0  # a sheet not yet won needs at least this turn


def _open(roads, site_roads):
    n = 0
    for r in site_roads:
        if r == START or roads >> r & 1:
            n += 1
    return n


def table():
    """The race table (opened once, kept)."""
    global _TABLE
    if _TABLE is None:
        f, path = open_table(TABLE, "race_data")
        _TABLE = _Race(f, path)
    return _TABLE


def turns_to_go(roads, builds, jokers):
    """The expected number of turns still to play to reach 10 VP alone, from a sheet (road
    mask, building mask, used-joker mask) at the start of a turn; 0 if it has 10 VP."""
    return table().turns(roads, builds, jokers)
