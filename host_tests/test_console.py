"""The text console (catan.console): whole games driven by typed lines.

Games are played through ``play`` with scripted dice and a list of lines for input, and
through the real command line (``python -m catan.console``, and the MicroPython unix
port) with a game code and piped input. Dice as letters: B brick, L lumber, W wool,
G grain, O ore, $ gold.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LIB = ROOT / "lib"
if str(LIB) not in sys.path:
    sys.path.insert(0, str(LIB))

from catan import console
from catan.dice import ScriptedDice, SeededDice, code_to_seed, seed_to_code
from catan.game import ROLL, Game
from helpers import snapshot

FACE = {"B": 0, "L": 1, "W": 2, "G": 3, "O": 4, "$": 5}
# A game code for seed 12345, worked out rather than written down, so that a change to
# the check character does not break these tests.
CODE = seed_to_code(12345)


def faces(text):
    return [FACE[c] for c in text if not c.isspace()]


class Screen:
    """Input from a list of lines, output kept as a transcript: each prompt with the
    line typed after it, as a terminal shows them. EOFError when the lines run out."""

    def __init__(self, lines):
        self.lines = list(lines)
        self.out = []

    def read(self, prompt):
        if not self.lines:
            self.out.append(prompt)
            raise EOFError
        line = self.lines.pop(0)
        self.out.append(prompt + line)
        return line

    def write(self, line):
        self.out.extend(str(line).split("\n"))

    def text(self):
        return "\n".join(self.out)


def play(game, lines, width=80):
    screen = Screen(lines)
    console.play(game, screen.read, screen.write, width)
    return screen


def turns(plan):
    """Scripted dice and commands from [(dice letters, [commands])]: one item per roll
    is a string of letters; a turn's rolls are joined with "|"."""
    dice = []
    cmds = []
    for rolled, typed in plan:
        for roll in rolled.split("|"):
            dice += faces(roll)
        cmds += typed
    return dice, cmds


# ----------------------------------------------------------------- Island One

ONE_PLAN = [
    ("BLWGBL", ["r", "b s5", "b s3 r0", "e"]),  # +4: S3 3, R0 1; S5 refused first
    ("OWGOWG", ["r", "s", "b k1 k2", "e"]),  # +3
    ("OWGOWG", ["r", "b K3 K4", "e"]),  # +7
    ("OWGOWG", ["r", "b k5", "b k6", "e"]),  # +11
    ("BLBLBL", ["r", "b r1 r2 r3", "e"]),  # +3
    ("OOOGG$", ["r", "b c7", "e"]),  # +7
    ("BLWGBL", ["r", "build S4 R4", "e"]),  # +5
    ("$$BWGO", ["r", "t lumber", "b r5", "e"]),  # +1: the trade turns die 1 to lumber
    ("OOOOOO|OOOO|O", ["r", "k 1 2", "rr 3", "e", "n", "e", "y"]),  # X
] + [("OOOOOO", ["r", "e", "y"])] * 6  # six more X


def test_island_one_solo_game_to_the_end():
    dice, cmds = turns(ONE_PLAN)
    g = Game(1, 1, ScriptedDice(dice))
    screen = play(g, cmds)
    out = screen.text()
    assert g.over() and g.turns == [15]
    boxes = [4, 3, 7, 11, 3, 7, 5, 1] + [-2] * 7
    assert list(g.track) == boxes
    assert g.score(0) == sum(boxes) == 27
    assert "Track   4 3 7 11 3 7 5 1 X X X X X X X  total 27" in out
    assert out.endswith("=== Game over ===\n"
                        "P1      4 3 7 11 3 7 5 1 X X X X X X X  total 27\n"
                        "Final score: 27")
    assert "No: S5 needs road R5 first" in out
    assert "Built S3 (+3) R0 (+1). This turn: +4" in out
    assert "Two GOLD traded for one lumber." in out
    assert "Dice    1:lumb 2:(GOLD) 3:brick 4:wool 5:grain 6:ore" in out
    assert "The turn goes on." in out
    assert out.count("end with X (-2)? y/n") == 8  # the n, then seven y
    assert "=== P1: turn 15 of 15 ===" in out
    assert "Game left unfinished" not in out


def test_island_one_sheet_marks_and_jokers():
    g = Game(1, 1, ScriptedDice(faces("OWGOWG" "BLWGBL")))
    screen = play(g, ["r", "b k1 k2", "e", "r", "j k2 6", "show"])
    out = screen.text()
    # K2's grain joker turned die 6 (lumber) to grain; S3 and R0 both buildable.
    assert "K2(grain) turns die 6 to grain." in out
    sheet = out[out.rindex("P1> show"):]
    assert "  start S3* R0*" in sheet
    assert "  R0 >  R1. C7." in sheet
    assert "Knights K1# K2# K3- K4. K5. K6." in sheet
    assert "Jokers  ready: K1(ore)  used: K2(grain)  locked: K3(wool)" in sheet
    assert "Track   3 . . . . . . . . . . . . . .  total 3" in sheet
    assert "Can build: R0 S3" in sheet


