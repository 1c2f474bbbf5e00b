"""A game of either island for 1 to 4 players: its state, every action, and the questions
a screen or a computer player asks about them.

Each action is a method (``roll``, ``stop``, ``joker``, ``trade``, ``build``, ``undo``,
``end_turn``). An action the rules do not allow raises ``IllegalAction`` with a reason
for a person and changes nothing; the matching ``why_*`` method gives the same reason
(or None) without acting. Every accepted action is appended to ``log`` (rolls with their
faces), so a game replays exactly from its log (``Game.replay``).

The state is small ints, bit masks and byte arrays: per player a road mask, a building
mask, a joker mask, the number of turns played and (Island One) the score track.
"""

from array import array

from catan import const
from catan.maps import (ANY, AWARD_VP, COSTS, FACE_NAMES, GOLD, GREY_ROAD, KNIGHT,
                        TURNS_ONE, WIN_VP, X_PENALTY, island)


class IllegalAction(Exception):
    """An action the rules do not allow now. ``str(error)`` is the reason; the game is
    unchanged."""


# Phases of a turn.
ROLL = const(0)  # the turn has begun: roll the dice
REROLL = const(1)  # rolled: roll some dice again, or stop rolling
BUILD = const(2)  # rolling is over: jokers, gold trades, builds, then end the turn
OVER = const(3)  # the game has ended

# Action codes, as they stand in the log.
OP_ROLL = const(0)  # mask of the dice thrown, then their faces, two to a byte
OP_STOP = const(1)
OP_BUILD = const(2)  # item
OP_JOKER = const(3)  # joker << 3 | die, resource
OP_TRADE = const(4)  # resource
OP_UNDO = const(5)
OP_END = const(6)
OP_ARGS = b"\x01\x00\x01\x02\x01\x00\x00"  # bytes after the code (a roll adds faces)

_ROLLS = const(3)
_DICE = const(6)


