"""`altar emulate`: the emulated device, interactive or scripted.

In a terminal it draws the screen with block characters (2x2 pixels a
character) and the pixels as coloured dots, or, when the terminal is too
small for that, the screen's text rows: what the device inverts (the title
bar, the selected row, revealed Elders...) in reverse video, or, where the
terminal has none (TERM dumb or unset, or --no-reverse), marked: `>` before
a row inverted whole, `[` `]` around inverted columns; the big number after
its label ("Trunfo 7"). It reads keys: arrows = prev/next, Enter = ok,
Backspace/Esc = back, u = undo, 1-7 = the value keys (boards that have
them), e = export, q = quit. The footer shows the keys this board has.
What the device prints on its serial console (the export, between its
markers) goes to serial.log in the user's data folder (or --serial-log
FILE), as a terminal on a real board would capture it, ready for `altar
dump FILE`; an export (e, or Menu > Export) also becomes a session log of
its own, exports/altar-GAME-DATE-TIME.jsonl there; the status line says
where.

As a board keeps its flash when unplugged, the emulator keeps each board's
flash in the user's data folder (or --nvm FILE) and resumes the game from it;
--fresh moves the old one aside and starts with an erased flash.

Without a terminal it reads key words from standard input. Key words (also
for --keys FILE): prev next ok back undo 1..7, wait:MS, reboot, export; #
starts a comment. The serial console then goes to standard output (or
--serial-log), then the last screen's text.
"""

import os
import random
import re
import select
import shlex
import shutil
import sys
import time

from altar import log
from altar_fw.journal import END, SYNC
from altar_host.device.console import dump_to_log
from altar_host.files import cannot, save, wrote
from altar_host.device.emulator import WORDS, Device, FlashNVM
from altar_fw import inputs       # the firmware's, on the path the emulator set

QUAD = " ▘▝▀▖▌▞▛▗▚▐▜▄▙▟█"
KEY_WORDS = "prev next ok back undo 1..7 wait:MS reboot export"
# Terminal keys -> key words (arrows as sent by terminals in normal and application mode).
TERMINAL = {"\x1b[A": "prev", "\x1b[D": "prev", "\x1bOA": "prev", "\x1bOD": "prev",
            "\x1b[B": "next", "\x1b[C": "next", "\x1bOB": "next", "\x1bOC": "next",
            "\r": "ok", "\n": "ok", " ": "ok", "\x7f": "back", "\x08": "back", "\x1b": "back",
            "u": "undo"}
_ESCAPE = re.compile(r"\x1b(\[[0-9;]*[A-Za-z~]|O[A-Za-z])")
_SGR = re.compile(r"\x1b\[[0-9;]*m")


def split_keys(data):
    """The keys in a chunk of terminal input (several arrive together when
    typed fast, pasted, sent by tmux or repeated by a held key): an escape
    sequence whole, any other character alone."""
    keys = []
    i = 0
    while i < len(data):
        m = _ESCAPE.match(data, i) if data[i] == "\x1b" else None
        end = m.end() if m else i + 1
        keys.append(data[i:end])
        i = end
    return keys


def footer(dev, reverse=True):
    """This board's keys, as the terminal gives them: each word with the
    board's button for it where the button says something else (held, where
    it is a long press); the value keys only on a board that has them.
    Without reverse video, what marks inverted text too."""
    p = dev.profile

    def button(word):
        want = WORDS[word]
        for k, (short, long) in enumerate(p.KEYMAP):
            if short == want:
                return p.KEYS[k]
        for k, (short, long) in enumerate(p.KEYMAP):
            if long == want:
                return "hold " + p.KEYS[k]
        if dev.encoder and word in ("prev", "next"):
            return "knob"
        return None
    parts = []
    for keys, words in (("arrows", ("prev", "next")), ("Enter", ("ok",)),
                        ("Backspace", ("back",)), ("u", ("undo",))):
        legends = [button(w) for w in words]
        if legends == list(words):        # the board's keys say so themselves
            parts.append("%s: %s" % (keys, "/".join(words)))
        else:
            parts.append("%s: %s (%s)" % (keys, "/".join(words),
                                          "/".join(b for b in legends if b)))
    if any(short >= inputs.VALUE for short, _ in p.KEYMAP):
        parts.append("1-7: values")
    if not reverse:
        parts.append(">row [cols]: inverted")
    parts += ["e: export", "q: quit"]
    return "  ".join(parts)


