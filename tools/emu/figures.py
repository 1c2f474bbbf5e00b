"""The device figures of `make bench`, measured on the emulated Pico (emulated time: deterministic).

    python tools/emu/figures.py [--firmware pico|picow|uf2] [--board NAME] [--turns N] [--games N]
                                [--tree DIR] [--in-a-row N] [--cold-hints] [--hint-parts]
                                [--qstrs]
                                                                  (also: tools/bench.py -k rp2040)

Each firmware's figures have a prefix of their own (``PREFIX``): ``rp2040_`` on the stock Pico
firmware, ``rp2040_uf2_`` on the game UF2, ``rp2040_picow_`` on the stock Pico W firmware; the
names below are the stock Pico's. ``device`` gives them all for ``make bench``.

- ``rp2040_boot_ms``: reset to the last pixel of the first frame.
The scripted game plays the same dice whatever the code (``fixed_dice_tree``), so that a change's
before and after are the same game.

- ``rp2040_cursor_ms``: the press edge of an 80 ms press to the last SPI pixel byte, mean over the
  cursor moves of a scripted solo Island One game (the turn screen: dice, Roll, Keep, End; a
  player who never builds).
- ``rp2040_menu_ms``: the same for a move between the rows of a menu (the new-game form; mean).
- ``rp2040_roll_ms``: press edge of Roll to the last pixel (mean); ``rp2040_redraw_ms``: a full
  redraw of the turn screen (back from the pause menu; mean).
- ``rp2040_hint_ms_worst``: the coach's hint, from the long press being recognised (press edge +
  600 ms) to its last pixel, at each kind of moment of the scripted game's turns: before the first
  roll, between rolls, in the build phase.
- ``rp2040_hint_cold_ms_worst``: the same, the hint asked as soon as the screen has settled (Y
  held 700 ms, as a person holds it), with no pause for the work ahead: the instant the turn
  screen appears, back from the pause menu, in the build phase and right after a computer's turn
  (``cold_hints``; each moment's figure too); ``rp2040_hint_cold_largest_block``: the largest free
  block the first leaves once the device is idle (``..._working``: read as soon as it is drawn,
  its garbage not yet collected); ``rp2040_hint_bytes_max``: the most pixel bytes one of them sent.
  ``--hint-parts`` alone: where a cold hint's time goes, part by part (``hint_parts``).
- ``rp2040_computer_ms_worst``: the slowest single decision of the hard computer (on the device's
  REPL, after the framebuffer and the screens are in the heap as in a game), over whole games on
  either island, each decision asked after the pause the turn screen shows before a computer's
  step at the default speed (600 ms), in which the main loop gives it time to think
  (``players.think``); ``..._cold_...``: with no pause (every decision from nothing);
  ``rp2040_think_slice_ms_worst``: the longest slice of that thinking (the longest a key waits).
- ``rp2040_free_min`` / ``rp2040_largest_block_min``: the smallest free heap and largest free block
  read from RAM after any key of the scripted game, once the device has finished its work
  ahead (the main loop collects garbage then, and its idle rounds allocate nothing, so the heap
  stops changing). The one-block ``object()`` garbage with which the main loop fills the holes
  after a collection (``app_main.plug_holes``: it steers the allocator above them, and the next
  collection frees it) counts as free: how much of it there is depends on where the holes fall,
  not on what the game keeps (from 6.7 to 19.6 KB at the same moment of two versions of the
  game). ``rp2040_largest_block_min_working``: the same
  read as soon as the screen is quiet, while that work may still be going on (its garbage not
  yet collected, so it reads low). All three are the least over the heap's layouts of
  ``LAYOUTS`` (the scripted game played once on each: ``perturbed``; the block that moves the
  layout counts as free), each layout's beside them (``rp2040_free_min_at_512``,
  ``rp2040_largest_block_min_at_512``, ...).
- ``rp2040_spi_bytes_per_cursor_move``: pixel bytes sent per cursor move (mean).
- ``rp2040_qstr_names``: the names (qstrs) interned in the heap once every module of the game
  has been imported on a stock firmware, each in turn and let go (a name stays interned for
  good); ``rp2040_qstr_pools``: the pools they fill, and ``rp2040_qstr_room``: the names still
  free before the next pool (a pool is a block of the heap, for good: the 7th, 7.7 KB).
  ``--qstrs`` alone prints each module's share (``qstrs``; those the safe boot has imported
  already, ``app_main`` and the board's, count in the first reading and show 0).
- ``rp2040_free_after_game_1`` / ``..._last``: the free heap after the first and the last of 100
  computer games in a row on the device's REPL (``leak``: no leak if they are within 2 KB).
- ``rp2040_heap_*``: the heap each part of the game takes on the device (``parts``).

A path that dies on the device is reported by name with the sentinel -1 and its error in
``rp2040_errors`` (printed, not in bench.json).
"""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pico

ROOT = Path(__file__).resolve().parents[2]

