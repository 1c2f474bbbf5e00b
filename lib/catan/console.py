"""A text front end: play either island for 1 to 4 seats with typed commands.

Runs on CPython (``python -m catan.console`` with ``lib/`` on the path) and on a Pico's
MicroPython REPL over USB serial, so it uses only ``sys`` and plain ``input()`` and
``print()``. Commands come from standard input, so a game can be scripted::

    printf 'r\\nstop\\nb r0\\ne\\n' | python -m catan.console --island 1 --players 1 --code 00C1SR

On a Pico: ``import catan.console; catan.console.main()`` at the REPL.

As on the handheld, any seat may be a computer (``--seats person,hard``, or asked seat by
seat), ``c`` asks the coach, ``q`` asks before leaving, and with a store (``main(store=)``;
``make play`` runs ``tools/play.py``, which gives the device's store over a folder) every
action is saved in the handheld's own record and the next start offers to continue.

``play(game, read, write)`` is the loop: ``read(prompt)`` returns one line (EOFError at
the end of input) and ``write(text)`` prints one, so tests drive whole games with lists
of lines. The ``render_*`` functions return lists of lines and change nothing.
"""

import sys

from catan.dice import HardwareDice, SeededDice, code_to_seed, random_seed, seed_to_code
from catan.game import BUILD, REROLL, ROLL, Game, IllegalAction
from catan.maps import ANY, FACE_NAMES, GOLD, GREY_ROAD, KNIGHT, START, TURNS_ONE, WIN_VP

# Faces as the screen shows them: short, and gold in capitals so it stands out.
FACE_SHORT = ("brick", "lumb", "wool", "grain", "ore", "GOLD", "any")

# Words accepted for each face (any other prefix of the full name works too).
_FACE_WORDS = (
    ("brick", "b", "bricks", "clay"),
    ("lumber", "l", "lumb", "wood"),
    ("wool", "w", "sheep"),
    ("grain", "g", "wheat"),
    ("ore", "o", "stone"),
    ("gold",),
)

# Marks after each item on the map.
BUILT = "#"
CAN_BUILD = "*"
OPEN = "-"
BLOCKED = "."
LEGEND = ("# built", "* can build now", "- open", ". needs something first")

HELP = (
    "r / roll            first roll (all dice); later: roll all again",
    "reroll 1 3 5        roll dice 1, 3 and 5 again (rr 135 also works)",
    "k 2 4               keep dice 2 and 4, roll the others again",
    "s / stop            stop rolling and keep the faces",
    "b / build S4 R2     build items in that order (roads R0.., S3, C7, K1..)",
    "j / joker K3 2      use knight K3's joker on die 2",
    "joker K6 2 ore      a '?' joker needs the resource (Island Two: K6, K7 or J6)",
    "t / trade ore       two GOLD dice become one ore",
    "u / undo            take back the last build, joker or trade of this turn",
    "e / end             end the turn (Island One: no build costs an X, -2)",
    "show [P2]           draw the sheet again (or another player's)",
    "c / coach           what the coach would do now, as a command to type",
    "? / help            this list;  q / quit  leave the game (asks first)",
    "Dice in (brackets) are spent. Map: " + ", ".join(LEGEND),
)

USAGE = ("usage: python -m catan.console [--island 1|2] [--players 1-4 | --seats LEVELS]"
         " [--code CODE] [--width N]\n"
         "  LEVELS: a level per seat, person, easy, medium or hard (--seats person,hard)")

# A seat's level by the words for it; None: a person plays the seat.
SEAT_WORDS = (("person", None), ("p", None), ("human", None), ("easy", 0), ("e", 0),
              ("medium", 1), ("m", 1), ("hard", 2), ("h", 2))
LEVEL_NAMES = ("easy", "medium", "hard")
HUMAN = 255  # a person's seat in the save's list of levels (as the handheld's)


# ---------------------------------------------------------------- small helpers

def player_name(p):
    return "P%d" % (p + 1)


def wrap(head, words, width, indent=None, sep=" "):
    """``head`` then the words, folded into lines of at most ``width`` characters.
    Continuation lines start with ``indent`` (spaces as wide as ``head`` by default)."""
    if indent is None:
        indent = " " * len(head)
    lines = []
    line = head
    first = True  # the first word always goes right after the head
    for w in words:
        if first:
            line += w
        elif len(line) + len(sep) + len(w) > width:
            lines.append(line)
            line = indent + w.lstrip()
        else:
            line += sep + w
        first = False
    lines.append(line)
    return lines


def parse_resource(word):
    """The face number (0..5) a word names (``ore``, ``o``, ``lumb``), or None."""
    w = word.lower()
    for face in range(len(_FACE_WORDS)):
        if w in _FACE_WORDS[face]:
            return face
    if len(w) >= 2:
        for face in range(len(_FACE_WORDS)):
            if _FACE_WORDS[face][0].startswith(w):
                return face
    return None


