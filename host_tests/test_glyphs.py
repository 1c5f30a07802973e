"""The screens' font: firmware/fonts/altar-mono-12.bin (tools/make/make_font.py)
is its BDF's glyphs, bit for bit, and altar_fw.font reads it alike with
bitmaptools.readinto (as on the board) and without."""

import io
import os
import sys

import pytest

from altar_fw import font as F
from altar_host.device import emulator

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "tools", "make"))
import make_font  # noqa: E402


def test_the_strip_the_board_loads_is_the_bdf():
    with open(emulator.FONT, "rb") as f:
        assert f.read() == make_font.strip(make_font.OUT)


def pixels(font):
    b = font.bitmap
    return [b[x, y] for y in range(b.height) for x in range(b.width)]


def test_the_font_reads_alike_with_and_without_bitmaptools(monkeypatch):
    with open(emulator.FONT, "rb") as f:
        data = f.read()
    fast = F.Font(io.BytesIO(data))
    monkeypatch.setattr(F, "bitmaptools", None)
    slow = F.Font(io.BytesIO(data))
    assert (fast.width, fast.height, fast.chars) == (slow.width, slow.height, slow.chars)
    assert pixels(fast) == pixels(slow) and any(pixels(fast))
    def glyph(i):
        return ["".join("#" if fast.bitmap[i * 6 + x, y] else "." for x in range(6))
                for y in range(12)]
    a = fast.chars.find("A")
    assert glyph(a) == ["......", "......", ".###..", "#...#.", "#...#.", "#...#.",
                        "#####.", "#...#.", "#...#.", "#...#.", "......", "......"]
    assert glyph(fast.count + a) == [r.replace("#", "o").replace(".", "#").replace("o", ".")
                                     for r in glyph(a)]          # then inverted
    assert fast.chars.find("☃") == -1 and fast.chars.find(" ") == 0
    assert fast.columns == slow.columns


def test_the_columns_are_the_strips_glyphs():
    with open(emulator.FONT, "rb") as f:
        font = F.Font(f)
        assert f.read() == b""
    b = font.bitmap
    assert len(font.columns) == b.width // 2          # the glyphs', not their inverses'
    for px in range(b.width // 2):
        assert [font.columns[px] >> y & 1 for y in range(12)] == [b[px, y] for y in range(12)]


@pytest.mark.parametrize("head", [b"", b"ALTAR-FONT 1 6 12\n", b"PCF 2 6 12\n"])
def test_a_file_that_is_not_the_font_is_refused(head):
    with pytest.raises(ValueError, match="not an Altar font"):
        F.Font(io.BytesIO(head + b"AB\n" + bytes(24)))


def test_a_font_file_cut_short_is_refused():
    with open(emulator.FONT, "rb") as f:
        data = f.read()
    with pytest.raises(ValueError, match="ends early"):
        F.Font(io.BytesIO(data[:-1]))
