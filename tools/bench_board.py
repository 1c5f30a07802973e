#!/usr/bin/env python3
"""Altar on real CircuitPython in an emulated Pico + Display Pack: boot, key
presses, resume and heap, in emulated time.

    .venv/bin/python tools/bench_board.py [--no-write]

1. Deploys Altar for the Pico Display with the CircuitPython libraries from
   PyPI (tools/altar_host/board_emu.py), as .mpy.
2. Plays host_tests/board_script.whole_game() on the host emulator: the
   golden tour (a 3-player Sete Selos game to its end, 144 key presses),
   an undo of the last action and the action again, then Menu > Export.
3. Presses the same buttons on the board in tools/rp2040/run.mjs (rp2040js,
   every instruction's cycles, flash read at once) and again with the XIP
   cache model of tools/rp2040_bench/xip.mjs (40 cycles a miss), side by
   side. A press's time is from the button's release (keypad reports a key
   then; Altar acts on releases) to the end of the last RAMWR burst before
   the next press: the screen redrawn on the glass.
4. Boots the NVM that game left (its whole journal) the same two ways: the
   first screen's time against a boot with an empty NVM.
5. Runs the game and the resume once more with a probe code.py that prints
   gc.mem_free() after a gc.collect() at each screen drawn (the collection
   and the printing take time, so that run is not timed).
6. Writes the "bench_board" section of BENCHMARKS.md.

Takes about 4 minutes on 2 cores.
"""

import argparse
import concurrent.futures
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, d) for d in ("lib", "firmware", "tools", "host_tests")]

from altar_host import board_emu  # noqa: E402
from benchmd import kb, md_table, write_section  # noqa: E402
from bench_replay import machine  # noqa: E402

XIP_MISS = 40          # cycles, as tools/bench_speed.py
GOAL_BOOT = 5.0        # s from reset to the first screen
GOAL_PRESS = 0.5       # s from a release to the redrawn screen
GOAL_RESUME = 2.0      # s: a whole game's journal resumed


def in_parallel(*calls):
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        return [f.result() for f in [pool.submit(c) for c in calls]]


def press_times(script, result):
    """[(word, release s, redrawn s or None)] for each key of the script."""
    presses = script.presses()
    bursts = result.summary["ramwr_bursts"]
    out = []
    for i, (word, (_, _, up)) in enumerate(zip(script.dev.pressed, presses)):
        nxt = presses[i + 1][1] if i + 1 < len(presses) else script.end()
        ends = [b["end"] for b in bursts if up <= b["start"] < nxt]
        out.append((word, up, max(ends) - up if ends else None))
    return out


def first_screen(result):
    """(code.py's start, the first screen's end), emulated s from reset."""
    return result.line_time("code.py output:"), result.summary["ramwr_bursts"][0]["end"]


