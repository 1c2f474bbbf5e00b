"""tools/sim.py (the desktop simulator) and tools/gif.py (its GIF writer).

Headless runs with a stand-in app (below) and with the real app, the keyboard as each board's
buttons, the GIF encoder checked by pygame's own decoder, and the window itself under SDL's
dummy video driver (no X server needed, as in CI): a few frames of the stand-in, then the real
app through random keys, hints, message expiry, menus and a whole game, on a simulated clock.
"""

import os
import random
import time
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "tools") not in sys.path:
    sys.path.insert(0, str(ROOT / "tools"))

import gif  # tools/
import png  # tools/
import sim  # tools/
from catan.ui import canvas as cv
from catan.ui.canvas import PALETTE

BOARDS = sim.board_names()
FOUR = "pimoroni_display_pack"  # A/B/X/Y only
STICK = "waveshare_pico_lcd_13"  # joystick + A/B/X/Y
STICK_AB = "waveshare_pico_lcd_114"  # joystick + A/B


class StandIn:
    """A tiny app with the real one's interface: it shows the roles it got.

    "a" makes it busy for 300 ms (like a computer's turn); "b" starts a "game" that moves on
    every 500 ms and is finished after five moves.
    """

    def __init__(self, canvas, store, roles=None, seed=None):
        self.c = canvas
        self.store = store
        self.roles = roles
        self.seed = seed
        self.log = []
        self.now = 0
        self.until = 0
        self.moves = -1  # -1: no game
        self.next_move = 0
        self.changed = True

    def handle(self, role):
        self.log.append(role)
        if role == "a":
            self.until = self.now + 300
        elif role == "b" and self.moves < 0:
            self.moves = 0
            self.next_move = self.now + 500
        self.changed = self.changed or 1  # True: all (the first draw), 1: the top strip

    def tick(self, now):
        self.now = now
        if 0 <= self.moves < 5 and now >= self.next_move:
            self.moves += 1
            self.next_move = now + 500
            self.changed = self.changed or 1

    def draw(self):
        if not self.changed:
            return
        c = self.c
        if self.changed is True:  # the first picture: everything
            c.fill_rect(0, 0, c.width, c.height, cv.SEA)
            c.rect(2, 2, c.width - 4, c.height - 4, cv.SAND)
        else:  # then only the strip that changes (a partial refresh in the window)
            c.fill_rect(3, 3, c.width - 6, 36, cv.SEA)
        self.changed = False
        c.text(4, 4, " ".join(self.log[-6:]) or "-", cv.WHITE)
        c.fill_rect(4, 30, 10 * max(self.moves, 0) + 1, 8, cv.GOLD)

    def busy(self):
        return self.now < self.until or 0 <= self.moves < 5

    def finished(self):
        return self.moves >= 5


def _canvas_indices(canvas):
    return png.gs4_indices(canvas.gs4(), canvas.width, canvas.height)


# ---------------------------------------------------------------------------- boards and keys

def test_board_sizes_follow_the_rotation():
    sizes = {b: sim.board_size(sim.load_board(b)) for b in BOARDS}
    assert sizes[FOUR] == (240, 135)
    assert sizes["pimoroni_display_pack_2"] == (320, 240)
    assert sizes[STICK] == (240, 240)
    assert sim.default_scale(240, 135) == 3
    assert sim.default_scale(240, 240) == 3
    assert sim.default_scale(320, 240) == 2
    assert sim.default_scale(240, 240, desktop=(1366, 768)) == 2  # 720 px would not fit
    assert sim.default_scale(240, 135, desktop=(320, 200)) == 1


@pytest.mark.parametrize("name", BOARDS)
def test_keys_are_the_boards_buttons_only(name):
    board = sim.load_board(name)
    keys = sim.key_map(sim.board_roles(board))
    assert set(keys.values()) == set(board.BUTTONS)
    for role in board.BUTTONS:
        assert any(r == role for r in keys.values()), role
    assert all(k not in keys for k in sim.SHOT_KEYS + sim.QUIT_KEYS)


