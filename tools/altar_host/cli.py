"""`altar`: Altar's host command. Subcommands: emulate (the device on this
computer), replay and demo (a session log's result, or its game line by
line), dump (a device's export back into a log), sheet (a game sheet of a
log), live (the device's game in a browser as it is played), deploy (a CIRCUITPY drive for a board), simulate and balance (games
with bots, and rule options compared)."""

import argparse
import io
import json
import os
import sys

import boards
from altar import log
from altar.jsonout import dumps
from altar_fw.ui import LANGS
from altar_host.files import save, wrote

# --board spells a profile with dashes (pico-display), as the emulator's
# flash files in the user's data folder are named.
BOARD_NAMES = tuple(p.replace("_", "-") for p in boards.PROFILES)
EXAMPLES = os.path.join(os.path.dirname(__file__), "examples")
BOTS_HELP = ("random, heuristic or search: one name for every seat, or one per seat "
             "separated by commas (the Banished of a 2-player Sete Selos game is no bot)")


def _version():
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("altar")
    except PackageNotFoundError:
        return "(not installed)"


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
    """Same contract as `python -m altar.replay` (with --json, or when the
    output is not a terminal), plus an optional rewrite."""
    session = _read(args.log)
    if session is None:
        return 2
    if args.write:
        text = io.StringIO()
        log.write(session, text)
        if not wrote("replay", args.write, save, args.write, text.getvalue()):
            return 2
    if args.json or not sys.stdout.isatty():
        print(dumps(session.view()))
    else:
        from altar_host import summary
        print(summary.game(session))
    return 0


def cmd_demo(args):
    """Replay a session log (the bundled example game by default), printing
    each line and the state after it, for a person to read."""
    from altar_host import summary
    path = args.log or os.path.join(EXAMPLES, "sete-selos-4p.jsonl")
    if _read(path) is None:          # refused as a whole first: nothing printed
        return 2
    with open(path, "rb") as f:
        lines = [ln for ln in f.read().decode().splitlines() if ln.strip()]
    session = log.load(lines[:1])
    names = summary.seat_names(session.rules.players, session.view()["game"])
    rows = []
    for n, line in enumerate(lines[1:], 2):
        session.do(json.loads(line))
        rows.append([n, line, summary.state(session.view(), names)])
    print(summary.render("Altar replays %s\nplayers: %s" % (os.path.basename(path),
                                                           ", ".join(session.rules.players)),
                         summary.table(["line", "action", "the state after it"], rows, (0,)),
                         "result: %s" % summary.result(session.view(), names)))
    return 0


def cmd_emulate(args):
    from altar_host.device import emulate
    return emulate.main(args)


def cmd_simulate(args):
    from altar_host.sim import simulate
    return simulate.main(args)


def cmd_balance(args):
    from altar_host.sim import simulate
    return simulate.main_balance(args)


def cmd_deploy(args):
    from altar_host import deploy
    return deploy.main(args)


def cmd_dump(args):
    """The lines between the export markers, checked by replaying them: to
    standard output, or to a file with a line on standard error saying what
    it holds."""
    from altar_host.device import console
    if args.sheet and args.output == "-":
        # Refused before listening: the export is read off the port only once.
        print("altar dump: --sheet needs -o LOG: the sheet is written beside the log",
              file=sys.stderr)
        return 2
    notes = []
    try:
        out = console.dump_to_log(console.read(args.dump), notes)
        for n in notes:
            print("altar dump: %s" % n, file=sys.stderr)
        lines = out.splitlines()
        session = log.load(lines)
    except (OSError, ValueError) as e:
        print("altar dump: %s" % e, file=sys.stderr)
        return 2
    except log.LogError as e:
        print("altar dump: the exported log is refused: %s" % e, file=sys.stderr)
        return 2
    if args.output == "-":
        sys.stdout.write(out)
        return 0
    if not wrote("dump", args.output, save, args.output, out):
        return 2
    from altar_host.summary import undone as undone_by
    undone = undone_by(len(lines), session)
    actions = len(lines) - 1 - undone       # the undo lines are not actions
    players = session.header["players"]
    print("altar dump: wrote %s: a %s game of %d players (%s), %d action%s%s"
          % (args.output, session.header["game"], len(players), ", ".join(players), actions,
             "" if actions == 1 else "s", ", %d undone" % undone if undone else ""),
          file=sys.stderr)
    if args.sheet:
        return write_sheet(args.output, None, args.lang)
    return 0


def cmd_live(args):
    from altar_host import live
    return live.main(args)


def live_options(p):
    """Where `altar live` (and `altar emulate --live`) serves its page."""
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to serve on; 0.0.0.0 serves the phones on the LAN too "
                        "(the URL and its QR code are printed)")
    p.add_argument("--port", type=int, default=8700, help="the TCP port (0: any free one)")


