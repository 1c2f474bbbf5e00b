"""What a sheet is worth on each island, the value of a plan that ``Context.value`` asks for.

Island One: its points; MEDIUM adds a bonus for each unused joker while it can still help,
HARD the points still to come, from the exact solver's values through a compact table read
from flash (``coach_table.bin`` beside this module, made by tools/make_coach_table.py).
Island Two, the race to 10 victory points: EASY and MEDIUM the VP with the awards as they
would move, MEDIUM with progress toward sites, jokers and the awards; HARD minus the expected
turns still to play, the solo race's from the exact solver through ``race.py``, with the
awards as they would move: the solo race gives them to the grey road and the third knight, so
one that another player holds is 2 VP to make up (the sheet valued with 2 VP of buildings
fewer: taking an award over is worth it, and a sheet is never valued as a race won that the
game has not given it).
"""

from array import array

from catan import const
from catan.game import popcount
from catan.maps import AWARD_VP, GREY_ROAD, KNIGHT, START, TURNS_ONE, WIN_VP
from catan.players.tables import find_key, fit_value, open_table

_EASY = const(0)  # players.EASY
_MEDIUM = const(1)  # players.MEDIUM
_HARD = const(2)  # players.HARD


# ------------------------------------------------------------ Island One

def value_one(ctx, items, used):
    # ``Context.value`` on Island One: the points of building ``items`` now (jokers ``used``
    # after this turn); HARD adds the table's points still to come, MEDIUM a joker bonus.
    isl = ctx.isl
    nr = isl.n_roads
    roads, builds = ctx.roads, ctx.builds
    pts = 0
    for it in items:
        pts += isl.value(it)
        if it < nr:
            roads |= 1 << it
        else:
            builds |= 1 << (it - nr)
    if ctx.level == _HARD:
        t = ctx.game.turns[ctx.p] + 2  # the turn after this one
        return pts + island_one_value(t, roads, builds, used)
    if ctx.level == _EASY:
        return pts
    # MEDIUM: points, and a bonus for each unused unlocked joker while it can help.
    left = TURNS_ONE - 1 - ctx.game.turns[ctx.p]
    if left <= 0:
        return pts
    bonus = 0
    for j in range(len(isl.jokers)):
        need = isl.jokers[j][1]
        if builds & need == need and not used >> j & 1:
            bonus += 2 if left > 3 else 1
    return pts + bonus


# ------------------------------------------- the value table (HARD, the coach)

TABLE = "coach_table.bin"  # beside this module (made by tools/make_coach_table.py)
_ONE = None


