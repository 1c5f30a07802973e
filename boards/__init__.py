"""One profile per supported board. A profile builds the display, keys,
pixels and encoder from the board's pins and maps keys to the app's inputs;
nothing else in the firmware knows a pin.

A profile module has: WIDTH, HEIGHT, SCALE (text scale), COLOURS (text,
background), PIXELS (strip length), KEYMAP ((short, long) input per key
number), KEYS (each key's legend, for help and the emulator), ENCODER (True
if it has one), LIBS (the CircuitPython libraries build() imports, for the
drive's requirements.txt), build() -> (display, keys, pixels, encoder or
None), and emulated(), the board as the host's emulator fakes it: a dict of
"pins" (the names CircuitPython's `board` module gives the GPIOs, from
ports/raspberrypi/boards/<board_id>/pins.c), "display" (the built-in
board.DISPLAY's size, if it has one), "chip" (the altar_host model of
board.DISPLAY's controller, where the profile writes the panel itself
through board.DISPLAY.bus: "sh1106"), "knob" (the encoder's pins in the
order with which rotaryio counts a clockwise turn up) and "rgb" (an RGB
LED's pins, R, G, B, active low). emulated() is a function so that the board
holds only its code, never the dict.

Adding a board: its profile module here, and its line in BOARDS below (the
profile's name and the board_ids it serves). Everything else follows: altar
deploy (a board's drive carries the altar_fw modules only its profile
imports, such as its display's driver, and no other board's), altar
emulate's --board (spelt with dashes: pico-display), the emulator, the
tests. Only a display driver the emulator has no fake of yet needs one
(altar_host.device.emulator.Hardware), and a library deploy has never
shipped its PyPI package (altar_host.device.board_emu.LIBS).
"""

# Each profile and the board.board_id values it serves, the first the one
# the emulator gives it; the Pico W, Pico 2 and Pico 2 W (same pinout) take
# the Display Pack as well. A tuple: the order is the same on every VM.
BOARDS = (
    ("macropad", ("adafruit_macropad_rp2040",)),
    ("pico_display", ("raspberry_pi_pico", "raspberry_pi_pico_w", "raspberry_pi_pico2",
                      "raspberry_pi_pico2_w")),
    ("feather_oled", ("adafruit_feather_rp2040",)),
)
PROFILES = tuple(name for name, _ in BOARDS)


def profile_name(board):
    """A profile's name from a board's name as altar's --board spells it
    (pico-display is boards/pico_display.py); ALTAR_BOARD may spell it either way."""
    return board.replace("-", "_")


def load(name):
    name = profile_name(name)
    if name not in PROFILES:
        raise ValueError("unknown board profile %r; one of %s" % (name, ", ".join(PROFILES)))
    return __import__("boards." + name, None, None, ["build"])


def pick(board_id, override=None):
    """The profile for this board: the override (ALTAR_BOARD) if set."""
    if override:
        return load(override)
    for name, ids in BOARDS:
        if board_id in ids:
            return load(name)
    raise ValueError("no Altar profile for board %r: set ALTAR_BOARD in settings.toml "
                     "to one of %s" % (board_id, ", ".join(PROFILES)))
