"""Pimoroni Pico Display Pack (PIM543): 1.14" 240x135 IPS, ST7789, buttons A/B/X/Y.

Data only (plain dicts and tuples), importable on MicroPython and CPython.

Sources (read from memory of the published material, not re-fetched for this file; verify
with firmware/smoke_test.py after wiring):
- Pimoroni product page / pinout (shop.pimoroni.com "Pico Display Pack"): SPI0 SCK GP18,
  MOSI GP19, CS GP17, DC GP16, backlight GP20; buttons A GP12, B GP13, X GP14, Y GP15 to
  ground (active low, use the internal pull-up); RGB LED GP6/7/8.
- peterhinch/micropython-nano-gui setup_examples/st7789_pico_display_pack.py (same pins,
  SPI0 at 30 MHz; note its header wrongly says 240x240).
- Offsets: russhughes/st7789py_mpy lib/st7789py.py, 135x240 rotation table
  (madctl, width, height, xstart, ystart): the 52/53 and 40 offsets differ by one pixel
  between opposite rotations.
- Rotation/offset table checked (search, this session) against Bodmer/TFT_eSPI
  TFT_Drivers/ST7789_Rotation.h: 135-wide panel: 0x00 -> col 52 row 40, MX|MV 0x60 -> 40/53,
  MX|MY 0xC0 -> 53/40, MV|MY 0xA0 -> 40/52; 240x240: 0xC0 -> row 80, 0xA0 -> col 80.
"""

NAME = "Pimoroni Pico Display Pack (1.14in, 240x135)"

# SPI bus: hardware SPI0 only (SoftSPI is ~20x slower).
# 62.5 MHz: the ST7789 write cycle is 16 ns min (datasheet); nano-gui uses a safe 30 MHz.
# If the picture shows noise, lower it.
SPI = {"id": 0, "baudrate": 62_500_000, "sck": 18, "mosi": 19, "miso": None}
DISPLAY = {
    "controller": "st7789",
    "cs": 17,
    "dc": 16,
    "rst": None,  # tied to the Pico's RUN/reset on this pack (not sure: some setups name GP21)
    "width": 240,
    "height": 135,
    "rotation": 1,  # index into ROTATIONS
    "bgr": False,  # RGB order
    "invert": True,  # IPS panel: INVON gives true colours
}
# rotation -> (MADCTL, width, height, x offset, y offset) in the ST7789's 240x320 RAM.
# MADCTL bits: MY 0x80, MX 0x40, MV 0x20 (row/column exchange), BGR 0x08.
ROTATIONS = (
    (0x00, 135, 240, 52, 40),  # portrait
    (0x60, 240, 135, 40, 53),  # landscape, buttons A/B on the left
    (0xC0, 135, 240, 53, 40),  # portrait, upside down
    (0xA0, 240, 135, 40, 52),  # landscape, upside down
)
BACKLIGHT = {"pin": 20, "pwm": True, "active": 1}
# Battery: the Pico and Pico 2 measure VSYS / 3 on GP29 (ADC3) (Raspberry Pi Pico datasheet,
# "Powering Pico"). On a Pico W / Pico 2 W that pin is shared with the radio's interface and
# the reading may be wrong: set BATTERY = None there to hide the battery level.
BATTERY = {"adc_pin": 29, "scale": 3}

# role -> (pin, pull, active level).  pull: "up", "down" or None.
BUTTONS = {
    "a": (12, "up", 0),
    "b": (13, "up", 0),
    "x": (14, "up", 0),
    "y": (15, "up", 0),
}
# Four buttons, no joystick: the app maps A/B/X/Y to navigation itself.
SAFE_BOOT_BUTTON = "y"  # held at power-on: skip the game, leave the REPL free
