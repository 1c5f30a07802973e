"""Fantasmagória's referee entry: the cards as the table played them.

A log that names cards (the sacrifice, a trick or the leftover hands as
cards, or a header's deck) loads this module; quick entry, what the device
journals, never does. Here a card is parsed and checked against what the
round has shown (could this seat hold it?), and a trick is played out card
by card: possession and the planchette as each card falls, the Copo, the
winner. The game itself, and what happens when a round ends, is
altar.fantasmagoria.
"""

from altar.core import Rejected, const, keys, need, need_int, need_list
from altar.fantasmagoria import (BODE, COPO, CURSED, CURSES, FILIPI, GHOST, LEFTOVER, SACRIFICE,
                                 SUITS, TRICK, VELA)
from altar.jsonout import dumps

_ID = const(0xFF)       # a card without its cursed flag: what the table sees


def parse_deck(deck):
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
        if s == BODE:
            if name in cursed and cursed[name] != ["bode", 7]:
                raise Rejected('filipi-bode is always ["bode", 7]')
            continue
        c = need_list(need(cursed, name), name, 2, 2)
        if c[0] != SUITS[s]:
            raise Rejected("%s is a %s card" % (name, SUITS[s]))
        known[s] = need_int(c[1], name + "'s number", lo, hi)
    return lo, hi, known


def card(rules, c):
    """A log card -> its int, or Rejected for a card this game cannot hold."""
    if type(c) is not list or not c or len(c) > 3:
        raise Rejected('a card must be [suit, number], [suit, number, name] or ["copo"]')
    if c == ["copo"]:
        return COPO
    if type(c[0]) is not str or c[0] not in SUITS or len(c) < 2:
        raise Rejected("unknown card %s" % dumps(c))
    s = SUITS.index(c[0])
    if s == GHOST:
        if len(c) == 3:
            raise Rejected("a ghost has no name")
        n = need_int(c[1], "a ghost's number", 1, 12)
        if rules.seats == 3 and 9 <= n <= 11:
            raise Rejected("ghosts 9, 10 and 11 are out of the game with 3 players")
        return GHOST << 5 | n
    n = need_int(c[1], "a card's number", rules.lo, rules.hi)
    if s == VELA and rules.seats == 3:
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


# Pure functions: the rules of a trick.

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


def scary(cards):
    """(ghosts, cursed cards as a bit per suit) among `cards`; Filipi Bode
    scores only through a trick won with it, so it is not counted here."""
    g = 0
    m = 0
    for c in cards:
        if c >> 5 & 7 == GHOST:
            g += 1
        elif c & CURSED and c != FILIPI:
            m |= 1 << (c >> 5 & 7)
    return g, m


# -- checks: raise Rejected, change nothing --------------------------------

def check(st, t):
    v = t[0]
    if v == SACRIFICE:
        _check_sacrifice(t[1:])
    elif v == TRICK:
        _check_trick(st, t[1:])
    else:
        _check_leftover(st, t)


def _check_sacrifice(cards):
    for c in cards:
        if c == COPO or c >> 5 & 7 == GHOST:
            raise Rejected("a sacrifice must be a ritual card, not %s" % _text(c))
        if c & CURSED:
            raise Rejected("cursed cards cannot be sacrificed: %s" % _text(c))
    _distinct(cards)

def _check_trick(st, cards):
    r = st.rules
    _distinct(cards)
    # After a led Copo the next card leads the suit: the same holds for it.
    if (lead_suit(cards, r.free_copo) == GHOST
            and st.possessed != (1 << r.seats) - 1):
        raise Rejected("a ghost may lead only when every seat is possessed")
    for i in range(r.seats):
        _check_held(st, (st.leader + i) % r.seats, cards[i])

def _check_leftover(st, t):
    if st.quick:
        raise Rejected("this round has quick entries: end it with piles")
    i = 1
    cards = []
    empty = False
    for seat in range(st.rules.seats):
        k = t[i]
        empty = empty or k == 0
        for c in t[i + 1:i + 1 + k]:
            _check_held(st, seat, c)
            cards.append(c)
        i += k + 1
    _distinct(cards)
    if not empty:
        raise Rejected("a round ends when a seat has no card left; every seat here has some")