def test_x_confirmation():
    g = Game(1, 1, ScriptedDice(faces("OOOOOO" "OOOOOO")))
    screen = play(g, ["r", "e", "no", "e", "", "show", "e", "y", "r", "e"])
    out = screen.text()
    assert out.count("The turn goes on.") == 2
    assert list(g.track[:1]) == [-2] and g.turns == [1]
    assert "P1 enters X: total -2" in out
    # EOF at the question: the turn is not ended, the game is left cleanly.
    assert g.turns == [1] and g.rolls == 1
    assert out.endswith("end with X (-2)? y/n \n\nGame left unfinished (end of input).")


def test_ending_a_turn_with_a_build_asks_nothing():
    g = Game(1, 1, ScriptedDice(faces("BLOOOO")))
    out = play(g, ["r", "b r0", "e"]).text()
    assert "end with X" not in out and list(g.track[:1]) == [1]


# ----------------------------------------------------------------- Island Two

IDLE = ("OOOOOO", ["r", "e"])
TWO_PLAN = [
    ("OWG", ["r", "b k1", "e"]),  # P1, 3 dice
    ("BLWG", ["r", "b s1", "e"]),  # P2, 4 dice: 1 VP
    ("OWGBL", ["r", "b k2 r0", "e"]),  # P1, 5 dice
    ("OWGOWG", ["r", "b k1 k2", "e"]),  # P2
    ("OWGBL$", ["r", "b k3 r2", "e"]),  # P1: third knight, Largest Army
    ("OWGBL$", ["r", "b k3 r0", "e"]),  # P2: three knights, not more: P1 keeps it
    ("BLWGBL", ["r", "b s1 r3", "e"]),  # P1: 3 VP
    ("BLBLBL", ["r", "b r2 r3 r5", "e"]),  # P2: the grey road, Longest Road
    ("BLBLWG", ["r", "b r5 s2", "e"]),  # P1: road 5, a tie: P2 keeps it. 4 VP
    ("OWGOOO", ["r", "b k4", "e"]),  # P2: four knights: Largest Army moves
    ("BLWGBL", ["r", "b s3 r6", "e"]),  # P1: road 6 beats 5: Longest Road back
    IDLE,
    ("BLBLWG", ["r", "b r1 r4", "e"]),  # P1
    IDLE,
    ("OOOGG$", ["r", "b c1", "e"]),  # P1: 7 VP
    IDLE,
    ("OOOGG$", ["r", "b c2", "e"]),  # P1: 9 VP
    IDLE,
    ("BLBLBL", ["r", "b r7 r8 r9", "e"]),  # P1
    IDLE,
    ("BLWG$$", ["r", "b s4 r10"]),  # P1: 10 VP wins at once; R10 is never built
]


def test_island_two_two_players_to_a_winner():
    dice, cmds = turns(TWO_PLAN)
    g = Game(2, 2, ScriptedDice(dice))
    out = play(g, cmds + ["more", "lines"]).text()
    assert g.over() and g.winners() == [0]
    assert g.vp(0) == 10 and g.vp(1) == 3
    assert g.longest == 0 and g.largest == 1
    assert not g.is_built(10, 0)  # R10: the game ended with S4
    assert "=== P1: game turn 1, 3 dice ===" in out
    assert "=== P2: game turn 2, 4 dice ===" in out
    assert "=== P1: game turn 5, 6 dice ===" in out
    assert "Built S4. VP now 10" in out
    assert "VP 10 of 10   knights 3   road 9   Longest Road P1   Largest Army P2" in out
    assert out.endswith("=== Game over ===\n1. P1 10 VP  2. P2 3 VP\nP1 wins, in game turn 21")
    # The awards as they moved.
    news = [ln for ln in out.split("\n") if " takes " in ln]
    assert news == ["P1 takes Largest Army (+2 VP).", "P2 takes Longest Road (+2 VP).",
                    "P2 takes Largest Army from P1.", "P1 takes Longest Road from P2."]
    assert "VP 3 of 10   knights 4   road 5   Longest Road P1   Largest Army P2" in out
    assert "All    >P1 2 VP   P2 5 VP" in out  # P1 lost Largest Army on P2's turn
    assert "more" not in out  # nothing read after the game ended


