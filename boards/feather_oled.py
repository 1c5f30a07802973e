"""Adafruit Feather RP2040 + 128x64 OLED FeatherWing: SH1107 over
i2cdisplaybus, buttons A/B/C, the Feather's NeoPixel.

Pins: the FeatherWing's buttons A = D9, B = D6, C = D5 (active low, pull-up)
and its display at I2C address 0x3C, as in Adafruit's 128x64 OLED FeatherWing
guide; NEOPIXEL = GPIO16 from CircuitPython's
ports/raspberrypi/boards/adafruit_feather_rp2040/pins.c. The display is
`SH1107(bus, width=128, height=64)`, the wing's call in
Adafruit_CircuitPython_DisplayIO_SH1107 (its README and the docstring of
DISPLAY_OFFSET_ADAFRUIT_FEATHERWING_OLED_4650). The rotation sets the
multiplex ratio: since 1.7.2 the library no longer adds 90 to it and 90 is
the default, so rotation=0 now drives 128 rows and garbles the wing; the
call without a rotation is right for old releases and new.

Three buttons speak the 4-input grammar with holds: A = PREV (hold: BACK),
B = OK, C = NEXT (hold: UNDO).
"""

from altar_fw.inputs import BACK, NEXT, OK, PREV, SCAN, UNDO

WIDTH = 128
HEIGHT = 64
SCALE = 1
COLOURS = (0xFFFFFF, 0x000000)
PIXELS = 1
ENCODER = False
KEYMAP = ((PREV, BACK), (OK, 0), (NEXT, UNDO))
KEYS = ("A", "B", "C")
LIBS = ("adafruit_displayio_sh1107", "neopixel")


def build():
    import board
    import displayio
    import i2cdisplaybus
    import keypad
    import neopixel
    from adafruit_displayio_sh1107 import SH1107

    displayio.release_displays()
    bus = i2cdisplaybus.I2CDisplayBus(board.I2C(), device_address=0x3C)
    display = SH1107(bus, width=WIDTH, height=HEIGHT, auto_refresh=False)   # Altar refreshes
    keys = keypad.Keys((board.D9, board.D6, board.D5), value_when_pressed=False, pull=True,
                       interval=SCAN)
    pixels = neopixel.NeoPixel(board.NEOPIXEL, PIXELS, brightness=0.2, auto_write=False)
    return display, keys, pixels, None


def emulated():
    return {"pins": dict(D4=6, D5=7, D6=8, D9=9, D10=10, D11=11, D12=12, D13=13, LED=13, D24=24,
                         D25=25, SDA=2, SCL=3, NEOPIXEL=16)}
