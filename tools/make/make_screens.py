#!/usr/bin/env python3
"""docs/screens-*.png: the main screens (the golden PNGs of
host_tests/golden/screens), 3 by 3 and enlarged, for the README: Sete Selos
on each board, Fantasmagória on the Pico Display, Ritos Ancestrais on the
Feather, and the seats named by ALTAR_PLAYERS on the Pico Display."""

import io
import os

from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SETE = ("new-game", "players", "board", "winner", "value", "revealed", "redirect", "series",
        "remove", "over", "menu", "names-power")
FA = ("fa-trump", "fa-leader", "fa-board", "fa-trick", "fa-possessed", "fa-number", "fa-ghosts",
      "fa-cursed", "fa-summary", "fa-round-2", "fa-over")
RA = ("ra-turn", "ra-action", "ra-points", "ra-final", "ra-end", "ra-bonus", "ra-hands", "ra-over")
SHEETS = (("screens-macropad", "macropad", SETE, 2), ("screens-pico-display", "pico-display", SETE, 1),
          ("screens-feather-oled", "feather-oled", SETE, 2),
          ("screens-fantasmagoria", "pico-display", FA, 1),
          ("screens-ritos-ancestrais", "feather-oled", RA, 2),
          ("screens-names", "pico-display", ("names-board", "names-power", "names-fa"), 1))
GAP = 6


def sheet(board, names, scale):
    """The sheet's PNG: the goldens in rows of 3 on grey, enlarged `scale` times."""
    golden = os.path.join(ROOT, "host_tests", "golden", "screens")
    imgs = [Image.open(os.path.join(golden, "%s-%s.png" % (board, n))).convert("RGB") for n in names]
    w, h = imgs[0].size
    rows = (len(imgs) + 2) // 3
    out = Image.new("RGB", (3 * (w + GAP) - GAP, rows * (h + GAP) - GAP), (90, 90, 90))
    for i, img in enumerate(imgs):
        out.paste(img, ((i % 3) * (w + GAP), (i // 3) * (h + GAP)))
    out = out.resize((out.width * scale, out.height * scale), Image.NEAREST)
    data = io.BytesIO()
    out.save(data, "PNG")
    return data.getvalue()


if __name__ == "__main__":
    os.makedirs(os.path.join(ROOT, "docs"), exist_ok=True)
    for name, board, names, scale in SHEETS:
        with open(os.path.join(ROOT, "docs", name + ".png"), "wb") as f:
            f.write(sheet(board, names, scale))
