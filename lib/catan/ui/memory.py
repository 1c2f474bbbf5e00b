"""The memory plan: what the game keeps in the heap, and its one answer to a ``MemoryError``.

    plan = MemoryPlan(regime(code_in_flash, heap_bytes))   # once, at boot (firmware/app_main.py)
    app = App(canvas, store, roles, plan=plan)             # the host's default: MemoryPlan(ROOMY)

The plan is the one place that knows which firmware the game runs on. The app asks it for what
it needs (the players' package, an on-demand screen, room for a write) and hands it every piece
of work that can meet a ``MemoryError``; the screens and the app never ask for the regime. Three
regimes, by where the bytecode is and how big the heap:

- ``ROOMY``: the game UF2 (bytecode and tables in flash; the host and the browser too). What is
  loaded stays: the players' code from boot, the coach working ahead of a person.
- ``TIGHT``: stock MicroPython on a Pico (every module's bytecode copied into its 246 KB heap).
  The players' code is loaded at boot and stays; an on-demand screen that finds no room beside
  it lets it go through the fallback chain (imported again when next asked: letting it go for
  every pause menu cost its import again on the way back, 14 ms of a redraw on the emulated
  Pico); the frame is held in bands of at most 16 KB.
- ``SMALL``: stock MicroPython on a Pico W (205 KB). The players' code is loaded when a computer
  plays or the coach is asked and let go on any screen where none is about to; their cache of
  dice chances is made at boot beside their tables; the coach works when asked, not ahead; bands
  of at most 12.8 KB.

What stays, and when it goes:

- The players' table arrays (21 KB) and, on ``SMALL``, their cache of dice chances (2.4 KB) are
  made at boot right after the framebuffer (``reserve``), while the heap is in one piece: made
  mid-game, they split its largest block. The easy level needs only the chance cache.
- On-demand screens: ``load`` imports ``catan.ui.<name>`` and notes the on-demand modules it
  brought in. When a screen is shown (``settle``), every such module that no screen reachable
  from it uses is forgotten, so that its code leaves the heap. A screen reaches the screens it
  holds (any attribute that is a screen: an object that paints and handles keys, such as a pause
  menu's paused turn or a message's next screen), and a module that stays keeps the modules it
  imported from (its globals: a module, or a class of it). Nothing else is asked of a screen
  module: it draws and handles keys, and is opened by name (``App.open``).

The fallback chain (``attempt``): work that meets a ``MemoryError`` is tried again after each
step of letting go, least needed first: the players' work in hand and a collection, the players'
code (imported again when next asked), their table arrays (made again when next needed), their
chance cache. Each caller bounds the chain by what its work needs itself and has its own
degraded answer when the chain is spent (a write: False, said as "not saved"; a screen: tried
again at the next tick; a computer's move: the level below; a hint: said in the foot; work
ahead: dropped).
"""

import gc
import sys

import catan
from catan import const

ROOMY = const(0)
TIGHT = const(1)
SMALL = const(2)
# A heap smaller than this cannot keep the players' code (~27 KB) beside the game: the stock Pico
# W firmware's 205 KB (the Pico's is 246 KB).
_SMALL_HEAP = const(230_000)

# The steps of the fallback chain, least needed first (``attempt``'s ``upto``): the players' work
# in hand and a collection, their code, their table arrays, their chance cache.
_COLLECT = const(0)
CODE = const(1)
TABLES = const(2)
_CHANCES = const(3)

# the players' package, leaves first
_PLAYERS = const(("catan.players.review", "catan.players.coach", "catan.players.reroll",
                  "catan.players.plans", "catan.players.race", "catan.players.values",
                  "catan.players.tables", "catan.players"))


def regime(code_in_flash, heap):
    """The regime of a firmware: ``code_in_flash`` (a game UF2), ``heap`` its size in bytes."""
    if code_in_flash:
        return ROOMY
    return SMALL if heap < _SMALL_HEAP else TIGHT


def forget(names):
    """Drop modules from ``sys.modules`` and from their package, so that their code leaves the
    heap once nothing refers to it (imported again when next needed)."""
    for name in names:
        if name in sys.modules:
            del sys.modules[name]
            pkg = sys.modules.get(name.rpartition(".")[0])  # (gone if its import failed)
            attr = name.rpartition(".")[2]
            if pkg is not None and attr in pkg.__dict__:
                del pkg.__dict__[attr]