LONG_MS = 600  # firmware/buttons.py: a press this long is a long press
HOLD_MS = 700  # how long a person holds Y for a hint
HINT_WAIT_MS = 30_000
WORK_MS = 2_500  # the idle time after a key in which the device finishes its work ahead
MORE_MS = 6_000  # and the most time after that for work that is not done yet
STEP_MS = 300  # how often the heap is read meanwhile
ANSWER_MS = 1_000  # a key's pixels come within this of its release, or it drew nothing
# A hint waits a while first, so that the pixels after its long press are its own (a message
# that left the turn screen's foot on its own, 3 s after it came, once ended the wait while the
# stock Pico W's coach still worked, 1.6 s without a pixel, and the next cursor move was timed
# at 1,038 ms). A message now stays until the next key, which clears it on its first edge.
MESSAGE_MS = 3_200
FAILED = -1


PLUG = 16  # bytes: a one-block object on an RP2040 (``plug_holes``'s garbage)


def object_type(board, firmware="pico", tree=None):
    """The address of MicroPython's ``object`` type on ``firmware`` (the first word of every
    ``object()`` in the heap), asked at the REPL of a second emulated Pico in safe boot."""
    with fixed_dice_pico(board, firmware, tree) as q:
        q.safe_boot()
        return int(q.exec("print(id(object))").split()[-1])


class Recorder:
    """Presses keys on an EmulatedPico and keeps the figures of each (``plug_type``: see
    ``plugs``)."""

    def __init__(self, p, plug_type=None):
        self.p = p
        self.plug_type = plug_type
        self.free = []
        self.largest = []
        self.busy_largest = []
        self.errors = []
        self.hint_bytes = []  # pixel bytes each hint sent (``_hint``)

    def key(self, role, press_ms=pico.PRESS_MS):
        """Press ``role``; (ms from the press edge to the last pixel, pixel bytes sent)."""
        p = self.p
        before = p.stats()
        t0 = p.key(role, press_ms=press_ms, settle=False)
        if p.stats()["last_pixel_ns"] > t0:
            # the answer began while the key was down: it ends at the first quiet spell (waiting
            # for one more pixel timed a redraw a second later on the stock Pico W: 1,048 ms)
            p.settle()
        else:
            # a press that draws nothing within ANSWER_MS is not timed (a later redraw, such as
            # a message leaving the foot 3 s on, is no answer to it)
            p.settle(first=True, max_ms=press_ms + ANSWER_MS)
        after = p.stats()
        h = self.p.heap()  # the screen is quiet; the work ahead may still be going on
        self.busy_largest.append(h["largest"])
        h = self.settled_heap()
        self.free.append(h["free"])
        self.largest.append(h["largest"])
        sent = after["pixel_bytes"] - before["pixel_bytes"]
        return (after["last_pixel_ns"] - t0) / 1e6 if sent else None, sent

    def settled_heap(self):
        """The heap once the work ahead is done and collected (a player's pause after a key,
        ``WORK_MS``, then, as an idle main loop allocates nothing, the first of two reads
        ``STEP_MS`` apart that agree, at most ``MORE_MS`` later)."""
        self.p.run(WORK_MS)
        h = self.p.heap()
        waited = 0
        while waited < MORE_MS:
            self.p.run(STEP_MS)
            waited += STEP_MS
            later = self.p.heap()
            if later["free"] == h["free"]:
                break
            h = later
        return dict(h, free=h["free"] + self.plugs())

    def plugs(self):
        """Bytes of ``plug_holes``'s one-block ``object()`` garbage in the heap (free once
        collected; 0 without ``plug_type``)."""
        if self.plug_type is None:
            return 0
        return sum(n for _, n, word in self.p.call("objects")["objects"]
                   if word == self.plug_type and n == PLUG)

    def died(self, what):
        out = self.p.read_serial()
        if "Error" in out or "Traceback" in out:
            lines = [ln for ln in out.splitlines() if "Error" in ln] or ["?"]
            self.errors.append("%s: %s" % (what, lines[-1].strip()))
            self.p.serial = ""
            return True
        return False


def _mean(xs):
    """The mean of the presses that drew something (None: the press was not seen)."""
    xs = [x for x in xs if x is not None]
    return round(sum(xs) / len(xs), 1) if xs else FAILED


FIXED_SEED = 12345  # the scripted game's dice (see ``fixed_dice_tree``)


def fixed_dice_tree(board, seed=FIXED_SEED):
    """The device tree of ``board`` whose new games all take the dice of ``seed``: the game's
    seed comes from the hardware random source, which mixes in the time, so any change to the
    code would play other dice and a before/after comparison would compare other games. Only
    ``catan/dice.mpy``'s ``random_seed`` differs (built in build/emu/fixed-dice/<board>)."""

    sys.path.insert(0, str(ROOT / "tools"))
    import deploy

    tree = deploy.build(board, ROOT / "build" / "emu" / "fixed-dice" / board)
    fixed = Path(tree).parent / "dice.py"
    fixed.write_text(fixed_dice_source(seed))
    mpy = next(Path(tree).rglob("catan/dice.mpy"))
    deploy.compile_module(fixed, mpy, "catan/dice.py")
    return tree


