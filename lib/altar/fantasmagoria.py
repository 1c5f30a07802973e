"""Fantasmagória: the sacrifice, possession, the planchette, the end of a
round, scares on the track and the spirit's tie-break.

A card is an int: suit << 5 | number, plus CURSED for a suit's cursed card
(suits 0..3 gato, vela, bode, boneca; 4 fantasma; the Copo is COPO). When a
round ends is `State.end_round`. Referee entry, the cards as the table
played them (a trick played out card by card, the Copo, the deck), is
altar.fantasmagoria_cards, loaded only by a log that names cards: quick
entry, what the device journals, never needs it, and the board's heap is
small.
"""

from altar.core import (Rejected, choice, const, ints, keys, need, need_int, need_list, quote,
                        setup_rules, well_formed)

NAME = "fantasmagoria"
ROUNDS = const(3)

SUITS = ("gato", "vela", "bode", "boneca", "fantasma")
VELA = const(1)
BODE = const(2)
GHOST = const(4)
NOCOPO = const(5)       # where State.void keeps the Copo, which has no suit
COPO = const(0xA0)      # suit 5, no number
CURSED = const(0x100)
FILIPI = const(0x147)   # CURSED | bode << 5 | 7

# Each ritual suit's cursed card, and what it scares; Filipi Bode has its own
# rule (its ghosts count 2, or from 7 on nothing counts).
CURSES = ("gato-da-sorte", "candelabro", "filipi-bode", "belleanna")
SCARES = (-3, 2, 0, 4)
FILIPI_LIMIT = const(6)
_LENIENT = (-1, -1, 7, -1)  # without a deck only Filipi Bode's number is known

# Defaults from the rules notes; each can be changed in the header's options.
OPTIONS = {
    "led_copo": "next",          # a led Copo: the next card sets the lead suit, or "free": none does
    "copo_follows": True,        # playing the Copo is never failing to follow
    "copo_traps_filipi": True,   # a Filipi Bode that wins a Copo trick is trapped, with no effect
    "track_floor": True,         # the track never goes below 0
    "odd_card": "aside",         # the card left over when dealing evenly is set aside, or "dealt": a seat holds it
    "only_ghosts": "lead",       # a leader holding only ghosts leads one, or "end": the round ends
}

# Records: a verb, then ints. Public for altar.fantasmagoria_cards, which
# checks referee entry and counts the hands when the deck is known.
SACRIFICE = const(1)    # (verb, card per seat in seat order)
SET_TRUMP = const(2)    # (verb, trump, leader)
TRICK = const(3)        # (verb, card per seat in play order, then the piles taken)
POSSESS = const(4)      # (verb, seat, number; -1 for the Copo)
TRICK_WON = const(5)   # (verb, winner)
LEFTOVER = const(6)     # (verb, then per seat: count, cards)
PILES = const(7)        # (verb, then per seat: ghosts, cursed suits mask)


_referee = None


def referee():
    """The referee-entry module, imported on first use and kept (an import
    statement at every action costs CPython's import machinery)."""
    global _referee
    if _referee is None:
        from altar import fantasmagoria_cards
        _referee = fantasmagoria_cards
    return _referee


class Rules:
    """Fixed for a session: who plays, the options and the deck."""

    def __init__(self, players, first, seed, options, deck):
        o = setup_rules(self, NAME, 3, 4, OPTIONS, players, first, seed, options)
        self.free_copo = not choice(o, "led_copo", "next", "free")
        self.copo_follows = o["copo_follows"]
        self.traps_filipi = o["copo_traps_filipi"]
        self.floor = o["track_floor"]
        self.aside = choice(o, "odd_card", "aside", "dealt")
        self.ghost_end = not choice(o, "only_ghosts", "lead", "end")
        self.seats = n = len(players)
        self.ghosts = 12 if n == 4 else 9
        self.deal = 0           # cards dealt to each seat, when the deck is known
        if deck is None:
            self.lo, self.hi, self.known = 1, 20, _LENIENT
        else:
            self.lo, self.hi, self.known = referee().parse_deck(deck)
            # A ritual suit a seat, each numbered lo..hi, and the Copo: one
            # card does not deal out evenly (option odd_card).
            self.deal = self.hi - self.lo + 1


def scares(ghosts, curses, filipi):
    """A pile's scares: a ghost 1, each cursed card (bit per suit in
    `curses`) its value. With Filipi Bode won, ghosts count 2 each, or with
    7 ghosts or more the pile scores nothing, cursed cards included."""
    if filipi and ghosts > FILIPI_LIMIT:
        return 0
    p = ghosts * 2 if filipi else ghosts
    for s in range(4):
        if curses >> s & 1:
            p += SCARES[s]
    return p


