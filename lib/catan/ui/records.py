"""Settings, statistics and high scores as small byte records (the store writes them to flash).

    s = Settings.load(store); s.speed = 2; s.save(store)
    st = Stats.load(store); st.add_one(score, xs); st.add_dice(counts); st.save(store)

Each record starts with a tag and a version; a record that does not parse is reported
(``problem``) and replaced by defaults, never raised. Numbers are big-endian.
"""

from catan import const

_SETTINGS = const(b"S\x02")
_SETTINGS_V1 = const(b"S\x01")  # the first four settings only (no new-game setup)
_HUMAN = const(255)  # a seat a person plays (app.HUMAN); computer levels are 0..2
_STATS = const(b"T\x02")
_STATS_V1 = const(b"T\x01")  # the same fields; its ``last`` was always 1 (see Stats.last)
BINS = const(14)  # histogram bars
HIGH = const(5)  # high-score entries per island
SPEEDS = ("slow", "normal", "fast", "instant")
STEP_MS = (1200, 600, 250, 0)  # a computer's pause between actions, per speed


def _get(b, i, n):
    v = 0
    for k in range(n):
        v = (v << 8) | b[i + k]
    return v


def _get_signed(b, i, n):
    v = _get(b, i, n)
    return v - (1 << (8 * n)) if v >> (8 * n - 1) else v


def _put(out, v, n, signed=False):
    # ``v`` in ``n`` bytes (two's complement if ``signed``), held to what they can store: a
    # counter that outgrows its field stops at the top rather than wrapping to a number it
    # never was, so every record written reads back as near as it can be.
    top = 1 << (8 * n - (1 if signed else 0))
    v = min(max(v, -top if signed else 0), top - 1)
    for k in range(n - 1, -1, -1):
        out.append((v >> (8 * k)) & 0xFF)


def _initials(text):
    # Three printable ASCII characters (what the font draws and the record holds): anything
    # else becomes "?", so the record always reads back.
    out = ""
    for ch in (text + "   ")[:3]:
        out += ch if " " <= ch <= "~" else "?"
    return out


def _seat_ok(v):
    return v == _HUMAN or v < 3


class Settings:
    """brightness 1..10, swap (A and B exchanged), speed (index of SPEEDS), coach on/off, and
    the new-game form's last setup: island (1 or 2) and seats (bytes, a level per seat)."""

    NAME = "settings"

    def __init__(self):
        self.brightness = 8
        self.swap = 0
        self.speed = 1
        self.coach = 0  # the review costs a coach evaluation per action: opt in
        self.island = 1
        self.seats = bytes((_HUMAN,))
        self.saved = None  # the record as last read or written (see save)
        self.problem = None
        self.bad = None  # the unreadable record, for the app to set aside

    @classmethod
    def load(cls, store):
        s = cls()
        data = store.read(cls.NAME)
        if data:
            # version 2 adds the setup: island, the number of seats, then four levels
            v2 = (len(data) == 12 and data[:2] == _SETTINGS and 1 <= data[6] <= 2
                  and 1 <= data[7] <= 4 and _seat_ok(data[8]) and _seat_ok(data[9])
                  and _seat_ok(data[10]) and _seat_ok(data[11]))
            if ((v2 or len(data) == 6 and data[:2] == _SETTINGS_V1) and 1 <= data[2] <= 10
                    and data[3] < 2 and data[4] < len(SPEEDS) and data[5] < 2):
                s.brightness = data[2]
                s.swap = data[3] & 1
                s.speed = data[4]
                s.coach = data[5] & 1
                if v2:
                    s.island = data[6]
                    s.seats = bytes(data[8:8 + data[7]])
                    s.saved = bytes(data)
            else:
                s.problem = "settings were unreadable: defaults restored"
                s.bad = data
        return s

    def dumps(self):
        n = len(self.seats)
        return _SETTINGS + bytes((self.brightness, self.swap, self.speed, self.coach,
                                  self.island, n)) + bytes(self.seats) + bytes((1,) * (4 - n))

    def save(self, store, changed=False):
        """Write the record (with ``changed``, only if it differs from the one last read or
        written); False if the store failed."""
        data = self.dumps()
        if changed and data == self.saved:
            return True
        ok = store.write(self.NAME, data)
        self.saved = data if ok else None
        return ok


