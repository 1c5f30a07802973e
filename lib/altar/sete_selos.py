"""Cthulhu: Sete Selos: rules, options, state and scoring.

Seats are 0..n-1 clockwise; with 2 players the Banished Cultist is seat 2,
and where it sits changes with each series' first player (`State.left`).
Elders are kept 0..6 inside (value - 1) and shown 1..7. A card is kept as
sign * 8 + value. What happens when a ritual ends is `State.resolve`.
Referee entry, a ritual's cards as the table played them, is
altar.sete_selos_cards, loaded only by a log that names cards: quick entry,
what the device journals, never needs it.
"""

from altar.core import (Rejected, choice, const, ints, keys, need, need_int, need_list, quote,
                        setup_rules, well_formed)

NAME = "sete-selos"

# Defaults from the rules notes; each can be changed in the header's options.
OPTIONS = {
    "signs": [0, 1, 2],         # signs used with 2 or 3 players
    "power": [3, 5, 10],        # power of 1, 2, 3 own cultists on an Elder
    "power_2p_three": 10,       # 3 own cultists on an Elder with 2 players
    "banished_removal": "low",  # on equal power, remove from "low" or "high" Elders
    "banished_cultists": 4,     # the Banished wins with this many cultists anywhere
    "banished_insanity": 3,     # ... or this much insanity
    "banished_seating": "follow",  # its pile right of each series' first player, or "fixed": 2, 0, 1
    "four_elders_2p": False,    # a human's 9 cultists must stand on 4 Elders or more
}

# Immediate victory: the `top` largest own stacks add up to `need` or more
# (the smallest of them holding at least `least`), or insanity reaches
# `mad`. One formula reads the manual's headerless table.
# players: (top, need, mad, least)
_VICTORY = {4: (1, 3, 4, 0), 3: (2, 6, 5, 0), 2: (4, 9, 5, 0)}

# Records: a verb, then small ints. Public but quick entry's: referee entry
# (altar.sete_selos_cards) and the host's bots build the others.
_QUICK = const(1)
CARDS = const(2)
REDIRECT = const(3)
REMOVE = const(4)

_ALL = const(0x7F)  # every Elder revealed
_SERIES = const(7)  # rituals per series
_LAST = const(21)   # rituals in a game at most: 7 Elders, 3 cultists each

# What the state waits for before the next ritual (State.wait; public for
# the device's screens and the host's bots, which answer it).
_NONE = const(0)
WAIT_REDIRECT = const(1)
WAIT_REMOVE = const(2)


_referee = None


def referee():
    """The referee-entry module, imported on first use and kept (an import
    statement at every action costs CPython's import machinery)."""
    global _referee
    if _referee is None:
        from altar import sete_selos_cards
        _referee = sete_selos_cards
    return _referee


class Rules:
    """Fixed for a session: who plays and under which options."""

    def __init__(self, players, first, seed, options, deck):
        o = setup_rules(self, NAME, 2, 4, OPTIONS, players, first, seed, options)
        n = len(players)
        self.humans = n
        self.seats = n + 1 if n == 2 else n
        self.banished = 2 if n == 2 else -1
        self.signs = 0xF
        if n < 4:
            m = 0
            for x in need_list(o["signs"], "option 'signs'", 3, 3):
                m |= 1 << need_int(x, "a sign in option 'signs'", 0, 3)
            if m not in (0x7, 0xB, 0xD, 0xE):
                raise Rejected("option 'signs' must name 3 different signs")
            self.signs = m
        p = need_list(o["power"], "option 'power'", 3, 3)
        self.power = (0, p[0], p[1], o["power_2p_three"] if n == 2 else p[2])
        self.banished_low = choice(o, "banished_removal", "low", "high")
        self.follow = choice(o, "banished_seating", "follow", "fixed")
        v = _VICTORY[n]
        if n == 2 and o["four_elders_2p"]:
            v = (4, 9, 5, 1)
        self.victory = [v] * self.seats
        # The Banished's row (its stacks on all 7 Elders count), checked
        # with any player count so a header means one thing.
        b = (7, need_int(o["banished_cultists"], "option 'banished_cultists'", 1, 21),
             need_int(o["banished_insanity"], "option 'banished_insanity'", 1, 21), 0)
        if n == 2:
            self.victory[2] = b


# Pure functions: the rules of a ritual and of scoring.

def power_of(stacks, table):
    """Power of one seat from its 7 stacks (own cultists per Elder)."""
    p = 0
    for c in stacks:
        p += table[c]
    return p


