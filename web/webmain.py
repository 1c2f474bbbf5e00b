"""The browser's platform shell: the game's App on MicroPython's WebAssembly port.

web/worker.js runs this module in a Web Worker (so a long computer move never freezes the
page) and calls, from JavaScript:

    shell = Shell(board_name, saves, host)   # saves: {name: hex of a record}
    shell.pin(role, down, t_ms)              # a key or touch button went down or up at t_ms
    shell.frame(t_ms)                        # poll, tick, draw, think:
                                             #   [brightness, thinking, x, y, w, h, ...]
    shell.buffer_address()                   # where the GS4 framebuffer is, for getValue

It plays the part of firmware/app_main.py on the device: a board file (``boards/``) gives
the screen size and the button roles; the buttons are the device's own ``firmware/buttons.py``
polled on virtual pins (so debounce, long presses and the joystick's repeat are the
device's); the picture is the framebuf canvas, as on the Pico; the saves go through the
store interface the App takes (``read``, ``write``, ``take_problems``), as records of
``firmware/store.py`` (magic, version, length, CRC-32), kept by the page in localStorage.
Dice: the App's default, seeded from ``os.urandom``, which this port lacks: the worker
puts in one backed by the browser's ``crypto.getRandomValues`` (``install_urandom``).
"""

import gc
import time

from buttons import Buttons
from store import LIMIT, pack, unpack

THINK_MS = 12  # a slice of the App's work ahead in a quiet round (firmware/app_main.py's)


def install_urandom(fill):
    """Give ``os`` an ``urandom(n)`` drawing ``n`` bytes from ``fill(n)`` (a list of ints
    from the browser's cryptographic generator): the App's dice and game codes use it."""
    import os

    def urandom(n):
        return bytes(fill(n))

    os.urandom = urandom


class Pin:
    """A button pin driven by the page: active low, like the boards' buttons."""

    def __init__(self):
        self.down = False

    def value(self):
        return 0 if self.down else 1


def _record(text):
    # A localStorage record's bytes: its hex, or (not hex) its text, which unpacks as foreign
    if text is None or len(text) > 2 * LIMIT:
        return None
    try:
        return bytes.fromhex(text)
    except ValueError:
        return text.encode()


def damaged(saves):
    """``[[name, what], ...]``: the records of ``saves`` (``{name: hex or None}``, None for
    one too large to be handed over) that are not a record of firmware/store.py (empty,
    cut short, foreign, bad checksum, larger than any record). The worker has the page set
    them aside before the App starts (worker.js)."""
    out = []
    for name in saves:
        rec = _record(saves[name])
        what = "too large" if rec is None or len(rec) > LIMIT else unpack(rec)
        if isinstance(what, str):
            out.append([name, what])
    return out


class WebStore:
    """The store interface over records the page keeps in localStorage.

    The worker hands over a copy of them at start (``{name: hex}``), the damaged ones
    already set aside by the page (``problems``: what ``take_problems`` reports first);
    ``write`` keeps the record here and sends it to the page with ``host.save(name, hex)``
    (localStorage lives on the page's thread, and a write there is atomic). A record the page
    could not store (``failed(name, reason)``, quota full) is kept here and sent again before
    the next write, whatever record that is; the player is told which record was refused
    (``take_problems``) and what the store does about it. ``readonly``: the reason this tab
    may not write (another tab plays these saves): every write returns False.
    """

    def __init__(self, saves, host, problems=()):
        self.records = {}
        for name in saves:
            rec = _record(saves[name])
            if rec is not None:
                self.records[name] = rec
        self.host = host
        self.problems = [tuple(p) for p in problems]
        self.error = None
        self.readonly = None
        self.refused = {}  # name -> why the page refused its record: sent again at the next write
        self._told = set()  # the records whose refusal the player was told of (once each)

    def read(self, name):
        rec = self.records.get(name)
        if rec is None:
            return None
        data = unpack(rec) if len(rec) <= LIMIT else "too large"
        if isinstance(data, str):  # (the worker set such records aside before the start)
            self.problems.append((name, data, "not read"))
            return None
        return data

    def write(self, name, data):
        self.error = None
        if self.readonly is not None:
            self.error = self.readonly
            return False
        rec = pack(data)
        if len(rec) > LIMIT:
            self.error = "the record is larger than %d bytes" % LIMIT
            return False
        self.records[name] = rec
        again = self.refused
        self.refused = {}
        for other in again:  # (the page answers each again if it refuses it again)
            if other != name:
                self._send(other, self.records[other])
        self._send(name, rec)
        return True

    def failed(self, name, reason):
        """The page could not keep record ``name`` (called from JavaScript): it is kept here,
        sent again at the next write, and the player told (once a record)."""
        if name not in self.records:
            return
        self.refused[name] = reason
        if name not in self._told:
            self._told.add(name)
            self.problems.append((name, "not saved (%s)" % reason,
                                  "kept, and saved again at the next save"))

    def take_problems(self):
        out = self.problems
        self.problems = []
        return out

    def _send(self, name, rec):
        self.host.save(name, None if rec is None else rec.hex())


