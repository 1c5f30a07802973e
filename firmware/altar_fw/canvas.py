"""The screen: rows of text, each one TileGrid over the font's strip of
glyphs (font.Font) with its own two-colour palette, built once.

A character is a tile: drawing a row sets the tiles of the columns that
changed, and displayio sends the span between the first and the last of
them. A column shown inverted takes the glyph's inverted tile (the strip
holds both). A whole row is inverted (the title bar, the selected line) by
swapping its palette's two colours. A screen may add one number, three
times larger, at the right of rows 1-3 (the planchette): two tiles in a
group of scale 3 on top, with lines under it keeping to the left. On a big
screen the group is scaled, so every board shows the same 20x5 text grid.
On a colour screen a row may take a seat's colour (`Screen.tints`),
lighter hues of the pixels' seat colours, so that the text stays legible on
the dark ground.
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
    def __init__(self, width, height, font, scale=1, fg=0xFFFFFF, bg=0x000000):
        gw, gh = font.width, font.height
        w = width // scale
        h = height // scale
        self.font = font
        self.gw = gw
        self.gh = gh
        self.cols = w // gw
        self.rows = h // gh
        self.fg = fg
        self.bg = bg
        self.colour = (fg, bg) != (0xFFFFFF, 0x000000)   # a colour screen: rows may be tinted
        top = (h - self.rows * gh) // 2
        self.group = displayio.Group(scale=scale)
        self.grids = []                     # the rows', then the big number's
        self.palettes = []
        self.blank = self.tile(" ")
        self.inverted = font.count          # a glyph's tile + this: the glyph inverted
        for r in range(self.rows):
            self.group.append(self._grid(self.cols, top + r * gh))
        self.big_group = displayio.Group(scale=_BIG, x=(self.cols - _DIGITS * _BIG) * gw,
                                         y=top + gh)
        self.big_group.append(self._grid(_DIGITS, 0))
        self.big_group.hidden = True
        self.group.append(self.big_group)
        self.shown = [None] * self.rows     # (text, partly inverted columns) per row
        self.whole = [False] * self.rows    # whole row inverted
        self.ink = [fg] * self.rows         # the row's text colour
        self.big = None

    def _grid(self, width, y):
        """A row of `width` tiles over the font, with its own palette."""
        p = displayio.Palette(2)
        p[0] = self.bg
        p[1] = self.fg
        g = displayio.TileGrid(self.font.bitmap, pixel_shader=p, width=width, height=1,
                               tile_width=self.gw, tile_height=self.gh,
                               default_tile=self.blank, y=y)
        self.grids.append(g)
        self.palettes.append(p)
        return g

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
            self.big_group.hidden = screen.big is None
            if screen.big is not None:
                text = str(screen.big)[-_DIGITS:]
                g = self.grids[self.rows]
                for c in range(_DIGITS):      # right-aligned
                    k = c - _DIGITS + len(text)
                    g[c] = self.tile(text[k]) if k >= 0 else self.blank

    def row(self, r, text, inv=0, ink=None):
        """Text on row r in colour `ink` (the screen's by default); column c
        inverted when bit c of inv is set, the whole row when inv is -1."""
        whole = inv == -1
        ink = self.fg if ink is None else ink
        if whole != self.whole[r] or ink != self.ink[r]:
            self.whole[r] = whole
            self.ink[r] = ink
            p = self.palettes[r]
            p[0] = ink if whole else self.bg
            p[1] = self.bg if whole else ink
        part = 0 if whole else inv
        old = self.shown[r]
        if old == (text, part):
            return
        self.shown[r] = (text, part)
        # Only the columns that changed are drawn: displayio then sends the
        # span between the first and the last of them, not the whole row.
        lo, hi = 0, self.cols
        if old is not None:
            was, wpart = old
            while lo < hi and self._same(text, was, part ^ wpart, lo):
                lo += 1
            while hi > lo and self._same(text, was, part ^ wpart, hi - 1):
                hi -= 1
            if lo == hi:
                return
        g = self.grids[r]
        for c in range(lo, hi):
            g[c] = (self.tile(text[c] if c < len(text) else " ")
                    + (self.inverted if part >> c & 1 else 0))

    @staticmethod
    def _same(text, was, flipped, c):
        """Column c shows the same character, inverted alike, in both texts."""
        return (not flipped >> c & 1
                and (text[c] if c < len(text) else " ") == (was[c] if c < len(was) else " "))

    def tile(self, ch):
        """ch's glyph in the font's strip: its own, or fold()'s."""
        i = self.font.chars.find(ch)
        return i if i >= 0 else self.font.chars.find(fold(ch))
