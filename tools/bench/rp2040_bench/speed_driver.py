"""Timing driver for tools/bench/bench_speed.py: the same code on CPython, the
CircuitPython unix VM and real CircuitPython on an (emulated) RP2040.

    main(folder, reps, keys_seed)

`folder` holds long.jsonl (the longest Fantasmagória log, no undo) and
undo.jsonl (the undo-heavy one). Each figure is timed inside this process:
one warm-up run, then the best of `reps` runs, each started after
gc.collect() (the collection itself is timed on its own: the "gc" figure).
Prints one line per figure, "R name value", then "SPEED-DONE".
"""

import gc
import sys

try:
    from time import ticks_us as _now, ticks_diff as _diff    # MicroPython, CircuitPython unix
    CLOCK = "time.ticks_us"
except ImportError:
    try:
        from time import perf_counter_ns as _ns              # CPython
        CLOCK = "time.perf_counter_ns"
    except ImportError:
        from time import monotonic_ns as _ns                 # CircuitPython on a board
        CLOCK = "time.monotonic_ns"

    def _now():
        return _ns() // 1000

    def _diff(a, b):
        return a - b

from altar import log
from altar.core import Session
from altar.jsonin import loads
from altar_fw import journal as J


def out(name, value):
    print("R %s %s" % (name, value))


def best(fn, reps):
    """fn() returns the µs of one timed run (its set-up untimed)."""
    fn()
    b = None
    for _ in range(reps):
        gc.collect()
        t = fn()
        if b is None or t < b:
            b = t
    return b


def read(path):
    f = open(path)
    lines = [s.strip() for s in f if s.strip()]
    f.close()
    return lines


def records(lines):
    """(header dict, [record or None for an undo line])."""
    header = loads(lines[0])
    s = Session(header)
    recs = []
    for line in lines[1:]:
        obj = loads(line)
        recs.append(None if obj["do"] == "undo" else s.mod.parse(s.rules, obj))
    return header, recs


def journal(nvm, header, recs):
    """The flash sector `nvm` after a whole game, written as the Ui does."""
    for i in range(4096):
        nvm[i] = 0xFF
    store = J.Store(nvm)
    s = store.new(header)
    for t in recs:
        if t is None:
            s.undo()
            store.undid()
        else:
            s.play(t)
            store.did(t)
    return store.journal.end


def time_play(header, recs):
    def run():
        s = Session(header)
        t0 = _now()
        for t in recs:
            s.play(t)
        return _diff(_now(), t0)
    return run


def time_do(header, objs):
    def run():
        s = Session(header)
        t0 = _now()
        for o in objs:
            s.do(o)
        return _diff(_now(), t0)
    return run


def time_lines(lines):
    def run():
        s = Session(loads(lines[0]))
        t0 = _now()
        for line in lines[1:]:
            s.do(loads(line))
        return _diff(_now(), t0)
    return run


def time_undo(header, recs):
    s = Session(header)
    for t in recs:
        s.play(t)
    last = recs[-1]

    def run():
        t0 = _now()
        s.undo()
        d = _diff(_now(), t0)
        s.play(last)
        return d
    return run


def time_load(nvm):
    def run():
        t0 = _now()
        J.Store(nvm).load()
        return _diff(_now(), t0)
    return run


def time_read(nvm):
    def run():
        t0 = _now()
        j = J.Journal(nvm)
        if hasattr(j, "frames"):
            for _ in j.frames():
                pass
        else:
            j.read()
        return _diff(_now(), t0)
    return run


class RamFlash:
    """The sector in a bytearray: on the board microcontroller.nvm writes in
    C, not through vm_device's Python model of the flash's rules."""

    def __init__(self, *args):
        self.b = bytearray(b"\xff" * 4096)

    def __len__(self):
        return 4096

    def __getitem__(self, i):
        return self.b[i]

    def __setitem__(self, i, v):
        self.b[i] = v

    def close(self):
        pass


