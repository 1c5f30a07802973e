#!/usr/bin/env python3
"""Where a key press's time goes on the real firmware: each input of a
board's whole game (as tools/bench/bench_board.py plays it) split into its parts,
on real CircuitPython in rp2040js.

    .venv/bin/python tools/bench/bench_press.py [--board B ...] [--no-write]

A probe code.py (PROFILE below) wraps Altar's own code.py: it times
`Ui.press`, `Ui.draw`, `Canvas.show` and `display.refresh()` (the
glass's `draw` on the Pico Display, altar_fw/glass.py) with
time.monotonic_ns, and notes when the main loop picked the input up and
the keypad's timestamp of the key's release (supervisor.ticks_ms), then
prints one line after each redraw (after the timed part). The host knows
when each input ended and when the display's bytes went over the bus
(run.mjs's bursts), so an input splits into:

- keypad: from the key's release to the keypad's event (its scan interval);
- loop: from that event (a knob's last step) to the main loop picking it
  up (its sleep, and a step busy with the lights);
- press, draw, show, refresh: Altar's and displayio's work (refresh is
  displayio turning the group into pixels and writing them to the bus, or
  the glass sending the changed cells);
- bytes: the display's bytes on the bus (their wire time is part of
  refresh, which waits for them);
- rest: the remainder, up to the end of the last byte on the bus.

The game runs twice: with Altar's collection policy (the one code.py sets)
and with the VM's own (a collection only when the heap is full), to see
what the collections cost. Writes the "bench_press" section of
BENCHMARKS.md.
"""

import argparse
import concurrent.futures
import os
import statistics
import sys
import tempfile

sys.dont_write_bytecode = True
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(ROOT, d) for d in ("lib", "firmware", "tools", "host_tests")]

from altar_host.device import board_emu  # noqa: E402
from bench_board import TITLES, plays  # noqa: E402
from benchmd import md_table, write_section  # noqa: E402

PROFILE = '''\
# Test-only: Altar's code.py runs as altar_code.py; each redraw's parts timed.
import gc, time, supervisor
_ns = time.monotonic_ns
import altar_fw.app as _app
from altar_fw.ui import Ui
from altar_fw.canvas import Canvas
# press, draw, show, refresh (ns), picked up, event (ms), allocated at the pick-up, at the collection
_T = [0, 0, 0, 0, -1, -1, 0, 0]
_APP = []


def _timed(cls, name, k):
    f = getattr(cls, name)

    def w(*a):
        t = _ns()
        r = f(*a)
        _T[k] += _ns() - t
        return r
    setattr(cls, name, w)


_press = Ui.press


def _picked(self, key):
    if _T[4] < 0:
        _T[4] = supervisor.ticks_ms()
        _T[5] = _APP[0].event.timestamp if _APP else -1
        _T[6] = gc.mem_alloc()
    return _press(self, key)


Ui.press = _picked
_timed(Ui, "press", 0)
_timed(Ui, "draw", 1)
_timed(Canvas, "show", 2)


class _Display:
    def __init__(self, d):
        self.d = d

    def refresh(self):
        t = _ns()
        self.d.refresh()
        _T[3] += _ns() - t


_init = _app.App.__init__


def _app_init(self, display, *a, **kw):
    _APP.append(self)
    collect = None if %(vm_gc)r else kw.get("collect")

    def noted():
        _T[7] = gc.mem_alloc()
        if collect:
            collect()
    kw["collect"] = noted
    _init(self, display, *a, **kw)
    self.display = _Display(display)
    draw = self.draw

    def timed_draw(canvas):
        t = _ns()
        draw(canvas)
        _T[3] += _ns() - t
    if draw:
        self.draw = timed_draw


_app.App.__init__ = _app_init
_redraw = _app.App.redraw


def _timed_redraw(self, now):
    _redraw(self, now)
    print("PROF", supervisor.ticks_ms(), _T[4], _T[5], _T[0] // 1000, _T[1] // 1000,
          _T[2] // 1000, _T[3] // 1000, _T[7] - _T[6] if _T[4] >= 0 else 0)
    for i in range(4):
        _T[i] = 0
    _T[4] = _T[5] = -1


_app.App.redraw = _timed_redraw
import altar_code
'''

TICK_MASK = (1 << 29) - 1
KINDS = (("move", "prev/next: the selection moves"), ("open", "ok/back: another screen"),
         ("undo", "undo (held back)"), ("export", "Menu > Export: the log on the UART"))


def kind(word):
    return {"prev": "move", "next": "move", "undo": "undo", "export": "export"}.get(word, "open")


