"""What a person reads on a terminal: a game's state and result in words,
and the tables of `altar simulate` and `altar balance`. Seats are named as
the device names them (the header's names, "Ban" for the Banished Cultist
in a 2-player Sete Selos game), here and in the reports; the JSON for
machines keeps the contract's seat numbers."""

def seat_names(players, game):
    """The name of each seat: the players' (a list of names, or how many:
    P1..Pn), then "Ban" for the Banished Cultist, the third seat of a
    2-player Sete Selos game (as the device names it)."""
    names = ["P%d" % (i + 1) for i in range(players)] if type(players) is int else list(players)
    if game == "sete-selos" and len(names) == 2:
        names.append("Ban")
    return names


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


def simulation(s):
    """`altar simulate`'s summary as a table: each seat's bot and win rate."""
    names = seat_names(s["players"], s["game"])
    bots = s["bots"] if len(s["bots"]) > 1 else s["bots"] * s["players"]
    lines = ["%s, %d players, %d games from seed %d%s" % (
        s["game"], s["players"], s["games"], s["seed"],
        ", %.1f games/s" % s["games_per_second"] if s["games_per_second"] else ""),
        "", "seat      bot        wins   win rate [95% interval]"]
    for i, w in enumerate(s["wins"]):
        lines.append("%-9s %-10s %5d  %s" % (names[i], bots[i] if i < len(bots) else "(dummy)",
                                             w, _rate(s["win_rate"][i], s["win_rate_95"][i])))
    lines.append("")
    lines.append("endings: " + ", ".join("%s %d" % (k, v) for k, v in sorted(s["endings"].items())))
    if s.get("options"):
        lines.append("options: %s" % s["options"])
    return "\n".join(lines)


def _label(options):
    return "; ".join("%s=%s" % (k, options[k]) for k in sorted(options)) or "(the defaults)"


def balance(result):
    """`altar balance`'s result as a table: each option set (its full label
    on a line of its own), its win rates by seat, and their change from the
    first set with a 95% interval."""
    names = seat_names(result["players"], result["game"])
    seats = len(result["sets"][0]["win_rate"])

    def row(label, cells):
        return ("  %-10s" % label + "".join("%-24s" % c for c in cells)).rstrip()
    lines = ["%s, %d players, bots %s, %d games a set from seed %d (the same seeds for each)"
             % (result["game"], result["players"], ",".join(result["bots"]), result["games"],
                result["seed"]), "", row("", names[:seats])]
    for i, r in enumerate(result["sets"]):
        lines.append(_label(r["options"]))
        lines.append(row("win rate", [_rate(x, ci) for x, ci in zip(r["win_rate"],
                                                                     r["win_rate_95"])]))
        lines.append(row("change", ["(baseline)"] * seats if i == 0 else [
            "%+.1f [%+.1f, %+.1f]" % (100 * d, 100 * lo, 100 * hi)
            for d, (lo, hi) in r["win_rate_change"]]))
    return "\n".join(lines)
