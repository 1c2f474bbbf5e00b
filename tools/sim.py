"""The desktop simulator: the game's app on a PC, through CircuitPython's displayio API.

Window (``make sim``, or ``python tools/sim.py [--board NAME]``): a pygame window opened by
Blinka's displayio and ``blinka_displayio_pygamedisplay.PyGameDisplay``, on the main thread
only (no background refresh: the loop refreshes the dirty area itself), at the board's display
size scaled up by whole pixels (``--scale``; 3 for 240x135 and 240x240, 2 for 320x240, less
if the desktop is small).
The keyboard stands in for the board's buttons, and only for those:

- A, B, X, Y are the letter keys a, b, x, y (those the board has);
- a joystick board also gets the arrow keys and Enter or space (the joystick's press);
- a long press is a key held 600 ms (timed by the key's own events: a busy loop does not
  shorten it), or Shift + key;
- F12 or P writes a screenshot PNG into ``screenshots/``; Esc or closing the window quits.

Key presses go through the device's own ``firmware/buttons.py`` (debounce, long press, the
joystick's accelerating repeat), fed by the keyboard instead of pins. Saves go through the
device's ``firmware/store.py`` into ``.sim_saves/<board>/`` (``--saves DIR``), so a game
carries on across runs.

Headless (no window, no display needed)::

    .venv/bin/python tools/sim.py --headless --board NAME --keys a,y,a --screenshot out.png
    .venv/bin/python tools/sim.py --headless --board NAME [--keys ...] --autoplay SEED --frames DIR

(the venv's interpreter, made by ``make setup``: it has displayio and pygame).

``--keys`` is a comma list of the board's roles (``a``, ``b``, ``x``, ``y``, ``up``, ...,
``press``, and ``a_long`` ...), or ``t<ms>`` to let time pass. After each key the clock runs on
until ``app.busy()`` is False (at most ``--settle`` ms), so computer turns and animations
finish (with ``--autoplay``, not after the last key: autoplay records from there). A headless
run is reproducible: a fresh in-memory store (unless ``--saves``) and dice seeded with
``--seed`` (default 1) wherever the app would roll random dice.

``--autoplay SEED`` then lets the clock run in 100 ms steps and writes a numbered PNG into
``--frames`` each time the picture changes, until ``app.finished()`` (or ``--max-frames``);
``--gif`` also writes them as an animated GIF (``tools/gif.py``). If the keys did not start a
game, autoplay starts one itself with computer players at every seat (``--island``,
``--seats hard,medium``) and SEED as its dice. If the keys started a game with people's seats,
autoplay plays those by keys as a person would (``host_tests/mp/ui_autokeys.py``: cursor, A),
choosing as the computer level ``--humans`` would (boards with X and Y only).

``--app module:Class`` runs another app class (tests use a stand-in); the default is
``catan.ui.app:App``.
"""

