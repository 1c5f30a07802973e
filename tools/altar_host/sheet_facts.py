"""What a game sheet shows, found by replaying a log's kept actions through
the engine one at a time and reading its state after each: the rules are
the engine's alone, nothing here decides who won or what scored.

`facts(session)` takes a session loaded from the log (its undos already
taken back) and returns the game's facts object.
"""

from dataclasses import dataclass, field

from altar.core import Session
from altar.sete_selos import WAIT_REDIRECT
from altar.sete_selos_cards import ritual_winner


def facts(session):
    return {"sete-selos": sete_selos, "fantasmagoria": fantasmagoria,
            "ritos-ancestrais": ritos_ancestrais}[session.header["game"]](session)


def _fresh(session):
    """A new session from the same header, to step through the kept actions."""
    return Session(session.header)


# -- Sete Selos ------------------------------------------------------------------------

SERIES = 7      # rituals a series


@dataclass
class Ritual:
    n: int
    leader: int
    winner: int
    value: int
    insanity: int          # what the winner gained (a revealed Elder)
    elder: int = 0         # where the cultist went (1..7); 0: the game ended first
    chosen: bool = False   # a redirect the seat chose, not the card's own Elder

    @property
    def series(self):
        return (self.n - 1) // SERIES + 1


@dataclass
class Board:
    stacks: list           # per seat, 7 counts
    revealed: list         # per Elder


@dataclass
class SeteSelos:
    view: dict
    state: object
    rituals: list = field(default_factory=list)
    insanity: list = field(default_factory=list)   # per seat, after each ritual (0: the start)
    series_boards: dict = field(default_factory=dict)  # series -> Board before any removal
    end_board: Board = None
    removals: dict = field(default_factory=dict)   # seat -> Elder values removed
    condition: tuple = None


def _value(action):
    """The winning card's value; referee entry names the cards, and the
    engine's own trick rule finds the winner among them."""
    if "cards" not in action:
        return action["value"]
    cards = [tuple(c) for c in action["cards"]]
    return cards[ritual_winner(cards)][1]


def _board(st, removed):
    """The board with what was removed put back: before the end's removals."""
    stacks = [list(st.stacks(s)) for s in range(st.rules.seats)]
    for seat, elders in removed.items():
        for e in elders:
            stacks[seat][e - 1] += 1
    return Board(stacks, [bool(st.rev >> e & 1) for e in range(7)])


def _condition(st, seat):
    """Which immediate victory: ("insanity", had, needed) or ("cultists",
    on the `top` fullest Elders, top, needed), by the rules' own table."""
    top, need, mad = st.rules.victory[seat][:3]
    if st.ins[seat] >= mad:
        return ("insanity", st.ins[seat], mad)
    return ("cultists", sum(sorted(st.stacks(seat))[7 - top:]), top, need)


