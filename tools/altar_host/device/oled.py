"""What the SH1106 and the SH1107 share: a 1-bit display RAM written a byte
(8 pixels) at a time at a page and a column, the commands that address it
and scan it out onto the chip's COM (row) and SEG (column) lines, and the
panel, whose glass shows some of those lines.

The model, from the SH1106 and SH1107 datasheets (Sino Wealth):

- Addressing: 0xB0 | page, 0x10 | column's high bits and 0x00 | its low 4
  bits set where the next data byte goes; each data byte then moves on one
  column (page addressing), or on the SH1107 after 0x21 one page (vertical
  addressing; 0x20 goes back). A byte past the RAM's end is dropped and
  counted (`dropped`).
- Which RAM bit a byte's bit is (`line`, `seg` of `_where`) is the chip's
  own: its subclass says.
- Scan-out: row counter k = 0..mux reads RAM line (start line + k) and drives
  COM (k + display offset), counted from the top COM instead after 0xC8;
  SEG s shows RAM segment s, or the mirror one after 0xA1. COMs past the
  multiplex ratio are not driven (dark). 0xA7 inverts, 0xA5 lights every
  pixel, 0xAE turns the display off (dark; RAM kept), 0xAF on.
- Contrast, clock, charge pump and voltages change nothing here: they and
  their parameter are taken; a command this model does not know is counted
  in `unhandled` and otherwise ignored.
- SPI (the MacroPad): "C" runs are commands (D/C low), "D" runs RAM data.
  I2C (the FeatherWing): each write ("I" then its bytes) is control bytes,
  each with Co (bit 7: one byte follows, then another control byte) and
  D/C (bit 6: data, else command); after a control byte with Co = 0 the rest
  of the write is all data or all commands.

The glass: `wiring` lists, for each glass pixel row by row, the (COM, SEG)
that lights it; a board's panel says which lines its glass has and which
way up it is mounted (sh1106.MACROPAD, sh1107.FEATHERWING).
"""

import collections

from altar_host.device.emulator import init_steps, png_rgb

ON, OFF = b"\xff\xff\xff", b"\x00\x00\x00"     # a lit OLED pixel, a dark one


