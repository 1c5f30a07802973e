"""Fantasmagória: the sacrifice, tricks with possession, the planchette and
the Copo, the end of a round, scares on the track and the spirit's tie-break.

A card is an int: suit << 5 | number, plus CURSED for a suit's cursed card
(suits 0..3 gato, vela, bode, boneca; 4 fantasma; the Copo is COPO). What
happens when a trick ends is `State._trick`; when a round ends,
`State._end_round`. The deck is data (`Rules`): without the header's `deck`
numbers run 1..20 and a cursed card is known by its name, the 7 of bode
always being Filipi Bode.
"""

from altar.core import Rejected, const, keys, need, need_int, need_list, setup_rules
from altar.jsonout import dumps
from altar.rng import Rng

NAME = "fantasmagoria"
ROUNDS = const(3)

SUITS = ("gato", "vela", "bode", "boneca", "fantasma")
_VELA = const(1)
_BODE = const(2)
_GHOST = const(4)
COPO = const(0xA0)      # suit 5, no number
CURSED = const(0x100)
FILIPI = const(0x147)   # CURSED | bode << 5 | 7
_ID = const(0xFF)       # a card without its cursed flag: what the table sees

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
}

_SACRIFICE = const(1)   # (verb, card per seat in seat order)
_SET_TRUMP = const(2)   # (verb, trump, leader)
_TRICK = const(3)       # (verb, card per seat in play order)
_POSSESS = const(4)     # (verb, seat, number; -1 for the Copo)
_TRICK_WON = const(5)   # (verb, winner)
_LEFTOVER = const(6)    # (verb, then per seat: count, cards)
_PILES = const(7)       # (verb, then per seat: ghosts, cursed suits mask)


def _deck(deck):
    """The header's deck -> (lo, hi, cursed card's number per suit)."""
    if type(deck) is not dict:
        raise Rejected("deck must be an object")
    keys(deck, ("numbers", "cursed"))
    nums = need_list(need(deck, "numbers"), "the deck's numbers", 2, 2)
    lo = need_int(nums[0], "the deck's lowest number", 0, 31)
    hi = need_int(nums[1], "the deck's highest number", lo, 31)
    if lo > 7 or hi < 7:
        raise Rejected("the deck's numbers must include 7 (Filipi Bode is the 7 of bode)")
    cursed = need(deck, "cursed")
    if type(cursed) is not dict:
        raise Rejected("the deck's cursed must be an object")
    keys(cursed, CURSES)
    known = [7, 7, 7, 7]
    for s in range(4):
        name = CURSES[s]
        if s == _BODE:
            if name in cursed and cursed[name] != ["bode", 7]:
                raise Rejected('filipi-bode is always ["bode", 7]')
            continue
        c = need_list(need(cursed, name), name, 2, 2)
        if c[0] != SUITS[s]:
            raise Rejected("%s is a %s card" % (name, SUITS[s]))
        known[s] = need_int(c[1], name + "'s number", lo, hi)
    return lo, hi, known


class Rules:
    """Fixed for a session: who plays, the options and the deck."""

    def __init__(self, players, first, seed, options, deck):
        o = setup_rules(self, NAME, 3, 4, OPTIONS, players, first, seed, options)
        if o["led_copo"] not in ("next", "free"):
            raise Rejected("option 'led_copo' must be \"next\" or \"free\"")
        self.free_copo = o["led_copo"] == "free"
        self.copo_follows = o["copo_follows"]
        self.traps_filipi = o["copo_traps_filipi"]
        self.floor = o["track_floor"]
        self.seats = n = len(players)
        self.ghosts = 12 if n == 4 else 9
        self.lo, self.hi, self.known = (1, 20, _LENIENT) if deck is None else _deck(deck)


def card(rules, c):
    """A log card -> its int, or Rejected for a card this game cannot hold."""
    if type(c) is not list or not c or len(c) > 3:
        raise Rejected('a card must be [suit, number], [suit, number, name] or ["copo"]')
    if c == ["copo"]:
        return COPO
    if type(c[0]) is not str or c[0] not in SUITS or len(c) < 2:
        raise Rejected("unknown card %s" % dumps(c))
    s = SUITS.index(c[0])
    if s == _GHOST:
        if len(c) == 3:
            raise Rejected("a ghost has no name")
        n = need_int(c[1], "a ghost's number", 1, 12)
        if rules.seats == 3 and 9 <= n <= 11:
            raise Rejected("ghosts 9, 10 and 11 are out of the game with 3 players")
        return _GHOST << 5 | n
    n = need_int(c[1], "a card's number", rules.lo, rules.hi)
    if s == _VELA and rules.seats == 3:
        raise Rejected("vela cards are out of the game with 3 players")
    want = rules.known[s]
    cursed = n == want
    if len(c) == 3:
        name = c[2]
        if name not in CURSES:
            raise Rejected("unknown cursed card %s" % dumps(name))
        k = CURSES.index(name)
        if k != s:
            raise Rejected("%s is a %s card" % (name, SUITS[k]))
        if want >= 0 and not cursed:
            raise Rejected("%s is [\"%s\", %d]" % (name, SUITS[s], want))
        cursed = True
    return s << 5 | n | (CURSED if cursed else 0)


