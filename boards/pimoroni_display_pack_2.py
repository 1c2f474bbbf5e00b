"""Pimoroni Pico Display Pack 2.0 (PIM580): 2.0" 320x240 IPS, ST7789, buttons A/B/X/Y.

Data only. Sources (from memory of the published material; verify with firmware/smoke_test.py):
- Pimoroni product page / pinout (shop.pimoroni.com "Pico Display Pack 2.0"): same SPI0 pins as
  the 1.14" pack (SCK GP18, MOSI GP19, CS GP17, DC GP16, backlight GP20), buttons A GP12,
  B GP13, X GP14, Y GP15 to ground; RGB LED on GP26/27/28.
- pimoroni/pimoroni-pico drivers/st7789/st7789.cpp: 320x240 uses the full 240x320 RAM, so no
  offsets; landscape via MADCTL row/column exchange.
Not sure: whether the pack needs INVON (pimoroni-pico sends INVON for its IPS panels, so yes).
"""

NAME = "Pimoroni Pico Display Pack 2.0 (320x240)"

# 62.5 MHz: the ST7789 write cycle is 16 ns min (datasheet); nano-gui uses a safe 30 MHz.
# If the picture shows noise, lower it.
SPI = {"id": 0, "baudrate": 62_500_000, "sck": 18, "mosi": 19, "miso": None}
DISPLAY = {
    "controller": "st7789",
    "cs": 17,
    "dc": 16,
    "rst": None,
    "width": 320,
    "height": 240,
    "rotation": 1,
    "bgr": False,
    "invert": True,
}
# rotation -> (MADCTL, width, height, x offset, y offset); 240x320 RAM fully used: no offsets.
ROTATIONS = (
    (0x00, 240, 320, 0, 0),
    (0x60, 320, 240, 0, 0),
    (0xC0, 240, 320, 0, 0),
    (0xA0, 320, 240, 0, 0),
)
BACKLIGHT = {"pin": 20, "pwm": True, "active": 1}
# Battery: the Pico and Pico 2 measure VSYS / 3 on GP29 (ADC3) (Raspberry Pi Pico datasheet,
# "Powering Pico"). On a Pico W / Pico 2 W that pin is shared with the radio's interface and
# the reading may be wrong: set BATTERY = None there to hide the battery level.
BATTERY = {"adc_pin": 29, "scale": 3}
BUTTONS = {
    "a": (12, "up", 0),
    "b": (13, "up", 0),
    "x": (14, "up", 0),
    "y": (15, "up", 0),
}
SAFE_BOOT_BUTTON = "y"