def fixed_dice_pico(board, firmware="pico", tree=None, offset=0, extra_files=None):
    """An EmulatedPico of ``firmware`` whose new games take the dice of ``FIXED_SEED`` (a stock
    firmware with ``fixed_dice_tree``, or a game UF2 built with the same ``dice.py``), unless a
    ``tree`` is given; its heap's layout moved by ``offset`` bytes (``layout_files``);
    ``extra_files`` on its filesystem too (a save)."""
    extra = dict(layout_files(offset) or {}, **(extra_files or {})) or None
    if firmware == "uf2":
        import uf2

        return pico.EmulatedPico(board, firmware="uf2", extra_files=extra, uf2=uf2.build(
            board, overrides={"catan/dice.py": fixed_dice_source()}, variant="fixed-dice",
            log=lambda *a: None))
    return pico.EmulatedPico(board, tree=tree or fixed_dice_tree(board), firmware=firmware,
                             extra_files=extra)


# The heap's layouts the scripted game is measured on: a block of this many bytes made before the
# game boots and kept (``layout_files``), so that everything the game allocates lands elsewhere.
# A figure that holds on each holds when code moves (a few hundred bytes more or less of
# bytecode moved the stock firmware's largest free block by kilobytes before the memory plan).
LAYOUTS = (0, 64, 512, 2048)


def layout_files(offset):
    """The files that make a device keep ``offset`` bytes from before its game boots (its
    ``boot.py``, which the firmware runs before ``main.py``), or None for none."""
    if not offset:
        return None
    return {"/boot.py": b"import heap_offset\n",
            "/heap_offset.py": b"KEEP = bytearray(%d)  # the heap's layout moved (figures.py)\n" % offset}


def perturbed(board, turns=15, tree=None, firmware="pico"):
    """The scripted game's figures on each layout of ``LAYOUTS``: the first layout's, with the
    heap's (``..._free_min``, ``..._largest_block_min``, ``..._largest_block_min_working``) the
    least over all of them, and each layout's free and largest block min beside them
    (``..._free_min_at_<offset>``, ``..._largest_block_min_at_<offset>``); the errors of every
    run. The block that moves the layout is the bench's, not the game's: its bytes count as
    free (what is left of it, its module's few hundred bytes, counts against the game)."""
    out, errors = None, []
    for offset in LAYOUTS:
        more, errs = scripted_game(board, turns, tree=tree, firmware=firmware, offset=offset)
        errors += ["layout +%d: %s" % (offset, e) for e in errs]
        more["rp2040_free_min"] += offset
        if out is None:
            out = more
        else:
            for k in ("rp2040_free_min", "rp2040_largest_block_min",
                      "rp2040_largest_block_min_working"):
                out[k] = min(out[k], more[k])
        out["rp2040_free_min_at_%d" % offset] = more["rp2040_free_min"]
        out["rp2040_largest_block_min_at_%d" % offset] = more["rp2040_largest_block_min"]
    return out, errors


def fixed_dice_source(seed=FIXED_SEED):
    """catan/dice.py with ``random_seed`` answering ``seed``."""
    src = (ROOT / "lib" / "catan" / "dice.py").read_text()
    head = "def random_seed(urandom=None):\n"
    assert head in src, "catan/dice.py: random_seed not found"
    return src.replace(head, head + "    return %d\n" % seed, 1)


def scripted_game(board, turns=15, hints=True, tree=None, firmware="pico", offset=0):
    """A solo Island One game played by keys on a four-button board, with the dice of
    ``FIXED_SEED`` unless a ``tree`` is given, the heap's layout moved by ``offset`` bytes; its
    figures."""
    cursor, spi, rolls, redraws, hint_ms = [], [], [], [], []
    plug = object_type(board, firmware, tree)
    with fixed_dice_pico(board, firmware, tree, offset) as p:
        out = {"rp2040_boot_ms": round(p.boot(), 1)}
        r = Recorder(p, plug)
        menu = []
        r.key("a")  # New game
        for k in ("y", "x", "x"):  # down to Players, back up, up to Start (the menu wraps)
            menu.append(r.key(k)[0])
        r.key("a")  # start
        for turn in range(turns):
            if hints and turn == 0:
                hint_ms.append(_hint(r, "before the first roll"))
            ms, _ = r.key("a")  # Roll
            rolls.append(ms)
            if hints and turn == 0:
                hint_ms.append(_hint(r, "between rolls"))
            # after a roll the cursor is on die 1: on to die 4, back to die 3, on to Keep
            for k in ("y", "y", "y", "x", "y", "y", "y", "y", "y"):
                ms, sent = r.key(k)
                cursor.append(ms)
                spi.append(sent)
            r.key("b")  # pause
            ms, _ = r.key("b")  # back: the whole turn screen again
            redraws.append(ms)
            r.key("a")  # Keep: the build phase
            if hints and turn == 0:
                hint_ms.append(_hint(r, "in the build phase"))
            ms, sent = r.key("x")  # to End
            cursor.append(ms)
            spi.append(sent)
            r.key("a")  # End: asks before an X if nothing was built, on Back
            r.key("x")  # the X
            r.key("a")
            if r.died("turn %d" % (turn + 1)):
                break
        r.died("the game")
        out.update({
            "rp2040_cursor_ms": _mean(cursor),
            "rp2040_menu_ms": _mean(menu),
            "rp2040_roll_ms": _mean(rolls),
            "rp2040_redraw_ms": _mean(redraws),
            "rp2040_spi_bytes_per_cursor_move": _mean(spi),
            "rp2040_free_min": min(r.free),
            "rp2040_largest_block_min": min(r.largest),
            "rp2040_largest_block_min_working": min(r.busy_largest),
        })
        if hints:
            out["rp2040_hint_ms_worst"] = FAILED if FAILED in hint_ms else round(max(hint_ms), 1)
        return out, r.errors


