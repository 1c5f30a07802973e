"""Session logs (JSON Lines): read one into a Session, write one out.

The contract is ../shared/spec/session-log.md, restated in the README.
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


def _text(raw, n):
    if type(raw) is not bytes:
        return raw
    try:
        s = raw.decode()
    except ValueError:
        raise LogError(n, "not UTF-8 text")
    # MicroPython decodes UTF-8-encoded surrogates that CPython refuses.
    if len(s) != len(raw):
        for ch in s:
            if "\ud800" <= ch <= "\udfff":
                raise LogError(n, "not UTF-8 text")
    return s


def load(lines):
    """A Session from an iterable of lines (bytes or str)."""
    session = None
    n = 0
    for raw in lines:
        n += 1
        s = _text(raw, n)
        s = s.strip()
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
