"""Fantasmagória's referee entry: the cards as the table played them.

A log that names cards (the sacrifice, a trick or the leftover hands as
cards, or a header's deck) loads this module; quick entry, what the device
journals, never does. Here a card is parsed and checked against what the
round has shown (could this seat hold it?), and a trick is played out card
by card: possession and the planchette as each card falls, the Copo, the
winner. `legal`, the cards a seat may play, is the rule these checks and
the host's bots share. The game itself, and what happens when a round
ends, is altar.fantasmagoria.
"""

from altar.core import Rejected, const, keys, need, need_int, need_list, quote, well_formed
from altar.fantasmagoria import (BODE, COPO, CURSED, CURSES, FILIPI, GHOST, LEFTOVER, NOCOPO,
                                 PILES, POSSESS, SACRIFICE, SET_TRUMP, SUITS, TRICK, TRICK_WON,
                                 VELA)
from altar.jsonout import dumps

_ID = const(0xFF)       # a card without its cursed flag: what the table sees
_PILE = const(0x200)    # in a trick's record: a pile taken (`took`), not a card played


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
        raise Rejected("unknown card %s" % quote(c))
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
            raise Rejected("unknown cursed card %s" % quote(name))
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


# -- what a seat may hold ---------------------------------------------------
#
# A seat that does not follow shows it holds none of the suit; a seat
# possessed takes one ghost pile: 3 ghosts and one sacrificed card. So after
# the trick that possessed it, the one card of the suit it may hold is that
# pile's sacrificed card (void marked BEFORE); after a later void, none. Where
# the log does not say which pile a seat took (`took` on the trick), a card
# is allowed if some choice of piles allows it: each seat has one pile, each
# pile one taker.

_NONE = const(0xFF)     # State.took: not known
BEFORE = const(0x80)    # State.void: shown in the trick that brought its pile


def _seat_ref(seat):
    from altar.seats import seat_ref
    return seat_ref(seat)


def _taker(took, c):
    """The seat known to have taken the pile of sacrificed card c, or -1."""
    for s in range(len(took)):
        if took[s] == c & _ID:
            return s
    return -1


def _free_pile(st, c, took):
    """Could c be the sacrificed card of a pile no seat is known to have
    taken (`took`: each seat's pile, as far as known)?"""
    if c == COPO or c & CURSED or c >> 5 == GHOST or _taker(took, c) >= 0:
        return False
    if st.sacs:
        return st.seen[c & _ID] & 2
    return c & 31 >= st.low      # a quick sacrifice: none is lower than its trump


def _pile_card(st, seat, c, took):
    """Could c be the sacrificed card on the pile `seat` took?"""
    p = took[seat]
    return p == c & _ID if p != _NONE else _free_pile(st, c, took)


def _hold(st, seat, c, took, shown):
    """Check that `seat` could hold card c now, and note what that shows in
    `took` and `shown` (a copy to check an action, the state's own to apply
    it, so that a second card of the same action is checked against the
    first)."""
    seen = st.seen[c & _ID]
    if seen & 1:
        raise Rejected("card %s was already played this round" % _text(c))
    s = c >> 5 & 7
    if c & CURSED and st.cursed >> s & 1:
        raise Rejected("%s was already played this round" % CURSES[s])
    mine = st.possessed >> seat & 1
    if not mine:
        if s == GHOST:
            raise Rejected("%s is not possessed, so it holds no ghost" % _seat_ref(seat))
        if seen & 2:
            raise Rejected("card %s was sacrificed: only a possessed seat can hold it"
                           % _text(c))
    v = st.void[seat * 6 + s]
    pile = mine and _pile_card(st, seat, c, took)
    if v and not (v & BEFORE and pile):
        more = " but the sacrificed card of the ghost pile it took then" if v & BEFORE else ""
        raise Rejected("%s showed in trick %d that it holds no %s%s, so it cannot hold %s"
                       % (_seat_ref(seat), v & 0x7F, (SUITS + ("Copo",))[s], more, _text(c)))
    if mine and (seen & 2 or v):
        # The sacrificed card of its pile: it has only one.
        if not pile:
            p = took[seat]
            if p != _NONE:
                raise Rejected("%s took the ghost pile of %s, so it holds no other "
                               "sacrificed card" % (_seat_ref(seat), _text(p)))
            raise Rejected("card %s is on the ghost pile %s took"
                           % (_text(c), _seat_ref(_taker(took, c))))
        took[seat] = c & _ID
    if s == GHOST:
        if shown[seat] == 3:
            raise Rejected("%s took one ghost pile, so it holds 3 ghosts, not 4"
                           % _seat_ref(seat))
        shown[seat] += 1


