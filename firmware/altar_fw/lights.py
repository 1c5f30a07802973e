"""The pixels: a colour per seat, the leader's showing, and short effects.

An effect (a reveal, an insanity, a victory) is a list of frames played by
`tick(now)`, never by sleeping, so keys stay live; its clock starts at the
first tick after `start`, so a slow redraw before it (a quarter second on
the Pico Display) does not eat its first frames. Pixels are written only
when the frame changes. Works with any strip length (a
MacroPad's 12, a Feather's single NeoPixel, the Pico Display's RGB LED).
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from altar_fw.inputs import ticks_diff

# P1..P4, then the Banished Cultist (seat 2 with 2 players uses its own).
SEAT_COLOURS = (0xFF2000, 0x00C000, 0x0040FF, 0xFFA000)
BANISHED = const(0x9000FF)
_WHITE = const(0xFFFFFF)
_PURPLE = const(0xA000FF)
_OFF = const(0)
_STEP = const(120)    # ms per frame

# Frames: colour codes per step; "S" is the seat's colour, "W" white,
# "P" purple, "." off; "C" chases the seat's colour around the strip.
EFFECTS = {
    "reveal": "W.W.",
    "insanity": "P.P.P.",
    "victory": "CCCCCCCCCCCCSSSS.S.S",
    "over": "P...P...",
    "possession": "P.PP.",
    "spirit": "WPWPWPCCCCCCCCCCCCSSSS",
}


class Lights:
    def __init__(self, pixels):
        self.px = pixels
        self.n = len(pixels)
        self.colour = _OFF        # the steady colour (the seat shown)
        self.effect = None
        self.t0 = 0
        self.frame = -2           # what the pixels show now (-1: steady)

    def seat(self, seat, banished=-1):
        if seat < 0:
            c = _OFF
        elif seat == banished:
            c = BANISHED
        else:
            c = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        if c != self.colour:
            self.colour = c
            self.frame = -2

    def start(self, name):
        if name in EFFECTS:
            self.effect = EFFECTS[name]
            self.t0 = None        # set by the next tick
            self.frame = -2

    def tick(self, now):
        """Bring the pixels up to date; True if they changed."""
        f = -1
        if self.effect is not None:
            if self.t0 is None:
                self.t0 = now
            f = ticks_diff(now, self.t0) // _STEP    # ticks_ms wraps at 2**29
            if f >= len(self.effect):
                self.effect = None
                f = -1
        if f == self.frame:
            return False
        self.frame = f
        px = self.px
        if f < 0:
            px.fill(self.colour)
        else:
            code = self.effect[f]
            if code == "C":
                px.fill(_OFF)
                px[f % self.n] = self.colour
            else:
                px.fill({"S": self.colour, "W": _WHITE, "P": _PURPLE}.get(code, _OFF))
        px.show()
        return True