def card_json(c):
    if c == COPO:
        return ["copo"]
    s = c >> 5 & 7
    if c & CURSED:
        return [SUITS[s], c & 31, CURSES[s]]
    return [SUITS[s], c & 31]


def _text(c):
    return dumps(card_json(c))


# Pure functions: the rules of a trick and of scoring.

def lead_suit(cards, free_copo):
    """The suit to follow: the first suited card's; -1 when a led Copo
    leaves the trick without one (option led_copo "free")."""
    if cards[0] == COPO and free_copo:
        return -1
    for c in cards:
        if c != COPO:
            return c >> 5 & 7
    return -1


def trick_winner(cards, trump, lead):
    """Index of the winning card: the earliest showing the trump number (any
    suit, ghosts too), else the highest of the lead suit (with no lead suit,
    the highest number). The Copo never wins."""
    best = -1
    for i in range(len(cards)):
        c = cards[i]
        if c == COPO:
            continue
        if c & 31 == trump:
            return i
        if (lead < 0 or c >> 5 & 7 == lead) and (best < 0 or c & 31 > cards[best] & 31):
            best = i
    return best


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


def scary(cards):
    """(ghosts, cursed cards as a bit per suit) among `cards`; Filipi Bode
    scores only through a trick won with it, so it is not counted here."""
    g = 0
    m = 0
    for c in cards:
        if c >> 5 & 7 == _GHOST:
            g += 1
        elif c & CURSED and c != FILIPI:
            m |= 1 << (c >> 5 & 7)
    return g, m