def follows(r, c, lead):
    """Card c follows suit `lead`: one of that suit, or by option
    copo_follows the Copo."""
    return c >> 5 & 7 == lead or c == COPO and r.copo_follows


def failing(st, cards, lead):
    """The positions in a trick's `cards` (so far) that did not follow
    `lead` (the first card leads, a led Copo too)."""
    r = st.rules
    out = []
    for i in range(1, len(cards)):
        if lead >= 0 and not follows(r, cards[i], lead):
            out.append(i)
    return out


def ghost_may_lead(st):
    """A ghost may lead only when every seat is possessed."""
    return st.possessed == (1 << st.rules.seats) - 1


def legal(st, hand, trick):
    """The cards of `hand` its seat may play on `trick` (the cards played so
    far): to follow the lead suit if it can; to lead (the card after a led
    Copo leads too, option led_copo "next"), no ghost unless a ghost may
    lead or the hand holds nothing else: then it leads one (option
    only_ghosts "lead") or none, and the round ends ("end")."""
    r = st.rules
    lead = lead_suit(trick, r.free_copo) if trick else -1
    if lead >= 0:
        ok = [c for c in hand if c >> 5 & 7 == lead]
        if ok and COPO in hand and follows(r, COPO, lead):
            ok.append(COPO)     # after the suit: the order the bots draw from
        return ok or hand
    if trick and r.free_copo or ghost_may_lead(st):
        return hand
    ok = [c for c in hand if c >> 5 != GHOST]
    if ok or trick or not r.ghost_end:
        return ok or hand
    return []


def _ghost_leader(st, cards, lead):
    """The position that led a ghost while one may not lead (it holds
    nothing but ghosts, option only_ghosts), or -1."""
    if lead != GHOST or ghost_may_lead(st):
        return -1
    return 1 if cards[0] == COPO else 0


# -- checks: raise Rejected, change nothing --------------------------------

def check(st, t):
    v = t[0]
    if v == SACRIFICE:
        _check_sacrifice(t[1:])
    elif v == TRICK:
        _check_trick(st, t)
    else:
        _check_leftover(st, t)


def shape(r, t):
    """Refuse a record of cards that `parse` could not have made for this
    deck (altar.fantasmagoria.shape)."""
    n = r.seats
    k = len(t)
    if t[0] == LEFTOVER:
        i = 1
        for _ in range(n):
            # A seat's count, then its cards.
            well_formed(i < k and 0 <= t[i] <= 99, t)
            j = i + 1 + t[i]
            well_formed(j <= k and _cards_ok(r, t, i + 1, j, 0), t)
            i = j
        well_formed(i == k, t)
        return
    # A card a seat; a trick may name the piles taken (took), one to n.
    well_formed((k == n + 1 or t[0] == TRICK and n + 1 < k <= 2 * n + 1)
                and _cards_ok(r, t, 1, n + 1, 0) and _cards_ok(r, t, n + 1, k, _PILE), t)


# The cards `card` makes, by the rules it reads (seats, numbers, cursed
# cards): for each card int, 1 once it is known to be one. Only cards found
# good are noted, so a bad one is refused each time as `card` refuses it.
_made = {}


def _cards_ok(r, t, i, j, flag):
    """t[i:j] are cards `card` makes, each marked with `flag`."""
    key = (r.seats, r.lo, r.hi, tuple(r.known))
    made = _made.get(key)
    if made is None:
        made = _made[key] = bytearray(0x200)
    while i < j:
        c = t[i] ^ flag
        if not (0 <= c < 0x200 and made[c]):
            s = c >> 5 & 7
            if c != COPO and not (0 <= c < 0x200 and s <= GHOST
                                  and not (c & CURSED and s == GHOST)
                                  and card(r, card_json(c)) == c):
                return False
            made[c] = 1
        i += 1
    return True


def _check_sacrifice(cards):
    for c in cards:
        if c == COPO or c >> 5 & 7 == GHOST:
            raise Rejected("a sacrifice must be a ritual card, not %s" % _text(c))
        if c & CURSED:
            raise Rejected("cursed cards cannot be sacrificed: %s" % _text(c))
    _distinct(cards)