def number(text):
    """The value of ``text`` if it is a plain decimal number of at most six ASCII digits,
    else None. ``str.isdigit`` is not enough: it accepts "²" and "①", which ``int``
    refuses, and a number of thousands of digits costs time and memory for nothing."""
    if not 0 < len(text) <= 6:
        return None
    for ch in text:
        if not "0" <= ch <= "9":
            return None
    return int(text)


LINE_MAX = 256  # the longest line read: every command is far shorter


class LineTooLong(Exception):
    """A line longer than LINE_MAX characters; its rest has been read and dropped."""


def read_line(read, say, prompt):
    """One line from ``read(prompt)``. A line that is not text (invalid UTF-8 on a strictly
    decoded stdin) or too long (LineTooLong, or too long to hold in memory) is refused with a
    message, and the prompt comes again; EOFError and KeyboardInterrupt pass on."""
    while True:
        try:
            return read(prompt)
        except UnicodeError:
            say(["That line was not readable text: type it again."])
        except (LineTooLong, MemoryError):
            say(["That line was too long: type it again."])


def parse_dice(words):
    """A bit mask of the dice named by slot numbers 1..6 (``1 3 5``, ``135``, ``1,3``).
    ValueError for anything else. Slots past the dice in play are left for the core
    to refuse, with its own reason."""
    mask = 0
    for w in words:
        for ch in w:
            if ch == ",":
                continue
            if not "1" <= ch <= "9":
                raise ValueError("dice are numbered 1 to 6: %s" % w)
            mask |= 1 << (ord(ch) - ord("1"))
    return mask


def parse_command(line):
    """``(verb, args)`` for a typed line: the verb in its full form (``r`` gives
    ``roll``), or ``None`` for an empty line and ``("?", [word])`` for an unknown one."""
    words = line.replace(",", " ").split()
    if not words:
        return None, []
    verb = _ALIASES.get(words[0].lower())
    if verb is None:
        return "?", words[:1]
    return verb, words[1:]


def _aliases():
    # Every word a command may start with, mapped to the command's full name.
    table = {}
    for verb, names in (
        ("roll", ("r", "roll")),
        ("reroll", ("rr", "reroll")),
        ("keep", ("k", "keep")),
        ("stop", ("s", "stop")),
        ("build", ("b", "build")),
        ("joker", ("j", "joker")),
        ("trade", ("t", "trade")),
        ("undo", ("u", "undo")),
        ("end", ("e", "end")),
        ("show", ("show", "sheet", "l", "look")),
        ("help", ("?", "h", "help")),
        ("coach", ("c", "coach", "hint")),
        ("quit", ("q", "quit", "exit")),
    ):
        for name in names:
            table[name] = verb
    return table


_ALIASES = _aliases()


def joker_for(game, name):
    """The joker index that ``K3`` (its knight) or ``J3`` (the third joker) names.
    ValueError with a reason if none."""
    isl = game.island
    n = name.upper()
    j = number(n[1:]) if n[:1] == "J" else None
    if j is not None:
        j -= 1
        if 0 <= j < len(isl.jokers):
            return j
        raise ValueError("the jokers are J1 to J%d" % len(isl.jokers))
    j = isl.joker_of(isl.item(n))  # ValueError for an unknown name
    if j < 0:
        raise ValueError("%s has no joker" % n)
    return j


def joker_label(game, j):
    """``K3(wool)``, or ``K6+K7(any)`` for a desert joker that needs two knights."""
    return "%s(%s)" % (game.island.joker_name(j), FACE_SHORT[game.island.jokers[j][0]])


def parse_seat(word):
    """The level a word names for a seat (0, 1, 2), None for a person; ValueError else."""
    w = word.strip().lower()
    for name, level in SEAT_WORDS:
        if w == name:
            return level
    raise ValueError("Type person, easy, medium or hard.")


def seat_label(levels, p):
    """``P2 (hard)`` for a computer's seat, ``P1`` for a person's."""
    v = levels[p] if levels else None
    return player_name(p) if v is None else "%s (%s)" % (player_name(p), LEVEL_NAMES[v])


def describe(game, action):
    """What a computer does, in words: "rolls dice 1 3 5 again", "builds S3"."""
    op = action[0]
    isl = game.island
    if op == "roll":
        mask = action[1]
        if game.phase == ROLL or mask is None:
            return "rolls all dice"
        return "rolls %s again" % " ".join(
            "%d" % (i + 1) for i in range(game.dice_count()) if mask >> i & 1)
    if op == "stop":
        return "keeps the dice"
    if op == "build":
        return "builds %s" % isl.name(action[1])
    if op == "joker":
        return "uses %s on die %d" % (joker_label(game, action[1]), action[2] + 1)
    if op == "trade":
        return "trades two GOLD for one %s" % FACE_NAMES[action[1]]
    return "ends the turn"


