"""Simulation reports: summaries merged across shards, an HTML page with PNG
plots (drawn here, no plotting library), and summary.json.

    altar simulate ... --report DIR      one batch (or one shard)
    altar report DIR [DIR ...] -o OUT    merge shards' summary.json into one report
"""

import html
import json
import os

from altar_host.emulator import png_bytes

COUNTS = ("endings", "lengths", "scores")


def merge(summaries):
    """One summary from several shards of the same batch (or batches of the
    same game and players)."""
    first = summaries[0]
    out = {k: first[k] for k in ("game", "players", "bots", "options")}
    out["seeds"] = sorted({s["seed"] for s in summaries})
    out["games"] = sum(s["games"] for s in summaries)
    out["wins"] = [sum(s["wins"][i] for s in summaries) for i in range(len(first["wins"]))]
    for key in COUNTS:
        merged = {}
        for s in summaries:
            if (s["game"], s["players"]) != (first["game"], first["players"]):
                raise ValueError("cannot merge %s/%d with %s/%d" % (
                    s["game"], s["players"], first["game"], first["players"]))
            for k, v in s.get(key, {}).items():
                merged[k] = merged.get(k, 0) + v
        out[key] = merged
    return finish(out)


def finish(summary):
    """Rates and 95% intervals from the counts."""
    from altar_host.simulate import wilson
    n = summary["games"]
    summary["win_rate"] = [round(w / n, 4) if n else 0 for w in summary["wins"]]
    summary["win_rate_95"] = [[round(x, 4) for x in wilson(w, n)] for w in summary["wins"]]
    return summary


# -- plots --------------------------------------------------------------------------------

BG = (255, 255, 255)
AXIS = (60, 60, 60)
BAR = (70, 110, 180)
WHISKER = (200, 40, 40)


def bars(values, highs=None, lows=None, width=480, height=200):
    """A bar chart PNG of values in 0..max; optional interval whiskers."""
    top = max(list(values) + list(highs or [])) or 1
    n = max(1, len(values))
    slot = (width - 20) // n
    pix = [[BG] * width for _ in range(height)]

    def y_of(v):
        return height - 10 - int((height - 20) * v / top)

    for x in range(10, width - 10):
        pix[height - 10][x] = AXIS
    for i, v in enumerate(values):
        x0 = 10 + i * slot + slot // 6
        x1 = 10 + (i + 1) * slot - slot // 6
        for y in range(y_of(v), height - 10):
            for x in range(x0, max(x1, x0 + 1)):
                pix[y][x] = BAR
        if highs is not None:
            xm = (x0 + x1) // 2
            for y in range(y_of(highs[i]), y_of(lows[i]) + 1):
                pix[y][xm] = WHISKER
            for x in range(xm - 3, xm + 4):
                pix[y_of(highs[i])][x] = WHISKER
                pix[y_of(lows[i])][x] = WHISKER
    return png_bytes(width, height, lambda x, y: pix[y][x])


def _histogram(counts):
    keys = sorted(counts, key=lambda k: (len(k), k))
    return keys, [counts[k] for k in keys]


def write(directory, summary):
    """summary.json, report.html and its PNGs in directory."""
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "summary.json"), "w") as f:
        f.write(json.dumps(summary, sort_keys=True, indent=1) + "\n")
    plots = []
    wr = summary["win_rate"]
    lows = [lo for lo, hi in summary["win_rate_95"]]
    highs = [hi for lo, hi in summary["win_rate_95"]]
    plots.append(("winrate.png", "Win rate by seat (P1 first), with 95% intervals",
                  bars(wr, highs, lows), ["P%d %.1f%% (%.1f-%.1f)" % (i + 1, 100 * wr[i],
                                          100 * lows[i], 100 * highs[i])
                                          for i in range(len(wr))]))
    for key, title in (("lengths", "Game length"), ("endings", "How games end"),
                       ("scores", "Final scores, every seat")):
        keys, vals = _histogram(summary.get(key, {}))
        if vals:
            plots.append(("%s.png" % key, title, bars(vals),
                          ["%s: %d" % (k, v) for k, v in zip(keys, vals)]))
    parts = ["<!doctype html><meta charset=utf-8><title>Altar simulation</title>",
             "<h1>%s, %d players: %d games</h1>" % (html.escape(summary["game"]),
                                                    summary["players"], summary["games"]),
             "<p>bots: %s; options: %s</p>" % (html.escape(", ".join(summary["bots"])),
                                               html.escape(json.dumps(summary["options"])))]
    for name, title, data, legend in plots:
        with open(os.path.join(directory, name), "wb") as f:
            f.write(data)
        parts.append("<h2>%s</h2><img src=%s alt='%s'><p>%s</p>" % (
            html.escape(title), name, html.escape(title), html.escape(" · ".join(legend))))
    with open(os.path.join(directory, "report.html"), "w", encoding="utf-8") as f:
        f.write("\n".join(parts) + "\n")


def main(args):
    import sys
    summaries = []
    for d in args.dirs:
        try:
            with open(os.path.join(d, "summary.json"), encoding="utf-8") as f:
                summaries.append(json.load(f))
        except (OSError, ValueError) as e:
            print("altar report: %s: %s" % (d, e), file=sys.stderr)
            return 2
    try:
        merged = merge(summaries)
    except ValueError as e:
        print("altar report: %s" % e, file=sys.stderr)
        return 2
    write(args.output, merged)
    print("%s: %d games from %d summaries" % (args.output, merged["games"], len(summaries)))
    return 0
