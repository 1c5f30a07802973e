#!/usr/bin/env python3
"""firmware/fonts/altar-mono-12.bdf and .bin: the device's font, a subset of Terminus
Font 12 (6x12, SIL OFL 1.1) with printable ASCII and every character of the
string tables, so accents show on a CircuitPython build whose terminalio has
none. The OFL reserves the name "Terminus Font" for the original, so this
modified version is named Altar Mono.

The board loads the .bin (altar_fw/font.py): every glyph side by side in
one strip, then each inverted, read at boot by one bitmaptools.readinto,
then each glyph's columns as bits.
adafruit_bitmap_font read the same glyphs from a PCF one at a time, 0.33 s
at boot on the Pico (BENCHMARKS.md). The BDF stays the readable source; host_tests/test_glyphs.py
checks that the strip is the BDF's glyphs, bit for bit.

    .venv/bin/python tools/make/make_font.py [SOURCE.bdf]

SOURCE defaults to the Terminus 12 BDF that adafruit-blinka-displayio ships
(displayio/resources/ter-u12n.bdf, the same font as Debian's xfonts-terminus).
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "firmware", "fonts", "altar-mono-12.bdf")
STRIP = OUT[:-4] + ".bin"


def needed():
    from altar_fw import ui
    chars = set(chr(c) for c in range(32, 127))
    for lang in ui.LANGS:
        for s in ui.strings(lang).values():
            chars.update(s)
    for g in ui.GAMES:
        chars.update(g[1])
    return sorted(ord(c) for c in chars)


def subset(src, codes):
    with open(src, encoding="latin-1") as f:
        text = f.read()
    head, rest = text.split("STARTCHAR", 1)
    glyphs = {}
    for block in ("STARTCHAR" + rest).split("STARTCHAR")[1:]:
        block = "STARTCHAR" + block.split("ENDFONT")[0]
        for line in block.splitlines():
            if line.startswith("ENCODING "):
                glyphs[int(line.split()[1])] = block.rstrip("\n") + "\n"
    missing = [c for c in codes if c not in glyphs]
    if missing:
        raise SystemExit("the source font lacks %s" % "".join(map(chr, missing)))
    out = []
    for line in head.splitlines():
        if line.startswith("FONT "):
            line = "FONT -altar-Altar Mono-Medium-R-Normal--12-120-72-72-C-60-ISO10646-1"
        elif line.startswith("FAMILY_NAME"):
            line = 'FAMILY_NAME "Altar Mono"'
        elif line.startswith("DEFAULT_CHAR"):
            line = "DEFAULT_CHAR 63"     # "?": the source's U+FFFD is not kept
        elif line.startswith("CHARS "):
            line = "CHARS %d" % len(codes)
        elif line.startswith("COMMENT"):
            continue
        out.append(line)
        if line.startswith("STARTFONT"):
            out.append("COMMENT Altar Mono 12: a subset of Terminus Font 12 (SIL OFL 1.1),")
            out.append("COMMENT made by tools/make/make_font.py; see LICENSE-altar-mono.txt")
    return "\n".join(out) + "\n" + "".join(glyphs[c] for c in codes) + "ENDFONT\n"


def strip(bdf):
    """The .bin that altar_fw.font reads, of the glyphs of the BDF file
    `bdf`, each drawn in its cell from the cell's top left, then each
    inverted."""
    from adafruit_bitmap_font import bitmap_font
    with open(bdf, encoding="latin-1") as f:
        codes = sorted(int(ln.split()[1]) for ln in f if ln.startswith("ENCODING "))
    font = bitmap_font.load_font(bdf)
    gw, gh = font.get_bounding_box()[:2]
    n = len(codes)
    assert gh <= 16, "a column is two bytes"
    row = (2 * n * gw + 7) // 8
    bits = bytearray(row * gh)
    columns = bytearray(2 * n * gw)
    for i, code in enumerate(codes):
        g = font.get_glyph(code)
        per_row = g.bitmap.width // g.width
        sx = g.tile_index % per_row * g.width
        sy = g.tile_index // per_row * g.height
        for y in range(gh):
            for x in range(gw):
                on = x < g.width and y < g.height and g.bitmap[sx + x, sy + y]
                px = (i if on else n + i) * gw + x     # on: in the glyph, else in its inverse
                bits[y * row + px // 8] |= 0x80 >> px % 8
                if on:
                    columns[2 * px + y // 8] |= 1 << y % 8   # little-endian, bit y
    chars = "".join(map(chr, codes))
    return (b"ALTAR-FONT 2 %d %d\n" % (gw, gh) + chars.encode("utf-8") + b"\n" + bytes(bits)
            + bytes(columns))


if __name__ == "__main__":
    import displayio
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(displayio.__file__), "resources", "ter-u12n.bdf")
    codes = needed()
    with open(OUT, "w", encoding="latin-1") as f:
        f.write(subset(src, codes))
    with open(STRIP, "wb") as f:
        f.write(strip(OUT))
    print("%s, %s: %d glyphs" % (OUT, STRIP, len(codes)))
