"""The standing test of issue 14 on CPython (Hypothesis): whatever bytes stand at a storage
file's name at boot (game, settings, statistics, high scores), the app boots to a working
title screen, reports the problem once, sets the thing aside, and the next save succeeds.
The same cases run under the MicroPython unix port in mp/mpt_boot_storage.py."""

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

HERE = Path(__file__).parent
for _p in (HERE / "mp", HERE.parent / "firmware"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import boot_cases
import ui_autokeys
from catan.dice import SeededDice
from catan.ui.dio_canvas import DioCanvas

CANVAS = DioCanvas(240, 135)


def _dice(seed):
    return SeededDice(5 if seed is None else seed)


def _press(app, key):
    ui_autokeys.press(app, key, app.now + 50)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(boot_cases.KINDS), how=st.sampled_from(boot_cases.HOWS),
       blob=st.binary(max_size=300))
def test_whatever_stands_at_a_storage_name_the_app_boots_and_the_next_save_succeeds(
        tmp_path_factory, kind, how, blob):
    root = str(tmp_path_factory.mktemp("boot") / "data")
    boot_cases.put(root, kind, how, blob, _dice)
    reported = boot_cases.check(root, kind, CANVAS, _dice, _press)
    assert reported or how == "nonsense", (kind, how)