def _hint(r, moment, cold=False):
    """The hint of a long press of Y (held ``HOLD_MS``, as a person holds it): ms from the long
    press being seen to its last pixel (``FAILED`` if it died or drew nothing). It waits
    ``MESSAGE_MS`` first unless ``cold``. ``r.hint_bytes`` gets the pixel bytes it sent."""
    p = r.p
    if not cold:
        p.run(MESSAGE_MS)
    p.pin("y", True)
    t0 = p.ns
    p.run(LONG_MS)
    sent = p.stats()["pixel_bytes"]  # the short press's cursor step is drawn by now
    p.run(HOLD_MS - LONG_MS)
    p.pin("y", False)
    # Pixels after the long press was seen are the hint's. Drawn already while Y was held, the
    # hint is timed to the end of them; else its pixels are waited for. (Waiting for the next
    # pixels regardless timed the coach's line leaving the foot, 3 s on: "3,006.9 ms".)
    drawn = p.stats()["last_pixel_ns"] > t0 + LONG_MS * 1e6
    p.settle(quiet_ms=300, max_ms=HINT_WAIT_MS, first=not drawn)
    st = p.stats()
    if r.died("hint " + moment):
        p.power_cut()  # the error screen stays: power up again and Continue the saved game
        p.boot()
        r.key("a")
        return FAILED
    if st["last_pixel_ns"] < t0 + LONG_MS * 1e6:
        r.errors.append("hint %s: nothing on the screen %d ms after the press" % (moment, HINT_WAIT_MS))
        return FAILED
    r.hint_bytes.append(st["pixel_bytes"] - sent)
    return (st["last_pixel_ns"] - t0) / 1e6 - LONG_MS


# The cold hints' game: a person (seat 1) against the hard computer at the instant speed, as
# ``saved_start`` saves it, so that the person's turn screen appears right after the computer's
COLD_GAME = dict(island=1, levels=(255, 2), seed=5)


def _seat(p):
    """Whose turn the game saved on ``p``'s flash is."""
    pico.saved_game({})  # (which puts the game's modules on the path)
    import store
    from catan.codec import unpack_save

    return unpack_save(store.unpack(p.files()["/data/game"]))[0].player


def _corner(p):
    """The colour of the screen's top right pixel: the turn screen's header, in the colour of
    the seat whose turn it shows."""
    return p.frame()[1][-2]


def cold_hints(board, firmware="pico", tree=None):
    """The coach asked as soon as a screen has settled (no pause for the work ahead), at four
    moments of a two-seat game (``COLD_GAME``): the instant the turn screen appears (Continue),
    back from the pause menu (B, B), in the build phase, and right after the computer's turn;
    the worst of them (``rp2040_hint_cold_ms_worst``, timed as ``_hint``), each moment's, the
    largest free block the first leaves (once the device is idle and has collected; ``_working``:
    read as soon as its last pixel is drawn), and the most pixel bytes a hint sent."""
    saves = pico.saved_start(**COLD_GAME)
    ms = {}
    with fixed_dice_pico(board, firmware, tree, extra_files=saves) as p:
        p.boot()
        r = Recorder(p)
        p.key("a")  # Continue: the turn screen appears
        ms["start"] = _hint(r, "as the turn screen appears", cold=True)
        working = p.heap()["largest"]  # the hint's garbage not yet collected
        largest = r.settled_heap()["largest"]  # what the hint leaves, once the device is idle
        # The other moments from a new power-up, so that waiting for the heap to settle does
        # not let the work ahead of the turn finish before them (the saved game is unchanged: a
        # hint moves nothing)
        p.power_cut()
        p.boot()
        p.key("a")
        p.key("b")  # pause
        p.key("b")  # back: the whole turn screen again
        ms["pause"] = _hint(r, "back from the pause menu", cold=True)
        p.key("a")  # Roll
        for k in ("y", "y", "y", "x", "y", "y", "y", "y", "y"):  # die 1 to Keep (see scripted_game)
            p.key(k)
        p.key("a")  # Keep: the build phase
        ms["build"] = _hint(r, "in the build phase", cold=True)
        mine = _corner(p)  # the header's colour in the person's turn
        for k in ("x", "a", "x", "a"):  # to End, End, its X, then the computer plays at once
            p.key(k)
        while _seat(p) != 0:  # (a key in the computer's turn would finish it, not ask the coach)
            p.settle(first=True, max_ms=5_000)
        # The game is saved as the person's before their turn screen is drawn (the computer's
        # last step stays for its pause, and a key there skips it): a person asks once it is
        for _ in range(1500):  # (30 s at most: then the hint is asked as it is)
            if _corner(p) == mine:
                break
            p.run(20)
        ms["computer"] = _hint(r, "right after a computer's turn", cold=True)
        r.died("cold hints")
    out = {"rp2040_hint_cold_ms_" + k: round(v, 1) for k, v in ms.items()}
    out["rp2040_hint_cold_ms_worst"] = FAILED if FAILED in ms.values() else max(out.values())
    out["rp2040_hint_cold_largest_block"] = largest
    out["rp2040_hint_cold_largest_block_working"] = working
    out["rp2040_hint_bytes_max"] = max(r.hint_bytes) if r.hint_bytes else FAILED
    return out, r.errors


