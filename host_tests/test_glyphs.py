"""The glyphs load in one pass at boot: adafruit_bitmap_font's BDF loader
reads the file from the top for each glyph it lacks, so a screen drawing a
glyph not loaded at boot would read the font file again."""

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
    """The font's file, counting the lines read from it."""

    def __init__(self, f):
        self.f = f
        self.lines = 0

    def seek(self, *args):
        return self.f.seek(*args)

    def readline(self):
        self.lines += 1
        return self.f.readline()


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
    assert font.file.lines == 0
