"""The game sheet's pictures, drawn by matplotlib on the Agg canvas in the
simulation report's style (altar_host.sim.report): the Elders board, and a line
per seat over the game. Seats have the device's NeoPixel colours
(report.seat_colour).
"""

import io
import warnings

import numpy as np
from matplotlib.ticker import MaxNLocator

from altar_host.sim.report import DPI, _figure

REVEALED = "#EFE3C0"    # a revealed Elder's band: parchment, under any seat's colour
SPREAD = 0.04   # lines of seats with equal values are drawn this far apart


def label(name):
    """A player's name as matplotlib shows it verbatim: "$" would start
    mathematics and a leading "_" would hide the name from the legend."""
    name = name.replace("$", r"\$")
    return "\u200b" + name if name.startswith("_") else name


def png(fig):
    """The figure as PNG bytes."""
    out = io.BytesIO()
    with warnings.catch_warnings():
        # a name's emoji has no glyph in the plot's font: the picture shows
        # a box, the page the name; not worth a warning on the console
        warnings.filterwarnings("ignore", "Glyph .* missing", UserWarning)
        fig.savefig(out, format="png", dpi=DPI)
    return out.getvalue()


def _legend(fig, ax):
    """Beside the axes (over them it would hide a full Elder or a line's
    end), if anything is labelled: an empty board has no seat to name."""
    if ax.get_legend_handles_labels()[0]:
        fig.legend(loc="outside right upper", fontsize="small")


def board(b, names, colours, elder_label, revealed_label, title):
    """The 7 Elders, each seat's cultists stacked on them a box each in its
    colour; a revealed Elder stands on a shaded band."""
    fig = _figure()
    ax = fig.add_subplot()
    x = np.arange(1, 8)
    for i, e in enumerate(x[np.array(b.revealed, dtype=bool)]):
        # one legend entry for all the bands ("_" hides a label)
        ax.axvspan(e - 0.5, e + 0.5, color=REVEALED, zorder=0, label="_" if i else revealed_label)
    height = np.zeros(7, dtype=int)
    for seat, stacks in enumerate(b.stacks):
        boxes = [(e + 1, height[e] + k) for e in range(7) for k in range(stacks[e])]
        height += stacks
        if boxes:
            ax.bar([e for e, _ in boxes], 1, bottom=[y for _, y in boxes], width=0.6,
                   color=colours[seat], edgecolor="white", linewidth=1.5, label=label(names[seat]))
    ax.set_xticks(x, [elder_label % e for e in x])
    ax.set_xlim(0.5, 7.5)
    ax.set_ylim(0, 3.2)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title(title)
    _legend(fig, ax)
    return fig


def lines(series, names, colours, xlabel, ylabel, title, xticks=None, goal=None, mark=None,
          steps=True):
    """One line per seat over the game: series[seat] its values at x = 0, 1, ...
    Equal values would hide each other, so each seat's line is nudged a
    little up or down. `steps`: a value holds until the next x (what a
    ritual or a turn leaves stays until the next one changes it). `goal`
    (value, label) is a dashed level; `mark` (x, label) a dotted moment."""
    fig = _figure()
    ax = fig.add_subplot()
    n = len(series)
    style = "steps-post" if steps else "default"
    for seat, ys in enumerate(series):
        nudge = SPREAD * (seat - (n - 1) / 2)
        ax.plot(np.arange(len(ys)), np.array(ys) + nudge, drawstyle=style, marker="o",
                markersize=3, linewidth=2, color=colours[seat], label=label(names[seat]))
    if goal:
        ax.axhline(goal[0], color="0.3", linestyle="--", linewidth=1, label=goal[1])
    if mark:
        ax.axvline(mark[0], color="0.3", linestyle=":", linewidth=1, label=mark[1])
    if xticks:
        ax.set_xticks(range(len(xticks)), xticks)
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    _legend(fig, ax)
    return fig
