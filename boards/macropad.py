"""Adafruit MacroPad RP2040: built-in 128x64 SH1106 (board.DISPLAY), 12 keys,
a rotary encoder with push switch, 12 NeoPixels.

Pins, from CircuitPython's board definition
(ports/raspberrypi/boards/adafruit_macropad_rp2040/pins.c, mirrored in
Adafruit_Blinka's src/adafruit_blinka/board/macropad_u2if.py): KEY1..KEY12 =
GP1..GP12 (active low), ENCODER_SWITCH = GP0, ROTA/ROTB = GP17/GP18,
NEOPIXEL = GP19.

Keys, top left first, three a row: 1..7 pick option 1..7 (an Elder, a value,
a seat), then PREV, NEXT; bottom row: BACK (hold: UNDO), -, OK. The encoder
turns through options (clockwise: NEXT), its switch is OK.
"""

from altar_fw.inputs import BACK, NEXT, OK, PREV, SCAN, UNDO, VALUE

WIDTH = 128
HEIGHT = 64
SCALE = 1
COLOURS = (0xFFFFFF, 0x000000)
PIXELS = 12
ENCODER = True
KEYMAP = tuple([(VALUE + k, 0) for k in range(1, 8)]) + (
    (PREV, 0), (NEXT, 0), (BACK, UNDO), (0, 0), (OK, 0), (OK, 0))
KEYS = ("1", "2", "3", "4", "5", "6", "7", "prev", "next", "back", "", "ok", "encoder")
LIBS = ("neopixel",)


def build():
    import board
    import keypad
    import neopixel
    import rotaryio

    from altar_fw.pages import Pages

    pins = [getattr(board, "KEY%d" % (i + 1)) for i in range(12)] + [board.ENCODER_SWITCH]
    keys = keypad.Keys(pins, value_when_pressed=False, pull=True, interval=SCAN)
    pixels = neopixel.NeoPixel(board.NEOPIXEL, PIXELS, brightness=0.2, auto_write=False)
    # ROTB first: rotaryio then counts a clockwise turn up, as Adafruit's
    # adafruit_macropad presents it (its `encoder` is the negated position of
    # IncrementalEncoder(ROTA, ROTB)).
    encoder = rotaryio.IncrementalEncoder(board.ROTB, board.ROTA)
    # Altar's screens go to the SH1106's pages directly (altar_fw/pages.py):
    # displayio's refresh took 45 ms a new screen. The core's display shows
    # the glass's x = 0 at the chip's column 2.
    return Pages(board.DISPLAY, board.DISPLAY.bus, col0=2), keys, pixels, encoder


def emulated():
    return {"pins": dict([("KEY%d" % k, k) for k in range(1, 13)], ENCODER_SWITCH=0, BUTTON=0,
                         LED=13, SPEAKER=16, ENCODER_A=17, ROTA=17, ENCODER_B=18, ROTB=18,
                         NEOPIXEL=19, SDA=20, SCL=21),
            "display": (128, 64), "chip": "sh1106", "knob": ("ROTB", "ROTA")}
