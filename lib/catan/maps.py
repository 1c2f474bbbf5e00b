"""The two printed islands as data: roads, sites, knights and jokers.

Everything the rules need to know about a sheet lives here, in one place, so that a
correction to a map is a data change (see ``shared/reference/maps.md``).

Items are numbered per island: roads first (``R0``..), then the other buildings
(settlements, cities, knights) in the order of the tables below. A player's sheet is
two bit masks: one bit per road and one bit per other building, both small ints.
"""

from catan import const

# Dice faces, in the order the rule book lists them. A die shows one of six faces.
BRICK = const(0)
LUMBER = const(1)
WOOL = const(2)
GRAIN = const(3)
ORE = const(4)
GOLD = const(5)
ANY = const(6)  # a "?" joker: any of the five resources (never gold)
FACE_NAMES = ("brick", "lumber", "wool", "grain", "ore", "gold", "any")

# Kinds of building.
ROAD = const(0)
SETTLEMENT = const(1)
CITY = const(2)
KNIGHT = const(3)
KIND_NAMES = ("road", "settlement", "city", "knight")

# Cost of each kind, as counts of brick, lumber, wool, grain, ore.
COSTS = (
    b"\x01\x01\x00\x00\x00",  # road: brick + lumber
    b"\x01\x01\x01\x01\x00",  # settlement: brick + lumber + wool + grain
    b"\x00\x00\x00\x02\x03",  # city: 2 grain + 3 ore
    b"\x00\x00\x01\x01\x01",  # knight: wool + grain + ore
)

START = const(255)  # "needs the starting road" / "needs nothing before it"


class Island:
    """One side of the sheet.

    roads:   bytes, for each road the road it hangs on (START for the starting road)
    names:   the names of the non-road buildings (``S3``, ``C7``, ``K1``...)
    kinds:   bytes, the kind of each non-road building
    values:  bytes, points (Island One) or victory points (Island Two) of each one
    site_road: bytes, the road a site hangs on (START: the starting road; knights: START)
    before:  bytes, the building that must be built first (Island One's ascending
             order), or START
    jokers:  tuple of (resource or ANY, bit mask of the knights that unlock it)
    road_points: points of a road (Island One 1, Island Two 0)
    """

    def __init__(self, number, roads, names, kinds, values, site_road, before,
                 jokers, road_points):
        self.number = number
        self.roads = roads
        self.names = names
        self.kinds = kinds
        self.values = values
        self.site_road = site_road
        self.before = before
        self.jokers = jokers
        self.road_points = road_points
        self.n_roads = len(roads)
        self.n_items = len(roads) + len(names)
        # What each item needs built first, as bit masks over the roads and over the
        # other buildings (a sheet's own two masks), so a test is two ANDs.
        self.need_roads = tuple(self._need_mask(i, True) for i in range(self.n_items))
        self.need_builds = tuple(self._need_mask(i, False) for i in range(self.n_items))

    def name(self, item):
        """The printed name of item number ``item`` (``R4``, ``S7``, ``K2``)."""
        if item < self.n_roads:
            return "R%d" % item
        return self.names[item - self.n_roads]

    def item(self, name):
        """The item number of a name such as ``R4`` or ``c12`` (ValueError if none)."""
        name = name.upper()
        for i in range(self.n_items):
            if self.name(i) == name:
                return i
        raise ValueError("no item %s on Island %d" % (name, self.number))

    def kind(self, item):
        """The kind (ROAD, SETTLEMENT, CITY, KNIGHT) of an item."""
        if item < self.n_roads:
            return ROAD
        return self.kinds[item - self.n_roads]

    def value(self, item):
        """Points (Island One) or victory points (Island Two) of an item."""
        if item < self.n_roads:
            return self.road_points
        return self.values[item - self.n_roads]

    def needs(self, item):
        """The items that must be built before ``item``: its road, and on Island One
        the building before it in ascending order."""
        roads, builds = self.need_roads[item], self.need_builds[item]
        return ([r for r in range(self.n_roads) if roads >> r & 1]
                + [self.n_roads + b for b in range(len(self.names)) if builds >> b & 1])

    def joker_of(self, knight):
        """The joker that knight ``knight`` (an item number) unlocks, or -1."""
        b = knight - self.n_roads
        if b >= 0:
            for j in range(len(self.jokers)):
                if self.jokers[j][1] >> b & 1:
                    return j
        return -1

    def joker_name(self, j, sep="+"):
        """A joker named by its knight(s): ``K3``, or ``K6+K7`` for one that needs two."""
        need = self.jokers[j][1]
        return sep.join(self.names[b] for b in range(len(self.names)) if need >> b & 1)

    def _need_mask(self, item, roads):
        if item < self.n_roads:
            need, other = self.roads[item], START
        else:
            b = item - self.n_roads
            need, other = self.site_road[b], self.before[b]
        if not roads:
            need = other
        return 0 if need == START else 1 << need

    def road_length(self, mask):
        """The longest continuous road of a sheet whose built roads are ``mask``: the
        longest simple path through them, the starting road included (branches do not
        add)."""
        n = self.n_roads
        # The roads form a tree hanging from the starting road, each listed after the
        # road it hangs on. top1/top2[r]: the two longest branches leaving the far end
        # of road r (index n: the starting road).
        top1 = bytearray(n + 1)
        top2 = bytearray(n + 1)
        best = 0
        for r in range(n - 1, -1, -1):
            if mask >> r & 1:
                best = max(best, top1[r] + top2[r])
                h = 1 + top1[r]
                q = self.roads[r]
                q = n if q == START else q
                if h > top1[q]:
                    top2[q] = top1[q]
                    top1[q] = h
                elif h > top2[q]:
                    top2[q] = h
        return max(best, top1[n] + top2[n], 1 + top1[n])

    def knights(self):
        """The item numbers of the knights, in printed order."""
        return [self.n_roads + b for b in range(len(self.kinds))
                if self.kinds[b] == KNIGHT]


