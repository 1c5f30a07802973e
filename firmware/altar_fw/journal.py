"""The game as an append-only journal in one flash sector (`microcontroller.nvm`),
and the Store that keeps a game in it.

On the RP2040 a write into bytes that are all erased (0xFF) only programs
them; any other write erases and rewrites the whole 4 KB sector, which is slow
and not atomic. So the journal only ever appends into erased bytes, and the
sector is rewritten only for a new game or to compact a full journal.

Frame: [n] [n payload bytes] [check]; n is 1..250 (0xFF means "erased, the
end"), check a CRC-8 of n and the payload that is never 0xFF. The first frame
is the journal's format (one byte, FORMAT) and the session header (JSON
text; a journal from before the format byte starts with the "{"), every
later one an action record (`altar.core.encode`, as the session keeps it)
or UNDO. A frame that passes its check can still be wrong (another
firmware's, a flipped bit the CRC-8 missed): the engine refuses what it
cannot play, and the boot plays the rest. A power cut leaves at
most one torn frame, the last one written: its length byte says how far to
skip, so frames appended after the reboot still count. At most the action
being written is lost.
"""

from altar.core import Rejected, Session, decode, encode
from altar.jsonin import loads
from altar.jsonout import dump, dumps

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_MAX_PAYLOAD = const(250)
FORMAT = const(1)      # this firmware's journal format
_OPEN = const(0x7B)    # "{": a header frame of format 0, before the format byte
UNDO = b"\x00"   # verb 0 is no game's


# CRC-8 (polynomial 0x07) of each byte value, MSB first: a byte is then one
# look-up, not eight shifts. On the board the bit loop took 54 ms for a
# 100-byte frame (a new game's header), the table 0.6 ms.
_TABLE = (
    b"\x00\x07\x0e\x09\x1c\x1b\x12\x15\x38\x3f\x36\x31\x24\x23\x2a\x2d"
    b"\x70\x77\x7e\x79\x6c\x6b\x62\x65\x48\x4f\x46\x41\x54\x53\x5a\x5d"
    b"\xe0\xe7\xee\xe9\xfc\xfb\xf2\xf5\xd8\xdf\xd6\xd1\xc4\xc3\xca\xcd"
    b"\x90\x97\x9e\x99\x8c\x8b\x82\x85\xa8\xaf\xa6\xa1\xb4\xb3\xba\xbd"
    b"\xc7\xc0\xc9\xce\xdb\xdc\xd5\xd2\xff\xf8\xf1\xf6\xe3\xe4\xed\xea"
    b"\xb7\xb0\xb9\xbe\xab\xac\xa5\xa2\x8f\x88\x81\x86\x93\x94\x9d\x9a"
    b"\x27\x20\x29\x2e\x3b\x3c\x35\x32\x1f\x18\x11\x16\x03\x04\x0d\x0a"
    b"\x57\x50\x59\x5e\x4b\x4c\x45\x42\x6f\x68\x61\x66\x73\x74\x7d\x7a"
    b"\x89\x8e\x87\x80\x95\x92\x9b\x9c\xb1\xb6\xbf\xb8\xad\xaa\xa3\xa4"
    b"\xf9\xfe\xf7\xf0\xe5\xe2\xeb\xec\xc1\xc6\xcf\xc8\xdd\xda\xd3\xd4"
    b"\x69\x6e\x67\x60\x75\x72\x7b\x7c\x51\x56\x5f\x58\x4d\x4a\x43\x44"
    b"\x19\x1e\x17\x10\x05\x02\x0b\x0c\x21\x26\x2f\x28\x3d\x3a\x33\x34"
    b"\x4e\x49\x40\x47\x52\x55\x5c\x5b\x76\x71\x78\x7f\x6a\x6d\x64\x63"
    b"\x3e\x39\x30\x37\x22\x25\x2c\x2b\x06\x01\x08\x0f\x1a\x1d\x14\x13"
    b"\xae\xa9\xa0\xa7\xb2\xb5\xbc\xbb\x96\x91\x98\x9f\x8a\x8d\x84\x83"
    b"\xde\xd9\xd0\xd7\xc2\xc5\xcc\xcb\xe6\xe1\xe8\xef\xfa\xfd\xf4\xf3")


def crc8(data, n):
    """CRC-8 (polynomial 0x07) of the byte n and data, mapped off 0xFF."""
    t = _TABLE
    c = t[n]
    for b in data:
        c = t[c ^ b]
    return 0 if c == 0xFF else c


def frame(payload):
    n = len(payload)
    if not 0 < n <= _MAX_PAYLOAD:
        raise ValueError("journal frame of %d bytes" % n)
    return bytes((n,)) + payload + bytes((crc8(payload, n),))


