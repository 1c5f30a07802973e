"""Undo from checkpoints on a VM (test_undo_checkpoints.py):

    undo_script.py LOG...

For each session log (no undo lines): play it all, then runs of undos with
part of the game played again between them, down to nothing. After each
undo the state must equal a fresh session's that plays the records kept
(else exit 1); each state is printed as one line of sorted-key JSON, so
that the test can compare the VMs with CPython byte for byte. Ends with
"UNDO-OK n" (n logs). Runs on CPython, MicroPython and CircuitPython.
"""

import sys

from altar.core import CHECKPOINT_EVERY as K, Session, small_heap
from altar.jsonin import loads
from altar.jsonout import dumps


def plain(v):
    if type(v) is bytearray:
        return list(v)
    if type(v) is list:
        return [plain(x) for x in v]
    return v


def fields(st):
    """Every attribute but the rules, as JSON (keys sorted by dumps)."""
    d = {}
    for k in st.__dict__:
        if k != "rules":
            d[k] = plain(getattr(st, k))
    return dumps(d)


def fresh(header, recs, n):
    s = Session(header)
    for t in recs[:n]:
        s.play(t)
    return fields(s.state)


def run(path):
    f = open(path)
    lines = [x.strip() for x in f if x.strip()]
    f.close()
    header = loads(lines[0])
    s = Session(header)
    for line in lines[1:]:
        s.do(loads(line))
    recs = s.history
    for back, again in ((3, 1), (K + 2, 5), (1, 0), (2 * K + 3, K), (K, 2 * K + 1),
                        (5, 0), (2 * K, 0), (len(recs), 0)):
        i = 0
        while i < back and s.count:
            s.do({"do": "undo"})
            n = s.count
            got = fields(s.state)
            if got != fresh(header, recs, n) or s.history != recs[:n]:
                print("MISMATCH %s after undo to %d" % (path, n))
                sys.exit(1)
            print("%d %d %s" % (n, len(s.marks), got))
            i += 1
        for t in recs[s.count:s.count + again]:
            s.play(t)
    if s.count or s.marks:
        print("NOT EMPTY %s" % path)
        sys.exit(1)


def main(paths):
    small_heap()
    for p in paths:
        run(p)
    print("UNDO-OK %d" % len(paths))


main(sys.argv[1:])
