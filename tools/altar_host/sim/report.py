"""Simulation reports: summary.json, report.html and its PNG plots for one
batch (`altar simulate --report DIR`); balance.json, balance.html and
forest plots for a comparison of option sets (`altar balance --report
DIR`). Wins are shown by seat, in the device's seat colours, and by
position in turn order from the first player (altar_host.sim.simulate.positions),
in greys.

The summaries and balance results are simulate.summarise's and
simulate.balance's; this module only lays them out. Plots are matplotlib's,
drawn on the Agg canvas directly (no pyplot), so writing a report touches no
global plotting state and needs no display.
"""

import html
import json
import os
import textwrap

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, PercentFormatter

from altar_fw.lights import BANISHED, SEAT_COLOURS
from altar_host.summary import position_names, positions_note, seat_names

WIDTH, HEIGHT, DPI = 6.4, 3.6, 100       # every plot but the forest: 640 x 360 pixels
GAMES = {"sete-selos": "Sete Selos", "fantasmagoria": "Fantasmagória"}
LENGTH_UNIT = {"sete-selos": "rituals played", "fantasmagoria": "actions in the log"}
SCORE_UNIT = {"sete-selos": "power", "fantasmagoria": "scares (lower is better)"}
FROM = {"sete-selos": "from the first player", "fantasmagoria": "from the first leader"}


# -- what the numbers are ------------------------------------------------------------------

def _sorted_counts(counts):
    """(value, count) pairs of a {str(int): count} table, by value."""
    return sorted((int(k), v) for k, v in counts.items())


def _values(counts):
    """Every observation of a {str(int): count} table (the box plots and
    means need them; a batch has at most a few million)."""
    pairs = _sorted_counts(counts)
    return np.repeat([k for k, _ in pairs], [v for _, v in pairs])


def _game(summary):
    return GAMES.get(summary["game"], summary["game"])


def options_label(options):
    return "; ".join("%s=%s" % (k, json.dumps(v)) for k, v in sorted(options.items())) \
        or "defaults"


def _pct(x):
    return "%.1f%%" % (100 * x)


# -- colours: a seat's is the device's; a position is no seat, so it has none of theirs ------

def seat_colour(seat, banished=-1):
    """The seat's colour on the device's lights, as matplotlib and CSS read it."""
    c = BANISHED if seat == banished else SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    return "#%06X" % c


def _banished(players, game):
    """The Banished Cultist's seat: 2 in a 2-player Sete Selos game, else none (-1)."""
    return 2 if game == "sete-selos" and players == 2 else -1


def seat_colours(players, game):
    """Each seat's colour in the plots, the Banished's included."""
    b = _banished(players, game)
    return [seat_colour(s, b) for s in range(players + (b >= 0))]


def position_colours(players, game):
    """Each position's colour: greys from dark (first) to light (last), so
    that no position looks like a seat; the Banished keeps its own."""
    out = ["%.2f" % (0.15 + 0.5 * k / max(1, players - 1)) for k in range(players)]
    return out + ["#%06X" % BANISHED] * (_banished(players, game) >= 0)


def ways(players, game):
    """The two ways a batch's wins are counted, each (the summary's key
    prefix, what a row is, the rows' names, their colours, the file name
    of its plots' suffix): by seat, then by position in turn order."""
    return [("", "seat", seat_names(players, game), seat_colours(players, game), ""),
            ("position_", "position", position_names(players, game),
             position_colours(players, game), "-position")]


# -- plots --------------------------------------------------------------------------------

