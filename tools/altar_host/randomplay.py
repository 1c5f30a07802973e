"""Random legal games of Sete Selos, as session logs.

The cards are dealt and followed as at a real table (each series deals the
whole deck, 7 cards a seat; the Banished plays any card of its pile), so the
logs exercise referee entry, redirects and the removal phase. Tests,
benchmarks and the parity corpus use these; the engine's own Rng makes them
the same for a seed everywhere.
"""

from altar.core import Session
from altar.rng import Rng
from altar import sete_selos


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
                pool = [e + 1 for e in range(7) for _ in range(st.stacks(seat)[e])]
                rng.shuffle(pool)
                elders = sorted(pool[:aw["count"]])
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
            seat = (st.leader + i) % r.seats
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
            w = sete_selos.ritual_winner(cards)
            do({"do": "ritual", "winner": (st.leader + w) % r.seats, "value": cards[w][1]})
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