def _check_trick(st, t):
    r = st.rules
    n = r.seats
    cards = t[1:1 + n]
    _distinct(cards)
    lead = lead_suit(cards, r.free_copo)
    i = _ghost_leader(st, cards, lead)
    if i >= 0:
        # After a led Copo (led_copo "next") the next card leads: the same holds.
        seat = (st.leader + i) % n
        if i == 0 and r.ghost_end:
            raise Rejected("a ghost may lead only when every seat is possessed (with option "
                           "only_ghosts \"end\", a leader holding only ghosts ends the round)")
        if r.deal and st.hand[seat] + st.shown[seat] > 3:
            raise Rejected("a ghost may lead only when every seat is possessed, or from a hand "
                           "of ghosts alone: %s holds %d cards, at most %d of them ghosts"
                           % (_seat_ref(seat), st.hand[seat], 3 - st.shown[seat]))
    took = bytearray(st.took)
    shown = bytearray(st.shown)
    for i in range(n):
        _hold(st, (st.leader + i) % n, cards[i], took, shown)
    new = 0
    for i in failing(st, cards, lead):
        seat = (st.leader + i) % n
        if not st.possessed >> seat & 1:
            new += 1
            continue
        if st.quick:
            continue    # a trick entered as its result showed no cards
        # Its pile is in its hand: what of the pile it still holds, it holds.
        if lead == GHOST and shown[seat] < 3:
            raise Rejected("%s took a ghost pile and has shown %d of its 3 ghosts, so it "
                           "must follow the ghost led" % (_seat_ref(seat), shown[seat]))
        p = took[seat]
        if p != _NONE and not st.seen[p] & 1 and p not in cards and p >> 5 == lead:
            raise Rejected("%s took the ghost pile of %s, so it must follow %s"
                           % (_seat_ref(seat), _text(p), SUITS[lead]))
    named = [c ^ _PILE for c in t[1 + n:]]
    if named and len(named) != new:
        raise Rejected("took must name one ghost pile for each seat this trick possesses "
                       "(%d), not %d" % (new, len(named)))
    for i in range(len(named)):
        # A pile by its sacrificed card: one that could be on a pile nobody took.
        c = named[i]
        if (c & _ID) in cards or st.seen[c & _ID] & 1 or not _free_pile(st, c, took):
            raise Rejected("took: %s is not the sacrificed card of a ghost pile still "
                           "to take" % _text(c))
        for j in range(i):
            if named[j] & _ID == c & _ID:
                raise Rejected("took: two seats cannot take the pile of %s" % _text(c))


def _check_leftover(st, t):
    if st.quick:
        raise Rejected("a trick of round %d was entered as its result: end the round with piles"
                       % st.round)
    took = bytearray(st.took)
    shown = bytearray(st.shown)
    i = 1
    cards = []
    empty = False
    for seat in range(st.rules.seats):
        k = t[i]
        empty = empty or k == 0
        for c in t[i + 1:i + 1 + k]:
            _hold(st, seat, c, took, shown)
            cards.append(c)
        i += k + 1
    _distinct(cards)
    if not empty and not _only_ghosts(st, t):
        raise Rejected("a round ends when a seat has no card left; every seat here has some")


def _only_ghosts(st, t):
    """The leader may lead none of the cards it holds (option only_ghosts
    "end"), so the round ends."""
    i = 1
    for seat in range(st.leader):
        i += t[i] + 1
    hand = t[i + 1:i + 1 + t[i]]
    return hand and not legal(st, hand, ())


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
        st.sacs = True
        st.trump = st.low = t[low] & 31
        st.leader = low - 1
    elif v == TRICK:
        _trick(st, t)
    else:
        i = 1
        for seat in range(st.rules.seats):
            k = t[i]
            take(st, seat, t[i + 1:i + 1 + k])
            i += k + 1
        st.end_round()


