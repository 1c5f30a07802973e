"""An SH1107 as the 128 x 64 OLED FeatherWing's glass shows it: decode the
bytes written to the chip over I2C (displaylog) into the picture
(altar_host.device.oled has the model the SH1107 shares with the SH1106).

The SH1107's own: RAM of 16 pages x 128 columns, where a column is a RAM
line (what a COM line shows) and a page 8 segments: a data byte is 8
segments of one line, bit 0 the page's first (segment 8 * page + bit); 128
COM and 128 SEG lines; 0xDC then a byte sets the display start line, 0x20 /
0x21 page / vertical addressing; 16 pages (0xB0..0xBF), columns up to 127
(0x10..0x17 for the high bits).

FEATHERWING is Adafruit's 128 x 64 OLED FeatherWing (product 4650) as
adafruit_displayio_sh1107 sets the chip up by default (display offset 0x60,
this wing's; multiplex 64 with its default rotation of 90; no remaps), which
Adafruit documents as the wing's upright call, `SH1107(bus, width=128,
height=64)`: so the glass is read off it. Its 64 rows are the COM lines
that setup drives, COM 31 at the top down to COM 0, then COM 127 down to COM
96, and its 128 columns segments 0 to 127, left to right: displayio's pixel
(x, y) goes to RAM line 63 - y, segment x. Another rotation or offset in the
profile shows turned or shifted on this glass, as on the wing.
"""

from altar_host.device import oled

FEATHERWING = [((0x60 + 63 - y) % 128, x) for y in range(64) for x in range(128)]


class Panel(oled.Chip):
    COMS = 128
    SEGS = 128
    PAGES = 16
    COLUMNS = 128
    WIRING = FEATHERWING
    PARAM = frozenset((0x81, 0xA8, 0xAD, 0xD3, 0xD5, 0xD9, 0xDB, 0xDC))

    def _special(self, c):
        if c in (0x20, 0x21):
            self.vertical = c == 0x21
        elif 0xB0 <= c <= 0xBF:
            self.page = c & 0x0F
        else:
            return False
        return True

    def _where(self, line, seg):
        return (seg >> 3) * self.COLUMNS + line, seg & 7