class State:
    """The mutable state of one game; built once, reset in place."""

    def __init__(self, rules):
        self.rules = rules
        n = rules.seats
        # Per card (without its cursed flag), this round: 1 played in a
        # trick or left in hand, 2 sacrificed.
        self.seen = bytearray(COPO + 1)
        self.void = bytearray(n)     # suits a seat showed it lacks, this round
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
        for b in (self.seen, self.void, self.ghosts, self.curses):
            for i in range(len(b)):
                b[i] = 0
        self.trump = -1
        self.leader = -1      # both -1 until the sacrifice
        self.possessed = 0    # bit per seat
        self.sac_suits = 0    # suits among the sacrificed cards (all: unknown)
        self.cursed = 0       # cursed cards seen this round, bit per suit
        self.filipi = -1      # seat that won a trick with Filipi Bode
        self.trapped = 0      # ghosts trapped on the Copo
        self.trapped_c = 0    # cursed cards trapped on the Copo
        self.open = False     # a quick possession awaits its trick's winner
        self.quick = False    # this round has quick entries: no pile to score

    # -- checks: raise Rejected, change nothing --------------------------

    def check(self, t):
        if self.over:
            raise Rejected("the game is over")
        v = t[0]
        if self.leader < 0:
            if v > _SET_TRUMP:
                raise Rejected("round %d starts with the sacrifice" % self.round)
        elif v <= _SET_TRUMP:
            raise Rejected("round %d's sacrifice is done" % self.round)
        if self.open and v != _POSSESS and v != _TRICK_WON:
            raise Rejected("a quick possession was entered: close the trick with its winner")
        if v == _SACRIFICE:
            self._check_sacrifice(t[1:])
        elif v == _TRICK:
            self._check_trick(t[1:])
        elif v == _POSSESS:
            if self.possessed >> t[1] & 1:
                raise Rejected("seat %d is already possessed this round" % t[1])
        elif v == _LEFTOVER:
            self._check_leftover(t)

    def _check_sacrifice(self, cards):
        for c in cards:
            if c == COPO or c >> 5 & 7 == _GHOST:
                raise Rejected("a sacrifice must be a ritual card, not %s" % _text(c))
            if c & CURSED:
                raise Rejected("cursed cards cannot be sacrificed: %s" % _text(c))
        _distinct(cards)

    def _check_trick(self, cards):
        r = self.rules
        _distinct(cards)
        # After a led Copo the next card leads the suit: the same holds for it.
        if (lead_suit(cards, r.free_copo) == _GHOST
                and self.possessed != (1 << r.seats) - 1):
            raise Rejected("a ghost may lead only when every seat is possessed")
        for i in range(r.seats):
            self._check_held((self.leader + i) % r.seats, cards[i])

    def _check_leftover(self, t):
        if self.quick:
            raise Rejected("this round has quick entries: end it with piles")
        i = 1
        cards = []
        empty = False
        for seat in range(self.rules.seats):
            k = t[i]
            empty = empty or k == 0
            for c in t[i + 1:i + 1 + k]:
                self._check_held(seat, c)
                cards.append(c)
            i += k + 1
        _distinct(cards)
        if not empty:
            raise Rejected("a round ends when a seat has no card left; every seat here has some")

    def _check_held(self, seat, c):
        """Could `seat` hold card c now? What the round showed says no if
        the card is gone, or if the seat lacks its suit or its pile."""
        seen = self.seen[c & _ID]
        if seen & 1:
            raise Rejected("card %s was already played this round" % _text(c))
        s = c >> 5 & 7
        if c & CURSED and self.cursed >> s & 1:
            raise Rejected("%s was already played this round" % CURSES[s])
        if not self.possessed >> seat & 1:
            if s == _GHOST:
                raise Rejected("seat %d is not possessed, so it holds no ghost" % seat)
            if seen & 2:
                raise Rejected("card %s was sacrificed: only a possessed seat can hold it"
                               % _text(c))
        if c != COPO and self.void[seat] >> s & 1:
            raise Rejected("seat %d did not follow %s earlier in this round, so it cannot "
                           "hold %s" % (seat, SUITS[s], _text(c)))

    # -- changes: only after check() passed ---------------------------------

    def apply(self, t):
        v = t[0]
        if v == _SACRIFICE:
            low = 1
            for i in range(2, len(t)):
                # Lowest number; on equal numbers gato < vela < bode < boneca.
                if (t[i] & 31, t[i]) < (t[low] & 31, t[low]):
                    low = i
            for c in t[1:]:
                self.seen[c] = 2
                self.sac_suits |= 1 << (c >> 5)
            self.trump = t[low] & 31
            self.leader = low - 1
        elif v == _SET_TRUMP:
            self.sac_suits = 0xF
            self.trump = t[1]
            self.leader = t[2]
        elif v == _TRICK:
            self._trick(t[1:])
        elif v == _POSSESS:
            # The planchette moves for the trick's first possession only.
            if not self.open and t[2] >= 0:
                self.trump = t[2]
            self.possessed |= 1 << t[1]
            self.open = True
            self.quick = True
        elif v == _TRICK_WON:
            self.leader = t[1]
            self.open = False
            self.quick = True
        elif v == _LEFTOVER:
            i = 1
            for seat in range(self.rules.seats):
                k = t[i]
                self._take(seat, t[i + 1:i + 1 + k])
                i += k + 1
            self._end_round()
        else:
            for seat in range(self.rules.seats):
                self.ghosts[seat] = t[1 + 2 * seat]
                m = t[2 + 2 * seat]
                self.curses[seat] = m
                if m >> _BODE & 1:
                    self.filipi = seat
            self._end_round()

    def _trick(self, cards):
        """A trick ended (referee entry): possession and the planchette as
        each card falls, then the winner, who takes the cards (the Copo
        keeps what scares for the next trick's winner)."""
        r = self.rules
        n = r.seats
        lead = lead_suit(cards, r.free_copo)
        moved = False
        copo = False
        for i in range(n):
            c = cards[i]
            seat = (self.leader + i) % n
            self.seen[c & _ID] |= 1
            if c & CURSED:
                self.cursed |= 1 << (c >> 5 & 7)
            if c == COPO:
                copo = True
                # A led Copo comes before any suit; otherwise an option.
                if i == 0 or r.copo_follows:
                    continue
            if lead < 0 or c >> 5 & 7 == lead:
                continue
            # Not following means not able to: the seat lacks the lead suit,
            # unless the ghost pile it takes now may bring one back.
            if self.possessed >> seat & 1:
                self.void[seat] |= 1 << lead
                continue
            self.possessed |= 1 << seat
            if not self.sac_suits >> lead & 1:
                self.void[seat] |= 1 << lead
            if not moved:
                moved = True
                if c != COPO:
                    self.trump = c & 31
        w = trick_winner(cards, self.trump, lead)
        winner = (self.leader + w) % n
        self.leader = winner
        if cards[w] == FILIPI and not (copo and r.traps_filipi):
            self.filipi = winner
        # What an earlier Copo trapped goes to this trick's winner; a Copo
        # now traps what scares in this trick.
        self.ghosts[winner] += self.trapped
        self.curses[winner] |= self.trapped_c
        self.trapped = 0
        self.trapped_c = 0
        if copo:
            self.trapped, self.trapped_c = scary(cards)
        else:
            self._take(winner, cards)

    def _take(self, seat, cards):
        """Cards go to a seat's pile."""
        g, m = scary(cards)
        self.ghosts[seat] += g
        self.curses[seat] |= m

    def _end_round(self):
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


