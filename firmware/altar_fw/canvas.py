"""The screen: a grid of text on one 1-bit Bitmap, built once.

Glyphs of a fixed-width font (terminalio.FONT, 6x12) are copied into the
bitmap; a row is redrawn only when its text or its inverted columns change.
Row 0 is the title bar, inverted; the selected line is inverted too. On a big
screen the group is scaled, so every board shows the same 20x5 text grid.
"""

import displayio

try:
    import bitmaptools
except ImportError:
    bitmaptools = None


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
        self.top = (h - self.rows * gh) // 2
        self.bitmap = displayio.Bitmap(w, h, 2)
        palette = displayio.Palette(2)
        palette[0] = bg
        palette[1] = fg
        self.group = displayio.Group(scale=scale)
        self.group.append(displayio.TileGrid(self.bitmap, pixel_shader=palette))
        self.shown = [None] * self.rows

    def show(self, screen):
        """Draw a ui.Screen: the title bar, then its lines."""
        self.row(0, screen.title, -1)
        for r in range(1, self.rows):
            i = r - 1
            text = screen.lines[i] if i < len(screen.lines) else ""
            inv = -1 if i == screen.cursor else 0
            if screen.inv is not None and i < len(screen.inv):
                inv |= screen.inv[i]
            self.row(r, text, inv)

    def row(self, r, text, inv=0):
        """Text on row r; column c inverted when bit c of inv is set (-1: all)."""
        if self.shown[r] == (text, inv):
            return
        self.shown[r] = (text, inv)
        y = self.top + r * self.gh
        self._fill(0, y, self.cols * self.gw, self.gh, 0)
        for c in range(self.cols):
            ch = text[c] if c < len(text) else " "
            self._glyph(c * self.gw, y, ch, inv >> c & 1)

    def _fill(self, x, y, w, h, v):
        if bitmaptools:
            bitmaptools.fill_region(self.bitmap, x, y, x + w, y + h, v)
            return
        b = self.bitmap
        for j in range(y, y + h):
            for i in range(x, x + w):
                b[i, j] = v

    def _glyph(self, x, y, ch, inv):
        if ch == " ":
            if inv:
                self._fill(x, y, self.gw, self.gh, 1)
            return
        g = self.font.get_glyph(ord(ch)) or self.font.get_glyph(ord("?"))
        src = g.bitmap
        per_row = src.width // g.width
        sx = g.tile_index % per_row * g.width
        sy = g.tile_index // per_row * g.height
        w = min(g.width, self.gw)
        h = min(g.height, self.gh)
        if not inv and bitmaptools:
            bitmaptools.blit(self.bitmap, src, x, y, x1=sx, y1=sy, x2=sx + w, y2=sy + h)
            return
        b = self.bitmap
        for j in range(h):
            for i in range(w):
                b[x + i, y + j] = (1 if src[sx + i, sy + j] else 0) ^ inv
