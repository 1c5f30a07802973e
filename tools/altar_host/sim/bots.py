"""The simple bots of `altar simulate`: random and rule-of-thumb players for
Sete Selos and Fantasmagória.

A bot is asked only for choices its seat makes at the table, and sees its
own cards and the table, never another seat's hand. The search bots that
build on these are in altar_host.sim.search.
"""

from altar import fantasmagoria as fa
from altar import fantasmagoria_cards as fc
from altar import sete_selos as ss
from altar import sete_selos_cards as ssc


def random_removal(state, seat, count, rng):
    """Any `count` of the seat's cultists, as Elder values for `remove`."""
    pool = [e + 1 for e in range(7) for _ in range(state.stacks(seat)[e])]
    rng.shuffle(pool)
    return sorted(pool[:count])


class RandomBot:
    """Any legal choice."""
    name = "random"
    watches = False

    def __init__(self, rng):
        self.rng = rng

    # Each draws itself: a simulation asks hundreds of times a game.
    def keep(self, seat, cards, state):
        return cards[self.rng.below(len(cards))]

    def play(self, seat, legal, trick, state):
        return legal[self.rng.below(len(legal))]

    def redirect(self, seat, sealed, state):
        return sealed[self.rng.below(len(sealed))]

    def remove(self, seat, count, state):
        return random_removal(state, seat, count, self.rng)

    def seen(self, seats, trick, state):
        """A ritual's cards as the table saw them, trick[i] played by seats[i]."""


class HeuristicBot(RandomBot):
    """Keeps trumps and high cards; wins a ritual as cheaply as it can, else
    throws its weakest card; redirects to its biggest stack; removes as the
    engine suggests."""
    name = "heuristic"

    # Its orders, one int a card (looked up in C by max and sorted): which it
    # wants to keep (trumps, then high, then the lower sign) and how dear a
    # card is to play (a trump, then by value, then the lower sign).
    RANK = dict(((g, v), (g == 0) * 64 + v * 8 + 3 - g) for g in range(4) for v in range(1, 8))
    COST = dict(((g, v), (g == 0) * 64 + v * 8 + g) for g in range(4) for v in range(1, 8))

    def keep(self, seat, cards, state):
        return max(cards, key=self.RANK.__getitem__)

    def play(self, seat, legal, trick, state):
        # The cheapest card that wins the ritual, else the cheapest: tried
        # cheapest first, so most plays stop at the first or second card.
        order = sorted(legal, key=self.COST.__getitem__)
        k = len(trick)
        if k:
            for c in order:
                trick.append(c)
                w = ssc.ritual_winner(trick)
                trick.pop()
                if w == k:
                    return c
        return order[0]

    def redirect(self, seat, sealed, state):
        own = state.stacks(seat)
        return max(sealed, key=lambda e: (own[e - 1], e))

    def remove(self, seat, count, state):
        return ss.suggest(state, seat)


class FaRandomBot:
    """Fantasmagória: any legal card."""
    watches = False

    def __init__(self, rng):
        self.rng = rng

    def sacrifice(self, seat, cards, state):
        return cards[self.rng.below(len(cards))]

    def play(self, seat, legal, trick, state):
        return legal[self.rng.below(len(legal))]

    def seen(self, seats, trick, state):
        """A trick's cards as the table saw them, trick[i] played by seats[i]."""


class FaHeuristicBot(FaRandomBot):
    """Fantasmagória: sacrifices its highest card; follows as low as it can,
    avoiding the trump number; when it cannot follow, throws what scares
    most (a positive cursed card, a ghost, then its highest card)."""

    def sacrifice(self, seat, cards, state):
        return max(cards, key=lambda c: (c & 31, c))

    def play(self, seat, legal, trick, state):
        trump = state.trump
        lead = fc.lead_suit(trick, state.rules.free_copo) if trick else -1
        follows = [c for c in legal if lead >= 0 and c >> 5 & 7 == lead]
        if follows or not trick:
            pool = follows or legal
            return min(pool, key=lambda c: (c & 31 == trump, c & 31, c))

        def scare(c):
            if c == fa.COPO:
                return (0, 0)
            s = c >> 5 & 7
            if c & fa.CURSED:
                return (3, fa.SCARES[s]) if fa.SCARES[s] > 0 else (-1, 0)
            return (2 if s == 4 else 1, c & 31)
        return max(legal, key=lambda c: (scare(c), c))