def split(script, result):
    """Per input: (word, dict of the parts in ms), from the PROF lines and
    the display's bursts."""
    lines = [(t, ln[ln.find("PROF "):].split()) for t, ln in result.summary["lines"]
             if "PROF " in ln]
    # Each line maps its own ticks to emulated time: it was printed at its
    # first number's tick (the console's clock and the emulator's agree).
    rows = [(t, [int(x) for x in w[1:]]) for t, w in lines if w[1] != "clock"]
    ev = script.inputs()
    bursts = result.summary["ramwr_bursts"]
    out = []
    for i, (word, (how, _, _, end)) in enumerate(zip(script.dev.pressed, ev)):
        nxt = ev[i + 1][2] if i + 1 < len(ev) else script.end()
        mine = [v for t, v in rows if end <= t < nxt and v[1] >= 0]
        shown = [b for b in bursts if end <= b["start"] < nxt]
        if not mine or not shown:
            continue
        at, picked, event, press, draw, show, refresh, alloc = mine[0]
        if how == "turn":
            event = -1          # the knob has no keypad event: its steps are read each loop
        t_line = next(t for t, v in rows if v is mine[0])

        def emu(ticks):         # supervisor.ticks_ms -> emulated s
            return t_line - ((at - ticks) & TICK_MASK) / 1000
        on_glass = max(b["end"] for b in shown)
        parts = dict(
            keypad=(emu(event) - end) * 1000 if event >= 0 else 0.0,
            loop=(emu(picked) - (emu(event) if event >= 0 else end)) * 1000,
            press=press / 1000, draw=draw / 1000, show=show / 1000, refresh=refresh / 1000,
            bytes=sum(b["bytes"] for b in shown), alloc=alloc,
            total=(on_glass - end) * 1000)
        parts["rest"] = parts["total"] - sum(parts[k] for k in ("keypad", "loop", "press", "draw",
                                                                  "show", "refresh"))
        # Every play ends with Menu > Export (board_script), whose time is
        # the log's bytes on the UART.
        out.append(("export" if i == len(ev) - 1 else word, parts))
    return out


def run_board(name, script, work, vm_gc):
    drive = board_emu.make_drive(os.path.join(work, "drive"), name)
    board_emu.add_probe(drive, PROFILE % {"vm_gc": vm_gc})
    r = board_emu.run(drive=drive, name=name, max_sec=script.end() + 0.5, events=script.inputs(),
                      timeout=3600, workdir=os.path.join(work, "run"))
    if r.code or "Traceback" in r.console:
        sys.exit("bench_press: the game failed on the %s:\n%s%s" % (name, r.console[-3000:],
                                                                     r.stderr))
    return split(script, r)


COLS = ("keypad", "loop", "press", "draw", "show", "refresh", "rest", "total")


def summary(rows):
    """{kind: (count, {part: median ms}, slowest total ms)}."""
    out = {}
    for k, _ in KINDS:
        sel = [p for w, p in rows if kind(w) == k]
        if sel:
            out[k] = (len(sel), {c: statistics.median(p[c] for p in sel) for c in COLS + ("bytes",
                                                                                       "alloc")},
                      max(p["total"] for p in sel))
    return out


def report(results):
    text = ["## Where a press's time goes", "",
            "Generated by `tools/bench/bench_press.py` (see its docstring for the method). Each row is "
            "the median over the inputs of that kind in the board's whole game (the plays of "
            "`tools/bench/bench_board.py`), in emulated ms; \"slowest\" is the largest total.", ""]
    head = ["board", "collections", "inputs", "n"] + list(COLS) + ["slowest", "bytes", "alloc B"]
    rows = []
    for (name, policy), rs in results:
        for k, label in KINDS:
            if k not in rs:
                continue
            n, med, worst = rs[k]
            rows.append([TITLES[name], policy, label, n] + ["%.1f" % med[c] for c in COLS]
                        + ["%.0f" % worst, "%.0f" % med["bytes"], "%.0f" % med["alloc"]])
    text.append(md_table(head, rows))
    return "\n".join(text)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--board", action="append", choices=board_emu.BOARDS)
    ap.add_argument("--no-write", action="store_true")
    a = ap.parse_args(argv)
    names = a.board or list(board_emu.BOARDS)
    work = tempfile.mkdtemp(prefix="altar-press-")
    scripts = {n: plays()[n]() for n in names}
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for n in names:
            for policy, vm_gc in (("Altar's (after each redraw)", False), ("the VM's (a full heap)", True)):
                jobs[(n, policy)] = pool.submit(run_board, n, scripts[n],
                                                os.path.join(work, n, str(vm_gc)), vm_gc)
    results = [(key, summary(f.result())) for key, f in jobs.items()]
    text = report(results)
    print(text)
    if not a.no_write:
        write_section("bench_press", text)


if __name__ == "__main__":
    main()
