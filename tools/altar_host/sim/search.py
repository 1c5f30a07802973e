"""Search bots for the two trick games: determinized search, each seat
alone with what it has seen.

A decision with more than one legal card samples `deals` deals of the cards
this seat has not seen, each consistent with all it has seen (a
determinization of its information set). On each deal every legal card is
played out: a copy of the game's state (`clone`, exact: a test plays the
copy against a replay), that card, then the heuristic bot for every seat to
the end of the series (Sete Selos) or round (Fantasmagória), where `value`
scores each seat. The card with the best total over the same deals is
played: comparing the cards on common deals takes the luck of the deal out
of the comparison. BENCHMARKS.md gives the measurements that chose this
over a tree search (single-observer ISMCTS: weaker at the same speed) and
over searching the draft (weaker than the heuristic's keep).

Sete Selos: the draft is remembered as the seat saw it (`Draft`), so a deal
respects every card seen in the draft, every card played and every sign a
seat showed it lacks. A playout stops at the series' end, where `value` is
a model fitted on heuristic games (tools/make/fit_value.py) rather than the next
series played out.
"""

import math

from altar import fantasmagoria as fa
from altar import fantasmagoria_cards as fc
from altar import sete_selos as ss
from altar_host.sim import drivers, card_table
from altar_host.sim.bots import FaHeuristicBot, HeuristicBot


def clone(st):
    """A copy of a game's state that plays on as the original does: its
    buffers and lists copied, the rules shared."""
    c = object.__new__(type(st))
    d = c.__dict__
    for k, v in st.__dict__.items():
        d[k] = v[:] if type(v) in (bytearray, list) else v
    return c


def best(seat, legal, deals, deal, playout):
    """The legal card with the best total value for `seat` over `deals`
    deals (deal() -> hidden hands, or None when none is consistent), each
    card played out on each deal (playout(hands, card) -> value per seat);
    None if no deal was found."""
    score = dict((c, 0.0) for c in legal)
    for _ in range(deals):
        hands = deal()
        if hands is None:
            return None
        for c in legal:
            score[c] += playout(hands, c)[seat]
    return max(legal, key=lambda c: (score[c], c))


# -- Sete Selos -----------------------------------------------------------------------------

class Draft:
    """What one seat saw of a series' draft, and what that says of where each
    card is. Packets go round `card_table.cycle`, one card kept from each at each
    of the 7 rounds, so a packet's 7 cards fill 7 slots: the card kept at
    each round so far, then the cards it still holds. A look at a packet
    shows the cards of its later slots; between two looks, the seats that
    kept from it hold one each of the cards that left it; cards kept before
    a seat's first look at their packet are cards it never saw."""

    def __init__(self):
        self.looks = []     # (cards seen, card kept) per round

    def start(self, state, me):
        self.cycle = card_table.cycle(state)
        self.me = self.cycle.index(me)
        del self.looks[:]

    def groups(self, deck):
        """[(cards, seats)] once the draft is over: each seat listed (a seat
        may be listed more than once) holds exactly one of the cards."""
        m = len(self.cycle)
        q = self.me
        looks = self.looks
        out = []
        unseen = []
        seen = set()
        for p in range(m):
            rounds = [r for r in range(len(looks)) if (q - r) % m == p]
            slots = [self.cycle[(p + r) % m] for r in range(7)]     # who kept from p, by round
            unseen += slots[:rounds[0] if rounds else 7]
            for a, b in zip(rounds, rounds[1:] + [7]):
                cards, mine = looks[a]
                seen.update(cards)
                left = set(cards) - {mine} - (set(looks[b][0]) if b < 7 else set())
                if left:
                    out.append((sorted(left), slots[a + 1:b]))
        out.append(([c for c in deck if c not in seen], unseen))
        return out


def _matching(cards, seats, owner, may, rng):
    """A random assignment of cards to seats (one each), cards already played
    to their player, none to a seat that may not hold it; None if none was
    found."""
    free = list(seats)
    rest = []
    for c in cards:
        o = owner.get(c)
        if o is None:
            rest.append(c)
        elif o in free:
            free.remove(o)
        else:
            return None
    for _ in range(60):
        rng.shuffle(rest)
        for i in range(len(rest)):
            if not may(free[i], rest[i]):
                break
        else:
            return list(zip(free, rest))
    return None


