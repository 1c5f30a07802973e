"""The app's inputs, and how key presses become them.

Every board speaks the same grammar: PREV, NEXT, OK, BACK, and a long BACK is
UNDO (a board with 3 keys puts BACK and UNDO on long presses, see its
profile). Boards with more keys add shortcuts: VALUE + k picks the option
numbered k. A profile's keymap gives each key number (short, long) inputs;
a long press is decided from the keypad events' own timestamps, so a busy
main loop does not turn a tap into a hold.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

PREV = const(1)
NEXT = const(2)
OK = const(3)
BACK = const(4)
UNDO = const(5)
VALUE = const(16)   # VALUE + k, k = 1..9

LONG_MS = const(600)
# keypad's scan interval (s), which each profile gives keypad.Keys: a key's
# event comes up to this long after it moved. 10 ms is still longer than a
# switch bounces (5 ms at most for the MacroPad's keys), and half keypad's
# default 20 ms (BENCHMARKS.md, "Where a press's time goes").
SCAN = 0.01
# supervisor.ticks_ms (and keypad's timestamps) count 29 bits: they start at
# 0x1FFF0000 and wrap to 0 about 65 s after power-on.
_MASK = const(0x1FFFFFFF)
_HALF = const(0x10000000)


def ticks_diff(a, b):
    """a - b for ticks_ms values across the wrap, as adafruit_ticks.ticks_diff
    (right while they are less than 2**28 ms, 3 days, apart)."""
    return ((a - b + _HALF) & _MASK) - _HALF


class Presses:
    """Key number events in, logical inputs out."""

    def __init__(self, keymap):
        self.keymap = keymap
        self.down = [-1] * len(keymap)   # press timestamp per key, -1 when up

    def event(self, key, pressed, ms):
        """The input a key event makes, or 0 (a press, or an unmapped key)."""
        if not 0 <= key < len(self.keymap):
            return 0
        if pressed:
            self.down[key] = ms
            return 0
        t0 = self.down[key]
        if t0 < 0:
            return 0          # a release without its press (events dropped)
        self.down[key] = -1
        short, long = self.keymap[key]
        if long and ticks_diff(ms, t0) >= LONG_MS:
            return long
        return short
