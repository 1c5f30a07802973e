"""The screen's font: every glyph of a fixed-width 1-bit font side by side
in one Bitmap, then each again inverted, read at boot by one
`bitmaptools.readinto` (C); the canvas's rows are TileGrids over it.

The file (firmware/fonts/altar-mono-12.bin, written by tools/make/make_font.py
from the BDF): a line "ALTAR-FONT 2 W H", a line of the N characters in
the order of their glyphs (UTF-8), then H rows of the strip of 2N glyphs
(the N, then the N inverted), each row ceil(2N * W / 8) bytes, the first
pixel in a byte's top bit; then the W columns of each of the N glyphs,
two bytes a column, little-endian, the pixel at row y in bit y (H is at
most 16). The screens written outside displayio (glass.Glass, pages.Pages)
draw from those: reading them from the strip cost 1.1 ms a glyph on the
Pico. adafruit_bitmap_font took 0.33 s on the Pico to
load the glyphs the screens draw from a PCF, one glyph at a time
(BENCHMARKS.md); this reads the whole font, 2.2 KB, at once.
"""

from array import array

import displayio

try:
    import bitmaptools
except ImportError:
    bitmaptools = None

MAGIC = b"ALTAR-FONT"
FORMAT = b"2"


class Font:
    """`chars` (`count` of them), glyph i `width` x `height` pixels at x =
    i * width in `bitmap`, inverted at x = (count + i) * width, its column
    x `columns[i * width + x]` (bit y: row y; not inverted); read from the
    open file f."""

    def __init__(self, f):
        head = f.readline().split()
        if len(head) != 4 or head[0] != MAGIC or head[1] != FORMAT:
            raise ValueError("not an Altar font (format 2)")
        self.width = int(head[2])
        self.height = int(head[3])
        self.chars = f.readline()[:-1].decode("utf-8")
        self.count = len(self.chars)
        b = self.bitmap = displayio.Bitmap(2 * self.count * self.width, self.height, 2)
        if bitmaptools:
            # reversed: the first pixel in the top bit, not the bottom one
            bitmaptools.readinto(b, f, 1, element_size=1, reverse_pixels_in_element=True)
        else:
            row = (b.width + 7) // 8
            for y in range(self.height):
                data = f.read(row)
                for x in range(b.width):
                    b[x, y] = data[x >> 3] >> (7 - (x & 7)) & 1
        # array("H") reads the little-endian columns as they are on the RP2040
        self.columns = array("H", bytes(2 * self.count * self.width))
        if f.readinto(self.columns) != 2 * self.count * self.width:
            raise ValueError("the font file ends early")


def load(path):
    with open(path, "rb") as f:
        return Font(f)
