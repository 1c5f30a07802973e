"""Each game's part of the sheet: its tables, pictures and how it ended,
from the facts sheet_facts found. `section(sheet, facts)` returns the HTML
parts: `result`, then `history` (the tables, and the pictures unless the
sheet has `pictures` off, as `altar live` has), then `ending`; `sheet` is
the page being built (altar_host.sheet.Sheet).
"""

import html

from altar.fantasmagoria import CURSES, FILIPI_LIMIT, SCARES
from altar_host import sheet_facts, sheet_plots

# The device's label of each cursed card the sheet spells out.
CURSED_KEY = {"gato-da-sorte": "gato", "candelabro": "candelabro", "belleanna": "belleanna"}


def section(sheet, f):
    return [result(sheet, f.view)] + history(sheet, f) + ending(sheet, f)


def history(sheet, f):
    """The game turn by turn: its tables and pictures."""
    return _GAMES[sheet.session.header["game"]][0](sheet, f)


def ending(sheet, f):
    """How the game ended, or where the log stops (what it waits for)."""
    return _GAMES[sheet.session.header["game"]][1](sheet, f)


def table(head, rows, classes=None):
    """Cells are HTML already; a cell that is an int is a number, aligned
    right. `classes` gives a class per row (or None)."""
    def cell(c):
        return "<td class=n>%d</td>" % c if isinstance(c, int) else "<td>%s</td>" % c
    out = ["<table>", "<tr>%s</tr>" % "".join("<th>%s</th>" % html.escape(h) for h in head)]
    for i, row in enumerate(rows):
        cls = classes[i] if classes else None
        out.append("<tr%s>%s</tr>" % (" class=%s" % cls if cls else "", "".join(map(cell, row))))
    out.append("</table>")
    return "\n".join(out)


def _p(text):
    return "<p>%s</p>" % text


def result(sheet, view):
    """The game's outcome in the device's words, or that the log stops early."""
    w = sheet.w
    if view["status"] != "over":
        text = html.escape(w["unfinished"])
    elif not view["winners"]:
        text = html.escape(w["no_winner"])
    elif len(view["winners"]) > 1:
        text = "%s: %s" % (html.escape(w["shared"]), sheet.seats(view["winners"]))
    else:
        text = w["wins"] % sheet.seat(view["winners"][0])
    return "<p class=result>%s</p>" % text


# -- Sete Selos ------------------------------------------------------------------------

def _cultist(sheet, r):
    """Where the ritual's cultist went: the card's Elder, or from it (revealed)
    to the one chosen or the next sealed one; nowhere if the game ended first."""
    w = sheet.w
    if not r.elder:
        return html.escape(w["no_cultist"])
    went = w["elder"] % r.elder
    if r.elder == r.value and not r.chosen:
        return html.escape(went)
    return html.escape(w["redirected" if r.chosen else "moved_on"] % (w["elder"] % r.value, went))


def _ritual_rows(sheet, f):
    rows, classes = [], []
    for r in f.rituals:
        gained = "+%d → %d" % (r.insanity, f.insanity[r.n][r.winner]) if r.insanity else ""
        rows.append((r.n, r.series, sheet.seat(r.leader), sheet.seat(r.winner), r.value,
                     _cultist(sheet, r), gained))
        # a line over each series' first ritual
        classes.append("first" if r.n % sheet_facts.SERIES == 1 and r.n > 1 else None)
    return rows, classes


def _board_image(sheet, name, board, title):
    """A board's picture (titled: its PNG is also read alone), and in its
    alt text every Elder's cultists."""
    w = sheet.w
    fig = sheet_plots.board(board, sheet.names, sheet.colours, w["elder"], w["revealed"], title)
    alt = "%s: %s" % (title, "; ".join(
        "%s %s" % (w["elder"] % (e + 1), ", ".join(
            "%s %d" % (sheet.names[s], st[e]) for s, st in enumerate(board.stacks) if st[e]) or "0")
        for e in range(7)))
    return sheet.image(name, fig, alt)


