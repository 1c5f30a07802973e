"""A colour panel written a character cell at a time, outside displayio.

displayio turns the canvas into pixels at about 5.4 us a pixel on an
RP2040: 155 ms for a new screen of the Pico Display Pack, 66 ms for a
selection move (BENCHMARKS.md, "Where a press's time goes"). Here each
character cell the canvas changed goes to the panel as it will stay: the
cell's RGB565 bytes, drawn once and kept, then sent with one `send`. A
new screen of kept cells takes about 25 ms, a cell drawn 1.2 ms more.

displayio writes the Pico Display's landscape picture in the panel's own
order: viewer pixel (x, y) at the controller's column `col0 + y` and row
`row0 - x` (rotation 270, MADCTL untouched). A text row's window is then
filled column by column, right to left, each column top to bottom, so
each cell is one run of bytes: RAMWR sends the row's rightmost cell and
RAMWRC (MIPI DCS "write memory continue") each next one. displayio's
own refreshes (the console, if the program stops) address the panel the
same way.

Cells are kept by (glyph, ink) in a pool made at the first draw (48 of
them: 28 KB on the Pico Display), a clock's hand choosing the one drawn
over (about the least recently used). A cell is drawn from the glyph's
columns (font.Font.columns) through a 16-entry table of four pixels per
ink. The pixels are displayio's: the same colour conversion, the big
number over rows 1-3, black where no row is.
"""

from array import array

from altar_fw.direct import Direct

_RAMWR = 0x2C
_RAMWRC = 0x3C
_CASET = 0x2A
_RASET = 0x2B


def rgb565(c):
    """A colour 0xRRGGBB as displayio sends it: RGB565, big-endian."""
    v = (c >> 19) << 11 | (c >> 10 & 0x3F) << 5 | (c >> 3 & 0x1F)
    return bytes((v >> 8, v & 0xFF))


