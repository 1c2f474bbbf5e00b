"""Screen layouts: where the map, the panel and the dice go on each supported display.

    lay = Layout(width, height)

Three sizes are designed (240x135, 240x240, 320x240); any other size gets the nearest smaller
one, placed at the top left. The turn screen puts the map on the left and a panel on the
right; menus and cards use the whole screen. Numbers are pixels:

- ``su``, ``hu``: the map's lattice steps (half a hex side across, half a hex height down,
  see ``sheet.py``); a site at the map's right edge reaches ``5 su + badge // 2 + 2`` from
  the centre (its badge and cursor frame), a hex edge on the left ``5 su``, top and bottom
  ``3 hu + badge // 2 + 2``;
- ``cx``, ``cy``: the map centre; ``mx, my, mw, mh``: the map rectangle, as high as the
  screen, or (240x240) as the map, the score under it (``sheet.draw`` puts it there);
- ``px, py, pw, ph``: the panel; ``per_row``: dice per row in the panel's tray;
- ``badge``: the side of a site's or a knight's badge on the map (a joker's card is one more):
  15, 17 on 240x240's larger hexes (``sheet.py`` draws those from ``sprites_mid``), or 23
  where the hexes are large enough for them beside each other (from ``sprites_big``);
- ``big``: titles in the large font (screens 200 pixels high or more);
- ``die``: the side of a die's box in the turn screen's tray: 18 (a 16-px face), or on a tall
  panel 26 (the 24-px faces of ``sprites_big``).
"""

from catan import const

# (width, height, su, hu, per_row, badge). Every hex is regular, 2 hu = 0.87 x 4 su to a
# pixel (test_ui_fit). 320x240: 23-px badges reach 2 pixels further past a corner than 15-px
# ones, so the panel is 4 pixels narrower, too narrow for 6 dice a row. 240x240: a regular map
# as high as the screen would be over 200 pixels wide, and the panel needs 108 (its resource
# picker takes 107; at su 13 it would have 98, too few for that and three buttons), so the
# hexes are a step wider than 240x135's, with 17-px badges (sprites_mid), the score under them.
_SIZES = const((
    (320, 240, 19, 33, 3, 23),
    (240, 240, 12, 21, 3, 17),
    (240, 135, 11, 19, 6, 15),
))
# the fewest rows under a map of regular hexes that take the score there: 3, and the large
# font's track (widgets.score: 4 rows of 22 pixels) and a row clear of the screen's edge
_UNDER = const(91)


class Layout:
    def __init__(self, width, height):
        size = _SIZES[-1]
        for size in _SIZES:
            if width >= size[0] and height >= size[1]:
                break
        w, h, su, hu, per_row, badge = size
        self.width = w
        self.height = h
        self.su = su
        self.hu = hu
        self.per_row = per_row
        self.badge = badge
        self.big = h >= 200
        self.die = 26 if self.big else 18
        left = 5 * su
        self.mx = 0
        self.my = 0
        # how far a site's badge and cursor frame reach past its corner
        self.mw = left + 5 * su + badge // 2 + 2 + 1
        # a site's badge and cursor frame reach ``top`` above and below the centre: where
        # the screen has room for the score under that, the map ends there
        top = 3 * hu + badge // 2 + 2
        self.mh = h if h - 2 * top - 1 < _UNDER else 2 * top + 1
        self.cx = left + 1
        self.cy = self.mh // 2
        self.px = self.mw + 1
        self.py = 0
        self.pw = w - self.px
        self.ph = h
