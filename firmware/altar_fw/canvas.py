"""The screen: rows of text, each one 1-bit Bitmap with its own two-colour
palette, built once.

Glyphs of a fixed-width font (the bundled Altar Mono 12, 6x12) are copied
into a row's bitmap, and a row is redrawn only when its text or its
inverted columns change. A whole row is inverted (the title bar, the
selected line) by swapping its palette's two colours, so moving the
selection redraws nothing. A screen may add one number, three times larger,
at the right of rows 1-3 (the planchette): a small bitmap of its own on top,
with lines under it keeping to the left. On a big screen the group is
scaled, so every board shows the same 20x5 text grid. On a colour screen
a row may take a seat's colour (`Screen.tints`), lighter hues of the
pixels' seat colours, so that the text stays legible on the dark ground.
"""

import displayio

from altar.core import const

from altar_fw.ui import GAMES, strings

try:
    import bitmaptools
except ImportError:
    bitmaptools = None

_BIG = const(3)      # the big number's scale
_DIGITS = const(2)   # its width in characters
# What the screens draw besides the language's strings: numbers, seats ("P1",
# "Ban", "B"), Elders ("E7"), rounds ("R2"), marks (">" the leader, "*" the
# best removal, "." empty, "[x]" chosen, "+3"/"-1" points) and "?", drawn for
# a character the font lacks.
_DRAWN = " 0123456789PBanER>*.:[]x+-?"
# Accented letters the font may lack, each before the letter it is written
# on: a name from settings.toml ("Inês") is then drawn "Ines", not "In?s".
_FOLD = "àaâaäaåaèeêeëeìiîiïiòoõoöoøoùuûuüuñnýyÿyÀAÁAÂAÃAÄAÅAÈEÉEÊEËEÌIÍIÎIÏIÒOÓOÔOÕOÖOØOÙUÚUÛUÜUÇCÑNÝY"


def fold(ch):
    """The character drawn for `ch` when the font lacks it."""
    i = _FOLD.find(ch) if ord(ch) > 127 else -1
    return _FOLD[i + 1] if i >= 0 else "?"


def glyphs(lang, names=""):
    """Every character the screens draw in a language (and the players'
    `names`, with their fallbacks), to load in one `font.load_glyphs` at
    boot, not one by one as they first show. The language's whole text is
    taken, keys and all (a few ASCII letters more than its strings need):
    one pass in C, where a walk over the strings took 0.25 s on the Pico.
    The other language's letters stay out (RAM)."""
    chars = set(_DRAWN)
    chars.update(strings(lang).text)
    for game in GAMES:
        chars.update(game[1])
    for ch in names:
        chars.add(ch)
        chars.add(fold(ch))
    return "".join(chars)


# Seat colours for text: P1..P4, then the Banished (tint 4), as the pixels'
# (lights.py), lighter.
SEAT_TEXT = (0xFF7050, 0x60E060, 0x80A8FF, 0xFFC050, 0xC890FF)


class Canvas:
    def __init__(self, width, height, font, scale=1, fg=0xFFFFFF, bg=0x000000):
        gw, gh = font.get_bounding_box()[:2]
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
        self.bitmaps = []
        self.palettes = []
        for r in range(self.rows):
            b = displayio.Bitmap(self.cols * gw, gh, 2)
            p = displayio.Palette(2)
            p[0] = bg
            p[1] = fg
            self.bitmaps.append(b)
            self.palettes.append(p)
            self.group.append(displayio.TileGrid(b, pixel_shader=p, y=top + r * gh))
        self.big_bitmap = displayio.Bitmap(_DIGITS * gw * _BIG, gh * _BIG, 2)
        p = displayio.Palette(2)
        p[0] = bg
        p[1] = fg
        self.big_tile = displayio.TileGrid(self.big_bitmap, pixel_shader=p,
                                           x=(self.cols - _DIGITS * _BIG) * gw, y=top + gh)
        self.big_tile.hidden = True
        self.group.append(self.big_tile)
        self.shown = [None] * self.rows     # (text, partly inverted columns) per row
        self.whole = [False] * self.rows    # whole row inverted
        self.ink = [fg] * self.rows         # the row's text colour
        self.big = None
        self.tiles = {}                     # character -> its glyph's place (_tile)

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
            self.big_tile.hidden = screen.big is None
            if screen.big is not None:
                self._big(str(screen.big)[-_DIGITS:])

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
        b = self.bitmaps[r]
        gw = self.gw
        self._fill(b, lo * gw, 0, (hi - lo) * gw, self.gh, 0)
        for c in range(lo, hi):
            self._glyph(b, c * gw, text[c] if c < len(text) else " ", part >> c & 1)

    @staticmethod
    def _same(text, was, flipped, c):
        """Column c shows the same character, inverted alike, in both texts."""
        return (not flipped >> c & 1
                and (text[c] if c < len(text) else " ") == (was[c] if c < len(was) else " "))

    def _fill(self, b, x, y, w, h, v):
        if bitmaptools:
            bitmaptools.fill_region(b, x, y, x + w, y + h, v)
            return
        for j in range(y, y + h):
            for i in range(x, x + w):
                b[i, j] = v

    def _tile(self, ch):
        """(glyph bitmap, x, y, w, h) of a character in the font, found once."""
        t = self.tiles.get(ch)
        if t is None:
            g = self.font.get_glyph(ord(ch)) or self.font.get_glyph(ord(fold(ch)))
            src = g.bitmap
            per_row = src.width // g.width
            t = self.tiles[ch] = (src, g.tile_index % per_row * g.width,
                                  g.tile_index // per_row * g.height,
                                  min(g.width, self.gw), min(g.height, self.gh))
        return t

    def _glyph(self, b, x, ch, inv):
        if ch == " ":
            if inv:
                self._fill(b, x, 0, self.gw, self.gh, 1)
            return
        src, sx, sy, w, h = self._tile(ch)
        if inv:
            self._fill(b, x, 0, self.gw, self.gh, 1)
        elif bitmaptools:
            bitmaptools.blit(b, src, x, 0, x1=sx, y1=sy, x2=sx + w, y2=sy + h)
            return
        for j in range(h):
            for i in range(w):
                b[x + i, j] = (1 if src[sx + i, sy + j] else 0) ^ inv

    def _big(self, text):
        """text, _BIG times larger, right-aligned in the big bitmap."""
        b = self.big_bitmap
        self._fill(b, 0, 0, b.width, b.height, 0)
        k = _BIG
        x0 = (_DIGITS - len(text)) * self.gw * k
        for n in range(len(text)):
            src, sx, sy, w, h = self._tile(text[n])
            x = x0 + n * self.gw * k
            for j in range(h):
                for i in range(w):
                    if src[sx + i, sy + j]:
                        self._fill(b, x + i * k, j * k, k, k, 1)