def cmd_sheet(args):
    return write_sheet(args.log, args.output, args.lang)


def write_sheet(path, out, lang):
    """The game sheet of the session log `path`, to `out` (None: beside the
    log); `altar sheet`, and `altar dump --sheet` once the log is written."""
    from altar_host import sheet
    got = _read(path, sheet.read)
    if got is None:
        return 2
    session, undone = got
    out = out or sheet.default_out(path)
    if not wrote("sheet", out, sheet.write, session, out, lang, undone):
        return 2
    print("altar sheet: wrote %s" % out)
    return 0


def _batch(p, games, what, printed):
    """The arguments simulate and balance share: which games, by which bots,
    how many, and where they run."""
    p.add_argument("--game", default="sete-selos", choices=("sete-selos", "fantasmagoria"))
    p.add_argument("--players", type=int, default=4, help="Sete Selos 2-4, Fantasmagória 3-4")
    p.add_argument("--bots", default="random", help=BOTS_HELP)
    p.add_argument("--games", type=int, default=games, help="%s (at least 1)" % what)
    p.add_argument("--seed", type=int, default=0, help="game i uses seed + i")
    p.add_argument("--first", default="random", metavar="SEAT|random",
                   help="Sete Selos' first player: seat 0..players-1 (0 is P1) in every game, or "
                        "random: each game draws it (the cards are shuffled the same either "
                        "way). Fantasmagória has none: its sacrifice chooses the first leader")
    p.add_argument("--json", action="store_true",
                   help="print %s as JSON (the default when not on a terminal)" % printed)
    p.add_argument("--jobs", type=int, default=1,
                   help="worker processes: more than 1 starts a local Dask cluster "
                        "(results do not change)")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="a running Dask scheduler, e.g. tcp://10.0.0.5:8786 (results do not change)")