import argparse
import importlib
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _p in (ROOT, os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tools"), os.path.join(ROOT, "lib")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import png  # tools/

DEFAULT_BOARD = "pimoroni_display_pack"
DEFAULT_APP = "catan.ui.app:App"
LONG_MS = 600  # a key held this long is a long press (firmware/buttons.py's default)
LONG_ROLES = ("a", "b", "x", "y", "press")  # roles that have a long press
EARLY_ROLES = ("x", "y")  # held, these give their short event first (firmware/buttons.py)
DIRECTIONS = ("up", "down", "left", "right")
KEY_MS = 50  # headless: clock step for a key and while waiting for the app
AUTOPLAY_MS = 100  # autoplay: clock step
HUMAN_PAUSE_MS = 300  # autoplay: a person's seat looks this long before pressing keys
HUMAN_KEY_MS = 150  # autoplay: and presses them this far apart
LEVELS = ("easy", "medium", "hard")

# Keyboard keys (pygame.key.name spellings) for each role.
ROLE_KEYS = {
    "a": ("a",),
    "b": ("b",),
    "x": ("x",),
    "y": ("y",),
    "up": ("up",),
    "down": ("down",),
    "left": ("left",),
    "right": ("right",),
    "press": ("return", "space", "enter"),  # "enter" is the keypad's
}
SHOT_KEYS = ("f12", "p")
QUIT_KEYS = ("escape",)


# ---------------------------------------------------------------------------- boards and keys

def load_board(name):
    """The module ``boards/<name>.py``."""
    if not name.replace("_", "").isalnum():
        raise SystemExit("sim: bad board name %r" % name)
    try:
        return importlib.import_module("boards." + name)
    except ImportError:
        raise SystemExit("sim: no board %r; boards: %s" % (name, ", ".join(board_names())))


def board_names():
    folder = os.path.join(ROOT, "boards")
    return sorted(f[:-3] for f in os.listdir(folder) if f.endswith(".py") and not f.startswith("_"))


def board_size(board):
    """The displayed (width, height): the rotation the board file chooses."""
    return tuple(board.ROTATIONS[board.DISPLAY["rotation"]][1:3])


def board_roles(board):
    return tuple(board.BUTTONS)


def key_map(roles):
    """``{key name: role}`` for the board's roles only (a four-button board gets no arrows)."""
    out = {}
    for role in roles:
        for key in ROLE_KEYS.get(role, ()):
            out[key] = role
    return out


def event_role(key, shift, keys):
    """The role a key press stands for, and whether Shift makes it a long press:
    ``(role, long)``, or ``(None, False)`` for a key that is not one of the board's."""
    role = keys.get(key)
    if role is None:
        return None, False
    return role, bool(shift) and role in LONG_ROLES


def valid_roles(roles):
    """Every event name the board can produce: its roles and their long presses."""
    return tuple(roles) + tuple(r + "_long" for r in roles if r in LONG_ROLES)


def help_line(board, roles):
    keys = key_map(roles)
    parts = []
    for role in roles:
        names = [k for k, r in keys.items() if r == role]
        parts.append("%s=%s" % (role.upper() if len(role) == 1 else role, "/".join(names)))
    return "%s | %s | long: hold %.1f s or Shift+key | F12/P: screenshot | Esc: quit" % (
        board.NAME, " ".join(parts), LONG_MS / 1000)


def default_scale(w, h, desktop=None):
    """Whole-pixel scale for a desktop window: about 720 pixels wide, and inside ``desktop``."""
    s = max(1, min(800 // w, 720 // h))
    if desktop:
        dw, dh = desktop
        while s > 1 and (w * s > dw * 0.9 or h * s > dh * 0.85):
            s -= 1
    return s


class _Pin:
    """A button pin driven by the keyboard: active low, like the boards' buttons."""

    def __init__(self):
        self.down = 0  # keys holding it (two keys may share a role: Enter and space)

    def value(self):
        return 0 if self.down else 1


class KeyButtons:
    """Keyboard keys as the device's buttons: firmware/buttons.py on virtual pins.

    ``key_down(name, shift)`` / ``key_up(name)`` / ``poll()`` return the role events, like
    ``Buttons.poll`` on the device (the joystick's press: shorter than 600 ms gives ``press`` on
    release, longer ``press_long`` when it reaches 600 ms; A, B, X and Y act on the first edge,
    X and Y also give ``x_long`` / ``y_long`` at 600 ms; directions repeat while held). Shift + key gives the
    long press at once (Shift + X or Y: the short event and then the long, as holding gives).
    ``ticks_ms`` is the clock (ms).
    """

    def __init__(self, roles, ticks_ms):
        from buttons import Buttons  # firmware/

        self.keys = key_map(roles)
        self.pins = {r: _Pin() for r in roles}
        self.held = {}  # key name -> role
        self.buttons = Buttons({r: (p, 0) for r, p in self.pins.items()}, ticks_ms,
                               lambda a, b: a - b, long_ms=LONG_MS)

    def key_down(self, name, shift=False):
        role, long = event_role(name, shift, self.keys)
        if role is None or name in self.held:
            return []
        if long:  # as held: X and Y step first (firmware/buttons.py's early roles)
            return [role, role + "_long"] if role in EARLY_ROLES else [role + "_long"]
        self.held[name] = role
        self.pins[role].down += 1
        return self.buttons.poll()

    def key_up(self, name):
        role = self.held.pop(name, None)
        if role is None:
            return []
        out = list(self.buttons.poll())  # held until now: a long press reached by the key's
        self.pins[role].down -= 1  # own release time counts, however late the loop got to it
        return out + list(self.buttons.poll())

    def release_all(self):
        """Let go of every key (the window lost the keyboard focus)."""
        out = []
        for name in list(self.held):
            out += self.key_up(name)
        return out

    def poll(self):
        return self.buttons.poll()


class EventClock:
    """The clock the window's buttons read: SDL's own (``SDL_GetTicks``), and while a key event
    is handled, the time SDL stamped on it. A busy loop (a hint worked out, a loaded machine)
    may get to a key's press and release together, long after the press: timed when the loop
    handled them, a held key would be a short one. pygame 2.6 does not hand the stamps over,
    so they are read from its own SDL library (ctypes) before pygame takes the events: peeked,
    left in the queue. ``EventClock.open(pygame)`` is None where that library is not found
    (the loop's time stands in)."""

    _PEEK = 1  # SDL_PEEKEVENT
    _KEYS = (0x300, 0x301)  # SDL_KEYDOWN, SDL_KEYUP

    def __init__(self, sdl):
        import ctypes

        self.sdl = sdl
        sdl.SDL_GetTicks.restype = ctypes.c_uint32
        # SDL_KeyboardEvent's fields, in the 56 bytes of an SDL_Event
        fields = [("type", ctypes.c_uint32), ("timestamp", ctypes.c_uint32),
                  ("window", ctypes.c_uint32), ("state", ctypes.c_uint8),
                  ("repeat", ctypes.c_uint8), ("pad", ctypes.c_uint8 * 2),
                  ("scancode", ctypes.c_int32), ("sym", ctypes.c_int32),
                  ("rest", ctypes.c_uint8 * 32)]
        self.buf = (type("SDLKeyEvent", (ctypes.Structure,), {"_fields_": fields}) * 64)()
        self.at = None  # the stamp of the key event being handled
        self.origin = sdl.SDL_GetTicks()  # the window's clock starts at 0 (SDL's at its first init)
        self.last = 0  # the clock never runs backwards (a stamp older than the last poll)
        self.stamps = []

    @classmethod
    def open(cls, pygame):
        import ctypes
        import glob

        libs = os.path.join(os.path.dirname(pygame.__file__), os.pardir, "pygame.libs")
        for path in sorted(glob.glob(os.path.join(libs, "libSDL2-2*"))) or ["libSDL2-2.0.so.0"]:
            try:
                return cls(ctypes.CDLL(path))  # the library pygame loaded: the same queue
            except OSError:
                continue
        return None

    def __call__(self):
        t = (self.sdl.SDL_GetTicks() if self.at is None else self.at) - self.origin
        if t < self.last:
            t = self.last
        self.last = t
        return t

    def take(self, pygame):
        """pygame's events, each key event with its stamp: ``[(event, ms or None)]``."""
        pygame.event.pump()
        n = self.sdl.SDL_PeepEvents(self.buf, len(self.buf), self._PEEK, *self._KEYS)
        stamps = [(b.type, b.sym, b.timestamp) for b in self.buf[:max(n, 0)] if not b.repeat]
        out = []
        for e in pygame.event.get(pump=False):
            at = None
            if e.type in (pygame.KEYDOWN, pygame.KEYUP):
                kind = self._KEYS[e.type == pygame.KEYUP]
                if stamps and stamps[0][:2] == (kind, e.key):
                    at = stamps.pop(0)[2]
            out.append((e, at))
        return out


# ---------------------------------------------------------------------------- the app

def memory_store():
    """The store interface over a dict (host_tests/mp/memstore.py): headless runs start afresh."""
    mp = os.path.join(ROOT, "host_tests", "mp")
    if mp not in sys.path:
        sys.path.append(mp)
    from memstore import MemStore

    return MemStore()


def folder_store(path):
    from store import Store  # firmware/

    os.makedirs(path, exist_ok=True)
    return Store(path)


def resolve_app(spec):
    """The class named by ``module:Class`` (a module on sys.path, or a file path)."""
    if not isinstance(spec, str):
        return spec
    mod, _, name = spec.partition(":")
    if not name:
        raise SystemExit("sim: --app wants module:Class, got %r" % spec)
    if mod.endswith(".py"):
        from importlib import util

        s = util.spec_from_file_location(os.path.basename(mod)[:-3], mod)
        module = util.module_from_spec(s)
        s.loader.exec_module(module)
    else:
        module = importlib.import_module(mod)
    return getattr(module, name)


def seeded_dice(seed):
    """A dice factory for the app (``seed or None -> dice``): ``seed`` where it would roll
    random dice, the game code's seed where a code was given."""
    from catan.dice import SeededDice

    return lambda s: SeededDice(seed if s is None else s)


def make_app(app_cls, canvas, store, roles, seed=None):
    """``app_cls(canvas, store, roles=...)`` with ``seed`` handed over as the app takes it
    (a ``seed`` argument, or a ``dice`` factory), if it takes one."""
    import inspect

    kwargs = {"roles": tuple(roles)}
    if seed is not None:
        try:
            params = inspect.signature(app_cls).parameters
        except (TypeError, ValueError):
            params = {}
        if "seed" in params:
            kwargs["seed"] = seed
        elif "dice" in params:
            kwargs["dice"] = seeded_dice(seed)
    return app_cls(canvas, store, **kwargs)


def frame_indices(canvas):
    """The canvas's picture as one palette index per pixel (row-major bytes)."""
    bmp = getattr(canvas, "bitmap", None)
    data = getattr(bmp, "_data", None)
    if data is not None and getattr(bmp, "_bits_per_value", 0) == 4:
        try:  # Blinka's Bitmap: 32-bit words of eight 4-bit pixels, leftmost in the top nibble
            import numpy as np

            w, h = canvas.width, canvas.height
            words = np.frombuffer(data, dtype=np.uint32).reshape(h, bmp._stride)
            shifts = np.arange(28, -4, -4, dtype=np.uint32)
            px = ((words[:, :, None] >> shifts) & 15).astype(np.uint8).reshape(h, -1)[:, :w]
            return px.tobytes()
        except (ImportError, ValueError, AttributeError):
            pass
    return png.gs4_indices(canvas.gs4(), canvas.width, canvas.height)


def frame_png(canvas, scale=1, indices=None):
    from catan.ui.canvas import PALETTE

    if indices is None:
        indices = frame_indices(canvas)
    return png.encode(canvas.width, canvas.height, indices, PALETTE, scale)


def new_canvas(w, h):
    from catan.ui.dio_canvas import DioCanvas

    return DioCanvas(w, h)


# ---------------------------------------------------------------------------- headless

class Headless:
    """The app on a simulated clock: keys, waiting, autoplay. No window, no display."""

    def __init__(self, app_cls, board, store=None, seed=1, settle_ms=30000, log=print):
        self.board = board
        self.roles = board_roles(board)
        w, h = board_size(board)
        self.canvas = new_canvas(w, h)
        self.app = make_app(app_cls, self.canvas, store if store is not None else memory_store(),
                            self.roles, seed)
        self.seed = seed
        self.settle_ms = settle_ms
        self.log = log
        self.now = 0
        self.step(0)

    def step(self, ms):
        """Let ``ms`` pass, then tick and draw; the dirty rectangles of this step."""
        self.now += ms
        self.app.tick(self.now)
        self.app.draw()
        return self.canvas.take_dirty()

    def settle(self):
        """Run the clock while the app is busy (a computer turn, an animation), up to the cap."""
        waited = 0
        while self.app.busy() and waited < self.settle_ms:
            self.step(KEY_MS)
            waited += KEY_MS
        return waited

    def press(self, key, settle=True):
        """A role (``a``, ``up``, ``b_long`` ...) or ``t<ms>``; then wait for the app."""
        if key[:1] == "t" and key[1:].isdigit():
            self.step(int(key[1:]))
        else:
            if key not in valid_roles(self.roles):
                raise SystemExit("sim: %s has no %r (it has %s)" % (
                    self.board.__name__.split(".")[-1], key, ",".join(valid_roles(self.roles))))
            self.app.handle(key)
            self.step(KEY_MS)
        if settle:
            self.settle()

    def keys(self, text, settle_last=True):
        """Press the comma-separated keys; ``settle_last=False`` leaves a computer turn that the
        last key started running (autoplay records it from its first frame)."""
        keys = parse_keys(text)
        for i, key in enumerate(keys):
            self.press(key, settle_last or i + 1 < len(keys))

    def screenshot(self, path, scale=1):
        png.write(path, frame_png(self.canvas, scale))

    def _human_keys(self, level):
        """The keys a person's seat would press next, choosing as computer ``level`` does
        (host_tests/mp/ui_autokeys.py), or None: not a person's turn, or no way to play it
        (that module missing, or a board without X and Y to move the cursor)."""
        app = self.app
        g = getattr(app, "game", None)
        if g is None or g.over() or not {"a", "x", "y"} <= set(self.roles):
            return None
        mp = os.path.join(ROOT, "host_tests", "mp")
        if mp not in sys.path:
            sys.path.append(mp)
        try:
            import ui_autokeys
            from catan.players import next_action
            from catan.ui.turn import Turn
        except ImportError:
            return None
        if not isinstance(app.screen, Turn):
            return ["a"]  # a hand-over or a message: the next person takes the device
        if app.level(g.player) is not None:
            return None  # a computer's turn: it plays on the clock
        return ui_autokeys.next_keys(app, next_action(g, LEVELS.index(level), g.player))

    def autoplay(self, frames_dir=None, gif_path=None, scale=1, max_frames=5000,
                 island=1, seats=("hard", "medium"), hold_ms=2000, max_ms=4 * 3600 * 1000,
                 humans="hard"):
        """Play on to the end of the game, writing a PNG per changed picture. Returns True if
        the game finished. People's seats (if the keys made any) are played by keys, choosing
        as computer level ``humans`` would (None: wait for them, which stops autoplay)."""
        app = self.app
        game = getattr(app, "game", None)
        if (game is None or game.over()) and hasattr(app, "new_game"):
            levels = [LEVELS.index(s) for s in seats]
            app.new_game(island, levels, self.seed)
            self.log("sim: autoplay: new game, island %d, seats %s, seed %d"
                     % (island, ",".join(seats), self.seed))
        self.step(0)
        shots = []  # (time, indices)
        last = None

        def keep():
            nonlocal last
            idx = frame_indices(self.canvas)
            if idx != last:
                last = idx
                shots.append((self.now, idx))
                if frames_dir:
                    png.write(os.path.join(frames_dir, "frame_%05d.png" % len(shots)),
                              frame_png(self.canvas, scale, idx))

        keep()
        start = self.now
        idle = 0
        finished = False
        while len(shots) < max_frames and self.now - start < max_ms:
            if self.step(AUTOPLAY_MS):
                keep()
            if app.finished():
                self.step(AUTOPLAY_MS)
                keep()
                finished = True
                break
            idle = 0 if app.busy() else idle + AUTOPLAY_MS
            if humans and idle >= HUMAN_PAUSE_MS:
                keys = self._human_keys(humans)
                if keys:
                    for key in keys:
                        app.handle(key)
                        if self.step(HUMAN_KEY_MS):
                            keep()
                    idle = 0
                    continue
            if idle > 10000:
                self.log("sim: autoplay: the app waits for a key (a person's seat?); stopping")
                break
        if not finished:
            self.log("sim: autoplay stopped before the end (%d frames, %d ms)"
                     % (len(shots), self.now - start))
        if gif_path and shots:
            import gif  # tools/
            from catan.ui.canvas import PALETTE

            frames = []
            for i, (t, idx) in enumerate(shots):
                nxt = shots[i + 1][0] if i + 1 < len(shots) else t + hold_ms
                frames.append((idx, nxt - t))
            gif.write(gif_path, gif.encode(self.canvas.width, self.canvas.height, frames,
                                           PALETTE, scale))
        self.log("sim: autoplay: %d frames over %.1f s of game time%s" % (
            len(shots), (self.now - start) / 1000, ", finished" if finished else ""))
        return finished


def parse_keys(text):
    return [k.strip() for k in (text or "").split(",") if k.strip()]


# ---------------------------------------------------------------------------- window

def _display_class():
    import contextlib
    import io

    import pygame

    with contextlib.redirect_stdout(io.StringIO()):  # Blinka's "GENERIC_X86 is not fully supported"
        import busdisplay
        from blinka_displayio_pygamedisplay import PyGameDisplay

    class Display(PyGameDisplay):
        """PyGameDisplay drawing at the board's size into an off-screen surface that is shown
        scaled up in the window. Only the area displayio found changed is redrawn (4.0.1 redraws
        the whole display on every refresh), and only when asked, on the main thread.

        (pygame's SCALED mode picks its own, often huge, window size; resizing it through
        ``pygame._sdl2.video.Window`` crashes pygame 2.6.1 on the next key press.)"""

        def __init__(self, scale, **kwargs):
            self.scale = scale
            self.window = None
            PyGameDisplay.__init__(self, **kwargs)

        def _initialize(self, init_sequence):
            pygame.init()
            pygame.display.set_caption(self._caption)
            self.window = pygame.display.set_mode((self.width * self.scale, self.height * self.scale))
            self._pygame_screen = pygame.Surface((self.width, self.height))

        def _get_refresh_areas(self):
            return [even_area(a, self.width, self.height)
                    for a in busdisplay.BusDisplay._get_refresh_areas(self)]

        def _refresh_display(self):
            busdisplay.BusDisplay._refresh_display(self)
            self.present()
            self._refresh_pending = False

        def present(self):
            """Show the off-screen picture in the window (after a refresh, or an exposure)."""
            if self.window is not None and self._pygame_screen is not None:
                pygame.transform.scale(self._pygame_screen, self.window.get_size(), self.window)
                pygame.display.flip()

        def _release(self):
            self.window = None
            self._pygame_screen = None
            pygame.quit()

    return Display


def even_area(area, width, height):
    """A copy of a displayio ``Area``, clipped to the display and widened by a column where
    it holds an odd number of pixels.

    blinka-displayio-pygamedisplay 4.0.1 sizes its RGB565 buffer in 32-bit words, two pixels
    each, rounding down, and its sub-rectangle fallback gets the row count wrong too: for an
    odd pixel count the buffer does not match the area and ``rgb_to_surface`` raises
    ``ValueError: Buffer length does not equal format and resolution size``. An even count
    (one extra column, always there on a display of even width) takes its exact path."""
    from displayio._area import Area

    x1, y1 = max(area.x1, 0), max(area.y1, 0)
    x2, y2 = min(area.x2, width), min(area.y2, height)
    if x2 > x1 and y2 > y1 and (x2 - x1) * (y2 - y1) & 1:
        if x2 < width:
            x2 += 1
        elif x1 > 0:
            x1 -= 1
        elif y2 < height:  # a display one pixel wide or of odd width: a row instead
            y2 += 1
        else:
            y1 -= 1
    return Area(x1, y1, x2, y2)


def shot_path(folder, board_name):
    os.makedirs(folder, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    n = 0
    while True:
        name = "%s-%s%s.png" % (board_name, stamp, "-%d" % n if n else "")
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            return path
        n += 1


NO_DISPLAY = ("sim: no display to open a window on (%s). Play on a desktop (a graphical "
              "session), or run without a window: .venv/bin/python tools/sim.py --headless "
              "--board NAME --keys a,x --screenshot out.png (see --help)")


def display_problem(environ=None, platform=None):
    """Why a window cannot be shown here, or None. On Linux a window needs an X or Wayland
    server (DISPLAY, WAYLAND_DISPLAY); a driver the user names in SDL_VIDEODRIVER is theirs."""
    environ = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    if environ.get("SDL_VIDEODRIVER"):
        return None
    if platform.startswith("linux") and not (environ.get("DISPLAY")
                                             or environ.get("WAYLAND_DISPLAY")):
        return "DISPLAY and WAYLAND_DISPLAY are not set"
    return None


def _open_display(pygame):
    # SDL, finding no display server, falls back to its off-screen driver and the window
    # runs for ever where nobody sees it: refuse that unless the user chose the driver.
    try:
        pygame.display.init()
    except pygame.error as e:
        raise SystemExit(NO_DISPLAY % ("SDL: %s" % e))
    driver = pygame.display.get_driver()
    if driver in ("offscreen", "dummy") and not os.environ.get("SDL_VIDEODRIVER"):
        pygame.display.quit()
        raise SystemExit(NO_DISPLAY % ("SDL found none and chose its %s driver" % driver))


def run_window(app_cls, board, board_name, store, seed=None, scale=None, shots_dir=None,
               fps=60, max_frames=None, script=None, on_frame=None, log=print, ticks=None):
    """The interactive window, on the calling (main) thread. Returns the app. For tests:
    ``max_frames``, ``script`` (``{frame number: [pygame events to post]}``, or a function
    ``script(frame number, app)`` returning them), ``on_frame(frame number, display, canvas)``,
    called after each frame is shown, and ``ticks()``, a clock in ms instead of the real one."""
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")  # no sound: keep ALSA quiet
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import displayio
    import pygame

    w, h = board_size(board)
    roles = board_roles(board)
    _open_display(pygame)
    if scale is None:
        try:
            desktop = pygame.display.get_desktop_sizes()[0]
        except (pygame.error, IndexError):
            desktop = None
        scale = default_scale(w, h, desktop)
    title = "Catan Dice Game - %s - %s" % (board.NAME, help_line(board, roles).split(" | ", 1)[1])
    try:
        display = _display_class()(scale, width=w, height=h, caption=title, auto_refresh=False)
    except pygame.error as e:  # the window itself could not be opened
        raise SystemExit(NO_DISPLAY % ("SDL: %s" % e))
    canvas = new_canvas(w, h)
    group = displayio.Group()
    group.append(canvas.tilegrid)
    display.root_group = group
    app = make_app(app_cls, canvas, store, roles, seed)
    t0 = time.monotonic()

    def real_ms():
        return int((time.monotonic() - t0) * 1000)

    stamped = None if ticks else EventClock.open(pygame)
    ms = ticks or stamped or real_ms

    keys = KeyButtons(roles, ms)
    log(help_line(board, roles))
    shots_dir = shots_dir or os.path.join(ROOT, "screenshots")
    clock = pygame.time.Clock()
    app.tick(ms())
    app.draw()
    canvas.take_dirty()
    display.refresh()
    frame = 0
    running = True
    while running:
        frame += 1
        posted = script(frame, app) if callable(script) else (script or {}).get(frame, ())
        for e in posted:
            pygame.event.post(e)
        events = []
        for e, at in stamped.take(pygame) if stamped else [(e, None) for e in pygame.event.get()]:
            if stamped:
                stamped.at = at  # the buttons read the key's own time
            if e.type in (pygame.QUIT, pygame.WINDOWCLOSE):
                running = False
            elif e.type == pygame.KEYDOWN:
                name = pygame.key.name(e.key)
                if name in QUIT_KEYS:
                    running = False
                elif name in SHOT_KEYS:
                    path = shot_path(shots_dir, board_name)
                    png.write(path, frame_png(canvas, scale))
                    log("sim: screenshot %s" % path)
                else:
                    events += keys.key_down(name, e.mod & pygame.KMOD_SHIFT)
            elif e.type == pygame.KEYUP:
                events += keys.key_up(pygame.key.name(e.key))
            elif e.type == pygame.WINDOWFOCUSLOST:
                events += keys.release_all()
            elif e.type in (pygame.WINDOWEXPOSED, pygame.WINDOWSHOWN, pygame.WINDOWRESTORED):
                display.present()
        if stamped:
            stamped.at = None
        if not running:
            break
        events += keys.poll()
        for role in events:
            app.handle(role)
        if events and hasattr(app, "repeat_roles"):
            keys.buttons.set_repeat(app.repeat_roles())  # as the device's loop does
        app.tick(ms())
        app.draw()
        if canvas.take_dirty():
            display.refresh()
        if on_frame:
            on_frame(frame, display, canvas)
        if max_frames is not None and frame >= max_frames:
            break
        clock.tick(fps)
    displayio.release_displays()  # closes the window (pygame.quit)
    return app


# ---------------------------------------------------------------------------- entry point

def main(argv=None, log=print):
    p = argparse.ArgumentParser(prog="sim.py", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--board", default=DEFAULT_BOARD, help="a file in boards/ (default %(default)s)")
    p.add_argument("--app", default=DEFAULT_APP, help="module:Class (default %(default)s)")
    p.add_argument("--saves", help="folder for the saves (default .sim_saves/<board>/; headless: "
                   "none, a fresh in-memory store)")
    p.add_argument("--seed", type=int, help="dice seed wherever the app would roll random dice "
                   "(headless default 1)")
    p.add_argument("--scale", type=int, help="pixel scale of the window and screenshots "
                   "(default: by size; headless PNGs: 1)")
    p.add_argument("--shots", help="screenshot folder (default screenshots/)")
    p.add_argument("--headless", action="store_true", help="no window: keys in, PNGs out")
    p.add_argument("--keys", default="", help="headless: comma list of roles, or t<ms> to wait")
    p.add_argument("--settle", type=int, default=30000,
                   help="headless: most ms to wait after a key while the app is busy")
    p.add_argument("--screenshot", help="headless: write the last picture to this PNG")
    p.add_argument("--autoplay", type=int, metavar="SEED",
                   help="headless: play on to the game's end (dice seeded SEED)")
    p.add_argument("--frames", help="autoplay: folder for a PNG per changed picture")
    p.add_argument("--gif", help="autoplay: also write an animated GIF")
    p.add_argument("--max-frames", type=int, default=5000, help="autoplay: stop after this many")
    p.add_argument("--island", type=int, choices=(1, 2), default=1,
                   help="autoplay's own new game: the island")
    p.add_argument("--seats", default="hard,medium",
                   help="autoplay's own new game: a computer level per seat (easy, medium, hard)")
    p.add_argument("--humans", default="hard", choices=LEVELS + ("none",),
                   help="autoplay: people's seats press keys as this computer level would choose "
                   "(boards with X and Y; none: stop at a person's turn)")
    a = p.parse_args(argv)

    try:
        import displayio  # noqa: F401
    except ImportError:
        raise SystemExit("sim: displayio is missing: run `make setup`, then "
                         "`.venv/bin/python tools/sim.py ...` (or `make sim`)")
    board = load_board(a.board)
    app_cls = resolve_app(a.app)
    if not a.headless:
        if a.keys or a.screenshot or a.autoplay is not None or a.frames or a.gif:
            p.error("--keys, --screenshot, --autoplay, --frames and --gif need --headless")
        problem = display_problem()
        if problem:
            raise SystemExit(NO_DISPLAY % problem)
        store = folder_store(a.saves or os.path.join(ROOT, ".sim_saves", a.board))
        run_window(app_cls, board, a.board, store, a.seed, a.scale, a.shots, log=log)
        return 0

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    seats = tuple(s.strip() for s in a.seats.split(",") if s.strip())
    if not 1 <= len(seats) <= 4 or any(s not in LEVELS for s in seats):
        p.error("--seats: 1 to 4 of %s" % ",".join(LEVELS))
    if a.autoplay is None and not a.screenshot:
        p.error("--headless wants --screenshot FILE and/or --autoplay SEED")
    if (a.frames or a.gif) and a.autoplay is None:
        p.error("--frames and --gif go with --autoplay")
    seed = a.autoplay if a.autoplay is not None else (a.seed if a.seed is not None else 1)
    store = folder_store(a.saves) if a.saves else None
    sim = Headless(app_cls, board, store, seed, a.settle, log)
    sim.keys(a.keys, settle_last=a.autoplay is None)
    ok = True
    if a.autoplay is not None:
        ok = sim.autoplay(a.frames, a.gif, a.scale or 1, a.max_frames, a.island, seats,
                          humans=None if a.humans == "none" else a.humans)
    if a.screenshot:
        sim.screenshot(a.screenshot, a.scale or 1)
        log("sim: wrote %s" % a.screenshot)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
