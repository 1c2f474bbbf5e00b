"""firmware/buttons.py with a fake clock (MicroPython tick semantics, wrapping at 2**30) and
scripted pins: first-edge action, bounce ignored, accelerating repeat, long press, wrap-around."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
for _p in (ROOT / "firmware", ROOT / "host_tests" / "mp"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

import buttons
import fake_hw

PERIOD = 1 << 30


class Clock:
    def __init__(self, t):
        self.t = t % PERIOD

    def ticks_ms(self):
        return self.t

    @staticmethod
    def ticks_diff(a, b):
        return ((a - b + PERIOD // 2) & (PERIOD - 1)) - PERIOD // 2

    def advance(self, ms):
        self.t = (self.t + ms) % PERIOD


STARTS = [0, PERIOD - 5, PERIOD - 1000]  # the last two cross the wrap during the test


def rig(t0, roles=("up", "press", "left")):
    clk = Clock(t0)
    pins = {r: fake_hw.Pin(pull=fake_hw.Pin.PULL_UP) for r in roles}
    b = buttons.Buttons({r: (p, 0) for r, p in pins.items()}, clk.ticks_ms, clk.ticks_diff)
    return clk, pins, b


def run(clk, b, ms, step=1):
    out = []
    for _ in range(0, ms, step):
        clk.advance(step)
        out += [(e, clk.t) for e in b.poll()]
    return out


@pytest.mark.parametrize("t0", STARTS)
def test_first_edge_acts_and_bounce_is_ignored(t0):
    clk, pins, b = rig(t0)
    pins["left"].level = 0
    assert b.poll() == ["left"]  # at once, on the first edge
    ev = []
    for k in range(25):  # chatter for 25 ms
        clk.advance(1)
        pins["left"].level = k & 1
        ev += b.poll()
    pins["left"].level = 1
    ev += [e for e, _ in run(clk, b, 100)]
    assert ev == []
    pins["left"].level = 0
    assert b.poll() == ["left"]


@pytest.mark.parametrize("t0", STARTS)
def test_held_direction_repeats_faster_and_faster(t0):
    clk, pins, b = rig(t0)
    pins["up"].level = 0
    assert b.poll() == ["up"]
    ev = run(clk, b, 3000)
    times = [0] + [(t - t0) % PERIOD for _, t in ev]
    gaps = [b2 - a for a, b2 in zip(times, times[1:])]
    assert gaps[0] == 400 and gaps[1] == 150
    assert all(g2 <= g1 for g1, g2 in zip(gaps[1:], gaps[2:]))
    assert gaps[-1] == 40
    pins["up"].level = 1
    assert run(clk, b, 500) == []


@pytest.mark.parametrize("t0", STARTS)
def test_short_and_long_press(t0):
    clk, pins, b = rig(t0)
    pins["press"].level = 0
    assert run(clk, b, 200) == []
    pins["press"].level = 1
    assert [e for e, _ in run(clk, b, 50)] == ["press"]
    pins["press"].level = 0
    ev = run(clk, b, 2000)
    assert [e for e, _ in ev] == ["press_long"]
    assert (ev[0][1] - t0) % PERIOD == 251 + 600  # pressed, seen at the next poll, held 600 ms
    pins["press"].level = 1
    assert run(clk, b, 100) == []


@pytest.mark.parametrize("t0", STARTS)
def test_cursor_keys_act_on_press_and_still_have_a_long_press(t0):
    # X and Y move the cursor: a short press is answered on its first edge, never on release;
    # held, the long press comes as well (after its one cursor step)
    clk, pins, b = rig(t0, ("x", "a"))
    pins["x"].level = 0
    assert b.poll() == ["x"]
    assert run(clk, b, 200) == []
    pins["x"].level = 1
    assert run(clk, b, 50) == []
    pins["x"].level = 0
    ev = run(clk, b, 2000)
    assert [e for e, _ in ev] == ["x", "x_long"]
    pins["x"].level = 1
    assert run(clk, b, 100) == []
    pins["a"].level = 0  # A's long press means what a short one does: it acts at once
    assert b.poll() == ["a"]
    assert run(clk, b, 1000) == []


def test_button_held_at_construction_is_ignored_until_released():
    clk = Clock(123)
    p = fake_hw.Pin(pull=fake_hw.Pin.PULL_UP)
    p.level = 0
    b = buttons.Buttons({"y": (p, 0)}, clk.ticks_ms, clk.ticks_diff)
    assert run(clk, b, 2000) == []
    p.level = 1
    assert run(clk, b, 100) == []
    p.level = 0
    assert [e for e, _ in run(clk, b, 50)] == ["y"]  # a new press: at once (a cursor key)


def test_idle_for_days_then_press_still_works():
    clk, pins, b = rig(7)
    b.poll()
    clk.advance(PERIOD // 2 + 12345)  # longer than ticks_diff can represent
    pins["left"].level = 0
    assert b.poll() == ["left"]


def test_from_board_maps_pull_and_level():
    import importlib

    sys.path.insert(0, str(ROOT))
    board = importlib.import_module("boards.waveshare_pico_lcd_114")
    pins = buttons.from_board(board, fake_hw.Pin)
    assert set(pins) == {"up", "down", "left", "right", "press", "a", "b"}
    assert pins["a"][0].pull == fake_hw.Pin.PULL_UP and pins["a"][1] == 0


def test_swallow_ignores_the_held_press_until_release():
    clk, pins, b = rig(0)
    pins["press"].level = 0
    run(clk, b, 50)
    b.swallow()
    pins["press"].level = 1
    assert run(clk, b, 50) == []
    pins["press"].level = 0
    run(clk, b, 50)
    pins["press"].level = 1
    assert [e for e, _ in run(clk, b, 50)] == ["press"]


@pytest.mark.parametrize("t0", STARTS)
def test_set_repeat_lets_x_and_y_repeat_and_back(t0):
    clk, pins, b = rig(t0, ("x", "y", "a"))
    b.set_repeat(("x", "y"))  # a text entry: letters step while X or Y is held
    pins["y"].level = 0
    assert b.poll() == ["y"]
    ev = [e for e, _ in run(clk, b, 1500)]
    assert len(ev) >= 8 and set(ev) == {"y"}  # no y_long, repeats instead
    pins["y"].level = 1
    run(clk, b, 50)
    b.set_repeat(("up", "down", "left", "right"))  # back to the game: long presses again
    pins["y"].level = 0
    assert [e for e, _ in run(clk, b, 800)] == ["y", "y_long"]
    pins["y"].level = 1
    assert run(clk, b, 100) == []
    # a key held across the change gives neither its old release nor a stray event
    pins["x"].level = 0
    run(clk, b, 100)
    b.set_repeat(("x",))
    pins["x"].level = 1
    assert run(clk, b, 100) == []
