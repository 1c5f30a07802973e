#!/usr/bin/env python3
"""docs/screens-*.png: the main screens (the golden PNGs of
host_tests/golden/screens), 3 by 3 and enlarged, for the README: Sete Selos
on each board, Fantasmagória on the Pico Display, Ritos Ancestrais on the
Feather."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from altar_host.emulator import png_bytes, png_pixels  # noqa: E402

SETE = ("new-game", "players", "board", "winner", "value", "redirect", "remove", "over", "menu")
FA = ("fa-trump", "fa-leader", "fa-board", "fa-trick", "fa-possessed", "fa-number", "fa-ghosts",
      "fa-cursed", "fa-over")
RA = ("ra-turn", "ra-action", "ra-points", "ra-final", "ra-end", "ra-bonus", "ra-hands", "ra-over")
SHEETS = (("screens-macropad", "macropad", SETE, 2), ("screens-pico-display", "pico-display", SETE, 1),
          ("screens-feather-oled", "feather-oled", SETE, 2),
          ("screens-fantasmagoria", "pico-display", FA, 1),
          ("screens-ritos-ancestrais", "feather-oled", RA, 2))
GAP = 6


def sheet(board, names, scale):
    imgs = []
    for n in names:
        with open(os.path.join(ROOT, "host_tests", "golden", "screens", "%s-%s.png" % (board, n)),
                  "rb") as f:
            imgs.append(png_pixels(f.read()))
    w, h = imgs[0][0], imgs[0][1]

    def rgb(x, y):
        i = (y // (h + GAP)) * 3 + x // (w + GAP)
        xx, yy = x % (w + GAP), y % (h + GAP)
        if xx >= w or yy >= h or i >= len(imgs):
            return (90, 90, 90)
        return tuple(imgs[i][2][yy][3 * xx:3 * xx + 3])
    rows = (len(imgs) + 2) // 3
    return png_bytes(3 * (w + GAP) - GAP, rows * (h + GAP) - GAP, rgb, scale)


if __name__ == "__main__":
    os.makedirs(os.path.join(ROOT, "docs"), exist_ok=True)
    for name, board, names, scale in SHEETS:
        with open(os.path.join(ROOT, "docs", name + ".png"), "wb") as f:
            f.write(sheet(board, names, scale))