def _distinct(cards):
    """No card twice in one action, nor two cards named as one cursed card."""
    for i in range(len(cards)):
        for j in range(i):
            a = cards[i]
            b = cards[j]
            if a & _ID == b & _ID:
                raise Rejected("card %s appears twice" % _text(a))
            if a & b & CURSED and a >> 5 == b >> 5:
                raise Rejected("two cards are named %s" % CURSES[a >> 5 & 7])


# -- log actions <-> records (tuples: a verb code, then ints) ----------------

_PILE_KEYS = ("ghosts",) + CURSES


def _cards(rules, verb, v, what):
    t = [verb]
    for c in need_list(v, what, rules.seats, rules.seats):
        t.append(card(rules, c))
    return tuple(t)


def parse(rules, d):
    verb = d["do"]
    n = rules.seats
    if verb == "sacrifice":
        if "cards" in d:
            keys(d, ("do", "cards"))
            return _cards(rules, _SACRIFICE, d["cards"], "cards")
        keys(d, ("do", "trump", "leader"))
        return (_SET_TRUMP, need_int(need(d, "trump"), "trump", rules.lo, rules.hi),
                need_int(need(d, "leader"), "leader", 0, n - 1))
    if verb == "trick":
        if "cards" in d:
            keys(d, ("do", "cards"))
            return _cards(rules, _TRICK, d["cards"], "cards")
        keys(d, ("do", "winner"))
        return (_TRICK_WON, need_int(need(d, "winner"), "winner", 0, n - 1))
    if verb == "possess":
        keys(d, ("do", "seat", "number"))
        seat = need_int(need(d, "seat"), "seat", 0, n - 1)
        num = need(d, "number")
        if num is None:
            if rules.copo_follows:
                raise Rejected("number null (the Copo) possesses only with option "
                               "copo_follows false")
            return (_POSSESS, seat, -1)
        return (_POSSESS, seat, need_int(num, "number", rules.lo, rules.hi))
    if verb == "end-round":
        if "leftover" in d:
            keys(d, ("do", "leftover"))
            t = [_LEFTOVER]
            for hand in need_list(d["leftover"], "leftover", n, n):
                need_list(hand, "a seat's leftover", 0, 99)
                t.append(len(hand))
                for c in hand:
                    t.append(card(rules, c))
            return tuple(t)
        keys(d, ("do", "piles"))
        return _piles(rules, need_list(need(d, "piles"), "piles", n, n))
    raise Rejected("unknown verb for fantasmagoria")


def _piles(rules, piles):
    t = [_PILES]
    total = 0
    held = 0
    for p in piles:
        if type(p) is not dict:
            raise Rejected("a pile must be an object")
        keys(p, _PILE_KEYS)
        g = need_int(p.get("ghosts", 0), "ghosts", 0, rules.ghosts)
        total += g
        m = 0
        for s in range(4):
            if need_int(p.get(CURSES[s], 0), CURSES[s], 0, 1):
                if held >> s & 1:
                    raise Rejected("two piles hold %s" % CURSES[s])
                if s == _VELA and rules.seats == 3:
                    raise Rejected("candelabro is out of the game with 3 players")
                m |= 1 << s
        held |= m
        t.append(g)
        t.append(m)
    if total > rules.ghosts:
        raise Rejected("the piles hold %d ghosts; the game has %d" % (total, rules.ghosts))
    return tuple(t)


def unparse(t):
    v = t[0]
    if v == _SACRIFICE or v == _TRICK:
        return {"do": "sacrifice" if v == _SACRIFICE else "trick",
                "cards": [card_json(c) for c in t[1:]]}
    if v == _SET_TRUMP:
        return {"do": "sacrifice", "trump": t[1], "leader": t[2]}
    if v == _POSSESS:
        return {"do": "possess", "seat": t[1], "number": None if t[2] < 0 else t[2]}
    if v == _TRICK_WON:
        return {"do": "trick", "winner": t[1]}
    if v == _LEFTOVER:
        out = []
        i = 1
        while i < len(t):
            out.append([card_json(c) for c in t[i + 1:i + 1 + t[i]]])
            i += t[i] + 1
        return {"do": "end-round", "leftover": out}
    piles = []
    for i in range(1, len(t), 2):
        p = {"ghosts": t[i]}
        for s in range(4):
            p[CURSES[s]] = t[i + 1] >> s & 1
        piles.append(p)
    return {"do": "end-round", "piles": piles}