def test_four_button_board_has_no_arrows_and_stick_boards_have_them():
    four = sim.key_map(sim.board_roles(sim.load_board(FOUR)))
    assert four == {"a": "a", "b": "b", "x": "x", "y": "y"}
    stick = sim.key_map(sim.board_roles(sim.load_board(STICK)))
    for key, role in (("up", "up"), ("down", "down"), ("left", "left"), ("right", "right"),
                      ("return", "press"), ("space", "press"), ("a", "a"), ("y", "y")):
        assert stick[key] == role
    ab = sim.key_map(sim.board_roles(sim.load_board(STICK_AB)))
    assert "x" not in ab and "y" not in ab and ab["up"] == "up"


def test_event_role_shift_gives_the_long_press_where_there_is_one():
    keys = sim.key_map(sim.board_roles(sim.load_board(STICK)))
    assert sim.event_role("a", 0, keys) == ("a", False)
    assert sim.event_role("a", 1, keys) == ("a", True)
    assert sim.event_role("return", 1, keys) == ("press", True)
    assert sim.event_role("up", 1, keys) == ("up", False)  # directions have no long press
    assert sim.event_role("q", 0, keys) == (None, False)
    four = sim.key_map(sim.board_roles(sim.load_board(FOUR)))
    assert sim.event_role("up", 0, four) == (None, False)


def test_help_line_names_every_key():
    board = sim.load_board(STICK)
    line = sim.help_line(board, sim.board_roles(board))
    for part in ("A=a", "up=up", "press=return/space/enter", "Shift", "F12", "Esc"):
        assert part in line


class Clock:
    def __init__(self):
        self.t = 1000

    def __call__(self):
        return self.t


def test_key_buttons_tap_hold_shift_and_repeat():
    clk = Clock()
    kb = sim.KeyButtons(sim.board_roles(sim.load_board(STICK)), clk)
    assert not kb.key_down("return")  # the press acts on release (or at 600 ms held)
    clk.t += 100
    assert kb.key_up("return") == ["press"]
    clk.t += 100
    assert not kb.key_down("return")
    clk.t += 599
    assert not kb.poll()
    clk.t += 1
    assert kb.poll() == ["press_long"]
    clk.t += 100
    assert not kb.key_up("return")
    clk.t += 100
    assert kb.key_down("a") == ["a"]  # A at once: its long press means the same
    clk.t += 700
    assert not kb.poll() and not kb.key_up("a")
    clk.t += 100
    assert kb.key_down("x", shift=True) == ["x", "x_long"]  # as held: the step, then the long
    assert not kb.key_up("x")  # that key never went down as a button
    clk.t += 100
    assert kb.key_down("up") == ["up"]  # directions act at once, then repeat while held
    clk.t += 400
    assert kb.poll() == ["up"]
    clk.t += 150
    assert kb.poll() == ["up"]
    clk.t += 50
    assert not kb.key_up("up")
    clk.t += 100
    assert not kb.key_down("q") and not kb.key_down("f12")
    # Enter and space are both the press: holding both, then letting go of one, is one press.
    assert not kb.key_down("return")
    clk.t += 50
    assert not kb.key_down("space")
    clk.t += 50
    assert not kb.key_up("return")
    clk.t += 50
    assert kb.key_up("space") == ["press"]
    clk.t += 50
    assert kb.key_down("b") == ["b"]
    clk.t += 50
    kb.key_down("return")
    clk.t += 50
    assert kb.release_all() == ["press"]


# ---------------------------------------------------------------------------- headless

def test_headless_screenshot_is_the_canvas(tmp_path):
    board = sim.load_board(FOUR)
    h = sim.Headless(StandIn, board, log=lambda *a: None)
    h.keys("a,y,x_long,t200,b")
    app = h.app
    assert app.log == ["a", "y", "x_long", "b"]
    assert app.seed == 1  # headless dice are seeded
    assert type(app.store).__name__ == "MemStore"
    assert app.finished()  # "b" made it busy: the clock ran until it was done
    out = tmp_path / "shot.png"
    h.screenshot(str(out))
    w, hh, idx, pal = png.decode(out.read_bytes())
    assert (w, hh) == (240, 135)
    assert idx == _canvas_indices(h.canvas) == sim.frame_indices(h.canvas)
    assert pal == list(PALETTE)
    h.screenshot(str(tmp_path / "x2.png"), scale=2)
    w2, h2, idx2, _ = png.decode((tmp_path / "x2.png").read_bytes())
    assert (w2, h2) == (480, 270)
    assert bytes(idx2[y * 2 * w2 + 2 * x] for y in range(135) for x in range(240)) == idx