class MemoryPlan:
    def __init__(self, regime=ROOMY):
        self.regime = regime
        # the switches the device's parts read (``coach_ahead``: the turn screen's work ahead for
        # a person; ``band_bytes``: the framebuffer's largest band, 0 for the whole frame)
        self.coach_ahead = regime != SMALL
        # Bands: smaller ones free more and cost a cursor move far more (at 8 KB the Display
        # Pack's two bands took 33 to 46 ms on the emulated Pico, not 21 to 28; the stock Pico W's
        # Display Pack 2.0 in four and five bands 82 and 99 ms, not 27). The Display Pack 2.0's
        # 38,400 bytes go in three bands; on a small heap the Display Pack's 16,200 in two (whole,
        # the hard computer's Island One game found no 3.7 KB block for its tables).
        self.band_bytes = (0, 16384, 12800)[regime]

    # ------------------------------------------------------------------ residency

    def reserve(self):
        """What stays for good, made at boot right after the framebuffer: the players' table
        arrays, and on a small heap their chance cache too."""
        catan.reserve(True, self.regime == SMALL)

    def boot_players(self):
        """Once the first frame is on the panel: the players' code, where it stays (loaded here,
        before any play, it lies below what a game allocates)."""
        if self.regime != SMALL:
            try:
                self.attempt(self.players, (), _COLLECT)
            except MemoryError:  # no room now: imported when first asked, through the chain
                forget(_PLAYERS)
                gc.collect()

    def players(self, level=2):
        """The computer players' package, imported when first asked, for a decision at ``level``
        (the coach's: hard). On a small heap the arrays the level needs come first, while the
        free space is in its largest pieces (imported first, the code's many small blocks split
        them); the easy level needs only the chance cache."""
        if self.regime == SMALL and (catan.TABLES[2] is None or level and catan.TABLES[0] is None):
            gc.collect()
            catan.reserve(level > 0, True)
        from catan import players

        return players

    def release_players(self):
        """Let the players' code and their work ahead go (~45 KB on a stock firmware); their
        arrays stay. Imported again when next asked."""
        players = sys.modules.get("catan.players")
        if players is not None:
            players.forget()
            forget(_PLAYERS)

    def load(self, name):
        """The on-demand screen module ``catan.ui.<name>``, imported if need be (on a small
        heap, once the players' code has gone: the screen needs the room more; elsewhere the
        caller's chain lets it go if the screen finds no room beside it)."""
        full = "catan.ui." + name
        _on_demand(full)
        mod = sys.modules.get(full)
        if mod is not None:
            return mod
        if self.regime == SMALL:
            self.release_players()
        before = list(sys.modules)
        mod = __import__(full, None, None, (name,))
        for k in sys.modules:  # and what it brought in (the large font), which may go with it
            if k not in before and k.startswith("catan.ui."):
                _on_demand(k)
        return mod

    def settle(self, screen, busy):
        """``screen`` is shown: forget the on-demand modules that neither a screen reachable
        from it nor a module that stays uses (``load``); on a small heap, the players' code too
        unless the screen is ``busy`` (a computer about to play)."""
        keep = [m for m in sys.modules if m.startswith("catan.ui.") and m not in _ON_DEMAND]
        _reach(screen, keep, [])
        for m in keep:  # and the on-demand modules they import from (appended: read in turn)
            mod = sys.modules.get(m)
            if mod is not None and m not in _CLEAN:
                n = len(keep)
                _imports(mod, keep)
                if n == len(keep) and m not in _ON_DEMAND:
                    _CLEAN.append(m)  # (a module's imports are made once: not read again)
        forget([m for m in _ON_DEMAND if m not in keep])
        if self.regime == SMALL and not busy:
            self.release_players()

    # ------------------------------------------------------------------ the fallback chain

    def attempt(self, work, args=(), upto=_CHANCES):
        """``work(*args)``, made room for: on a ``MemoryError`` the chain's steps up to ``upto``
        let go what they can, one by one, least needed first, and the work is tried again after
        each. When the chain is spent, the last ``MemoryError`` is raised: the caller's degraded
        answer follows."""
        step = _COLLECT
        while True:
            try:
                return work(*args)
            except MemoryError:
                if step > upto:
                    raise
            step = self.let_go(step, upto)

    def let_go(self, step, upto=_CHANCES):
        """Take the chain's step ``step`` (and the steps after it that have nothing to let go, up
        to ``upto``), then collect; the next step."""
        while step <= upto:
            done = step == _COLLECT
            if done:  # the players' work in hand (a piece of it that met the error is dead)
                players = sys.modules.get("catan.players")
                if players is not None:
                    players.forget()
            elif step == CODE:
                done = "catan.players" in sys.modules
                self.release_players()
            elif step == TABLES:
                done = catan.TABLES[0] is not None
                if done:
                    self.release_players()  # (their modules hold the arrays too)
                    catan.TABLES[0] = None
                    catan.TABLES[1] = False
            elif step == _CHANCES:
                done = catan.TABLES[2] is not None
                catan.TABLES[2] = None
            step += 1
            if done:
                break
        gc.collect()
        return step


# The on-demand modules, as ``MemoryPlan.load`` has met them: those it imported, and what they
# brought in. (Of the code, not of a plan: one list for the process.)
_ON_DEMAND = []
# The modules that stay and import from no on-demand module, once read (``settle``: their globals
# are not read again at every screen shown, which is work in the device's Python).
_CLEAN = []


def _on_demand(name):
    if name not in _ON_DEMAND:
        _ON_DEMAND.append(name)
        del _CLEAN[:]  # (clean of the modules on demand until now: each is read again)


def _imports(mod, keep):
    # Add to ``keep`` the on-demand modules that ``mod`` imports from: a module or a class of one
    # in its globals.
    for v in mod.__dict__.values():
        n = v.__name__ if type(v) is type(sys) else getattr(v, "__module__", None) \
            if isinstance(v, type) else None
        if n in _ON_DEMAND and n not in keep:
            keep.append(n)


def _reach(screen, keep, seen):
    # The modules of the screens reachable from ``screen``, into ``keep``.
    seen.append(screen)
    m = type(screen).__module__
    if m not in keep:
        keep.append(m)
    for v in screen.__dict__.values():
        if hasattr(v, "paint") and hasattr(v, "handle") and not any(v is s for s in seen):
            _reach(v, keep, seen)