class State:
    """The mutable state of one game; built once, reset in place."""

    def __init__(self, rules):
        self.rules = rules
        n = rules.seats
        # Per card (without its cursed flag), this round: 1 played in a
        # trick or left in hand, 2 sacrificed (referee entry).
        self.seen = bytearray(COPO + 1)
        # void[seat * 6 + suit] (NOCOPO: the Copo): the trick (1, 2, ...) in
        # which the seat showed it holds none of the suit, this round. See
        # altar.fantasmagoria_cards for the pile taken in that trick.
        self.void = bytearray(6 * n)
        self.took = bytearray(n)     # the sacrificed card of the pile each seat took (0xFF unknown)
        self.shown = bytearray(n)    # ghosts each seat played or kept (a pile has 3)
        self.hand = bytearray(n)     # cards in each hand, counted when the deck is known
        self.ghosts = bytearray(n)   # ghosts in each seat's pile, this round
        self.curses = bytearray(n)   # cursed cards (bit per suit) in each pile
        self.track = [0] * n
        self.rounds = []
        self.reset()

    def reset(self):
        for i in range(self.rules.seats):
            self.track[i] = 0
        del self.rounds[:]
        self.round = 1
        self.over = False
        self.winners = []
        self.spirit = False
        self._new_round()

    def _new_round(self):
        for b in (self.seen, self.void, self.shown, self.hand, self.ghosts, self.curses):
            for i in range(len(b)):
                b[i] = 0
        for i in range(len(self.took)):
            self.took[i] = 0xFF
        self.trump = -1
        self.leader = -1      # both -1 until the sacrifice
        self.low = -1         # the sacrifice's trump: no sacrificed card is lower
        self.sacs = False     # the sacrificed cards are known (referee entry)
        self.tricks = 0       # tricks played this round
        self.odd = 0 if self.rules.aside else 1   # the odd card's seat is unknown (counted hands)
        self.possessed = 0    # bit per seat
        self.cursed = 0       # cursed cards seen this round, bit per suit
        self.filipi = -1      # seat that won a trick with Filipi Bode
        self.trapped = 0      # ghosts trapped on the Copo
        self.trapped_c = 0    # cursed cards trapped on the Copo
        self.open = False     # a quick possession awaits its trick's winner
        self.quick = False    # a trick was entered as its result: no pile to score

    # -- checks: raise Rejected, change nothing --------------------------

    def check(self, t):
        if self.over:
            raise Rejected("the game is over")
        r = self.rules
        shape(r, t)
        v = t[0]
        if self.leader < 0:
            if v > SET_TRUMP:
                raise Rejected("round %d starts with the sacrifice" % self.round)
        elif v <= SET_TRUMP:
            raise Rejected("round %d's sacrifice is done" % self.round)
        if self.open and v != POSSESS and v != TRICK_WON:
            raise Rejected("a quick possession was entered: close the trick with its winner")
        if v == POSSESS:
            if self.possessed >> t[1] & 1:
                from altar.seats import seat_ref
                raise Rejected("%s is already possessed this round" % seat_ref(t[1]))
        if v == SACRIFICE or v == TRICK or v == LEFTOVER:
            referee().check(self, t)
        if r.deal:
            referee().count_check(self, t)

    # -- changes: only after check() passed ---------------------------------

    def apply(self, t):
        v = t[0]
        before = self.possessed
        if v == TRICK or v == TRICK_WON:
            self.tricks += 1
        if v == SACRIFICE or v == TRICK or v == LEFTOVER:
            referee().apply(self, t)
        elif v == SET_TRUMP:
            self.trump = self.low = t[1]
            self.leader = t[2]
        elif v == POSSESS:
            # The planchette moves for the trick's first possession only.
            if not self.open and t[2] >= 0:
                self.trump = t[2]
            self.possessed |= 1 << t[1]
            self.open = True
            self.quick = True
        elif v == TRICK_WON:
            self.leader = t[1]
            self.open = False
            self.quick = True
        else:
            for seat in range(self.rules.seats):
                self.ghosts[seat] = t[1 + 2 * seat]
                m = t[2 + 2 * seat]
                self.curses[seat] = m
                if m >> BODE & 1:
                    self.filipi = seat
            self.end_round()
        if self.rules.deal and v < LEFTOVER:
            referee().count_apply(self, t, before)

    def end_round(self):
        """A round ended: each pile's scares move its seat on the track (what
        the Copo still traps counts for nobody); after 3 rounds the lowest
        track wins, a tie broken by the spirit."""
        r = self.rules
        row = [scares(self.ghosts[s], self.curses[s], s == self.filipi) for s in range(r.seats)]
        self.rounds.append(row)
        for s in range(r.seats):
            self.track[s] += row[s]
            if r.floor and self.track[s] < 0:
                self.track[s] = 0
        if self.round < ROUNDS:
            self.round += 1
            self._new_round()
            return
        low = min(self.track)
        tied = [s for s in range(r.seats) if self.track[s] == low]
        if len(tied) > 1:
            # The spirit chooses, from the session's seed: a replay agrees.
            from altar.rng import Rng      # needed only here: loaded only then
            tied = [tied[Rng(r.seed).below(len(tied))]]
            self.spirit = True
        self.winners = tied
        self.over = True

    # -- what the replay prints -------------------------------------------

    def view(self):
        n = self.rules.seats
        return {
            "game": NAME,
            "status": "over" if self.over else "playing",
            "winners": list(self.winners),
            "round": self.round,
            "trump": None if self.trump < 0 else self.trump,
            "leader": None if self.leader < 0 else self.leader,
            "possessed": [bool(self.possessed >> s & 1) for s in range(n)],
            "rounds": [list(x) for x in self.rounds],
            "scares": list(self.track),
            "spirit": self.spirit,
        }