def command_for(game, action):
    """The command a person types to do ``action`` (the coach's advice as a command)."""
    op = action[0]
    isl = game.island
    if op == "roll":
        mask = action[1]
        if game.phase == ROLL or mask is None:
            return "r"
        n = game.dice_count()
        if mask != (1 << n) - 1 and bin(mask).count("1") * 2 > n:  # name the dice kept
            return "k " + " ".join("%d" % (i + 1) for i in range(n) if not mask >> i & 1)
        return "rr " + " ".join("%d" % (i + 1) for i in range(n) if mask >> i & 1)
    if op == "stop":
        return "s"
    if op == "build":
        return "b " + isl.name(action[1])
    if op == "joker":
        j, die, res = action[1], action[2], action[3]
        text = "j %s %d" % (isl.joker_name(j).split("+")[0], die + 1)
        if isl.jokers[j][0] == ANY:  # a '?' joker: the resource too
            text += " " + FACE_NAMES[res]
        return text
    if op == "trade":
        return "t " + FACE_NAMES[action[1]]
    return "e"


def _coach_words(game, action):
    op = action[0]
    if op == "roll":
        if game.phase == ROLL or action[1] is None:
            return "roll all the dice"
        cmd = command_for(game, action)
        if cmd[0] == "k":
            return "keep dice %s, roll the others" % cmd[2:]
        return "roll dice %s again" % cmd[3:]
    if op == "stop":
        return "keep the dice and build"
    if op == "build":
        return "build " + game.island.name(action[1])
    if op == "joker":
        return describe(game, action).replace("uses", "use")
    if op == "trade":
        return "trade two GOLD for one " + FACE_NAMES[action[1]]
    if game.island.number == 1 and not game.built:
        return "end the turn with an X"
    return "end the turn"


def coach_line(game):
    """The coach's advice for the player whose turn it is, as one line."""
    from catan.players import coach

    action, value = coach.hint(game)
    if action is None:
        return "Coach: the game is over."
    text = "Coach: %s (type %s)" % (_coach_words(game, action), command_for(game, action))
    if value is not None:
        text += ": %.1f %s expected" % (value, coach.unit(game))
    return text


# ------------------------------------------------------------------- rendering

def render_dice(game, width=80):
    """The current player's dice with slot numbers; spent dice in brackets."""
    if game.phase == ROLL:
        return ["Dice    %d to roll: r" % game.dice_count()]
    words = []
    for i in range(game.dice_count()):
        face = FACE_SHORT[game.faces[i]]
        if game.spent >> i & 1:
            face = "(" + face + ")"
        words.append("%d:%s" % (i + 1, face))
    if game.phase == REROLL:
        words.append(" (roll %d of 3)" % game.rolls)
    return wrap("Dice    ", words, width)


def _road_tree(isl):
    # The roads as chains for the map: a chain runs on while each road has exactly one
    # road after it, and stops where the tree branches; each branch starts a chain of
    # its own. Sites follow the road they hang on. Built from the map data, so a
    # corrected map draws itself. Returns [(label, [items])].
    n = isl.n_roads
    after = [[] for _ in range(n + 1)]  # index n: the starting road
    sites = [[] for _ in range(n + 1)]
    for r in range(n):
        q = isl.roads[r]
        after[n if q == START else q].append(r)
    for b in range(len(isl.names)):
        if isl.kinds[b] != KNIGHT:
            q = isl.site_road[b]
            sites[n if q == START else q].append(n + b)
    chains = []

    def walk(label, road, items):
        while True:
            items += sites[road]
            if len(after[road]) != 1:
                break
            road = after[road][0]
            items.append(road)
        chains.append((label, items))
        for nxt in after[road]:
            walk(isl.name(road) + " >", nxt, [nxt])

    walk("start", n, [])
    return chains


def item_mark(game, item, p, can):
    """The mark of one item on player ``p``'s sheet (``can``: items buildable now)."""
    if game.is_built(item, p):
        return BUILT
    if item in can:
        return CAN_BUILD
    if game.why_sheet(item, p) is None:
        return OPEN
    return BLOCKED


def render_map(game, p, width=80):
    """Roads and sites as chains of the road tree, then the knights, each with a mark."""
    isl = game.island
    can = game.buildable() if p == game.player else ()
    lines = wrap("Map     ", LEGEND, width, sep="  ")
    for label, items in _road_tree(isl):
        words = [isl.name(i) + item_mark(game, i, p, can) for i in items]
        lines += wrap("  %-6s" % label, words, width)
    words = [isl.name(k) + item_mark(game, k, p, can) for k in isl.knights()]
    lines += wrap("Knights ", words, width)
    return lines


def render_jokers(game, p, width=80):
    """Jokers grouped by state: ready, used, locked (its knights not built yet)."""
    groups = (("ready:", []), ("used:", []), ("locked:", []))
    for j in range(len(game.island.jokers)):
        if game.joker_used(j, p):
            g = 1
        elif game.joker_unlocked(j, p):
            g = 0
        else:
            g = 2
        groups[g][1].append(joker_label(game, j))
    words = []
    for title, labels in groups:
        if labels:
            # An extra space before a group's title set the groups apart.
            words.append((" " if words else "") + title + " " + labels[0])
            words += labels[1:]
    return wrap("Jokers  ", words, width)


