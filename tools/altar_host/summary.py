"""What a person reads on a terminal: a game's state and result in words,
and the tables of `altar simulate` and `altar balance`. Seats are named as
the device names them (the header's names, "Ban" for the Banished Cultist
in a 2-player Sete Selos game), here and in the reports; the JSON for
machines keeps the contract's seat numbers. The tables are laid out by
rich, so a long name or option set widens its column instead of pushing
its row out of line."""

import io
import textwrap

WIDTH = 240     # room for every column: a table takes its natural width


def render(*parts):
    """Text and rich tables as plain text (no colour, no markup read from
    the names), a blank line between the parts."""
    from rich.console import Console
    out = io.StringIO()
    console = Console(file=out, width=WIDTH, color_system=None, highlight=False, emoji=False,
                      markup=False)
    for i, p in enumerate(parts):
        if i:
            console.print()
        console.print(p)
    return "\n".join(ln.rstrip() for ln in out.getvalue().splitlines()).strip("\n")


def table(head, rows, right=()):
    """A rich table: `head` the column titles, `rows` lists of cells, the
    columns numbered in `right` aligned right (numbers)."""
    from rich import box
    from rich.table import Table
    t = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for i, h in enumerate(head):
        t.add_column(h, justify="right" if i in right else "left", no_wrap=True)
    for r in rows:
        t.add_row(*[str(c) for c in r])
    return t


def seat_names(players, game):
    """The name of each seat: the players' (a list of names, or how many:
    P1..Pn), then "Ban" for the Banished Cultist, the third seat of a
    2-player Sete Selos game (as the device names it)."""
    names = ["P%d" % (i + 1) for i in range(players)] if type(players) is int else list(players)
    if game == "sete-selos" and len(names) == 2:
        names.append("Ban")
    return names


ORDINALS = ("1st", "2nd", "3rd", "4th")


def position_names(players, game):
    """The name of each position in turn order from the first player
    (1st, 2nd, ...), then "Ban" for the Banished Cultist, which is a
    position of its own (altar_host.sim.simulate.positions)."""
    names = list(ORDINALS[:players])
    if game == "sete-selos" and players == 2:
        names.append("Ban")
    return names


def positions_note(game, players, first):
    """What a position is in this game, and who is first in the batch's
    games (`first`: --first's seat, or "random"), in words."""
    if game == "fantasmagoria":
        return ("Positions are turn order, clockwise, from the first round's leader: the seat "
                "of the lowest sacrifice. The cards choose it, so a position carries its hand "
                "with it (the game has no first player to draw or fix).")
    if players == 2:
        what = ("1st is the game's first player (the header's first), who deals the first "
                "series, draws the Banished's cards blind in its draft and plays after the "
                "Banished, who leads every series; 2nd is the other player, Ban the Banished.")
    else:
        what = ("Positions are turn order, clockwise, from the game's first player (the "
                "header's first), who deals the first series and leads its first ritual.")
    if first == "random":
        return what + " Each game draws its first player (--first random)."
    return what + " P%d is first in every game (--first %d)." % (first + 1, first)


def undone(lines, session):
    """How many actions a log's undos took back, from its non-blank lines
    (the header included) and the session it replays to: every line after
    the header is an action or an undo, and each undo takes one kept action
    away."""
    return (lines - 1 - len(session.history)) // 2


def _names(names, seats):
    return ", ".join(names[s] for s in seats) or "none"


def state(view, names):
    """One line of the state a person follows, per game."""
    g = view["game"]
    if g == "sete-selos":
        parts = ["ritual %d" % view["ritual"], "%s leads" % names[view["leader"]],
                 "insanity " + " ".join("%s %d" % (names[s], x)
                                        for s, x in enumerate(view["insanity"])),
                 "sealed Elders %s" % (" ".join(str(e["value"]) for e in view["elders"]
                                                if not e["revealed"]) or "none")]
        aw = view["awaiting"]
        if aw:
            parts.append("%s must %s" % (names[aw["seat"]], "redirect a cultist"
                                         if aw["do"] == "redirect"
                                         else "remove %d cultists" % aw["count"]))
    elif g == "fantasmagoria":
        parts = ["round %d" % view["round"],
                 "trump %s" % ("not set" if view["trump"] is None else view["trump"]),
                 "%s leads" % ("nobody yet" if view["leader"] is None else names[view["leader"]]),
                 "possessed: %s" % _names(names, [s for s, p in enumerate(view["possessed"]) if p]),
                 "scares " + " ".join("%s %d" % (names[s], x) for s, x in enumerate(view["scares"]))]
    else:
        parts = ["turn: %s" % names[view["turn"]],
                 "scores " + " ".join("%s %d" % (names[s], x) for s, x in enumerate(view["scores"]))]
        if view["final"]:
            parts.append("final round")
    return ", ".join(parts)


