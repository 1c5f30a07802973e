"""The game drivers: one for each trick game, which plays a whole game
through the engine with bots, a bot a seat (see altar_host.sim.card_table for what
a bot is asked). altar_host.sim.simulate runs its bots' games with them,
altar_host.sim.randomplay its random logs, altar_host.sim.search its playouts (the
rest of a series or round), so a seed's game is the same wherever it is
played.

A game is played on the engine's state, each action as a record; `Log`
writes what the table enters in the log (referee or quick entry, undos).
"""

from altar import fantasmagoria as fa
from altar import fantasmagoria_cards as fc
from altar import sete_selos as ss
from altar import sete_selos_cards as ssc
from altar.core import Session
from altar_host.sim import card_table


def header(game, players, seed, first=None, options=None, deck=None):
    """A session's header: players P1.., `first` if given, the seed, then
    `deck` and `options` if given (keys in the order the logs always had)."""
    h = {"altar": 1, "game": game, "players": ["P%d" % (i + 1) for i in range(players)]}
    if first is not None:
        h["first"] = first
    h["seed"] = seed
    if deck:
        h["deck"] = deck
    if options:
        h["options"] = options
    return h


class Log:
    """A game's log as the table enters it on `session`, its actions kept in
    `actions`: each record as it is (referee entry) or, `quick` per cent of
    the time, the same play as its result (Sete Selos: a ritual;
    Fantasmagória: a round, its sacrifice half the time and most of its
    tricks); `undo` per cent of the actions followed by an undo and the same
    action again. A Fantasmagória trick that possessed seats names the piles
    they took half the time. Its draws are from the game's `rng`."""

    def __init__(self, session, rng, quick=0, undo=0):
        self.session = session
        self.rng = rng
        self.quick = quick
        self.undo = undo
        self.actions = []
        self.fast = False       # this Fantasmagória round is entered quickly

    def do(self, a):
        """Apply and keep the log action a (a dict)."""
        s = self.session
        s.do(a)
        self.actions.append(a)
        if self.rng.below(100) < self.undo:
            s.do({"do": "undo"})
            self.actions.append({"do": "undo"})
            s.do(a)
            self.actions.append(a)

    def play(self, t):
        """Sete Selos: record t as the table enters it."""
        s = self.session
        a = s.mod.unparse(t)
        if t[0] == ss.CARDS and self.rng.below(100) < self.quick:
            cards = a["cards"]
            w = ssc.ritual_winner(cards)
            a = {"do": "ritual", "winner": s.state.after(s.state.leader, w),
                 "value": cards[w][1]}
        self.do(a)

    # Fantasmagória, step by step: each is given the referee's record and
    # the quick entry of the same play.

    def round(self):
        self.fast = self.rng.below(100) < self.quick

    def sacrifice(self, t, quick):
        self.do(fa.unparse(quick if self.fast and self.rng.below(2) else t))

    def trick(self, t, quick, took):
        """took: the piles the trick's newly possessed seats took, each by
        its sacrificed card."""
        if self.fast and self.rng.below(4):
            for x in quick:
                self.do(fa.unparse(x))
        elif took and self.rng.below(2):
            self.do(dict(fa.unparse(t), took=[fc.card_json(c) for c in took]))
        else:
            self.do(fa.unparse(t))

    def end(self, t, quick):
        self.do(fa.unparse(quick if self.fast else t))


# -- Sete Selos ------------------------------------------------------------------------------

def sete_selos(st, rng, bots, play, draft=True):
    """Play the game of state st to its end: each series dealt by `rng` and
    drafted (draft False: kept as dealt), then played by `bots` (one a
    seat: card_table.seated) as `series` does; each record goes to play(t), which
    applies it to st (a Session's play, or a Log's)."""
    while not st.over:
        hands = card_table.draft(st, rng, bots) if draft else card_table.deal(st.rules, rng)
        series(st, hands, [], bots, play)


