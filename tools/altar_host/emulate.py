"""`altar emulate`: the emulated device, interactive or scripted.

In a terminal it draws the screen with block characters and the pixels as
coloured blocks, and reads keys: arrows = prev/next, Enter = ok,
Backspace/Esc = back, u = undo, 1-7 = the MacroPad's value keys, e = export,
q = quit. Without a terminal it reads key words from standard input. Key
words (also for --keys FILE): prev next ok back undo 1..7, wait:MS, reboot,
export; # starts a comment.
"""

import os
import random
import select
import sys

from altar import log
from altar_host.emulator import Device, FlashNVM

HELP = "arrows: prev/next  Enter: ok  Backspace: back  u: undo  1-7: values  e: export  q: quit"
QUAD = " ▘▝▀▖▌▞▛▗▚▐▜▄▙▟█"


def draw(dev):
    """The screen in quadrant blocks (2x2 pixels a character), then the pixels."""
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
    px = "".join("\x1b[38;2;%d;%d;%dm●\x1b[0m" % (c >> 16, c >> 8 & 255, c & 255)
                 for c in dev.lit())
    out.append("pixels " + px)
    return "\n".join(out)


def words(text):
    for line in text.splitlines():
        for w in line.split("#")[0].split():
            yield w


def do_word(dev, w):
    """One key word; returns the export text for 'export'."""
    if w.startswith("wait:"):
        dev.tick(int(w[5:]))
    elif w == "reboot":
        dev.boot()
    elif w == "export":
        return dev.export()
    else:
        dev.press(w)
    return None


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


def interactive(dev):
    import termios
    import tty
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    keymap = {"\x1b[A": "prev", "\x1b[D": "prev", "\x1b[B": "next", "\x1b[C": "next",
              "\r": "ok", "\n": "ok", " ": "ok", "\x7f": "back", "\x1b": "back", "u": "undo"}
    try:
        tty.setcbreak(fd)
        while True:
            sys.stdout.write("\x1b[H\x1b[2J%s\n%s\n" % (draw(dev), HELP))
            sys.stdout.flush()
            r, _, _ = select.select([fd], [], [], 0.1)
            if not r:
                dev.tick(100)     # effects play on
                continue
            k = os.read(fd, 8).decode(errors="replace")
            if k == "q":
                return
            if k == "e":
                sys.stdout.write("\n" + dev.export())
                sys.stdout.write("(press a key)")
                sys.stdout.flush()
                os.read(fd, 8)
                continue
            w = keymap.get(k, k if k.isdigit() else None)
            if w and dev.can(w):
                dev.press(w)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


def main(args):
    nvm = FlashNVM(args.nvm)
    rng = random.Random(args.seed)
    if args.power_cut:
        nvm.chaos = (args.power_cut * 100, rng)
    scripted = args.keys or args.monkey or not sys.stdin.isatty()
    # Pixels are captured only when someone looks: PNG frames or the terminal.
    dev = Device(args.board, nvm, seed=args.seed, capture=bool(args.screens) or not scripted,
                 lang=args.lang)
    frames = 0

    def frame(name):
        nonlocal frames
        if args.screens:
            frames += 1
            with open(os.path.join(args.screens, "%04d-%s.png" % (frames, name)), "wb") as f:
                f.write(dev.png())

    if args.screens:
        os.makedirs(args.screens, exist_ok=True)
        frame("boot")
    if scripted:
        if args.keys:
            with open(args.keys, encoding="utf-8") as f:
                script = f.read()
        elif args.monkey:
            script = ""
        else:
            script = sys.stdin.read()
        for w in words(script):
            try:
                got = do_word(dev, w)
            except KeyError as e:
                print("%s: %s" % (w, e.args[0]), file=sys.stderr)
                return 2
            if got:
                sys.stdout.write(got)
            frame(w.replace(":", ""))
        if args.monkey:
            monkey(dev, args.monkey, rng)
            frame("monkey")
        if not args.monkey:
            print("\n".join(dev.text()))
    else:
        interactive(dev)
    if args.power_cut:
        print("power cuts: %d" % dev.cuts, file=sys.stderr)
    if args.export:
        text = dev.export()
        if not text:
            print("no game to export", file=sys.stderr)
            return 0
        log.load(text.splitlines())      # what the device exports must replay
        with open(args.export, "w", encoding="utf-8") as f:
            f.write(text)
    return 0
