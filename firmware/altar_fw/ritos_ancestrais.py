"""Ritos Ancestrais on the device: whose turn (its colour on the pixels),
the turn's checklist, points in quick steps, the final-round banner with who
still plays, then bonuses (which card, whose, how many points) and hand
counts, and the winner or a shared win.

The turn screen: the title names the seat in turn; the scores follow, two
seats a line; then the checklist (its done step inverted) and, once 21 is
reached, who still plays.
"""

from altar.core import const
from altar.ritos_ancestrais import BONUS_CARDS
from altar_fw.ui import COLS, fit, seat_names, seat_options

TURN = const(20)
_ACTION = const(21)
_POINTS = const(22)
_END = const(23)
_BONUS_SEAT = const(24)
_BONUS_POINTS = const(25)
_HANDS = const(26)
_OVER = const(27)
_BONUS_CARD = const(28)
# The manual's end-game bonus cards (the log's BONUS_CARDS), then "other".
_CARDS = ("idolo", "azathoth", "innsmouth", "other_bonus")
_CELL = const(5)        # a name's columns in the scores, two seats a row ("Duda -10  Caio 9")
# Points as entered, the common ones first; corrections last.
STEPS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, -1, -2, -5)


def _points(steps):
    return [("%+d" % p, p, p if 0 < p < 8 else 0) for p in steps]


