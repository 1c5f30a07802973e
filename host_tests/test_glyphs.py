"""The glyphs load at boot, all at once: a screen drawing a glyph not loaded
then would read the font file (and allocate) in the middle of a key press."""

import random

import pytest

from altar_fw import ui as U
from altar_fw.canvas import glyphs
from altar_host import emulator
from altar_host.emulate import monkey
from altar_host.emulator import Device
from test_device import tour
from test_device_games import fa_tour, ra_tour


class Reads:
    """The font's file, counting the calls made on it."""

    def __init__(self, f):
        self.f = f
        self.calls = 0

    def __getattr__(self, name):
        self.calls += 1
        return getattr(self.f, name)


@pytest.mark.parametrize("lang", U.LANGS)
def test_no_screen_reads_the_font_after_boot(lang, monkeypatch):
    monkeypatch.setattr(emulator, "_FONT", [])          # a font fresh from its file
    dev = Device("macropad", capture=False, lang=lang)
    font = dev.font
    font.file = Reads(font.file)
    for text in list(U.strings(lang).values()) + [g[1] for g in U.GAMES]:
        assert all(c in glyphs(lang) for c in text), text
    for play in (tour, fa_tour, ra_tour):
        dev = Device("macropad", capture=False, lang=lang)
        play(dev, lambda name: None)
    for seed in range(3):
        monkey(dev, 3000, random.Random(seed))
    assert font.file.calls == 0


def test_the_pcf_the_board_loads_is_the_bdf():
    """firmware/fonts: the PCF (made by tools/make_font.py with bdftopcf) and
    its BDF source hold the same glyphs, bit for bit."""
    from adafruit_bitmap_font import bitmap_font
    bdf = emulator.FONT[:-4] + ".bdf"
    with open(bdf, encoding="latin-1") as f:
        codes = [int(ln.split()[1]) for ln in f if ln.startswith("ENCODING ")]
    a, b = bitmap_font.load_font(bdf), bitmap_font.load_font(emulator.FONT)
    assert a.get_bounding_box() == b.get_bounding_box() and len(codes) > 95

    def glyph(font, code):
        g = font.get_glyph(code)
        return (g.width, g.height, g.dx, g.dy, g.shift_x, g.shift_y,
                [g.bitmap[x, y] for y in range(g.height) for x in range(g.width)])
    for code in codes:
        assert glyph(a, code) == glyph(b, code), chr(code)