def track_boxes(game, p):
    """Island One: the 15 boxes of the score track as words (X for -2, . to come)."""
    boxes = []
    for t in range(TURNS_ONE):
        if t < game.turns[p]:
            v = game.track[p * TURNS_ONE + t]
            boxes.append("X" if v < 0 else "%d" % v)
        else:
            boxes.append(".")
    return boxes


def render_track(game, p, width=80, head="Track   "):
    """Island One: the track, the total, and the points built so far this turn."""
    words = track_boxes(game, p)
    words.append(" total %d" % game.score(p))
    if p == game.player and game.built:
        words.append("(this turn +%d)" % game.points)
    return wrap(head, words, width)


def _holder(game, who):
    return "-" if who < 0 else player_name(who)


def render_status(game, p, width=80):
    """Island Two: VP, knights, road length and who holds the two awards."""
    longest = _holder(game, game.longest)
    if game.longest < 0:
        longest += " (first to build R%d)" % GREY_ROAD
    parts = ("VP %d of %d" % (game.vp(p), WIN_VP), "knights %d" % game.knights(p),
             "road %d" % game.road_length(p), "Longest Road " + longest,
             "Largest Army " + _holder(game, game.largest))
    return wrap("", parts, width, "", sep="   ")


def render_summary(game, width=80):
    """One line for all players; ``>`` marks whose turn it is."""
    words = []
    for p in range(game.players):
        mark = ">" if p == game.player and not game.over() else " "
        if game.island.number == 1:
            words.append("%s%s %d (%d/%d)" % (mark, player_name(p), game.score(p),
                                            game.turns[p], TURNS_ONE))
        else:
            words.append("%s%s %d VP" % (mark, player_name(p), game.vp(p)))
    return wrap("All    ", words, width, sep="  ")


def render_can_build(game, width=80):
    """What the free dice can build now, and whether a gold trade is open."""
    if game.phase == ROLL or game.over():
        return []
    words = [game.island.name(i) for i in game.buildable()] or ["nothing"]
    if game.can_trade():
        words.append(" (2 GOLD to trade: t ore)")
    return wrap("Can build: ", words, width)


def render_sheet(game, p=None, width=80, summary=True):
    """The whole sheet of player ``p`` (default: the current player, with the dice),
    and the one-line summary of all players unless ``summary`` is False."""
    cur = p is None or p == game.player
    p = game.player if p is None else p
    lines = ["%s's sheet" % player_name(p)] if not cur else []
    if cur and not game.over():
        lines += render_dice(game, width)
    if game.island.number == 1:
        lines += render_track(game, p, width)
    else:
        lines += render_status(game, p, width)
    lines += render_map(game, p, width)
    lines += render_jokers(game, p, width)
    if summary and game.players > 1:
        lines += render_summary(game, width)
    if cur:
        lines += render_can_build(game, width)
    return lines


def render_turn_header(game):
    p = game.player
    if game.island.number == 1:
        what = "turn %d of %d" % (game.turns[p] + 1, TURNS_ONE)
    elif game.players == 1:
        what = "turn %d" % (game.turns[p] + 1)
    else:
        what = "game turn %d, %d dice" % (game.game_turn + 1, game.dice_count())
    return ["", "=== %s: %s ===" % (player_name(p), what)]


def render_result(game, width=80):
    """The end of the game: the ranking with totals and who won."""
    lines = ["", "=== Game over ==="]
    order = list(range(game.players))
    winners = game.winners()
    if game.island.number == 1:
        order.sort(key=lambda q: (-game.score(q), q))  # MicroPython sorts unstably
        for q in order:
            lines += render_track(game, q, width, "%s      " % player_name(q))
        best = game.score(order[0])
        if game.players == 1:
            lines.append("Final score: %d" % best)
        elif len(winners) == 1:
            lines.append("%s wins with %d" % (player_name(winners[0]), best))
        else:
            names = [player_name(q) for q in winners]
            names = ", ".join(names[:-1]) + " and " + names[-1]
            lines.append("%s share the win with %d" % (names, best))
        return lines
    w = game.winner
    if game.players == 1:
        lines.append("P1 reached %d VP in %d turns" % (game.vp(w), game.turns_taken(w)))
        return lines
    order.sort(key=lambda q: (q != w, -game.vp(q), q))
    lines += wrap("", ["%d. %s %d VP" % (i + 1, player_name(order[i]), game.vp(order[i]))
                       for i in range(len(order))], width, "", sep="  ")
    lines.append("%s wins, in game turn %d" % (player_name(w), game.game_turn + 1))
    return lines


# ------------------------------------------------------------------- the loop

class Quit(Exception):
    """The player typed quit, or the input ended."""


