"""Fantasmagória on the device (quick entry): the sacrifice (trump, then
leader), the planchette's number large at all times, the leader and who is
possessed this round, tricks (the winner; a possession: who and the number
played, the planchette moving for a trick's first one only: the engine's
rule), the round's piles seat by seat (ghosts, then the cursed cards), the
round and running totals, and the spirit's tie-break.

The board: the title has the round and the leader; then who is possessed,
the trump's label (its number stands large on the right), and the running
scares, each after its seat's name. The result: a row a seat, its total
and the rounds that made it ("P1 3 (1+2+0)").
"""

from altar.core import const
from altar_fw.ui import COLS, fit, seat_options

BOARD = const(20)
_TRUMP = const(21)
_LEADER = const(22)
_TRICK = const(23)
_WINNER = const(24)
_POSS_SEAT = const(25)
_POSS_NUM = const(26)
_GHOSTS = const(27)
_CURSED = const(28)
_OVER = const(29)
_SUMMARY = const(30)
_DONE = const(9)
# The cursed cards a pile may hold, as the engine's bit per suit, and their
# string keys; the candelabro (vela) is out of a 3-player game.
_CURSES = ((0, "gato", "gato-da-sorte"), (1, "candelabro", "candelabro"),
           (3, "belleanna", "belleanna"), (2, "filipi", "filipi-bode"))
_LEFT = const(14)      # columns left of the big trump