class _Values:
    """The Island One value table, read from the file ``TABLE`` a turn's rows at a time (the
    bytes of a module would sit in the heap: 24 KB; this costs about 1.5 KB).

    The file: b"CDV1", rank R, turns T, groups G, sheets S, road masks N (<BBHHH), R scales
    (<d), N road masks (<H, ascending), GF (T * G * R signed bytes), SF (S * R signed bytes).
    V_t(g, s) ~= sum_r GF[t - 2, g, r] * SF[s, r] * scale[r]: the exact solver's values for
    turn t (2..T + 1) of knight-and-joker group g and sheet s (roads, settlements, cities).
    ``load`` reads its head from the open table (the file, or ``tables.InFlash`` in a game UF2)."""

    def load(self, f, path):
        # Read the head of the open table ``f`` and work out the sheets' numbering: a generator
        # that yields between slices (``table_work``; one generator, so 66 lines).
        import struct

        from catan.maps import CITY, ISLAND_ONE, SETTLEMENT

        head = f.read(12)
        if head[:4] != b"CDV1":
            f.close()
            raise ValueError("%s is not a value table" % path)
        rank, self.turns, self.groups, sheets, n = struct.unpack("<BBHHH", head[4:])
        self.scale = struct.unpack("<%dd" % rank, f.read(8 * rank))
        roads = f.read(2 * n)
        masks = array("H", bytes(2 * n))
        for i in range(n):
            masks[i] = roads[2 * i] | roads[2 * i + 1] << 8
            if not i & 31:
                yield
        self.masks = masks
        self.f = f
        self.rank = rank
        self.gf_at = 12 + 8 * rank + 2 * n
        self.sf_at = self.gf_at + self.turns * self.groups * rank
        self.rows = bytearray(self.groups * rank)  # GF of the turn ``self.t``
        self.cols = {}
        self.t = -1
        # Sheet s: the road masks in order, then within a mask the settlements x the cities
        # that its roads reach (the solver's numbering).
        isl = ISLAND_ONE
        chains = []
        for kind in (SETTLEMENT, CITY, KNIGHT):
            chain = []
            prev = START
            while True:
                nxt = -1
                for b in range(len(isl.kinds)):
                    if isl.kinds[b] == kind and isl.before[b] == prev:
                        nxt = b
                if nxt < 0:
                    break
                chain.append(nxt)
                prev = nxt
            chains.append(chain)
            yield
        self.chains = chains
        self.base = array("H", bytes(2 * n))
        self.widths = bytearray(n)
        total = 0
        for i in range(n):
            lim = []
            for chain in chains[:2]:
                k = 0
                while k < len(chain):
                    r = isl.site_road[chain[k]]
                    if r != START and not masks[i] >> r & 1:
                        break
                    k += 1
                lim.append(k)
            self.base[i] = total
            self.widths[i] = lim[1] + 1
            total += (lim[0] + 1) * (lim[1] + 1)
            if not i & 15:
                yield
        if total != sheets:
            raise ValueError("%s does not match the map" % path)

    def value(self, t, roads, builds, used):
        if t > self.turns + 1:
            return 0.0
        lev = [0, 0, 0]
        for c in range(3):
            chain = self.chains[c]
            k = 0
            while k < len(chain) and builds >> chain[k] & 1:
                k += 1
            lev[c] = k
        lo = find_key(self.masks, roads)
        s = self.base[lo] + lev[0] * self.widths[lo] + lev[1]
        k = lev[2]
        g = (1 << k) - 1 + (used & ((1 << k) - 1))
        rank = self.rank
        f = self.f
        if t != self.t:
            f.seek(self.gf_at + (t - 2) * self.groups * rank)
            f.readinto(self.rows)
            self.t = t
            self.cols = {}  # SF rows read this turn, by sheet (a turn meets a few dozen)
        sf = self.cols.get(s)
        if sf is None:
            f.seek(self.sf_at + s * rank)
            sf = self.cols[s] = f.read(rank)
        return fit_value(self.rows, g * rank, sf, self.scale, rank)


def value_table():
    """The Island One value table (opened once, kept)."""
    if _ONE is None:
        for _ in table_work():
            pass
    return _ONE


def table_work():
    # Open the value table if it is not open yet: a generator that yields between slices
    # (the work ahead opens it before HARD's first decision, see ``reroll._work``).
    global _ONE
    if _ONE is None:
        f, path = open_table(TABLE, "coach_data")
        table = _Values()
        yield from table.load(f, path)
        _ONE = table


def island_one_value(t, roads, builds, used):
    """The value table's estimate of the points still to come from turn ``t`` (2..16) on,
    for a sheet (road mask, building mask) and the used-joker mask."""
    return value_table().value(t, roads, builds, used)


# ------------------------------------------------------------ Island Two

# Island Two progress weights: open site VP, unused jokers, knights toward an unclaimed /
# a held Largest Army, roads toward the grey road / any road while another holds it,
# a build that would win next turn.
W2 = [0.3, 0.5, 0.6, 0.3, 0.45, 0.1, 1.0]
# HARD with other players: the turns a VP of an award another player holds costs where the
# sheet has too few buildings to value it without them.
SHORT_TURNS = 0.75
_GREY_PATH = const(0x0D)  # R0, R2, R3: the roads before the grey road R5


def two_setup(ctx):
    # What ``value_two`` needs, once a decision: the knights' mask, every player's road
    # length and knights now.
    g = ctx.game
    isl = ctx.isl
    ctx.km = 0
    for k in isl.knights():
        ctx.km |= 1 << (k - isl.n_roads)
    n = g.players
    ctx.opp_len = [g.road_length(o) for o in range(n)]
    ctx.opp_kn = [g.knights(o) for o in range(n)]