class _Commands:
    # The typed commands of a turn, a method each (``do_<verb>``, found by ``_Session.command``),
    # and what they say; a part of ``_Session``, which holds the state they work on.

    # rolling ------------------------------------------------------------

    def _rolled(self):
        # The summary was shown as the turn began; the sheet is what the player plans on.
        self.say(render_sheet(self.game, width=self.width, summary=False))
        if self.game.phase == BUILD:
            self.say(["Last roll done: build, then e to end."])

    def do_roll(self, args):
        self.game.roll(parse_dice(args) if args else None)
        self._rolled()

    def do_reroll(self, args):
        self.do_roll(args)

    def do_keep(self, args):
        g = self.game
        if g.phase == ROLL:
            raise IllegalAction("the first roll throws all the dice")
        full = (1 << g.dice_count()) - 1
        keep = parse_dice(args)
        # A slot past the dice in play: pass it on so the core refuses with its reason.
        g.roll(keep if keep & ~full else full & ~keep)
        self._rolled()

    def do_stop(self, args):
        self.game.stop()
        self.say(["Rolling over: build, then e to end."])
        self.say(render_can_build(self.game, self.width))

    # after rolling ------------------------------------------------------

    def _after(self, lines):
        g = self.game
        self.say(lines)
        if not g.over():
            self.say(render_dice(g, self.width))
            self.say(render_can_build(g, self.width))

    def _awards(self):
        return (self.game.longest, self.game.largest)

    def _award_news(self, before):
        # Island Two: say when Longest Road or Largest Army changes hands.
        lines = []
        after = self._awards()
        for i in range(2):
            if after[i] != before[i]:
                title = ("Longest Road", "Largest Army")[i]
                if after[i] < 0:
                    lines.append("Nobody holds %s now." % title)
                elif before[i] < 0:
                    lines.append("%s takes %s (+2 VP)." % (player_name(after[i]), title))
                else:
                    lines.append("%s takes %s from %s." % (player_name(after[i]), title,
                                                           player_name(before[i])))
        return lines

    def do_build(self, args):
        g = self.game
        if not args:
            raise ValueError("build what? for example: b R0")
        isl = g.island
        awards = self._awards()
        done = []
        for name in args:
            try:
                item = isl.item(name)
                try:
                    g.build(item)
                except IllegalAction as e:
                    miss = g.missing(item)
                    if len(miss) > 1 and g.why_sheet(item) is not None:
                        # the refusal names one step back: say every step
                        raise IllegalAction("%s (to build first: %s)" % (
                            e, " ".join(isl.name(i) for i in miss)))
                    raise
            except (IllegalAction, ValueError) as why:
                # Builds before this one stand; say what was built, then the refusal.
                if done:
                    self.say(wrap("Built ", done[:-1] + [done[-1] + "."], self.width))
                    self.say(self._award_news(awards))
                raise why
            if isl.number == 1:
                done.append("%s (+%d)" % (isl.name(item), isl.value(item)))
            else:
                done.append(isl.name(item))
            if g.over():
                break
        done[-1] += "."
        if isl.number == 1:
            done.append("This turn: +%d" % g.points)
        else:
            done.append("VP now %d" % g.vp(g.player))
        self._after(wrap("Built ", done, self.width) + self._award_news(awards))

    def do_joker(self, args):
        g = self.game
        name = die = resource = None
        for w in args:
            n = number(w)
            if n is not None:
                die = n - 1
            elif w[:1] in "kKjJ" and number(w[1:]) is not None:
                name = w
            else:
                resource = parse_resource(w)
                if resource is None:
                    raise ValueError("%s is not a resource" % w)
        if name is None or die is None:
            raise ValueError("say which knight and which die: joker K3 2")
        j = joker_for(g, name)
        g.joker(j, die, resource)
        self._after(["%s turns die %d to %s." % (joker_label(g, j), die + 1,
                                                  FACE_SHORT[g.faces[die]])])

    def do_trade(self, args):
        g = self.game
        if len(args) != 1 or parse_resource(args[0]) is None:
            raise ValueError("trade for what? for example: t ore")
        r = parse_resource(args[0])
        if r == GOLD:
            raise IllegalAction("gold cannot be bought: trade two GOLD for brick, lumber, "
                                "wool, grain or ore")
        g.trade(r)
        self._after(["Two GOLD traded for one %s." % FACE_NAMES[r]])

    def do_undo(self, args):
        awards = self._awards()
        self.game.undo()
        self._after(["Undone."] + self._award_news(awards))

    def do_end(self, args):
        g = self.game
        p = g.player
        if g.island.number == 1 and not g.built and g.why_end() is None:
            # A turn without a build enters an X: make sure that is what the player wants.
            answer = self.ask("end with X (-2)? y/n ")
            if answer.strip().lower() not in ("y", "yes"):
                self.say(["The turn goes on."])
                return
        g.end_turn()
        self.say(["%s %s" % (player_name(p), self._entered(p)[0])])

    def _entered(self, p):
        # What the turn just ended of player p entered on the sheet.
        g = self.game
        if g.island.number == 1:
            v = g.track[p * TURNS_ONE + g.turns[p] - 1]
            return ["enters %s: total %d" % ("X" if v < 0 else "+%d" % v, g.score(p))]
        return ["ends the turn with %d VP." % g.vp(p)]

    # other --------------------------------------------------------------

    def do_show(self, args):
        g = self.game
        p = None
        if args:
            w = args[0].upper()
            w = w[1:] if w[:1] == "P" else w
            n = number(w)
            if n is None or not 1 <= n <= g.players:
                raise ValueError("show P1 to P%d" % g.players)
            p = n - 1
        self.say(render_sheet(g, p, self.width))

    def do_help(self, args):
        self.say(HELP)

    def do_coach(self, args):
        self.say(wrap("", coach_line(self.game).split(" "), self.width, "  "))

    def do_quit(self, args):
        saved = "It is saved: start again to continue it." if self.store is not None else (
            "It is not saved.")
        answer = self.ask("Leave the game? %s y/n " % saved)
        if answer.strip().lower() in ("y", "yes"):
            raise Quit("quit")
        self.say(["The game goes on."])


