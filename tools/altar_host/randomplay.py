"""Random legal games, as session logs.

The cards are dealt and followed as at a real table (Sete Selos: each series
deals the whole deck, the Banished plays any card of its pile; Fantasmagória:
each round deals the ritual cards, a possessed seat takes a ghost pile), so
the logs exercise referee entry and every rule behind it; quick entries are
derived from the same play. Tests, benchmarks and the parity corpus use
these; the engine's own Rng makes them the same for a seed everywhere.
"""

from altar.core import Session
from altar.rng import Rng
from altar import fantasmagoria as fa
from altar import fantasmagoria_cards as fc
from altar import sete_selos, sete_selos_cards
from altar_host import table


def _recorder(session, rng, undo, actions):
    """do(a): apply and record a; `undo` per cent of the time also record an
    undo and the same action again."""
    def do(a):
        session.do(a)
        actions.append(a)
        if rng.below(100) < undo:
            session.do({"do": "undo"})
            actions.append({"do": "undo"})
            session.do(a)
            actions.append(a)
    return do


def random_removal(state, seat, count, rng):
    """Any `count` of the seat's cultists, as Elder values for `remove`."""
    pool = [e + 1 for e in range(7) for _ in range(state.stacks(seat)[e])]
    rng.shuffle(pool)
    return sorted(pool[:count])


def sete_selos_game(players=4, seed=0, quick=0, undo=0, options=None, first=None):
    """(header, actions): one whole game.

    quick: per cent of rituals entered as winner and value instead of cards;
    undo: per cent of actions followed by an undo and the same action again.
    """
    rng = Rng(seed)
    header = {"altar": 1, "game": "sete-selos",
              "players": ["P%d" % (i + 1) for i in range(players)],
              "first": rng.below(players) if first is None else first, "seed": seed}
    if options:
        header["options"] = options
    s = Session(header)
    st = s.state
    r = s.rules
    deck = [(g, v) for g in range(4) if r.signs >> g & 1 for v in range(1, 8)]
    hands = [[] for _ in range(r.seats)]
    actions = []
    do = _recorder(s, rng, undo, actions)

    while not st.over:
        view = st.view()
        aw = view["awaiting"]
        if aw and aw["do"] == "redirect":
            sealed = [e for e in range(1, 8) if not view["elders"][e - 1]["revealed"]]
            do({"do": "redirect", "elder": sealed[rng.below(len(sealed))]})
            continue
        if aw:
            seat = aw["seat"]
            if rng.below(2):
                elders = sete_selos.suggest(st, seat)
            else:
                elders = random_removal(st, seat, aw["count"], rng)
            do({"do": "remove", "seat": seat, "elders": elders})
            continue
        if not hands[0]:
            d = list(deck)
            rng.shuffle(d)
            for i in range(r.seats):
                hands[i] = d[i * 7:i * 7 + 7]
        cards = []
        lead = None
        for i in range(r.seats):
            seat = st.after(st.leader, i)
            h = hands[seat]
            ok = h
            if lead is not None and seat != r.banished:
                ok = [c for c in h if c[0] == lead] or h
            c = ok[rng.below(len(ok))]
            h.remove(c)
            if lead is None:
                lead = c[0]
            cards.append(c)
        if rng.below(100) < quick:
            w = sete_selos_cards.ritual_winner(cards)
            do({"do": "ritual", "winner": st.after(st.leader, w), "value": cards[w][1]})
        else:
            do({"do": "ritual", "cards": [list(c) for c in cards]})
    return header, actions


def ritos_game(players=3, seed=0, undo=0):
    """(header, actions): a whole game of Ritos Ancestrais with random points
    (some turns pass, now and then a correction), bonuses and hand counts."""
    rng = Rng(seed)
    header = {"altar": 1, "game": "ritos-ancestrais",
              "players": ["P%d" % (i + 1) for i in range(players)],
              "first": rng.below(players), "seed": seed}
    s = Session(header)
    st = s.state
    actions = []
    do = _recorder(s, rng, undo, actions)

    while not st.done:
        k = rng.below(10)
        if k < 6:
            do({"do": "score", "points": 1 + rng.below(5)})
            if rng.below(10) == 0:
                do({"do": "score", "points": -1})
        do({"do": "end-turn"})
    for seat in range(players):
        if rng.below(3) == 0:
            do({"do": "bonus", "seat": seat, "points": 1 + rng.below(4)})
    do({"do": "hands", "counts": [rng.below(8) for _ in range(players)]})
    return header, actions