# The value of a state at a series' end: P(seat wins) = softmax over seats of
# features . weights, fitted on heuristic games by tools/make/fit_value.py (per
# player count; the log-loss it reports is in BENCHMARKS.md).
FEATURES = ("short1", "short2", "live2", "live1", "mixed1", "own", "insanity", "mad1",
            "power", "leads", "banished_own", "banished_insanity")
WEIGHTS = {
    2: (1.373, 0.339, 0.167, 0.081, -0.087, 0.795, 0.065, 0.097, 0.378, -0.207, 0.655, 0.373),
    3: (0.437, 0.161, 0.275, 0.023, -0.058, 0.560, -0.496, 0.348, 1.765, -0.353, 0.000, 0.000),
    4: (-0.119, -0.019, 1.203, 0.309, -0.049, 0.414, -0.016, 0.732, 0.327, -0.143, 0.000, 0.000),
}


def features(st):
    """Every seat's features in state st, in the order of FEATURES."""
    r = st.rules
    sealed = [e for e in range(7) if not st.rev >> e & 1]
    totals = [st.elder_total(e) for e in range(7)]
    out = []
    for s in range(r.seats):
        top, goal, mad = r.victory[s][:3]
        own = st.stacks(s)
        live2 = live1 = mixed1 = 0
        for e in sealed:
            k = own[e]
            if k == 2:
                live2 += 1
            elif k == 1:
                if totals[e] == 1:
                    live1 += 1
                else:
                    mixed1 += 1
        total = sum(own)
        short = goal - sum(sorted(own)[7 - top:])
        ins = st.ins[s]
        b = s == r.banished
        out.append((short == 1, short == 2, live2, live1, mixed1, total, ins, ins == mad - 1,
                    ss.power_of(own, r.power) / 10, st.leader == s, total if b else 0,
                    ins if b else 0))
    return out


def value(st):
    """Each seat's chance of winning from state st: 1 or 0 once the game is
    over, else the fitted model's."""
    if st.over:
        return [1.0 if s in st.winners else 0.0 for s in range(st.rules.seats)]
    w = WEIGHTS[st.rules.humans]
    z = [math.exp(sum(a * b for a, b in zip(f, w))) for f in features(st)]
    t = sum(z)
    return [x / t for x in z]


class SearchBot(HeuristicBot):
    """Sete Selos: each ritual card by search (see the module); the draft,
    redirects and removals as the heuristic."""
    name = "search"
    deals = 8
    watches = True

    def __init__(self, rng):
        HeuristicBot.__init__(self, rng)
        self.rest = HeuristicBot(rng)   # every seat's play in a playout
        self.draft = Draft()
        self.owner = {}          # card -> seat that played it, this series

    def keep(self, seat, cards, state):
        if len(cards) == 7:
            self.draft.start(state, seat)
            self.owner = {}
        c = HeuristicBot.keep(self, seat, cards, state)
        self.draft.looks.append((list(cards), c))
        return c

    def seen(self, seats, trick, state):
        self.owner.update(zip(trick, seats))

    def play(self, seat, legal, trick, state):
        if len(legal) == 1:
            return legal[0]
        groups = self.draft.groups(card_table.deck(state.rules))
        hand = self.hand

        def playout(hands, card):
            hs = [list(h) for h in hands]
            hs[seat] = [c for c in hand if c != card]
            return self.playout(clone(state), hs, trick + [card])
        c = best(seat, legal, self.deals, lambda: self.deal(seat, state, trick, groups), playout)
        return c if c is not None else HeuristicBot.play(self, seat, legal, trick, state)

    def deal(self, seat, st, trick, groups):
        """Every other seat's hand now, at random but consistent with all
        that `seat` has seen (None if no deal was found)."""
        r = st.rules
        n = r.seats
        owner = dict(self.owner)
        lacks = list(st.void)
        for i in range(len(trick)):
            o = st.after(st.leader, i)
            owner[trick[i]] = o
            if trick[i][0] != trick[0][0]:
                lacks[o] |= 1 << trick[0][0]

        def may(o, c):
            return o == r.banished or not lacks[o] >> c[0] & 1
        hands = [[] for _ in range(n)]
        for cards, seats in groups:
            got = _matching(cards, seats, owner, may, self.rng)
            if got is None:
                return None
            for o, c in got:
                hands[o].append(c)
        if r.banished >= 0:
            self.rng.shuffle(hands[r.banished])     # its pile's order is hidden too
        return hands

    def playout(self, st, hands, trick):
        """Play the series on from `trick` by the heuristic and return
        every seat's value at its end."""
        drivers.series(st, hands, trick, card_table.seated(st.rules, [self.rest] * st.rules.humans),
                       st.apply)
        return value(st)


