"""The screen: rows of the Ui's COLS characters, centred, over the font's
strip of glyphs (font.Font), as TileGrids built once. A 128-pixel screen
keeps 4 pixels each side: displayio redraws 120 columns, not 126.

A character is a tile: drawing a row sets the tiles of the columns that
changed, and displayio redraws the rectangle around them. A column shown
inverted (a whole row for the title bar and the selected line) takes the
glyph's inverted tile: the strip holds both. A mono screen is one TileGrid
for every row, so that a new screen is one rectangle: the SH110x's pages
are 8 pixels and a 12-pixel row's own rectangle spans two or three of
them, which rows apart would send again (a new screen on the MacroPad 73
ms, one rectangle 47, BENCHMARKS.md). A colour screen has a TileGrid and
a palette per row: a row may take a seat's colour (`Screen.tints`),
lighter hues of the pixels' seat colours, so that the text stays legible
on the dark ground. A screen may add one number, three times larger, at
the right of rows 1-3 (the planchette): two tiles in a group of scale 3
on top, with lines under it keeping to the left. On a big screen the
group is scaled, so every board shows the same text grid.
"""

import displayio

from altar.core import const

_BIG = const(3)      # the big number's scale
_DIGITS = const(2)   # its width in characters
# Accented letters the font may lack, each before the letter it is written
# on: a name from settings.toml ("Inês") is then drawn "Ines", not "In?s".
_FOLD = "àaâaäaåaèeêeëeìiîiïiòoõoöoøoùuûuüuñnýyÿyÀAÁAÂAÃAÄAÅAÈEÉEÊEËEÌIÍIÎIÏIÒOÓOÔOÕOÖOØOÙUÚUÛUÜUÇCÑNÝY"


def fold(ch):
    """The character drawn for `ch` when the font lacks it."""
    i = _FOLD.find(ch) if ord(ch) > 127 else -1
    return _FOLD[i + 1] if i >= 0 else "?"


# Seat colours for text: P1..P4, then the Banished (tint 4), as the pixels'
# (lights.py), lighter.
SEAT_TEXT = (0xFF7050, 0x60E060, 0x80A8FF, 0xFFC050, 0xC890FF)