def power_result(cult, seats, table):
    """(power per seat, winners, decider): highest power; ties by most
    cultists on Elder 7, then 6, ... 1; still tied: no winner. `decider` is
    the Elder value that broke a tie, 0 without a tie, -1 if none did."""
    powers = [power_of(cult[s * 7:s * 7 + 7], table) for s in range(seats)]
    top = max(powers)
    tied = [s for s in range(seats) if powers[s] == top]
    decider = 0
    e = 6
    while len(tied) > 1 and e >= 0:
        most = max([cult[s * 7 + e] for s in tied])
        tied = [s for s in tied if cult[s * 7 + e] == most]
        decider = e + 1 if len(tied) == 1 else -1
        e -= 1
    return powers, tied if len(tied) == 1 else [], decider


def removals(stacks, k, table, low=True, most=12):
    """The `most` best ways to remove k own cultists, best first, each as
    (the power the seat keeps, the Elder values removed, ascending): the
    most power kept, then on equal power more kept on the high Elders
    (low=True: take from lower Elders first) or on the low ones.

    A depth-first search over the Elders, the tie-break's first Elder first
    and the most kept on it first, cut wherever even the best power the
    Elders after it can keep (`best`, by the count still to remove) cannot
    reach the `most`-th found (4-8 times faster on the 32-bit VM than
    trying every removal). A loop, not a recursion (a call frame each
    Elder: the board's heap). A removal found is one int, its power then 2
    bits an Elder for what it keeps (an Elder holds at most 3, `table`'s
    last), so the search allocates nothing: on the board each object
    larger than 16 bytes costs a walk over the heap's holes
    (BENCHMARKS.md)."""
    k = min(k, sum(stacks))
    order = (6, 5, 4, 3, 2, 1, 0) if low else (0, 1, 2, 3, 4, 5, 6)
    w = k + 1
    # best[j * w + m]: the most power Elders order[j:] keep when m are
    # removed from them (None: they hold fewer than m).
    best = [None] * (8 * w)
    best[7 * w] = 0
    for j in range(6, -1, -1):
        n = stacks[order[j]]
        for m in range(w):
            b = None
            for r in range(min(m, n) + 1):
                v = best[(j + 1) * w + m - r]
                if v is not None and (b is None or v + table[n - r] > b):
                    b = v + table[n - r]
            best[j * w + m] = b
    found = []                  # the best removals' ints, best first
    kept = bytearray(7)         # what each Elder keeps, in the search's order
    left = bytearray(7)         # cultists still to remove before Elder j
    power = [0] * 7             # the power Elders before j keep
    last = stacks[order[6]]
    left[0] = k
    j = 0
    kept[0] = stacks[order[0]] + 1
    while j >= 0:
        n = stacks[order[j]]
        c = kept[j] - 1
        if c < 0 or c < n - left[j]:
            j -= 1
            continue
        kept[j] = c
        m = left[j] - n + c
        rest = best[(j + 1) * w + m]
        if rest is None:
            continue
        p = power[j] + table[c]
        if len(found) == most and p + rest < found[-1] >> 14:
            continue
        if j < 5:
            j += 1
            left[j] = m
            power[j] = p
            kept[j] = stacks[order[j]] + 1
            continue
        # The last Elder takes the m still to remove (rest is its power).
        kept[6] = last - m
        key = p + rest
        for i in range(7):
            key = key << 2 | kept[i]
        if len(found) < most or key > found[-1]:
            i = len(found)
            while i > 0 and found[i - 1] < key:
                i -= 1
            found.insert(i, key)
            if len(found) > most:
                found.pop()
    out = []
    for key in found:
        elders = [0] * k
        i = 0
        for e in range(7):
            c = stacks[e] - (key >> 2 * (e if low else 6 - e) & 3)
            while c:
                elders[i] = e + 1
                i += 1
                c -= 1
        out.append((key >> 14, elders))
    return out


def best_removal(stacks, k, table, low=True):
    """The first of `removals`' Elder values: what the Banished does, and the
    suggestion."""
    return removals(stacks, k, table, low, 1)[0][1]


