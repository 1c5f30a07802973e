"""The card table the bots play at (not a text table): what the engine
does not model (the deal, the draft, the ghost piles, asking each seat in
turn).
Which cards a seat may play is the engine's rule (`legal` in
altar.sete_selos_cards and altar.fantasmagoria_cards). altar_host.sim.drivers
plays whole games and playouts with these, so all follow one set of table
rules.

Sete Selos: cards are (sign, value) pairs; a bot is asked `keep(seat,
cards, state)`, `play(seat, legal, trick, state)` (its own cards in
`bot.hand`), `redirect(seat, sealed, state)` and `remove(seat, count,
state)`; the Banished's seat has a bot too (`BANISHED`, or any that plays
from its pile). Fantasmagória: cards are the engine's ints; a bot is asked
`sacrifice(seat, cards, state)` and `play(seat, legal, trick, state)`, its
own cards in `bot.hand`. After each ritual or trick the drivers tell
`seen(seats, trick, state)` to each bot whose `watches` is not False.
"""

from altar import fantasmagoria as fa
from altar import fantasmagoria_cards as fc
from altar import sete_selos as ss
from altar import sete_selos_cards as ssc


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


def deal(rules, rng):
    """The deck shuffled, 7 cards to each seat."""
    cards = deck(rules)
    rng.shuffle(cards)
    return [cards[s * 7:s * 7 + 7] for s in range(rules.seats)]


def draft(state, rng, bots):
    """Deal the series and draft it: the 7 cards each seat keeps, in order.
    3-4 players keep one and pass the rest; 2 players follow the rulebook's
    three piles, the Banished's cards taken blind from the top."""
    dealt = deal(state.rules, rng)
    order = cycle(state)
    held = [dealt[s] for s in order]   # the packet at each seat of the cycle
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


class Banished:
    """The Banished Cultist's pile: it plays its top card."""
    watches = False

    def play(self, seat, legal, trick, state):
        return legal[0]

    def seen(self, seats, trick, state):
        pass


BANISHED = Banished()


def watching(bots):
    """The seats' bots that want to be told what the table saw: the others
    cost nothing to skip, a ritual at a time."""
    return [b for b in bots if getattr(b, "watches", True)]


def seated(rules, bots):
    """One bot a seat: `bots` for the players, BANISHED for the Banished's."""
    return bots[:rules.humans] + [BANISHED] * (rules.seats - rules.humans)


def ritual(st, hands, trick, bots):
    """Complete `trick` (the cards played so far) from the hands, each seat
    in turn asked by its bot; the ritual's record for the engine."""
    left = st.left
    seat = st.after(st.leader, len(trick))
    for _ in range(len(trick), st.rules.seats):
        h = hands[seat]
        b = bots[seat]
        b.hand = h
        c = b.play(seat, ssc.legal(st, seat, h, trick), trick, st)
        h.remove(c)
        trick.append(c)
        seat = left[seat]
    return [ss.CARDS] + [g * 8 + v for g, v in trick]


def answer(st, bots):
    """The record for what the engine waits for: a redirect or a removal,
    chosen by the waiting seat's bot."""
    s = st.wseat
    if st.wait == ss.WAIT_REDIRECT:
        sealed = [e + 1 for e in range(7) if not st.rev >> e & 1]
        return (ss.REDIRECT, bots[s].redirect(s, sealed, st) - 1)
    return tuple([ss.REMOVE, s] + [e - 1 for e in bots[s].remove(s, st.wcount, st)])


# -- Fantasmagória ---------------------------------------------------------------------------

_decks = {}      # fa_deck's, by what it reads: each game builds one, once


def fa_deck(rules, numbers):
    """(ritual cards, ghosts) of a game: the ritual suits (no vela with 3
    players) numbered numbers[0]..numbers[1], and the Copo; 12 ghosts (9
    with 3 players: no 9, 10 or 11). Shared: a caller copies them to change
    them."""
    key = (rules.seats, tuple(numbers), tuple(rules.known))
    if key not in _decks:
        lo, hi = numbers
        four = rules.seats == 4
        suits = [k for k in ("gato", "vela", "bode", "boneca") if four or k != "vela"]
        ritual = tuple([fc.card(rules, [k, v]) for k in suits for v in range(lo, hi + 1)]
                       + [fa.COPO])
        ghosts = tuple([fc.card(rules, ["fantasma", v]) for v in range(1, 13)
                        if four or not 9 <= v <= 11])
        _decks[key] = ritual, ghosts
    return _decks[key]


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
    and the leader one it may lead (option only_ghosts "end")."""
    return all(hands) and bool(fc.legal(st, hands[st.leader], ()))


def fa_sacrificable(hand):
    """The cards of `hand` that may be sacrificed: neither the Copo nor cursed."""
    return [c for c in hand if c != fa.COPO and not c & fa.CURSED]


def fa_sacrifice(st, hands, piles, bots, rng):
    """Each seat's bot sacrifices a card of its hand; the sacrificed cards
    go one to each ghost pile, at random. The sacrifice's record."""
    n = st.rules.seats
    sac = []
    for seat in range(n):
        h = hands[seat]
        b = bots[seat]
        b.hand = h
        c = b.sacrifice(seat, fa_sacrificable(h), st)
        h.remove(c)
        sac.append(c)
    order = list(range(n))
    rng.shuffle(order)
    for i in range(n):
        piles[i].append(sac[order[i]])
    return [fa.SACRIFICE] + sac


def fa_trick(st, hands, trick, bots):
    """Complete `trick` from the hands, each seat in turn asked by its bot."""
    n = st.rules.seats
    for i in range(len(trick), n):
        seat = (st.leader + i) % n
        h = hands[seat]
        b = bots[seat]
        b.hand = h
        c = b.play(seat, fc.legal(st, h, trick), trick, st)
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