def _race(ctx, roads, builds, used):
    # The expected turns to 10 VP after this turn (``race.turns_to_go``), kept for the
    # decision: its plans meet the same sheets again and again. At most 48 kept (the dict
    # stays a small block: a Pico W's heap has no large ones to spare).
    memo = getattr(ctx, "race", None)
    if memo is None or len(memo) >= 48:
        memo = ctx.race = {}
    key = (roads, builds, used)
    v = memo.get(key)
    if v is None:
        from catan.players.race import turns_to_go

        v = memo[key] = turns_to_go(roads, builds, used)
    return v


def value_two(ctx, items, used):
    # ``Context.value`` on Island Two: the VP after building ``items`` now (jokers ``used``
    # after this turn), with the awards as they would move, and (MEDIUM, HARD) progress.
    # (84 lines: called for every plan of every roll, it keeps the sheet in locals)
    isl = ctx.isl
    g = ctx.game
    nr = isl.n_roads
    p = ctx.p
    roads, builds = ctx.roads, ctx.builds
    for it in items:
        if it < nr:
            roads |= 1 << it
        else:
            builds |= 1 << (it - nr)
    longest, largest = g.longest, g.largest
    if roads != ctx.roads and longest != p:
        if longest < 0:
            if roads >> GREY_ROAD & 1:
                longest = p
        elif isl.road_length(roads) > ctx.opp_len[longest]:
            longest = p
    kn = popcount(builds & ctx.km)
    if kn != ctx.opp_kn[p] and largest != p:
        if largest < 0:
            if kn >= 3:
                largest = p
        elif kn > ctx.opp_kn[largest]:
            largest = p
    vp = 0
    sites = 0.0
    best_site = 0
    for b in range(len(isl.names)):
        if builds >> b & 1:
            vp += isl.values[b]
        elif isl.kinds[b] != KNIGHT:
            r = isl.site_road[b]
            if r == START or roads >> r & 1:
                sites += isl.values[b]
                if isl.values[b] > best_site:
                    best_site = isl.values[b]
    if longest == p:
        vp += AWARD_VP
    if largest == p:
        vp += AWARD_VP
    if ctx.level == _HARD:  # the race: minus the expected turns still to play
        if vp >= WIN_VP:
            return 0.0
        # The solo race gives the awards to the grey road and the third knight: one that
        # another player holds (after this plan) is 2 VP to make up, so the sheet is valued
        # with 2 VP of buildings fewer (a city, else two settlements).
        short = 0
        if longest >= 0 and longest != p:
            short += AWARD_VP
        if largest >= 0 and largest != p:
            short += AWARD_VP
        for worth in (2, 1):
            for b in range(len(isl.names)):
                if short >= worth and builds >> b & 1 and isl.values[b] == worth:
                    builds &= ~(1 << b)
                    short -= worth
        return -_race(ctx, roads, builds, used) - short * SHORT_TURNS
    if vp >= WIN_VP:
        return 1000.0 - len(items) * 0.01
    if ctx.level == _EASY:  # points, and roads that open sites
        return vp + 0.1 * sites + 0.05 * popcount(roads)
    # A build that would win next turn is worth most near the end.
    finish = best_site >= WIN_VP - vp
    if not finish and largest != p and WIN_VP - vp <= AWARD_VP:
        finish = kn + 1 >= 3 if largest < 0 else kn + 1 > ctx.opp_kn[largest]
    # Progress: open sites, jokers in hand, knights and roads toward the awards.
    jok = 0
    for j in range(len(isl.jokers)):
        need = isl.jokers[j][1]
        if builds & need == need and not used >> j & 1:
            jok += 1
    prog = W2[0] * sites + W2[1] * jok + (W2[6] if finish else 0)
    if largest < 0:
        prog += W2[2] * min(kn, 2)
    elif largest != p:
        prog += W2[3] * kn
    if longest < 0:
        prog += W2[4] * popcount(roads & _GREY_PATH)
    elif longest != p:
        prog += W2[5] * popcount(roads)
    return vp + prog
