"""What an emulated Pico's panel must show: the host's own render of the App on a board's
layout, as RGB565 rows (for host_tests/test_emu_pico.py and test_emu_usb.py, which compare
the emulator's frames with it)."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def render_app(board, store_files=None, battery=5.0, keys=()):
    """(rows, app): the canvas render of the App on ``board``'s layout after ``keys`` (roles,
    ``y_long`` for a long press) as RGB565 rows, and the App. ``store_files``: the device's
    saves, {path: record as on flash}; ``battery``: the volts the App is told (the emulated
    ADC reads VSYS as on USB, 5 V)."""
    mp = str(ROOT / "host_tests" / "mp")  # memstore (the callers put tools/emu on the path)
    if mp not in sys.path:
        sys.path.insert(0, mp)
    import pico  # tools/emu
    import png  # tools/
    from catan.ui.app import App
    from catan.ui.canvas import PALETTE, rgb565
    from catan.ui.dio_canvas import DioCanvas
    from memstore import MemStore

    saves = {}
    if store_files:
        import store  # firmware/ (test_emu_pico.py puts it on the path)

        saves = {k.rpartition("/")[2]: store.unpack(v) for k, v in store_files.items()}
    b = pico.load_board(board)
    _madctl, w, h, _x, _y = b.ROTATIONS[b.DISPLAY["rotation"]]
    c = DioCanvas(w, h)
    app = App(c, MemStore(saves), roles=tuple(b.BUTTONS))
    if getattr(b, "BATTERY", None):
        app.battery = battery
    app.tick(0)
    app.draw()
    for k in keys:
        # a long press of X or Y is its short step on the first edge, then the long press
        # (firmware/buttons.py), as the device's pins give it
        for event in ((k[0], k) if k in ("x_long", "y_long") else (k,)):
            app.handle(event)
            app.tick(0)
            app.draw()
    idx = png.gs4_indices(c.gs4(), w, h)
    lut = [rgb565(PALETTE[i]) for i in range(16)]
    return [[lut[idx[y * w + x]] for x in range(w)] for y in range(h)], app


def host_render(board, store_files=None, battery=5.0, keys=()):
    """The rows of ``render_app``: what the panel must show."""
    return render_app(board, store_files, battery, keys)[0]