def _boards(sheet, f):
    w = sheet.w
    pictures = [_board_image(sheet, "board-series-%d" % k, b, w["board_series"] % k)
                for k, b in sorted(f.series_boards.items())]
    last = f.series_boards[max(f.series_boards)] if f.series_boards else None
    # the end only when it differs from the last series' board: removals, or
    # a game that ended (or stops) inside a series
    if last != f.end_board:
        title = w["board_end"] if f.view["status"] == "over" else w["board_now"]
        pictures.append(_board_image(sheet, "board-end", f.end_board, title))
    return ["<h2>%s</h2>" % html.escape(w["elders"]),
            "<div class=boards>%s</div>" % "\n".join(pictures)]


def _insanity_chart(sheet, f):
    w = sheet.w
    series = [[row[s] for row in f.insanity] for s in range(len(sheet.names))]
    # a win by insanity: the level it took, to see who got there
    goal = (f.condition[2], w["immediate"]) if f.condition and f.condition[0] == "insanity" \
        else None
    fig = sheet_plots.lines(series, sheet.names, sheet.colours, w["ritual"], w.word("insanity"),
                            w["insanity_chart"], goal=goal)
    alt = "%s: %s" % (w["insanity_chart"], ", ".join(
        "%s %d" % (n, ys[-1]) for n, ys in zip(sheet.names, series)))
    return ["<h2>%s</h2>" % html.escape(w["insanity_chart"]), sheet.image("insanity", fig, alt)]


def _immediate(sheet, f):
    w = sheet.w
    seat = sheet.seat(f.view["winners"][0])
    if f.condition[0] == "insanity":
        why = w["by_insanity"] % (seat, f.condition[1], f.condition[2])
    else:
        _, got, top, need = f.condition
        # the rules' table counts the fullest Elder, some of them, or all 7
        why = (w["by_cultists_one"] % (seat, got, need) if top == 1 else
               w["by_cultists_all"] % (seat, got, need) if top == 7 else
               w["by_cultists"] % (seat, got, top, need))
    return [_p(html.escape(w["immediate"])), _p(why)]


def _removals(sheet, f):
    """Who removed what, what was left and the power it makes, with the
    rule that counts it (while the removals go on, "…" for what is still
    to come)."""
    w = sheet.w
    v = f.view
    over = v["status"] == "over"

    def removed(s):
        if s in f.removals:
            return html.escape(", ".join(w["elder"] % e for e in f.removals[s]))
        return html.escape(w["no_removal"]) if over or not v["insanity"][s] else "…"

    def left(s):
        return html.escape(", ".join("%s ×%d" % (w["elder"] % (e + 1), c)
                                     for e, c in enumerate(f.state.stacks(s)) if c))
    rows = [(sheet.seat(s), v["insanity"][s], removed(s), left(s) if over else "…",
             v["power"][s] if over else "…") for s in range(len(sheet.names))]
    return ["<h3>%s</h3>" % html.escape(w["removals"]),
            table((w["seat"], w.word("insanity"), w["removed"], w["left"], w.word("power")), rows),
            _p(html.escape(w["power_rule"] % tuple(f.state.rules.power[1:])))]


def _power(sheet, f):
    """The winner's power; a tie on it, and the Elder that broke it if one did."""
    w = sheet.w
    v = f.view
    d = f.state.decider
    top = max(v["power"])
    parts = [_p(w["by_power"] % (sheet.seat(v["winners"][0]), top))] if v["winners"] else []
    if d:
        tied = [s for s, p in enumerate(v["power"]) if p == top]
        parts.append(_p(w["tied_power"] % (top, sheet.seats(tied))))
    tie = w["tie_elder"] % d if d > 0 else w["tie_all"] if d < 0 else w["no_tie"]
    return parts + [_p(html.escape(tie))]


def _awaiting(sheet, aw):
    """What the log stopped waiting for."""
    w = sheet.w
    if aw["do"] == "redirect":
        return _p(w["awaiting_redirect"] % sheet.seat(aw["seat"]))
    return _p(w["awaiting"] % (w["removes"] % (sheet.seat(aw["seat"]), aw["count"])))


def _sete_selos_end(sheet, f):
    v = f.view
    aw = v["awaiting"]
    parts = [_awaiting(sheet, aw)] if aw else []
    if v["reason"] == "immediate":
        parts += _immediate(sheet, f)
    elif v["reason"] == "power" or aw and aw["do"] == "remove":
        parts += _removals(sheet, f)
    if v["reason"] == "power":
        parts += _power(sheet, f)
    return _ending(sheet, v, parts)


