"""Strict JSON reading, identical on CPython and MicroPython.

MicroPython's json.loads accepts what JSON forbids (`[1 2]`, trailing
commas) and refuses what CPython takes (NaN), so a log would be valid on one
VM and not the other. This reads RFC 8259 JSON only, nesting at most
`_DEPTH` deep and numbers at most `_DIGITS` long, and raises ValueError for anything else. Numbers with a
fraction or exponent become floats (the engine refuses them as integers).
"""

_DEPTH = 16
_DIGITS = 100  # CPython refuses int() past 4300 digits, MicroPython does not
_WS = " \t\n\r"
_ESC = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_LIT = {"t": ("true", True), "f": ("false", False), "n": ("null", None)}


def loads(s):
    v, i = _value(s, _ws(s, 0), 0)
    if _ws(s, i) != len(s):
        raise ValueError("extra data")
    return v


def _ws(s, i):
    n = len(s)
    while i < n and s[i] in _WS:
        i += 1
    return i


def _value(s, i, depth):
    if i >= len(s):
        raise ValueError("value expected")
    c = s[i]
    if c == '"':
        return _string(s, i + 1)
    if c == "{" or c == "[":
        if depth >= _DEPTH:
            raise ValueError("nested too deep")
        return _container(s, i, depth + 1)
    if c in _LIT:
        word, v = _LIT[c]
        if s[i:i + len(word)] != word:
            raise ValueError("bad literal")
        return v, i + len(word)
    return _number(s, i)


def _container(s, i, depth):
    obj = s[i] == "{"
    end = "}" if obj else "]"
    out = {} if obj else []
    i = _ws(s, i + 1)
    if i < len(s) and s[i] == end:
        return out, i + 1
    while True:
        if obj:
            if i >= len(s) or s[i] != '"':
                raise ValueError("key expected")
            k, i = _string(s, i + 1)
            i = _ws(s, i)
            if i >= len(s) or s[i] != ":":
                raise ValueError("colon expected")
            v, i = _value(s, _ws(s, i + 1), depth)
            out[k] = v
        else:
            v, i = _value(s, i, depth)
            out.append(v)
        i = _ws(s, i)
        if i < len(s) and s[i] == end:
            return out, i + 1
        if i >= len(s) or s[i] != ",":
            raise ValueError("comma expected")
        i = _ws(s, i + 1)


def _digits(s, i):
    j = i
    while j < len(s) and "0" <= s[j] <= "9":
        j += 1
    return j


def _number(s, i):
    a = i
    if s[i] == "-":
        i += 1
    j = _digits(s, i)
    if j == i or (s[i] == "0" and j > i + 1):
        raise ValueError("bad number")
    i = j
    exact = True
    if i < len(s) and s[i] == ".":
        j = _digits(s, i + 1)
        if j == i + 1:
            raise ValueError("bad number")
        i = j
        exact = False
    if i < len(s) and s[i] in "eE":
        i += 1
        if i < len(s) and s[i] in "+-":
            i += 1
        j = _digits(s, i)
        if j == i:
            raise ValueError("bad number")
        i = j
        exact = False
    if i - a > _DIGITS:
        raise ValueError("number too long")
    return (int(s[a:i]) if exact else float(s[a:i])), i


def _string(s, i):
    parts = []
    a = i
    n = len(s)
    while True:
        if i >= n:
            raise ValueError("unterminated string")
        c = s[i]
        if c == '"':
            parts.append(s[a:i])
            return "".join(parts), i + 1
        if c < " " or "\ud800" <= c <= "\udfff":
            raise ValueError("bad character in string")
        if c != "\\":
            i += 1
            continue
        parts.append(s[a:i])
        e = s[i + 1:i + 2]
        if e in _ESC:
            parts.append(_ESC[e])
            i += 2
        elif e == "u":
            u, i = _hex4(s, i + 2)
            if 0xD800 <= u < 0xDC00 and s[i:i + 2] == "\\u":
                lo, j = _hex4(s, i + 2)
                if 0xDC00 <= lo < 0xE000:
                    u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00)
                    i = j
            if 0xD800 <= u < 0xE000:
                raise ValueError("lone surrogate")
            parts.append(chr(u))
        else:
            raise ValueError("bad escape")
        a = i


def _hex4(s, i):
    h = s[i:i + 4]
    if len(h) != 4:
        raise ValueError("bad escape")
    for c in h:
        if c not in "0123456789abcdefABCDEF":
            raise ValueError("bad escape")
    return int(h, 16), i + 4