# -- log actions <-> records (tuples: a verb code, then ints) ----------------

_PILE_KEYS = ("ghosts",) + CURSES


def parse(rules, d):
    verb = d["do"]
    n = rules.seats
    if verb == "sacrifice":
        if "cards" in d:
            return referee().parse(rules, d)
        keys(d, ("do", "trump", "leader"))
        return (SET_TRUMP, need_int(need(d, "trump"), "trump", rules.lo, rules.hi),
                need_int(need(d, "leader"), "leader", 0, n - 1, -1))
    if verb == "trick":
        if "cards" in d:
            return referee().parse(rules, d)
        keys(d, ("do", "winner"))
        return (TRICK_WON, need_int(need(d, "winner"), "winner", 0, n - 1, -1))
    if verb == "possess":
        keys(d, ("do", "seat", "number"))
        seat = need_int(need(d, "seat"), "seat", 0, n - 1, -1)
        num = need(d, "number")
        if num is None:
            if rules.copo_follows:
                raise Rejected("number null (the Copo) possesses only with option "
                               "copo_follows false")
            return (POSSESS, seat, -1)
        return (POSSESS, seat, need_int(num, "number", rules.lo, rules.hi))
    if verb == "end-round":
        if "leftover" in d:
            return referee().parse(rules, d)
        keys(d, ("do", "piles"))
        return _piles(rules, need_list(need(d, "piles"), "piles", n, n))
    raise Rejected("unknown verb %s for fantasmagoria" % quote(verb))


def _piles(rules, piles):
    t = [PILES]
    for p in piles:
        if type(p) is not dict:
            raise Rejected("a pile must be an object")
        keys(p, _PILE_KEYS)
        t.append(need_int(p.get("ghosts", 0), "ghosts", 0, rules.ghosts))
        m = 0
        for s in range(4):
            if need_int(p.get(CURSES[s], 0), CURSES[s], 0, 1):
                m |= 1 << s
        t.append(m)
    _check_piles(rules, t)
    return tuple(t)


def _check_piles(rules, t):
    """What one seat's pile cannot tell: the ghosts and cursed cards the
    piles hold together."""
    total = 0
    held = 0
    for i in range(1, len(t), 2):
        g = t[i]
        m = t[i + 1]
        well_formed(0 <= g <= rules.ghosts and 0 <= m < 16, t)
        total += g
        for s in range(4):
            if m >> s & 1:
                if held >> s & 1:
                    raise Rejected("two piles hold %s" % CURSES[s])
                if s == VELA and rules.seats == 3:
                    raise Rejected("candelabro is out of the game with 3 players")
        held |= m
    if total > rules.ghosts:
        raise Rejected("the piles hold %d ghosts; the game has %d" % (total, rules.ghosts))


def shape(rules, t):
    """Refuse a record `parse` could not have made (a journal's frame may
    hold anything): its verb, length and ranges, a pile's whole table."""
    r = rules
    n = r.seats
    k = len(t)
    v = t[0] if k else 0
    if v == SACRIFICE or v == TRICK or v == LEFTOVER:
        referee().shape(r, t)
        return
    well_formed(v == SET_TRUMP and k == 3 and ints(t, 1, 2, r.lo, r.hi) and ints(t, 2, 3, 0, n - 1)
                or v == POSSESS and k == 3 and ints(t, 1, 2, 0, n - 1)
                and (ints(t, 2, 3, r.lo, r.hi) or t[2] == -1 and not r.copo_follows)
                or v == TRICK_WON and k == 2 and ints(t, 1, 2, 0, n - 1)
                or v == PILES and k == 2 * n + 1, t)
    if v == PILES:
        _check_piles(r, t)


def unparse(t):
    v = t[0]
    if v == SACRIFICE or v == TRICK or v == LEFTOVER:
        return referee().unparse(t)
    if v == SET_TRUMP:
        return {"do": "sacrifice", "trump": t[1], "leader": t[2]}
    if v == POSSESS:
        return {"do": "possess", "seat": t[1], "number": None if t[2] < 0 else t[2]}
    if v == TRICK_WON:
        return {"do": "trick", "winner": t[1]}
    piles = []
    for i in range(1, len(t), 2):
        p = {"ghosts": t[i]}
        for s in range(4):
            p[CURSES[s]] = t[i + 1] >> s & 1
        piles.append(p)
    return {"do": "end-round", "piles": piles}
