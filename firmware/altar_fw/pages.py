"""A page-addressed 1-bit OLED (the MacroPad's SH1106) written outside
displayio.

displayio turns the canvas into the SH1106's bytes at about 5.9 us a
pixel: 45 ms of a new screen (its 120 x 64 pixels), where a press has 60
at the median (BENCHMARKS.md). Here the rows go to the chip's RAM
directly. The RAM is pages of 8 pixel lines, a byte a column with the
top line in bit 0, which is how the font keeps a glyph's columns
(font.Font.columns, bit y its row y). Each canvas row keeps its pixel
columns as those ints, and a page's byte is the row its top line is in
shifted down, or'ed with the row starting inside it shifted up (rows are
at least 8 lines tall). Only the pages under a changed row are sent, over
the columns that changed: the page (0xB0 | page), the column's high and
low nibbles (0x10 | high, low), then the bytes. The big number is drawn
into rows 1-3 three times larger, as displayio draws it.
"""

from array import array

from altar_fw.direct import Direct


def _triple(n):
    """4 bits, each three times: a big number's lines."""
    v = 0
    for i in range(4):
        if n >> i & 1:
            v |= 7 << 3 * i
    return v


class Pages(Direct):
    """The display and its bus (direct.Direct); `col0` the chip's column of
    the glass's x = 0."""

    def __init__(self, display, bus, col0):
        super().__init__(display, bus)
        self.col0 = col0
        self.bits = None        # each row's pixel columns (bit y: its line y), made at the first draw
        self.cols = None        # the font's glyph columns
        self.zero = None        # a row of nothing, above and below the rows
        self.shape = None       # each page: (row above, its shift down, row inside, its shift up)
        self.out = None         # a page's bytes, sent
        self.big = None         # the big number drawn
        self.tall = array("H", [_triple(n) for n in range(16)])

    def draw(self, canvas):
        """Send the pages under the rows the canvas changed since the last
        draw (the whole glass at the first)."""
        if self.bits is None:
            self._start(canvas)
        gw = canvas.gw
        cols = self.cols
        count = canvas.font.count
        flip = (1 << canvas.gh) - 1
        rows = canvas.rows
        big = canvas.big
        cover = canvas.cols - canvas.big_cols if big is not None else canvas.cols
        for r in range(rows):
            hi = canvas.hi[r]
            if not hi:
                continue
            if 1 <= r <= 3 and hi > cover:
                hi = cover            # under the big number
            b = self.bits[r]
            d = canvas.drawn[r]
            for c in range(canvas.lo[r], hi):
                t = d[c]
                if t < count:
                    b[c * gw:c * gw + gw] = cols[t * gw:t * gw + gw]
                else:                 # inverted: the font keeps each glyph's columns once
                    t = (t - count) * gw
                    for x in range(c * gw, c * gw + gw):
                        b[x] = cols[t] ^ flip
                        t += 1
        if big != self.big:
            self.big = big
            if big is not None:
                self._big(canvas, str(big))
        x0 = canvas.left + self.col0
        out = self.out
        bus = self.bus
        for p in range(len(self.shape)):
            up, us, dn, ds = self.shape[p]
            lo = canvas.cols
            hi = 0
            for r in (up, dn):
                if r >= 0 and canvas.hi[r]:
                    lo = min(lo, canvas.lo[r])
                    hi = max(hi, canvas.hi[r])
            if lo >= hi:
                continue
            a = self.bits[up] if up >= 0 else self.zero
            z = self.bits[dn] if dn >= 0 else self.zero
            n = 0
            for x in range(lo * gw, hi * gw):
                out[n] = (a[x] >> us | z[x] << ds) & 0xFF
                n += 1
            col = x0 + lo * gw
            bus.send(0xB0 | p, b"")
            bus.send(0x10 | col >> 4, b"")
            bus.send(col & 0x0F, memoryview(out)[:n])
        for r in range(rows):
            canvas.hi[r] = 0

    def _start(self, canvas):
        """The rows' columns, each page's rows, the glass cleared (the rows
        are all sent next)."""
        w = canvas.cols * canvas.gw
        # memoryviews: a glyph's columns are copied in by slices (an array
        # takes only an array's on CPython)
        self.bits = [memoryview(array("H", bytes(2 * w))) for _ in range(canvas.rows)]
        self.zero = memoryview(array("H", bytes(2 * w)))
        self.cols = memoryview(canvas.font.columns)
        self.out = bytearray(max(w, self.width))
        shape = []
        for p in range(self.height // 8):
            y = 8 * p - canvas.top          # the page's top line, in the rows' lines
            up = y // canvas.gh if 0 <= y < canvas.rows * canvas.gh else -1
            dn = (y + 7) // canvas.gh if 0 <= y + 7 < canvas.rows * canvas.gh else -1
            if dn == up:
                dn = -1
            shape.append((up, y - up * canvas.gh if up >= 0 else 0,
                          dn, dn * canvas.gh - y if dn >= 0 else 0))
        self.shape = shape
        blank = memoryview(self.out)[:self.width]
        for p in range(len(shape)):
            self.bus.send(0xB0 | p, b"")
            self.bus.send(0x10 | self.col0 >> 4, b"")
            self.bus.send(self.col0 & 0x0F, blank)
        for r in range(canvas.rows):
            canvas.lo[r] = 0
            canvas.hi[r] = canvas.cols

    def _big(self, canvas, text):
        """The big number's two glyphs, right-aligned, three times larger,
        into rows 1-3's columns at the right (which the canvas marked changed)."""
        gw = canvas.gw
        cols = canvas.font.columns
        tall = self.tall
        digits = canvas.big_cols // canvas.big_scale
        x = (canvas.cols - canvas.big_cols) * gw
        for d in range(digits):
            k = d - digits + len(text)
            tile = canvas.tile(text[k]) if k >= 0 else canvas.blank
            for c in range(gw):
                v = cols[tile * gw + c]
                for _ in range(canvas.big_scale):
                    for j in range(3):
                        self.bits[1 + j][x] = tall[v >> 4 * j & 15]
                    x += 1