# What the boot keeps for good before it imports the game, as ``app_main.boot`` makes it: the
# framebuffer (in bands where the game's code is in the heap) and the players' table arrays. The
# REPL's workloads begin with it (``BOOT``), so that they find the heap laid out as the game
# does: on the stock Pico W, with the whole frame and the arrays made after the code, the hard
# computer's games, the leak's and the heap by part found no 5.5 KB block for the arrays.
_BOOT = r"""
import gc, app_main
_board = app_main.load_board()
_plan = app_main.memory_plan()
def frame():
    return app_main.alloc_framebuffer(_board, app_main.frame_rows(_board, _plan))
def arrays():
    _plan.reserve()
"""
BOOT = r"""
buf = frame()
arrays()
"""


def _repl(board, tree, script, max_ms, firmware="pico", **values):
    """The output of ``script`` (a % template, which begins by making what the boot keeps: see
    ``BOOT``) run on the device's REPL after a safe boot."""
    with pico.EmulatedPico(board, tree=tree, firmware=firmware) as p:
        p.safe_boot()
        return p.exec((_BOOT + script) % values, max_ms=max_ms)


COMPUTER = BOOT + r"""
import gc, time
import catan.ui.app, catan.ui.turn, catan.ui.sheet
from catan.game import Game
from catan.dice import SeededDice
from catan import players
from catan.players import next_action, apply
worst = [0, 0]
cold = [0, 0]
slices = [0]
low = [1 << 30]
lower = [0]  # decisions made by a level below the hard computer's (``fit``)
clock = [0, 0]  # the pause's start (ms), the last slice's end (us)


def pause_over():  # a slice of thinking ends here: the time since the last is a slice
    now = time.ticks_us()
    if time.ticks_diff(now, clock[1]) > slices[0]:
        slices[0] = time.ticks_diff(now, clock[1])
    clock[1] = now
    return time.ticks_diff(time.ticks_ms(), clock[0]) >= %(step)d


def fit(g):  # a decision whose work found no room, made as the game makes it (App._next_action):
    for level in (2, 1, 0):  # again from a collected heap, then by each level below
        players.forget()
        gc.collect()
        try:
            a = next_action(g, level, g.player)
        except MemoryError:
            continue
        if level < 2:
            lower[0] += 1
        return a
    raise MemoryError("no room for the easy computer's work either")


def step(g, slowest, k):  # one timed decision (and any retry: the wait is the player's), carried out
    t = time.ticks_us()
    try:
        a = next_action(g, 2, g.player)
    except MemoryError:
        a = fit(g)
    dt = time.ticks_diff(time.ticks_us(), t)
    if dt > slowest[k]:
        slowest[k] = dt
    apply(g, a)


for island, seats in ((1, 1), (2, 4)):
    for seed in range(%(games)d):
        g = Game(island, seats, SeededDice(seed + 1))
        while not g.over():
            clock[0] = time.ticks_ms()
            clock[1] = time.ticks_us()
            # the step's pause on the screen (in the build phase, for the next seat too)
            try:
                players.think(g, 2, pause_over, g.player, then=(2, (g.player + 1) %% seats, False))
            except MemoryError:  # as in the game (App.think): work ahead with no room is dropped
                players.forget()
                gc.collect()
            step(g, worst, island - 1)
        gc.collect()
        low[0] = min(low[0], gc.mem_free())
    g = Game(island, seats, SeededDice(99))
    while not g.over():  # no pause: every decision worked out from nothing when asked
        players.forget()
        step(g, cold, island - 1)
print("WORST", worst[0], worst[1], cold[0], cold[1], slices[0], low[0], lower[0])
"""


