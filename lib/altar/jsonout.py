"""JSON text with sorted keys, identical on CPython and MicroPython.

MicroPython's json.dumps has no sort_keys, does not keep dict order and
writes non-ASCII as is; this writes what CPython's
`json.dumps(obj, sort_keys=True)` writes, for the types the engine uses
(dict with str keys, list, tuple, str, int, bool, None).

`dump` streams to a write function, so a big value never sits in memory as
text (the board's heap is small); `dumps` collects the same text.
"""


def _plain(s):
    for ch in s:
        if ch < " " or ch > "~" or ch == '"' or ch == "\\":
            return False
    return True


def _str(s, w):
    w('"')
    if _plain(s):
        w(s)
        w('"')
        return
    for ch in s:
        c = ord(ch)
        if ch == '"':
            w('\\"')
        elif ch == "\\":
            w("\\\\")
        elif 0x20 <= c < 0x7F:
            w(ch)
        elif ch == "\n":
            w("\\n")
        elif ch == "\r":
            w("\\r")
        elif ch == "\t":
            w("\\t")
        elif ch == "\b":
            w("\\b")
        elif ch == "\f":
            w("\\f")
        elif c > 0xFFFF:
            c -= 0x10000
            w("\\u%04x\\u%04x" % (0xD800 | (c >> 10), 0xDC00 | (c & 0x3FF)))
        else:
            w("\\u%04x" % c)
    w('"')


def _val(v, w):
    # Test identity before type: MicroPython's bool is not an int subclass.
    if v is None:
        w("null")
    elif v is True:
        w("true")
    elif v is False:
        w("false")
    elif type(v) is int:
        w(str(v))
    elif type(v) is str:
        _str(v, w)
    elif type(v) is dict:
        w("{")
        first = True
        for k in sorted(v):
            if not first:
                w(", ")
            first = False
            _str(k, w)
            w(": ")
            _val(v[k], w)
        w("}")
    elif type(v) is list or type(v) is tuple:
        w("[")
        for i in range(len(v)):
            if i:
                w(", ")
            _val(v[i], w)
        w("]")
    else:
        raise TypeError("cannot write %r as JSON" % (v,))


def dump(v, w):
    """Write v as JSON text through w(str)."""
    _val(v, w)


def dumps(v):
    out = []
    _val(v, out.append)
    return "".join(out)