def board_module(name):
    for ch in name:
        if not ("a" <= ch <= "z" or "0" <= ch <= "9" or ch == "_"):
            raise ValueError("bad board name")
    pkg = __import__("boards." + name)
    return getattr(pkg, name)


class Shell:
    """The device's main loop, one round per call: buttons, App, framebuffer."""

    def __init__(self, board_name, saves, host, App=None, problems=()):
        board = board_module(board_name)
        self.board = board
        _, w, h = board.ROTATIONS[board.DISPLAY["rotation"]][:3]
        self.width = w
        self.height = h
        self.buf = bytearray(((w + 1) >> 1) * h)  # first, as on the device
        self.now = 0
        self.paused = False  # tests draw scenes into the canvas; the App then waits
        self.roles = tuple(board.BUTTONS)
        self.pins = {}
        for role in self.roles:
            self.pins[role] = Pin()
        self.buttons = Buttons({r: (p, 0) for r, p in self.pins.items()}, self._ms,
                               lambda a, b: a - b)
        from catan.ui.fb_canvas import FbCanvas

        self.canvas = FbCanvas(w, h, self.buf)
        self.store = WebStore(saves, host, problems)
        if App is None:
            from catan.ui.app import App
        self.app = App(self.canvas, self.store, roles=self.roles)
        self.canvas.invalidate()
        self.app.draw()
        self._busy = False
        self._think = getattr(self.app, "think", None)
        self.thinking = self._think is not None  # the App may have work to do ahead
        self._began = 0

    def _ms(self):
        return self.now

    def _set_time(self, t):
        if t > self.now:  # the clock never runs backwards
            self.now = t

    def buffer_address(self):
        import uctypes

        return uctypes.addressof(self.buf)

    def palette(self):
        from catan.ui.canvas import PALETTE

        return list(PALETTE)

    def _handle(self, events):
        app = self.app
        for e in events:
            app.handle(e)
        if events:
            self._busy = None  # something happened: the next round counts it as work
            self.buttons.set_repeat(app.repeat_roles())  # letters repeat in a text entry

    def pin(self, role, down, t):
        """Role ``role`` went down (``down`` true) or up at ``t`` ms: poll at that moment,
        so a short tap is seen and a long press is timed from its real start."""
        p = self.pins.get(role)
        if p is None:
            return
        self._set_time(t)
        p.down = bool(down)
        if not self.paused:
            self._handle(self.buttons.poll())

    def _slice_over(self):
        return time.ticks_diff(time.ticks_ms(), self._began) >= THINK_MS

    def frame(self, t):
        """One round of the loop at ``t`` ms, as firmware/app_main.py's. Returns
        ``[brightness 0..1000, thinking, x, y, w, h, ...]``: thinking is 1 while the App has
        work to do ahead (the worker then runs the next round at once, as the device skips
        its nap), then the rectangles of the framebuffer that changed."""
        self._set_time(t)
        app = self.app
        if not self.paused:
            if self.store.problems:  # a refusal the page answered after its write: say it
                app.wrote(True, None)
            self._handle(self.buttons.poll())
            app.tick(self.now)
            app.draw()
        rects = self.canvas.take_dirty()
        if rects or self._busy is None:
            self._busy = True
            self.thinking = self._think is not None
        elif self._busy:  # the first quiet round after some work: collect now
            gc.collect()  # (this port collects once control is back in JavaScript)
            self._busy = False
        elif self.thinking and not self.paused:  # quiet: a slice of the App's work ahead
            self._began = time.ticks_ms()
            if self._think(self._slice_over):
                self.thinking = False
                gc.collect()
        out = [getattr(app, "brightness", 1000), 1 if self.thinking else 0]
        for r in rects:
            out.extend(r)
        return out

    def busy(self):
        return bool(self.app.busy())

    def save_hex(self):
        """The App's game save as hex ("" without one), for tests."""
        data = self.store.read("game")
        return data.hex() if data else ""
