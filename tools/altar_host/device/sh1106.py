"""An SH1106 as the MacroPad's glass shows it: decode the bytes sent to the
chip over SPI (displaylog) into the picture (altar_host.device.oled has the model
the SH1106 shares with the SH1107).

The SH1106's own: RAM of 8 pages x 132 columns; a data byte is 8 RAM lines
of one column, bit 0 the page's top line (line 8 * page + bit); 64 COM and
132 SEG lines; 0x40 | line sets the display start line, 0x30..0x33 the pump
voltage.

MACROPAD is the Adafruit MacroPad's 128 x 64 glass as CircuitPython's
board.c sets the chip up (ports/raspberrypi/boards/adafruit_macropad_rp2040:
segment remap 0xA1, COM scan 0xC8, offset and start line 0, multiplex 64,
displayio's column start 2): the glass shows SEG 129 down to SEG 2, left to
right, and COM 63 down to COM 0, top to bottom. That is the module turned
half round against the chip's numbering, which both remaps undo, so that
displayio's pixel (x, y), written at RAM column x + 2, line y, shows at the
glass's (x, y).
"""

from altar_host.device import oled

MACROPAD = [(63 - y, 129 - x) for y in range(64) for x in range(128)]

# What the MacroPad's core sends the chip at power-on, before code.py (its
# board.c's display_init_sequence, in busdisplay's format): the host
# emulator's board.DISPLAY starts from it (emulator.FrameDisplay).
INIT = bytes((0xAE, 0, 0xD5, 1, 0x80, 0xA8, 1, 0x3F, 0xD3, 1, 0x00, 0x40, 1, 0x00,
              0xAD, 1, 0x8B, 0xA1, 0, 0xC8, 0, 0xDA, 1, 0x12, 0x81, 1, 0xFF, 0xD9, 1, 0x1F,
              0xDB, 1, 0x20, 0x20, 1, 0x20, 0x33, 0, 0xA6, 0, 0xA4, 0, 0xAF, 0))


class Panel(oled.Chip):
    COMS = 64
    SEGS = 132
    PAGES = 8
    COLUMNS = 132
    WIRING = MACROPAD
    PARAM = frozenset((0x81, 0xA8, 0xAD, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB))

    def _special(self, c):
        if 0x40 <= c <= 0x7F:
            self.start = c & 0x3F
        elif 0xB0 <= c <= 0xB7:
            self.page = c & 0x07
        else:
            return 0x30 <= c <= 0x33
        return True

    def _where(self, line, seg):
        return (line >> 3) * self.COLUMNS + seg, line & 7