class _Session(_Commands):
    # One game at the console: the loop that reads the commands (``_Commands``: one method each).

    def __init__(self, game, read, write, width, levels=None, store=None):
        self.game = game
        self.read = read
        self.width = width
        self._write = write
        self.levels = list(levels) if levels else [None] * game.players
        self.store = store

    def say(self, lines):
        for line in lines:
            self._write(line)

    def ask(self, prompt):
        try:
            return read_line(self.read, self.say, prompt)
        except EOFError:
            raise Quit("end of input")
        except KeyboardInterrupt:  # Ctrl-C at the REPL
            raise Quit("interrupted")

    def save(self):
        """Save the game as the handheld does (its record "game"; empty once over)."""
        if self.store is None:
            return
        g = self.game
        if g.over():
            data = b""
        else:
            from catan.codec import pack_save

            data = pack_save(g, bytes(HUMAN if v is None else v for v in self.levels))
        if not self.store.write("game", data):
            self.say(["The game could not be saved (%s)."
                      % (getattr(self.store, "error", None) or "the store refused it")])

    def run(self):
        g = self.game
        shown = None
        self.save()  # a new game replaces the saved one at once, as on the handheld
        try:
            while not g.over():
                turn = (g.player, g.game_turn)
                if turn != shown:  # a new turn: say whose (the first roll shows the sheet)
                    if shown is None and g.phase != ROLL:  # continued part-way through a
                        self.say(render_turn_header(g))  # turn: what the player had, under
                        self.say(render_sheet(g, width=self.width))  # the turn's header
                    else:
                        self.say(render_turn_header(g))
                        if g.players > 1:
                            self.say(render_summary(g, self.width))
                    shown = turn
                if self.levels[g.player] is not None:
                    self.computer_step()
                else:
                    self.command(self.ask("%s> " % player_name(g.player)))
                self.save()
        except KeyboardInterrupt:  # Ctrl-C while a computer plays
            self.say(["", "Game left unfinished (interrupted)."])
            return g
        except Quit as stop:
            # At the end of input the prompt is still on its line: start a new one.
            self.say(["", "Game left unfinished (%s)." % stop])
            return g
        self.save()
        self.say(render_sheet(g, width=self.width))
        self.say(render_result(g, self.width))
        return g

    def computer_step(self):
        """One action of the computer seat whose turn it is, said in words, as the
        handheld's computers choose it (the same level and seed)."""
        from catan.players import next_action

        g = self.game
        p = g.player
        action = next_action(g, self.levels[p], p)
        words = describe(g, action)
        g.perform(action)
        lines = ["%s %s" % (seat_label(self.levels, p), words)]
        if action[0] == "roll":
            lines += render_dice(g, self.width)
        elif action[0] == "end":  # Island One: "ends the turn: enters +5: total 30"
            said = self._entered(p)[0]
            lines = [lines[0] + ": " + said if g.island.number == 1
                     else "%s %s" % (seat_label(self.levels, p), said)]
        self.say(lines)

    def command(self, line):
        verb, args = parse_command(line)
        if verb is None:
            return
        if verb == "?":
            self.say(["Unknown command %s: type ? for the list" % args[0]])
            return
        try:
            getattr(self, "do_" + verb)(args)
        except IllegalAction as why:
            # The core refused and changed nothing: say why in its own words.
            self.say(wrap("No: ", str(why).split(" "), self.width))
        except ValueError as why:
            self.say(["%s (type ? for help)" % why])


