"""Engine core shared by every game: header, options, actions, undo.

A game module provides `Rules` (fixed for a session: players, options),
`State` (mutable), `parse(rules, obj)` turning a log action into a compact
record (a verb code, then small ints), `unparse(t)` turning it back, and
`shape(rules, t)` refusing any record `parse` could not have made (a
journal frame from another firmware, a flipped bit its check missed).
`State.check(t)` raises `Rejected` without touching anything, for any
record; `State.apply(t)` then changes the state and never fails. Undo replays
the kept records, so it is exact at any depth by construction: from the newest
checkpoint left (a copy of the state's attributes, taken after every
CHECKPOINT_EVERY-th kept record, the newest CHECKPOINTS of them kept), or from
a reset state when none is. The session keeps its records encoded in one
bytearray (`encode`), as the device journals them: a list of small tuples
would take several times the heap.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

GAMES = ("sete-selos", "fantasmagoria", "ritos-ancestrais")

# Undo replays at most CHECKPOINT_EVERY - 1 records after a checkpoint (about
# 1.2 ms each on the board), but all of them once a run of undos has gone
# past the oldest checkpoint kept (that replay takes the checkpoints again).
# On the 32-bit VM a checkpoint holds 768 bytes for a 4-player Fantasmagória
# game, 368 for Sete Selos, 144 for Ritos Ancestrais.
CHECKPOINT_EVERY = const(16)
CHECKPOINTS = const(2)
_HEADER = ("altar", "game", "players", "first", "seed", "options", "deck")


def small_heap():
    """Collect garbage after every 1 KB allocated, where the VM can: the unix
    VMs of MicroPython and CircuitPython (CPython's gc counts objects, not
    bytes; CircuitPython's board builds have no gc.threshold, and the board's
    app collects after each press instead). Collected only when full, a small
    heap fragments: a whole game then needs about 4 KB more, and how much
    more jumps with the heap's size (BENCHMARKS.md)."""
    import gc
    if hasattr(gc, "threshold"):
        gc.threshold(1024)


class Rejected(Exception):
    """Input the engine refuses; `str()` is the reason, for a person."""


def quote(v):
    # As JSON, cut short, whatever v is (altar.quote): the message is one line.
    from altar.quote import quote
    return quote(v)


def keys(d, allowed):
    # sorted(): the VMs iterate dicts in different orders, the message must not.
    for k in sorted(d):
        if k not in allowed:
            raise Rejected("unknown key %s" % quote(k))


def need(d, key):
    if key not in d:
        raise Rejected("missing key '%s'" % key)
    return d[key]


def need_int(v, what, lo, hi, ban=None):
    """v, an integer lo..hi from the log. With `ban` (the Banished Cultist's
    seat, or -1) v is a seat 0..hi, refused by name and by number: "winner
    must be P1..P3 (seat 0..2), not 5" (altar.seats words it)."""
    # type() rather than isinstance(): CPython counts True as an int.
    if type(v) is not int:
        raise Rejected("%s must be an integer" % what)
    if v < lo or v > hi:
        if ban is not None:
            from altar.seats import seat_range
            raise Rejected("%s must be %s, not %d" % (what, seat_range(hi + 1, ban), v))
        raise Rejected("%s must be %d..%d, not %d" % (what, lo, hi, v))
    return v


def need_list(v, what, lo, hi):
    if type(v) is not list:
        raise Rejected("%s must be a list" % what)
    if len(v) < lo or len(v) > hi:
        if lo == hi:
            raise Rejected("%s must have %d entries, not %d" % (what, lo, len(v)))
        raise Rejected("%s must have %d..%d entries, not %d" % (what, lo, hi, len(v)))
    return v


def ints(t, i, j, lo, hi):
    """True if the record's fields t[i:j] are all lo..hi."""
    while i < j:
        if not lo <= t[i] <= hi:
            return False
        i += 1
    return True