def ms(s):
    return "%.0f" % (s * 1000)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--no-write", action="store_true", help="print, do not touch BENCHMARKS.md")
    a = ap.parse_args(argv)
    t_start = time.time()
    why = board_emu.missing(install=True)
    if why:
        sys.exit("bench_board: the emulated Pico cannot run: " + why)
    from board_script import whole_game
    work = tempfile.mkdtemp(prefix="altar-bench-board-")
    drive = board_emu.make_drive(os.path.join(work, "drive"))
    image = board_emu.fat_image(drive, os.path.join(work, "plain.img"))
    board_emu.add_probe(drive)
    probe_image = board_emu.fat_image(drive, os.path.join(work, "probe.img"))
    script = whole_game()
    end = script.end() + 0.5

    def game(img, xip, name):
        return lambda: board_emu.run(image=img, max_sec=end, presses=script.presses(), spi=False,
                                     dump_nvm=True, xip_penalty=xip, timeout=3600,
                                     workdir=os.path.join(work, name))

    def resume(img, xip, nvm, name):
        return lambda: board_emu.run(image=img, max_sec=15, until_frames=1, nvm=nvm,
                                     xip_penalty=xip, timeout=3600,
                                     workdir=os.path.join(work, name))
    plain, xip = in_parallel(game(image, None, "game"), game(image, XIP_MISS, "game-xip"))
    for r in (plain, xip):
        if r.code or "Traceback" in r.console:
            sys.exit("bench_board: the game failed on the board:\n" + r.console[-3000:] + r.stderr)
    nvm = plain.nvm_path
    res_plain, res_xip = in_parallel(resume(image, None, nvm, "resume"),
                                     resume(image, XIP_MISS, nvm, "resume-xip"))
    mem_game, mem_resume = in_parallel(game(probe_image, None, "mem-game"),
                                       resume(probe_image, None, nvm, "mem-resume"))

    figures = {}
    for label, r, res in (("rp2040js", plain, res_plain),
                          ("+ XIP model", xip, res_xip)):
        start, shown = first_screen(r)
        r_start, r_shown = first_screen(res)
        times = press_times(script, r)
        lat = [t for w, _, t in times if t is not None]
        undo = [t for w, _, t in times if w == "undo"]
        export = times[-1][2]
        keys = [t for w, _, t in times[:-1] if w != "undo" and t is not None]
        figures[label] = dict(start=start, shown=shown, r_shown=r_shown, r_start=r_start,
                              keys=keys, undo=undo, export=export, missing=len(times) - len(lat),
                              wall=r.summary["wall"], emulated=r.summary["emulated"])
    p, x = figures["rp2040js"], figures["+ XIP model"]
    rows = [
        ("code.py starts (s from reset)", "%.2f" % p["start"], "%.2f" % x["start"], ""),
        ("first screen on the glass, empty NVM (s from reset)", "%.2f" % p["shown"],
         "%.2f" % x["shown"], "≤ %.0f" % GOAL_BOOT),
        ("… from code.py's start (s)", "%.2f" % (p["shown"] - p["start"]),
         "%.2f" % (x["shown"] - x["start"]), ""),
        ("first screen, the whole game's journal in NVM (s from reset)", "%.2f" % p["r_shown"],
         "%.2f" % x["r_shown"], ""),
        ("… the resume's cost: that minus the empty boot (s)",
         "%.2f" % (p["r_shown"] - p["shown"]), "%.2f" % (x["r_shown"] - x["shown"]),
         "≤ %.0f" % GOAL_RESUME),
        ("key press to redrawn screen, median of %d (ms)" % len(p["keys"]),
         ms(statistics.median(p["keys"])), ms(statistics.median(x["keys"])), ""),
        ("… slowest (ms)", ms(max(p["keys"])), ms(max(x["keys"])), "≤ %.0f" % (GOAL_PRESS * 1000)),
        ("undo (B held 0.7 s) to redrawn screen (ms)", ms(max(p["undo"])), ms(max(x["undo"])),
         "≤ %.0f" % (GOAL_PRESS * 1000)),
        ("Export: the log printed on the UART, then the screen (ms)", ms(p["export"]),
         ms(x["export"]), ""),
        ("presses with no redraw seen", p["missing"], x["missing"], "0"),
        ("wall s for the game's %.1f emulated s" % p["emulated"], "%.0f" % p["wall"],
         "%.0f" % x["wall"], ""),
    ]
    drawn = board_emu.probes(mem_game.console, "redraw")
    drawn_resume = board_emu.probes(mem_resume.console, "redraw")
    start_free = board_emu.probes(mem_game.console, "start")
    if not drawn or not drawn_resume or not start_free:
        sys.exit("bench_board: no PROBE lines:\n" + mem_game.console[-3000:])
    writes = board_emu.journal_writes(plain.summary)
    erases = sum(1 for w in plain.summary["nvm_writes"] if w["op"] == "erase")
    mem_rows = [
        ("at code.py's start", kb(start_free[0][1])),
        ("after boot (the first screen drawn), empty NVM", kb(drawn[0][2])),
        ("after the whole game (the Export's screen)", kb(drawn[-1][2])),
        ("lowest over the game's %d screens" % len(drawn), kb(min(d[2] for d in drawn))),
        ("after resuming the whole game's journal at boot", kb(drawn_resume[0][2])),
    ]
    ok = (p["shown"] <= GOAL_BOOT and x["shown"] <= GOAL_BOOT
          and max(p["keys"] + p["undo"] + x["keys"] + x["undo"]) <= GOAL_PRESS
          and x["r_shown"] - x["shown"] <= GOAL_RESUME and not p["missing"] and not x["missing"])
    m = machine()
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    text = """## The firmware on an emulated Pico

Generated by `tools/bench_board.py` on %(date)s (at `%(commit)s`; the run took %(took).0f s). Rerun it to refresh this section.

Real CircuitPython 10.3 for the Pico (`%(uf2)s`) in rp2040js 1.4.1 (`tools/rp2040/run.mjs`, node %(node)s), with the drive `altar deploy --board pico-display` writes (.mpy) and adafruit_st7789 and adafruit_bitmap_font from PyPI. The play is `host_tests/board_script.whole_game()`: the golden tour, a 3-player Sete Selos game to a power end with redirects and removals (%(keys)d key presses on the Display Pack's four buttons, each held 80 ms and the next %(gap).2f s after), the last removal undone (B held 0.7 s) and entered again, then Menu > Export. Each press is timed from the button's release (Altar acts on releases) to the end of the last burst of RAMWR pixels before the next press, that is until the redrawn screen has gone over SPI to the panel. The journal took %(writes)d NVM writes in that run (%(erases)d erasing the sector).

| what | rp2040js | + XIP model (%(miss)d cycles a miss) | goal |
| --- | --- | --- | --- |
%(rows)s

**%(verdict)s**

`gc.mem_free()` (after `gc.collect()`, printed by the probe code.py of `board_emu.add_probe` in a separate, untimed run of the same presses):

%(mem)s

How far to trust the emulated clock: rp2040js advances it by each instruction's Cortex-M0+ cycle count at 125 MHz (what CircuitPython sets up on the Pico), so CPU-bound work (the VM, displayio turning the canvas into the panel's pixels, the journal's CRCs) counts as on the chip. What it gets wrong errs on the fast side. Flash reads are served at once, as if the 16 KB XIP cache never missed: the second column models that cache, %(xip_pct)s on the slowest press, with a miss cost (40 cycles) estimated from a measured quad-SPI read, not measured on this chip. Flash erase and program take no time: on the Pico's W25Q16JV a page program takes about 0.4 ms and a sector erase 45 ms typical, 400 ms at worst, with every interrupt masked; %(erases)d of this game's %(writes)d journal writes erased the sector (it started on an erased one); a new game over a kept one and the compaction of a full journal do, and such a press can take up to about 0.45 s more on a board. SPI bytes take their wire time at the bus's clock (`run.mjs`) and the ST7789's init delays are real `time.sleep`s, but interrupts, DMA and the bus have no contention, and no USB host is attached. Nothing here was checked on a physical Pico: read these figures as lower bounds, within about 10%% for what the CPU does, plus the flash's own times.

| machine and versions | |
| --- | --- |
| CPU | %(cpu)s |
| rp2040js | 1.4.1 (`tools/rp2040/package.json`), node %(node)s |
| board firmware | `%(uf2)s` |
""" % dict(date=time.strftime("%Y-%m-%d"), commit=m["rev"], took=time.time() - t_start,
           uf2=os.path.basename(board_emu.UF2), node=node, keys=len(script.dev.keyed),
           gap=board_emu.GAP, writes=len(writes), miss=XIP_MISS, erases=erases,
           rows=md_table(("what", "rp2040js", "+ XIP", "goal"), rows).split("\n", 2)[2],
           verdict=("Every goal is met, in both columns." if ok else "A goal is missed: see the table."),
           mem=md_table(("when", "gc.mem_free()"), mem_rows),
           xip_pct="+%.0f%%" % (100.0 * (max(x["keys"]) / max(p["keys"]) - 1)), cpu="%s, %d cores" % (m["cpu"], m["nproc"]))
    print(text)
    if not a.no_write:
        write_section("bench_board", text)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