def computer(board, games=1, tree=None, firmware="pico"):
    """The hard computer's slowest decision per island, in ms, timed on the device after the
    pause the turn screen shows before each step at the default speed (600 ms, in which the
    main loop lets it think); the slowest decision with no pause to think in; the longest
    slice of thinking (how long a key can wait); the least free heap after a game; how many
    decisions found no room for the hard computer's work and were made by a level below."""
    sys.path.insert(0, str(ROOT / "lib"))
    from catan.ui.records import STEP_MS, Settings

    res = _repl(board, tree, COMPUTER, 3_600_000, firmware, games=games, step=STEP_MS[Settings().speed])
    if "WORST" not in res:
        return {"rp2040_computer_ms_worst": FAILED}, ["hard computer: " + res.strip()[-300:]]
    one, two, cold1, cold2, slice_us, low, lower = (int(v) for v in res.split("WORST")[1].split()[:7])
    return {"rp2040_computer_ms_worst": round(max(one, two) / 1000, 1),
            "rp2040_computer_ms_worst_island1": round(one / 1000, 1),
            "rp2040_computer_ms_worst_island2": round(two / 1000, 1),
            "rp2040_computer_cold_ms_worst_island1": round(cold1 / 1000, 1),
            "rp2040_computer_cold_ms_worst_island2": round(cold2 / 1000, 1),
            "rp2040_think_slice_ms_worst": round(slice_us / 1000, 1),
            "rp2040_computer_free_min": low,
            "rp2040_computer_moves_lower": lower}, []


LEAK = BOOT + r"""
import gc
import catan.ui.app, catan.ui.turn, catan.ui.sheet
from catan.game import Game
from catan.dice import SeededDice
from catan import players
free = []
for k in range(%(games)d):
    island = 1 + k %% 2
    g = Game(island, 2, SeededDice(k + 1))
    players.play_game(g, (0, island - 1), k)  # easy, and medium on Island Two
    g = None
    gc.collect()
    free.append(gc.mem_free())
print("FREE", free[0], free[-1])
"""


def leak(board, games=100, tree=None, firmware="pico"):
    """Free heap after the first and the last of ``games`` computer games in a row (both
    islands, two seats: easy against easy, or medium on Island Two), on the device's REPL:
    no leak if the two are within a few hundred bytes. (Hard's caches are the same kind;
    its games are too slow on the emulator for a hundred.)"""
    res = _repl(board, tree, LEAK, 7_200_000, firmware, games=games)
    if "FREE" not in res:
        return {"rp2040_free_after_game_last": FAILED}, ["games in a row: " + res.strip()[-300:]]
    first, last = (int(v) for v in res.split("FREE")[1].split()[:2])
    return {"rp2040_free_after_game_1": first, "rp2040_free_after_game_last": last,
            "rp2040_games_in_a_row": games}, []


PARTS = r"""
import gc
def free():
    gc.collect()
    return gc.mem_free()
out = {}
prev = free()
out["start"] = prev
for part, names in %(parts)r:
    if part == "framebuffer":
        buf = frame()
    if part == "tables":
        arrays()
    for name in names:
        __import__(name)
    if part == "players_and_coach":  # the multisets made, the value table's buffers
        from catan.players import reroll, values
        reroll.dice_multisets()
        values.value_table()
    f = free()
    out[part] = prev - f
    prev = f
print("PARTS", out)
"""
_PARTS = (("framebuffer", ()),
          ("tables", ()),
          ("core", ("catan.game", "catan.codec", "catan.dice")),
          ("screens", ("catan.ui.canvas", "catan.ui.fb_canvas", "catan.ui.widgets",
                       "catan.ui.layout", "catan.ui.records", "catan.ui.app", "catan.ui.sheet",
                       "catan.ui.turn")),
          ("screens_on_demand", ("catan.ui.menu", "catan.ui.menus", "catan.ui.info", "catan.ui.sheets",
                                 "catan.ui.font_large")),
          ("shell", ("store", "buttons", "st7789", "st7789_asm", "fb_viper")),
          ("players_and_coach", ("catan.players", "catan.players.coach")))


def parts(board, tree=None, firmware="pico"):
    """The heap each part takes on the device, imported one part after another from the .mpy
    files of the device tree (gc.mem_free before and after): the framebuffer and the tables
    (the players' table arrays) as the boot makes them, then the code; the players' part
    includes the dice multisets made in their arrays and the value table's buffers."""
    import ast

    res = _repl(board, tree, PARTS, 600_000, firmware, parts=_PARTS)
    if "PARTS" not in res:
        return {}, ["heap by part: " + res.strip()[-300:]]
    got = ast.literal_eval(res.split("PARTS", 1)[1].strip().splitlines()[0])
    return {"rp2040_heap_" + k: v for k, v in got.items()}, []


# The console's line for a computer's move whose work found no room in the heap, played by the level
# below (``App._next_action``)
LOWER = "No room for the computer's work"