def popcount(x):
    """The number of bits set in a small non-negative int."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


class Game:
    """A game in progress. ``Game(1, 2, dice)``: Island One for two players.

    ``dice`` is a dice source (see ``catan.dice``). Island Two with one player is the
    solo race (6 dice every turn, awards uncontested, counted in turns to 10 VP).
    """

    # (About 570 lines, one class: the state and every rule that changes it, each rule's checks
    # beside its action, so that a rule is read in one place.)

    def __init__(self, island_number, players, dice):
        if not 1 <= players <= 4:
            raise ValueError("1 to 4 players")
        self.island = isl = island(island_number)
        self.players = players
        self.dice = dice
        self.roads = [0] * players  # bit r: road Rr built (the starting road is free)
        self.builds = [0] * players  # bit b: non-road building b built
        self.jokers = bytearray(players)  # bit j: joker j used
        self.turns = [0] * players  # turns each player has completed
        # Island One: the score track, 15 boxes per player; X is stored as -2.
        self.track = array("b", bytes(TURNS_ONE * players if isl.number == 1 else 0))
        self.longest = -1  # Island Two: who holds Longest Road (-1: nobody)
        self.largest = -1  # Island Two: who holds Largest Army
        self.winner = -1  # Island Two: who reached 10 VP
        self.player = 0  # whose turn it is
        self.game_turn = 0  # turns completed in the whole game
        self.faces = bytearray(_DICE)
        self.log = bytearray()
        self._knight_mask = 0
        for k in isl.knights():
            self._knight_mask |= 1 << (k - isl.n_roads)
        self._begin_turn()

    # ----------------------------------------------------------------- the turn

    def _begin_turn(self):
        p = self.player
        over = self.island.number == 1 and self.turns[-1] >= TURNS_ONE
        self.phase = OVER if over else ROLL
        # The current player's sheet and the awards as the turn began (for saves).
        self.turn_start = (self.roads[p], self.builds[p], self.jokers[p],
                           self.longest, self.largest, len(self.log))
        self.rolls = 0  # rolls made this turn
        self.spent = 0  # bit i: die i spent (on a build, or put aside by a trade)
        self.points = 0  # Island One: points built this turn
        self.built = 0  # builds made this turn
        for i in range(_DICE):
            self.faces[i] = 0
        self._mark = None  # the state when rolling ended, for undo
        self._acts = []  # actions since then, for undo

    def dice_count(self):
        """How many dice this turn rolls: 6, or Island Two's ramp (3, 4, 5, then 6)."""
        if self.island.number == 1 or self.players == 1:
            return _DICE
        return min(_DICE, self.game_turn + 3)

    def rolls_left(self):
        return _ROLLS - self.rolls if self.phase <= REROLL else 0

    def unspent(self):
        """Counts of the unspent dice by face: a list of six."""
        counts = [0] * 6
        for i in range(self.dice_count()):
            if not self.spent >> i & 1:
                counts[self.faces[i]] += 1
        return counts

    def over(self):
        return self.phase == OVER

    def turns_taken(self, p):
        """The turns player ``p`` has taken: those completed and, once the game is over, the
        turn it ended in (Island Two's race is won during a turn, which never ends)."""
        n = self.turns[p]
        if self.phase == OVER and self.island.number == 2 and p == self.player:
            n += 1
        return n

    # ------------------------------------------------------------------ rolling

    def why_roll(self, mask=None):
        """Why the dice in ``mask`` (bit i: die i; None: all) cannot be rolled, or None."""
        full = (1 << self.dice_count()) - 1
        if self.phase == OVER:
            return "the game is over"
        if self.phase == BUILD or self.rolls >= _ROLLS:
            return "no rolls left this turn"
        if mask is not None:
            if mask & ~full or mask < 0:
                return "there are only %d dice" % self.dice_count()
            if self.phase == ROLL and mask != full:
                return "the first roll throws all the dice"
            if not mask:
                return "choose at least one die to roll"
        return None

    def roll(self, mask=None):
        """Roll the dice in ``mask`` (None: all of them). Returns the faces."""
        self._check(self.why_roll(mask))
        if mask is None:
            mask = (1 << self.dice_count()) - 1
        key = (self.turns[self.player] * _ROLLS + self.rolls) * 8
        faces = [self.dice.face(key + i) for i in range(_DICE) if mask >> i & 1]
        self._roll(mask, faces)
        return self.faces

    def _roll(self, mask, faces):
        # The faces of a roll are given: drawn from the dice source, or read from a log.
        for f in faces:
            if not 0 <= f <= GOLD:
                raise IllegalAction("a die has no face %d" % f)
        self.log.append(OP_ROLL)
        self.log.append(mask)
        k = 0
        for i in range(_DICE):
            if mask >> i & 1:
                f = faces[k]
                self.faces[i] = f
                if k & 1:
                    self.log[-1] |= f << 4
                else:
                    self.log.append(f)
                k += 1
        self.rolls += 1
        self.phase = REROLL if self.rolls < _ROLLS else BUILD
        if self.phase == BUILD:
            self._mark_rolled()

    def why_stop(self):
        """Why rolling cannot be ended now, or None."""
        if self.phase == BUILD:
            return "rolling is over already"
        return self._why_not_building()

    def stop(self):
        """End rolling and keep the faces: the build phase begins."""
        self._check(self.why_stop())
        self.phase = BUILD
        self._mark_rolled()
        self.log.append(OP_STOP)

    def _mark_rolled(self):
        p = self.player
        self._mark = (self.roads[p], self.builds[p], self.jokers[p], bytes(self.faces),
                      self.longest, self.largest)
        self._acts = []

    def _why_not_building(self):
        if self.phase == OVER:
            return "the game is over"
        if self.phase == ROLL:
            return "roll the dice first"
        return None

    # ------------------------------------------------------------------ jokers

    def joker_unlocked(self, j, p=None):
        """Whether joker ``j`` has its knight(s) built on player ``p``'s sheet."""
        need = self.island.jokers[j][1]
        return self.builds[self.player if p is None else p] & need == need

    def why_joker(self, j, die, resource=None):
        """Why joker ``j`` cannot turn die ``die`` to ``resource`` now, or None."""
        why = self._why_not_building()
        if why:
            return why
        isl = self.island
        if not 0 <= j < len(isl.jokers):
            return "there is no joker %d" % j
        gives, _ = isl.jokers[j]
        if self.joker_used(j):
            return "that joker is used"
        if not self.joker_unlocked(j):
            return "build %s first" % self.joker_knights(j)
        if not 0 <= die < self.dice_count() or self.spent >> die & 1:
            return "that die is not free"
        if gives != ANY and resource is not None and resource != gives:
            return "this joker gives %s" % FACE_NAMES[gives]
        if gives == ANY and (resource is None or not 0 <= resource < GOLD):
            return "choose brick, lumber, wool, grain or ore"
        if self.faces[die] == (gives if gives != ANY else resource):
            return "that die shows %s already" % FACE_NAMES[self.faces[die]]
        return None

    def joker_used(self, j, p=None):
        """Whether player ``p`` (the current one by default) has used joker ``j``: at any
        time, between turns too."""
        return bool(self.jokers[self.player if p is None else p] >> j & 1)

    def missing(self, item, p=None):
        """What player ``p`` must still build before ``item`` can be built, in the order of
        the sheet (roads first, then buildings; every step back, not only the last): [] when
        only the dice stand in the way."""
        p = self.player if p is None else p
        isl = self.island
        seen = 0
        todo = list(isl.needs(item))
        while todo:
            need = todo.pop()
            if seen >> need & 1 or self.is_built(need, p):
                continue
            seen |= 1 << need
            todo += isl.needs(need)
        return [i for i in range(isl.n_items) if seen >> i & 1]

    def joker_knights(self, j):
        """The names of the knights that unlock joker ``j``, such as ``"K6 and K7"``."""
        return self.island.joker_name(j, " and ")

    def usable_jokers(self):
        """The jokers that can be used now: unlocked, unused, and some free die would
        change (a joker never turns a die to the face it already shows)."""
        if self._why_not_building():
            return []
        return [j for j in range(len(self.island.jokers)) if self._joker_move(j)]

    def _joker_move(self, j):
        # Some (die, resource) that joker j may take now, or None. Cheap tests first:
        # screens ask this on every redraw.
        if self.jokers[self.player] >> j & 1 or not self.joker_unlocked(j):
            return None
        gives = self.island.jokers[j][0]
        for die in self._free_dice():
            face = self.faces[die]
            if gives != ANY and face != gives:
                return die, gives
            if gives == ANY:
                return die, 0 if face else 1
        return None

    def joker(self, j, die, resource=None):
        """Use joker ``j`` (index into the island's jokers) to turn die ``die`` to its
        resource; a "?" joker needs the ``resource`` chosen."""
        self._check(self.why_joker(j, die, resource))
        gives = self.island.jokers[j][0]
        self._act(OP_JOKER, j << 3 | die, resource if gives == ANY else gives)

    def _free_dice(self):
        return [i for i in range(self.dice_count()) if not self.spent >> i & 1]

    # ------------------------------------------------------------- gold trades

    def why_trade(self, resource):
        """Why two gold dice cannot be traded for ``resource`` now, or None."""
        why = self._why_not_building()
        if why:
            return why
        if self.unspent()[GOLD] < 2:
            return "a trade needs two gold dice"
        if resource is None or not 0 <= resource < GOLD:
            return "trade gold for brick, lumber, wool, grain or ore"
        return None

    def can_trade(self):
        return self.why_trade(0) is None

    def trade(self, resource):
        """Trade two unspent gold dice for one ``resource``: one die turns, one is set aside."""
        self._check(self.why_trade(resource))
        self._act(OP_TRADE, resource)

    # ---------------------------------------------------------------- building

    def is_built(self, item, p=None):
        p = self.player if p is None else p
        isl = self.island
        if item < isl.n_roads:
            return bool(self.roads[p] >> item & 1)
        return bool(self.builds[p] >> (item - isl.n_roads) & 1)

    def why_build(self, item):
        """Why ``item`` cannot be built now, or None. Checks the sheet, then the dice."""
        why = self._why_not_building() or self.why_sheet(item)
        if why:
            return why
        return self._why_dice(item)

    def why_sheet(self, item, p=None):
        """Why ``item`` cannot be built on player ``p``'s sheet whatever the dice, or None."""
        isl = self.island
        if not 0 <= item < isl.n_items:
            return "there is no such item"
        if self._open(item, self.player if p is None else p):
            return None
        name = isl.name(item)
        if self.is_built(item, p):
            return "%s is built already" % name
        for need in isl.needs(item):
            if not self.is_built(need, p):
                if need < isl.n_roads:
                    return "%s needs road %s first" % (name, isl.name(need))
                return "%s comes after %s" % (name, isl.name(need))
        return None

    def _why_dice(self, item):
        have = self.unspent()
        if self._affords(item, have):
            return None
        cost = COSTS[self.island.kind(item)]
        missing = []
        for r in range(5):
            if have[r] < cost[r]:
                missing.append("%d %s" % (cost[r] - have[r], FACE_NAMES[r]))
        return "%s needs %s more" % (self.island.name(item), ", ".join(missing))

    def _affords(self, item, have):
        cost = COSTS[self.island.kind(item)]
        for r in range(5):
            if have[r] < cost[r]:
                return False
        return True

    def _open(self, item, p):
        # Not built yet, and everything it needs is built: the bit tests of why_sheet.
        isl = self.island
        roads, builds = isl.need_roads[item], isl.need_builds[item]
        return (not self.is_built(item, p) and self.roads[p] & roads == roads
                and self.builds[p] & builds == builds)

    def buildable(self):
        """The items that can be built now with the free dice. (Asked on every redraw:
        it composes no reasons.)"""
        if self._why_not_building():
            return []
        have = self.unspent()
        p = self.player
        return [i for i in range(self.island.n_items)
                if self._open(i, p) and self._affords(i, have)]

    def cost(self, item):
        """The dice (a bit mask) that building ``item`` would spend now (0 if it cannot)."""
        if self._why_dice(item):
            return 0
        need = bytearray(COSTS[self.island.kind(item)])
        mask = 0
        for i in self._free_dice():
            f = self.faces[i]
            if f < GOLD and need[f]:
                need[f] -= 1
                mask |= 1 << i
        return mask

    def build(self, item):
        """Build ``item``, spending the dice it costs."""
        self._check(self.why_build(item))
        self._act(OP_BUILD, item)

    def _build(self, item):
        isl = self.island
        p = self.player
        self.spent |= self.cost(item)
        if item < isl.n_roads:
            self.roads[p] |= 1 << item
        else:
            self.builds[p] |= 1 << (item - isl.n_roads)
        self.points += isl.value(item)
        self.built += 1
        if isl.number == 2:
            self._award(item)
            if self.vp(p) >= WIN_VP:
                self.winner = p
                self.phase = OVER

    # ------------------------------------------------------- Island Two awards

    def road_length(self, p):
        """Player ``p``'s longest continuous road (see ``Island.road_length``)."""
        return self.island.road_length(self.roads[p])

    def knights(self, p):
        """How many knights player ``p`` has built."""
        return popcount(self.builds[p] & self._knight_mask)

    def _award(self, item):
        p = self.player
        if item < self.island.n_roads:
            if self.longest < 0:
                if item == GREY_ROAD:
                    self.longest = p
            elif self.longest != p and self.road_length(p) > self.road_length(self.longest):
                self.longest = p
        elif self.island.kind(item) == KNIGHT:
            n = self.knights(p)
            if self.largest < 0:
                if n >= 3:
                    self.largest = p
            elif self.largest != p and n > self.knights(self.largest):
                self.largest = p

    def vp(self, p):
        """Island Two: player ``p``'s victory points (buildings and awards)."""
        isl = self.island
        v = 0
        for b in range(len(isl.names)):
            if self.builds[p] >> b & 1:
                v += isl.values[b]
        if self.longest == p:
            v += AWARD_VP
        if self.largest == p:
            v += AWARD_VP
        return v

    # -------------------------------------------------------------------- undo

    def why_undo(self):
        if self.phase == OVER:
            return "the game is over"
        if self.phase != BUILD or not self._acts:
            return "nothing to undo this turn"
        return None

    def undo(self):
        """Take back the last build, joker or trade of this turn (never a roll)."""
        self._check(self.why_undo())
        p = self.player
        self._acts.pop()
        (self.roads[p], self.builds[p], self.jokers[p], faces,
         self.longest, self.largest) = self._mark
        for i in range(_DICE):
            self.faces[i] = faces[i]
        self.spent = 0
        self.points = 0
        self.built = 0
        for act in self._acts:  # the rest of the turn, again
            self._redo(act)
        self.log.append(OP_UNDO)

    # ---------------------------------------------------------- ending a turn

    def why_end(self):
        return self._why_not_building()

    def end_turn(self):
        """End the turn: Island One enters its points (or X) on the track; next player."""
        self._check(self.why_end())
        p = self.player
        if self.island.number == 1:
            self.track[p * TURNS_ONE + self.turns[p]] = self.points if self.built else X_PENALTY
        self.turns[p] += 1
        self.game_turn += 1
        self.log.append(OP_END)
        self.player = (p + 1) % self.players
        self._begin_turn()

    # ------------------------------------------------------------------- scores

    def score(self, p):
        """Island One: player ``p``'s total so far (boxes entered; X counts -2)."""
        t = TURNS_ONE * p
        return sum(self.track[t:t + self.turns[p]])

    def result(self, p):
        """Island One: the score; Island Two: victory points."""
        return self.score(p) if self.island.number == 1 else self.vp(p)

    def winners(self):
        """The seats that won (a shared win on equal Island One totals); [] while playing."""
        if self.phase != OVER:
            return []
        if self.island.number == 2:
            return [self.winner]
        best = max(self.score(p) for p in range(self.players))
        return [p for p in range(self.players) if self.score(p) == best]

    # ------------------------------------------------------ actions as tuples

    def perform(self, action):
        """Carry out an action given as a tuple, the form front ends and computer players
        pass around: ``("roll", mask)``, ``("stop",)``, ``("joker", j, die, resource)``,
        ``("trade", resource)``, ``("build", item)``, ``("undo",)``, ``("end",)``.
        IllegalAction (state unchanged) if it is not legal now."""
        op = action[0]
        if op == "roll":
            self.roll(action[1])
        elif op == "stop":
            self.stop()
        elif op == "joker":
            self.joker(action[1], action[2], action[3])
        elif op == "trade":
            self.trade(action[1])
        elif op == "build":
            self.build(action[1])
        elif op == "undo":
            self.undo()
        elif op == "end":
            self.end_turn()
        else:
            raise ValueError("unknown action %r" % (op,))

    # ------------------------------------------------------------ log, replay

    def _check(self, why):
        if why:
            raise IllegalAction(why)

    def _act(self, op, a, b=0):
        # Carry out a legal build, joker or trade, and record it in the log and in this
        # turn's list for undo.
        if self.phase == REROLL:  # acting after rolling ends rolling
            self.stop()
        act = (op, a, b)
        self._acts.append(act)
        self._redo(act)
        self.log.append(op)
        self.log.append(a)
        if op == OP_JOKER:
            self.log.append(b)

    def _redo(self, act):
        op, a, b = act
        if op == OP_BUILD:
            self._build(a)
        elif op == OP_JOKER:
            self.faces[a & 7] = b
            self.jokers[self.player] |= 1 << (a >> 3)
        else:  # a trade: the first free gold die turns, the second is set aside
            gold = [i for i in self._free_dice() if self.faces[i] == GOLD]
            self.faces[gold[0]] = a
            self.spent |= 1 << gold[1]

    def apply_log(self, log):
        """Apply the actions of a log (as ``Game.log`` writes them) to this game.
        IllegalAction if any is not legal here: a log that does not fit is refused."""
        i = 0
        n = len(log)
        while i < n:
            op = log[i]
            if op > OP_END or i + 1 + OP_ARGS[op] > n:
                raise IllegalAction("the log is damaged at byte %d" % i)
            a = log[i + 1] if OP_ARGS[op] else 0
            i += 1 + OP_ARGS[op]
            if op == OP_ROLL:
                count = popcount(a)
                m = (count + 1) // 2
                if i + m > n:
                    raise IllegalAction("the log is damaged at byte %d" % i)
                faces = [(log[i + k // 2] >> (4 * (k & 1))) & 15 for k in range(count)]
                if count & 1 and log[i + m - 1] >> 4:  # the unused half of an odd count's
                    raise IllegalAction("the log is damaged at byte %d" % (i + m - 1))  # byte
                i += m
                self._check(self.why_roll(a))
                self._roll(a, faces)
            elif op == OP_STOP:
                self.stop()
            elif op == OP_BUILD:
                self.build(a)
            elif op == OP_JOKER:
                self.joker(a >> 3, a & 7, log[i - 1])
            elif op == OP_TRADE:
                self.trade(a)
            elif op == OP_UNDO:
                self.undo()
            else:
                self.end_turn()

    @classmethod
    def replay(cls, island_number, players, log, dice=None):
        """A new game with ``log`` applied: the exact game that wrote the log."""
        g = cls(island_number, players, dice)
        g.apply_log(log)
        return g

    def copy(self):
        """A game in the same state that shares nothing with this one but its dice source: the
        game ``codec.loads(codec.dumps(game))`` gives, without a save's checks and its replay
        of the turn (a computer's look-ahead carries out a plan on a copy). Its log holds this
        turn's actions only, as a save's does."""
        g = Game(self.island.number, self.players, self.dice)
        g.roads, g.builds, g.turns = self.roads[:], self.builds[:], self.turns[:]
        g.jokers, g.track, g.faces = self.jokers[:], self.track[:], self.faces[:]
        g.longest, g.largest, g.winner = self.longest, self.largest, self.winner
        g.player, g.game_turn, g.phase = self.player, self.game_turn, self.phase
        g.rolls, g.spent, g.points, g.built = self.rolls, self.spent, self.points, self.built
        g.log = self.log[self.turn_start[5]:]
        g.turn_start = self.turn_start[:5] + (0,)
        g._mark, g._acts = self._mark, self._acts[:]
        return g