def sete_selos(session):
    s = _fresh(session)
    st = s.state
    f = SeteSelos(view=None, state=st, insanity=[[0] * st.rules.seats])
    for a in session.actions():
        cult, ins, leader = bytes(st.cult), bytes(st.ins), st.leader
        s.do(a)
        if a["do"] == "ritual":
            w = st.last
            f.rituals.append(Ritual(st.ritual, leader, w, _value(a), st.ins[w] - ins[w]))
            f.insanity.append(list(st.ins))
        # A cultist placed belongs to the last ritual; one taken is a removal.
        for i, (was, now) in enumerate(zip(cult, st.cult)):
            if now > was:
                f.rituals[-1].elder = i % 7 + 1
                f.rituals[-1].chosen = a["do"] == "redirect"
            elif now < was:
                f.removals.setdefault(i // 7, []).extend([i % 7 + 1] * (was - now))
        # A series ends with its last ritual's cultist placed (after any
        # redirect); the last series' board is taken again at each removal,
        # the same since removals are put back.
        if st.ritual and st.ritual % SERIES == 0 and st.wait != WAIT_REDIRECT:
            f.series_boards[st.ritual // SERIES] = _board(st, f.removals)
    f.view = s.view()
    f.end_board = _board(st, {})
    if st.reason == "immediate":
        f.condition = _condition(st, st.winners[0])
    return f


# -- Fantasmagória ---------------------------------------------------------------------

@dataclass
class Trick:
    n: int
    leader: int
    winner: int = -1                                # -1: the log stops inside the trick
    possessed: list = field(default_factory=list)   # seats possessed in this trick
    moved: tuple = None                             # the planchette: (from, to)


@dataclass
class Pile:
    ghosts: int
    cursed: list       # the cursed cards' names (engine's CURSES) but Filipi Bode
    filipi: bool       # won a trick with Filipi Bode
    scares: int


@dataclass
class Round:
    n: int
    trump: int         # the planchette after the sacrifice
    leader: int
    tricks: list = field(default_factory=list)
    piles: list = None                              # None: the round did not end
    track: list = None                              # each seat's track after the round


@dataclass
class Fantasmagoria:
    view: dict
    rounds: list = field(default_factory=list)
    tied: list = field(default_factory=list)        # the lowest seats the spirit chose from


def _watch_piles(st):
    """Each seat's pile as the engine scores it at a round's end: its
    end_round clears them, so they are read on the way in."""
    from altar.fantasmagoria import BODE, CURSES
    seen = []
    score = st.end_round

    def end_round():
        seen.append([(st.ghosts[s], [CURSES[k] for k in range(4)
                                     if k != BODE and st.curses[s] >> k & 1], s == st.filipi)
                     for s in range(st.rules.seats)])
        score()
    st.end_round = end_round
    return seen


def _trick(rnd, leader):
    """The trick in play: a new one unless the last is still open."""
    if not rnd.tricks or rnd.tricks[-1].winner >= 0:
        rnd.tricks.append(Trick(len(rnd.tricks) + 1, leader))
    return rnd.tricks[-1]


def fantasmagoria(session):
    s = _fresh(session)
    st = s.state
    n = st.rules.seats
    piles = _watch_piles(st)
    f = Fantasmagoria(view=None)
    for a in session.actions():
        verb = a["do"]
        trump, possessed, leader = st.trump, st.possessed, st.leader
        s.do(a)
        if verb == "sacrifice":
            f.rounds.append(Round(st.round, st.trump, st.leader))
            continue
        rnd = f.rounds[-1]
        if verb == "end-round":
            rnd.piles = [Pile(g, c, fi, x) for (g, c, fi), x in zip(piles[-1], st.rounds[-1])]
            rnd.track = list(st.track)
            continue
        t = _trick(rnd, leader)
        t.possessed += [seat for seat in range(n) if (st.possessed & ~possessed) >> seat & 1]
        if st.trump != trump:
            t.moved = (trump, st.trump)
        if verb == "trick":
            t.winner = st.leader
    f.view = s.view()
    if st.spirit:
        low = min(st.track)
        f.tied = [seat for seat in range(n) if st.track[seat] == low]
    return f


# -- Ritos Ancestrais ------------------------------------------------------------------

@dataclass
class Turn:
    n: int
    seat: int
    points: int = 0
    scores: list = None     # every seat's score after the turn; None while it goes on


@dataclass
class RitosAncestrais:
    view: dict
    turns: list = field(default_factory=list)
    trigger: int = 0        # the turn that reached 21 (0: none did)
    bonuses: list = field(default_factory=list)     # (seat, points, card's name or None)


def ritos_ancestrais(session):
    s = _fresh(session)
    st = s.state
    f = RitosAncestrais(view=None)
    for a in session.actions():
        verb = a["do"]
        if verb in ("score", "end-turn") and (not f.turns or f.turns[-1].scores is not None):
            f.turns.append(Turn(len(f.turns) + 1, st.turn))
        reached = st.trigger >= 0
        s.do(a)
        if verb == "score":
            f.turns[-1].points += a["points"]
        elif verb == "end-turn":
            f.turns[-1].scores = list(st.scores)
        elif verb == "bonus":
            f.bonuses.append((a["seat"], a["points"], a.get("card")))
        if st.trigger >= 0 and not reached:
            f.trigger = len(f.turns)
    f.view = s.view()
    return f