def well_formed(ok, t):
    """Refuse record t unless `ok`: its shape is one `parse` makes."""
    if not ok:
        raise Rejected("not an action of this game: record %s" % list(t))


def merge_options(defaults, given):
    """The game's defaults overridden by the header's options, type-checked."""
    if type(given) is not dict:
        raise Rejected("options must be an object")
    opts = {}
    for k in defaults:
        opts[k] = defaults[k]
    for k in sorted(given):
        if k not in defaults:
            raise Rejected("unknown option %s" % quote(k))
        v = given[k]
        d = defaults[k]
        if type(v) is not type(d):
            raise Rejected("option '%s' must be of the same kind as %s" % (k, quote(d)))
        if type(d) is list:
            for x in v:
                if type(x) is not type(d[0]):
                    raise Rejected("option '%s' must be of the same kind as %s" % (k, quote(d)))
        opts[k] = v
    return opts


def choice(opts, key, yes, no):
    """True if option `key` is `yes`, False if `no`; any other value refused."""
    v = opts[key]
    if v != yes and v != no:
        raise Rejected("option '%s' must be \"%s\" or \"%s\"" % (key, yes, no))
    return v == yes


def setup_rules(rules, name, lo, hi, defaults, players, first, seed, options):
    """What every game's Rules holds: players (lo..hi of them), the first
    seat, the seed, and its options merged over `defaults` (returned)."""
    n = len(players)
    if n < lo or n > hi:
        raise Rejected("%s is for %d to %d players, not %d" % (name, lo, hi, n))
    rules.players = players
    rules.first = first
    rules.seed = seed
    rules.options = merge_options(defaults, options)
    return rules.options


def game_module(name):
    # Imported on demand: the board only loads the game being played.
    if name == "sete-selos":
        from altar import sete_selos
        return sete_selos
    if name == "fantasmagoria":
        from altar import fantasmagoria
        return fantasmagoria
    if name == "ritos-ancestrais":
        from altar import ritos_ancestrais
        return ritos_ancestrais
    raise Rejected("unknown game; expected one of %s" % ", ".join(GAMES))


def encode(t):
    """A record (ints) as bytes: zigzag varints."""
    if min(t) >= 0 and max(t) < 64:
        return bytes([v + v for v in t])    # each one byte: most records
    out = bytearray()
    for v in t:
        z = v << 1 if v >= 0 else (-v << 1) - 1
        while z > 0x7F:
            out.append(z & 0x7F | 0x80)
            z >>= 7
        out.append(z)
    return bytes(out)


def decode(b):
    """The record that `encode` wrote, as a tuple."""
    out = []
    z = 0
    shift = 0
    for x in b:
        z |= (x & 0x7F) << shift
        shift += 7
        if not x & 0x80:
            out.append(z >> 1 if not z & 1 else -((z + 1) >> 1))
            z = 0
            shift = 0
    return tuple(out)


def copy_value(v):
    """A state attribute's value as a checkpoint holds it, or as restored from
    one: bytearrays and lists (their items too) copied, so that neither is
    ever the other's; ints, bools, strings, None and tuples shared, as nothing
    changes them in place. So are functions: no game's State holds one, but
    a host tool may wrap a method on a state (altar_host.sheet_facts wraps
    end_round). Any other kind (a dict, an object) is refused: it could be
    changed in place, and a game's State holds none."""
    t = type(v)
    if t is bytearray:
        return bytearray(v)
    if t is list:
        return [copy_value(x) for x in v]
    # type(): CPython counts True as an int, MicroPython does not.
    if v is None or t is int or t is bool or t is str or t is tuple or callable(v):
        return v
    raise TypeError("a checkpoint cannot copy a %s" % t.__name__)


