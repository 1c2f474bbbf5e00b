"""The browser page on a phone (issue 24, point 10): headless Chromium emulating a phone of
390x844 CSS pixels at 3 device pixels each, with touch (tools/web_browser.py, as test_web.py).

- the screen takes the width (issue 40: whole device pixels per game pixel left a fifth of
  it, the text 9 CSS px high): the game's text as large as the phone allows;
- the board's select shows its whole label (it was clipped under its arrow);
- every control (the buttons, the board <select>) lies inside the viewport, and the page
  does not scroll sideways;
- the help speaks of touching the buttons, not of a keyboard the phone lacks;
- touch on the on-screen buttons plays.

Needs Debian's chromium and chromium-driver (`make setup`); without them the tests fail,
unless ALLOW_NO_BROWSER=1 (then they skip).
"""


import pytest
import web  # tools/
import web_browser  # tools/

PHONE = (390, 844, 3)
BOARDS = ("pimoroni_display_pack", "waveshare_pico_lcd_114", "waveshare_pico_lcd_13",
          "pimoroni_display_pack_2")


@pytest.fixture(scope="module")
def phone(need_browser, tmp_path_factory):
    out = tmp_path_factory.mktemp("site") / "web"
    web.build(out, log=lambda *a: None)
    with web_browser.WebSession(out, phone=PHONE) as session:
        yield session


LAYOUT = """
const r = (el) => { const b = el.getBoundingClientRect();
  return [b.left, b.top, b.right, b.bottom]; };
const c = document.getElementById("screen");
const cs = getComputedStyle(c);
return {
  vw: document.documentElement.clientWidth, vh: innerHeight, dpr: devicePixelRatio,
  scrollWidth: document.documentElement.scrollWidth,
  canvas: [c.width, c.height],
  drawn: [c.getBoundingClientRect().width - parseFloat(cs.borderLeftWidth)
          - parseFloat(cs.borderRightWidth),
          c.getBoundingClientRect().height - parseFloat(cs.borderTopWidth)
          - parseFloat(cs.borderBottomWidth)],
  room: (() => { const d = document.getElementById("device"); const ds = getComputedStyle(d);
    return d.parentElement.clientWidth - parseFloat(ds.paddingLeft) - parseFloat(ds.paddingRight); })(),
  select: (() => { const e = document.querySelector("select"); const es = getComputedStyle(e);
    const g = document.createElement("canvas").getContext("2d"); g.font = es.font;
    // the label's width, and the room left of the arrow (about 1.2 em wide)
    return [g.measureText(e.options[e.selectedIndex].text).width,
            e.clientWidth - parseFloat(es.paddingLeft) - parseFloat(es.paddingRight)
            - 1.2 * parseFloat(es.fontSize)]; })(),
  frame: parseFloat(cs.borderLeftWidth) + parseFloat(cs.borderRightWidth),
  controls: [...document.querySelectorAll("button, select")].map(
    (el) => [el.tagName + ":" + (el.dataset.role || el.id), r(el)]),
  help: document.getElementById("help").textContent,
  coarse: matchMedia("(pointer: coarse)").matches,
};
"""


@pytest.mark.parametrize("board", BOARDS)
def test_the_screen_takes_the_width(phone, board):
    phone.open(board)
    m = phone.script(LAYOUT)
    assert m["dpr"] == PHONE[2] and m["vw"] == PHONE[0] and m["coarse"]
    w, h = m["canvas"]
    k = m["drawn"][0] / w  # CSS px a game pixel
    assert abs(m["drawn"][1] - k * h) < 0.5, m  # the same factor both ways
    # the largest factor that fits: the screen and its frame fill the device's width
    assert m["room"] - 1 <= m["drawn"][0] + m["frame"] <= m["room"] + 0.5, m
    assert m["select"][0] <= m["select"][1], "the board's label is clipped: %s" % m["select"]


@pytest.mark.parametrize("board", BOARDS)
def test_every_control_is_inside_the_viewport(phone, board):
    phone.open(board)
    m = phone.script(LAYOUT)
    assert m["scrollWidth"] <= m["vw"], "the page scrolls sideways: %s" % m["scrollWidth"]
    outside = [(name, box) for name, box in m["controls"]
               if box[0] < 0 or box[2] > m["vw"] + 0.5 or box[1] < 0]
    assert not outside, outside
    # and the game's buttons are below the screen, within one screenful
    keys = [box for name, box in m["controls"] if name.startswith("BUTTON:")]
    assert keys and max(b[3] for b in keys) <= m["vh"], keys


def test_touch_devices_get_touch_help_and_touch_plays(phone):
    phone.open("pimoroni_display_pack", clear=True)
    m = phone.script(LAYOUT)
    assert "Keys:" not in m["help"] and "Esc" not in m["help"], m["help"]
    assert "Touch" in m["help"] and "hold" in m["help"].lower(), m["help"]
    before = phone.indices()
    phone.touch("a")  # New game on the title screen
    phone.settle()
    assert phone.indices() != before
    assert not phone.problems()
