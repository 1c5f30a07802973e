"""`altar`: the host command. Subcommands: emulate, replay, demo, dump, sheet, deploy, simulate."""

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


def _read(path, read=_load):
    """read(path) (a session log), or None once the reason it cannot is
    printed: the file's, or the replay's `line N: reason`."""
    try:
        return read(path)
    except OSError as e:
        print("cannot read %s: %s" % (path, e.strerror), file=sys.stderr)
    except log.LogError as e:
        print(e, file=sys.stderr)
    return None


def cmd_replay(args):
    """Same contract as `python -m altar.replay`, plus an optional rewrite."""
    session = _read(args.log)
    if session is None:
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


def cmd_emulate(args):
    from altar_host import emulate
    return emulate.main(args)


def cmd_simulate(args):
    from altar_host import simulate
    return simulate.main(args)


def cmd_balance(args):
    from altar_host import simulate
    return simulate.main_balance(args)


def cmd_deploy(args):
    from altar_host import deploy
    return deploy.main(args)


def cmd_dump(args):
    """The lines between the export markers, checked by replaying them."""
    from altar_fw.journal import END
    from altar_host.emulator import dump_to_log
    try:
        if args.dump.startswith("/dev/"):
            import serial  # pyserial, installed with Blinka
            with serial.Serial(args.dump, 115200, timeout=30) as port:
                text = ""
                while END not in text:
                    chunk = port.readline().decode("utf-8", "replace")
                    if not chunk:
                        break
                    text += chunk
        else:
            with open(args.dump, encoding="utf-8", errors="replace") as f:
                text = f.read()
        out = dump_to_log(text)
        log.load(out.splitlines())
    except (OSError, ValueError) as e:
        print("altar dump: %s" % e, file=sys.stderr)
        return 2
    except log.LogError as e:
        print("altar dump: the exported log is refused: %s" % e, file=sys.stderr)
        return 2
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(out)
    if args.sheet:
        return cmd_sheet(argparse.Namespace(log=args.output, output=None, lang=args.lang))
    return 0


def cmd_sheet(args):
    from altar_host import sheet
    got = _read(args.log, sheet.read)
    if got is None:
        return 2
    session, undone = got
    out = args.output or sheet.default_out(args.log)
    try:
        sheet.write(session, out, args.lang, undone)
    except OSError as e:
        print("cannot write %s: %s" % (e.filename, e.strerror), file=sys.stderr)
        return 2
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
    e = sub.add_parser("emulate", help="run the device's firmware on this computer")
    e.add_argument("--board", default="macropad",
                   choices=("macropad", "pico-display", "feather-oled"))
    e.add_argument("--nvm", metavar="FILE", help="keep the flash journal in FILE (kept across runs)")
    e.add_argument("--keys", metavar="FILE", help="press the key words in FILE")
    e.add_argument("--screens", metavar="DIR", help="write a PNG of the screen after each key")
    e.add_argument("--monkey", type=int, metavar="N", help="N random presses")
    e.add_argument("--power-cut", type=float, metavar="P",
                   help="cut the power during a flash write with probability P, then reboot")
    e.add_argument("--seed", type=int, default=0, help="for --monkey, --power-cut, game seeds")
    e.add_argument("--lang", default="pt", choices=("pt", "en"),
                   help="the device's language (ALTAR_LANG on a board)")
    e.add_argument("--export", metavar="FILE", help="write the session log from the journal at exit")
    e.set_defaults(fn=cmd_emulate)
    u = sub.add_parser("dump", help="read a device's serial export back into a session log")
    u.add_argument("dump", help="the captured serial text, or a serial port such as /dev/ttyACM0")
    u.add_argument("-o", "--output", required=True, metavar="LOG")
    u.add_argument("--sheet", action="store_true",
                   help="also write the game sheet beside the log (as `altar sheet LOG`)")
    u.add_argument("--lang", default="pt", choices=("pt", "en"),
                   help="the sheet's language, in the device's words (default: pt)")
    u.set_defaults(fn=cmd_dump)
    t = sub.add_parser("sheet", help="a game sheet of a session log: one HTML page, its pictures "
                                     "embedded and also written beside it as PNGs")
    t.add_argument("log", help="a session log (JSON Lines), as `altar dump` writes it")
    t.add_argument("-o", "--output", metavar="OUT",
                   help="the page (default: LOG without .jsonl, plus .html); its pictures go "
                        "beside it as OUT without .html, plus -NAME.png (Sete Selos: "
                        "board-series-N, board-end, insanity; Fantasmagória: track; Ritos "
                        "Ancestrais: scores)")
    t.add_argument("--lang", default="pt", choices=("pt", "en"),
                   help="the sheet's language, in the device's words (default: pt)")
    t.set_defaults(fn=cmd_sheet)
    m = sub.add_parser("simulate", help="play whole games with bots and summarise them")
    m.add_argument("--game", default="sete-selos", choices=("sete-selos", "fantasmagoria"))
    m.add_argument("--players", type=int, default=4)
    m.add_argument("--bots", default="random",
                   help="one bot for all seats, or one per seat: random, heuristic")
    m.add_argument("--games", type=int, default=1000)
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--jobs", type=int, default=1,
                   help="worker processes: more than 1 starts a local Dask cluster "
                        "(results do not change)")
    m.add_argument("--cluster", metavar="ADDRESS",
                   help="a running Dask scheduler, e.g. tcp://10.0.0.5:8786 (results do not change)")
    m.add_argument("--chunk", type=int, metavar="N",
                   help="games a task (default: about 4 tasks a worker, at most 2000)")
    m.add_argument("--option", action="append", metavar="KEY=VALUE", help="a rule option (JSON value)")
    m.add_argument("--logs", metavar="DIR", help="write each game's session log")
    m.add_argument("--report", metavar="DIR",
                   help="write report.html, its PNG plots and summary.json there")
    m.set_defaults(fn=cmd_simulate)
    b = sub.add_parser("balance", help="compare rule option sets on the same seeds")
    b.add_argument("--game", default="sete-selos", choices=("sete-selos", "fantasmagoria"))
    b.add_argument("--players", type=int, default=4)
    b.add_argument("--bots", default="random")
    b.add_argument("--games", type=int, default=2000)
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("--jobs", type=int, default=1, help="worker processes, as for simulate")
    b.add_argument("--cluster", metavar="ADDRESS", help="a running Dask scheduler")
    b.add_argument("--set", action="append", required=True, metavar="K=V;K=V",
                   help="an option set (repeat; the first is the baseline; '' is the defaults)")
    b.add_argument("--report", metavar="DIR",
                   help="write balance.html, its forest plot and balance.json there")
    b.set_defaults(fn=cmd_balance)
    p_ = sub.add_parser("deploy", help="lay out a CIRCUITPY drive for a board")
    p_.add_argument("dir", help="the CIRCUITPY drive (or any folder)")
    p_.add_argument("--board", required=True, choices=("macropad", "pico-display", "feather-oled"))
    mpy = p_.add_mutually_exclusive_group()
    mpy.add_argument("--mpy-cross", metavar="PATH",
                     help="CircuitPython's mpy-cross (checked); default: $ALTAR_MPY_CROSS, "
                          "then mpy-cross on PATH if it is CircuitPython's")
    mpy.add_argument("--py", action="store_true",
                     help="ship .py sources, not .mpy (for debugging on the board)")
    p_.add_argument("--lang", choices=("pt", "en"), default="pt",
                    help="ALTAR_LANG, if settings.toml does not set it (default: pt)")
    p_.set_defaults(fn=cmd_deploy)
    args = p.parse_args(argv)
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())