def time_gc():
    t0 = _now()
    gc.collect()
    return _diff(_now(), t0)


def keys(seed, reps):
    """A whole Fantasmagória game for 4 through the device's view-model
    (host_tests/vm_device.py, screens not printed, the flash sector a
    bytearray): µs of each press + draw."""
    import vm_device as V

    def quiet(*a):
        pass

    V.show = quiet
    V.dump = quiet
    V.print = quiet
    if hasattr(V, "Flash"):
        V.Flash = RamFlash       # not the Python model of the flash's rules
    per = None          # per press: its best time over the timed games
    totals = []
    names = []
    for r in range(reps + 1):
        times = []
        del names[:]

        def press(ui, key):
            t0 = _now()
            ui.press(key)
            ui.draw()
            times.append(_diff(_now(), t0))
            names.append(key)

        V.press = press
        gc.collect()
        V.game(1, 4, seed)
        if not r:
            continue            # the first game is the warm-up
        totals.append(sum(times))
        if per is None:
            per = times
        elif len(per) != len(times):
            raise ValueError("the key games differ")
        else:
            for i in range(len(per)):
                if times[i] < per[i]:
                    per[i] = times[i]
    n = len(per)
    worst = 0
    for i in range(n):
        if per[i] > per[worst]:
            worst = i
    undo = [per[i] for i in range(n) if names[i] == V.UNDO]
    out("keys_n", n)
    out("keys_total", min(totals))
    out("keys_worst", per[worst])
    out("keys_worst_key", names[worst])
    out("keys_worst_at", worst)
    out("keys_undo_n", len(undo))
    out("keys_undo_max", max(undo) if undo else 0)


def main(folder, reps=5, keys_seed=3, board=False):
    out("impl", sys.implementation.name)
    out("clock", CLOCK)
    if board:
        import microcontroller
        out("cpu_hz", microcontroller.cpu.frequency)
        t0 = _ns()
        t1 = _ns()
        while t1 == t0:
            t1 = _ns()
        out("tick_ns", t1 - t0)
    # The two flash sectors first, 4 KB each in one piece while the heap is
    # whole (on the board the sector is not on the heap at all).
    nvm = bytearray(4096)
    unvm = bytearray(4096)
    long_lines = read(folder + "/long.jsonl")
    undo_lines = read(folder + "/undo.jsonl")
    header, recs = records(long_lines)
    uheader, urecs = records(undo_lines)
    used = journal(nvm, header, recs)
    uused = journal(unvm, uheader, urecs)
    objs = [loads(s) for s in long_lines[1:]]
    out("long_n", len(recs))
    out("play", best(time_play(header, recs), reps))
    out("do", best(time_do(header, objs), reps))
    out("line", best(time_lines(long_lines), reps))
    out("undo", best(time_undo(header, recs), reps))
    out("journal_bytes", used)
    out("boot", best(time_load(nvm), reps))
    out("read", best(time_read(nvm), reps))

    out("undo_n", len(urecs))
    out("undo_undos", sum(1 for t in urecs if t is None))
    out("u_journal_bytes", uused)
    out("u_boot", best(time_load(unvm), reps))
    if board:
        # The same journal in the real NVM sector (flash, read through XIP).
        import microcontroller
        microcontroller.nvm[0:4096] = bytes(unvm)
        out("u_boot_nvm", best(time_load(microcontroller.nvm), reps))
        microcontroller.nvm[0:4096] = bytes(nvm)
        out("boot_nvm", best(time_load(microcontroller.nvm), reps))
        microcontroller.nvm[0:4096] = b"\xff" * 4096
    del objs, nvm, unvm, urecs, undo_lines
    s = log.load(long_lines)        # a game held, as on the device
    del long_lines
    gc.collect()
    if hasattr(gc, "mem_free"):
        out("mem_free", gc.mem_free())
    out("gc", min(time_gc() for _ in range(reps + 1)))
    del s
    keys(keys_seed, reps)
    print("SPEED-DONE")
