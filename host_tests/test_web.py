"""The game in a real browser: the site `make web` builds, in headless Chromium (Selenium).

- the site's game.bin holds the very .mpy files the Pico gets (tools/deploy.py's tree);
- every scene of host_tests/mp/ui_scenes.py, at every layout, drawn by the page (MicroPython
  in the page's worker, the framebuf canvas, the page's palette expansion into its <canvas>)
  equals its golden PNG in docs/screens/ (the stores the scenes start from are made here on
  CPython, which saves the browser minutes of computer play; the keys are played there);
- a whole game played with held keys (real key events), a long press (the coach's hint) and
  touch on the on-screen buttons, through firmware/buttons.py on virtual pins;
- a save, a reload and Continue give the identical game and picture;
- the page's thread runs its tasks while the game works (the game runs in a Web Worker);
- and no console errors anywhere.

Needs Debian's chromium and chromium-driver and the pinned Selenium (`make setup`); without
them the tests fail, unless ALLOW_NO_BROWSER=1 (then they skip).
"""

import sys
import time
from pathlib import Path

import png  # tools/
import pytest
import web  # tools/
import web_browser  # tools/

ROOT = Path(__file__).resolve().parents[1]
MP_DIR = Path(__file__).parent / "mp"
SCREENS = ROOT / "docs" / "screens"
LAYOUT_BOARDS = {(240, 135): "pimoroni_display_pack", (240, 240): "waveshare_pico_lcd_13",
                 (320, 240): "pimoroni_display_pack_2"}
if str(MP_DIR) not in sys.path:
    sys.path.insert(0, str(MP_DIR))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site") / "web"
    web.build(out, log=lambda *a: None)
    return out


@pytest.fixture(scope="module")
def browser(need_browser, site):
    with web_browser.WebSession(site) as session:
        yield session


def _no_problems(browser):
    bad = browser.problems()
    assert not bad, "console errors: %s" % bad


# ------------------------------------------------------------------ the bundle

def test_the_bundle_holds_the_pico_modules(site, tmp_path):
    import deploy

    tree = deploy.build("pimoroni_display_pack", out=tmp_path / "pico")
    files = dict(web.unbundle((site / "game.bin").read_bytes()))
    device = {}
    for f in list((tree / "lib").rglob("*.mpy")) + list((tree / "lib").rglob("*.bin")):
        device[f.relative_to(tree / "lib").as_posix()] = f.read_bytes()
    shared = [p for p in files if p in device]
    # the whole game, the buttons and the store: byte for byte the device's files
    for p in ("catan/ui/app.mpy", "catan/players/__init__.mpy", "catan/players/coach.mpy",
              "catan/players/coach_table.bin", "buttons.mpy", "store.mpy",
              "boards/pimoroni_display_pack.mpy"):
        assert p in shared, p
    assert all(files[p] == device[p] for p in shared)
    assert set(files) - set(device) == {"webmain.mpy", "boards/pimoroni_display_pack_2.mpy",
                                        "boards/waveshare_pico_lcd_114.mpy",
                                        "boards/waveshare_pico_lcd_13.mpy"}
    assert set(p for p in device if p.startswith("catan/")) - set(files) == {"catan/console.mpy"}
    # the files a browser fetches, each with the type it insists on
    for name in ("index.html", "main.js", "worker.js", "micropython.mjs", "micropython.wasm"):
        assert (site / name).exists(), name
    assert web.MIME[".mjs"] == web.MIME[".js"] == "text/javascript"
    assert web.MIME[".wasm"] == "application/wasm"