class State:
    """The mutable state of one game; built once, reset in place."""

    def __init__(self, rules):
        self.rules = rules
        n = rules.seats
        self.cult = bytearray(7 * n)  # cult[seat * 7 + elder]
        self.ins = bytearray(n)
        self.left = bytearray(n)      # left[s]: the seat that plays after s
        self.void = bytearray(n)      # signs a seat showed it lacks, this series
        self.played = bytearray(4)    # values played per sign, this series
        self.reset()

    def reset(self):
        r = self.rules
        for b in (self.cult, self.ins, self.void, self.played):
            for i in range(len(b)):
                b[i] = 0
        self.rev = 0
        self.ritual = 0
        self.first = r.first  # this series' first player, who deals it
        self._seat()
        self.last = -1
        self.leader = r.banished if r.banished >= 0 else r.first
        self.wait = _NONE
        self.wseat = -1
        self.wcount = 0
        self.rm_next = 0
        self.over = False
        self.reason = None
        self.winners = []
        self.powers = None
        self.decider = 0   # the Elder that broke a tie by power (see power_result)

    # -- checks: raise Rejected, change nothing --------------------------

    def check(self, t):
        if self.over:
            raise Rejected("the game is over")
        shape(self.rules, t)
        v = t[0]
        if v == _QUICK or v == CARDS:
            if self.wait:
                self._check_no_wait()
            if v == CARDS:
                referee().check(self, t)
        elif v == REDIRECT:
            if self.wait != WAIT_REDIRECT:
                raise Rejected("no cultist is waiting to be redirected")
            if self.rev >> t[1] & 1:
                raise Rejected("Elder %d is revealed; choose a sealed Elder" % (t[1] + 1))
        elif v == REMOVE:
            if self.wait != WAIT_REMOVE:
                raise Rejected("no removal is due now")
            if t[1] != self.wseat:
                raise Rejected("%s removes now, not %s"
                               % (self.seat_text(self.wseat), self.seat_text(t[1])))
            if len(t) - 2 != self.wcount:
                raise Rejected("%s must remove %d cultists, not %d"
                               % (self.seat_text(self.wseat), self.wcount, len(t) - 2))
            for e in range(7):
                k = 0
                for x in t[2:]:
                    if x == e:
                        k += 1
                if k > self.cult[t[1] * 7 + e]:
                    raise Rejected("%s has %d cultists on Elder %d, cannot remove %d"
                                   % (self.seat_text(t[1]), self.cult[t[1] * 7 + e], e + 1, k))

    def _check_no_wait(self):
        if self.wait == WAIT_REDIRECT:
            raise Rejected("%s must first redirect its cultist to a sealed Elder"
                           % self.seat_text(self.wseat))
        if self.wait == WAIT_REMOVE:
            raise Rejected("the rituals are over: %s must remove %d cultists"
                           % (self.seat_text(self.wseat), self.wcount))

    def _seat(self):
        """Who plays after whom this series: clockwise by seat, except that
        with 2 players the Banished's pile sits to the right of the series'
        first player, so the Banished plays before the first player and
        after the other (option banished_seating "fixed": 2, 0, 1 always)."""
        r = self.rules
        n = r.seats
        for s in range(n):
            self.left[s] = (s + 1) % n
        if r.banished >= 0 and r.follow:
            f = self.first
            self.left[r.banished] = f
            self.left[f] = 1 - f
            self.left[1 - f] = r.banished

    def after(self, s, i):
        """The seat that plays i places after seat s."""
        while i:
            s = self.left[s]
            i -= 1
        return s

    def seat_text(self, s):
        """Seat s in a message: "P2 (seat 1)", "Ban (seat 2)"."""
        from altar.seats import seat_ref
        return seat_ref(s, self.rules.banished)

    # -- changes: only after check() passed ---------------------------------

    def apply(self, t):
        v = t[0]
        if v == _QUICK:
            self.resolve(t[1], t[2])
        elif v == CARDS:
            referee().apply(self, t)
        elif v == REDIRECT:
            self.wait = _NONE
            self._add(self.wseat, t[1])
        elif v == REMOVE:
            for e in t[2:]:
                self.cult[t[1] * 7 + e] -= 1
            self.wait = _NONE
            self._removals(self.rm_next + 1)

    def resolve(self, winner, value):
        """A ritual ended: seat `winner` won with a card of `value`."""
        r = self.rules
        self.ritual += 1
        self.last = winner
        self.leader = winner
        if self.ritual % _SERIES == 0:
            # The winner of a series' last ritual deals the next one; with 2
            # players the Banished leads it, and if it won, the human to its
            # right deals. The seats of the series just played stay for the
            # end by power after the last ritual.
            for b in (self.void, self.played):
                for i in range(len(b)):
                    b[i] = 0
            first = winner
            if r.banished >= 0:
                self.leader = r.banished
                if winner == r.banished:
                    first = self.after(r.banished, 2)
            if self.ritual < _LAST:
                self.first = first
                self._seat()
        self._place(winner, value - 1)

    def _place(self, seat, e):
        r = self.rules
        if self.rev >> e & 1:
            # A revealed Elder: insanity first (it may end the game), then the
            # cultist goes to a sealed Elder of the seat's choice.
            self.ins[seat] += 1
            if self._won(seat):
                return
            if seat != r.banished:
                self.wait = WAIT_REDIRECT
                self.wseat = seat
                return
            while self.rev >> e & 1:
                e = (e + 1) % 7
        self._add(seat, e)

    def _add(self, seat, e):
        self.cult[seat * 7 + e] += 1
        if self.elder_total(e) == 3:
            self.rev |= 1 << e
        if self._won(seat):
            return
        if self.rev == _ALL:
            self.rm_next = 0
            self._removals(0)

    def _won(self, seat):
        top, goal, mad, least = self.rules.victory[seat]
        own = sorted(self.stacks(seat))
        if self.ins[seat] >= mad or sum(own[7 - top:]) >= goal and own[7 - top] >= least:
            self.over = True
            self.reason = "immediate"
            self.winners = [seat]
            return True
        return False

    def _removals(self, j):
        """End by power: from the last ritual's winner clockwise, each seat
        removes as many own cultists as it has insanity, then all score."""
        r = self.rules
        n = r.seats
        while j < n:
            s = self.after(self.last, j)
            k = self.removal_count(s)
            if k:
                if s != r.banished:
                    self.wait = WAIT_REMOVE
                    self.wseat = s
                    self.wcount = k
                    self.rm_next = j
                    return
                for e in best_removal(self.stacks(s), k, r.power, r.banished_low):
                    self.cult[s * 7 + e - 1] -= 1
            j += 1
        self.powers, self.winners, self.decider = power_result(self.cult, n, r.power)
        self.over = True
        self.reason = "power"

    def removal_count(self, seat):
        return min(self.ins[seat], sum(self.stacks(seat)))

    def stacks(self, seat):
        return self.cult[seat * 7:seat * 7 + 7]

    def elder(self, e):
        """Cultists per seat on Elder e (0..6)."""
        c = self.cult
        return [c[s * 7 + e] for s in range(self.rules.seats)]

    def elder_total(self, e):
        t = 0
        for s in range(self.rules.seats):
            t += self.cult[s * 7 + e]
        return t

    # -- what the replay prints -------------------------------------------

    def view(self):
        aw = None
        if self.wait == WAIT_REDIRECT:
            aw = {"do": "redirect", "seat": self.wseat}
        elif self.wait == WAIT_REMOVE:
            aw = {"do": "remove", "seat": self.wseat, "count": self.wcount}
        return {
            "game": NAME,
            "status": "over" if self.over else "playing",
            "winners": list(self.winners),
            "ritual": self.ritual,
            "leader": self.leader,
            "first_player": self.first,
            "awaiting": aw,
            "elders": [{"value": e + 1, "revealed": bool(self.rev >> e & 1),
                        "cultists": self.elder(e)} for e in range(7)],
            "insanity": list(self.ins),
            "reason": self.reason,
            "power": None if self.powers is None else list(self.powers),
        }