def _check_held(st, seat, c):
    """Could `seat` hold card c now? What the round showed says no if
    the card is gone, or if the seat lacks its suit or its pile."""
    seen = st.seen[c & _ID]
    if seen & 1:
        raise Rejected("card %s was already played this round" % _text(c))
    s = c >> 5 & 7
    if c & CURSED and st.cursed >> s & 1:
        raise Rejected("%s was already played this round" % CURSES[s])
    if not st.possessed >> seat & 1:
        if s == GHOST:
            from altar.seats import seat_ref
            raise Rejected("%s is not possessed, so it holds no ghost" % seat_ref(seat))
        if seen & 2:
            raise Rejected("card %s was sacrificed: only a possessed seat can hold it"
                           % _text(c))
    if c != COPO and st.void[seat] >> s & 1:
        from altar.seats import seat_ref
        raise Rejected("%s did not follow %s earlier in this round, so it cannot "
                       "hold %s" % (seat_ref(seat), SUITS[s], _text(c)))


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


# -- changes: only after check() passed --------------------------------------

def apply(st, t):
    v = t[0]
    if v == SACRIFICE:
        low = 1
        for i in range(2, len(t)):
            # Lowest number; on equal numbers gato < vela < bode < boneca.
            if (t[i] & 31, t[i]) < (t[low] & 31, t[low]):
                low = i
        for c in t[1:]:
            st.seen[c] = 2
            st.sac_suits |= 1 << (c >> 5)
        st.trump = t[low] & 31
        st.leader = low - 1
    elif v == TRICK:
        _trick(st, t[1:])
    else:
        i = 1
        for seat in range(st.rules.seats):
            k = t[i]
            take(st, seat, t[i + 1:i + 1 + k])
            i += k + 1
        st.end_round()


def _trick(st, cards):
    """A trick ended (referee entry): possession and the planchette as
    each card falls, then the winner, who takes the cards (the Copo
    keeps what scares for the next trick's winner)."""
    r = st.rules
    n = r.seats
    lead = lead_suit(cards, r.free_copo)
    moved = False
    copo = False
    for i in range(n):
        c = cards[i]
        seat = (st.leader + i) % n
        st.seen[c & _ID] |= 1
        if c & CURSED:
            st.cursed |= 1 << (c >> 5 & 7)
        if c == COPO:
            copo = True
            # A led Copo comes before any suit; otherwise an option.
            if i == 0 or r.copo_follows:
                continue
        if lead < 0 or c >> 5 & 7 == lead:
            continue
        # Not following means not able to: the seat lacks the lead suit,
        # unless the ghost pile it takes now may bring one back.
        if st.possessed >> seat & 1:
            st.void[seat] |= 1 << lead
            continue
        st.possessed |= 1 << seat
        if not st.sac_suits >> lead & 1:
            st.void[seat] |= 1 << lead
        if not moved:
            moved = True
            if c != COPO:
                st.trump = c & 31
    w = trick_winner(cards, st.trump, lead)
    winner = (st.leader + w) % n
    st.leader = winner
    if cards[w] == FILIPI and not (copo and r.traps_filipi):
        st.filipi = winner
    # What an earlier Copo trapped goes to this trick's winner; a Copo
    # now traps what scares in this trick.
    st.ghosts[winner] += st.trapped
    st.curses[winner] |= st.trapped_c
    st.trapped = 0
    st.trapped_c = 0
    if copo:
        st.trapped, st.trapped_c = scary(cards)
    else:
        take(st, winner, cards)

def take(st, seat, cards):
    """Cards go to a seat's pile."""
    g, m = scary(cards)
    st.ghosts[seat] += g
    st.curses[seat] |= m


# -- log actions <-> records ---------------------------------------------------

def _cards(rules, verb, v, what):
    t = [verb]
    for c in need_list(v, what, rules.seats, rules.seats):
        t.append(card(rules, c))
    return tuple(t)


def parse(rules, d):
    verb = d["do"]
    if verb == "end-round":
        keys(d, ("do", "leftover"))
        n = rules.seats
        t = [LEFTOVER]
        for hand in need_list(d["leftover"], "leftover", n, n):
            need_list(hand, "a seat's leftover", 0, 99)
            t.append(len(hand))
            for c in hand:
                t.append(card(rules, c))
        return tuple(t)
    keys(d, ("do", "cards"))
    return _cards(rules, SACRIFICE if verb == "sacrifice" else TRICK, d["cards"], "cards")


def unparse(t):
    v = t[0]
    if v == LEFTOVER:
        out = []
        i = 1
        while i < len(t):
            out.append([card_json(c) for c in t[i + 1:i + 1 + t[i]]])
            i += t[i] + 1
        return {"do": "end-round", "leftover": out}
    return {"do": "sacrifice" if v == SACRIFICE else "trick",
            "cards": [card_json(c) for c in t[1:]]}