def play(game, read=input, write=print, width=80, levels=None, store=None):
    """Play ``game`` at the console until it is over, the player quits or the input
    ends. ``read(prompt)`` gives one line; ``write(line)`` shows one. ``levels``: a computer
    level per seat, None for a person (default: all persons); ``store``: where the game is
    saved after every action (the handheld's store interface). Returns the game."""
    return _Session(game, read, write, width, levels, store).run()


# ------------------------------------------------------------------- setup

def parse_args(argv):
    """The options of a command line as a dict (island, players, code, width);
    ValueError with a reason for anything else. Parsed by hand: no argparse on a Pico."""
    names = {"-i": "island", "--island": "island", "-p": "players", "--players": "players",
             "-c": "code", "--code": "code", "-w": "width", "--width": "width",
             "-s": "seats", "--seats": "seats"}
    opts = {}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("-h", "--help"):
            opts["help"] = True
            i += 1
            continue
        value = None
        if "=" in arg:
            arg, value = arg.split("=", 1)
        key = names.get(arg)
        if key is None:
            raise ValueError("unknown option %s" % arg)
        if value is None:
            if i + 1 >= len(argv):
                raise ValueError("%s needs a value" % arg)
            i += 1
            value = argv[i]
        i += 1
        if key == "code":
            opts[key] = value
            continue
        if key == "seats":
            try:
                seats = [parse_seat(w) for w in value.split(",")]
            except ValueError:
                raise ValueError("--seats: a level per seat, person, easy, medium or hard")
            if not 1 <= len(seats) <= 4:
                raise ValueError("1 to 4 seats")
            opts[key] = seats
            continue
        n = number(value)
        if n is None:
            raise ValueError("%s needs a number" % arg)
        opts[key] = n
    if opts.get("island", 1) not in (1, 2):
        raise ValueError("the island is 1 or 2")
    if not 1 <= opts.get("players", 1) <= 4:
        raise ValueError("1 to 4 players")
    if "seats" in opts and opts.get("players", len(opts["seats"])) != len(opts["seats"]):
        raise ValueError("--players and --seats disagree")
    return opts


def make_dice(code):
    """The dice for a game code: seeded for a code, the hardware source for ""."""
    code = code.strip()
    if not code:
        return HardwareDice()
    return SeededDice(code_to_seed(code))


def _ask_number(ask, say, prompt, low, high):
    while True:
        n = number(read_line(ask, say, prompt).strip())
        if n is not None and low <= n <= high:
            return n
        say(["Type a number from %d to %d." % (low, high)])


def _dice_for(code, say):
    # (dice, code) for a typed code; "new" draws a fresh code and shows it.
    if code.strip().lower() == "new":
        code = seed_to_code(random_seed())
        say(["Game code %s: anyone who plays it gets the same dice." % code])
    return make_dice(code), code


def _ask_seat(ask, say, p):
    while True:
        try:
            return parse_seat(read_line(ask, say, "%s: person, easy, medium or hard "
                                        "(Enter: person)? " % player_name(p)) or "person")
        except ValueError as why:
            say(["%s" % why])


def _seats_words(levels):
    people = sum(1 for v in levels if v is None)
    words = ["%d person%s" % (people, "" if people == 1 else "s")] if people else []
    bots = ["%s %s" % (player_name(p), LEVEL_NAMES[v]) for p, v in enumerate(levels)
            if v is not None]
    if bots:
        words.append("%d computer%s: %s" % (len(bots), "" if len(bots) == 1 else "s",
                                            ", ".join(bots)))
    return ", ".join(words)


def setup(opts, read=input, write=print):
    """A new game from the options, asking for whatever is missing: ``(game, levels)``,
    levels a computer level per seat (None: a person), or None if the input ends first.
    With any option given, a missing code means random dice and the seats are persons
    unless ``--seats`` says otherwise (scripts)."""
    def say(lines):
        for line in lines:
            write(line)

    dice = None
    code = opts.get("code")
    if code is not None:  # from the command line: check it before asking anything
        try:
            dice, code = _dice_for(code, say)
        except ValueError as why:
            say(["%s" % why])
            return None
    try:
        isl = opts.get("island")
        if isl is None:
            isl = _ask_number(read, say, "Island 1 (score attack) or 2 (race to 10 VP)? ", 1, 2)
        levels = opts.get("seats")
        players = len(levels) if levels else opts.get("players")
        if players is None:
            players = _ask_number(read, say, "Players (1-4)? ", 1, 4)
        if levels is None:
            levels = [None] * players if opts else [
                _ask_seat(read, say, p) for p in range(players)]
        while dice is None:
            code = "" if opts else read_line(
                read, say, "Game code (Enter: random dice; new: a code to share)? ")
            try:
                dice, code = _dice_for(code, say)
            except ValueError as why:
                say(["%s" % why])
    except (EOFError, KeyboardInterrupt):
        write("")  # the prompt is still on its line
        return None
    game = Game(isl, players, dice)
    title = "Island One: 15 turns, highest total wins" if isl == 1 else (
        "Island Two solo: reach 10 VP in as few turns as you can" if players == 1
        else "Island Two: first to 10 VP wins")
    say(["%s (%s%s). Type ? for help, c for the coach."
         % (title, _seats_words(levels), ", code " + code.strip().upper() if code.strip()
            else "")])
    return game, levels