class Session:
    """One game: the header, the state and the actions that made it."""

    def __init__(self, header):
        if type(header) is not dict:
            raise Rejected("the header must be a JSON object")
        keys(header, _HEADER)
        v = need(header, "altar")
        if type(v) is not int or v != 1:
            raise Rejected("unsupported log version; expected \"altar\": 1")
        mod = game_module(need(header, "game"))
        players = need_list(need(header, "players"), "players", 1, 8)
        for p in players:
            if type(p) is not str or not p:
                raise Rejected("each player must be a non-empty name")
        first = header.get("first", 0)
        need_int(first, "first", 0, len(players) - 1, -1)
        seed = header.get("seed", 0)
        if type(seed) is not int:
            raise Rejected("seed must be an integer")
        options = header.get("options", {})
        deck = header.get("deck")
        if deck is not None and header["game"] != "fantasmagoria":
            raise Rejected("deck is only for fantasmagoria")
        self.mod = mod
        self.rules = mod.Rules(players, first, seed, options, deck)
        self.state = mod.State(self.rules)
        self.header = header
        self.kept = bytearray()    # the kept records: each a 2-byte length, then encode()
        self.count = 0             # how many records `kept` holds
        # Checkpoints, oldest first, each a list: the count of records and the
        # length of `kept` it follows, then each state attribute's name and a
        # copy of its value (a flat list takes less heap than a dict).
        self.marks = []

    def do(self, obj):
        """Apply one log action (a dict) or raise Rejected, changing nothing."""
        if type(obj) is not dict:
            raise Rejected("an action must be a JSON object")
        if need(obj, "do") == "undo":
            keys(obj, ("do",))
            self.undo()
            return
        t = self.mod.parse(self.rules, obj)
        self.play(t)

    def play(self, t):
        """Apply an action already in record form (the device's journal)."""
        self.state.check(t)
        self.state.apply(t)
        b = encode(t)
        n = len(b)
        k = self.kept
        k.append(n & 0xFF)
        k.append(n >> 8)
        k.extend(b)
        self._kept(len(k))

    def _kept(self, end):
        """One more record kept, `kept` read up to `end` (played, or replayed
        by undo): after every CHECKPOINT_EVERY-th, a checkpoint of the state."""
        self.count += 1
        c = self.count
        if c % CHECKPOINT_EVERY:
            return
        m = self.marks
        if len(m) >= CHECKPOINTS:
            m.pop(0)     # before the copy: the heap never holds CHECKPOINTS + 1
        d = self.state.__dict__
        # Sized once (appends would leave it up to twice as long): the count
        # and `end` take the place of the rules, shared and never changed.
        mark = [None] * (2 * len(d))
        mark[0] = c
        mark[1] = end
        i = 2
        for a in d:
            if a != "rules":
                mark[i] = a
                mark[i + 1] = copy_value(d[a])
                i += 2
        m.append(mark)

    def records(self):
        """The kept records as `encode` wrote them, oldest first."""
        k = self.kept
        i = 0
        while i < len(k):
            n = k[i] | k[i + 1] << 8
            yield k[i + 2:i + 2 + n]
            i += 2 + n

    @property
    def history(self):
        """The kept records, oldest first."""
        return [decode(b) for b in self.records()]

    def undo(self):
        k = self.kept
        if not k:
            raise Rejected("nothing to undo")
        i = last = 0
        while i < len(k):
            last = i
            i += 2 + (k[i] | k[i + 1] << 8)
        self.kept = k = k[:last]
        m = self.marks
        while m and m[-1][1] > last:
            m.pop()
        st = self.state
        if m:
            # Fresh copies: the checkpoint may be restored again.
            mark = m[-1]
            self.count = mark[0]
            i = mark[1]
            j = 2
            while j < len(mark):
                setattr(st, mark[j], copy_value(mark[j + 1]))
                j += 2
        else:
            self.count = 0
            i = 0
            st.reset()
        while i < last:
            j = i + 2 + (k[i] | k[i + 1] << 8)
            st.apply(decode(k[i + 2:j]))
            i = j
            self._kept(i)

    def view(self):
        return self.state.view()

    def actions(self):
        """The kept actions as log objects (undone ones are gone)."""
        un = self.mod.unparse
        return [un(decode(b)) for b in self.records()]