def test_solo_race_counts_turns():
    plan = [
        ("OWGOWG", ["r", "b k1 k2", "e"]),
        ("OWGBLB", ["r", "b k3 r0", "e"]),  # Largest Army, uncontested
        ("BLBLBL", ["r", "b r2 r3 r5", "e"]),  # the grey road: Longest Road
        ("BLWGBL", ["r", "b s1 r1", "e"]),
        ("BLWGBL", ["r", "b s2 r4", "e"]),
        ("BLWGOO", ["r", "b s3", "e"]),
        ("OOOGGW", ["r", "b c1", "e"]),
        ("OOOGWW", ["r", "joker K2 5", "b c2"]),  # K2's grain joker; 11 VP
    ]
    dice, cmds = turns(plan)
    g = Game(2, 1, ScriptedDice(dice))
    out = play(g, cmds).text()
    assert g.over() and g.winner == 0 and g.vp(0) == 11
    assert "=== P1: turn 8 ===" in out and "game turn" not in out
    assert out.endswith("=== Game over ===\nP1 reached 11 VP in 8 turns")


def test_desert_joker_by_either_knight_or_its_number():
    plan = [("OWGOWG", ["r", "b k6 k7", "e"]),
            ("OWGOWG", ["r", "b k8 k9", "e"]),
            ("BBBBBB", ["r", "j k7 1", "j k7 1 lumber", "j J6 2 wool", "j k9 3 l", "show"])]
    dice, cmds = turns(plan)
    g = Game(2, 1, ScriptedDice(dice))
    out = play(g, cmds).text()
    assert "No: choose brick, lumber, wool, grain or ore" in out
    assert "K6+K7(any) turns die 1 to lumb." in out
    assert "No: that joker is used" in out  # J6 is the K6+K7 joker
    assert "K8+K9(any) turns die 3 to lumb." in out
    assert "used: K6+K7(any) K8+K9(any)" in out
    assert g.jokers[0] == 0b1100000


# ------------------------------------------------------------------ refusals

@pytest.mark.parametrize("before, typed, reason", [
    ([], "b r0", "No: roll the dice first"),
    ([], "k 1 2", "No: the first roll throws all the dice"),
    ([], "reroll 1", "No: the first roll throws all the dice"),
    (["r"], "b s4", "No: S4 needs road R2 first (to build first: R0 R2 S3)"),
    (["r"], "b c12", "No: C12 needs road R4 first (to build first: R0 R1 R2 R3 R4 C7)"),
    (["r"], "b k2", "No: K2 comes after K1"),
    (["r"], "b r0", "No: R0 needs 1 brick, 1 lumber more"),
    (["r"], "j k1 1", "No: build K1 first"),
    (["r"], "t ore", "No: a trade needs two gold dice"),
    (["r"], "u", "No: nothing to undo this turn"),
    (["r"], "k 1 2 3 4 5 6", "No: choose at least one die to roll"),
    (["r"], "rr 7", "No: there are only 6 dice"),
    (["r"], "b zz9", "no item ZZ9 on Island 1 (type ? for help)"),
    (["r"], "t gold", "No: gold cannot be bought: trade two GOLD for brick, lumber, wool, "
                      "grain or ore"),
    (["r"], "t", "trade for what? for example: t ore (type ? for help)"),
    (["r"], "j 2", "say which knight and which die: joker K3 2 (type ? for help)"),
    (["r"], "rr x", "dice are numbered 1 to 6: x (type ? for help)"),
    (["r", "rr 1", "rr 1"], "rr 1", "No: no rolls left this turn"),
    (["r", "s"], "s", "No: rolling is over already"),
])
def test_refusals_print_the_reason_and_change_nothing(before, typed, reason):
    g = Game(1, 1, ScriptedDice(faces("OOOOWW" * 4)))
    play(g, before)
    was = snapshot(g)
    screen = play(g, [typed])
    after = screen.out[screen.out.index("P1> " + typed) + 1]
    assert after == reason
    assert snapshot(g) == was


def test_refusal_after_some_builds_keeps_them():
    g = Game(1, 1, ScriptedDice(faces("BLBLWG")))
    out = play(g, ["r", "b r0 r1 r5 r2"]).text()
    assert "Built R0 (+1) R1 (+1).\nNo: R5 needs road R3 first" in out
    assert g.roads[0] == 0b11 and g.points == 2


def test_unknown_command_and_help():
    g = Game(1, 1, ScriptedDice(faces("OOOOOO")))
    out = play(g, ["dance", "?", "help", "HELP"]).text()
    assert "Unknown command dance: type ? for the list" in out
    assert out.count("reroll 1 3 5") == 3
    for word in ("roll", "keep", "stop", "build", "joker", "trade", "undo", "end", "show",
                 "quit"):
        assert word in out
    assert g.phase == ROLL and not g.log


def test_case_and_aliases():
    g = Game(1, 1, ScriptedDice(faces("BLWGBL")))
    play(g, ["ROLL", "Stop", "BUILD s3", "B R0", "U", "build r0"])
    assert g.builds[0] == 1 and g.roads[0] == 1 and g.built == 2


def test_end_of_input_and_quit():
    g = Game(1, 2, ScriptedDice(faces("OOOOOO")))
    out = play(g, ["r"]).text()
    assert out.endswith("P1> \n\nGame left unfinished (end of input).")
    g = Game(2, 3, ScriptedDice(faces("OOO")))
    out = play(g, ["r", "quit", "y", "r"]).text()
    assert out.endswith("P1> quit\nLeave the game? It is not saved. y/n y\n\n"
                        "Game left unfinished (quit).")
    assert g.rolls == 1


