"""How the trick games' tables play, for bots: what the engine does not
model (the deal, the draft, who may play what, the ghost piles).
altar_host.simulate and altar_host.randomplay play whole games with these,
and altar_host.search its playouts, so all follow one set of table rules.

Sete Selos: cards are (sign, value) pairs; a bot is asked `keep(seat,
cards, state)`, `play(seat, legal, trick, state)` (its own cards in
`bot.hand`), `redirect(seat, sealed, state)` and `remove(seat, count,
state)`. Fantasmagória: cards are the engine's ints; a bot is asked
`sacrifice(seat, cards, state)` and `play(seat, legal, trick, state)`, its
own cards in `bot.hand`.
"""

from altar import fantasmagoria as fa
from altar import fantasmagoria_cards as fc
from altar import sete_selos as ss


def deck(rules):
    return [(g, v) for g in range(4) if rules.signs >> g & 1 for v in range(1, 8)]


def play_order(st, leader):
    """The seats in play order from `leader`, as they sit now (Sete Selos
    with 2 players: as this series' first player seats the Banished)."""
    return [st.after(leader, i) for i in range(st.rules.seats)]


def cycle(state):
    """The seats in the order packets pass in the draft: 3-4 players, seat i
    passes to seat i + 1; 2 players, the first player (the dealer) to the
    second, the second to the Banished's pile, the pile to the first."""
    r = state.rules
    if r.banished >= 0:
        return [state.first, 1 - state.first, r.banished]
    return list(range(r.seats))


def draft(state, rng, bots):
    """Deal the series and draft it: the 7 cards each seat keeps, in order.
    3-4 players keep one and pass the rest; 2 players follow the rulebook's
    three piles, the Banished's cards taken blind from the top."""
    cards = deck(state.rules)
    rng.shuffle(cards)
    order = cycle(state)
    held = [cards[s * 7:s * 7 + 7] for s in order]   # the packet at each seat of the cycle
    kept = [[] for _ in range(state.rules.seats)]
    b = state.rules.banished
    for _ in range(7):
        for j in range(len(order)):
            seat = order[j]
            h = held[j]
            c = h[0] if seat == b else bots[seat].keep(seat, h, state)
            h.remove(c)
            kept[seat].append(c)
        if b >= 0:
            rng.shuffle(held[1])    # the second player's rest goes to the pile shuffled
        held = [held[j - 1] for j in range(len(order))]
    if b >= 0:
        rng.shuffle(kept[b])
    return kept


def follow(hand, trick):
    """The cards of `hand` that may be played on `trick`."""
    if trick:
        legal = [c for c in hand if c[0] == trick[0][0]]
        if legal:
            return legal
    return hand


def ritual(st, hands, trick, bots):
    """Complete `trick` (the cards played so far) from the hands, each seat
    in turn asked by its bot, the Banished playing the top of its pile; the
    ritual's record for the engine."""
    r = st.rules
    n = r.seats
    for i in range(len(trick), n):
        seat = st.after(st.leader, i)
        h = hands[seat]
        if seat == r.banished:
            c = h[0]
        else:
            b = bots[seat]
            b.hand = h
            c = b.play(seat, follow(h, trick), trick, st)
        h.remove(c)
        trick.append(c)
    return [ss.CARDS] + [g * 8 + v for g, v in trick]


def answer(st, bots):
    """The record for what the engine waits for: a redirect or a removal,
    chosen by the waiting seat's bot."""
    s = st.wseat
    if st.view()["awaiting"]["do"] == "redirect":
        sealed = [e + 1 for e in range(7) if not st.rev >> e & 1]
        return (ss.REDIRECT, bots[s].redirect(s, sealed, st) - 1)
    return tuple([ss.REMOVE, s] + [e - 1 for e in bots[s].remove(s, st.wcount, st)])


# -- Fantasmagória ---------------------------------------------------------------------------

def fa_deck(rules, numbers):
    """(ritual cards, ghosts) of a game: the ritual suits (no vela with 3
    players) numbered numbers[0]..numbers[1], and the Copo; 12 ghosts (9
    with 3 players: no 9, 10 or 11)."""
    lo, hi = numbers
    four = rules.seats == 4
    suits = [k for k in ("gato", "vela", "bode", "boneca") if four or k != "vela"]
    ritual = [fc.card(rules, [k, v]) for k in suits for v in range(lo, hi + 1)] + [fa.COPO]
    ghosts = [fc.card(rules, ["fantasma", v]) for v in range(1, 13) if four or not 9 <= v <= 11]
    return ritual, ghosts


def fa_deal(rules, cards, rng):
    """Shuffled `cards` dealt evenly; the card left over is set aside (option
    odd_card "aside") or dealt to a seat drawn at random ("dealt")."""
    n = rules.seats
    if rules.aside:
        cards = cards[:len(cards) - len(cards) % n]
        return [cards[s::n] for s in range(n)]
    first = rng.below(n)        # who is dealt the first card, so the odd one
    return [cards[(s - first) % n::n] for s in range(n)]


def fa_goes_on(st, hands):
    """Whether the round goes on: every seat has a card for the next trick
    and, with option only_ghosts "end", the leader has one it may lead."""
    r = st.rules
    if not all(hands):
        return False
    if r.ghost_end and st.possessed != (1 << r.seats) - 1:
        return any(c >> 5 != fa.GHOST for c in hands[st.leader])
    return True


def fa_sacrificable(hand):
    """The cards of `hand` that may be sacrificed: neither the Copo nor cursed."""
    return [c for c in hand if c != fa.COPO and not c & fa.CURSED]


def fa_legal(st, hand, trick):
    """The cards of `hand` that may be played on `trick`: a ghost leads only
    when every seat is possessed, or from a hand of ghosts alone (option
    only_ghosts); follow the lead suit if able (the Copo too, by option)."""
    r = st.rules
    lead = fc.lead_suit(trick, r.free_copo) if trick else -1
    if lead >= 0:
        ok = [c for c in hand if c >> 5 & 7 == lead]
        if ok and r.copo_follows and fa.COPO in hand:
            ok.append(fa.COPO)
        return ok or hand
    if trick and r.free_copo:
        return hand          # after a led Copo, with none to follow
    if st.possessed != (1 << r.seats) - 1:
        return [c for c in hand if c >> 5 != fa.GHOST] or hand
    return hand


def fa_trick(st, hands, trick, bots):
    """Complete `trick` from the hands, each seat in turn asked by its bot."""
    n = st.rules.seats
    for i in range(len(trick), n):
        seat = (st.leader + i) % n
        h = hands[seat]
        b = bots[seat]
        b.hand = h
        c = b.play(seat, fa_legal(st, h, trick), trick, st)
        h.remove(c)
        trick.append(c)


def fa_possess(st, leader, before, hands, piles, rng):
    """After a trick led by `leader`: each seat it possessed (not possessed
    `before`), in play order, takes a ghost pile at random; their places in
    the trick."""
    n = st.rules.seats
    out = []
    for i in range(n):
        seat = (leader + i) % n
        if (st.possessed & ~before) >> seat & 1:
            hands[seat].extend(piles.pop(rng.below(len(piles))))
            out.append(i)
    return out