def _ending(sheet, view, parts):
    """The game's end under its heading, or where the log stopped; nothing
    if there is nothing to say."""
    if not parts:
        return []
    w = sheet.w
    head = w["how_ended"] if view["status"] == "over" else w["where_stopped"]
    return ["<h2>%s</h2>" % html.escape(head)] + parts


def _sete_selos(sheet, f):
    w = sheet.w
    parts = []
    if f.rituals:
        rows, classes = _ritual_rows(sheet, f)
        parts += ["<h2>%s</h2>" % html.escape(w["rituals"]),
                  table((w["ritual"], w["series"], w["leader"], w["winner"], w["card"],
                         w["cultist"], w.word("insanity")), rows, classes)]
        # pictures of a game only once it has begun
        if sheet.pictures:
            parts += _boards(sheet, f) + _insanity_chart(sheet, f)
    return parts


# -- Fantasmagória ---------------------------------------------------------------------

def _filipi(w, p):
    """What Filipi Bode, won in a trick, did to the pile."""
    if not p.filipi:
        return ""
    return w["filipi_void"] % p.ghosts if p.ghosts > FILIPI_LIMIT else w["filipi_double"]


def _scares(w, p):
    """How a pile scored, spelled out: ghosts (doubled by Filipi Bode), each
    cursed card's value, then the engine's total."""
    if p.filipi and p.ghosts > FILIPI_LIMIT:
        return str(p.scares)
    terms = ["%d×2" % p.ghosts if p.filipi else str(p.ghosts)]
    terms += ["%+d (%s)" % (SCARES[CURSES.index(c)], w[CURSED_KEY[c]]) for c in p.cursed]
    if len(terms) == 1 and not p.filipi:
        return str(p.scares)
    return "%s = %d" % (" ".join(terms), p.scares)


def _pile_rows(sheet, rnd):
    w = sheet.w
    return [(sheet.seat(s), p.ghosts, html.escape(", ".join(w[CURSED_KEY[c]] for c in p.cursed)),
             html.escape(_filipi(w, p)), html.escape(_scares(w, p)), rnd.track[s])
            for s, p in enumerate(rnd.piles)]


def _trick_rows(sheet, rnd):
    return [(t.n, sheet.seat(t.leader), sheet.seat(t.winner) if t.winner >= 0 else "…",
             sheet.seats(t.possessed),
             "%d → %d" % t.moved if t.moved else "")
            for t in rnd.tricks]


def _round(sheet, rnd):
    w = sheet.w
    parts = ["<h2>%s</h2>" % html.escape(w.word("round_n") % rnd.n),
             _p("%s %d; %s: %s" % (html.escape(w["trump"]), rnd.trump,
                                   html.escape(w["leader"]), sheet.seat(rnd.leader)))]
    if rnd.tricks:
        parts.append(table((w["trick"], w["leader"], w["trick_win"], w["possession"],
                            w["planchette"]), _trick_rows(sheet, rnd)))
    if rnd.piles is None:
        return parts + [_p(html.escape(w["no_piles"]))]
    return parts + [table((w["seat"], w["ghosts"], w["cursed"], w["filipi_bode"],
                           w["round_scares"], w["track"]), _pile_rows(sheet, rnd))]


def _track_chart(sheet, f):
    w = sheet.w
    ended = [r for r in f.rounds if r.track is not None]
    series = [[0] + [r.track[s] for r in ended] for s in range(len(sheet.names))]
    ticks = [w["start"]] + [w.word("round_n") % r.n for r in ended]
    fig = sheet_plots.lines(series, sheet.names, sheet.colours, "", w.word("totals"),
                            w["track_chart"], xticks=ticks, steps=False)
    alt = "%s: %s" % (w["track_chart"], ", ".join(
        "%s %s" % (n, " → ".join(map(str, ys))) for n, ys in zip(sheet.names, series)))
    return ["<h2>%s</h2>" % html.escape(w["track_chart"]), sheet.image("track", fig, alt)]


def _fantasmagoria_end(sheet, f):
    w = sheet.w
    v = f.view
    if v["status"] != "over":
        return []
    low = min(v["scares"])
    if v["spirit"]:
        why = w["spirit_tie"] % (low, sheet.seats(f.tied), sheet.seat(v["winners"][0]))
        return _ending(sheet, v, [_p(html.escape(w["spirit"])), _p(why)])
    return _ending(sheet, v, [_p(w["lowest"] % (sheet.seat(v["winners"][0]), low))])


