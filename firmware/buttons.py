"""Polled buttons (no interrupts) turned into role events.

``Buttons(pins, ...)`` takes ``{role: (pin, active_level)}`` where ``pin.value()`` reads 0/1.
``poll()`` returns the list of role strings produced since the last call:

- plain roles (``repeat`` or neither): the event fires on the FIRST edge of a press, then any
  change within ``debounce`` ms of an accepted edge is ignored (contact bounce);
- ``repeat`` roles (directions by default): held down, they repeat after ``delay`` ms, the
  interval shrinking by ``accel`` per repeat from ``start`` down to ``fastest`` ms;
- ``long_roles`` (the joystick's press by default: its long press is the coach): a press shorter
  than ``long_ms`` gives ``role`` on release; holding it gives ``role + "_long"`` once, at
  ``long_ms``, and nothing on release. (Acting on the first edge would make every long press
  also a short one.)
- ``early_roles`` (X/Y by default, the cursor keys): ``role`` on the first edge, as a plain
  role, and held ``long_ms`` also ``role + "_long"`` once: a long press does its short action
  first (one cursor step), but a short press, the common one, is answered at once. A and B
  (whose long presses mean what short ones do) are plain roles: they act on their first edge.

Time comes from the injected ``ticks_ms``/``ticks_diff`` (time.ticks_ms/ticks_diff by default),
so tests need no sleeps and survive the 2**30 wrap-around; a negative difference (a span too long
for ticks_diff, over 6 days) counts as "long ago". A button already held when the object is made
is ignored until released (the boot-time safe-mode key does not leak into the game).
"""

from catan import const

_DIRECTIONS = const(("up", "down", "left", "right"))
_LONG = const(("press",))
_EARLY = const(("x", "y"))


class Buttons:
    def __init__(self, pins, ticks_ms=None, ticks_diff=None, debounce=30, long_ms=600,
                 repeat=_DIRECTIONS, long_roles=_LONG, delay=400, start=150, fastest=40,
                 accel=0.75, early_roles=_EARLY):
        if ticks_ms is None:
            import time

            ticks_ms = time.ticks_ms
            ticks_diff = time.ticks_diff
        self._ms = ticks_ms
        self._diff = ticks_diff
        self.debounce = debounce
        self.long_ms = long_ms
        self.delay = delay
        self.start = start
        self.fastest = fastest
        self.accel = accel
        self._long_roles = long_roles
        self._early_roles = early_roles
        self.repeat = tuple(repeat)
        now = ticks_ms()
        self.last_activity = now
        # per button: [role, pin, active, kind, pressed, t_edge, t_ref, wait, long_done, ignore]
        self._b = []
        for role, spec in pins.items():
            pin, active = spec
            kind = self._kind(role)
            held = pin.value() == active
            self._b.append([role, pin, active, kind, held, None, now, 0, False, held])

    def _kind(self, role):
        # 0 plain, 1 repeats, 2 long press (short on release), 3 early (short on press, and long)
        if role in self.repeat:
            return 1
        if role in self._long_roles:
            return 2
        return 3 if role in self._early_roles else 0

    def _since(self, now, t):
        if t is None:  # no edge yet
            return 0x3FFFFFFF
        d = self._diff(now, t)
        return d if d >= 0 else 0x3FFFFFFF

    def pressed(self):
        """The roles held down now (debounced state)."""
        return [b[0] for b in self._b if b[4]]

    def held(self):
        """True if any button reads pressed now: the raw pins, no debouncing, no events (the
        main loop ends a slice of its work ahead at once, so a press waits for one step of that
        work, not for the rest of the slice)."""
        for b in self._b:
            if b[1].value() == b[2]:
                return True
        return False

    def set_repeat(self, repeat):
        """Make ``repeat`` the roles that repeat while held (the others as at construction:
        long press or plain); a screen that types letters lets X and Y repeat too."""
        repeat = tuple(repeat)
        if repeat == self.repeat:
            return
        self.repeat = repeat
        now = self._ms()
        for b in self._b:
            kind = self._kind(b[0])
            if kind != b[3]:
                b[3] = kind
                b[6] = now  # a key held across the change repeats after the first delay
                b[7] = self.delay
                b[8] = True  # and gives no long press or release event of its old kind

    def swallow(self):
        """Ignore the buttons held now until they are released (the press that wakes the screen)."""
        for b in self._b:
            if b[4]:
                b[9] = True

    def poll(self):
        now = self._ms()
        out = None  # a list only when something happened (the loop polls 100 times a second)
        for b in self._b:
            raw = b[1].value() == b[2]
            kind = b[3]
            if raw != b[4]:
                if self._since(now, b[5]) < self.debounce:
                    continue
                b[4] = raw
                b[5] = now
                self.last_activity = now
                if b[9]:  # held since construction: wait for its release
                    if not raw:
                        b[9] = False
                    continue
                if raw:
                    if kind >= 2:
                        b[8] = False
                    if kind != 2:
                        out = _add(out, b[0])
                        if kind == 1:
                            b[6] = now
                            b[7] = self.delay
                elif kind == 2 and not b[8]:
                    out = _add(out, b[0])
            elif raw and not b[9]:
                if kind == 1:
                    if self._since(now, b[6]) >= b[7]:
                        out = _add(out, b[0])
                        self.last_activity = now
                        b[6] = now
                        w = self.start if b[7] == self.delay else int(b[7] * self.accel)
                        b[7] = w if w > self.fastest else self.fastest
                elif kind >= 2 and not b[8] and self._since(now, b[5]) >= self.long_ms:
                    b[8] = True
                    self.last_activity = now
                    out = _add(out, b[0] + "_long")
        return out or ()


def _add(out, event):
    if out is None:
        return [event]
    out.append(event)
    return out


def from_board(board, Pin):
    """``{role: (pin, active)}`` for a boards/ module, with ``Pin`` the machine.Pin class."""
    pins = {}
    for role, spec in board.BUTTONS.items():
        n, pull, active = spec
        p = Pin.PULL_UP if pull == "up" else (Pin.PULL_DOWN if pull == "down" else None)
        pins[role] = (Pin(n, Pin.IN, p), active)
    return pins