def test_the_server_answers_on_loopback_with_the_types_browsers_insist_on(site):
    import threading
    import urllib.request

    httpd = web.server(0, site, quiet=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        host, port = httpd.server_address
        assert host == "127.0.0.1"
        for name, kind in (("index.html", "text/html; charset=utf-8"), ("main.js", "text/javascript"),
                           ("worker.js", "text/javascript"), ("micropython.mjs", "text/javascript"),
                           ("micropython.wasm", "application/wasm"),
                           ("game.bin", "application/octet-stream")):
            with urllib.request.urlopen("http://127.0.0.1:%d/%s" % (port, name)) as r:
                assert r.headers["Content-Type"] == kind, name
                assert r.read() == (site / name).read_bytes()
    finally:
        httpd.shutdown()
        httpd.server_close()


# ------------------------------------------------------------------ golden screens

_SCENE_CODE = """
import os, sys
try:
    os.mkdir("/tests")
except OSError:
    pass
for _n, _t in _files.items():
    with open("/tests/" + _n, "w") as _f:
        _f.write(_t)
if "/tests" not in sys.path:
    sys.path.append("/tests")
import ui_scenes

def _fixed(store):
    return lambda: store

ui_scenes.SCENES = tuple((n, _fixed(_stores[n]) if n in _stores else None, k)
                         for n, m, k in ui_scenes.SCENES)
shell.paused = True

def _scene(name):
    ui_scenes.run(name, shell.canvas)
    shell.canvas.invalidate()
"""


def _stores():
    """{scene: {file: bytes}}: the store each scene starts from, made on CPython."""
    import ui_scenes

    out = {}
    for name, make, _ in ui_scenes.SCENES:
        if make:
            out[name] = make()
    return out


@pytest.fixture(scope="module")
def scene_stores():
    return _stores()


def _py_bytes_dict(d):
    return "{%s}" % ", ".join("%r: bytes.fromhex(%r)" % (k, bytes(v).hex()) for k, v in d.items())


def _golden(w, h, name):
    width, height, idx, _ = png.decode((SCREENS / ("%dx%d" % (w, h)) / (name + ".png")).read_bytes())
    s = width // w
    return bytes(idx[y * s * width + x * s] for y in range(h) for x in range(w))


@pytest.mark.parametrize("w,h", list(LAYOUT_BOARDS), ids=["%dx%d" % s for s in LAYOUT_BOARDS])
def test_every_scene_in_the_browser_equals_its_golden_png(browser, scene_stores, w, h, tmp_path):
    import ui_scenes
    from catan.ui.canvas import PALETTE

    browser.open(LAYOUT_BOARDS[w, h])
    files = {n: (MP_DIR / n).read_text() for n in ("ui_scenes.py", "memstore.py")}
    stores = "{%s}" % ", ".join("%r: %s" % (n, _py_bytes_dict(s)) for n, s in scene_stores.items())
    browser.exec("_files = %r\n_stores = %s\n%s" % (files, stores, _SCENE_CODE))
    bad = []
    for name in ui_scenes.NAMES:
        browser.exec("_scene(%r)" % name)
        got = browser.indices()
        assert len(got) == w * h
        if got != _golden(w, h, name):
            png.write(str(tmp_path / (name + "_browser.png")), png.encode(w, h, got, PALETTE, 2))
            bad.append(name)
    assert not bad, "the browser's picture differs from docs/screens/%dx%d for %s (PNGs in %s)" % (
        w, h, bad, tmp_path)
    _no_problems(browser)


# ------------------------------------------------------------------ playing

_PLAY_CODE = """
import ui_autokeys
from catan.players import next_action
from catan.ui.turn import Turn

def _next(level):
    app = shell.app
    s = app.screen
    name = type(s).__name__
    if app.busy():
        return "wait"
    if app.game is not None and app.game.over():
        return "over " + name
    if not isinstance(s, Turn):
        return "a"  # a hand-over or a message: the next person takes the device
    if s.level is not None:
        return "wait"
    return ",".join(ui_autokeys.next_keys(app, next_action(app.game, level, app.game.player)))
"""


def _setup_play(browser):
    files = {"ui_autokeys.py": (MP_DIR / "ui_autokeys.py").read_text()}
    browser.exec("""
import os, sys
try:
    os.mkdir("/tests")
except OSError:
    pass
for _n, _t in %r.items():
    with open("/tests/" + _n, "w") as _f:
        _f.write(_t)
if "/tests" not in sys.path:
    sys.path.append("/tests")
%s""" % (files, _PLAY_CODE))


def _screen(browser):
    return browser.value("type(shell.app.screen).__name__")


def _to_row(browser, row):
    """Keys (y) that bring a menu's cursor to ``row``."""
    rows = browser.value("shell.app.screen.rows")
    i = int(browser.value("shell.app.screen.i"))
    j = eval(rows).index(row)
    return ["y"] * ((j - i) % len(eval(rows)))


def _play_to_the_end(browser, level="easy", limit=2000):
    """Play every person's seat by held keys, choosing as computer ``level``; the computer
    seats play on the game's clock. Returns the keys pressed."""
    pressed = 0
    for _ in range(limit):
        step = browser.value("_next(%d)" % ("easy", "medium", "hard").index(level))
        if step.startswith("over"):
            return pressed, step.split()[1]
        if step == "wait":
            time.sleep(0.05)
            continue
        keys = step.split(",")
        browser.keys(*keys)
        pressed += len(keys)
    raise AssertionError("the game did not end")


def test_a_whole_game_by_held_keys_a_long_press_and_touch(browser):
    browser.open("pimoroni_display_pack", clear=True)
    _setup_play(browser)
    assert _screen(browser) == "Title"
    # touch: a finger on the page's Y button moves the title's cursor, as the key does
    before = browser.value("shell.app.screen.i")
    browser.touch("y", hold=0.1)
    assert browser.value("shell.app.screen.i") == str(int(before) + 1)
    browser.touch("x", hold=0.1)
    assert browser.value("shell.app.screen.i") == before
    # a new game, Island One, one person: A on "New game", then down to Start
    browser.keys("a")
    assert _screen(browser) == "NewGame"
    browser.keys("a")  # Island: One -> Two ...
    assert browser.value("shell.app.screen.island") == "2"
    browser.keys("a")  # ... and back
    browser.keys(*_to_row(browser, "Dice"))
    browser.keys("a")  # a game code from the browser's random source (os.urandom)
    code = browser.value("shell.app.screen.code")
    assert len(code) == 6, code
    browser.keys(*_to_row(browser, "Start"))
    browser.keys("a")
    assert _screen(browser) == "Turn"
    assert browser.value("shell.app.code()") == code
    # a short press of Y moves the cursor; a long one (0.7 s) asks the coach
    browser.keys("a")  # roll
    browser.keys("y")
    assert browser.value("repr(shell.app.screen.msg)") == "''"
    browser.keys("y", hold=0.75)
    hint = browser.value("shell.app.screen.msg")
    assert hint, "the long press gave no hint"
    # a long press by touch: hold the on-screen X for the players' sheets, B back to the game
    browser.touch("x", hold=0.75)
    assert _screen(browser) == "Sheets"
    browser.touch("b", hold=0.1)
    assert _screen(browser) == "Turn"
    keys, end = _play_to_the_end(browser, "easy")
    assert end == "GameOver"
    assert browser.value("shell.app.game.over()") == "True"
    assert keys > 30
    _no_problems(browser)


def test_save_reload_and_continue_give_the_identical_game(browser):
    browser.open("pimoroni_display_pack", clear=True)
    _setup_play(browser)
    browser.keys("a")  # New game
    browser.keys(*_to_row(browser, "Players"))
    browser.keys("a")  # two seats: P2 a computer (medium)
    browser.keys(*_to_row(browser, "Start"))
    browser.keys("a", "a")  # start, roll
    browser.keys("y", "a")  # mark a die
    saved = browser.value("shell.save_hex()")
    assert saved
    pictures = []
    for _ in range(2):
        browser.open("pimoroni_display_pack")  # a reload: a fresh VM, the saves from localStorage
        _setup_play(browser)
        assert _screen(browser) == "Title"
        assert browser.value("shell.app.screen.rows[0]") == "Continue"
        browser.keys("a")
        browser.settle()
        assert _screen(browser) == "Turn"
        assert browser.value("shell.save_hex()") == saved
        pictures.append(browser.indices())
    assert pictures[0] == pictures[1]
    _no_problems(browser)


def test_the_coach_counts_turns_to_10_vp_on_island_two(browser):
    # Island Two with a computer in the other seat: after the roll, a long press of Y gives the
    # coach's advice with its number (the solo race's, issue 28)
    browser.open("pimoroni_display_pack", clear=True)
    _setup_play(browser)
    browser.keys("a")  # New game
    browser.keys("a")  # Island: One -> Two
    assert browser.value("shell.app.screen.island") == "2"
    browser.keys(*_to_row(browser, "Players"))
    browser.keys("a")  # two seats: P2 a computer
    browser.keys(*_to_row(browser, "Start"))
    browser.keys("a", "a")  # start, roll
    browser.keys("y", hold=0.75)
    hint = browser.value("shell.app.screen.msg")
    assert "turns to 10 VP" in hint, hint
    _no_problems(browser)


_HARD_WORK = """
import time
from catan.players import next_action
_t = time.ticks_ms()
_n = 0
while time.ticks_diff(time.ticks_ms(), _t) < 1500:  # a hard computer's decisions, 1.5 s of them
    next_action(shell.app.game, 2, shell.app.game.player)
    _n += 1
print(_n, time.ticks_diff(time.ticks_ms(), _t))
"""


def test_the_page_runs_its_tasks_while_the_game_works(browser):
    # The game runs in a Web Worker: while its VM works (a hard computer's decisions, 1.5 s
    # of them without a pause), the page's own thread goes on with its tasks. Structural,
    # not a time limit: were the game on the page's thread, not one of the page's tasks
    # could run between the work's start and its answer. (`make bench` keeps the figure:
    # web_main_longest_task_ms, the page's longest task while two hard computers play.)
    browser.open("pimoroni_display_pack_2", clear=True)
    browser.exec("shell.app.settings.speed = 3\nshell.app.new_game(1, (2,))")
    ticks, text = browser.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        let ticks = 0, working = true;
        const tick = () => { if (working) { ticks++; setTimeout(tick, 0); } };
        cdg.exec(arguments[0]).then((text) => { working = false; done([ticks, text]); },
                                    (e) => { working = false; done([-1, String(e)]); });
        setTimeout(tick, 0);  // after the work was sent
    """, _HARD_WORK)
    decisions, ms = (int(v) for v in text.split())
    assert decisions >= 1 and ms >= 1500, text
    # a task every few ms (setTimeout's floor) while the worker worked: well over 10
    assert ticks >= 10, "the page ran %d tasks while the game worked %d ms" % (ticks, ms)
    _no_problems(browser)


def test_switching_boards_keeps_the_game(browser):
    from selenium.webdriver.support.ui import Select

    browser.open("pimoroni_display_pack", clear=True)
    browser.exec("shell.app.new_game(1, (255, 1))")
    saved = browser.value("shell.save_hex()")
    Select(browser.driver.find_element("id", "board")).select_by_value("waveshare_pico_lcd_13")
    time.sleep(0.2)
    browser.wait_ready()
    assert browser.script("return [cdg.board, screen.width, screen.height].join()".replace(
        "screen.", "document.getElementById('screen').")) == "waveshare_pico_lcd_13,240,240"
    assert browser.value("sorted(shell.roles)") == str(sorted(("up", "down", "left", "right", "press",
                                                               "a", "b", "x", "y")))
    assert browser.value("shell.app.screen.rows[0]") == "Continue"
    assert browser.value("shell.save_hex()") == saved
    assert "board=waveshare_pico_lcd_13" in browser.driver.current_url
    # the joystick's buttons are on the page now, and its press chooses
    browser.touch("press", hold=0.1)
    assert _screen(browser) == "Turn"
    browser.open()  # the choice is remembered
    assert browser.board == "waveshare_pico_lcd_13"
    _no_problems(browser)


def test_a_damaged_save_is_set_aside_and_reported(browser):
    browser.open("pimoroni_display_pack", clear=True)
    browser.script("localStorage.setItem('catan-dice:game', '4344470100000005deadbeef0102030405')")
    browser.open("pimoroni_display_pack")
    assert _screen(browser) == "Message"
    assert browser.value("shell.app.screen.text") == "game was checksum: set aside"
    assert browser.script("return localStorage.getItem('catan-dice:game.bad')") == \
        "4344470100000005deadbeef0102030405"
    assert browser.script("return localStorage.getItem('catan-dice:game')") is None
    assert not browser.problems()


def test_a_save_the_browser_refuses_is_reported_to_the_player_and_the_next_ones_go_in(browser):
    browser.open("pimoroni_display_pack", clear=True)
    browser.script("window.cdgSetItem = Storage.prototype.setItem;"
                   "Storage.prototype.setItem = function () { throw new DOMException('full', "
                   "'QuotaExceededError'); }")
    browser.exec("shell.app.new_game(1, (255,))")  # its save is refused by the page ...
    time.sleep(0.3)
    # the page says so at once, under the screen ...
    status = browser.script("return document.getElementById('status').textContent")
    assert status == "Could not save game in this browser (QuotaExceededError).", status
    # ... the App says which record was not saved, and keeps it to send again (issue 40)
    browser.keys("a")
    assert "'game'" in browser.value("list(shell.store.refused)")
    notes = browser.value("shell.app.screen.msg")  # the turn screen's foot says it at once
    assert "game was not saved (the browser refused it: QuotaExceededError)" in notes, notes
    assert any("QuotaExceededError" in p for p in browser.problems())
    # the browser takes saves again (room was made): the next one goes in, and no error stays
    browser.script("Storage.prototype.setItem = window.cdgSetItem")
    browser.exec("shell.app.perform(('roll', None))")
    browser.settle()
    assert browser.value("shell.store.error") == "None"
    assert browser.value("shell.store.write('stats', b'x')") == "True"
    saved = _stored(browser, "game")
    assert saved and browser.value("shell.store.records['game'].hex()") == saved


def test_the_web_store_sends_a_refused_record_again_once_and_writes_on():
    # web/webmain.py's WebStore on CPython (the browser test above drives it in the page): a
    # record the page refused is sent again before the next write, once; the writes go on
    for d in (ROOT / "web", ROOT / "firmware"):
        if str(d) not in sys.path:
            sys.path.insert(0, str(d))
    import webmain

    class Page:
        def __init__(self):
            self.saves = []

        def save(self, name, hex_record):
            self.saves.append((name, hex_record))

    page = Page()
    s = webmain.WebStore({}, page)
    assert s.write("game", b"one") and s.error is None
    why = "the browser refused it: QuotaExceededError"
    s.failed("game", why)
    s.failed("game", why)  # refused again: the player is told once
    s.failed("stats", why)  # no such record here: nothing to keep
    assert s.take_problems() == [("game", "not saved (%s)" % why,
                                  "kept, and saved again at the next save")]
    assert s.write("stats", b"two") and s.error is None
    assert [n for n, _ in page.saves] == ["game", "game", "stats"]  # sent again, then the new
    assert webmain.unpack(bytes.fromhex(page.saves[1][1])) == b"one"
    assert s.write("stats", b"three") and s.error is None
    assert [n for n, _ in page.saves] == ["game", "game", "stats", "stats"]  # kept: not again
    assert s.read("game") == b"one" and s.read("stats") == b"three" and not s.take_problems()


def test_a_refused_statistics_write_is_saved_at_the_next_chance_with_its_high_score(browser):
    # issue 40: the statistics refused at a game's end (quota full) are sent again with the
    # next write; a closed tab at the end screen, before the initials, loses no high score
    import ui_scenes
    from catan.ui.app import pack_save

    sys.path.insert(0, str(ROOT / "firmware"))
    from store import pack

    save = pack(pack_save(*ui_scenes._almost_over(1, (255,)))).hex()  # one action left
    browser.open("pimoroni_display_pack", clear=True)
    browser.script("localStorage.setItem('catan-dice:game', arguments[0])", save)
    browser.open("pimoroni_display_pack")
    _setup_play(browser)
    browser.keys("a")  # Continue
    assert _screen(browser) == "Turn"
    browser.exec("from catan.players import next_action")
    browser.script("window._setItem = Storage.prototype.setItem; Storage.prototype.setItem = "
                   "function (k, v) { if (k === 'catan-dice:stats') throw new DOMException("
                   "'full', 'QuotaExceededError'); return window._setItem.call(this, k, v); }")
    browser.exec("shell.app.perform(next_action(shell.app.game, 1, 0))")
    assert _screen(browser) == "GameOver"
    score = browser.value("shell.app.game.score(0)")
    time.sleep(0.3)
    assert _stored(browser, "stats") is None  # refused
    assert browser.value("list(shell.store.refused)") == "['stats']"
    browser.script("Storage.prototype.setItem = window._setItem")
    browser.exec("shell.app.save_settings()")  # the next write, of another record
    time.sleep(0.3)
    assert _stored(browser, "stats")
    browser.open("pimoroni_display_pack")  # the tab reloaded at the end screen
    _setup_play(browser)
    assert browser.value("shell.app.stats.games[0]") == "1"
    assert browser.value("shell.app.stats.high[0]") == "[(%s, 'P1 ')]" % score


# ------------------------------------------------------------------ saves (issue 26)

_DAMAGED = "4344470100000005deadbeef0102030405"  # a record whose checksum is wrong


def _stored(browser, name):
    return browser.script("return localStorage.getItem(arguments[0])", "catan-dice:" + name)


@pytest.mark.parametrize("name", ["settings", "game", "stats", "review"])
def test_an_empty_record_is_set_aside_and_reported(browser, name):
    browser.open("pimoroni_display_pack", clear=True)
    browser.script("localStorage.setItem(arguments[0], '')", "catan-dice:" + name)
    browser.open("pimoroni_display_pack")  # the page starts (it stopped for good before)
    assert _screen(browser) == "Message"
    assert browser.value("shell.app.screen.text") == "%s was truncated: set aside" % name
    assert _stored(browser, name + ".bad") == "" and _stored(browser, name) is None
    browser.open("pimoroni_display_pack")  # and the next start is a clean one
    assert _screen(browser) == "Title"
    assert not browser.problems()


def test_a_second_damaged_record_is_set_aside_beside_the_first(browser):
    browser.open("pimoroni_display_pack", clear=True)
    for k, bad in enumerate((_DAMAGED, "zz", _DAMAGED[:10])):
        browser.script("localStorage.setItem('catan-dice:game', arguments[0])", bad)
        browser.open("pimoroni_display_pack")
        assert _screen(browser) == "Message"
        assert _stored(browser, "game" + (".bad" if k == 0 else ".bad%d" % (k + 1))) == bad
        assert _stored(browser, "game") is None
    assert _stored(browser, "game.bad") == _DAMAGED  # the first one is still there
    assert not browser.problems()


def test_a_damaged_record_whose_copy_the_browser_refuses_is_not_removed(browser):
    browser.open("pimoroni_display_pack", clear=True)
    browser.script("localStorage.setItem('catan-dice:game', arguments[0])", _DAMAGED)
    browser.script("localStorage.setItem('cdg-test-refuse', '1')")
    browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        if (localStorage.getItem('cdg-test-refuse')) {
          const set = Storage.prototype.setItem;
          Storage.prototype.setItem = function (k, v) {
            if (k.endsWith('.bad')) throw new DOMException('full', 'QuotaExceededError');
            return set.call(this, k, v);
          };
        }"""})
    try:
        browser.open("pimoroni_display_pack")
        assert _screen(browser) == "Message"
        assert browser.value("shell.app.screen.text") == (
            "game was checksum: kept where it was, the browser refused its copy "
            "(QuotaExceededError)")
        assert _stored(browser, "game") == _DAMAGED  # not removed: it has no copy
        assert _stored(browser, "game.bad") is None
    finally:
        browser.script("localStorage.removeItem('cdg-test-refuse')")