def _fantasmagoria(sheet, f):
    parts = []
    for rnd in f.rounds:
        parts += _round(sheet, rnd)
    if sheet.pictures and any(r.track for r in f.rounds):
        parts += _track_chart(sheet, f)
    return parts


# -- Ritos Ancestrais ------------------------------------------------------------------

def _turn_rows(sheet, f):
    n = len(sheet.names)
    rows = [(t.n, sheet.seat(t.seat), t.points) + (tuple(t.scores) if t.scores else ("…",) * n)
            for t in f.turns]
    classes = ["final" if f.trigger and t.n > f.trigger else None for t in f.turns]
    return rows, classes


def _scores_chart(sheet, f):
    w = sheet.w
    done = [t for t in f.turns if t.scores]
    series = [[0] + [t.scores[s] for t in done] for s in range(len(sheet.names))]
    mark = (f.trigger, w["reached_mark"]) if f.trigger else None
    fig = sheet_plots.lines(series, sheet.names, sheet.colours, w["turn_n"], w["points"],
                            w["scores_chart"], goal=(21, w["goal"]), mark=mark)
    alt = "%s: %s" % (w["scores_chart"], ", ".join(
        "%s %d" % (n, ys[-1]) for n, ys in zip(sheet.names, series)))
    return ["<h2>%s</h2>" % html.escape(w["scores_chart"]), sheet.image("scores", fig, alt)]


def _bonus_table(sheet, bonuses):
    """Each bonus's seat and points, and its card where the log names one
    (a column only when some bonus does: older logs name none)."""
    w = sheet.w
    if not any(c for _, _, c in bonuses):
        return table((w["seat"], w["bonus"]), [(sheet.seat(s), p) for s, p, _ in bonuses])
    return table((w["seat"], w["card"], w["bonus"]),
                 [(sheet.seat(s), html.escape(w["bonus_" + c] if c else "—"), p)
                  for s, p, c in bonuses])


def _ritos_end(sheet, f):
    w = sheet.w
    v = f.view
    parts = []
    if f.trigger:
        seat = sheet.seat(f.turns[f.trigger - 1].seat)
        last = f.turns[-1].n
        parts.append(_p(w["reached"] % (seat, f.trigger, last) if last > f.trigger
                        else w["reached_last"] % (seat, f.trigger)))
    else:
        parts.append(_p(html.escape(w["not_reached"])))
    if f.bonuses:
        parts += ["<h3>%s</h3>" % html.escape(w["bonus"]), _bonus_table(sheet, f.bonuses)]
    if v["hands"] is None:
        return _ending(sheet, v, parts)
    n = len(sheet.names)
    parts.append(table((w["seat"], w["points"], w["hands"]),
                       [(sheet.seat(s), v["scores"][s], v["hands"][s]) for s in range(n)]))
    top = max(v["scores"])
    tied = [s for s in range(n) if v["scores"][s] == top]
    if len(v["winners"]) > 1:
        parts.append(_p(w["shared_by"] % sheet.seats(v["winners"])))
    elif len(tied) > 1:
        best = v["winners"][0]
        parts.append(_p(w["tie_hands"] % (top, sheet.seats(tied), sheet.seat(best),
                                          v["hands"][best])))
    else:
        parts.append(_p(w["top_score"] % (sheet.seat(v["winners"][0]), top)))
    return _ending(sheet, v, parts)


def _ritos_ancestrais(sheet, f):
    w = sheet.w
    parts = []
    if f.turns:
        rows, classes = _turn_rows(sheet, f)
        parts += ["<h2>%s</h2>" % html.escape(w["turns"]),
                  table((w["turn_n"], w["seat"], w["points_gained"]) + tuple(sheet.names),
                        rows, classes)]
    if sheet.pictures and any(t.scores for t in f.turns):
        parts += _scores_chart(sheet, f)
    return parts


# each game's history and ending
_GAMES = {"sete-selos": (_sete_selos, _sete_selos_end),
          "fantasmagoria": (_fantasmagoria, _fantasmagoria_end),
          "ritos-ancestrais": (_ritos_ancestrais, _ritos_end)}