def blocks(dev):
    """The screen in quadrant blocks (2x2 pixels a character)."""
    d = dev.display
    out = []
    for y in range(0, d.height, 2):
        row = []
        for x in range(0, d.width, 2):
            q = 0
            for bit, (dx, dy) in enumerate(((0, 0), (1, 0), (0, 1), (1, 1))):
                if x + dx < d.width and y + dy < d.height and sum(d.rgb(x + dx, y + dy)) > 300:
                    q |= 1 << bit
            row.append(QUAD[q])
        out.append("".join(row))
    return out


def text_rows(dev):
    """The screen's text rows as its canvas shows them, each (text,
    inverted): `inverted` a bit per column, -1 for the whole row (the title
    bar, the selected line). The big number, drawn large at the right of
    rows 1-3, is written after the text of its middle row, which is its
    label there ("Trunfo 7")."""
    c = dev.app.canvas
    rows = [(text[:c.cols], inv) for text, inv in c.shown]
    if c.big is not None:
        r = c.big_group.y // c.gh + c.big_group.scale // 2
        text, inv = rows[r]
        number = " %d" % c.big
        rows[r] = (text.rstrip()[:c.cols - len(number)] + number, inv)
    return rows


def reversed_video(text, inv):
    """text with its inverted columns in reverse video (SGR 7 ... 27)."""
    out = ""
    on = False
    for c, ch in enumerate(text):
        want = inv == -1 or bool(inv >> c & 1)
        if want != on:
            out += "\x1b[7m" if want else "\x1b[27m"
            on = want
        out += ch
    return out + ("\x1b[27m" if on else "")


def bracketed(text, inv):
    """text with each run of inverted columns between `[` and `]`, for a
    terminal without reverse video. A bracket takes the blank column beside
    its run, so a table's columns stay in place; one blank between two runs
    shows `|`; beside a letter it is inserted."""
    out = ""
    closed = None        # where out's last `]` took a blank
    for c, ch in enumerate(text + " "):
        here = bool(inv >> c & 1) and c < len(text)
        before = c > 0 and bool(inv >> (c - 1) & 1)
        if here and not before:
            if closed == len(out) - 1:
                out = out[:-1] + "|"
            elif out.endswith(" "):
                out = out[:-1] + "["
            else:
                out += "["
        elif before and not here:
            if ch == " ":
                out += "]"
                closed = len(out) - 1
                continue
            out += "]"
        out += ch
    return out[:-1] if out.endswith(" ") else out


def boxed(dev, reverse=True):
    """The screen's text rows in a frame: the screen for a small terminal.
    What the device inverts is in reverse video; without it (`reverse`
    False), a row inverted whole has `>` before the frame and inverted
    columns are bracketed (`bracketed`). The title bar, always inverted,
    is the frame's first row, unmarked."""
    rows = text_rows(dev)
    w = dev.app.canvas.cols
    if reverse:
        body = [reversed_video(text.ljust(w), inv) for text, inv in rows]
        return ["┌" + "─" * w + "┐"] + ["│%s│" % b for b in body] + ["└" + "─" * w + "┘"]
    body = [text.ljust(w) if inv == -1 else bracketed(text.ljust(w), inv) for text, inv in rows]
    w = max(len(b) for b in body)        # an inserted bracket widens the frame
    marks = [">" if r and inv == -1 else " " for r, (_, inv) in enumerate(rows)]
    return ([" ┌" + "─" * w + "┐"] + ["%s│%-*s│" % (m, w, b) for m, b in zip(marks, body)]
            + [" └" + "─" * w + "┘"])