class Play:
    """Ritos Ancestrais' screens (the protocol: ui.py's docstring)."""
    MAIN = TURN
    OVER = _OVER
    SCORE = 0            # no score view of its own: the board shows the totals

    def __init__(self, ui):
        self.ui = ui
        self.card = 0          # the bonus's card: 1 + its BONUS_CARDS index, 0 for other
        self.seat = 0          # the bonus's seat
        self.counts = []       # hand counts entered so far
        self.cells = seat_names(ui.session.rules, _CELL)   # the names in the scores

    def playing(self, st):
        """The turn, or, after the final turn, a bonus or the hand counts."""
        ui = self.ui
        if st.done:
            ui.options(_END, [(ui.T["bonus"], 0, 1), (ui.T["hands"], 1, 2)])
        else:
            ui.mode = TURN

    def open(self):
        """OK in a turn: points (always preselected: OK, OK enters more
        points, never ends the turn by haste) or the end of the turn."""
        ui = self.ui
        ui.options(_ACTION, [(ui.T["points"], 0, 1), (ui.T["end_turn"], 1, 2)])

    def back(self):
        """One question back: from the end's choice (bonus or hands) the
        menu; from a turn's choice, the turn; a seat's hand count goes back
        to the last seat's."""
        ui = self.ui
        m = ui.mode
        if m == _END:
            ui.menu()
        elif m == _POINTS:
            self.open()
        elif m == _BONUS_CARD or m == _HANDS and not self.counts:
            ui.enter()                # the end's choice
        elif m == _BONUS_SEAT:
            self._ask_card((self.card - 1) % 4)
        elif m == _BONUS_POINTS:
            ui.options(_BONUS_SEAT, seat_options(ui.names), sel=self.seat)
        elif m == _HANDS:
            self._ask_hands(self.counts.pop())
        else:
            ui.enter()

    def chosen(self, v):
        """Points or the turn's end; the points; after the final turn a
        bonus (its card, its seat, its points) or each seat's hand count."""
        ui = self.ui
        m = ui.mode
        n = ui.session.rules.seats
        if m == _ACTION:
            if v == 0:
                ui.options(_POINTS, _points(STEPS))
            else:
                ui.act({"do": "end-turn"})
        elif m == _POINTS:
            ui.act({"do": "score", "points": v})
        elif m == _END:
            if v == 0:
                self._ask_card()
            else:
                self.counts = []
                self._ask_hands()
        elif m == _BONUS_CARD:
            self.card = v
            ui.options(_BONUS_SEAT, seat_options(ui.names))
        elif m == _BONUS_SEAT:
            self.seat = v
            ui.options(_BONUS_POINTS, _points(STEPS[:13]))
        elif m == _BONUS_POINTS:
            d = {"do": "bonus", "seat": self.seat, "points": v}
            if self.card:
                d["card"] = BONUS_CARDS[self.card - 1]
            ui.act(d)
        elif m == _HANDS:
            self.counts.append(v)
            if len(self.counts) < n:
                self._ask_hands()
            else:
                ui.act({"do": "hands", "counts": self.counts})

    def _ask_card(self, sel=0):
        self.ui.options(_BONUS_CARD, [(self.ui.T[_CARDS[i]], (i + 1) % 4, i + 1)
                                      for i in range(4)], sel=sel)

    def _ask_hands(self, sel=5):
        self.ui.options(_HANDS, [(str(c), c, c) for c in range(21)], sel=sel)

    def said(self, d):
        """What an undone action was (d: the log action), for a person."""
        T = self.ui.T
        st = self.ui.session.state
        names = self.ui.names
        v = d["do"]
        if v == "score":
            return T["said_score_text"] % (d["points"], names[st.turn])
        if v == "end-turn":
            return T["said_end_turn_text"] % names[st.turn]
        if v == "bonus":
            return T["said_bonus_text"] % (d["points"], names[d["seat"]])
        return T["said_hands_text"]

    # -- the lights' events --------------------------------------------------------

    def marks(self):
        """The seat that reached 21 (-1: none yet), the game over."""
        st = self.ui.session.state
        return st.trigger, st.over

    def event(self, before):
        """The game's end, or 21 reached (the final round starts)."""
        trigger, over = self.marks()
        if over and not before[1]:
            return "victory"
        if trigger >= 0 and before[0] < 0:
            return "reveal"      # 21 reached: the final round starts
        return None

    # -- drawing ---------------------------------------------------------------------

    def _still(self, st):
        """The seats that still play in the final round, the one in turn first."""
        n = st.rules.seats
        out = []
        s = st.turn
        while True:
            out.append(s)
            s = (s + 1) % n
            if s == st.rules.first:
                return out

    def draw_main(self, s, st):
        """The seat in turn, the scores two seats a line, the turn's
        checklist and, once 21 is reached, who still plays."""
        ui = self.ui
        T = ui.T
        n = st.rules.seats
        s.title = fit(T["turn"], (ui.names[st.turn],))
        s.seat = st.turn
        cells = ["%s %d" % (self.cells[i], st.scores[i]) for i in range(n)]
        lines = ["  ".join(cells[i:i + 2]) for i in range(0, n, 2)]
        check = T["checklist"]
        words = check.split(" ")
        # the middle step (one action) is done once points were entered
        start = len(words[0]) + 1
        mask = ((1 << len(words[1])) - 1) << start if st.acted else 0
        inv = [0] * len(lines) + [mask]
        lines.append(check)
        if st.trigger >= 0:     # the banner: who still plays, inverted
            lines.append(_listed(T["final"], self._still(st), ui))
            inv.append(-1)
        s.lines = lines
        s.inv = inv

    def draw_over(self, s, st):
        """The winner or the shared win, the scores and the hands."""
        ui = self.ui
        T = ui.T
        w = st.winners
        s.seat = w[0]
        tied = st.scores.count(st.scores[w[0]]) > 1
        if len(w) > 1:
            s.title = T["shared"]
        else:
            # A tie on points the cards in hand broke: said, not left to be argued.
            s.title = fit(T["wins_hand" if tied else "wins"], (ui.names[w[0]],))
        s.lines = [T["ra_row"] % (self.cells[i], st.scores[i], st.hands[i])
                   for i in range(st.rules.seats)]

    def draw_entry(self, s, st, m):
        """An entry's title and seat (the seat in turn's unless the entry
        names another)."""
        ui = self.ui
        T = ui.T
        names = ui.names
        s.seat = st.turn
        if m == _ACTION:
            s.title = fit(T["turn"], (names[st.turn],))
        elif m == _POINTS:
            s.title = fit(T["points_q"], (names[st.turn],))
        elif m == _END:
            s.title = T["scores"] % " ".join([str(x) for x in st.scores])
        elif m == _BONUS_CARD:
            s.title = T["bonus_q"]
        elif m == _BONUS_SEAT:
            s.title = T["bonus_who"]
        elif m == _BONUS_POINTS:
            s.title = fit(T["bonus_pts"], (names[self.seat],))
            s.seat = self.seat
        else:
            seat = len(self.counts)
            s.title = fit(T["hand_of"], (names[seat],))
            s.seat = seat


def _listed(template, seats, ui):
    """template % the seats' names, or their short forms, or their numbers:
    the first that fits."""
    for names in (ui.names, ui.short):
        text = template % " ".join([names[i] for i in seats])
        if len(text) <= COLS:
            return text
    return template % " ".join(["P%d" % (i + 1) for i in seats])
