"""Ritos Ancestrais: turns, points as scored, the 21-point end, bonuses and
the hand-size tie-break.

Points are entered as numbers (the manual lists neither the cards nor the
invocations' points). The game ends in one place, `State._end_turn`: once a
seat has reached 21, turns go on up to the seat before the initial player;
then bonuses and hand counts are entered and `hands` closes the game.
"""

from altar.core import (Rejected, const, ints, keys, need, need_int, need_list, quote,
                        setup_rules, well_formed)

NAME = "ritos-ancestrais"
GOAL = const(21)

# Named invocations are optional data: name, symbols needed, points (None when
# unknown). The manual names only the Deep One's symbols, and no points.
INVOCATIONS = [
    {"name": "Deep One", "symbols": {"necronomicon": 1, "elder-sign": 2, "miskatonic": 1},
     "points": None},
]
SYMBOLS = ("necronomicon", "elder-sign", "pnakotic", "miskatonic", "yellow-sign", "cthulhu")

OPTIONS = {"invocations": INVOCATIONS}

# The manual's end-game bonus cards, as a `bonus` action may name them
# (optional key "card"; the record then ends with the card's index). The
# name changes no score: the points are what the table entered.
BONUS_CARDS = ("idolo-antigo", "azathoth", "cidade-de-innsmouth")

_SCORE = const(1)
_END_TURN = const(2)
_BONUS = const(3)
_HANDS = const(4)
_POINTS = const(999)  # a sane bound for one entry


def _check_invocations(inv):
    for x in inv:
        if sorted(x) != ["name", "points", "symbols"] or type(x["name"]) is not str:
            raise Rejected("each invocation is {\"name\", \"symbols\", \"points\"}")
        if x["points"] is not None:
            need_int(x["points"], "an invocation's points", 0, _POINTS)
        if type(x["symbols"]) is not dict:
            raise Rejected("an invocation's symbols must be an object")
        for s in sorted(x["symbols"]):
            if s not in SYMBOLS:
                raise Rejected("unknown symbol '%s'" % s)
            need_int(x["symbols"][s], "a symbol count", 1, 7)


class Rules:
    def __init__(self, players, first, seed, options, deck):
        o = setup_rules(self, NAME, 2, 4, OPTIONS, players, first, seed, options)
        _check_invocations(o["invocations"])     # kept in self.options, for tools
        self.seats = len(players)


class State:
    def __init__(self, rules):
        self.rules = rules
        self.reset()

    def reset(self):
        n = self.rules.seats
        self.scores = [0] * n
        self.turn = self.rules.first
        self.acted = False     # points entered this turn: the device's checklist ticks "one action"
        self.trigger = -1      # seat that first reached 21
        self.done = False      # the final turn is over
        self.hands = None
        self.over = False
        self.winners = []

    def check(self, t):
        if self.over:
            raise Rejected("the game is over")
        shape(self.rules, t)
        v = t[0]
        if v == _SCORE or v == _END_TURN:
            if self.done:
                raise Rejected("the final turn is over: enter bonuses, then hands")
        elif not self.done:
            raise Rejected("bonuses and hands come after the final turn")

    def apply(self, t):
        v = t[0]
        if v == _SCORE:
            self.scores[self.turn] += t[1]
            self.acted = True
            if self.trigger < 0 and self.scores[self.turn] >= GOAL:
                self.trigger = self.turn
        elif v == _END_TURN:
            self._end_turn()
        elif v == _BONUS:
            self.scores[t[1]] += t[2]
        else:
            self.hands = list(t[1:])
            self._finish()

    def _end_turn(self):
        """Next seat; once 21 was reached, the round ends at the seat before
        the initial player, so that everyone had as many turns."""
        nxt = (self.turn + 1) % self.rules.seats
        self.acted = False
        if self.trigger >= 0 and nxt == self.rules.first:
            self.done = True
            return
        self.turn = nxt

    def _finish(self):
        # Highest score; then more cards in hand; still tied: a shared win.
        n = self.rules.seats
        best = max([(self.scores[s], self.hands[s]) for s in range(n)])
        self.winners = [s for s in range(n) if (self.scores[s], self.hands[s]) == best]
        self.over = True

    def view(self):
        return {
            "game": NAME,
            "status": "over" if self.over else "playing",
            "winners": list(self.winners),
            "scores": list(self.scores),
            "turn": self.turn,
            "final": self.trigger >= 0,
            "hands": None if self.hands is None else list(self.hands),
        }


def parse(rules, d):
    verb = d["do"]
    n = rules.seats
    if verb == "score":
        keys(d, ("do", "points"))
        return (_SCORE, need_int(need(d, "points"), "points", -_POINTS, _POINTS))
    if verb == "end-turn":
        keys(d, ("do",))
        return (_END_TURN,)
    if verb == "bonus":
        keys(d, ("do", "seat", "points", "card"))
        t = (_BONUS, need_int(need(d, "seat"), "seat", 0, n - 1, -1),
             need_int(need(d, "points"), "points", -_POINTS, _POINTS))
        if "card" not in d:
            return t
        c = d["card"]
        if c not in BONUS_CARDS:
            raise Rejected("unknown bonus card %s; expected one of %s"
                           % (quote(c), ", ".join(BONUS_CARDS)))
        return t + (BONUS_CARDS.index(c),)
    if verb == "hands":
        keys(d, ("do", "counts"))
        t = [_HANDS]
        for c in need_list(need(d, "counts"), "counts", n, n):
            t.append(need_int(c, "a hand count", 0, 99))
        return tuple(t)
    raise Rejected("unknown verb %s for ritos-ancestrais" % quote(verb))


def shape(rules, t):
    """Refuse a record `parse` could not have made (a journal's frame may
    hold anything): its verb, length and ranges."""
    n = rules.seats
    k = len(t)
    v = t[0] if k else 0
    well_formed(v == _SCORE and k == 2 and ints(t, 1, 2, -_POINTS, _POINTS)
                or v == _END_TURN and k == 1
                or v == _BONUS and 2 < k < 5 and ints(t, 1, 2, 0, n - 1)
                and ints(t, 2, 3, -_POINTS, _POINTS) and ints(t, 3, k, 0, len(BONUS_CARDS) - 1)
                or v == _HANDS and k == n + 1 and ints(t, 1, k, 0, 99), t)


def unparse(t):
    v = t[0]
    if v == _SCORE:
        return {"do": "score", "points": t[1]}
    if v == _END_TURN:
        return {"do": "end-turn"}
    if v == _BONUS:
        d = {"do": "bonus", "seat": t[1], "points": t[2]}
        if len(t) > 3:
            d["card"] = BONUS_CARDS[t[3]]
        return d
    return {"do": "hands", "counts": list(t[1:])}
