"""`altar sheet LOG`: a game sheet, one self-contained HTML page of how a
game went turn by turn and why the winner won, with its pictures embedded
(data: URIs) and also written beside it as PNGs.

The facts come from replaying the log through the engine (sheet_facts),
the pictures from sheet_plots, each game's part of the page from
sheet_games; this module holds the page itself and writes it. Nothing is
written for a log the engine refuses.
"""

import base64
import html
import io
import json

from altar import log
from altar_fw.ui import GAMES
from altar_host import sheet_games, sheet_plots, summary
from altar_host.sim import report
from altar_host.sheet_facts import facts
from altar_host.sheet_text import Words

STYLE = """
body { font-family: sans-serif; max-width: 60em; margin: 1em auto; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { padding: 0.15em 0.6em; border-bottom: 1px solid #ccc; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
tr.first td { border-top: 2px solid #888; }
tr.final td { background: #f6efd9; }
img { max-width: 100%; height: auto; display: block; margin: 0.5em 0; }
.boards { display: grid; grid-template-columns: repeat(auto-fill, minmax(26em, 1fr)); gap: 0 1em; }
.seat::before { content: ""; display: inline-block; width: 0.8em; height: 0.8em;
  border-radius: 50%; margin-right: 0.35em; background: var(--c); vertical-align: -0.05em; }
.result { font-size: 1.2em; font-weight: bold; }
"""


def default_out(log_path):
    """LOG without .jsonl, plus .html."""
    stem = log_path[:-len(".jsonl")] if log_path.endswith(".jsonl") else log_path
    return stem + ".html"


def png_path(out, name):
    """A picture's file beside the page: the page's name without .html,
    then -name.png."""
    stem = out[:-len(".html")] if out.endswith(".html") else out
    return "%s-%s.png" % (stem, name)


class Sheet:
    """The page being built: its words, the seats' names and colours, and
    the pictures made so far (name -> PNG bytes); with `pictures` False,
    none are drawn (the live page's history, redrawn at every press)."""

    def __init__(self, session, lang, pictures=True):
        self.session = session
        self.pictures = pictures
        self.w = Words(lang)
        rules = session.rules
        banished = getattr(rules, "banished", -1)
        self.names = [rules.players[s] if s < len(rules.players) else self.w["banished"]
                      for s in range(rules.seats)]
        self.colours = [report.seat_colour(s, banished) for s in range(rules.seats)]
        self.pngs = {}

    def seat(self, s):
        """A seat's name with its colour, for the page."""
        return '<span class=seat style="--c:%s">%s</span>' % (self.colours[s],
                                                              html.escape(self.names[s]))

    def seats(self, seats):
        return ", ".join(self.seat(s) for s in seats)

    def image(self, name, fig, alt):
        """Keep the figure's PNG; its <img>, embedded."""
        data = sheet_plots.png(fig)
        self.pngs[name] = data
        width, height = (round(x * sheet_plots.DPI) for x in fig.get_size_inches())
        return '<img src="data:image/png;base64,%s" alt="%s" width=%d height=%d>' % (
            base64.b64encode(data).decode("ascii"), html.escape(alt), width, height)


def _header(sheet, undone):
    w = sheet.w
    s = sheet.session
    game = s.header["game"]
    title = "%s: %s" % ([t for g, t, _, _ in GAMES if g == game][0], w["sheet"])
    items = [(w["players"], ", ".join(sheet.seat(i) for i in range(len(sheet.names))))]
    first = {"sete-selos": "first_dealer", "ritos-ancestrais": "first_player"}.get(game)
    if first:
        items.append((w[first], sheet.seat(s.rules.first)))
    changed = {k: v for k, v in sorted(s.rules.options.items()) if v != s.mod.OPTIONS[k]}
    if changed:
        items.append((w["options"], html.escape("; ".join(
            "%s = %s" % (k, json.dumps(v, ensure_ascii=False)) for k, v in changed.items()))))
    parts = ["<!doctype html>", '<html lang=%s><meta charset=utf-8>' % w.lang,
             "<title>%s</title>" % html.escape(title), "<style>%s</style>" % STYLE,
             "<h1>%s</h1>" % html.escape(title),
             "<ul>%s</ul>" % "".join("<li><b>%s</b>: %s</li>" % (html.escape(k), v)
                                     for k, v in items)]
    if undone:
        one, many = w["undone"]
        parts.append("<p>%s</p>" % html.escape(one if undone == 1 else many % undone))
    return parts


def build(session, lang, undone=0):
    """The page's HTML and its pictures (name -> PNG bytes) for a loaded
    session; `undone` counts the log's undos, for the header."""
    sheet = Sheet(session, lang)
    parts = _header(sheet, undone)
    parts += sheet_games.section(sheet, facts(session))
    return "\n".join(parts) + "\n", sheet.pngs


def read(path):
    """The loaded session and how many actions the log undid (each undo is
    a line of its own and takes one kept action away). Raises OSError, or
    log.LogError with the replay's `line N: reason`."""
    with open(path, "rb") as f:
        data = f.read()
    session = log.load(io.BytesIO(data))       # read as the replay reads a file
    lines = sum(1 for ln in io.BytesIO(data) if ln.strip(b" \t\r\n"))
    return session, summary.undone(lines, session)


def write(session, out, lang="pt", undone=0):
    """Write the page and its PNGs beside it."""
    page, pngs = build(session, lang, undone)
    for name, data in pngs.items():
        with open(png_path(out, name), "wb") as f:
            f.write(data)
    with open(out, "w", encoding="utf-8") as f:
        f.write(page)