def test_headless_waits_while_busy_but_not_for_ever():
    h = sim.Headless(StandIn, sim.load_board(FOUR), settle_ms=1000, log=lambda *a: None)
    h.press("a")
    assert not h.app.busy() and 300 <= h.now < 600
    h.press("b")  # busy for 2.5 s: the cap stops the wait
    assert h.app.busy() and h.now < 2000


def test_headless_refuses_keys_the_board_lacks():
    h = sim.Headless(StandIn, sim.load_board(FOUR), log=lambda *a: None)
    with pytest.raises(SystemExit, match="no 'up'"):
        h.keys("a,up")
    with pytest.raises(SystemExit):
        h.keys("left_long")
    s = sim.Headless(StandIn, sim.load_board(STICK), log=lambda *a: None)
    s.keys("up,press_long,left")
    assert s.app.log == ["up", "press_long", "left"]


def test_frame_indices_fast_path_matches_the_canvas():
    from catan.ui.dio_canvas import DioCanvas

    rng = random.Random(3)
    for w, h in ((240, 135), (33, 7)):  # 33: a row that does not fill its last word
        c = DioCanvas(w, h)
        for _ in range(40):
            c.fill_rect(rng.randrange(w), rng.randrange(h), rng.randrange(1, 40),
                        rng.randrange(1, 20), rng.randrange(16))
        c.text(1, 1, "Hello 42", cv.WHITE)
        assert sim.frame_indices(c) == _canvas_indices(c)


def test_autoplay_frames_and_gif(tmp_path):
    h = sim.Headless(StandIn, sim.load_board(FOUR), log=lambda *a: None)
    h.keys("y")
    h.app.handle("b")  # start the stand-in's "game" without waiting for it
    frames = tmp_path / "frames"
    assert h.autoplay(str(frames), str(tmp_path / "a.gif"), scale=2)
    names = sorted(os.listdir(frames))
    assert names == ["frame_%05d.png" % i for i in range(1, len(names) + 1)]
    assert 6 <= len(names) <= 8  # the picture changes once per move (plus the first)
    last = png.decode((frames / names[-1]).read_bytes())
    assert last[:2] == (480, 270)
    W, H, gframes, pal = gif.decode((tmp_path / "a.gif").read_bytes())
    assert (W, H) == (480, 270) and len(gframes) == len(names)
    for name, (idx, delay) in zip(names, gframes):
        assert png.decode((frames / name).read_bytes())[2] == idx
        assert delay >= 20
    assert pal[:16] == list(PALETTE)