@pytest.mark.parametrize("chars", [100_000, 3_000_000])
def test_an_oversized_record_is_refused_before_it_is_parsed(browser, chars):
    browser.open("pimoroni_display_pack", clear=True)
    browser.script("localStorage.setItem('catan-dice:stats', '00'.repeat(arguments[0] / 2))", chars)
    browser.open("pimoroni_display_pack")
    assert _screen(browser) == "Message"
    text = browser.value("shell.app.screen.text")
    if chars == 100_000:  # its copy fits: set aside
        assert text == "stats was too large: set aside"
        assert browser.script("return localStorage.getItem('catan-dice:stats.bad').length") == chars
        assert _stored(browser, "stats") is None
    else:  # two copies of 3,000,000 characters are more than the browser keeps: left alone
        assert text == ("stats was too large: kept where it was, the browser refused its copy "
                        "(QuotaExceededError)")
        assert browser.script("return localStorage.getItem('catan-dice:stats').length") == chars
    # never parsed (MicroPython's hex decoding of it took 32-36 s before the first picture):
    # the worker holds no record, so nothing was decoded
    assert browser.value("len(shell.store.records)") == "0"


def test_a_second_tab_plays_without_saving_and_says_so(browser):
    d = browser.driver
    browser.open("pimoroni_display_pack", clear=True)
    browser.exec("shell.app.new_game(1, (255,))")
    first = d.current_window_handle
    saved = _stored(browser, "game")
    assert saved
    d.switch_to.new_window("tab")
    try:
        browser.open("pimoroni_display_pack")  # the same saves, while the first tab plays
        assert _screen(browser) == "Message"
        assert "this tab was opened while another tab plays: nothing played here is saved" in \
            browser.value("shell.app.screen.text")
        browser.keys("a")  # the message read: Continue, then a roll
        browser.keys("a", "a")
        browser.settle()
        assert _screen(browser) == "Turn"
        assert "another tab of this game has the saves open" in browser.value("shell.store.error")
        assert _stored(browser, "game") == saved  # the first tab's game, untouched
    finally:
        d.close()
        d.switch_to.window(first)
    browser.exec("shell.app.perform(('roll', None))")  # the first tab still saves its play
    time.sleep(0.3)
    assert _stored(browser, "game") != saved
    assert browser.value("shell.store.error") == "None"
