"""JSON text with sorted keys, identical on CPython and MicroPython.

MicroPython's json.dumps has no sort_keys, does not keep dict order and
writes non-ASCII as is; this writes what CPython's
`json.dumps(obj, sort_keys=True)` writes, for the types the engine uses
(dict with str keys, list, tuple, str, int, bool, None).
"""


def _str(s, out):
    out.append('"')
    for ch in s:
        c = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif 0x20 <= c < 0x7F:
            out.append(ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\b":
            out.append("\\b")
        elif ch == "\f":
            out.append("\\f")
        elif c > 0xFFFF:
            c -= 0x10000
            out.append("\\u%04x\\u%04x" % (0xD800 | (c >> 10), 0xDC00 | (c & 0x3FF)))
        else:
            out.append("\\u%04x" % c)
    out.append('"')


def _val(v, out):
    # Test identity before type: MicroPython's bool is not an int subclass.
    if v is None:
        out.append("null")
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif type(v) is int:
        out.append(str(v))
    elif type(v) is str:
        _str(v, out)
    elif type(v) is dict:
        out.append("{")
        first = True
        for k in sorted(v):
            if not first:
                out.append(", ")
            first = False
            _str(k, out)
            out.append(": ")
            _val(v[k], out)
        out.append("}")
    elif type(v) is list or type(v) is tuple:
        out.append("[")
        for i in range(len(v)):
            if i:
                out.append(", ")
            _val(v[i], out)
        out.append("]")
    else:
        raise TypeError("cannot write %r as JSON" % (v,))


def dumps(v):
    out = []
    _val(v, out)
    return "".join(out)
