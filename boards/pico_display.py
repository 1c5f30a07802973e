"""Raspberry Pi Pico, Pico W, Pico 2 or Pico 2 W + Pimoroni Pico Display
Pack: ST7789 240x135 over fourwire, buttons A/B/X/Y, an RGB LED.

Pins, from Pimoroni's pimoroni-pico (libraries/pico_display/pico_display.hpp:
A = 12, B = 13, X = 14, Y = 15, LED R/G/B = 6/7/8, active low) and Adafruit's
Adafruit_CircuitPython_ST7789
examples/st7789_240x135_simpletest_Pimoroni_Pico_Display_Pack.py (SPI clock
GP18, MOSI GP19, CS GP17, DC GP16, backlight GP20; rotation 270, rowstart
40, colstart 53).

Buttons: X = PREV, Y = NEXT, A = OK, B = BACK (hold: UNDO).
"""

from altar_fw.inputs import BACK, NEXT, OK, PREV, UNDO

WIDTH = 240
HEIGHT = 135
SCALE = 2
COLOURS = (0xF0E0C0, 0x101828)
PIXELS = 1
ENCODER = False
KEYMAP = ((OK, 0), (BACK, UNDO), (PREV, 0), (NEXT, 0))
KEYS = ("A", "B", "X", "Y")
LIBS = ("adafruit_st7789",)


class RGBLed:
    """The pack's RGB LED (three PWM pins, active low) as a 1-pixel strip."""

    def __init__(self, pins, brightness=30):
        import pwmio
        self.pwm = [pwmio.PWMOut(p, frequency=1000, duty_cycle=0xFFFF) for p in pins]
        self.brightness = brightness    # per cent
        self.colour = 0

    def __len__(self):
        return 1

    def __setitem__(self, i, colour):
        self.colour = colour

    def fill(self, colour):
        self.colour = colour

    def show(self):
        for i in range(3):
            v = self.colour >> (16 - 8 * i) & 0xFF
            self.pwm[i].duty_cycle = 0xFFFF - v * 257 * self.brightness // 100


def build():
    import board
    import busio
    import displayio
    import fourwire
    import keypad
    from adafruit_st7789 import ST7789

    displayio.release_displays()
    spi = busio.SPI(board.GP18, board.GP19)
    bus = fourwire.FourWire(spi, command=board.GP16, chip_select=board.GP17)
    # No refresh until Altar's first screen: displayio would otherwise send
    # its console at once, 0.2 s of SPI in the middle of the boot.
    display = ST7789(bus, rotation=270, width=WIDTH, height=HEIGHT, rowstart=40, colstart=53,
                     backlight_pin=board.GP20, auto_refresh=False)
    keys = keypad.Keys((board.GP12, board.GP13, board.GP14, board.GP15),
                       value_when_pressed=False, pull=True)
    return display, keys, RGBLed((board.GP6, board.GP7, board.GP8)), None


def emulated():
    return {"pins": dict([("GP%d" % n, n) for n in list(range(23)) + [25, 26, 27, 28]], LED=25),
            "rgb": ("GP6", "GP7", "GP8")}