class Glass(Direct):
    """The display and its bus (direct.Direct); `cells` kept."""

    def __init__(self, display, bus, col0, row0, cells=48):
        super().__init__(display, bus)
        self.col0 = col0
        self.row0 = row0
        self.cells = cells
        self.window = bytearray(4)
        self.pool = None        # the cells' bytes, made at the first draw
        self.slot = {}          # (ink index << 9 | glyph) -> its cell in the pool
        self.keys = None        # the key of each cell in the pool (-1: none)
        self.used = None        # a cell's second chance (the clock's hand skips it once)
        self.hand = 0
        self.inks = []          # the inks seen, by index
        self.tables = {}        # (ink index, scale) -> 16 runs of four pixels, scale down
        self.col = None         # one glass column of the big number
        self.big = None         # the big number on the glass

    def draw(self, canvas):
        """Send the cells the canvas changed since the last draw (all of them
        and black margins at the first), then the big number if it changed."""
        s = canvas.scale
        if self.pool is None:
            self._start(canvas)
        big = canvas.big
        cover = canvas.cols - canvas.big_cols if big is not None else canvas.cols
        w = canvas.gw * s
        h = canvas.gh * s
        bus = self.bus
        for r in range(canvas.rows):
            hi = canvas.hi[r]
            if not hi:
                continue
            lo = canvas.lo[r]
            canvas.hi[r] = 0
            if 1 <= r <= 3 and hi > cover:
                hi = cover            # under the big number
            if lo >= hi:
                continue
            ink = self._ink(canvas.ink[r])
            tiles = canvas.drawn[r]
            y = (canvas.top + r * canvas.gh) * s
            x = canvas.left * s
            self._window(x + lo * w, y, (hi - lo) * w, h)
            cmd = _RAMWR
            for c in range(hi - 1, lo - 1, -1):
                bus.send(cmd, self._cell(canvas, tiles[c], ink))
                cmd = _RAMWRC
        if big != self.big:
            self.big = big
            if big is not None:
                self._big(canvas, str(big))

    def _start(self, canvas):
        """The pool, black around the rows (the rows themselves are all sent
        next)."""
        s = canvas.scale
        n = canvas.gw * canvas.gh * s * s * 2
        self.pool = [bytearray(n) for _ in range(self.cells)]
        self.keys = array("h", [-1] * self.cells)
        self.used = bytearray(self.cells)
        self.col = bytearray(canvas.gh * s * canvas.big_scale * 2)
        x0 = canvas.left * s
        x1 = x0 + canvas.cols * canvas.gw * s
        y0 = canvas.top * s
        y1 = y0 + canvas.rows * canvas.gh * s
        w = self.width
        for x, y, bw, bh in ((0, 0, w, y0), (0, y1, w, self.height - y1),
                             (0, y0, x0, y1 - y0), (x1, y0, w - x1, y1 - y0)):
            if bw > 0 and bh > 0:
                self._window(x, y, bw, bh)
                cmd = _RAMWR
                left = bw * bh * 2
                while left > 0:
                    self.bus.send(cmd, self.pool[0] if left >= n else self.pool[0][:left])
                    cmd = _RAMWRC
                    left -= n
        for r in range(canvas.rows):
            canvas.lo[r] = 0
            canvas.hi[r] = canvas.cols

    def _window(self, x, y, w, h):
        """Viewer pixels x..x+w-1, y..y+h-1 as the controller's window."""
        self._span(_CASET, self.col0 + y, self.col0 + y + h - 1)
        self._span(_RASET, self.row0 - x - w + 1, self.row0 - x)

    def _span(self, cmd, a, z):
        b = self.window
        b[0] = a >> 8
        b[1] = a & 0xFF
        b[2] = z >> 8
        b[3] = z & 0xFF
        self.bus.send(cmd, b)

    def _ink(self, colour):
        """The ink's index (a handful on a screen: the text's, the seats')."""
        inks = self.inks
        for i in range(len(inks)):
            if inks[i] == colour:
                return i
        inks.append(colour)
        return len(inks) - 1

    def _table(self, canvas, ink, scale):
        """16 runs of bytes, one per four pixels of a column (the top one in
        bit 0), each pixel `scale` pixels down, in ink over the ground."""
        t = self.tables.get(ink << 4 | scale)
        if t is None:
            c = (rgb565(canvas.bg) * scale, rgb565(self.inks[ink]) * scale)
            t = self.tables[ink << 4 | scale] = [
                c[n & 1] + c[n >> 1 & 1] + c[n >> 2 & 1] + c[n >> 3 & 1] for n in range(16)]
        return t

    def _cell(self, canvas, tile, ink):
        """The cell of `tile` in ink `ink`, from the pool or drawn into it."""
        key = ink << 9 | tile
        i = self.slot.get(key)
        if i is not None:
            self.used[i] = 1
            return self.pool[i]
        used = self.used
        i = self.hand
        while used[i]:              # the clock: a cell used since it passed waits a turn
            used[i] = 0
            i = (i + 1) % self.cells
        self.hand = (i + 1) % self.cells
        old = self.keys[i]
        if old >= 0:
            del self.slot[old]
        self.keys[i] = key
        self.slot[key] = i
        buf = self.pool[i]
        s = canvas.scale
        self._paint(canvas, buf, tile, canvas.gw - 1, canvas.gw, self._table(canvas, ink, s), s)
        return buf

    @staticmethod
    def _paint(canvas, buf, tile, x, w, t, s):
        """Glyph `tile`'s columns x, x - 1, ... (w of them) through table t
        into buf, each as s glass columns. It allocates nothing: after a
        collection, each object larger than 16 bytes walks the heap's holes
        (0.1-0.2 ms on the board, BENCHMARKS.md)."""
        cols = canvas.font.columns
        flip = 0
        if tile >= canvas.font.count:   # an inverted glyph
            tile -= canvas.font.count
            flip = (1 << canvas.gh) - 1
        px = tile * canvas.gw + x
        gh = canvas.gh
        e = len(t[0])                   # bytes of four pixels
        n = e * gh // 4                 # bytes of a glass column
        o = 0
        for _ in range(w):
            v = cols[px] ^ flip
            px -= 1
            for k in range(0, gh, 4):
                p = t[v >> k & 15]
                a = o
                for _ in range(s):
                    buf[a:a + e] = p
                    a += n
                o += e
            o += n * (s - 1)

    def _big(self, canvas, text):
        """The big number: its two glyphs, right-aligned, at its scale over
        rows 1-3, a glass column at a time."""
        s = canvas.scale * canvas.big_scale
        ink = self._ink(canvas.fg)
        t = self._table(canvas, ink, s)
        gw = canvas.gw
        digits = canvas.big_cols // canvas.big_scale
        x = (canvas.left + (canvas.cols - canvas.big_cols) * gw) * canvas.scale
        y = (canvas.top + canvas.gh) * canvas.scale
        self._window(x, y, digits * gw * s, canvas.gh * s)
        col = self.col
        cmd = _RAMWR
        for d in range(digits - 1, -1, -1):
            k = d - digits + len(text)
            tile = canvas.tile(text[k]) if k >= 0 else canvas.blank
            for c in range(gw - 1, -1, -1):
                self._paint(canvas, col, tile, c, 1, t, 1)
                for _ in range(s):
                    self.bus.send(cmd, col)
                    cmd = _RAMWRC