def visible(line):
    """How many columns a line takes on the terminal (escapes take none)."""
    return len(_SGR.sub("", line))


def frame(dev, cols, rows, status="", reverse=True):
    """What the terminal shows, fitted to cols x rows: the pixels in blocks
    if they fit, else the text rows, else how much room is needed."""
    tail = ["pixels " + "".join("\x1b[38;2;%d;%d;%dm●\x1b[0m" % (c >> 16, c >> 8 & 255, c & 255)
                                for c in dev.lit())]
    help_lines = _wrap(footer(dev, reverse), cols)
    tail += [status[i:i + cols] for i in range(0, len(status), cols)]
    for screen in (blocks(dev), boxed(dev, reverse)):
        width = max(visible(r) for r in screen)
        if width <= cols and len(screen) + len(tail) + len(help_lines) <= rows:
            return "\n".join(screen + tail + help_lines)
    need = boxed(dev, reverse)
    return ("The terminal is too small for this board's screen: %d x %d now, at least %d x %d "
            "needed. Make the window larger (q quits)."
            % (cols, rows, max(visible(r) for r in need), len(need) + len(tail) + len(help_lines)))


def _wrap(text, cols):
    lines = [""]
    for part in text.split("  "):
        if lines[-1] and len(lines[-1]) + 2 + len(part) > cols:
            lines.append("")
        lines[-1] += ("  " if lines[-1] else "") + part
    return lines


def words(text):
    for line in text.splitlines():
        for w in line.split("#")[0].split():
            yield w


def do_word(dev, w):
    """One key word; ValueError says why a word is not one."""
    if w.startswith("wait:"):
        if not w[5:].isdigit():
            raise ValueError("%r: wait:MS takes milliseconds, e.g. wait:500" % w)
        dev.tick(int(w[5:]))
    elif w == "reboot":
        dev.boot()
    elif w == "export":
        dev.app.store.export()       # as Menu > Export: the log between markers, on serial
    elif w in WORDS or w.isdigit():
        try:
            dev.press(w)
        except KeyError as e:
            raise ValueError(e.args[0])
    else:
        raise ValueError("unknown key word %r; the key words are: %s" % (w, KEY_WORDS))


def monkey(dev, n, rng):
    """n random presses of random keys, held for random times."""
    keys = len(dev.profile.KEYMAP)
    for _ in range(n):
        if dev.encoder and rng.random() < 0.2:
            dev.encoder.turn(rng.choice((-1, 1)))
            dev.tick(rng.randrange(5, 200))
            continue
        dev.key(rng.randrange(keys), rng.choice((30, 80, 200, 700, 1500)))
        dev.tick(rng.randrange(0, 300))


def in_data_folder(name):
    """`name` in the user's data folder (~/.local/share/altar on Linux),
    made if need be: what the emulator writes unasked goes there, not into
    whatever folder it was started in (a clone of this repository)."""
    import platformdirs
    folder = platformdirs.user_data_dir("altar", appauthor=False)
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, name)


def kept_flash(board):
    """Where the emulator keeps a board's flash between runs."""
    return in_data_folder(board + ".flash")


class Serial:
    """Where the device's serial console goes: a file (appended to), or a
    stream, and `also` (altar live's feed); `take(dev)` moves what the device
    printed there and returns it."""

    def __init__(self, path=None, stream=None, also=None):
        self.path = path
        self.stream = stream
        self.also = also

    def take(self, dev):
        text = "".join(dev.serial)
        if not text:
            return ""
        del dev.serial[:]
        if self.also:
            self.also(text)
        if self.path:
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(text)
        else:
            self.stream.write(text)
        return text


def save_export(text, folder=None):
    """The session log of an export as a new file in `folder` (by default
    `exports` in the user's data folder), named after its game and the time
    (altar-sete-selos-20261203-2310.jsonl); its path."""
    out = dump_to_log(text)
    game = log.load(out.splitlines()).header["game"]      # what the device exports must replay
    folder = folder or in_data_folder("exports")
    os.makedirs(folder, exist_ok=True)
    stem = os.path.join(folder, "altar-%s-%s" % (game, time.strftime("%Y%m%d-%H%M")))
    path = stem + ".jsonl"
    n = 1
    while os.path.exists(path):
        n += 1
        path = "%s-%d.jsonl" % (stem, n)
    with open(path, "w", encoding="utf-8") as f:
        f.write(out)
    return path


