"""Waveshare Pico-LCD-1.14: 1.14" 240x135 IPS, ST7789, 5-way joystick + keys A/B.

Data only. Sources (from memory of the published material; verify with firmware/smoke_test.py):
- Waveshare wiki "Pico-LCD-1.14" pinout and demo Pico_LCD_1in14.py (Pico_code/Python): SPI1,
  SCK GP10, MOSI GP11, CS GP9, DC GP8, RST GP12, BL GP13 (PWM); the demo sets MADCTL 0x70,
  INVON, CASET 40..279 and RASET 53..187 for landscape.
- peterhinch/micropython-nano-gui setup_examples/st7789_pico_lcd_114.py (same pins, SPI1 30 MHz).
- Keys (wiki / demo): joystick up GP2, down GP18, left GP16, right GP20, centre GP3;
  key A GP15, key B GP17; all to ground (active low, internal pull-up).
- Offsets per rotation: russhughes/st7789py_mpy lib/st7789py.py 135x240 table.
- Rotation/offset table checked (search, this session) against Bodmer/TFT_eSPI
  TFT_Drivers/ST7789_Rotation.h: 135-wide panel: 0x00 -> col 52 row 40, MX|MV 0x60 -> 40/53,
  MX|MY 0xC0 -> 53/40, MV|MY 0xA0 -> 40/52; 240x240: 0xC0 -> row 80, 0xA0 -> col 80.
"""

NAME = "Waveshare Pico-LCD-1.14 (240x135)"

# 62.5 MHz: the ST7789 write cycle is 16 ns min (datasheet); nano-gui uses a safe 30 MHz.
# If the picture shows noise, lower it.
SPI = {"id": 1, "baudrate": 62_500_000, "sck": 10, "mosi": 11, "miso": None}
DISPLAY = {
    "controller": "st7789",
    "cs": 9,
    "dc": 8,
    "rst": 12,
    "width": 240,
    "height": 135,
    "rotation": 1,
    "bgr": False,
    "invert": True,
}
ROTATIONS = (
    (0x00, 135, 240, 52, 40),
    (0x60, 240, 135, 40, 53),  # Waveshare's demo uses 0x70 (0x60 + ML), same offsets
    (0xC0, 135, 240, 53, 40),
    (0xA0, 240, 135, 40, 52),
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
}
SAFE_BOOT_BUTTON = "b"