def whole_game(board, island, levels, firmware="pico", seed=7, max_s=3600):
    """A whole game of computers (``levels``) played through the device's screens from a saved
    new game (Continue, then the game at the instant speed, then its game-over screens): the
    error if one ended it, and ``moves_lower``, the computers' moves whose work found no room
    and were made by the level below (``LOWER``). (Its heap is not read: at the instant speed
    the computers never leave the main loop idle, so a reading at any moment counts the garbage
    of their work as used, and the first benches read 0 free on every firmware; the scripted
    game's readings, taken once the work is done and collected, are what a game keeps.)"""
    errors = []
    start = pico.saved_start(island, levels, seed)
    with pico.EmulatedPico(board, firmware=firmware, extra_files=start) as p:
        p.boot()
        p.key("a")  # Continue
        for _ in range(max_s // 5):
            p.run(5000)
            problem, files = p.failure()
            if problem:
                errors.append("%s island %d %r: %s" % (board, island, levels, problem.strip()[-300:]))
                break
            if "/data/game" in files and pico.saved_game(files) is None:  # over: its screens shown
                p.key("a")
                p.run(3000)
                break
        else:
            errors.append("%s island %d %r: not over in %d s" % (board, island, levels, max_s))
        lower = p.read_serial().count(LOWER)
    return {"moves_lower": lower}, errors


# Where a cold hint's time goes: the parts of the coach's work from nothing, each timed on the
# device's REPL in a two-seat Island One game (``COLD_GAME``'s): the first turn's keep tables, step
# by step, then the coach asked at the first turn (its value known before the game starts) and at
# the second from nothing (every table and plan of that turn worked out when asked).
HINT_PARTS = BOOT + r"""
import gc
from time import ticks_us, ticks_diff
T = []
def lap(name, t):
    T.append("%%s=%%d" %% (name, ticks_diff(ticks_us(), t)))
gc.collect()
t = ticks_us()
from catan.game import Game
from catan.dice import SeededDice
from catan import players
from catan.players import coach, reroll
from catan.players.plans import Context, drain
from catan.players.values import table_work
lap("import", t)
g = Game(1, 2, SeededDice(%(seed)d))
gc.collect()
t = ticks_us(); reroll.dice_multisets(); lap("multisets", t)
ctx = Context(g, 2, 0)
t = ticks_us(); drain(table_work()); lap("table_work", t)
child = reroll.dice_multisets()[2]
w1, w2, w0 = reroll._W
t = ticks_us(); drain(reroll.final_work(ctx, 6, w2)); lap("final_work", t)
for name, w, src in (("2", w2, None), ("1", w1, w2), ("0", w0, w1)):
    if src is not None:
        t = ticks_us(); drain(reroll._best_within(w, src, child, 6)); lap("best_within" + name, t)
    t = ticks_us(); drain(reroll._expect(w, child, 6)); lap("expect" + name, t)
t = ticks_us(); coach.hint(g); lap("hint_first_turn", t)
players.play_turn(g, 2, 0)
players.play_turn(g, 2, 1)
players.forget()
gc.collect()
t = ticks_us(); coach.hint(g); lap("hint_second_turn", t)
print("PARTS", " ".join(T))
"""


def hint_parts(board, firmware="pico", tree=None):
    """``HINT_PARTS``: ms per part of the coach's work from nothing (``rp2040_hint_part_...``)."""
    res = _repl(board, tree, HINT_PARTS, 120_000, firmware, seed=COLD_GAME["seed"])
    if "PARTS" not in res:
        return {"rp2040_hint_part_errors": FAILED}, ["hint parts: " + res.strip()[-300:]]
    out = {}
    for part in res.split("PARTS")[1].split():
        name, us = part.split("=")
        out["rp2040_hint_part_%s_ms" % name] = round(int(us) / 1000, 1)
    return out, []


# modules of the device tree the game itself never imports (a person's tools at the REPL)
NEVER_IMPORTED = ("catan.console", "smoke_test")
_QSTRS = """import gc, micropython, sys
kept = set(sys.modules)
micropython.qstr_info()
for m in %r:
    __import__(m)
    for k in [k for k in sys.modules if k not in kept]:
        del sys.modules[k]
    gc.collect()
    print('MODULE', m)
    micropython.qstr_info()
"""


def qstrs(board=pico.DEFAULT_BOARD, firmware="pico", tree=None):
    """The names the game interns (``rp2040_qstr_...``) and each module's share, in the order
    imported ({module: names}): every module of the device tree that the game imports, one at a
    time on a safe-booted REPL, each let go before the next (the heap never holds more at once
    than the game does)."""
    import deploy  # tools/

    with pico.EmulatedPico(board, tree=tree, firmware=firmware) as p:
        lib = p.tree / "lib"
        names = sorted(deploy.module_name(m.relative_to(lib).as_posix())
                       for m in lib.rglob("*.mpy"))
        names = [n for n in names if n not in NEVER_IMPORTED]
        p.safe_boot()
        res = p.exec(_QSTRS % (names,), max_ms=120_000)
    if "Traceback" in res or "MODULE" not in res:
        return {"rp2040_qstr_errors": FAILED}, {}, ["qstrs: " + res.strip()[-300:]]
    counts = [(int(n), int(q)) for n, q in re.findall(r"n_pool=(\d+), n_qstr=(\d+)", res)]
    share = {}
    for m, (before, after) in zip(re.findall(r"MODULE (\S+)", res), zip(counts, counts[1:])):
        share[m] = after[1] - before[1]
    pools, total = counts[-1]
    # n_qstr counts the names of the pools made in the heap: each holds twice the one before,
    # the first 20 (twice the firmware's own constant pool's MICROPY_ALLOC_QSTR_ENTRIES_INIT,
    # 10: py/qstr.c), so n of them hold 20 * (2^n - 1)
    room = 20 * ((1 << pools) - 1) - total
    return {"rp2040_qstr_names": total, "rp2040_qstr_pools": pools, "rp2040_qstr_room": room}, \
        share, []


PREFIX = {"pico": "rp2040_", "uf2": "rp2040_uf2_", "picow": "rp2040_picow_"}


def named(out, firmware, suffix=""):
    """The figures of ``out`` (named ``rp2040_...``) under ``firmware``'s prefix, plus ``suffix``."""
    return {PREFIX[firmware] + k[len("rp2040_"):] + suffix: v for k, v in out.items()}


def measure(board=pico.DEFAULT_BOARD, turns=15, games=1, tree=None, in_a_row=100, firmware="pico"):
    out, errors = perturbed(board, turns, tree=tree, firmware=firmware)
    more, errs = cold_hints(board, firmware=firmware, tree=tree)
    out.update(more)
    errors += errs
    more, errs = computer(board, games, tree=tree, firmware=firmware)
    out.update(more)
    errors += errs
    more, errs = parts(board, tree=tree, firmware=firmware)
    out.update(more)
    errors += errs
    if firmware != "uf2":  # (the game UF2's names are in flash)
        more, _share, errs = qstrs(board, firmware, tree)
        out.update(more)
        errors += errs
    if in_a_row:
        more, errs = leak(board, in_a_row, tree=tree, firmware=firmware)
        out.update(more)
        errors += errs
    return named(out, firmware), errors


def device(firmware, whole=True, in_a_row=100):
    """Every device figure of ``firmware`` (``make bench``): the Display Pack's (``measure``), the
    Display Pack 2.0's scripted game (``..._320x240``), whole games of computers through the
    screens on both boards (an Island One game of the hard computer, a four-seat Island Two
    game: ``..._whole_game_moves_lower``, summed: see ``whole_game``), and ``..._errors``: how
    many workloads ended on an error."""
    out, errors = measure(in_a_row=in_a_row, firmware=firmware)
    for workload in (perturbed, cold_hints):
        more, errs = (workload("pimoroni_display_pack_2", turns=2, firmware=firmware)
                      if workload is perturbed else workload("pimoroni_display_pack_2", firmware))
        out.update(named(more, firmware, "_320x240"))
        errors += errs
    if whole:
        for board, suffix in (("pimoroni_display_pack", ""), ("pimoroni_display_pack_2", "_320x240")):
            for island, levels in ((1, (2,)), (2, (2, 1, 0, 2))):
                more, errs = whole_game(board, island, levels, firmware)
                errors += errs
                name = PREFIX[firmware] + "whole_game_moves_lower" + suffix
                out[name] = out.get(name, 0) + more["moves_lower"]
    out[PREFIX[firmware] + "errors"] = len(errors)
    return out, errors


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default=pico.DEFAULT_BOARD)
    ap.add_argument("--turns", type=int, default=15)
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--tree", default=None, help="a device tree built already (default: build it)")
    ap.add_argument("--in-a-row", type=int, default=100, help="computer games in a row for the leak figure")
    ap.add_argument("--firmware", default="pico", choices=sorted(pico.FIRMWARES))
    ap.add_argument("--cold-hints", action="store_true", help="only the cold hints (cold_hints)")
    ap.add_argument("--hint-parts", action="store_true", help="only where a cold hint's time goes")
    ap.add_argument("--qstrs", action="store_true", help="only the names the game interns, by module")
    args = ap.parse_args(argv)
    if args.qstrs:
        out, share, errors = qstrs(args.board, args.firmware, args.tree)
        for m, n in share.items():
            print("%-36s %d" % (m, n))
        out = named(out, args.firmware)
    elif args.cold_hints or args.hint_parts:
        out, errors = (cold_hints if args.cold_hints else hint_parts)(args.board, args.firmware,
                                                                      args.tree)
        out = named(out, args.firmware)
    else:
        out, errors = measure(args.board, args.turns, args.games, args.tree, args.in_a_row,
                              args.firmware)
    for k, v in sorted(out.items()):
        print("%-36s %s" % (k, v))
    for e in errors:
        print("rp2040_errors: " + e)
    return 0


if __name__ == "__main__":
    sys.exit(main())
