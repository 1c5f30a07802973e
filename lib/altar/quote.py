"""A value from a log as the engine's messages quote it: as JSON, cut to
LIMIT characters (a log line may hold a string of megabytes) and written
whatever the value is. A number with a fraction shows as <fraction>: no
action holds one, and the VMs would print it differently (the board's floats
are single precision). Imported only when a message is made, as seats is."""

from altar.jsonout import dump

LIMIT = 40


class _Full(Exception):
    pass


def quote(v):
    out = []
    room = [LIMIT + 1]

    def w(s):
        out.append(s[:room[0]])
        room[0] -= len(s)
        if room[0] <= 0:
            raise _Full

    try:
        _val(v, w)
    except _Full:
        return "".join(out)[:LIMIT] + "..."
    return "".join(out)


def _val(v, w):
    # Containers walked here so that a fraction inside one is written too;
    # everything jsonout writes, it writes.
    t = type(v)
    if t is float:
        w("<fraction>")
    elif t is dict:
        w("{")
        for i, k in enumerate(sorted(v)):
            w(", " if i else "")
            dump(k, w)
            w(": ")
            _val(v[k], w)
        w("}")
    elif t is list or t is tuple:
        w("[")
        for i in range(len(v)):
            w(", " if i else "")
            _val(v[i], w)
        w("]")
    else:
        dump(v, w)