class Play:
    """Fantasmagória's screens (the protocol: ui.py's docstring)."""
    MAIN = BOARD
    OVER = _OVER
    SCORE = 0            # no score view of its own: the board shows the totals

    def __init__(self, ui):
        self.ui = ui
        self.trump = 0        # the sacrifice's trump, while its leader is asked
        self.seat = 0         # the possessed seat, while its number is asked
        self.piles = []       # the round's piles entered so far (engine masks)
        self.ghosts = 0       # the pile's ghosts, while its cursed cards are asked
        self.cursed = 0       # the pile's cursed cards so far (a bit per suit)

    def playing(self, st):
        """The board, or the round's sacrifice (its trump first)."""
        if st.leader < 0:
            self.ui.options(_TRUMP, self._numbers())
        else:
            self.ui.mode = BOARD

    def _numbers(self):
        r = self.ui.session.rules
        return [(str(n), n, n if n < 8 else 0) for n in range(r.lo, r.hi + 1)]

    def open(self):
        """OK on the board: a trick's winner, a possession, or the round's end
        (offered always, so that it is where it was: while a possession waits
        for its trick's winner, choosing it says so)."""
        ui = self.ui
        st = ui.session.state
        T = ui.T
        opts = [(T["trick_win"], 0, 1)]
        if st.possessed != (1 << st.rules.seats) - 1:
            opts.append((T["possession"], 1, 2))
        opts.append((T["end_round"], 2, 3))
        ui.options(_TRICK, opts)

    def back(self):
        """One question back: from the sacrifice the round waits for, the
        menu; from an entry's first question (the board's choice), the
        board; a pile's ghosts go back to the last pile's cursed cards."""
        ui = self.ui
        m = ui.mode
        st = ui.session.state
        if m == _TRUMP:
            ui.menu()
        elif m == _LEADER:
            ui.options(_TRUMP, self._numbers(), sel=self.trump - st.rules.lo)
        elif m == _WINNER or m == _POSS_SEAT or m == _GHOSTS and not self.piles:
            self.open()
        elif m == _POSS_NUM:
            opts = self._unpossessed(st)
            ui.options(_POSS_SEAT, opts, sel=[o[1] for o in opts].index(self.seat))
        elif m == _GHOSTS:
            self.ghosts, self.cursed = self.piles.pop()
            self._ask_cursed(0)
        elif m == _CURSED:
            self._ask_ghosts(self.ghosts)
        else:
            ui.enter()            # the board (or the summary read)

    def chosen(self, v):
        """The sacrifice's trump, then its leader; the board's entry (a
        trick, a possession, the round's end); a trick's winner; a
        possession's seat, then its number; each pile's ghosts, then its
        cursed cards, toggled until done."""
        ui = self.ui
        m = ui.mode
        st = ui.session.state
        if m == _TRUMP:
            self.trump = v
            ui.options(_LEADER, seat_options(ui.names))
        elif m == _LEADER:
            ui.act({"do": "sacrifice", "trump": self.trump, "leader": v})
        elif m == _TRICK:
            if v == 0:
                ui.options(_WINNER, seat_options(ui.names), sel=st.leader)
            elif v == 1:
                ui.options(_POSS_SEAT, self._unpossessed(st))
            elif st.open:
                ui.info(ui.T["end_round"], ui.T["end_round_wait_text"])
            else:
                self.piles = []
                self._ask_ghosts()
        elif m == _WINNER:
            ui.act({"do": "trick", "winner": v})
        elif m == _POSS_SEAT:
            self.seat = v
            ui.options(_POSS_NUM, self._numbers())
        elif m == _POSS_NUM:
            ui.act({"do": "possess", "seat": self.seat, "number": v})
        elif m == _GHOSTS:
            self.ghosts = v
            self.cursed = 0
            self._ask_cursed(0)
        elif m == _CURSED:
            if v != _DONE:
                self.cursed ^= 1 << v
                self._ask_cursed(ui.sel)
                return
            self.piles.append((self.ghosts, self.cursed))
            if len(self.piles) < st.rules.seats:
                self._ask_ghosts()
                return
            piles = []
            for g, c in self.piles:
                p = {"ghosts": g}
                for bit, _, name in _CURSES:
                    p[name] = c >> bit & 1
                piles.append(p)
            if ui.act({"do": "end-round", "piles": piles}) and ui.mode == _TRUMP:
                ui.options(_SUMMARY, [])      # the round's scares, read before the sacrifice

    def _unpossessed(self, st):
        return seat_options(self.ui.names, lambda s: not st.possessed >> s & 1)

    def _ask_ghosts(self, sel=0):
        left = self.ui.session.rules.ghosts
        for g, _ in self.piles:
            left -= g
        self.ui.options(_GHOSTS, [(str(g), g, g if g < 8 else 0) for g in range(left + 1)], sel)

    def _ask_cursed(self, sel):
        """The cursed cards no earlier pile of this round holds, to toggle."""
        ui = self.ui
        taken = 0
        for _, c in self.piles:
            taken |= c
        opts = []
        for i in range(len(_CURSES)):
            bit, key, _ = _CURSES[i]
            if taken >> bit & 1 or (bit == 1 and ui.session.rules.seats == 3):
                continue
            mark = "[x] " if self.cursed >> bit & 1 else "[ ] "
            opts.append((mark + ui.T[key], bit, i + 1))     # a card keeps its number
        opts.append((ui.T["done"], _DONE, 0))
        ui.options(_CURSED, opts, sel=sel)

    def said(self, d):
        """What an undone action was (d: the log action), for a person."""
        ui = self.ui
        T = ui.T
        st = ui.session.state
        v = d["do"]
        if v == "sacrifice":
            return T["said_sacrifice_text"] % st.round
        if v == "possess":
            return T["said_possess_text"] % ui.names[d["seat"]]
        if v == "trick":
            if "winner" in d:
                return T["said_trick_text"] % (ui.names[d["winner"]], st.tricks + 1)
            return T["said_trick_cards_text"]
        return T["said_end_round_text"] % st.round

    # -- the lights' events --------------------------------------------------------

    def marks(self):
        """The seats possessed this round, the round, the game over."""
        st = self.ui.session.state
        return st.possessed, st.round, st.over

    def event(self, before):
        """The game's end (the spirit's choice, or a victory), a possession,
        a new round."""
        st = self.ui.session.state
        possessed, rnd, over = self.marks()
        if over and not before[2]:
            return "spirit" if st.spirit else "victory"
        if possessed & ~before[0]:
            return "possession"
        if rnd != before[1]:
            return "reveal"
        return None

    # -- drawing ---------------------------------------------------------------------

    def draw_main(self, s, st):
        """The round and its leader, who is possessed, the trump (large),
        the running scares."""
        ui = self.ui
        T = ui.T
        s.title = fit(T["round_lead"], (st.round, ui.names[st.leader]), 1)
        s.seat = st.leader
        seats = " ".join([str(i + 1) for i in range(st.rules.seats) if st.possessed >> i & 1])
        s.lines = [(T["possessed"] % (seats or "-"))[:_LEFT],
                   (T["trump_lbl"] % (st.tricks + 1))[:_LEFT]] + \
            _by_seat((T["totals"] % "").strip(), ui.short, st.track)
        s.big = st.trump

    def draw_over(self, s, st):
        """The winner (by the spirit's choice?), a row a seat: its total and
        the rounds that made it."""
        ui = self.ui
        T = ui.T
        w = st.winners[0]
        s.title = fit(T["wins_spirit"] if st.spirit else T["wins"], (ui.names[w],))
        s.seat = w
        s.lines = ["%s %d (%s)" % (ui.short[i], st.track[i], "".join(
            ["%+d" % row[i] if k else str(row[i]) for k, row in enumerate(st.rounds)]))
            for i in range(st.rules.seats)]

    def draw_entry(self, s, st, m):
        """An entry's title and seat (the leader's unless the entry names
        another)."""
        ui = self.ui
        T = ui.T
        names = ui.names
        s.seat = st.leader
        if m == _TRUMP:
            s.title = T["trump_q"]
            s.seat = -1
        elif m == _LEADER:
            s.title = T["leader_q"]
            s.seat = ui.opts[ui.sel][1]
        elif m == _TRICK:
            s.title = fit(T["round_lead"], (st.round, names[st.leader]), 1)
        elif m == _WINNER:
            s.title = T["trick_q"]
            s.seat = ui.opts[ui.sel][1]
        elif m == _POSS_SEAT:
            s.title = T["poss_q"]
            s.seat = ui.opts[ui.sel][1]
        elif m == _POSS_NUM:
            s.title = fit(T["poss_num"], (names[self.seat],))
            s.seat = self.seat
        elif m == _SUMMARY:
            s.title = T["round_end"] % (st.round - 1)
            s.lines = [T["round_row"] % (ui.short[i], st.rounds[-1][i], st.track[i])
                       for i in range(st.rules.seats)]
        else:
            seat = len(self.piles)
            s.seat = seat
            s.title = fit(T["ghosts_q"] if m == _GHOSTS else T["cursed_q"], (names[seat],))


def _by_seat(label, names, values):
    """Each value after its seat's name: under the label on one row ("P1 3
    P2 0 P3 1"), or, when that is too long, on two rows without it."""
    cells = ["%s %d" % (names[i], values[i]) for i in range(len(values))]
    text = " ".join(cells)
    if len(text) <= COLS:
        return [label, text]
    return ["  ".join(cells[:2]), "  ".join(cells[2:])]