class Journal:
    """Frames in `nvm` (anything with len() and bytes slicing, e.g.
    microcontroller.nvm); `end` is where the next frame goes."""

    def __init__(self, nvm):
        self.nvm = nvm
        self.size = len(nvm)
        self.end = 0
        self.torn = 0     # frames skipped by the last read (torn by power cuts)

    def frames(self):
        """The payloads of the valid frames, one at a time (a list of them
        all would be the biggest object at boot); afterwards `end` is where
        the next frame goes and `torn` how many frames were skipped."""
        nvm = self.nvm
        p = 0
        self.torn = 0
        while p < self.size:
            n = nvm[p]
            if n == 0xFF:
                break
            q = p + n + 2
            if n == 0 or q > self.size:
                p = self.size     # garbage to the end: full, the next append compacts
                self.torn += 1
                break
            f = nvm[p:q]
            if f[-1] != crc8(f[1:-1], n):
                self.torn += 1
            else:
                yield f[1:-1]
            p = q
        self.end = p

    def append(self, payload):
        """Program one frame into erased bytes; False if it does not fit."""
        f = frame(payload)
        q = self.end + len(f)
        if q > self.size:
            return False
        self.nvm[self.end:q] = f
        self.end = q
        return True

    def rewrite(self, header, payloads):
        """Start the sector over with these frames (a new game, or a full
        journal compacted): one erase and rewrite of the used part."""
        buf = bytearray(frame(header))
        for p in payloads:
            buf.extend(frame(p))
        if len(buf) > self.size:
            raise ValueError("the game does not fit the journal")
        used = len(buf)
        if self.end > used:
            buf.extend(b"\xff" * (self.end - used))
        self.nvm[0:len(buf)] = bytes(buf)
        self.end = used


def _header(p):
    """The header frame's JSON text; Rejected if its format is not one this
    firmware reads (a newer firmware's journal, or damage)."""
    if p[0] == _OPEN:
        return p.decode()
    if p[0] != FORMAT:
        raise Rejected("journal format %d; this firmware reads %d" % (p[0], FORMAT))
    return p[1:].decode()


BEGIN = "-----BEGIN ALTAR LOG-----"
END = "-----END ALTAR LOG-----"
# The live stream's lines (`altar live`): each journaled line of the game,
# after this mark, and the request that makes the device export the whole
# game between BEGIN and END (a host that connects mid-game catches up).
MARK = "ALTAR> "
SYNC = "ALTAR?SYNC"


class Store:
    """A game kept in a Journal: the Ui's sink (a new game, each action and
    undo become frames before the screen moves on), the replay at boot and
    the export. `write` takes the serial console's text: the exported log,
    and with `stream` each new frame's log line once told (`tell`)."""

    def __init__(self, nvm, write=None, stream=False):
        self.journal = Journal(nvm)
        self.write = write
        self.stream = stream and write is not None
        self.said = None        # the frame the last press journaled, not yet told
        self.header = None
        self.fmt = FORMAT       # the loaded journal's format
        self.session = None

    def load(self):
        """(session or None, frames refused): the game the journal holds.
        Raises Rejected or ValueError if its header is not a session (`fmt`
        then says whether a newer firmware wrote it).

        An UNDO frame takes back the record before it, so the records left
        are played once: the same game as playing each frame in turn, where
        an undo replays up to a checkpoint's worth of records, and more once
        undos pass the checkpoints (BENCHMARKS.md)."""
        session = None
        kept = []
        skipped = 0
        for p in self.journal.frames():
            if session is None:
                self.fmt = 0 if p[0] == _OPEN else p[0]
                session = Session(loads(_header(p)))
                self.header = p
            elif p != UNDO:
                kept.append(decode(p))
            elif kept:
                try:
                    # Counted if no parse could make it, so the boot compacts
                    # it away: the export unparses every frame.
                    session.mod.shape(session.rules, kept.pop())
                except Rejected:
                    skipped += 1
            else:
                skipped += 1     # nothing to undo
        for t in kept:
            try:
                session.play(t)
            except Rejected:
                skipped += 1     # a record this engine refuses: keep the others
        self.session = session
        return session, skipped

    def new(self, header):
        """Start the journal over for a new game; returns its Session."""
        session = Session(header)
        self.header = bytes((FORMAT,)) + dumps(header).encode()
        self.journal.rewrite(self.header, ())
        self.session = session
        self.said = self.header
        return session

    def did(self, record):
        """Keep one action; False once the game no longer fits the flash."""
        p = encode(record)
        self.said = p
        return self.journal.append(p) or self.compact()

    def undid(self):
        self.said = UNDO
        return self.journal.append(UNDO) or self.compact()

    def compact(self):
        """A full journal keeps only what the game still holds (no undos)."""
        try:
            self.journal.rewrite(self.header, list(self.session.records()))
        except ValueError:
            return False
        return True

    def tell(self):
        """Stream the frame the last press journaled, as its log line after
        MARK: called once the press is on the glass, so that the table never
        waits for the serial console."""
        p = self.said
        if p is None or not self.stream:
            return
        self.said = None
        self.write(MARK)
        self._line(p, p is self.header)

    def export(self):
        """The journal as a session log, between markers, streamed line by
        line (the whole log would not fit the heap as one string). With no
        game, the markers alone."""
        w = self.write
        if w is None:
            return
        w(BEGIN + "\n")
        if self.session is not None:
            head = True
            for p in self.journal.frames():
                self._line(p, head)
                head = False
        w(END + "\n")

    def _line(self, p, head):
        """One frame's log line: the header, or an action in the log's spelling."""
        w = self.write
        if head:
            w(_header(p))
        elif p == UNDO:
            w('{"do": "undo"}')
        else:
            dump(self.session.mod.unparse(decode(p)), w)
        w("\n")
