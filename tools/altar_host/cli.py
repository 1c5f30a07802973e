"""`altar`: the host command. Subcommands: replay, demo."""

import argparse
import json
import os
import sys

from altar import log
from altar.core import Rejected
from altar.jsonout import dumps

EXAMPLES = os.path.join(os.path.dirname(__file__), "examples")


def _load(path):
    with open(path, "rb") as f:
        return log.load(f)


def cmd_replay(args):
    """Same contract as `python -m altar.replay`, plus an optional rewrite."""
    try:
        session = _load(args.log)
    except OSError as e:
        print("cannot read %s: %s" % (args.log, e.strerror), file=sys.stderr)
        return 2
    except log.LogError as e:
        print(e, file=sys.stderr)
        return 2
    if args.write:
        with open(args.write, "w", encoding="utf-8") as f:
            log.write(session, f)
    print(dumps(session.view()))
    return 0


def _summary(view):
    """One line of the state a person follows, per game."""
    g = view["game"]
    if g == "sete-selos":
        parts = ["ritual %d" % view["ritual"], "leader %d" % view["leader"],
                 "insanity %s" % view["insanity"],
                 "sealed %s" % [e["value"] for e in view["elders"] if not e["revealed"]]]
        if view["awaiting"]:
            parts.append("awaiting %s" % dumps(view["awaiting"]))
    elif g == "fantasmagoria":
        parts = ["round %d" % view["round"], "trump %s" % view["trump"],
                 "leader %s" % view["leader"],
                 "possessed %s" % [s for s, p in enumerate(view["possessed"]) if p],
                 "scares %s" % view["scares"]]
    else:
        parts = ["turn %d" % view["turn"], "scores %s" % view["scores"]]
        if view["final"]:
            parts.append("final round")
    return ", ".join(parts)


def _result(view):
    g = view["game"]
    if g == "sete-selos":
        return "by %s; power: %s" % (view["reason"], view["power"])
    if g == "fantasmagoria":
        return "scares: %s%s" % (view["scares"], "; the spirit broke a tie" if view["spirit"] else "")
    return "scores: %s; cards in hand: %s" % (view["scores"], view["hands"])


def cmd_demo(args):
    """Replay a session log (the bundled example game by default) step by
    step, for a person to read."""
    path = args.log or os.path.join(EXAMPLES, "sete-selos-4p.jsonl")
    with open(path, "rb") as f:
        lines = [ln for ln in f.read().decode().splitlines() if ln.strip()]
    session = log.load(lines[:1])
    print("Altar replays %s" % os.path.basename(path))
    print("players: %s" % ", ".join(session.rules.players))
    for n, line in enumerate(lines[1:], 2):
        try:
            session.do(json.loads(line))
        except (ValueError, Rejected) as e:
            print("line %d: %s" % (n, e), file=sys.stderr)
            return 2
        print("%3d %-48s %s" % (n, line, _summary(session.view())))
    v = session.view()
    names = [session.rules.players[s] if s < len(session.rules.players) else "Banished"
             for s in v["winners"]]
    print("result: %s; winners: %s; %s" % (v["status"], ", ".join(names) or "none", _result(v)))
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(prog="altar", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("replay", help="print the state after a session log (the replay contract)")
    r.add_argument("log")
    r.add_argument("--write", metavar="FILE",
                   help="also write the log back out, undone actions dropped")
    r.set_defaults(fn=cmd_replay)
    d = sub.add_parser("demo", help="replay the bundled example game, step by step")
    d.add_argument("log", nargs="?")
    d.set_defaults(fn=cmd_demo)
    args = p.parse_args(argv)
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())
