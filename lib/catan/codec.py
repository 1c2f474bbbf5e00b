"""Saves: a game in progress as compact, versioned, checksummed bytes, and back.

The core never touches files: ``dumps`` gives bytes and ``loads`` takes them (the
firmware and the simulator write them). A save holds every sheet as it stood when the
current turn began, then the current turn's actions from the game log (rolls with their
faces), so loading replays the turn through the rules and undo still works after a
power cut. Layout, big-endian:

    "CDG" version:1 island:1 players:1 flags:1 seed:4
    player:1 game_turn:4 longest:1 largest:1           (255: nobody)
    per player: roads:3 builds:3 jokers:1 turns:4 [Island One: 15 boxes, signed]
    turn_log_length:4 turn_log
    crc16:2                                            (CRC-16/CCITT of all before it)

The handheld's record of a game in progress wraps a save with its seats (``pack_save``,
``unpack_save``): "H" seats:1 levels:seats crc16:2 (of those before it), then the save. A level
is 0, 1, 2 (easy, medium, hard) or 255 (a person); "G" is the same without the CRC (still
loads).

Version 1 had 2 bytes for game_turn, turns and turn_log_length, which wrapped (a solo race
has no last turn, and undo lets a turn's log grow); it still loads. ``dumps`` raises
``SaveError`` rather than write a number its field cannot hold, so a save it writes always
loads. Anything that is not such a save (truncated, corrupted, foreign, or a state the
rules could not reach, such as more built than the dice could pay for) raises
``SaveError`` and nothing else.
"""

from catan import const
from catan.dice import SeededDice
from catan.game import Game, IllegalAction
from catan.maps import COSTS, GREY_ROAD, TURNS_ONE, WIN_VP, X_PENALTY

MAGIC = b"CDG"
VERSION = const(2)
_WIDE = const(4)  # bytes of the counters that grow (2 in version 1)
_SEEDED = const(1)  # flags bit 0: the dice are seeded by ``seed``
_NOBODY = const(255)
SAVE_TAG = b"H"  # a game record's first byte (``pack_save``)
_OLD_TAG = const(b"G")  # the same without the seats' CRC
_PERSON = const(255)  # a seat's level: a person's
_LEVELS = const(3)  # and the computers' (easy, medium, hard)