class Chip:
    """A page-addressed 1-bit OLED controller and its glass (width x height,
    `wiring`: the board's, WIRING, unless given). Subclasses give COMS, SEGS,
    PAGES, COLUMNS, PARAM (commands followed by a parameter byte), WIRING and
    `_where`/`_special`."""

    COMS = SEGS = PAGES = COLUMNS = 0
    PARAM = frozenset()
    WIRING = ()

    def __init__(self, wiring=None, width=128, height=64):
        wiring = wiring or self.WIRING
        self.width = width
        self.height = height
        self.wiring = wiring
        self.ram = bytearray(self.PAGES * self.COLUMNS)
        self.commands = collections.Counter()    # every command byte received
        self.unhandled = collections.Counter()   # ones this model ignores
        self.written = 0                # data bytes written to RAM
        self.dropped = 0                # data bytes past the RAM's end
        self.time = None                # emulated seconds of the last run read (displaylog)
        self.control = None             # I2C: the write's control state (None: SPI)
        self.reset()

    def reset(self):
        """Power on: the registers' reset values (RAM kept)."""
        self.page = self.column = 0
        self.vertical = False
        self.start = self.offset = 0
        self.mux = self.COMS - 1
        self.seg_remap = self.com_remap = False
        self.inverse = self.all_on = False
        self.on = False
        self.param_of = None            # a command waiting for its parameter byte

    # -- the bus ----------------------------------------------------------------------

    def feed(self, kind, data):
        """A run of bytes: "C" commands, "D" data (SPI) or the bytes of an
        I2C write, "I" the start of an I2C write."""
        if kind == "I":
            self.control = "ctrl"
            return
        if kind == "C":
            for c in bytes(data):
                self.command(c)
            return
        if self.control is None:
            self.data(data)
            return
        for b in bytes(data):
            state = self.control
            if state == "ctrl":
                co, dc = b & 0x80, b & 0x40
                self.control = ("one-" if co else "all-") + ("data" if dc else "cmd")
                continue
            if state.endswith("data"):
                self.data(bytes((b,)))
            else:
                self.command(b)
            if state.startswith("one-"):
                self.control = "ctrl"

    def init(self, seq):
        """A busdisplay init sequence (emulator.init_steps) as a core with
        data_as_commands sends it: each command and its parameters as commands."""
        for cmd, params in init_steps(seq):
            self.feed("C", bytes((cmd,)) + bytes(params))

    def send(self, command, data=b""):
        """FourWire.send over SPI: the command (D/C low), then the data."""
        self.feed("C", bytes((command,)))
        if data:
            self.feed("D", data)

    def command(self, c):
        if self.param_of is not None:
            self._param(self.param_of, c)
            self.param_of = None
            return
        self.commands[c] += 1
        if c in self.PARAM:
            self.param_of = c
        elif c <= 0x0F:
            self.column = self.column & 0xF0 | c
        elif c <= 0x1F:
            self.column = (c & 0x0F) << 4 | self.column & 0x0F
        elif c in (0xA0, 0xA1):
            self.seg_remap = c == 0xA1
        elif c in (0xA4, 0xA5):
            self.all_on = c == 0xA5
        elif c in (0xA6, 0xA7):
            self.inverse = c == 0xA7
        elif c in (0xAE, 0xAF):
            self.on = c == 0xAF
        elif c in (0xC0, 0xC8):
            self.com_remap = c == 0xC8
        elif c in (0xE0, 0xEE, 0xE3):     # read-modify-write, its end, NOP: no writes read here
            pass
        elif not self._special(c):
            self.unhandled[c] += 1

    def _param(self, c, v):
        if c == 0xA8:
            self.mux = v & (self.COMS - 1)
        elif c == 0xD3:
            self.offset = v & (self.COMS - 1)
        elif c == 0xDC:
            self.start = v & (self.COMS - 1)

    def _special(self, c):
        """The chip's own single-byte commands; False if `c` is none."""
        return False

    def data(self, data):
        for b in bytes(data):
            if self.page >= self.PAGES or self.column >= self.COLUMNS:
                self.dropped += 1
            else:
                self.ram[self.page * self.COLUMNS + self.column] = b
                self.written += 1
            if self.vertical:
                self.page += 1
            else:
                self.column += 1

    # -- the glass --------------------------------------------------------------------

    @property
    def lit(self):
        return self.on

    def _where(self, line, seg):
        """(RAM index, bit) of RAM line `line`, segment `seg`."""
        raise NotImplementedError

    def pixel(self, com, seg):
        """True if the pixel at COM line `com` and SEG line `seg` is lit."""
        if not self.on:
            return False
        j = self.COMS - 1 - com if self.com_remap else com
        k = (j - self.offset) % self.COMS
        if k > self.mux:
            return False
        if self.all_on:
            return True
        s = self.SEGS - 1 - seg if self.seg_remap else seg
        i, bit = self._where((self.start + k) % self.COMS, s)
        return bool(self.ram[i] >> bit & 1) != self.inverse

    def rgb(self):
        """The glass: a list of rows, each bytes of R, G, B per pixel."""
        w = self.width
        px = [ON if self.pixel(com, seg) else OFF for com, seg in self.wiring]
        return [b"".join(px[y * w:(y + 1) * w]) for y in range(self.height)]

    def rgb565(self):
        """The glass as the host emulator's frame holds a mono board's:
        0xFFFF a lit pixel, 0 a dark one, row by row."""
        return [0xFFFF if self.pixel(com, seg) else 0 for com, seg in self.wiring]

    def png(self, scale=1):
        return png_rgb(self.width, self.height, b"".join(self.rgb()), scale)
