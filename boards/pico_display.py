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

from altar_fw.inputs import BACK, NEXT, OK, PREV, SCAN, UNDO

WIDTH = 240
HEIGHT = 135
SCALE = 2
COLOURS = (0xF0E0C0, 0x101828)
PIXELS = 1
ENCODER = False
KEYMAP = ((OK, 0), (BACK, UNDO), (PREV, 0), (NEXT, 0))
KEYS = ("A", "B", "X", "Y")
LIBS = ()
# The ST7789's start, as adafruit_st7789 2.1.5 sends it (the same commands,
# so the same glass) but with the waits the ST7789V datasheet asks for:
# 120 ms after SWRESET before SLPOUT (from sleep in), 5 ms after SLPOUT
# before the next command (10 here), none after the others. The library's
# 150 + 500 + 10 + 10 + 500 ms suit any panel and made the first screen
# 1.04 s later (BENCHMARKS.md, "Where a press's time goes").
INIT = (b"\x01\x80\x78"       # SWRESET, 120 ms
        b"\x11\x80\x0a"       # SLPOUT, 10 ms
        b"\x3a\x01\x55"       # COLMOD: 16 bits a pixel
        b"\x36\x01\x08"       # MADCTL
        b"\x13\x00"           # NORON
        b"\x29\x00"           # DISPON
        b"\x36\x01\xc0"       # MADCTL: the library's default rotation
        b"\x21\x00")          # INVON: the IPS glass is itself inverted


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
    import busdisplay
    import busio
    import displayio
    import fourwire
    import keypad

    from altar_fw.glass import Glass

    displayio.release_displays()
    spi = busio.SPI(board.GP18, board.GP19)
    # 62.5 MHz, the ST7789's fastest write clock (16 ns a cycle) and the
    # RP2040's (clk_peri / 2), as Pimoroni's own driver for the pack runs it:
    # a new screen's 58 KB take 7 ms on the wire, not 19 at FourWire's 24 MHz.
    bus = fourwire.FourWire(spi, command=board.GP16, chip_select=board.GP17,
                            baudrate=62_500_000)
    # No refresh until Altar's first screen: displayio would otherwise send
    # its console at once, 0.2 s of SPI in the middle of the boot.
    display = busdisplay.BusDisplay(bus, INIT, rotation=270, width=WIDTH, height=HEIGHT,
                                    rowstart=40, colstart=53, backlight_pin=board.GP20,
                                    auto_refresh=False)
    keys = keypad.Keys((board.GP12, board.GP13, board.GP14, board.GP15),
                       value_when_pressed=False, pull=True, interval=SCAN)
    # Altar's screens go to the glass a character cell at a time
    # (altar_fw/glass.py): displayio's refresh took 155 ms a new screen.
    # At rotation 270 displayio sends viewer pixel (x, y) to the ST7789's
    # column 53 + y (colstart), row 279 - x (rowstart 40, 240 rows turned).
    # 48 cells kept (28 KB): 64 left 71 KB of heap at the lowest in a long
    # game, under the 80 KB goal, for no faster presses (BENCHMARKS.md).
    glass = Glass(display, bus, col0=53, row0=279, cells=48)
    return glass, keys, RGBLed((board.GP6, board.GP7, board.GP8)), None


def emulated():
    return {"pins": dict([("GP%d" % n, n) for n in list(range(23)) + [25, 26, 27, 28]], LED=25),
            "rgb": ("GP6", "GP7", "GP8")}