def _trick(st, t):
    """A trick ended (referee entry): the cards, possession and the
    planchette, then the winner, who takes the cards (the Copo keeps what
    scares for the next trick's winner)."""
    r = st.rules
    n = r.seats
    cards = t[1:1 + n]
    named = t[1 + n:]           # the piles taken, flagged _PILE
    k = min(st.tricks, 0x7F)    # quick tricks have no bound; referee ones do
    copo = False
    for i in range(n):
        c = cards[i]
        seat = (st.leader + i) % n
        if st.possessed >> seat & 1:
            # What its pile shows (check passed: for any other seat, _hold
            # only checks).
            _hold(st, seat, c, st.took, st.shown)
        st.seen[c & _ID] |= 1
        if c & CURSED:
            st.cursed |= 1 << (c >> 5 & 7)
        copo = copo or c == COPO
    lead = lead_suit(cards, r.free_copo)
    i = _ghost_leader(st, cards, lead)
    if i >= 0:
        # It led a ghost, so it holds nothing else.
        seat = (st.leader + i) % n
        for s in (0, 1, 2, 3, NOCOPO):
            st.void[seat * 6 + s] = k
    moved = False
    j = 0
    for i in failing(st, cards, lead):
        seat = (st.leader + i) % n
        if st.possessed >> seat & 1:
            st.void[seat * 6 + lead] = k
            continue
        # Possessed now: it takes a pile, which may bring one card of the suit.
        st.possessed |= 1 << seat
        st.void[seat * 6 + lead] = k | BEFORE
        if j < len(named):
            st.took[seat] = named[j] & _ID
            st.seen[named[j] & _ID] |= 2
            j += 1
        if not moved:
            moved = True
            if cards[i] != COPO:
                st.trump = cards[i] & 31
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


# -- counted hands (the header's deck) -------------------------------------------
#
# With the deck known, so is every hand: each seat is dealt `deal` cards
# (option odd_card "dealt": one seat, unknown until its hand shows it, one
# more), sacrifices one, gains 4 with its ghost pile and plays one a trick.

def count_check(st, t):
    r = st.rules
    v = t[0]
    h = st.hand
    n = r.seats
    if v == TRICK or (v == POSSESS or v == TRICK_WON) and not st.open:
        out = [s for s in range(n) if not h[s]]
        if out and (len(out) > 1 or not st.odd):
            raise Rejected("round %d is over: %s has no card left for another trick"
                           % (st.round, _seat_ref(out[-1])))
    elif v == LEFTOVER:
        i = 1
        odd = -1
        for s in range(n):
            d = t[i] - h[s]
            if d == 1 and st.odd and odd < 0:
                odd = s
            elif d:
                raise Rejected("%s must hold %d cards at the round's end, not %d: each seat is "
                               "dealt %d and sacrifices one, a ghost pile brings 4, a trick "
                               "takes one%s" % (_seat_ref(s), h[s], t[i], r.deal,
                                                "" if r.aside else "; one seat has one more"))
            i += t[i] + 1
        if st.odd and odd < 0:
            raise Rejected("the odd card (option odd_card \"dealt\") is in no hand and was "
                           "never played: one seat must hold one card more")
    elif v == PILES and min(h) and not (
            r.ghost_end and st.possessed >> st.leader & 1 and not ghost_may_lead(st)):
        raise Rejected("round %d is not over: every seat still holds cards (%s)"
                       % (st.round, ", ".join(["%s %d" % (_seat_ref(s), h[s]) for s in range(n)])))


def count_apply(st, t, before):
    r = st.rules
    v = t[0]
    h = st.hand
    n = r.seats
    if v == SACRIFICE or v == SET_TRUMP:
        for s in range(n):
            h[s] = r.deal - 1
        return
    if v == TRICK or v == TRICK_WON:
        for s in range(n):
            if not h[s]:      # it plays: it holds the odd card
                h[s] = 1
                st.odd = 0
            h[s] -= 1
    new = st.possessed & ~before
    for s in range(n):
        if new >> s & 1:
            h[s] += 4


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
    if verb == "sacrifice":
        keys(d, ("do", "cards"))
        return _cards(rules, SACRIFICE, d["cards"], "cards")
    keys(d, ("do", "cards", "took"))
    t = _cards(rules, TRICK, d["cards"], "cards")
    if "took" in d:
        # The piles the seats this trick possesses take, in play order, each
        # named by its sacrificed card.
        t += tuple([card(rules, c) | _PILE for c in need_list(d["took"], "took", 1, rules.seats)])
    return t


def unparse(t):
    v = t[0]
    if v == LEFTOVER:
        out = []
        i = 1
        while i < len(t):
            out.append([card_json(c) for c in t[i + 1:i + 1 + t[i]]])
            i += t[i] + 1
        return {"do": "end-round", "leftover": out}
    d = {"do": "sacrifice" if v == SACRIFICE else "trick",
         "cards": [card_json(c) for c in t[1:] if not c & _PILE]}
    if t[-1] & _PILE:
        d["took"] = [card_json(c ^ _PILE) for c in t[1:] if c & _PILE]
    return d
