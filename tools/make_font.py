#!/usr/bin/env python3
"""firmware/fonts/altar-mono-12.bdf and .pcf: the device's font, a subset of Terminus
Font 12 (6x12, SIL OFL 1.1) with printable ASCII and every character of the
string tables, so accents show on a CircuitPython build whose terminalio has
none. The OFL reserves the name "Terminus Font" for the original, so this
modified version is named Altar Mono.

The board loads the PCF, which bdftopcf (Debian's xfonts-utils) makes from
the BDF: adafruit_bitmap_font reads a PCF glyph with a seek and one
bitmaptools.readinto, where it parses a BDF glyph line by line in Python
(0.9 s at boot on the Pico, against 0.1 s). The BDF stays the readable
source; host_tests/test_glyphs.py checks that both hold the same glyphs.

    .venv/bin/python tools/make_font.py [SOURCE.bdf]

SOURCE defaults to the Terminus 12 BDF that adafruit-blinka-displayio ships
(displayio/resources/ter-u12n.bdf, the same font as Debian's xfonts-terminus).
"""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "firmware", "fonts", "altar-mono-12.bdf")
PCF = OUT[:-4] + ".pcf"


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
            out.append("COMMENT made by tools/make_font.py; see LICENSE-altar-mono.txt")
    return "\n".join(out) + "\n" + "".join(glyphs[c] for c in codes) + "ENDFONT\n"


if __name__ == "__main__":
    import displayio
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(displayio.__file__), "resources", "ter-u12n.bdf")
    codes = needed()
    with open(OUT, "w", encoding="latin-1") as f:
        f.write(subset(src, codes))
    subprocess.run(["bdftopcf", "-o", PCF, OUT], check=True)
    print("%s, %s: %d glyphs" % (OUT, PCF, len(codes)))
