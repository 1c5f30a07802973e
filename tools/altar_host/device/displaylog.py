"""The runner's display log (`run.mjs --spi FILE`, tools/rp2040/FORMAT.md)
and the glass a panel model makes of it.

A panel model (altar_host.device.st7789, sh1106, sh1107) takes the bytes as the
chip does, `feed(kind, bytes)`: kind "C" for command bytes (SPI, D/C low),
"D" for data bytes (SPI, D/C high; on I2C the bytes of one write), "I" for
the start of an I2C write; and shows its glass as `rgb()` (rows of R, G, B
bytes, as emulator.png_pixels gives a PNG) and `png(scale)`.

The file: a header "# altar-spi 1"; "C 2a 1.234567", a command byte and
the emulated time it was sent, in seconds; "D 0000003f", data bytes,
consecutive D lines being one run; "I 1.234567", an I2C write to the display
began then (its bytes follow as one D line); "#" comments, the last one
"# end <seconds> <bytes logged>", which decode() checks against the bytes it
read (a truncated log raises). Also read: "C" lines without a time, several
command bytes on one "C" line, spaces inside hex. decode(path, panel,
until=t) stops before the first command or write sent after t: the glass as
it was at emulated time t.

    python -m altar_host.device.displaylog LOG OUT.png [--panel st7789|sh1106|sh1107] [--scale N]
"""

import importlib

FORMAT = "altar-spi"
VERSION = 1
LINE_BYTES = 4096      # most data bytes the runner puts on one D line
PANELS = ("st7789", "sh1106", "sh1107")


def parse_line(line):
    """(kind, bytes, seconds or None) for a line "C 2a 1.5", "C 2a",
    "D 003500bb", "D 00 35" or "I 1.5"; None for a blank line or a comment."""
    line = line.strip()
    if not line or line.startswith("#"):
        return None
    kind, _, rest = line.partition(" ")
    kind = kind.upper()
    if kind == "C":
        words = rest.split()
        t = float(words[1]) if len(words) > 1 else None
        return "C", bytes.fromhex(words[0]), t
    if kind == "D":
        return "D", bytes.fromhex(rest.replace(" ", "")), None
    if kind == "I":
        return "I", b"", float(rest)
    raise ValueError("not a C, D or I line: %r" % line[:40])


class Log:
    """The runs of a log's lines (iterate: (kind, bytes, seconds)); after
    them, `version` from the header, `end` (seconds, bytes) from the "# end"
    line, `logged` the bytes read."""

    def __init__(self, lines):
        self.lines = lines
        self.version = None
        self.end = None
        self.logged = 0

    def __iter__(self):
        for n, line in enumerate(self.lines):
            words = line.split()
            if n == 0 and words[:2] == ["#", FORMAT]:
                self.version = int(words[2])
                if self.version != VERSION:
                    raise ValueError("%s %s: this decoder reads version %d" % (
                        FORMAT, self.version, VERSION))
                continue
            if words[:2] == ["#", "end"] and len(words) >= 4:
                self.end = (float(words[2]), int(words[3]))
                continue
            run = parse_line(line)
            if run is not None:
                self.logged += len(run[1])
                yield run


def parse(lines):
    """The runs (kind, bytes, seconds or None) of a log's lines."""
    return iter(Log(lines))


def decode(path, panel, until=None):
    """`panel` after the log in `path`; `until`: only what was sent at
    emulated time <= until (seconds). A log whose "# end" line counts other
    bytes than it holds raises ValueError."""
    with open(path, encoding="ascii") as f:
        log = Log(f)
        for kind, data, t in log:
            if until is not None and t is not None and t > until:
                return panel
            if t is not None:
                panel.time = t
            panel.feed(kind, data)
    if log.end is not None and log.end[1] != log.logged:
        raise ValueError("%s: the end line counts %d bytes, the log holds %d" % (
            path, log.end[1], log.logged))
    return panel


def glass_at(path, times, panel):
    """The glass (panel.rgb()) at each emulated time of `times` (ascending),
    from one pass over the log: decode(path, panel, until=t) for every t."""
    out = []
    with open(path, encoding="ascii") as f:
        for kind, data, t in Log(f):
            while len(out) < len(times) and t is not None and t > times[len(out)]:
                out.append(panel.rgb())
            if len(out) == len(times):
                return out
            if t is not None:
                panel.time = t
            panel.feed(kind, data)
    while len(out) < len(times):
        out.append(panel.rgb())
    return out


def encode(runs, times=None):
    """A log's text for runs of (kind, bytes) (kind "C", "D" or "I"; a bool
    reads as D when true), as run.mjs writes it; times: each run's emulated
    seconds (a command's and an I2C write's are written)."""
    out = ["# %s %d\n" % (FORMAT, VERSION)]
    total = 0
    t = 0.0
    for i, (kind, data) in enumerate(runs):
        kind = kind if isinstance(kind, str) else "D" if kind else "C"
        data = bytes(data)
        total += len(data)
        if times is not None:
            t = times[i]
        if kind == "D":
            out += ["D %s\n" % data[j:j + LINE_BYTES].hex()
                    for j in range(0, len(data), LINE_BYTES)]
        elif kind == "I":
            out.append("I %.6f\n" % t)
        else:
            out += ["C %02x %.6f\n" % (c, t) for c in data]
    out.append("# end %.6f %d\n" % (t, total))
    return "".join(out)


def panel(name):
    """A new model of the panel `name` (one of PANELS), as its board has it."""
    if name not in PANELS:
        raise ValueError("unknown panel %r; one of %s" % (name, ", ".join(PANELS)))
    return importlib.import_module("altar_host.device." + name).Panel()


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(description="The glass a display log leaves, as a PNG.")
    ap.add_argument("log")
    ap.add_argument("png")
    ap.add_argument("--panel", default="st7789", choices=PANELS)
    ap.add_argument("--scale", type=int, default=1)
    a = ap.parse_args(argv)
    p = decode(a.log, panel(a.panel))
    with open(a.png, "wb") as f:
        f.write(p.png(a.scale))
    print("%d commands, unhandled %s, %s" % (
        sum(p.commands.values()), dict(p.unhandled) or "none", "lit" if p.lit else "dark"))


if __name__ == "__main__":
    main()