def typed(dev, chunk, serial, shot, folder=None):
    """Handle a chunk of terminal input, key by key: None for q (quit), else
    a status line to show ("" for none new). An export's log goes to a file
    in `folder` too (save_export's by default)."""
    status = ""
    for k in split_keys(chunk):
        if k == "q":
            return None
        if k == "e":
            if dev.app.ui.session is None:
                status = "No game to export yet"
                continue
            dev.app.store.export()
            w = "export"
        else:
            w = TERMINAL.get(k, k if k.isdigit() else None)
            if not w or not dev.can(w):
                continue
            dev.press(w)
        shot(w)
        text = serial.take(dev)
        if END not in text:
            continue
        try:
            status = "Exported: %s (and on the serial console, %s)" % (save_export(text, folder),
                                                                       serial.path)
        except (ValueError, log.LogError) as e:     # e.g. a journal an older Altar wrote
            status = "The export (on the serial console, %s) does not replay: %s" % (serial.path, e)
        except OSError as e:                        # the folder is not writable
            status = "Cannot write the export (it is on the serial console, %s): %s" % (
                serial.path, e.strerror)
    return status


def window():
    """(columns, rows) of the terminal now, as it says (not $COLUMNS)."""
    try:
        cols, rows = os.get_terminal_size(sys.stdout.fileno())
    except OSError:
        cols = rows = 0
    return (cols, rows) if cols and rows else tuple(shutil.get_terminal_size())


def reverse_video(args):
    """Whether to show inverted text in reverse video: not with
    --no-reverse, nor on a terminal that has none (TERM dumb, or unset)."""
    return not args.no_reverse and os.environ.get("TERM", "") not in ("", "dumb")


def interactive(dev, serial, shot, status="", reverse=True):
    import termios
    import tty
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    shown = None
    try:
        tty.setcbreak(fd)
        while True:
            cols, rows = window()
            text = frame(dev, cols, rows, status, reverse)
            if text != shown:            # drawn again when it changed, or the window did
                sys.stdout.write("\x1b[H\x1b[2J" + text)
                sys.stdout.flush()
                shown = text
            r, _, _ = select.select([fd], [], [], 0.1)
            if not r:
                dev.tick(100)     # effects play on
                continue
            got = typed(dev, os.read(fd, 64).decode(errors="replace"), serial, shot)
            if got is None:
                return
            status = got or status
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
        sys.stdout.write("\n")


def windowed(dev, serial, shot, title):
    """The emulator in a desktop window (altar_host.device.window) until it is
    closed or q is typed: the keyboard as in the terminal, the mouse on the
    board's buttons. Raises window.Refused without a display."""
    from altar_host.device import window
    win = window.Window(dev, title, lambda chunk: typed(dev, chunk, serial, shot),
                        lambda: serial.take(dev))
    try:
        while win.step():
            pass
    finally:
        win.close()


def keep_serving():
    """After a script: the page stays up until Ctrl-C. The line is inside the
    try, as a Ctrl-C sent on reading it may come before the next statement;
    short sleeps, as the kernel may hand the signal to the server's thread
    and leave this one asleep."""
    try:
        print("altar emulate: the script is over; the page stays up (Ctrl-C stops)",
              file=sys.stderr)
        while True:
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass


def kept(dev, args, path, aside):
    """What quitting says: where the game is kept and how to take it up."""
    again = "altar emulate --board " + args.board
    if args.nvm:
        again += " --nvm " + shlex.quote(path)
    if args.lang != "pt":
        again += " --lang " + args.lang
    said = ("The game is kept in %s: `%s` resumes it (--fresh starts over)." % (path, again)
            if dev.app.ui.session is not None else "No game was started; the flash is %s." % path)
    if aside:
        said += " The flash before --fresh is in %s." % aside
    return said