def suggest(state, seat):
    """The best removal for `seat` now (highest own power, then most kept
    on the highest Elders): a list of Elder values for a `remove` action."""
    r = state.rules
    return best_removal(state.stacks(seat), state.removal_count(seat), r.power, True)


# -- log actions <-> records (bytes: 1 verb code, then small ints) ---------------------------------------------------

def parse(rules, d):
    verb = d["do"]
    n = rules.seats
    if verb == "ritual":
        if "cards" in d:
            return referee().parse(rules, d)
        keys(d, ("do", "winner", "value"))
        return bytes((_QUICK, need_int(need(d, "winner"), "winner", 0, n - 1, rules.banished),
                      need_int(need(d, "value"), "value", 1, 7)))
    if verb == "redirect":
        keys(d, ("do", "elder"))
        return bytes((REDIRECT, need_int(need(d, "elder"), "elder", 1, 7) - 1))
    if verb == "remove":
        keys(d, ("do", "seat", "elders"))
        t = [REMOVE, need_int(need(d, "seat"), "seat", 0, n - 1, rules.banished)]
        for e in need_list(need(d, "elders"), "elders", 1, 21):
            t.append(need_int(e, "an Elder", 1, 7) - 1)
        return bytes(t)
    raise Rejected("unknown verb %s for sete-selos" % quote(verb))


def shape(rules, t):
    """Refuse a record `parse` could not have made (a journal's frame may
    hold anything): its verb, length and ranges."""
    n = rules.seats
    k = len(t)
    v = t[0] if k else 0
    ok = (v == _QUICK and k == 3 and ints(t, 1, 2, 0, n - 1) and ints(t, 2, 3, 1, 7)
          or v == REDIRECT and k == 2 and ints(t, 1, 2, 0, 6)
          or v == REMOVE and 2 < k < 24 and ints(t, 1, 2, 0, n - 1) and ints(t, 2, k, 0, 6))
    if v == CARDS and k == n + 1:
        # A card is sign * 8 + value, its sign one in play.
        ok = True
        for i in range(1, k):
            c = t[i]
            ok = ok and 0 <= c < 32 and c & 7 and rules.signs >> (c >> 3) & 1
    well_formed(ok, t)


def unparse(t):
    v = t[0]
    if v == _QUICK:
        return {"do": "ritual", "winner": t[1], "value": t[2]}
    if v == CARDS:
        return referee().unparse(t)
    if v == REDIRECT:
        return {"do": "redirect", "elder": t[1] + 1}
    return {"do": "remove", "seat": t[1], "elders": [e + 1 for e in t[2:]]}
