"""Random legal games, as session logs.

The cards are dealt and followed as at a real table (Sete Selos: each series
deals the whole deck, the Banished plays any card of its pile; Fantasmagória:
each round deals the ritual cards, a possessed seat takes a ghost pile), so
the logs exercise referee entry and every rule behind it; quick entries are
derived from the same play. Tests, benchmarks and the parity corpus use
these; the engine's own Rng makes them the same for a seed everywhere.
"""

from altar import fantasmagoria as fa
from altar import sete_selos
from altar.core import Session
from altar.rng import Rng
from altar_host.sim import drivers
from altar_host.sim.bots import RandomBot


class _Random(RandomBot):
    """Any legal choice, the Banished's card too, from the game's own
    generator; a removal half the time the engine's suggestion."""

    def remove(self, seat, count, state):
        if self.rng.below(2):
            return sete_selos.suggest(state, seat)
        return RandomBot.remove(self, seat, count, state)


def sete_selos_game(players=4, seed=0, quick=0, undo=0, options=None, first=None):
    """(header, actions): one whole game.

    quick: per cent of rituals entered as winner and value instead of cards;
    undo: per cent of actions followed by an undo and the same action again.
    """
    rng = Rng(seed)
    header = drivers.header("sete-selos", players, seed,
                            rng.below(players) if first is None else first, options)
    s = Session(header)
    log = drivers.Log(s, rng, quick, undo)
    drivers.sete_selos(s.state, rng, [_Random(rng)] * s.rules.seats, log.play, draft=False)
    return header, log.actions


def ritos_game(players=3, seed=0, undo=0):
    """(header, actions): a whole game of Ritos Ancestrais with random points
    (some turns pass, now and then a correction), bonuses and hand counts."""
    rng = Rng(seed)
    header = drivers.header("ritos-ancestrais", players, seed, rng.below(players))
    s = Session(header)
    st = s.state
    log = drivers.Log(s, rng, 0, undo)
    do = log.do

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
    return header, log.actions


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


def fantasmagoria_game(players=4, seed=0, quick=0, undo=0, options=None, deck=True):
    """(header, actions): a whole game of Fantasmagória, 3 rounds, random.

    deck: True writes DECK into the header, False leaves it out (cursed cards
    then carry their names), a dict is written as given. quick: per cent of
    rounds entered quickly (sacrifice and most tricks as results, the end as
    piles), taken from a referee session that follows the same play.
    """
    rng = Rng(seed)
    d = deck if type(deck) is dict else DECK
    header = drivers.header("fantasmagoria", players, seed, options=options,
                            deck=d if deck else None)
    log = drivers.Log(Session(header), rng, quick, undo)
    drivers.fantasmagoria(header, rng, [_FaRandom(rng)] * players, log, d)
    return header, log.actions