class SaveError(ValueError):
    """The bytes are not a save this version can load; ``str(error)`` says why."""


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of ``data`` (bytes-like)."""
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def _put(buf, value, size):
    if not 0 <= value < 1 << (8 * size):
        raise SaveError("a number too large for the save")
    for shift in range((size - 1) * 8, -1, -8):
        buf.append((value >> shift) & 0xFF)


def dumps(game):
    """The save of ``game`` as bytes."""
    g = game
    seed = getattr(g.dice, "seed", None)
    out = bytearray(MAGIC)
    out.append(VERSION)
    out.append(g.island.number)
    out.append(g.players)
    out.append(_SEEDED if seed is not None else 0)
    _put(out, seed or 0, 4)
    roads, builds, jokers, longest, largest, log_at = g.turn_start
    out.append(g.player)
    _put(out, g.game_turn, _WIDE)
    out.append(longest & 0xFF)
    out.append(largest & 0xFF)
    for p in range(g.players):
        now = p == g.player
        _put(out, roads if now else g.roads[p], 3)
        _put(out, builds if now else g.builds[p], 3)
        out.append(jokers if now else g.jokers[p])
        _put(out, g.turns[p], _WIDE)
        if g.island.number == 1:
            for t in range(TURNS_ONE):
                out.append(g.track[p * TURNS_ONE + t] & 0xFF)
    turn_log = g.log[log_at:]
    _put(out, len(turn_log), _WIDE)
    out += turn_log
    _put(out, crc16(out), 2)
    return bytes(out)


class _Reader:
    def __init__(self, data):
        self.data = data
        self.at = 0

    def take(self, size):
        if self.at + size > len(self.data):
            raise SaveError("the save is cut short")
        v = 0
        for i in range(self.at, self.at + size):
            v = (v << 8) | self.data[i]
        self.at += size
        return v

    def bytes(self, size):
        if self.at + size > len(self.data):
            raise SaveError("the save is cut short")
        self.at += size
        return self.data[self.at - size:self.at]


def _signed(byte):
    return byte - 256 if byte > 127 else byte


def loads(data, dice=None):
    """The game saved in ``data``. ``dice`` is the source for the rest of the game when
    the save is not seeded (the device passes its hardware dice)."""
    data = bytes(data)
    if len(data) < 16 or data[:3] != MAGIC:
        raise SaveError("not a Catan Dice Game save")
    if not 1 <= data[3] <= VERSION:
        raise SaveError("save version %d is not supported" % data[3])
    wide = 2 if data[3] == 1 else _WIDE
    if crc16(data[:-2]) != (data[-2] << 8 | data[-1]):
        raise SaveError("the save is damaged (checksum)")
    r = _Reader(data[:-2])
    r.at = 4
    number, players, flags, seed = r.take(1), r.take(1), r.take(1), r.take(4)
    if number not in (1, 2) or not 1 <= players <= 4 or flags & ~_SEEDED:
        raise SaveError("the save's header is not valid")
    if flags & _SEEDED:
        dice = SeededDice(seed)
    g = Game(number, players, dice)
    g.player = r.take(1)
    g.game_turn = r.take(wide)
    longest, largest = r.take(1), r.take(1)
    g.longest = -1 if longest == _NOBODY else longest
    g.largest = -1 if largest == _NOBODY else largest
    for p in range(players):
        g.roads[p] = r.take(3)
        g.builds[p] = r.take(3)
        g.jokers[p] = r.take(1)
        g.turns[p] = r.take(wide)
        if number == 1:
            for t in range(TURNS_ONE):
                g.track[p * TURNS_ONE + t] = _signed(r.take(1))
    turn_log = r.bytes(r.take(wide))
    if r.at != len(r.data):
        raise SaveError("the save has bytes after its end")
    why = _why_unreachable(g)
    if why:
        raise SaveError("the save holds an impossible game: " + why)
    g._begin_turn()
    try:
        g.apply_log(turn_log)
    except IllegalAction as e:
        raise SaveError("the save's last turn does not follow the rules: %s" % e)
    if g.turn_start[5]:  # an end of turn in it: dumps starts a save's log at its turn's start
        raise SaveError("the save's last turn goes on past its end")
    return g


def _why_unreachable(g):
    # Checks that the sheets, turns and awards are a state the rules can reach at the
    # start of a turn, so that a damaged save never becomes a wrong game.
    isl = g.island
    n = g.players
    if g.player >= n or g.longest >= n or g.largest >= n:
        return "a seat that does not exist"
    if g.game_turn != sum(g.turns):
        return "the turn count"
    for p in range(n):
        expected = g.turns[g.player] + (1 if p < g.player else 0)
        if g.turns[p] != expected:
            return "turns out of seat order"
        if g.roads[p] >> isl.n_roads or g.builds[p] >> len(isl.names):
            return "an item that is not on the map"
        if g.jokers[p] >> len(isl.jokers):
            return "a joker that is not on the map"
        for item in range(isl.n_items):
            if g.is_built(item, p):
                for need in isl.needs(item):
                    if not g.is_built(need, p):
                        return "%s built before %s" % (isl.name(item), isl.name(need))
        for j in range(len(isl.jokers)):
            if g.jokers[p] >> j & 1 and not g.joker_unlocked(j, p):
                return "a joker used before its knight"
        if _dice_spent(g, p) > _dice_rolled(g, p):
            return "more built than the dice of its turns could pay for"
        if isl.number == 1:
            why = _why_track(g, p)
            if why:
                return why
        elif g.vp(p) >= WIN_VP:
            return "a player past 10 VP"
    if isl.number == 1:
        if g.longest >= 0 or g.largest >= 0:
            return "an award on Island One"
    else:
        why = _why_awards(g)
        if why:
            return why
    return None


def _dice_spent(g, p):
    # Every build spends the dice of its cost (a joker turns a die, a trade spends two for
    # one: neither adds a die), so this is the fewest dice that can have built the sheet.
    isl = g.island
    n = 0
    for item in range(isl.n_items):
        if g.is_built(item, p):
            n += sum(COSTS[isl.kind(item)])
    return n


def _dice_rolled(g, p):
    # The dice seat p's finished turns rolled: six a turn, or Island Two's ramp (3, 4, 5,
    # then 6 by game turn) when several play. Seat p's k-th turn is game turn k * n + p.
    t = g.turns[p]
    if g.island.number == 1 or g.players == 1:
        return 6 * t
    n = 0
    for k in range(min(t, 4)):
        n += min(6, k * g.players + p + 3)
    return n + 6 * max(0, t - 4)


def _why_track(g, p):
    # Island One: at most 15 boxes, each X or positive, adding up to what is built.
    if g.turns[p] > TURNS_ONE:
        return "more than 15 turns"
    isl = g.island
    total = 0
    for t in range(TURNS_ONE):
        box = g.track[p * TURNS_ONE + t]
        if t >= g.turns[p] and box != 0 or t < g.turns[p] and box != X_PENALTY and box < 1:
            return "the score track"
        if box > 0:
            total += box
    built = sum(isl.value(i) for i in range(isl.n_items) if g.is_built(i, p))
    if total != built:
        return "the score track does not match the sheet"
    return None


def _why_awards(g):
    # Island Two: each award is held by the leader once anyone qualifies, and only then.
    seats = range(g.players)
    grey = [p for p in seats if g.roads[p] >> GREY_ROAD & 1]
    if (g.longest >= 0) != bool(grey):
        return "Longest Road and the grey road disagree"
    if g.longest >= 0:
        if g.longest not in grey:
            return "Longest Road without the grey road"
        if max(g.road_length(p) for p in seats) > g.road_length(g.longest):
            return "Longest Road held by a shorter road"
    most = max(g.knights(p) for p in seats)
    if (g.largest >= 0) != (most >= 3):
        return "Largest Army and the knights disagree"
    if g.largest >= 0 and g.knights(g.largest) < most:
        return "Largest Army held by fewer knights"
    return None


def pack_save(game, levels):
    """The handheld's record of ``game`` with its seats' ``levels`` (bytes, 255 a person): a
    tag, the seat count, the levels and their CRC-16 (the save's own checksum covers only the
    game), then ``dumps(game)``."""
    head = SAVE_TAG + bytes((game.players,)) + bytes(levels)
    c = crc16(head)
    return head + bytes((c >> 8, c & 0xFF)) + dumps(game)


def unpack_save(data, dice=None):
    """``(game, levels)`` from a record of ``pack_save`` (``dice``: as ``loads``); SaveError
    with the reason for anything else. The wrapper is outside the save's checksum (and a store
    may have none): every byte is checked, and a level that is not a level is damage."""
    tag = data[:1]
    if tag not in (SAVE_TAG, _OLD_TAG) or len(data) < 2 or not 1 <= data[1] <= 4:
        raise SaveError("not a saved game of this app")
    n = data[1]
    at = 2 + n + (2 if tag == SAVE_TAG else 0)
    if len(data) < at:
        raise SaveError("the save is cut short")
    if tag == SAVE_TAG and crc16(data[:2 + n]) != data[2 + n] << 8 | data[3 + n]:
        raise SaveError("the seats are damaged (checksum)")
    game = loads(bytes(data[at:]), dice)
    if game.players != n:
        raise SaveError("the seats do not match the game")
    levels = bytes(data[2:2 + n])
    for v in levels:
        if v != _PERSON and v >= _LEVELS:
            raise SaveError("a seat's level is damaged")
    return game, levels