def load_save(data):
    """``(game, levels)`` from the handheld's record of a game in progress (levels: None
    for a person); SaveError with the reason for anything else."""
    from catan.codec import unpack_save

    game, levels = unpack_save(data, HardwareDice())
    return game, [None if v == HUMAN else v for v in levels]


def save_summary(game, levels):
    """The saved game in words, as the handheld's Continue says it."""
    seats = ", ".join("%s %s" % (player_name(p), "person" if levels[p] is None
                                 else LEVEL_NAMES[levels[p]]) for p in range(game.players))
    return "Island %s, %s; %s's turn %d" % (("One", "Two")[game.island.number - 1], seats,
                                             player_name(game.player),
                                             game.turns[game.player] + 1)


def _continue(store, read, write):
    # The saved game if the player wants to continue it: (game, levels), or None. A save
    # that does not load is set aside (as the handheld does) and said.
    data = store.read("game")
    if not data:
        return None
    try:
        game, levels = load_save(data)
    except ValueError as why:  # SaveError is a ValueError
        store.write("game-bad", data)
        store.write("game", b"")
        write("The saved game could not be loaded (%s). It was set aside." % why)
        return None
    if game.over():
        return None
    answer = read_line(read, lambda lines: [write(x) for x in lines],
                       "Continue the saved game (%s)? y/n " % save_summary(game, levels))
    if answer.strip().lower() not in ("y", "yes", ""):
        return None
    write("Type ? for help, c for the coach.")
    return game, levels


def _stdin_is_terminal():
    # CPython asks the stream. MicroPython's streams have no isatty: on the unix port the
    # file behind /dev/stdin says (a character device is a terminal); on a Pico there is no
    # such file, and the REPL's input() is the right reader.
    isatty = getattr(sys.stdin, "isatty", None)
    if isatty is not None:
        return isatty()
    try:
        import os

        mode = os.stat("/dev/stdin")[0]
    except (ImportError, AttributeError, OSError):
        return True
    return mode & 0o170000 == 0o020000


def bounded_reader(src, out, limit=LINE_MAX):
    """A ``read(prompt)`` for piped lines: writes the prompt, reads a line of at most
    ``limit`` characters and echoes it, so a transcript reads as at a terminal. A longer line
    is read on in pieces of ``limit`` and dropped (its start echoed), and LineTooLong raised:
    a line of any length costs no more memory than one piece. EOFError at the end."""
    def read(prompt):
        out.write(prompt)
        line = src.readline(limit + 1)
        if not line:
            raise EOFError
        if len(line) > limit and line[-1] != "\n":
            piece = line
            while piece and piece[-1] != "\n":
                piece = src.readline(limit)
            out.write(line[:40])
            out.write("...\n")
            raise LineTooLong()
        line = line.rstrip("\r\n")
        out.write(line)  # not line + "\n": no copy of the line
        out.write("\n")
        return line

    return read


def _stdin_reader():
    # At a terminal input() is right: it echoes and edits (the REPL on a Pico too); a line
    # longer than LINE_MAX is refused once read. Piped lines are read in bounded pieces and
    # echoed, on CPython and MicroPython alike, so the transcripts read the same and a huge
    # line cannot exhaust a small heap.
    if _stdin_is_terminal():
        def read(prompt):
            line = input(prompt)
            if len(line) > LINE_MAX:
                raise LineTooLong()
            return line

        return read
    return bounded_reader(sys.stdin, sys.stdout)


def main(argv=None, read=None, write=print, store=None):
    """The console program: options from ``argv`` (default ``sys.argv[1:]``), then play.
    Returns the game (None if none began); a bad option or game code on the command
    line raises SystemExit(2), so a script sees the failure. ``store`` (the handheld's
    store interface, ``tools/play.py`` gives one over a folder): where the game is saved;
    started without game options, a saved game in progress is offered first."""
    if argv is None:
        argv = sys.argv[1:]
    if read is None:
        read = _stdin_reader()
    try:
        opts = parse_args(argv)
        if opts.get("code", "new").strip().lower() != "new":
            make_dice(opts["code"])  # check the code before asking anything
    except ValueError as why:
        write("%s\n%s" % (why, USAGE))
        raise SystemExit(2)
    if opts.pop("help", False):
        write(USAGE)
        return None
    width = opts.pop("width", 80)
    started = None
    if store is not None and not opts:
        try:
            started = _continue(store, read, write)
        except (EOFError, KeyboardInterrupt):
            write("")
            write("No game.")
            return None
    if started is None:
        started = setup(opts, read, write)
    if started is None:
        write("No game.")
        return None
    game, levels = started
    return play(game, read, write, width, levels, store)


if __name__ == "__main__":
    main()