def test_show_another_player_and_summary():
    g = Game(1, 2, ScriptedDice(faces("BLOOOO")))
    out = play(g, ["r", "b r0", "e", "show p1", "show 3"]).text()
    assert "All     P1 1 (1/15)  >P2 0 (0/15)" in out
    assert "P1's sheet\nTrack   1 . . . . . . . . . . . . . .  total 1" in out
    assert "show P1 to P2 (type ? for help)" in out


def test_narrow_screen():
    """At 40 columns every line fits (prompts with what was typed aside; the help
    list is not folded)."""
    dice, cmds = turns(TWO_PLAN)
    g = Game(2, 2, ScriptedDice(dice))
    screen = play(g, cmds, width=40)
    long = [ln for ln in screen.out if len(ln) > 40 and "> " not in ln[:5]]
    assert long == [], long
    dice, cmds = turns(ONE_PLAN)
    screen = play(Game(1, 1, ScriptedDice(dice)), cmds, width=40)
    assert [ln for ln in screen.out if len(ln) > 40 and "> " not in ln[:5]] == []


def test_wide_screen_fits_80_columns():
    for isl, players, plan in ((1, 1, ONE_PLAN), (2, 2, TWO_PLAN)):
        dice, cmds = turns(plan)
        screen = play(Game(isl, players, ScriptedDice(dice)), cmds + ["?"])
        assert max(len(ln) for ln in screen.out) <= 80


# -------------------------------------------------------------- command line

def test_parse_args():
    assert console.parse_args(["--island", "2", "--players", "3", "--code", "00C1ST"]) == {
        "island": 2, "players": 3, "code": "00C1ST"}
    assert console.parse_args(["-i=1", "-p", "1", "-w", "40"]) == {
        "island": 1, "players": 1, "width": 40}
    for bad in (["--island", "3"], ["--players", "5"], ["--players"], ["--colour", "red"],
                ["-p", "two"]):
        with pytest.raises(ValueError):
            console.parse_args(bad)


def test_parse_words():
    assert console.parse_dice(["1", "3,5"]) == 0b10101
    assert console.parse_dice(["246"]) == 0b101010
    assert [console.parse_resource(w) for w in ("ore", "O", "lumb", "wood", "gr", "Gold",
                                                 "x")] == [4, 4, 1, 1, 3, 5, None]
    assert console.parse_command("  K 2,4 ") == ("keep", ["2", "4"])
    assert console.parse_command("") == (None, [])
    assert console.parse_command("fly away") == ("?", ["fly"])


def test_setup_asks_what_is_missing():
    screen = Screen(["3", "2", "0", "2", "", "", "NOT-A-CODE", CODE.lower(), "r", "q", "y"])
    g = console.main([], screen.read, screen.write)
    out = screen.text()
    assert g.island.number == 2 and g.players == 2 and g.dice.seed == code_to_seed(CODE)
    assert out.count("Type a number from 1 to 2.") == 1
    assert out.count("Type a number from 1 to 4.") == 1
    assert "Island Two: first to 10 VP wins (2 persons, code %s)." % CODE in out


def test_setup_with_options_and_hardware_dice():
    screen = Screen(["r", "q", "y"])
    g = console.main(["--island", "1", "--players", "1"], screen.read, screen.write)
    assert type(g.dice).__name__ == "HardwareDice" and g.rolls == 1
    for argv, why in ((["--code", "ZZZZZZ"], "that game code has a typo"),
                      (["--bogus"], "unknown option --bogus")):
        screen = Screen(["1", "1"])
        with pytest.raises(SystemExit) as stop:
            console.main(argv, screen.read, screen.write)
        assert stop.value.code == 2
        assert screen.text().startswith(why + "\nusage:")
        assert screen.lines == ["1", "1"]  # nothing asked
    screen = Screen([])
    assert console.main([], screen.read, screen.write) is None
    assert screen.text().endswith("\nNo game.")


def test_new_code_is_shown():
    screen = Screen(["1", "1", "", "new", "q", "y"])
    g = console.main([], screen.read, screen.write)
    out = screen.text()
    line = [ln for ln in out.split("\n") if "anyone who plays it" in ln][0]
    code = line.split()[2].rstrip(":")
    assert g.dice.seed == code_to_seed(code)
    assert "(1 person, code %s)" % code in out


def greedy_commands(island, players, code):
    """Commands for a whole seeded game: roll once, stop, build the first buildable item
    until none is left, end (confirming an X). Worked out on the core with the same
    dice the console will throw."""
    g = Game(island, players, SeededDice(code_to_seed(code)))
    cmds = []
    while not g.over():
        g.roll()
        g.stop()
        cmds += ["r", "s"]
        while not g.over() and g.buildable():
            item = g.buildable()[0]
            g.build(item)
            cmds.append("b " + g.island.name(item))
        if g.over():
            break
        cmds.append("e")
        if island == 1 and not g.built:
            cmds.append("y")
        g.end_turn()
    return g, cmds


