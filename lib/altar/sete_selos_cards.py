"""Cthulhu: Sete Selos' referee entry: a ritual's cards as the table played
them.

A log that names a ritual's cards loads this module; quick entry (winner and
value), what the device journals, never does. Here the cards are parsed,
checked against what the series has shown (each card once a series; a seat
that did not follow a sign cannot hold it later, the Banished excepted), and
the ritual's winner found; `legal`, the cards a seat may play, is the same
follow rule for the host's bots. What happens when a ritual ends is
altar.sete_selos.
"""

from altar.core import Rejected, keys, need_int, need_list
from altar.sete_selos import CARDS


def ritual_winner(cards):
    """Index of the winning card among (sign, value) pairs in play order.

    Trumps (sign 0) compete if any was played, else the altar card's sign;
    the highest value wins, but a 1 beats the 7 of the same sign.
    """
    comp = cards[0][0]
    for c in cards:
        if c[0] == 0:
            comp = 0
            break
    best = -1
    top = 0
    one = -1
    seven = False
    i = 0
    for s, v in cards:
        if s == comp:
            if v == 1:
                one = i
            elif v == 7:
                seven = True
            if v > top:
                best = i
                top = v
        i += 1
    return one if one >= 0 and seven else best


def follow(st, seat, trick):
    """The sign `seat` must play on `trick` (the cards played so far) if it
    holds one, or -1: the leader, and the Banished, who plays the top of its
    pile, are held to none."""
    if not trick or seat == st.rules.banished:
        return -1
    return trick[0][0]


def legal(st, seat, hand, trick):
    """The cards of `hand` ((sign, value) pairs) `seat` may play on `trick`."""
    s = follow(st, seat, trick)
    if s < 0:
        return hand
    return [c for c in hand if c[0] == s] or hand


def check(st, t):
    r = st.rules
    seat = st.leader          # the cards come in play order from the leader
    for i in range(1, len(t)):
        c = t[i]
        s = c >> 3
        for j in range(1, i):
            if t[j] == c:
                raise Rejected("card [%d, %d] is played twice" % (s, c & 7))
        if st.played[s] >> (c & 7) & 1:
            raise Rejected("card [%d, %d] was already played in this series" % (s, c & 7))
        if seat != r.banished and st.void[seat] >> s & 1:
            raise Rejected("%s did not follow sign %d earlier in this series, "
                           "so it cannot hold card [%d, %d]" % (st.seat_text(seat), s, s, c & 7))
        seat = st.left[seat]


# Each card int's (sign, value) pair, made once.
_PAIRS = tuple([(c >> 3, c & 7) for c in range(32)])


def apply(st, t):
    lead = t[1] >> 3
    cards = []
    seat = st.leader
    for i in range(1, len(t)):
        c = t[i]
        st.played[c >> 3] |= 1 << (c & 7)
        if c >> 3 != lead:
            # Not following means not able to: that seat lacks the sign.
            s = follow(st, seat, cards)
            if s >= 0:
                st.void[seat] |= 1 << s
        cards.append(_PAIRS[c])
        seat = st.left[seat]
    w = ritual_winner(cards)
    st.resolve(st.after(st.leader, w), cards[w][1])


def parse(rules, d):
    keys(d, ("do", "cards"))
    n = rules.seats
    cards = need_list(d["cards"], "cards", n, n)
    t = [CARDS]
    for c in cards:
        if type(c) is not list or len(c) != 2:
            raise Rejected("a card must be [sign, value]")
        s = need_int(c[0], "a card's sign", 0, 3)
        v = need_int(c[1], "a card's value", 1, 7)
        if not rules.signs >> s & 1:
            raise Rejected("sign %d is not in play with %d players" % (s, rules.humans))
        t.append(s * 8 + v)
    return bytes(t)


def unparse(t):
    return {"do": "ritual", "cards": [[c >> 3, c & 7] for c in t[1:]]}
