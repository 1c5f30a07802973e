"""One profile per supported board. A profile builds the display, keys,
pixels and encoder from the board's pins and maps keys to the app's inputs;
nothing else in the firmware knows a pin.

A profile module has: WIDTH, HEIGHT, SCALE (text scale), COLOURS (text,
background), PIXELS (strip length), KEYMAP ((short, long) input per key
number), KEYS (each key's legend, for help and the emulator), ENCODER (True
if it has one) and build() -> (display, keys, pixels, encoder or None).
"""

PROFILES = ("macropad", "pico_display", "feather_oled")

# board.board_id -> profile; the Pico W, Pico 2 and Pico 2 W (same pinout)
# take the Display Pack as well.
BOARD_IDS = {
    "adafruit_macropad_rp2040": "macropad",
    "raspberry_pi_pico": "pico_display",
    "raspberry_pi_pico_w": "pico_display",
    "raspberry_pi_pico2": "pico_display",
    "raspberry_pi_pico2_w": "pico_display",
    "adafruit_feather_rp2040": "feather_oled",
}


def load(name):
    if name not in PROFILES:
        raise ValueError("unknown board profile %r; one of %s" % (name, ", ".join(PROFILES)))
    return __import__("boards." + name, None, None, ["build"])


def pick(board_id, override=None):
    """The profile for this board: the override (ALTAR_BOARD) if set."""
    if override:
        return load(override)
    if board_id not in BOARD_IDS:
        raise ValueError("no Altar profile for board %r: set ALTAR_BOARD in settings.toml "
                         "to one of %s" % (board_id, ", ".join(PROFILES)))
    return load(BOARD_IDS[board_id])