def _knight_bits(kinds, *numbers):
    # Bit mask over the non-road buildings of the knights K<number>.
    mask = 0
    k = 0
    for b in range(len(kinds)):
        if kinds[b] == KNIGHT:
            k += 1
            if k in numbers:
                mask |= 1 << b
    return mask


# Island One (green side): score attack, everything in ascending order.
#   start [S3] - R0 - R1 [C7]
#                  \- R2 [S4] - R3 - R4 [C12]
#                                 \- R5 [S5] - R6 - R7 [S7] - R8 - R9 [S9] - R10 - R11 [S11]
#                                                        \- R12 - R13 [C20] - R14 - R15 [C30]
_S, _C, _K = SETTLEMENT, CITY, KNIGHT
_ONE_KINDS = bytes((_S,) * 6 + (_C,) * 4 + (_K,) * 6)
ISLAND_ONE = Island(
    1,
    roads=bytes((START, 0, 0, 2, 3, 3, 5, 6, 7, 8, 9, 10, 7, 12, 13, 14)),
    names=("S3", "S4", "S5", "S7", "S9", "S11", "C7", "C12", "C20", "C30",
           "K1", "K2", "K3", "K4", "K5", "K6"),
    kinds=_ONE_KINDS,
    values=bytes((3, 4, 5, 7, 9, 11, 7, 12, 20, 30, 1, 2, 3, 4, 5, 6)),
    site_road=bytes((START, 2, 5, 7, 9, 11, 1, 4, 13, 15) + (START,) * 6),
    #              S3 first, then each after the one before; C7 first; K1 first.
    before=bytes((START, 0, 1, 2, 3, 4, START, 6, 7, 8, START, 10, 11, 12, 13, 14)),
    # Knight n's joker: K1 ore, K2 grain, K3 wool, K4 lumber, K5 brick, K6 any.
    jokers=tuple(zip((ORE, GRAIN, WOOL, LUMBER, BRICK, ANY),
                     [_knight_bits(_ONE_KINDS, n) for n in range(1, 7)])),
    road_points=1,
)

# Island Two (red side, "Plus"): race to 10 VP, free order, deserts need two knights.
#   main line: start [S1] R0 R2 [S2] R3 R5* [S3] R6 R7 [C3] R8 R9 [S4] R10 R12 [S5]
#              R13 R14 [S6] R15 R16 [S7]; spurs R1 [C1] (from R0), R4 [C2] (from R3),
#              R11 [C4] (from R10). *R5 is the grey road (Longest Road).
_TWO_KINDS = bytes((_S,) * 7 + (_C,) * 4 + (_K,) * 9)
ISLAND_TWO = Island(
    2,
    roads=bytes((START, 0, 0, 2, 3, 3, 5, 6, 7, 8, 9, 10, 10, 12, 13, 14, 15)),
    names=("S1", "S2", "S3", "S4", "S5", "S6", "S7", "C1", "C2", "C3", "C4",
           "K1", "K2", "K3", "K4", "K5", "K6", "K7", "K8", "K9"),
    kinds=_TWO_KINDS,
    values=bytes((1,) * 7 + (2,) * 4 + (0,) * 9),
    site_road=bytes((START, 2, 5, 9, 12, 14, 16, 1, 4, 7, 11) + (START,) * 9),
    before=bytes((START,) * 20),
    # K1..K5 give their hex's resource; K6+K7 (top desert) and K8+K9 (centre desert)
    # each unlock one "?" joker.
    jokers=tuple(zip((ORE, GRAIN, WOOL, LUMBER, BRICK, ANY, ANY),
                     [_knight_bits(_TWO_KINDS, n) for n in range(1, 6)]
                     + [_knight_bits(_TWO_KINDS, 6, 7), _knight_bits(_TWO_KINDS, 8, 9)])),
    road_points=0,
)
GREY_ROAD = const(5)  # Island Two's R5: the first to build it takes Longest Road
WIN_VP = const(10)
AWARD_VP = const(2)
TURNS_ONE = const(15)  # Island One: turns per player
X_PENALTY = const(-2)  # Island One: a turn with no build


def island(number):
    """The Island object for 1 or 2."""
    if number == 1:
        return ISLAND_ONE
    if number == 2:
        return ISLAND_TWO
    raise ValueError("island must be 1 or 2")