def _console_cmd(exe, island, players):
    return [exe, "-m", "catan.console", "--island", str(island), "--players", str(players),
            "--code", CODE]


def test_command_line_bad_option_fails():
    proc = subprocess.run([sys.executable, "-m", "catan.console", "--players", "9"],
                          input="", env=dict(os.environ, PYTHONPATH=str(LIB)),
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout.startswith("1 to 4 players\nusage:")


def test_command_line_cpython_full_game():
    g, cmds = greedy_commands(1, 1, CODE)
    proc = subprocess.run(_console_cmd(sys.executable, 1, 1), input="\n".join(cmds) + "\n",
                          env=dict(os.environ, PYTHONPATH=str(LIB)), capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.endswith("Final score: %d\n" % g.score(0))
    assert "P1> r\n" in proc.stdout  # piped commands are echoed
    # The same game through play() gives the same transcript.
    screen = Screen(cmds)
    console.main(["--island", "1", "--players", "1", "--code", CODE], screen.read, screen.write)
    assert proc.stdout == screen.text() + "\n"


MICROPYTHON = os.environ.get("MICROPYTHON", str(ROOT / ".venv" / "bin" / "micropython"))


@pytest.mark.parametrize("island, players", [(1, 1), (2, 3)])
def test_command_line_micropython_full_game(island, players):
    """The console under the real MicroPython unix port gives CPython's transcript."""
    if not os.path.exists(MICROPYTHON):
        if os.environ.get("ALLOW_NO_MICROPYTHON") == "1":
            pytest.skip("no %s (ALLOW_NO_MICROPYTHON=1)" % MICROPYTHON)
        pytest.fail("no %s: run `make setup`, or set ALLOW_NO_MICROPYTHON=1 to skip"
                    % MICROPYTHON, pytrace=False)
    g, cmds = greedy_commands(island, players, CODE)
    typed = "\n".join(cmds) + "\n"
    mp = subprocess.run([MICROPYTHON, "-X", "heapsize=190wK"] + _console_cmd("", island,
                        players)[1:], input=typed, env=dict(os.environ, MICROPYPATH=str(LIB)),
                        capture_output=True, text=True, timeout=120)
    assert mp.returncode == 0, mp.stdout[-2000:] + mp.stderr
    if island == 1:
        assert mp.stdout.endswith("Final score: %d\n" % g.score(0)), mp.stdout[-2000:]
    else:
        assert mp.stdout.endswith("%s wins, in game turn %d\n"
                                  % (console.player_name(g.winner), g.game_turn + 1))
    cp = subprocess.run(_console_cmd(sys.executable, island, players), input=typed,
                        env=dict(os.environ, PYTHONPATH=str(LIB)), capture_output=True,
                        text=True, timeout=60)
    # MicroPython's input() echoes a piped line with \r\n; otherwise the same bytes.
    assert mp.stdout.replace("\r\n", "\n") == cp.stdout


# ------------------------------------------------- issue 14, point 9: no input crashes

class Raising(Screen):
    """A Screen whose lines may be exceptions: raised by ``read`` in their turn."""

    def read(self, prompt):
        if self.lines and isinstance(self.lines[0], BaseException):
            self.out.append(prompt)
            raise self.lines.pop(0)
        return Screen.read(self, prompt)


@pytest.mark.parametrize("answer", ["²", "①", "٣", "1²", "9" * 5000, "1" * 7, "+1", "-1", " ", "1.0"])
def test_setup_numbers_refuse_what_is_not_a_plain_number(answer):
    screen = Screen([answer, "2", answer, "3", "", "", "", "", "q", "y"])
    g = console.main([], screen.read, screen.write)
    out = screen.text()
    assert g.island.number == 2 and g.players == 3
    assert out.count("Type a number from 1 to 2.") == 1 and out.count("Type a number from 1 to 4.") == 1


def test_unreadable_or_huge_lines_are_refused_and_asked_again():
    bad = UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")
    screen = Raising([bad, "1", MemoryError(), "1", "", bad, "", "r", MemoryError(), bad, "q",
                      "y"])
    g = console.main([], screen.read, screen.write)
    out = screen.text()
    assert g is not None and g.players == 1
    assert out.count("That line was not readable text: type it again.") == 3
    assert out.count("That line was too long: type it again.") == 2
    assert "Game left unfinished (quit)." in out


@pytest.mark.parametrize("typed", ["j K1 ²", "j J① 1", "show P²", "show " + "9" * 5000, "rr ²"])
def test_odd_digits_in_commands_get_a_reason(typed):
    screen = Screen(["r", typed, "q"])
    console.play(Game(1, 2, SeededDice(3)), screen.read, screen.write)
    lines = screen.text().splitlines()
    at = lines.index("P1> " + typed)
    assert "(type ? for help)" in lines[at + 1] or lines[at + 1].startswith("No: "), lines[at + 1]
    assert lines[at + 2] == "P1> q"


def test_options_with_odd_digits_are_refused():
    for argv in (["--players", "²"], ["--island", "①"], ["--players", "9" * 5000]):
        with pytest.raises(ValueError):
            console.parse_args(argv)


def test_invalid_utf8_on_a_strict_stdin_does_not_crash():
    proc = subprocess.run([sys.executable, "-m", "catan.console"], input=b"\xff\xfe\n1\n1\n\n\nq\ny\n",
                          env=dict(os.environ, PYTHONPATH=str(LIB), PYTHONIOENCODING="utf-8:strict"),
                          capture_output=True, timeout=60)
    out = proc.stdout.decode()
    assert proc.returncode == 0 and not proc.stderr, proc.stderr.decode()
    assert "That line was not readable text: type it again." in out


def test_a_200_kb_line_under_micropython_is_refused_and_asked_again():
    """With the heap a Pico has left for it, a 200 KB line raises MemoryError in input()."""
    if not os.path.exists(MICROPYTHON):
        pytest.fail("no %s: run `make setup`" % MICROPYTHON, pytrace=False)
    typed = b"x" * 200_000 + b"\n1\n1\n\n\nq\ny\n"
    mp = subprocess.run([MICROPYTHON, "-X", "heapsize=100wK", "-m", "catan.console"], input=typed,
                        env=dict(os.environ, MICROPYPATH=str(LIB)), capture_output=True, timeout=120)
    out = mp.stdout.decode(errors="replace")
    assert mp.returncode == 0 and "Traceback" not in out, out[-2000:]
    assert "That line was too long: type it again." in out
    assert out.rstrip().endswith("Game left unfinished (quit).")


# ------------------------------------ issue 26, point 8: over-long lines read in bounded chunks

@pytest.mark.parametrize("heap", ["190wK", "100wK"])
@pytest.mark.parametrize("where", ["setup", "game"])
def test_an_over_long_line_is_refused_under_micropython_at_any_heap(heap, where):
    """A 200,000-character line, at a setup question or at the game's prompt, is refused
    with a message and the game goes on: the line is read in bounded pieces, never whole."""
    if not os.path.exists(MICROPYTHON):
        pytest.fail("no %s: run `make setup`" % MICROPYTHON, pytrace=False)
    long = b"x " * 100_000 + b"\n"
    typed = (long + b"1\n1\n\n\nr\nq\ny\n") if where == "setup" else (
        b"1\n1\n\n\nr\n" + long + b"q\ny\n")
    mp = subprocess.run([MICROPYTHON, "-X", "heapsize=" + heap, "-m", "catan.console"],
                        input=typed, env=dict(os.environ, MICROPYPATH=str(LIB)),
                        capture_output=True, timeout=120)
    out = mp.stdout.decode(errors="replace")
    assert mp.returncode == 0 and "Traceback" not in out, out[-2000:]
    assert "That line was too long: type it again." in out
    assert out.rstrip().endswith("Game left unfinished (quit).")
    assert len(out) < 20_000  # the refused line is not echoed whole


def test_an_over_long_line_is_refused_on_cpython_too():
    typed = "1\n1\n\n\nr\n" + "b " * 100_000 + "\nq\ny\n"
    proc = subprocess.run([sys.executable, "-m", "catan.console"], input=typed,
                          env=dict(os.environ, PYTHONPATH=str(LIB)), capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "That line was too long: type it again." in proc.stdout
    assert proc.stdout.rstrip().endswith("Game left unfinished (quit).")


def test_bounded_reader_reads_lines_in_pieces_and_skips_the_rest_of_a_long_one():
    import io

    src = io.StringIO("short\n" + "y" * 1000 + "\nnext\nlast")
    out = io.StringIO()
    read = console.bounded_reader(src, out, limit=64)
    assert read("> ") == "short"
    with pytest.raises(console.LineTooLong):
        read("> ")
    assert read("> ") == "next"
    assert read("> ") == "last"
    with pytest.raises(EOFError):
        read("> ")
    assert len(out.getvalue()) < 200


# -------------------------- issue 24, point 9: the same game as the handheld's, at the console

sys.path.insert(0, str(ROOT / "host_tests" / "mp"))
from memstore import MemStore


def test_computer_seats_play_their_turns_as_the_handhelds_do():
    """Seats played by the computer take their turns on their own, each action said, and
    they choose what the handheld's computers choose (the same levels and seeds)."""
    from catan import players

    code = CODE
    screen = Screen([])  # no line typed at all: every seat is a computer
    g = console.main(["--island", "1", "--seats", "hard,easy", "--code", code],
                     screen.read, screen.write)
    out = screen.text()
    ref = Game(1, 2, SeededDice(code_to_seed(code)))
    players.play_game(ref, (players.HARD, players.EASY))
    assert g.over() and list(g.track) == list(ref.track)
    assert "P1 (hard) rolls all dice" in out and "P2 (easy) rolls all dice" in out
    assert out.endswith(console.render_result(g)[-1])
    assert "P1>" not in out and "P2>" not in out


def test_a_person_and_a_computer_take_turns():
    screen = Screen(["r", "s", "e", "y", "q", "y"])
    g = console.main(["--island", "1", "--seats", "person,medium", "--code", CODE],
                     screen.read, screen.write)
    out = screen.text()
    assert "(1 person, 1 computer: P2 medium" in out
    assert g.turns == [1, 1] and g.player == 0  # P2 played its first turn alone
    assert out.count("P2 (medium) ends the turn") == 1 or "P2 (medium) builds" in out


def test_setup_asks_each_seats_level():
    screen = Screen(["1", "2", "", "hard", "", "q", "y"])
    g = console.main([], screen.read, screen.write)
    out = screen.text()
    assert "P1: person, easy, medium or hard (Enter: person)? " in out
    assert g.players == 2 and g.turns[1] == 0 and g.player == 0
    screen = Screen(["1", "2", "robot", "e", "m", "q", "y"])
    g = console.main([], screen.read, screen.write)
    assert "Type person, easy, medium or hard." in screen.text()


def test_quit_asks_first():
    g = Game(1, 1, ScriptedDice(faces("OOOOOO")))
    out = play(g, ["r", "q", "n", "s", "quit", "yes"]).text()
    assert out.count("Leave the game?") == 2
    assert "The game goes on." in out
    assert out.endswith("Game left unfinished (quit).")
    assert g.phase != ROLL and g.rolls == 1  # "s" was played between the two questions


def test_t_gold_says_gold_cannot_be_bought():
    for dice in ("$$OOOO", "$OOOOO", "OOOOOO"):
        g = Game(1, 1, ScriptedDice(faces(dice)))
        play(g, ["r"])
        was = snapshot(g)
        screen = play(g, ["t gold"])
        after = screen.out[screen.out.index("P1> t gold") + 1]
        assert after.startswith("No: gold cannot be bought"), (dice, after)
        assert snapshot(g) == was


def test_the_coach_names_the_best_choice_as_a_command():
    g = Game(1, 1, ScriptedDice(faces("BLWGBL" "OOOOOO")))
    out = play(g, ["c", "r", "coach"]).text()
    lines = out.splitlines()
    first = lines[lines.index("P1> c") + 1]
    assert first.startswith("Coach: roll all the dice (type r)")
    assert "pts" in first
    hint = lines[lines.index("P1> coach") + 1]
    assert hint.startswith("Coach: ")
    from catan.players import coach

    action, value = coach.hint(g)
    assert console.command_for(g, action) in hint and ("%.1f pts" % value) in hint


def test_the_coach_on_island_two_names_the_choice_without_a_value():
    g = Game(2, 1, ScriptedDice(faces("OWGOWG")))
    out = play(g, ["r", "hint"]).text()
    line = out.splitlines()[out.splitlines().index("P1> hint") + 1]
    assert line.startswith("Coach: ") and "pts" not in line


def test_every_action_is_saved_and_continue_resumes_exactly():
    """The console saves as the handheld does (its record, in a store); started again it
    offers Continue, which resumes the very state, and a finished game leaves no save."""
    store = MemStore()
    screen = Screen(["1", "2", "", "hard", "", "r", "k 1 2", "q", "y"])
    g1 = console.main([], screen.read, screen.write, store=store)
    saved = store.read("game")
    assert saved
    from catan.codec import pack_save

    assert saved == pack_save(g1, bytes((255, 2)))  # the handheld's own record
    screen = Screen(["y", "s", "q", "y"])
    g2 = console.main([], screen.read, screen.write, store=store)
    out = screen.text()
    assert out.startswith("Continue the saved game (Island One, P1 person, P2 hard;")
    assert g2.log[:len(g1.log)] == g1.log and g2.rolls == g1.rolls
    assert g2.phase != ROLL and g2.player == 0


def test_continue_declined_starts_a_new_game_and_a_damaged_save_is_set_aside():
    store = MemStore({"game": b"H\x02garbage"})
    screen = Screen(["1", "1", "", "", "q", "y"])
    console.main([], screen.read, screen.write, store=store)
    out = screen.text()
    assert "The saved game could not be loaded" in out and "set aside" in out
    assert store.read("game-bad") == b"H\x02garbage"
    screen = Screen(["n", "2", "1", "", "", "q", "y"])
    g = console.main([], screen.read, screen.write, store=store)
    assert g.island.number == 2


def test_a_finished_game_clears_the_save():
    store = MemStore()
    screen = Screen([])
    console.main(["--island", "1", "--seats", "easy", "--code", CODE], screen.read,
                 screen.write, store=store)
    assert store.read("game") == b""


def test_make_play_saves_in_a_folder_and_continues(tmp_path):
    """`make play` runs tools/play.py: the console over the device's store in a folder; a
    second start offers Continue and resumes the very game."""
    make = (ROOT / "Makefile").read_text()
    assert "$(PY) tools/play.py" in make
    cmd = [sys.executable, str(ROOT / "tools" / "play.py"), "--saves", str(tmp_path)]
    first = subprocess.run(cmd, input="1\n2\n\nhard\n%s\nr\ns\nq\ny\n" % CODE,
                           capture_output=True, text=True, timeout=60)
    assert first.returncode == 0, first.stderr
    assert (tmp_path / "game").is_file()
    again = subprocess.run(cmd, input="y\nq\ny\n", capture_output=True, text=True, timeout=60)
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("Continue the saved game (Island One, P1 person, P2 hard; "
                                   "P1's turn 1)? y/n y")
    assert "Rolling over" not in again.stdout and "Can build:" in again.stdout  # the sheet


def test_computer_seats_play_the_same_game_under_micropython():
    """Three computers at the console: MicroPython's transcript is CPython's, byte for byte."""
    if not os.path.exists(MICROPYTHON):
        pytest.fail("no %s: run `make setup`" % MICROPYTHON, pytrace=False)
    args = ["-m", "catan.console", "--island", "2", "--seats", "hard,medium,easy", "--code", CODE]
    mp = subprocess.run([MICROPYTHON, "-X", "heapsize=190wK"] + args, input="",
                        env=dict(os.environ, MICROPYPATH=str(LIB)), capture_output=True,
                        text=True, timeout=300)
    cp = subprocess.run([sys.executable] + args, input="", env=dict(os.environ, PYTHONPATH=str(LIB)),
                        capture_output=True, text=True, timeout=300)
    assert mp.returncode == 0 and cp.returncode == 0, mp.stdout[-2000:] + mp.stderr + cp.stderr
    assert "wins, in game turn" in cp.stdout and mp.stdout == cp.stdout


def test_ctrl_c_while_a_computer_plays_leaves_the_game_cleanly():
    g = Game(1, 2, SeededDice(code_to_seed(CODE)))
    screen = Screen([])
    from catan import players

    real = players.next_action
    calls = []

    def interrupted(*a):
        calls.append(1)
        if len(calls) > 3:
            raise KeyboardInterrupt
        return real(*a)

    players.next_action = interrupted
    try:
        console.play(g, screen.read, screen.write, levels=[2, 2])
    finally:
        players.next_action = real
    assert screen.text().endswith("Game left unfinished (interrupted).")


def test_a_new_game_is_saved_at_once_so_quit_never_leaves_the_old_one():
    store = MemStore()
    console.main([], Screen(["1", "1", "", "", "r", "q", "y"]).read, lambda line: None,
                 store=store)
    old = store.read("game")
    screen = Screen(["n", "2", "1", "", "", "q", "y"])
    console.main([], screen.read, screen.write, store=store)
    assert store.read("game") != old
    game, levels = console.load_save(store.read("game"))
    assert game.island.number == 2 and levels == [None] and not game.log


def test_command_for_names_the_dice_plainly():
    g = Game(1, 1, ScriptedDice(faces("OOOOOO")))
    g.roll()
    assert console.command_for(g, ("roll", 0b111111)) == "rr 1 2 3 4 5 6"
    assert console.command_for(g, ("roll", 0b011110)) == "k 1 6"
    assert console.command_for(g, ("roll", 0b000110)) == "rr 2 3"
    assert console.command_for(g, ("stop",)) == "s"
    with pytest.raises(ValueError, match="--seats"):
        console.parse_args(["--seats", "person,robot"])


def test_continue_part_way_through_a_turn_says_the_turn_before_its_sheet():
    # issue 40: the map came before the turn's header
    store = MemStore()
    screen = Screen(["1", "2", "", "hard", "", "r", "k 1 2", "q", "y"])
    console.main([], screen.read, screen.write, store=store)
    screen = Screen(["y", "q", "y"])
    g = console.main([], screen.read, screen.write, store=store)
    lines = screen.text().splitlines()
    head = [x for x in console.render_turn_header(g) if x][0]
    sheet = [x for x in console.render_sheet(g) if x]
    assert head in lines and sheet[0] in lines
    assert lines.index(head) < lines.index(sheet[0]), lines[:12]
    assert lines.count(head) == 1


def test_a_computer_ending_an_island_two_turn_is_said_once():
    # issue 40: "P2 (easy) ends the turn: ends the turn with 2 VP."
    screen = Screen([])
    console.main(["--island", "2", "--seats", "easy,easy", "--code", CODE], screen.read,
                 screen.write)
    out = screen.text()
    assert "ends the turn with" in out and "ends the turn: ends the turn" not in out