def test_main_headless_writes_the_png_without_a_display(tmp_path):
    # The command line, in a fresh process with no display and no SDL driver chosen.
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY",
                                                            "SDL_VIDEODRIVER")}
    out = tmp_path / "s.png"
    code = ("import sys; sys.path.insert(0, 'tools'); import sim; "
            "rc = sim.main(sys.argv[1:]); "
            "assert not [m for m in sys.modules if m.startswith('pygame')], 'pygame imported'; "
            "sys.exit(rc)")
    p = subprocess.run([sys.executable, "-c", code, "--headless", "--board", STICK,
                        "--app", "host_tests/test_sim.py:StandIn", "--keys", "up,a,press",
                        "--screenshot", str(out)], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr
    w, h, idx, _ = png.decode(out.read_bytes())
    assert (w, h) == (240, 240)


def test_main_argument_errors(capsys):
    for argv in (["--headless"], ["--keys", "a"], ["--headless", "--frames", "d", "--screenshot", "x.png"],
                 ["--headless", "--autoplay", "1", "--seats", "genius"]):
        with pytest.raises(SystemExit) as e:
            sim.main(argv)
        assert e.value.code == 2, argv
    with pytest.raises(SystemExit, match="no board"):
        sim.main(["--board", "nope", "--headless", "--screenshot", "x.png"])


# ---------------------------------------------------------------------------- the real app

def test_real_app_headless_keys(tmp_path):
    out = tmp_path / "new_game.png"
    assert sim.main(["--headless", "--keys", "a,y,a,y,a,a,a,y,y,y,y", "--screenshot", str(out)],
                    log=lambda *a: None) == 0
    h = sim.Headless(sim.resolve_app(sim.DEFAULT_APP), sim.load_board(FOUR), log=lambda *a: None)
    h.keys("a,y,a,y,a,a,a,y,y,y,y")
    menu = h.app.screen
    assert type(menu).__name__ == "NewGame" and menu.rows[menu.i] == "Start"
    assert menu.seats == [2, 1]  # P1 hard, P2 medium
    assert png.decode(out.read_bytes())[2] == sim.frame_indices(h.canvas)


def test_real_app_saves_carry_over_between_runs(tmp_path):
    saves = str(tmp_path / "saves")
    app_cls = sim.resolve_app(sim.DEFAULT_APP)
    h = sim.Headless(app_cls, sim.load_board(FOUR), sim.folder_store(saves), log=lambda *a: None)
    h.keys("a,x,a,a")  # new game, "Start" (one person), roll
    assert h.app.game is not None and not h.app.game.over()
    again = sim.Headless(app_cls, sim.load_board(FOUR), sim.folder_store(saves), log=lambda *a: None)
    assert again.app.has_save()
    assert again.app.screen.rows[0] == "Continue"


def test_real_app_autoplay_starts_a_computer_game(tmp_path):
    h = sim.Headless(sim.resolve_app(sim.DEFAULT_APP), sim.load_board(STICK), seed=5,
                     log=lambda *a: None)
    assert not h.autoplay(str(tmp_path / "f"), str(tmp_path / "a.gif"), max_frames=12,
                          seats=("hard",))  # stopped by the frame limit
    g = h.app.game
    assert g is not None and g.players == 1 and h.app.level(0) == 2
    assert len(os.listdir(tmp_path / "f")) == 12
    _, _, frames, _ = gif.decode((tmp_path / "a.gif").read_bytes())
    assert len(frames) == 12 and frames[-1][0] == sim.frame_indices(h.canvas)


# ---------------------------------------------------------------------------- GIF

def _random_frames(w, h, n, rng):
    base = bytearray(((x // 5) ^ (y // 3)) % 16 for y in range(h) for x in range(w))
    frames = [(bytes(base), 100)]
    for i in range(1, n):
        x0, y0 = rng.randrange(w), rng.randrange(h)
        for y in range(y0, min(h, y0 + rng.randrange(1, 12))):
            for x in range(x0, min(w, x0 + rng.randrange(1, 30))):
                base[y * w + x] = rng.randrange(16)
        frames.append((bytes(base), 40 * i))
    return frames


def test_gif_round_trip_through_our_decoder():
    rng = random.Random(5)
    w, h = 61, 23
    frames = _random_frames(w, h, 6, rng)
    frames.insert(3, (frames[2][0], 70))  # an unchanged frame: its time goes to the one before
    data = gif.encode(w, h, frames, PALETTE, scale=2)
    W, H, got, pal = gif.decode(data)
    assert (W, H) == (2 * w, 2 * h) and pal[:16] == list(PALETTE)
    want = [f for i, f in enumerate(frames) if i != 3]
    assert [i for i, _ in got] == [gif._scaled(i, w, h, 2) for i, _ in want]
    assert got[2][1] == frames[2][1] + 70
    noise = bytes(rng.randrange(16) for _ in range(200 * 150))  # fills the code table: resets
    assert gif.decode(gif.encode(200, 150, [(noise, 0)], PALETTE))[2][0][0] == noise
    assert gif.unlzw(gif.lzw(b"", 4), 4, 0) == b""
    for n in (1, 2, 3, 500, 5000):
        run = bytes([7]) * n  # long runs: codes added every step, KwKwK cases
        assert gif.unlzw(gif.lzw(run, 4), 4, n) == run


def test_gif_decoded_by_pygame(tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    import pygame

    rng = random.Random(9)
    w, h = 240, 135
    for first in (_random_frames(w, h, 1, rng)[0][0],
                  bytes(rng.randrange(16) for _ in range(w * h))):
        path = tmp_path / "x.gif"
        path.write_bytes(gif.encode(w, h, [(first, 100), (bytes(w * h), 100)], PALETTE))
        surf = pygame.image.load(str(path))  # SDL_image's decoder: the first frame
        assert surf.get_size() == (w, h)
        for y in range(h):
            for x in range(0, w, 7 if y % 5 else 1):
                c = PALETTE[first[y * w + x]]
                assert tuple(surf.get_at((x, y)))[:3] == (c >> 16, (c >> 8) & 255, c & 255)


# ---------------------------------------------------------------------------- the window

def _key(pygame, kind, key, mod=0):
    return pygame.event.Event(kind, key=key, mod=mod, unicode="", scancode=0)


@pytest.mark.parametrize("name", [FOUR, STICK])
def test_window_runs_under_the_dummy_video_driver(name, tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    import pygame

    down, up = pygame.KEYDOWN, pygame.KEYUP
    K = pygame
    script = {
        3: [_key(K, down, K.K_a)], 6: [_key(K, up, K.K_a)],
        9: [_key(K, down, K.K_UP)], 11: [_key(K, up, K.K_UP)],  # not a key of the four-button board
        13: [_key(K, down, K.K_x, K.KMOD_LSHIFT)], 15: [_key(K, up, K.K_x)],
        17: [_key(K, down, K.K_q)], 18: [_key(K, up, K.K_q)],
        20: [_key(K, down, K.K_F12)],
        24: [_key(K, down, K.K_ESCAPE)],
    }
    board = sim.load_board(name)
    shots = tmp_path / "shots"
    store = sim.folder_store(str(tmp_path / "saves"))
    seen = {}

    def on_frame(frame, display, canvas):
        if frame == 22:  # every key handled; what the window shows, and the canvas
            seen["window"] = pygame.surfarray.array3d(display.window).copy()
            seen["canvas"] = sim.frame_indices(canvas)

    app = sim.run_window(StandIn, board, name, store, seed=3, shots_dir=str(shots), fps=60,
                         max_frames=200, script=script, on_frame=on_frame, log=lambda *a: None)
    want = ["a", "up", "x", "x_long"] if name == STICK else ["a", "x", "x_long"]
    assert app.log == want
    assert app.seed == 3 and app.roles == sim.board_roles(board)
    assert app.now < 3000  # Esc ended it, long before 200 frames
    (shot,) = os.listdir(shots)
    w, h, idx, _ = png.decode((shots / shot).read_bytes())
    W, H = sim.board_size(board)
    s = w // W  # by size, and smaller if the (dummy) desktop is small
    assert s >= 2 and (w, h) == (W * s, H * s)
    assert bytes(idx[y * s * w + x * s] for y in range(H) for x in range(W)) == \
        sim.frame_indices(app.c)
    assert not pygame.display.get_init()  # the window closed
    # The window shows the canvas, scaled (colours through displayio's RGB565): each palette
    # index is always the same colour, and two indices never share one.
    import numpy as np

    win = seen["window"]  # [x, y, rgb]
    assert win.shape[:2] == (W * s, H * s)
    idx = np.frombuffer(seen["canvas"], dtype=np.uint8).reshape(H, W).T
    colour = {}
    for dx, dy in ((0, 0), (s - 1, s - 1), (0, s - 1), (s - 1, 0)):  # corners of each big pixel
        part = win[dx::s, dy::s]
        for i in np.unique(idx):
            cols = np.unique(part[idx == i], axis=0)
            assert len(cols) == 1, "index %d shows as %d colours" % (i, len(cols))
            rgb = tuple(int(v) for v in cols[0])
            assert colour.setdefault(int(i), rgb) == rgb
    assert len(set(colour.values())) == len(colour) >= 4
    for i, rgb in colour.items():
        assert all(abs(a - (PALETTE[i] >> k & 255)) <= 8 for a, k in zip(rgb, (16, 8, 0)))


def _sdl_key(stamps, kind, sym, scancode):
    # A key event as the keyboard gives it: pushed into SDL's queue (stamped by SDL then), not
    # posted through pygame
    import ctypes

    ev = (ctypes.c_uint8 * 56)()
    ctypes.memmove(ev, (ctypes.c_uint32 * 1)(kind), 4)
    ev[12] = 1 if kind == 0x300 else 0  # state: pressed or released
    ctypes.memmove(ctypes.byref(ev, 16), (ctypes.c_int32 * 2)(scancode, sym), 8)
    assert stamps.sdl.SDL_PushEvent(ev) == 1


def test_window_times_a_long_press_from_the_keys_own_events(monkeypatch):
    # issue 40: under load the loop got to a held Y's press and release together, and timed
    # the hold then: no hint. Here the loop is held up (a frame's work: 700 ms) while Y is
    # pressed and released 700 ms apart; its long press still counts.
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    import pygame

    board = sim.load_board(FOUR)
    holds = {}

    def on_frame(frame, display, canvas):
        if frame == 3:  # the frame's work takes 700 ms; the key goes down and up meanwhile
            stamps = sim.EventClock.open(pygame)
            assert stamps is not None, "pygame's SDL library was not found"
            _sdl_key(stamps, 0x300, pygame.K_y, 28)
            time.sleep(0.7)
            _sdl_key(stamps, 0x301, pygame.K_y, 28)
            holds["pushed"] = True

    script = {12: [_key(pygame, pygame.KEYDOWN, pygame.K_ESCAPE)]}
    app = sim.run_window(StandIn, board, FOUR, sim.memory_store(), fps=60, max_frames=100,
                         script=script, on_frame=on_frame, log=lambda *a: None)
    assert holds and app.log == ["y", "y_long"], app.log


def test_window_close_button_quits(tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    import pygame

    app = sim.run_window(StandIn, sim.load_board(FOUR), FOUR, sim.memory_store(), fps=200,
                         max_frames=500, script={4: [pygame.event.Event(pygame.QUIT)]},
                         log=lambda *a: None)
    assert app.log == [] and not pygame.display.get_init()


def test_real_app_autoplay_plays_a_persons_seat_by_keys(tmp_path):
    app_cls = sim.resolve_app(sim.DEFAULT_APP)
    h = sim.Headless(app_cls, sim.load_board(FOUR), seed=4, log=lambda *a: None)
    h.keys("a,x,a")  # new game, Start: one person
    g = h.app.game
    assert g is not None and h.app.level(0) is None and g.turns[0] == 0
    assert not h.autoplay(max_frames=40)
    assert g.turns[0] >= 1  # the person's seat rolled, chose and ended turns, by keys
    idle = sim.Headless(app_cls, sim.load_board(FOUR), seed=4, log=lambda *a: None)
    idle.keys("a,x,a")
    assert not idle.autoplay(max_frames=40, humans=None)  # waits for the person: stops
    assert idle.app.game.turns[0] == 0


# ---------------------------------------------------------------------------- the real app in the window

_PG_KEYS = {"a": "K_a", "b": "K_b", "x": "K_x", "y": "K_y", "up": "K_UP", "down": "K_DOWN",
            "left": "K_LEFT", "right": "K_RIGHT", "press": "K_RETURN"}
FRAME_MS = 40  # the window tests' clock: this much per frame


class WindowDriver:
    """Keys for ``sim.run_window`` on a simulated clock: a queue of roles (``a``, ``y_long``,
    ``y/1500`` held that long, ``t3500`` to wait), each pressed (a long press held past 600 ms,
    or with Shift), released, and followed by a short pause; ``more(app)`` gives the next keys
    when the queue is empty (None: close the window). After each refresh the window must show the canvas."""

    def __init__(self, pygame, more, rng):
        self.pg = pygame
        self.more = more
        self.rng = rng
        self.queue = []
        self.now = 0
        self.wait_until = 0  # no keys before this time
        self.up_at = None  # (time, key) of the key being held
        self.pressed = []
        self.checks = 0

    def ticks(self):
        return self.now

    def _event(self, kind, key, mod=0):
        return self.pg.event.Event(kind, key=getattr(self.pg, _PG_KEYS[key]), mod=mod,
                                   unicode="", scancode=0)

    def script(self, frame, app):
        pg = self.pg
        if self.up_at is not None:
            if self.now < self.up_at[0]:
                return []
            key = self.up_at[1]
            self.up_at = None
            self.wait_until = self.now + self.rng.choice((0, FRAME_MS, 200))
            return [self._event(pg.KEYUP, key)]
        if self.now < self.wait_until or app.busy():
            return []
        if not self.queue:
            keys = self.more(app)
            if keys is None:
                return [pg.event.Event(pg.QUIT)]
            self.queue = list(keys)
        role = self.queue.pop(0)
        if role[0] == "t" and role[1:].isdigit():
            self.wait_until = self.now + int(role[1:])
            return []
        self.pressed.append(role)
        if "/" in role:  # "y/1500": hold the key that long
            key, _, ms = role.partition("/")
            self.up_at = (self.now + int(ms), key)
            return [self._event(pg.KEYDOWN, key)]
        key, _, long = role.partition("_")
        if long and self.rng.random() < 0.5:  # Shift + key: the long press at once
            self.up_at = (self.now + FRAME_MS, key)
            return [self._event(pg.KEYDOWN, key, pg.KMOD_LSHIFT)]
        hold = 700 if long else self.rng.choice((FRAME_MS, 120))
        self.up_at = (self.now + hold, key)
        return [self._event(pg.KEYDOWN, key)]

    def on_frame(self, frame, display, canvas):
        self.now += FRAME_MS
        if frame % 25 == 0:
            _window_shows_canvas(self.pg, display, canvas)
            self.checks += 1


def _window_shows_canvas(pygame, display, canvas):
    """The off-screen picture (board size) holds each pixel's palette colour, through RGB565."""
    import numpy as np

    surf = pygame.surfarray.array3d(display._pygame_screen).transpose(1, 0, 2)  # [y, x, rgb]
    idx = np.frombuffer(sim.frame_indices(canvas), dtype=np.uint8).reshape(canvas.height,
                                                                          canvas.width)
    for i in np.unique(idx):
        c = PALETTE[int(i)]
        want = np.array([c >> 16, c >> 8 & 255, c & 255])
        got = surf[idx == i].astype(int)
        assert np.abs(got - want).max() <= 8, "palette index %d shows wrong" % i


def _run_window_app(name, driver, store, seed=7, max_frames=20000):
    import pygame  # noqa: F401  (the driver's events)

    return sim.run_window(sim.resolve_app(sim.DEFAULT_APP), sim.load_board(name), name, store,
                          seed=seed, fps=10000, max_frames=max_frames, script=driver.script,
                          on_frame=driver.on_frame, log=lambda *a: None, ticks=driver.ticks)


@pytest.mark.parametrize("name", [FOUR, STICK])
def test_window_real_app_random_keys_hints_and_message_expiry(name, monkeypatch):
    """200 random keys on the real app in the real window (the dummy video driver), with
    long presses (hints, the score sheet, the pause menu) and waits long enough for messages
    and the coach's line to expire: every partial refresh reaches the window (an odd-sized
    region used to crash blinka-displayio-pygamedisplay 4.0.1)."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    import pygame

    rng = random.Random(name)
    roles = sim.valid_roles(sim.board_roles(sim.load_board(name)))
    # The sure path of the crash first: new game, start, roll, a hint, wait for it to clear.
    first = ["a", "x", "a", "a", "y_long", "t3500"]
    keys = []
    for _ in range(200):
        keys.append(rng.choice(roles + ("y_long", "y_long", "b_long")))
        if rng.random() < 0.3:
            keys.append("t%d" % rng.choice((500, 1500, 3200, 4000)))
    batches = [first, keys]
    driver = WindowDriver(pygame, lambda app: batches.pop(0) if batches else None, rng)
    app = _run_window_app(name, driver, sim.memory_store())
    assert not batches and not driver.queue  # every key was pressed, then the window closed
    assert len(driver.pressed) == 205 and driver.checks > 10
    assert app.game is not None


def test_window_real_app_plays_a_whole_game_with_hints_and_menus(monkeypatch):
    """A whole solo Island One game by keys in the window: a hint and a wait at every turn,
    the pause menu and the score sheet now and then, up to the game-over screen."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    import pygame

    mp = str(ROOT / "host_tests" / "mp")
    if mp not in sys.path:
        sys.path.append(mp)
    import ui_autokeys
    from catan.ui.turn import Turn

    seen = {"turns": set(), "over": False}

    def more(app):
        g = app.game
        if g is None:
            return ["a", "x", "a"]  # new game, Start: one person, Island One
        if g.over():
            if seen["over"]:
                return None
            seen["over"] = True
            return ["t500"]
        if not isinstance(app.screen, Turn):
            return ["a"]
        extra = []
        if g.turns[0] not in seen["turns"]:  # a new turn: a hint, its expiry, a menu
            seen["turns"].add(g.turns[0])
            extra = ["y_long", "t3500"]
            if g.turns[0] % 4 == 1:
                extra += ["b_long", "y", "y", "a", "t300", "b", "b"]  # the score sheet, back
            if g.turns[0] % 4 == 2:
                extra += ["x_long", "t300", "b"]
        return extra + ui_autokeys.next_keys(app, ui_autokeys.plain(g))

    driver = WindowDriver(pygame, more, random.Random(3))
    app = _run_window_app(FOUR, driver, sim.memory_store(), max_frames=40000)
    assert seen["over"] and app.finished()
    assert len(seen["turns"]) == 15


def test_even_area_gives_every_refresh_an_even_pixel_count():
    from displayio._area import Area

    for x1, y1, x2, y2 in ((0, 0, 3, 3), (237, 10, 240, 13), (5, 5, 6, 6), (-2, -1, 241, 136),
                           (0, 0, 240, 135), (239, 134, 240, 135), (10, 10, 14, 11)):
        a = Area(x1, y1, x2, y2)
        e = sim.even_area(a, 240, 135)
        assert (a.x1, a.y1, a.x2, a.y2) == (x1, y1, x2, y2)  # the original is left alone
        assert 0 <= e.x1 <= max(x1, 0) and min(x2, 240) <= e.x2 <= 240
        assert 0 <= e.y1 and e.y2 <= 135
        assert (e.x2 - e.x1) * (e.y2 - e.y1) % 2 == 0


def test_readme_commands_work_as_written(tmp_path):
    """Every Python command the README shows runs the venv's interpreter (a bare ``python``
    lacks displayio and pygame), and the headless one works as written."""
    import re

    readme = (ROOT / "README.md").read_text()
    bare = [m.group(0) for m in re.finditer(r"(?<![\w/.-])python3? [^`\n]*", readme)]
    assert not bare, bare
    line = next(ln for ln in readme.splitlines()
                if ln.startswith(".venv/bin/python tools/sim.py --headless --board"))
    out = tmp_path / "out.png"
    proc = subprocess.run(line.replace("out.png", str(out)), shell=True, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert png.decode(out.read_bytes())[:2] == (240, 135)


def test_window_letters_repeat_while_held_in_the_code_entry(monkeypatch):
    """The window's loop tells the buttons which keys repeat: Y held in a text entry steps
    through the letters; in the game it is the coach's long press again."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    import pygame

    batches = [["a", "x", "x", "a", "y/1500"]]  # New game, Type a code, hold Y
    seen = {}

    def more(app):
        if batches:
            return batches.pop(0)
        seen["screen"] = type(app.screen).__name__
        seen["chars"] = list(app.screen.chars)
        return None

    driver = WindowDriver(pygame, more, random.Random(1))
    _run_window_app(FOUR, driver, sim.memory_store())
    assert seen["screen"] == "TextEntry"
    assert seen["chars"][0] >= 6  # one press and about a dozen repeats, not one letter


# ------------------------------------------ issue 24, point 11: no display, no silent window

def _sim_without_display(extra_env, *args):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env.update(extra_env)
    return subprocess.run([sys.executable, str(ROOT / "tools" / "sim.py"), *args], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=30)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="DISPLAY is how Linux finds one")
def test_window_without_a_display_says_what_to_do_and_fails(tmp_path):
    """No DISPLAY or WAYLAND_DISPLAY: the window would open nowhere and run for ever.
    Instead the simulator says so at once, names the two ways out, and exits non-zero."""
    proc = _sim_without_display({}, "--saves", str(tmp_path))
    assert proc.returncode != 0
    assert "no display" in proc.stderr and "--headless" in proc.stderr and "desktop" in proc.stderr


def test_window_on_sdls_offscreen_fallback_says_what_to_do_and_fails(tmp_path):
    """A DISPLAY that names no server: SDL falls back to its off-screen driver and would run
    for ever with no window; the simulator notices the driver and stops with the advice."""
    proc = _sim_without_display({"DISPLAY": ":97", "XDG_RUNTIME_DIR": str(tmp_path)},
                                "--saves", str(tmp_path))
    assert proc.returncode != 0
    assert "no display" in proc.stderr and "--headless" in proc.stderr


def test_a_driver_chosen_by_the_user_is_left_alone():
    assert sim.display_problem({"SDL_VIDEODRIVER": "dummy"}, "linux") is None
    assert sim.display_problem({"DISPLAY": ":0"}, "linux") is None
    assert sim.display_problem({"WAYLAND_DISPLAY": "wayland-0"}, "linux") is None
    assert sim.display_problem({}, "darwin") is None
    assert "DISPLAY" in sim.display_problem({}, "linux")