def parser():
    """`altar`'s argument parser, each command's `fn` its default (the docs'
    tests parse every command they show with it)."""
    p = argparse.ArgumentParser(prog="altar", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version="altar " + _version())
    sub = p.add_subparsers(dest="cmd", required=True, metavar="COMMAND")

    def command(name, helptext):
        return sub.add_parser(name, help=helptext, description=helptext[0].upper() + helptext[1:],
                              formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    r = command("replay", "the state after a session log: in words on a terminal, else the "
                          "replay contract's JSON line")
    r.add_argument("log", help="a session log (JSON Lines)")
    r.add_argument("--json", action="store_true", help="print the contract's JSON line")
    r.add_argument("--write", metavar="FILE",
                   help="also write the log back out, undone actions dropped")
    r.set_defaults(fn=cmd_replay)
    d = command("demo", "replay a session log line by line, each with the state after it")
    d.add_argument("log", nargs="?", help="a session log (default: the bundled 4-player Sete "
                                          "Selos game)")
    d.set_defaults(fn=cmd_demo)
    e = command("emulate", "run the device's firmware on this computer")
    e.add_argument("--board", default="macropad", choices=BOARD_NAMES)
    e.add_argument("--nvm", metavar="FILE",
                   help="keep the flash in FILE, resumed on the next run; default: in a terminal, "
                        "the board's own file in your data folder (~/.local/share/altar/ on "
                        "Linux); with --keys or piped key words, none (an erased flash)")
    e.add_argument("--fresh", action="store_true",
                   help="start with an erased flash; the old one is moved to FILE.previous")
    e.add_argument("--players", metavar="NAMES",
                   help="the seats' names for new games, e.g. \"Ana,Bia,Caio,Duda\" "
                        "(ALTAR_PLAYERS on a board)")
    e.add_argument("--keys", metavar="FILE", help="press the key words in FILE")
    e.add_argument("--screens", metavar="DIR",
                   help="write a PNG of the screen at boot and after each key, interactive or not")
    e.add_argument("--monkey", type=int, metavar="N", help="N random presses")
    e.add_argument("--power-cut", type=float, metavar="P",
                   help="cut the power during a flash write with probability P, then reboot")
    e.add_argument("--seed", type=int, default=0, help="for --monkey, --power-cut, game seeds")
    e.add_argument("--lang", default="pt", choices=LANGS,
                   help="the device's language (ALTAR_LANG on a board)")
    e.add_argument("--export", metavar="FILE", help="write the session log from the journal at exit")
    e.add_argument("--no-reverse", action="store_true",
                   help="in a terminal too small for the pixels, mark what the screen inverts "
                        "with > (a row) and [ ] (columns) instead of reverse video (as where "
                        "TERM is dumb or unset)")
    e.add_argument("--serial-log", metavar="FILE",
                   help="append what the device prints on its serial console (Menu > Export, "
                        "the e key) to FILE, for `altar dump FILE`; default: serial.log in your "
                        "data folder in a terminal (where the e key's exports go too, in "
                        "exports/), standard output with --keys or piped key words")
    e.add_argument("--window", action="store_true",
                   help="a desktop window that looks like the board: its panel, its buttons "
                        "(click; a long click holds; the wheel turns the MacroPad's knob) and "
                        "lights; the keyboard as in the terminal")
    e.add_argument("--live", action="store_true",
                   help="also show the game in a browser as `altar live` does (--host, --port)")
    live_options(e)
    e.set_defaults(fn=cmd_emulate)
    u = command("dump", "read a device's serial export back into a session log")
    u.add_argument("dump", help="the captured serial text, or a serial port such as /dev/ttyACM0")
    u.add_argument("-o", "--output", default="-", metavar="LOG",
                   help="write the log to LOG and say on standard error what it holds; "
                        "-: the log's lines alone on standard output")
    u.add_argument("--sheet", action="store_true",
                   help="also write the game sheet beside the log (as `altar sheet LOG`); "
                        "needs -o")
    u.add_argument("--lang", default="pt", choices=LANGS,
                   help="the sheet's language, in the device's words")
    u.set_defaults(fn=cmd_dump)
    t = command("sheet", "a game sheet of a session log: one HTML page, its pictures "
                         "embedded and also written beside it as PNGs")
    t.add_argument("log", help="a session log (JSON Lines), as `altar dump` writes it")
    t.add_argument("-o", "--output", metavar="OUT",
                   help="the page (default: LOG without .jsonl, plus .html); its pictures go "
                        "beside it as OUT without .html, plus -NAME.png (Sete Selos: "
                        "board-series-N, board-end, insanity; Fantasmagória: track; Ritos "
                        "Ancestrais: scores)")
    t.add_argument("--lang", default="pt", choices=LANGS,
                   help="the sheet's language, in the device's words (default: pt)")
    t.set_defaults(fn=cmd_sheet)
    lv = command("live", "the device's game live in a browser, read-only: for the table's "
                         "big screen and the phones around it")
    lv.add_argument("source", help="a serial port (/dev/ttyACM0, COM3: asked for the whole "
                                   "game at each connection), or a file the console is "
                                   "captured to as it grows (altar-serial.log)")
    lv.add_argument("--lang", default="pt", choices=LANGS, help="the page's language")
    live_options(lv)
    lv.set_defaults(fn=cmd_live)
    m = command("simulate", "play whole games with bots and summarise them")
    _batch(m, 1000, "games to play", "the summary")
    m.add_argument("--chunk", type=int, metavar="N",
                   help="games a task (default: about 4 tasks a worker, at most 2000)")
    m.add_argument("--option", action="append", metavar="KEY=VALUE", help="a rule option (JSON value)")
    m.add_argument("--logs", metavar="DIR", help="write each game's session log")
    m.add_argument("--report", metavar="DIR",
                   help="write report.html, its PNG plots and summary.json there")
    m.set_defaults(fn=cmd_simulate)
    b = command("balance", "compare rule option sets on the same seeds")
    _batch(b, 2000, "games a set", "the result")
    b.add_argument("--set", action="append", required=True, metavar="K=V;K=V",
                   help="an option set (repeat; the first is the baseline; '' is the defaults)")
    b.add_argument("--report", metavar="DIR",
                   help="write balance.html, its forest plots (by seat and by position) and balance.json there")
    b.set_defaults(fn=cmd_balance)
    p_ = command("deploy", "lay out a CIRCUITPY drive for a board")
    p_.add_argument("dir", help="the CIRCUITPY drive (or any folder)")
    p_.add_argument("--create", action="store_true",
                    help="make DIR (and its parents) if it does not exist; without it a missing "
                         "DIR is refused, as a drive not mounted is")
    p_.add_argument("--board", required=True, choices=BOARD_NAMES)
    mpy = p_.add_mutually_exclusive_group()
    mpy.add_argument("--mpy-cross", metavar="PATH",
                     help="CircuitPython's mpy-cross (checked); default: $ALTAR_MPY_CROSS, "
                          "then mpy-cross on PATH if it is CircuitPython's")
    mpy.add_argument("--py", action="store_true",
                     help="ship .py sources, not .mpy (for debugging on the board)")
    p_.add_argument("--lang", choices=LANGS,
                    help="set ALTAR_LANG to this language; without it the drive's setting is "
                         "kept, or pt added when there is none")
    p_.add_argument("--players", metavar="NAMES",
                    help="set ALTAR_PLAYERS to the seats' names, seat 1 first, separated by "
                         "commas (\"Ana,Bia,Caio,Duda\": at most 4, each at most 10 "
                         "characters, fewer with many accents), which the device shows "
                         "instead of P1-P4; \"\" for "
                         "none; without it the drive's setting is kept, and none is added")
    p_.set_defaults(fn=cmd_deploy)
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())