def _figure(height=HEIGHT):
    """A figure on its own Agg canvas; constrained layout keeps the labels
    from overlapping whatever their length."""
    fig = Figure(figsize=(WIDTH, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _nothing(ax, why):
    """An empty plot says so, rather than showing bare axes."""
    ax.text(0.5, 0.5, why, transform=ax.transAxes, ha="center", va="center", color="0.4")


def _no_winner(none):
    """", k with no winner" for a title, when some game had none."""
    return ", %d with no winner" % none if none else ""


def plot_winrate(summary, by, what, names, colours):
    """Bars of the win rate by seat (by "") or by position (by
    "position_"), in the rows' colours, with 95% intervals and the fair
    share."""
    fig = _figure()
    ax = fig.add_subplot()
    rates = 100 * np.array(summary[by + "win_rate"], dtype=float)
    lo, hi = (100 * np.array(summary[by + "win_rate_95"], dtype=float).reshape(-1, 2)).T
    x = np.arange(len(names))
    ax.bar(x, rates, color=colours, alpha=0.85)
    ax.errorbar(x, rates, yerr=[rates - lo, hi - rates], fmt="none", ecolor="0.15", capsize=6,
                label="95% interval")
    fair = 100 / len(names)
    ax.axhline(fair, color="0.3", linestyle="--", linewidth=1,
               label="fair share (1/%d = %.0f%%)" % (len(names), fair))
    for xi, r, top in zip(x, rates, hi):
        ax.text(xi, top + 1, "%.1f%%" % r, ha="center", va="bottom", fontsize="small")
    ax.set_xticks(x, names)
    # room above the tallest interval for its label and for the legend, but
    # no ticks past 100%
    ax.set_ylim(0, min(max(max(hi, default=0), fair) * 1.3 + 5, 110))
    ax.yaxis.set_major_formatter(PercentFormatter(100))
    ax.set_xlabel(what if by == "" else "%s in turn order %s" % (what, FROM[summary["game"]]))
    ax.set_ylabel("games won (%)")
    ax.set_title("Win rate by %s, %d games%s" % (what, summary["games"],
                                                _no_winner(summary["no_winner"])))
    ax.legend(loc="best", fontsize="small")
    return fig


def plot_lengths(summary):
    fig = _figure()
    ax = fig.add_subplot()
    pairs = _sorted_counts(summary["lengths"])
    unit = LENGTH_UNIT.get(summary["game"], "length")
    if pairs:
        # lengths are whole numbers: one bar per value is the exact histogram
        ax.bar([k for k, _ in pairs], [v for _, v in pairs], width=1, color="C0",
               edgecolor="white", linewidth=0.5)
        mean = _values(summary["lengths"]).mean()
        ax.axvline(mean, color="C3", linestyle="--", linewidth=1, label="mean %.1f" % mean)
        ax.legend(loc="upper left", fontsize="small")
    else:
        _nothing(ax, "no games")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("game length (%s)" % unit)
    ax.set_ylabel("games")
    ax.set_title("Game length, %d games" % summary["games"])
    return fig


def plot_endings(summary):
    fig = _figure()
    ax = fig.add_subplot()
    endings = sorted(summary["endings"].items(), key=lambda kv: (-kv[1], kv[0]))
    n = summary["games"]
    if endings:
        # horizontal bars: ending names of any length stay readable
        y = np.arange(len(endings))
        counts = [v for _, v in endings]
        ax.barh(y, counts, color="C2", alpha=0.85)
        ax.set_yticks(y, [k for k, _ in endings])
        ax.invert_yaxis()
        for yi, v in zip(y, counts):
            ax.text(v, yi, " %d (%s)" % (v, _pct(v / n)), va="center", fontsize="small")
        ax.set_xlim(0, max(counts) * 1.25)        # room for the labels right of the bars
    else:
        _nothing(ax, "no games")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("games")
    ax.set_ylabel("ending")
    ax.set_title("How games end, %d games" % n)
    return fig


def plot_scores(summary, names, colours):
    fig = _figure()
    ax = fig.add_subplot()
    data = [(i, _values(c)) for i, c in enumerate(summary["scores"]) if c]
    if data:
        # whiskers at 0 and 100 per cent: the full range, no points called outliers
        box = ax.boxplot([v for _, v in data], positions=[i for i, _ in data], whis=(0, 100),
                         widths=0.5, showmeans=True, patch_artist=True,
                         medianprops={"color": "0.1"},
                         meanprops={"marker": "D", "markerfacecolor": "white",
                                    "markeredgecolor": "0.1", "markersize": 5})
        for patch, (i, _) in zip(box["boxes"], data):
            patch.set_facecolor(colours[i])
            patch.set_alpha(0.75)
    else:
        _nothing(ax, "no final scores recorded")
    # games with no final score (a Sete Selos game won outright) are left out,
    # so each seat says how many games its box is made of
    ax.set_xticks(range(len(names)), ["%s\n%d games" % (name, sum(c.values()))
                                      for name, c in zip(names, summary["scores"])])
    ax.set_xlim(-0.6, len(names) - 0.4)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("seat (box: quartiles; line: median; ◇: mean; whiskers: range)")
    ax.set_ylabel("final %s" % SCORE_UNIT.get(summary["game"], "score"))
    ax.set_title("Final scores by seat")
    return fig


def forest_height(sets, seats):
    """Inches: a fixed part for title and axis, and a band per option set
    tall enough to keep its seats' intervals apart."""
    return max(HEIGHT, 1.4 + 0.14 * seats * sets)


def plot_forest(result, by, what, names, colours):
    """For each option set, each seat's (by "") or position's (by
    "position_") paired change in win rate from the baseline, with 95%
    intervals (the page says what a position is)."""
    sets = result["sets"]
    fig = _figure(forest_height(len(sets), len(names)))
    ax = fig.add_subplot()
    # each set a row; its seats spread inside the row so intervals do not overlap
    offsets = np.linspace(-0.3, 0.3, len(names)) if len(names) > 1 else [0.0]
    markers = "osD^v"
    for i, name in enumerate(names):
        change = [row[by + "win_rate_change"][i] for row in sets]
        d = 100 * np.array([c[0] for c in change])
        lo = 100 * np.array([c[1][0] for c in change])
        hi = 100 * np.array([c[1][1] for c in change])
        ax.errorbar(d, np.arange(len(sets)) + offsets[i], xerr=[d - lo, hi - d],
                    fmt=markers[i % len(markers)], color=colours[i], capsize=3, markersize=5,
                    label=name)
    ax.axvline(0, color="0.3", linewidth=1)
    # one option a line, wrapped (after its "=" first, not inside a word):
    # the labels must leave the plot its width
    labels = ["\n".join(textwrap.fill("%s= %s" % (k, json.dumps(v)), 22).replace("= ", "=")
                        for k, v in sorted(row["options"].items())) or "defaults"
              for row in sets]
    labels[0] += "\n(baseline)"
    ax.set_yticks(range(len(sets)), labels)
    ax.set_ylim(len(sets) - 0.5, -0.5)           # the baseline on top
    ax.set_xlabel("win-rate change from the baseline (percentage points)")
    ax.set_ylabel("option set, %d games each" % result["games"])
    # over the figure, not the axes: the labels may push the axes right
    fig.suptitle("Win-rate change by %s, paired by seed, with 95%% intervals" % what)
    # below the axes, in one row: beside them it would take the width the
    # option labels need
    fig.legend(loc="outside lower center", ncols=len(names), fontsize="small")
    return fig


# -- HTML --------------------------------------------------------------------------------

PAGE = """<!doctype html>
<html lang=en><meta charset=utf-8><title>%s</title>
<style>
body { font-family: sans-serif; max-width: 52em; margin: 1em auto; }
table { border-collapse: collapse; margin: 1em 0; }
caption { font-weight: bold; text-align: left; }
th, td { padding: 0.15em 0.7em; border-bottom: 1px solid #ccc; }
th[scope=row] { font-weight: normal; text-align: left; }
td.n { text-align: right; }
</style>
"""


def _table(caption, head, rows):
    """A table whose first column names the row; the other columns are
    numbers, aligned right so their digits line up."""
    def row_html(row):
        first, rest = row[0], row[1:]
        return "<tr><th scope=row>%s</th>%s</tr>" % (html.escape(str(first)), "".join(
            "<td class=n>%s</td>" % html.escape(str(c)) for c in rest))
    out = ["<table><caption>%s</caption>" % html.escape(caption),
           "<tr>%s</tr>" % "".join("<th scope=col>%s</th>" % html.escape(h) for h in head)]
    out += [row_html(row) for row in rows]
    return "\n".join(out) + "\n</table>"


def _image(directory, name, fig, title, alt):
    """Save the plot; its heading and <img> (sized, so the page does not
    jump as pictures load)."""
    fig.savefig(os.path.join(directory, name), dpi=DPI)
    width, height = (round(x * DPI) for x in fig.get_size_inches())
    return "<h2>%s</h2>\n<img src=\"%s\" alt=\"%s\" width=%d height=%d>" % (
        html.escape(title), name, html.escape(alt), width, height)


def _facts(facts):
    return "<ul>%s</ul>" % "".join("<li><b>%s</b>: %s</li>" % (k, html.escape(v))
                                   for k, v in facts)


def _header(summary):
    lines = ["<h1>%s, %d players: %d games</h1>" % (html.escape(_game(summary)), summary["players"],
                                                    summary["games"])]
    facts = [("bots", ", ".join(summary["bots"])), ("options", options_label(summary["options"])),
             ("seed", str(summary["seed"])),
             ("games per second", "%.1f" % summary["games_per_second"]
              if summary.get("games_per_second") else "not measured")]
    if "interrupted" in summary:
        facts.append(("interrupted", "%d of %d games finished" % (
            summary["games"], summary["interrupted"]["games_asked"])))
    lines.append(_facts(facts))
    return lines


def _interval(lo, hi):
    return "%s – %s" % (_pct(lo), _pct(hi))


def _winrate_rows(summary, by, names):
    """Each row's wins, win rate and interval; by seat, the games no one
    won too, so that the rows add up to the games played."""
    rows = [(name, w, _pct(r), _interval(*ci))
            for name, w, r, ci in zip(names, summary[by + "wins"], summary[by + "win_rate"],
                                      summary[by + "win_rate_95"])]
    if by == "":
        rows.append(("no winner", summary["no_winner"], _pct(summary["no_winner_rate"]),
                     _interval(*summary["no_winner_rate_95"])))
    return rows


def _score_rows(summary, names):
    rows = []
    for name, counts in zip(names, summary["scores"]):
        v = _values(counts)
        rows.append((name, len(v), "%.2f" % v.mean(), "%g" % np.median(v),
                     "%d – %d" % (v.min(), v.max())) if len(v) else (name, 0, "", "", ""))
    return rows


def _positions(players, game, first):
    """What a position is, and who is first, as the page says it."""
    return "<p>%s</p>" % html.escape(positions_note(game, players, first))


def _wins(directory, summary, by, what, names, colours, suffix):
    """The win rates by seat or by position (one of `ways`): plot and table."""
    return [_image(directory, "winrate%s.png" % suffix,
                   plot_winrate(summary, by, what, names, colours), "Win rate by %s" % what,
                   "Bar chart of the win rate of each %s (%s) with 95%% intervals and the fair "
                   "share of %s" % (what, ", ".join(names), _pct(1 / len(names)))),
            _table("Win rate by %s" % what, (what, "wins", "win rate", "95% interval"),
                   _winrate_rows(summary, by, names))]


def write(directory, summary):
    """summary.json, report.html and its PNGs (winrate, winrate-position,
    lengths, endings, scores) in directory."""
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "summary.json"), "w") as f:
        f.write(json.dumps(summary, sort_keys=True, indent=1) + "\n")
    players, game = summary["players"], summary["game"]
    n = summary["games"]
    unit = LENGTH_UNIT.get(game, "length")
    score = SCORE_UNIT.get(game, "score")
    parts = [PAGE % "Altar simulation: %s" % html.escape(_game(summary))]
    parts += _header(summary)
    seat, position = ways(players, game)
    _, _, names, colours, _ = seat
    parts += _wins(directory, summary, *seat)
    parts += ["<p>A game has one winner or none (a Sete Selos tie that no Elder breaks), so "
              "the seats' wins and the games no one won add up to the games played.</p>",
              _positions(players, game, summary["first"])]
    parts += _wins(directory, summary, *position)
    parts += [
        _image(directory, "endings.png", plot_endings(summary), "How games end",
               "Horizontal bar chart of the number of games ending each way"),
        _table("How games end", ("ending", "games", "share"),
               [(k, v, _pct(v / n)) for k, v in sorted(summary["endings"].items(),
                                                        key=lambda kv: (-kv[1], kv[0]))]),
        _image(directory, "lengths.png", plot_lengths(summary), "Game length",
               "Histogram of game length in %s" % unit),
        _table("Game length (%s)" % unit, ("length", "games", "share"),
               [(k, v, _pct(v / n)) for k, v in _sorted_counts(summary["lengths"])]),
        _image(directory, "scores.png", plot_scores(summary, names, colours),
               "Final scores by seat",
               "Box plots of each seat's final %s: quartiles, median, mean and range" % score),
        _table("Final %s by seat" % score, ("seat", "games scored", "mean", "median", "range"),
               _score_rows(summary, names)),
    ]
    with open(os.path.join(directory, "report.html"), "w", encoding="utf-8") as f:
        f.write("\n".join(parts) + "\n")


