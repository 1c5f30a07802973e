"""Session logs (JSON Lines): read one into a Session, write one out.

The format is docs/session-log.md.
"""

from altar.core import Rejected, Session
from altar.jsonin import loads
from altar.jsonout import dumps


class LogError(Exception):
    """A log line the engine refuses: `line` (1-based) and `reason`."""

    def __init__(self, line, reason):
        super().__init__("line %d: %s" % (line, reason))
        self.line = line
        self.reason = reason


def _utf8(b):
    """True if b is valid UTF-8: MicroPython's decode() also takes overlong
    forms, surrogates and code points past U+10FFFF, CPython's does not."""
    i = 0
    n = len(b)
    while i < n:
        c = b[i]
        if c < 0x80:
            i += 1
            continue
        if 0xC2 <= c <= 0xDF:
            k, lo, hi = 1, 0x80, 0xBF
        elif 0xE0 <= c <= 0xEF:
            k = 2
            lo = 0xA0 if c == 0xE0 else 0x80
            hi = 0x9F if c == 0xED else 0xBF
        elif 0xF0 <= c <= 0xF4:
            k = 3
            lo = 0x90 if c == 0xF0 else 0x80
            hi = 0x8F if c == 0xF4 else 0xBF
        else:
            return False
        if i + k >= n:
            return False
        if not lo <= b[i + 1] <= hi:
            return False
        for j in range(i + 2, i + k + 1):
            if not 0x80 <= b[j] <= 0xBF:
                return False
        i += k + 1
    return True


def _text(raw, n):
    if type(raw) is not bytes:
        return raw
    try:
        s = raw.decode()
    except ValueError:
        raise LogError(n, "not UTF-8 text")
    if len(s) != len(raw) and not _utf8(raw):
        raise LogError(n, "not UTF-8 text")
    return s


def load(lines):
    """A Session from an iterable of lines (bytes or str)."""
    session = None
    n = 0
    for raw in lines:
        n += 1
        s = _text(raw, n)
        # JSON's own whitespace only: str.strip() differs between the VMs.
        s = s.strip(" \t\r\n")
        if not s:
            continue
        try:
            obj = loads(s)
        except ValueError:
            raise LogError(n, "not valid JSON")
        try:
            if session is None:
                session = Session(obj)
            else:
                session.do(obj)
        except Rejected as e:
            raise LogError(n, str(e))
    if session is None:
        raise LogError(1, "no header: the log is empty")
    return session


def lines(header, actions):
    """The log's lines (without newlines) for a header and action objects."""
    yield dumps(header)
    for a in actions:
        yield dumps(a)


def write(session, out):
    """Write `session` (its header and kept actions) to a text stream."""
    for s in lines(session.header, session.actions()):
        out.write(s)
        out.write("\n")
