"""The emulated Pico powered as a Pico on USB is (issue 24, point 12), and the window's taps.

One boot of the stock firmware (``PICO_FIRMWARE``; skipped with the reason without it): the
title screen must show what a Pico on USB shows. The rest needs no emulator.
"""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools" / "emu"))
sys.path.insert(0, str(ROOT / "tools"))  # run.py imports sim from there

import pico  # tools/emu
import run  # tools/emu/run.py
from panel_render import render_app

try:
    pico.check_ready()
    MISSING = None
except pico.EmulatorMissing as e:
    MISSING = str(e)


def _title_render(board, battery):
    """The host's render of the title screen with ``app.battery`` = ``battery`` volts, and
    the power the App says."""
    rows, app = render_app(board, battery=battery)
    return rows, app.power()


@pytest.mark.skipif(MISSING is not None, reason="emulated Pico: %s" % MISSING)
def test_the_title_shows_usb_power_as_on_a_pico_on_usb(tmp_path):
    """VSYS from USB is about 5 V; GP29 (ADC3) sees a third of it. The emulator's ADC reads
    that, so the title screen shows "USB" as on a real Pico, not a red "battery 0%"."""
    board = "pimoroni_display_pack"
    want, power = _title_render(board, 5.0)
    assert power == "USB"
    with pico.EmulatedPico(board) as p:
        p.boot()
        p.run(300)  # the loop's first battery reading redraws the header
        got = p.frame()
        if got != want:
            p.screenshot(str(tmp_path / "device.png"), 2)
        diff = sum(a != b for r1, r2 in zip(got, want) for a, b in zip(r1, r2))
        assert diff == 0, "%d pixels differ from the USB title (device.png in %s)" % (diff, tmp_path)


# ------------------------------------------------ taps timed in emulated time, not wall time

def test_a_tap_keeps_its_length_in_emulated_time_when_the_pc_is_busy():
    """A 60 ms tap whose press and release reach the window in one batch (the PC was busy)
    still holds the pin for 60 emulated ms: the press is not lost."""
    t = run.TapTimeline()
    t.event("a", True, wall_ms=1000, emu_ms=500)
    t.event("a", False, wall_ms=1060, emu_ms=500)  # both seen at once
    assert t.due(500) == [("a", True)]
    assert t.next_ms() == 560
    assert t.due(559) == []
    assert t.due(560) == [("a", False)]
    assert t.next_ms() is None


def test_taps_keep_their_gaps_and_a_short_blip_is_held_long_enough():
    t = run.TapTimeline()
    # two taps of one key and a press of another, all in one late batch
    t.event("x", True, 0, 100)
    t.event("x", False, 5, 100)  # 5 ms: held the shortest press the buttons accept
    t.event("x", True, 200, 100)
    t.event("y", True, 210, 100)
    t.event("x", False, 260, 100)
    changes = []
    ms = 100
    while t.next_ms() is not None:
        ms = max(ms, t.next_ms())
        changes += [(ms, role, down) for role, down in t.due(ms)]
    assert changes == [(100, "x", True), (100, "y", True),
                       (100 + run.MIN_PRESS_MS, "x", False),
                       (100 + run.MIN_PRESS_MS + 195, "x", True),
                       (100 + run.MIN_PRESS_MS + 195 + 60, "x", False)]


def test_a_held_key_is_held_as_long_in_emulated_time():
    """A long press (Y held 0.7 s) stays long even though the emulator ran slower than
    the wall clock meanwhile: the device measures it in emulated time."""
    t = run.TapTimeline()
    t.event("y", True, 0, 0)
    t.due(0)
    t.event("y", False, 700, 240)  # the emulator reached only 240 ms meanwhile
    assert t.next_ms() == 700


@pytest.mark.skipif(MISSING is not None, reason="emulated Pico: %s" % MISSING)
def test_the_window_keeps_a_tap_whose_press_and_release_arrive_together(monkeypatch):
    """The window of `make emu` (dummy video driver): a tap of Y whose key-down and key-up
    reach the window in one batch, as on a busy PC, still moves the title screen's cursor."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    import argparse

    import pygame

    seen = {}

    def script(frame, p):
        if "title" not in seen:
            if p.ms < 2500:  # the boot and the first battery reading
                return []
            seen["title"] = p.frame()
            seen["at"] = p.ms
            return [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_y, mod=0),
                    pygame.event.Event(pygame.KEYUP, key=pygame.K_y, mod=0)]
        if p.ms < seen["at"] + 600:
            return []
        seen["after"] = p.frame()
        return None

    args = argparse.Namespace(board="pimoroni_display_pack", scale=1, firmware="pico")
    assert run.window(args, script) == 0
    assert seen["after"] != seen["title"], "the tap was lost"