class Stats:
    """Per island: games, total, best, Xs (Island One) or wins and turns (Island Two), a
    histogram, and the high scores; lifetime counts of every die face rolled.

    Island One records a human seat's final score. Island Two records each human seat's
    game and, when it won, its turns to 10 VP (fewer is better: its "best" and high scores).
    """

    NAME = "stats"

    def __init__(self):
        self.games = [0, 0]
        self.total = [0, 0]  # Island One: sum of scores; Island Two: sum of turns of wins
        self.best = [0, 0]  # meaningful once a game (Island One) or a win (Two) is counted
        self.extra = [0, 0]  # Island One: Xs entered; Island Two: wins
        self.hist = [[0] * BINS, [0] * BINS]
        self.high = [[], []]  # per island: [(value, initials)], best first
        self.dice = [0] * 6
        # the last game recorded, by its save's CRC-16 (a game is counted once); 0: none. Version
        # 1 wrote 1 for every game (it took the CRC of a save followed by its own CRC, always
        # 0): read as 0, so the next game is counted
        self.last = 0
        self.problem = None
        self.bad = None  # the unreadable record, for the app to set aside

    @staticmethod
    def bin_of(island, value):
        """The histogram bar of a score (Island One, 10 points a bar, below 10 in the first)
        or of a number of turns to win (Island Two: the first bar is 7 turns, the fewest
        that can reach 10 VP, counting the winning turn)."""
        b = value // 10 if island == 1 else value - 7
        return min(max(b, 0), BINS - 1)

    def add_one(self, score, xs):
        self.games[0] += 1
        self.total[0] += score
        self.extra[0] += xs
        if self.games[0] == 1 or score > self.best[0]:
            self.best[0] = score
        self.hist[0][self.bin_of(1, score)] += 1

    def add_two(self, won, turns):
        self.games[1] += 1
        if won:
            self.extra[1] += 1
            self.total[1] += turns
            if self.extra[1] == 1 or turns < self.best[1]:
                self.best[1] = turns
            self.hist[1][self.bin_of(2, turns)] += 1

    def qualifies(self, island, value):
        """Whether ``value`` enters the island's high-score table."""
        h = self.high[island - 1]
        if len(h) < HIGH:
            return True
        worst = h[-1][0]
        return value > worst if island == 1 else value < worst

    def add_high(self, island, value, initials):
        h = self.high[island - 1]
        i = 0
        while i < len(h) and (h[i][0] >= value if island == 1 else h[i][0] <= value):
            i += 1
        h.insert(i, (value, _initials(initials)))
        del h[HIGH:]

    def name_high(self, island, value, old, initials):
        """Give the high score ``(value, old)`` entered last its ``initials`` (entered at a
        game's end with a stand-in, so that the score is kept before anything is asked)."""
        h = self.high[island - 1]
        old = _initials(old)
        for i in range(len(h) - 1, -1, -1):
            if h[i] == (value, old):
                h[i] = (value, _initials(initials))
                return

    def add_dice(self, counts):
        for f in range(6):
            self.dice[f] += counts[f]

    def dumps(self):
        out = bytearray(_STATS)
        for i in range(2):
            _put(out, self.games[i], 3)
            _put(out, self.total[i], 4, True)
            _put(out, self.best[i] + 1, 2, True)  # + 1: version 1 wrote -1 for "none yet"
            _put(out, self.extra[i], 3)
            for n in self.hist[i]:
                _put(out, n, 3)
            out.append(len(self.high[i]))
            for value, initials in self.high[i]:
                _put(out, value + 0x8000, 2)
                out.extend(_initials(initials).encode())
        for n in self.dice:
            _put(out, n, 4)
        _put(out, self.last, 2)
        return bytes(out)

    @classmethod
    def load(cls, store):
        s = cls()
        data = store.read(cls.NAME)
        if data:
            try:
                s._parse(data)
            except (IndexError, ValueError):
                s.__init__()
                s.problem = "statistics were unreadable: started afresh"
                s.bad = data
        return s

    def _parse(self, b):
        if b[:2] != _STATS and b[:2] != _STATS_V1:
            raise ValueError("not statistics")
        i = 2
        for k in range(2):
            self.games[k] = _get(b, i, 3)
            self.total[k] = _get_signed(b, i + 3, 4)
            self.best[k] = _get_signed(b, i + 7, 2) - 1
            self.extra[k] = _get(b, i + 9, 3)
            i += 12
            self.hist[k] = [_get(b, i + 3 * j, 3) for j in range(BINS)]
            i += 3 * BINS
            n = b[i]
            i += 1
            if n > HIGH:
                raise ValueError("too many high scores")
            h = []
            for _ in range(n):
                text = bytes(b[i + 2:i + 5])
                for ch in text:
                    if not 32 <= ch <= 126:
                        raise ValueError("initials")
                v = _get(b, i, 2) - 0x8000
                if h and (v > h[-1][0] if k == 0 else v < h[-1][0]):
                    raise ValueError("high scores out of order")
                h.append((v, text.decode()))
                i += 5
            self.high[k] = h
        self.dice = [_get(b, i + 4 * f, 4) for f in range(6)]
        i += 24
        self.last = _get(b, i, 2) if b[:2] == _STATS else 0
        if i + 2 != len(b):
            raise ValueError("wrong length")

    def save(self, store):
        return store.write(self.NAME, self.dumps())