# -- Fantasmagória --------------------------------------------------------------------------

# The value of a round's end: P(seat wins) = softmax over seats of weight *
# its track, by players and rounds played (fitted like WEIGHTS).
FA_WEIGHTS = {(3, 1): -0.234, (3, 2): -0.338, (4, 1): -0.296, (4, 2): -0.387}


def fa_value(st):
    """Each seat's chance of winning from state st at a round's end."""
    n = st.rules.seats
    if st.over:
        return [1.0 if s in st.winners else 0.0 for s in range(n)]
    w = FA_WEIGHTS[n, st.round - 1]
    lo = min(st.track)
    z = [math.exp(w * (t - lo)) for t in st.track]
    t = sum(z)
    return [x / t for x in z]


class _Sacrifices:
    """The seat whose sacrifice is searched: the card tried."""

    def __init__(self, card):
        self.card = card

    def sacrifice(self, seat, cards, state):
        return self.card


class FaSearchBot(FaHeuristicBot):
    """Fantasmagória: the sacrifice and each trick's card by search (see the
    module). A deal gives the others ritual cards this seat has not seen, in
    the numbers they hold (the engine counts them: the header's deck is
    needed, and without it this bot plays as the heuristic) and in no suit
    they showed they lack; a possessed seat its pile's ghosts not yet
    played, and maybe its pile's sacrificed card; the piles left the rest."""
    name = "search"
    deals = 8
    watches = True

    def __init__(self, rng):
        FaHeuristicBot.__init__(self, rng)
        self.rest = FaHeuristicBot(rng)
        self.owner = {}          # card -> seat that played it, this round

    def _round(self, st):
        """This round's public facts: the deck, and what this seat was dealt."""
        r = st.rules
        self.ritual, self.ghosts = card_table.fa_deck(r, (r.lo, r.hi))
        self.dealt = list(self.hand)
        self.owner = {}

    def _odd(self, n, seat, mine, counts=None):
        """Where the odd card (option odd_card "dealt") is, in one deal: one
        more card for a seat. This seat's hand, `mine` cards over its count,
        tells whether it holds it; if not, a seat whose count (`counts`) is
        out yet plays does, else another seat at random."""
        extra = [0] * n
        if not mine:
            others = [o for o in range(n) if o != seat]
            others = [o for o in others if counts and not counts[o]] or others
            extra[others[self.rng.below(len(others))]] = 1
        return extra

    def seen(self, seats, trick, state):
        self.owner.update(zip(trick, seats))

    def sacrifice(self, seat, cards, state):
        self._round(state)
        if len(cards) == 1 or not state.rules.deal:
            return FaHeuristicBot.sacrifice(self, seat, cards, state)
        r = state.rules
        n = r.seats
        hand = self.hand
        unseen = [c for c in self.ritual if c not in hand]
        bots = [self.rest] * n

        def deal():
            self.rng.shuffle(unseen)
            ghosts = list(self.ghosts)
            self.rng.shuffle(ghosts)
            extra = [0] * n if r.aside else self._odd(n, seat, len(hand) - r.deal)
            hands = []
            i = 0
            for o in range(n):
                k = 0 if o == seat else r.deal + extra[o]
                hands.append(unseen[i:i + k])
                i += k
            return hands, [ghosts[i * 3:i * 3 + 3] for i in range(n)]

        def playout(dealt, card):
            hands = [list(h) for h in dealt[0]]
            piles = [list(p) for p in dealt[1]]
            hands[seat] = list(hand)
            t = card_table.fa_sacrifice(state, hands, piles,
                                   bots[:seat] + [_Sacrifices(card)] + bots[seat + 1:], self.rng)
            sim = clone(state)
            sim.apply(t)
            return self.playout(sim, hands, piles, [], bots)
        return best(seat, cards, self.deals, deal, playout)

    def play(self, seat, legal, trick, state):
        if len(legal) == 1 or not state.rules.deal:
            # one card, or a game without the deck: its hands are not counted
            return FaHeuristicBot.play(self, seat, legal, trick, state)
        n = state.rules.seats
        hand = self.hand
        bots = [self.rest] * n

        def playout(dealt, card):
            hands = [list(h) for h in dealt[0]]
            hands[seat] = [c for c in hand if c != card]
            return self.playout(clone(state), hands, [list(p) for p in dealt[1]],
                                trick + [card], bots)
        c = best(seat, legal, self.deals, lambda: self.deal(seat, state, trick), playout)
        return c if c is not None else FaHeuristicBot.play(self, seat, legal, trick, state)

    def deal(self, seat, st, trick):
        """(every other seat's hand, the piles not taken), at random but
        consistent with what `seat` has seen; None if none was found. The
        hands' sizes are the engine's count (the deck is known), the odd
        card's holder drawn if it is unknown."""
        r = st.rules
        n = r.seats
        owner = dict(self.owner)
        now = list(st.hand)                 # what each seat holds now
        for i in range(len(trick)):
            o = (st.leader + i) % n
            owner[trick[i]] = o
            now[o] -= 1
        hand = self.hand
        if st.odd:
            now = [a + b for a, b in zip(now, self._odd(n, seat, len(hand) - now[seat], st.hand))]
        sac = [c for c in self.ritual if st.seen[c & 0xFF] & 2]
        ritual = [c for c in self.ritual
                  if c not in owner and c not in self.dealt and c not in sac]
        ghosts = [c for c in self.ghosts if c not in owner and c not in hand]
        sacs = [c for c in sac if c not in owner and c not in hand]
        piles = n - bin(st.possessed).count("1")
        ghosts_played = [0] * n
        sac_played = [False] * n
        for c, o in owner.items():
            ghosts_played[o] += c >> 5 == fa.GHOST
            sac_played[o] |= c in sac
        others = [o for o in range(n) if o != seat]
        possessed = [o for o in others if st.possessed >> o & 1]
        may_hold = [o for o in possessed if not sac_played[o]]
        holding = len(sacs) - piles
        if not 0 <= holding <= len(may_hold):
            return None

        lacks = set()        # (seat, suit) this trick has shown so far
        if trick:
            lead = fc.lead_suit(trick, r.free_copo)
            lacks = {((st.leader + i) % n, lead) for i in fc.failing(st, trick, lead)}

        def may(o, c):
            return not st.void[o * 6 + (c >> 5 & 7)] and (o, c >> 5 & 7) not in lacks

        def may_pile(o, c):      # c, a sacrificed card, in o's hand from its pile
            v = st.void[o * 6 + (c >> 5 & 7)]
            return (st.took[o] in (0xFF, c) and (not v or v & fc.BEFORE)
                    and (o, c >> 5 & 7) not in lacks)
        must = [(o, st.took[o]) for o in may_hold if st.took[o] in sacs]
        # The ritual cards fewest seats may hold go first, each to a seat
        # that may hold it, chosen at random by how many it still takes.
        ritual.sort(key=lambda c: (sum(1 for o in others if may(o, c)), c))
        rng = self.rng
        for _ in range(50):
            rng.shuffle(may_hold)
            rng.shuffle(ghosts)
            rng.shuffle(sacs)
            holders = may_hold[:holding]    # they still hold their pile's sacrificed card
            pairs = list(zip(holders, sacs))
            if not all(may_pile(o, c) for o, c in pairs) or not all(p in pairs for p in must):
                continue
            hands = [[] for _ in range(n)]
            room = [0] * n
            gi = 0
            for o in others:
                h = hands[o]
                if st.possessed >> o & 1:
                    k = 3 - ghosts_played[o]
                    h += ghosts[gi:gi + k]
                    gi += k
                    if o in holders:
                        h.append(sacs[holders.index(o)])
                room[o] = now[o] - len(h)
            pool = list(ritual)
            spare = len(pool) - sum(room)
            if not 0 <= spare <= 1 or gi + 3 * piles != len(ghosts) or min(room) < 0:
                return None              # the counts disagree: no deal
            if spare:
                pool.pop(rng.below(len(pool)))     # the card set aside
            for c in pool:
                total = sum(room[o] for o in others if may(o, c))
                if not total:
                    break
                k = rng.below(total)
                for o in others:
                    if may(o, c):
                        if k < room[o]:
                            hands[o].append(c)
                            room[o] -= 1
                            break
                        k -= room[o]
            else:
                rest = ghosts[gi:]
                left = sacs[holding:]
                return hands, [rest[i * 3:i * 3 + 3] + [left[i]] for i in range(piles)]
        return None

    def playout(self, st, hands, piles, trick, bots):
        """Play the round on from `trick` by the heuristic and return every
        seat's value at its end."""
        drivers.fa_round(st, hands, piles, trick, bots, self.rng, st.apply)
        return fa_value(st)