def _change(d, lo, hi):
    return "%+.1f pp" % (100 * d), "%+.1f – %+.1f pp" % (100 * lo, 100 * hi)


def _set_rows(row, by, names):
    """An option set's rows: each seat's or position's win rate and its
    paired change from the baseline, each with its interval; by seat, the
    games no one won too (no change: only wins are paired)."""
    rows = [(name, _pct(r), _interval(*ci), *_change(d, clo, chi))
            for name, r, ci, (d, (clo, chi))
            in zip(names, row[by + "win_rate"], row[by + "win_rate_95"],
                   row[by + "win_rate_change"])]
    if by == "":
        rows.append(("no winner", _pct(row["no_winner_rate"]),
                     _interval(*row["no_winner_rate_95"]), "", ""))
    return rows


def write_balance(directory, result):
    """balance.json, balance.html and its forest plots (forest,
    forest-position) in directory."""
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "balance.json"), "w") as f:
        f.write(json.dumps(result, sort_keys=True, indent=1) + "\n")
    players, game = result["players"], result["game"]
    parts = [PAGE % "Altar balance: %s" % html.escape(_game(result)),
             "<h1>%s, %d players: %d option sets, %d games each</h1>" % (
                 html.escape(_game(result)), players, len(result["sets"]), result["games"]),
             _facts([("bots", ", ".join(result["bots"])),
                     ("seed", "%d (every set plays the same seeds)" % result["seed"]),
                     ("change", result["change"])]),
             _positions(players, game, result["first"])]
    by_way = ways(players, game)
    for by, what, names, colours, suffix in by_way:
        parts.append(_image(directory, "forest%s.png" % suffix,
                            plot_forest(result, by, what, names, colours),
                            "Win-rate change by %s" % what,
                            "Forest plot: for each option set, each %s's paired change in win "
                            "rate from the baseline, in percentage points, with 95%% intervals"
                            % what))
    for i, row in enumerate(result["sets"]):
        label = options_label(row["options"]) + (" (baseline)" if i == 0 else "")
        parts.append("<h2>%s</h2>" % html.escape(label))
        for by, what, names, _, _ in by_way:
            parts.append(_table("Win rate by %s: %s" % (what, label),
                                (what, "win rate", "95% interval", "change", "95% interval"),
                                _set_rows(row, by, names)))
        total = sum(row["endings"].values())
        parts.append(_table("How games end: %s" % label, ("ending", "games", "share"),
                            [(k, v, _pct(v / total)) for k, v in sorted(
                                row["endings"].items(), key=lambda kv: (-kv[1], kv[0]))]))
        lengths = row.get("lengths") or {}
        if lengths:
            mean = sum(int(k) * v for k, v in lengths.items()) / sum(lengths.values())
            parts.append("<p>Game length: mean %.1f %s, %s to %s.</p>" % (
                mean, LENGTH_UNIT.get(game, ""), min(lengths, key=int), max(lengths, key=int)))
    with open(os.path.join(directory, "balance.html"), "w", encoding="utf-8") as f:
        f.write("\n".join(parts) + "\n")