def main(args):
    try:
        return run(args)
    except OSError as e:
        # a file or folder the user named (--screens, --serial-log, --nvm)
        # cannot be written; the flash holds the game up to there
        cannot("emulate", args.screens or args.serial_log or args.nvm, e)
        return 2


def run(args):
    scripted = args.keys or args.monkey or not (sys.stdin.isatty() or args.window)
    script = ""
    if args.keys:
        try:
            with open(args.keys, encoding="utf-8") as f:
                script = f.read()
        except (OSError, UnicodeDecodeError) as e:
            print("altar emulate: cannot read %s: %s" % (args.keys, getattr(e, "strerror", e)),
                  file=sys.stderr)
            return 2
    elif scripted and not args.monkey:
        script = sys.stdin.read()
    path = args.nvm or (None if scripted else kept_flash(args.board))
    aside = None
    if path:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        if args.fresh and os.path.exists(path):
            aside = path + ".previous"
            os.replace(path, aside)       # one step back stays possible
    nvm = FlashNVM(path)
    rng = random.Random(args.seed)
    if args.power_cut:
        nvm.chaos = (args.power_cut * 100, rng)
    # Pixels are captured only when someone looks: PNG frames or the terminal.
    dev = Device(args.board, nvm, seed=args.seed, capture=bool(args.screens) or not scripted,
                 lang=args.lang, players=args.players or "")
    frames = 0

    def shot(name):
        nonlocal frames
        if args.screens:
            frames += 1
            with open(os.path.join(args.screens, "%04d-%s.png" % (frames, name)), "wb") as f:
                f.write(dev.png())

    if args.screens:
        os.makedirs(args.screens, exist_ok=True)
        shot("boot")
    mirror = None
    if args.live:
        from altar_host import live
        try:
            mirror = live.Thread(args.lang, args.host, args.port)
        except OSError as e:
            print("altar emulate: cannot serve on %s:%d: %s" % (args.host, args.port,
                                                               e.strerror), file=sys.stderr)
            return 2
        url = live.announce(mirror.server, sys.stderr)
        dev.console.send(SYNC)      # as altar live asks a board: the game so far
        dev.tick(1)
    also = mirror.feed if mirror else None
    if scripted:
        serial = Serial(args.serial_log, sys.stdout, also)
        for n, w in enumerate(words(script)):
            try:
                do_word(dev, w)
            except ValueError as e:
                print("altar emulate: key word %d: %s" % (n + 1, e), file=sys.stderr)
                return 2
            serial.take(dev)
            shot(w.replace(":", ""))
        if args.monkey:
            monkey(dev, args.monkey, rng)
            shot("monkey")
        if not args.monkey:
            print("\n".join(dev.text()))
        if mirror:
            keep_serving()
    elif args.window:
        from altar_host.device.window import Refused
        try:
            windowed(dev, Serial(args.serial_log or in_data_folder("serial.log"), also=also),
                     shot, path)
        except Refused as e:
            print("altar emulate: no display for a window (%s); without --window it runs in "
                  "this terminal" % e, file=sys.stderr)
            return 2
        print(kept(dev, args, path, aside))
    else:
        resumed = dev.app.ui.session is not None
        status = "%s %s" % ("Resumed from" if resumed else "The flash is kept in", path)
        if mirror:
            status = "Live: %s; %s" % (url, status)
        interactive(dev, Serial(args.serial_log or in_data_folder("serial.log"), also=also),
                    shot, status, reverse_video(args))
        print(kept(dev, args, path, aside))
    if mirror:
        mirror.close()
    if args.power_cut:
        print("power cuts: %d" % dev.cuts, file=sys.stderr)
    if args.export:
        text = dev.export()
        if not text:
            print("no game to export", file=sys.stderr)
            return 0
        log.load(text.splitlines())      # what the device exports must replay
        if not wrote("emulate", args.export, save, args.export, text):
            return 2
    return 0
