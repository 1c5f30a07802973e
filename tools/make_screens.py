#!/usr/bin/env python3
"""docs/screens-BOARD.png: each board's main screens (the golden PNGs of
host_tests/golden/screens), 3 by 3 and enlarged, for the README."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from altar_host.emulator import png_bytes, png_pixels  # noqa: E402

NAMES = ("new-game", "players", "board", "winner", "value", "redirect", "remove", "over", "menu")
GAP = 6


def sheet(board, scale):
    imgs = []
    for n in NAMES:
        with open(os.path.join(ROOT, "host_tests", "golden", "screens", "%s-%s.png" % (board, n)),
                  "rb") as f:
            imgs.append(png_pixels(f.read()))
    w, h = imgs[0][0], imgs[0][1]

    def rgb(x, y):
        i = (y // (h + GAP)) * 3 + x // (w + GAP)
        xx, yy = x % (w + GAP), y % (h + GAP)
        if xx >= w or yy >= h:
            return (90, 90, 90)
        return tuple(imgs[i][2][yy][3 * xx:3 * xx + 3])
    return png_bytes(3 * (w + GAP) - GAP, 3 * (h + GAP) - GAP, rgb, scale)


if __name__ == "__main__":
    os.makedirs(os.path.join(ROOT, "docs"), exist_ok=True)
    for board, scale in (("macropad", 2), ("pico-display", 1), ("feather-oled", 2)):
        with open(os.path.join(ROOT, "docs", "screens-%s.png" % board), "wb") as f:
            f.write(sheet(board, scale))