# A deck for random Fantasmagória games: the manual gives no numbers.
DECK = {"numbers": [1, 10], "cursed": {"candelabro": ["vela", 4], "gato-da-sorte": ["gato", 9],
                                       "belleanna": ["boneca", 2]}}


class _FaRandom:
    """Random Fantasmagória choices (the Copo a quarter of the time it may
    be played), from the game's own generator."""

    def __init__(self, rng):
        self.rng = rng

    def sacrifice(self, seat, cards, state):
        return cards[self.rng.below(len(cards))]

    def play(self, seat, legal, trick, state):
        if fa.COPO in legal and self.rng.below(4) == 0:
            return fa.COPO
        return legal[self.rng.below(len(legal))]

    def seen(self, seats, trick, state):
        pass


def fantasmagoria_game(players=4, seed=0, quick=0, undo=0, options=None, deck=True, bots=None):
    """(header, actions): a whole game of Fantasmagória, 3 rounds.

    deck: True writes DECK into the header, False leaves it out (cursed cards
    then carry their names), a dict is written as given. quick: per cent of
    rounds entered quickly (sacrifice and most tricks as results, the end as
    piles), taken from a referee session that follows the same play. bots:
    one per seat choosing its sacrifice and its cards (`sacrifice(seat,
    cards, state)`, `play(seat, legal, trick, state)`, cards as the engine's
    ints); without them the choices are random (and stay what they were).
    """
    rng = Rng(seed)
    header = {"altar": 1, "game": "fantasmagoria",
              "players": ["P%d" % (i + 1) for i in range(players)], "seed": seed}
    d = deck if type(deck) is dict else DECK
    if deck:
        header["deck"] = d
    if options:
        header["options"] = options
    ref = Session(dict(header, deck=d))   # the referee's view of the same play
    s = Session(header)
    st = ref.state
    r = ref.rules
    actions = []
    do = _recorder(s, rng, undo, actions)
    ritual, ghosts = table.fa_deck(r, d["numbers"])
    if not bots:
        bots = [_FaRandom(rng)] * players

    def both(a, quick_actions):
        ref.do(a)
        for x in quick_actions if fast else [a]:
            do(x)

    while not st.over:
        fast = rng.below(100) < quick
        deal = list(ritual)
        rng.shuffle(deal)
        hands = table.fa_deal(r, deal, rng)
        piles = list(ghosts)
        rng.shuffle(piles)
        piles = [piles[i * 3:i * 3 + 3] for i in range(players)]
        sac = []
        for h in hands:
            b = bots[len(sac)]
            b.hand = h
            c = b.sacrifice(len(sac), table.fa_sacrificable(h), st)
            h.remove(c)
            sac.append(c)
        order = list(range(players))
        rng.shuffle(order)
        for i in range(players):
            piles[i].append(sac[order[i]])
        a = {"do": "sacrifice", "cards": [fc.card_json(c) for c in sac]}
        ref.do(a)
        if fast and rng.below(2):
            do({"do": "sacrifice", "trump": st.trump, "leader": st.leader})
        else:
            do(a)
        while table.fa_goes_on(st, hands):
            cards = []
            table.fa_trick(st, hands, cards, bots)
            before = st.possessed
            leader = st.leader
            a = {"do": "trick", "cards": [fc.card_json(c) for c in cards]}
            ref.do(a)
            quick_trick = []
            took = []
            for i in table.fa_possess(st, leader, before, hands, piles, rng):
                seat = (leader + i) % players
                num = None if cards[i] == fa.COPO else cards[i] & 31
                quick_trick.append({"do": "possess", "seat": seat, "number": num})
                took.append(fc.card_json(hands[seat][-1]))     # its pile's sacrificed card
            quick_trick.append({"do": "trick", "winner": st.leader})
            if fast and rng.below(4):
                for x in quick_trick:
                    do(x)
            elif took and rng.below(2):
                do(dict(a, took=took))      # the table says which piles were taken
            else:
                do(a)
            seats = [(leader + i) % players for i in range(players)]
            for bot in bots:
                bot.seen(seats, cards, st)
        left = [[fc.card_json(c) for c in h] for h in hands]
        pile = []
        for seat in range(players):
            g, m = fc.scary(hands[seat])
            m |= st.curses[seat]
            if st.filipi == seat:
                m |= 1 << 2
            pile.append({"ghosts": st.ghosts[seat] + g, "candelabro": m >> 1 & 1,
                         "gato-da-sorte": m & 1, "belleanna": m >> 3 & 1, "filipi-bode": m >> 2 & 1})
        both({"do": "end-round", "leftover": left}, [{"do": "end-round", "piles": pile}])
    assert s.view() == ref.view(), "quick and referee entry disagree"
    return header, actions