def series(st, hands, trick, bots, play):
    """Play the series on from `trick` (its ritual's cards so far), the
    seats holding `hands`, to its end or the game's: each ritual's cards,
    the redirects and removals the engine asks for; each record to play(t)."""
    end = (st.ritual // 7 + 1) * 7
    ears = card_table.watching(bots)
    while not st.over:
        if st.wait:
            play(card_table.answer(st, bots))
        elif st.ritual >= end:
            return
        else:
            seats = ears and card_table.play_order(st, st.leader)
            play(card_table.ritual(st, hands, trick, bots))
            for b in ears:
                b.seen(seats, trick, st)
            trick = []


# -- Fantasmagória ---------------------------------------------------------------------------

def fantasmagoria(header, rng, bots, log=None, deck=None):
    """A whole game of `header` played by `bots`, each round dealt by `rng`,
    which also lays out the ghost piles: its Session, each record checked
    by the engine as it is played, on a header that names the deck (`deck`,
    when `header` leaves it out). log: a Log told each step, which enters
    the same game as a table would on a session of its own (RuntimeError if
    its entry ends the game elsewhere)."""
    ref = Session(dict(header, deck=deck or header["deck"]))
    st = ref.state
    r = ref.rules
    n = r.seats
    ritual, ghosts = card_table.fa_deck(r, (r.lo, r.hi))
    while not st.over:
        if log:
            log.round()
        deal = list(ritual)
        rng.shuffle(deal)
        hands = card_table.fa_deal(r, deal, rng)
        piles = list(ghosts)
        rng.shuffle(piles)
        piles = [piles[i * 3:i * 3 + 3] for i in range(n)]
        t = card_table.fa_sacrifice(st, hands, piles, bots, rng)
        ref.play(t)
        if log:
            log.sacrifice(t, (fa.SET_TRUMP, st.trump, st.leader))
        fa_round(st, hands, piles, [], bots, rng, ref.play, log)
    if log and log.session.view() != ref.view():
        raise RuntimeError("seed %s: the log's quick entry and referee entry end the game "
                           "differently" % r.seed)
    return ref


def fa_round(st, hands, piles, trick, bots, rng, play, log=None):
    """Play the round on from `trick` (its cards so far), the seats holding
    `hands`, to its end (the leftover hands): a seat a trick possesses takes
    one of `piles` at random (`rng`); each record to play(t), which applies
    it to st. log: a Log told each step (None: no log)."""
    n = st.rules.seats
    ears = card_table.watching(bots)
    while trick or card_table.fa_goes_on(st, hands):
        card_table.fa_trick(st, hands, trick, bots)
        before = st.possessed
        leader = st.leader
        t = [fa.TRICK] + trick
        play(t)
        taken = card_table.fa_possess(st, leader, before, hands, piles, rng)
        if log:
            quick = []
            took = []
            for i in taken:
                seat = (leader + i) % n
                quick.append((fa.POSSESS, seat, -1 if trick[i] == fa.COPO else trick[i] & 31))
                took.append(hands[seat][-1])     # its pile's sacrificed card
            quick.append((fa.TRICK_WON, st.leader))
            log.trick(t, quick, took)
        if ears:
            seats = [(leader + i) % n for i in range(n)]
            for b in ears:
                b.seen(seats, trick, st)
        trick = []
    t = [fa.LEFTOVER]
    for h in hands:
        t.append(len(h))
        t += h
    quick = end_piles(st, hands) if log else None
    play(t)
    if log:
        log.end(t, quick)


def end_piles(st, hands):
    """The round's end as piles (the quick entry of the leftover `hands`):
    each seat's, its leftover hand's ghosts and cursed cards added (Filipi
    Bode only through the trick it won)."""
    t = [fa.PILES]
    for seat in range(st.rules.seats):
        g, m = fc.scary(hands[seat])
        m |= st.curses[seat]
        if st.filipi == seat:
            m |= 1 << fa.BODE
        t.append(st.ghosts[seat] + g)
        t.append(m)
    return t