def result(view, names):
    """The result in words: not over, or who won and how."""
    if view["status"] != "over":
        return "not over"
    g = view["game"]
    won = "winner: %s" % _names(names, view["winners"])
    if g == "sete-selos":
        if view["reason"] == "immediate":
            return won + " (an immediate victory)"
        return won + " (by power: %s)" % " ".join(
            "%s %d" % (names[s], p) for s, p in enumerate(view["power"]))
    if g == "fantasmagoria":
        return won + " (lowest scares: %s%s)" % (
            " ".join("%s %d" % (names[s], x) for s, x in enumerate(view["scares"])),
            "; the spirit broke a tie" if view["spirit"] else "")
    return won + " (scores: %s; cards in hand: %s)" % (
        " ".join("%s %d" % (names[s], x) for s, x in enumerate(view["scores"])),
        " ".join("%s %d" % (names[s], x) for s, x in enumerate(view["hands"] or [])) or "-")


def game(session):
    """`altar replay` for a person: the game, its players, state and result."""
    v = session.view()
    names = seat_names(session.rules.players, v["game"])
    return "\n".join(("%s, %d players: %s" % (v["game"], len(session.rules.players),
                                              ", ".join(session.rules.players)),
                      state(v, names), result(v, names)))


def _rate(rate, interval):
    return "%5.1f%% [%4.1f, %4.1f]" % (100 * rate, 100 * interval[0], 100 * interval[1])


def _rate_rows(labels, wins, rates, intervals):
    """Table rows: a row's label cells (a name, maybe the seat's bot), then
    wins, the win rate and its interval."""
    return [label + [w, _rate(r, ci)] for label, w, r, ci in zip(labels, wins, rates, intervals)]


def simulation(s):
    """`altar simulate`'s summary as tables: each seat's bot and win rate,
    the games no one won, then the win rates by position."""
    n = s["games"]
    names = seat_names(s["players"], s["game"])
    bots = s["bots"] if len(s["bots"]) > 1 else s["bots"] * s["players"]
    bots = bots + ["(dummy)"] * (len(names) - len(bots))
    title = "%s, %d players, %d games from seed %d%s" % (
        s["game"], s["players"], n, s["seed"],
        ", %.1f games/s" % s["games_per_second"] if s["games_per_second"] else "")
    head = ["wins", "win rate [95% interval]"]
    seats = _rate_rows([[name, bot] for name, bot in zip(names, bots)], s["wins"],
                       s["win_rate"], s["win_rate_95"])
    # the games no one won, so that the rows add up to the games played
    seats += _rate_rows([["no winner", ""]], [s["no_winner"]], [s["no_winner_rate"]],
                        [s["no_winner_rate_95"]])
    positions = _rate_rows([[p] for p in position_names(s["players"], s["game"])],
                           s["position_wins"], s["position_win_rate"], s["position_win_rate_95"])
    tail = textwrap.wrap(positions_note(s["game"], s["players"], s["first"]), 79)
    tail += ["", "endings: " + ", ".join("%s %d" % (k, v) for k, v in sorted(s["endings"].items()))]
    if s.get("options"):
        tail.append("options: %s" % s["options"])
    return render(title, table(["seat", "bot"] + head, seats, (2,)),
                  table(["position"] + head, positions, (1,)), "\n".join(tail))


def _label(options):
    return "; ".join("%s=%s" % (k, options[k]) for k in sorted(options)) or "(the defaults)"


def _change(d, interval):
    lo, hi = interval
    return "%+.1f [%+.1f, %+.1f]" % (100 * d, 100 * lo, 100 * hi)


def balance(result):
    """`altar balance`'s result as tables, by seat (and the games no one
    won) then by position: each option set (its full label on a line of its
    own), its win rates, and their paired change from the first set with a
    95% interval."""
    players, game = result["players"], result["game"]

    def sets(names, by, more=lambda r: []):
        """by: "" (seats) or "position_"; more(r): win-rate cells after the
        rates'. Each option set's full label is a row of its own."""
        rows = []
        for i, r in enumerate(result["sets"]):
            rates = r[by + "win_rate"]
            rows += [[_label(r["options"])] + [""] * len(names),
                     ["  win rate"] + [_rate(x, ci) for x, ci in zip(rates, r[by + "win_rate_95"])]
                     + more(r),
                     ["  change"] + (["(baseline)"] * len(rates) if i == 0 else
                                     [_change(d, ci) for d, ci in r[by + "win_rate_change"]])
                     + [""] * (len(names) - len(rates))]
        return table(["option set"] + names, rows)
    title = ("%s, %d players, bots %s, %d games a set from seed %d (the same seeds for each)"
             % (game, players, ",".join(result["bots"]), result["games"], result["seed"]))
    # by seat, the games no one won last, so that a row adds up to 100%
    by_seat = sets(seat_names(players, game) + ["no winner"], "",
                   lambda r: [_rate(r["no_winner_rate"], r["no_winner_rate_95"])])
    notes = textwrap.wrap(positions_note(game, players, result["first"]), 79)
    notes += [""] + textwrap.wrap("Change, in percentage points: %s." % result["change"], 79)
    return render(title, by_seat, sets(position_names(players, game), "position_"),
                  "\n".join(notes))