class Canvas:
    def __init__(self, width, height, font, cols, scale=1, fg=0xFFFFFF, bg=0x000000):
        gw, gh = font.width, font.height
        w = width // scale
        h = height // scale
        self.font = font
        self.gw = gw
        self.gh = gh
        self.cols = cols
        rows = self.rows = h // gh
        self.fg = fg
        self.bg = bg
        self.colour = (fg, bg) != (0xFFFFFF, 0x000000)   # a colour screen: rows may be tinted
        self.scale = scale
        left = self.left = (w - cols * gw) // 2
        top = self.top = (h - rows * gh) // 2
        self.big_scale = _BIG
        self.big_cols = _DIGITS * _BIG      # the columns the big number covers, at the right
        self.group = displayio.Group(scale=scale)
        # A character's tile: an ASCII one's by its code, any other's (its
        # UTF-8 bytes as one int) kept once found. The text is walked as
        # bytes: on the board a str's characters cost an object each (24 us).
        self.ascii = bytearray([self.tile("?")]) * 128
        self.wide = {}
        for i, ch in enumerate(font.chars):
            if ord(ch) < 128:
                self.ascii[ord(ch)] = i
        self.blank = self.ascii[32]
        self.inverted = font.count          # a glyph's tile + this: the glyph inverted
        self.full = (1 << cols) - 1         # every column's bit
        self.spaces = b" " * cols
        self.grids = []                     # the rows' grid each, then the big number's
        self.palettes = []
        self.first = []                     # the index of a row's first tile in its grid
        for r in range(rows):
            if self.colour or not r:
                g, p = self._grid(cols, 1 if self.colour else rows, left, top + r * gh)
                self.group.append(g)
            self.grids.append(g)
            self.palettes.append(p)
            self.first.append(0 if self.colour else r * cols)
        self.big_group = displayio.Group(scale=_BIG, x=left + (cols - _DIGITS * _BIG) * gw,
                                         y=top + gh)
        g, _ = self._grid(_DIGITS, 1, 0, 0)
        self.grids.append(g)
        self.big_group.append(g)
        self.big_group.hidden = True
        self.group.append(self.big_group)
        self.shown = [("", 0)] * rows       # (text, inverted columns or -1) per row
        self.drawn = [bytearray([self.blank]) * cols for _ in range(rows)]   # its tiles
        self.ink = [fg] * rows              # the row's text colour
        self.big = None
        # Each row's columns lo..hi-1 changed since a glass.Glass last sent
        # them (none while hi is 0); displayio keeps its own.
        self.lo = bytearray(rows)
        self.hi = bytearray(rows)

    def _grid(self, width, height, x, y):
        """A grid of width x height tiles over the font, with its palette."""
        p = displayio.Palette(2)
        p[0] = self.bg
        p[1] = self.fg
        g = displayio.TileGrid(self.font.bitmap, pixel_shader=p, width=width, height=height,
                               tile_width=self.gw, tile_height=self.gh,
                               default_tile=self.blank, x=x, y=y)
        return g, p

    def show(self, screen):
        """Draw a ui.Screen: the title bar, its lines, its big number."""
        self.row(0, screen.title, -1)
        tints = screen.tints if self.colour else None
        for r in range(1, self.rows):
            i = r - 1
            text = screen.lines[i] if i < len(screen.lines) else ""
            inv = -1 if i == screen.cursor else 0
            if screen.inv is not None and i < len(screen.inv):
                inv |= screen.inv[i]
            ink = self.fg
            if tints is not None and i < len(tints):
                ink = SEAT_TEXT[tints[i]]
            self.row(r, text, inv, ink)
        if screen.big != self.big:
            self.big = screen.big
            for r in range(1, 4):
                self._changed(r, self.cols - self.big_cols, self.cols)
            self.big_group.hidden = screen.big is None
            if screen.big is not None:
                text = str(screen.big)[-_DIGITS:]
                g = self.grids[self.rows]
                for c in range(_DIGITS):      # right-aligned
                    k = c - _DIGITS + len(text)
                    g[c] = self.tile(text[k]) if k >= 0 else self.blank

    def row(self, r, text, inv=0, ink=None):
        """Text on row r in colour `ink` (the screen's by default; a colour
        screen's only); column c inverted when bit c of inv is set, the whole
        row when inv is -1."""
        if self.colour:
            ink = self.fg if ink is None else ink
            if ink != self.ink[r]:
                self.ink[r] = ink
                self.palettes[r][1] = ink
                self._changed(r, 0, self.cols)
        old = self.shown[r]
        if old[0] == text and old[1] == inv:
            return
        self.shown[r] = (text, inv)
        bits = self.full if inv == -1 else inv
        n = self.cols
        g = self.grids[r]
        at = self.first[r]
        d = self.drawn[r]
        ascii = self.ascii
        flip = self.inverted
        # Only the tiles that change are set: displayio then redraws the
        # rectangle around them. The text's bytes, then blanks: two walks,
        # not one over a joined copy (on the board each object larger than
        # 16 bytes costs a walk over the heap's holes).
        c = 0
        lo = n
        for part in (text.encode(), self.spaces):
            for k in part:
                if c == n:
                    break
                if k < 0x80:
                    t = ascii[k]
                elif k >= 0xC0:         # a character's first byte: how many follow
                    w = k
                    more = 1 if k < 0xE0 else 2 if k < 0xF0 else 3
                    continue
                else:
                    w = w << 8 | k
                    more -= 1
                    if more:
                        continue
                    t = self.wide.get(w)
                    if t is None:
                        t = self._wide(w)
                if bits & 1:
                    t += flip
                bits >>= 1
                if d[c] != t:
                    d[c] = t
                    g[at + c] = t
                    if lo == n:
                        lo = c
                    hi = c + 1
                c += 1
        if lo < n:
            self._changed(r, lo, hi)

    def _changed(self, r, lo, hi):
        """Row r's columns lo..hi-1 changed (glass.Glass sends them)."""
        if self.hi[r]:
            lo = min(lo, self.lo[r])
            hi = max(hi, self.hi[r])
        self.lo[r] = lo
        self.hi[r] = hi

    def _wide(self, w):
        """The tile of a non-ASCII character, given its UTF-8 bytes as one int."""
        n = 2 if w < 0x10000 else 3 if w < 0x1000000 else 4
        t = self.wide[w] = self.tile(w.to_bytes(n, "big").decode())
        return t

    def tile(self, ch):
        """ch's glyph in the font's strip: its own, or fold()'s."""
        i = self.font.chars.find(ch)
        return i if i >= 0 else self.font.chars.find(fold(ch))
