"""Waveshare Pico-LCD-1.3: 1.3" 240x240 IPS, ST7789, 5-way joystick + keys A/B/X/Y.

Data only. Sources (from memory of the published material; verify with firmware/smoke_test.py):
- Waveshare wiki "Pico-LCD-1.3" pinout and demo Pico_LCD_1in3.py: SPI1, SCK GP10, MOSI GP11,
  CS GP9, DC GP8, RST GP12, BL GP13 (PWM); INVON; MADCTL 0x70 in landscape, window 0..239.
- Keys (wiki / demo): joystick up GP2, down GP18, left GP16, right GP20, centre GP3;
  A GP15, B GP17, X GP19, Y GP21; all to ground (active low, internal pull-up).
- Offsets: a 240x240 panel sits at the start of the 240x320 RAM, so the two rotations whose
  scan starts at the far end need an 80-pixel offset (russhughes/st7789py_mpy 240x240 table).
  Key pins also match a third-party config found by search (Waveshare 1.3 hardware config:
  UP 2, DOWN 18, LEFT 16, RIGHT 20, CENTER 3, A 15, B 17, X 19, Y 21, pull-up).
- Rotation/offset table checked (search, this session) against Bodmer/TFT_eSPI
  TFT_Drivers/ST7789_Rotation.h: 135-wide panel: 0x00 -> col 52 row 40, MX|MV 0x60 -> 40/53,
  MX|MY 0xC0 -> 53/40, MV|MY 0xA0 -> 40/52; 240x240: 0xC0 -> row 80, 0xA0 -> col 80.
"""

NAME = "Waveshare Pico-LCD-1.3 (240x240)"

# 62.5 MHz: the ST7789 write cycle is 16 ns min (datasheet); nano-gui uses a safe 30 MHz.
# If the picture shows noise, lower it.
SPI = {"id": 1, "baudrate": 62_500_000, "sck": 10, "mosi": 11, "miso": None}
DISPLAY = {
    "controller": "st7789",
    "cs": 9,
    "dc": 8,
    "rst": 12,
    "width": 240,
    "height": 240,
    "rotation": 1,
    "bgr": False,
    "invert": True,
}
ROTATIONS = (
    (0x00, 240, 240, 0, 0),
    (0x60, 240, 240, 0, 0),
    (0xC0, 240, 240, 0, 80),
    (0xA0, 240, 240, 80, 0),
)
BACKLIGHT = {"pin": 13, "pwm": True, "active": 1}
# Battery: the Pico and Pico 2 measure VSYS / 3 on GP29 (ADC3) (Raspberry Pi Pico datasheet,
# "Powering Pico"). On a Pico W / Pico 2 W that pin is shared with the radio's interface and
# the reading may be wrong: set BATTERY = None there to hide the battery level.
BATTERY = {"adc_pin": 29, "scale": 3}
BUTTONS = {
    "up": (2, "up", 0),
    "down": (18, "up", 0),
    "left": (16, "up", 0),
    "right": (20, "up", 0),
    "press": (3, "up", 0),
    "a": (15, "up", 0),
    "b": (17, "up", 0),
    "x": (19, "up", 0),
    "y": (21, "up", 0),
}
SAFE_BOOT_BUTTON = "y"
