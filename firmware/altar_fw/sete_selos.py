"""Cthulhu: Sete Selos on the device: the board, quick ritual entry (winner,
then value), the redirect prompt, the removals with the engine's suggestion
first, and the result with its tie-break.

The board, 5 rows of 20 columns: the title (ritual and series), then per
seat its name and insanity (">" marks the leader) beside the Elders: their
values (inverted once revealed) over up to 3 cultists each, by seat number.
"""

from altar.sete_selos import power_of, removals
from altar_fw.ui import seat_char, seat_name, seat_options

BOARD = 20
WINNER = 21
VALUE = 22
REDIRECT = 23
REMOVE = 24
OVER = 25
_SHOWN = 12          # removal choices listed, best first
_GRID = 6            # column where the Elders start


class Play:
    MAIN = BOARD
    OVER = OVER

    def __init__(self, ui):
        self.ui = ui
        self.winner = 0

    def _view(self):
        return self.ui.session.state.view()

    def enter(self):
        """Show the screen the game's state calls for."""
        ui = self.ui
        st = ui.session.state
        ui.opts = []
        ui.back_to = -1
        if st.over:
            ui.mode = OVER
            return
        aw = self._view()["awaiting"]
        if aw is None:
            ui.mode = BOARD
        elif aw["do"] == "redirect":
            ui.options(REDIRECT, [(ui.T["elder"] % (e + 1), e + 1, e + 1) for e in range(7)
                                  if not st.rev >> e & 1], back_to=-1)
        else:
            seat = aw["seat"]
            ch = removals(st.stacks(seat), aw["count"], st.rules.power, True, _SHOWN)
            opts = []
            for i in range(len(ch)):
                left = bytearray(st.stacks(seat))
                for e in ch[i]:
                    left[e - 1] -= 1
                power = power_of(left, st.rules.power)
                label = " ".join(["E%d" % e for e in ch[i]])
                opts.append(("%s  %s%d%s" % (label, ui.T["pw"], power, " *" if i == 0 else ""),
                             i, 0))
            self.choices = ch
            ui.options(REMOVE, opts, back_to=-1)

    def open(self):
        """OK on the board: a ritual, its winner first (the leader preselected)."""
        ui = self.ui
        ui.options(WINNER, seat_options(ui.session.rules), sel=ui.session.state.leader)

    def back(self):
        ui = self.ui
        if ui.mode == WINNER:
            self.enter()
        elif ui.mode == VALUE:
            ui.options(WINNER, seat_options(ui.session.rules), sel=self.winner)
        else:
            ui.menu()        # a redirect or a removal is due: the menu (undo) is the way back

    def chosen(self, v):
        ui = self.ui
        m = ui.mode
        if m == WINNER:
            self.winner = v
            ui.options(VALUE, [(str(k), k, k) for k in range(1, 8)], sel=6)
        elif m == VALUE:
            ui.act({"do": "ritual", "winner": self.winner, "value": v})
        elif m == REDIRECT:
            ui.act({"do": "redirect", "elder": v})
        elif m == REMOVE:
            seat = self._view()["awaiting"]["seat"]
            ui.act({"do": "remove", "seat": seat, "elders": self.choices[v]})

    # -- the lights' events ----------------------------------------------------

    def marks(self):
        st = self.ui.session.state
        return st.rev, sum(st.ins), st.over

    def event(self, before):
        rev, ins, over = self.marks()
        if over and not before[2]:
            return "victory" if self.ui.session.state.winners else "over"
        if ins > before[1]:
            return "insanity"
        if rev & ~before[0]:
            return "reveal"
        return None

    # -- drawing -----------------------------------------------------------------

    def draw(self, s):
        ui = self.ui
        st = ui.session.state
        r = st.rules
        m = ui.mode
        T = ui.T
        if m == BOARD:
            s.title = T["ritual_series"] % (st.ritual, min(st.ritual // 7 + 1, 3))
            s.seat = st.leader
            self._board(s, st)
            return
        if m == OVER:
            self._over(s, st)
            return
        ui.draw_options(s)
        if m == WINNER:
            s.title = T["winner_q"] % (st.ritual + 1)
            s.seat = ui.opts[ui.sel][1]
        elif m == VALUE:
            s.title = T["won_with"] % seat_name(r, self.winner)
            s.seat = self.winner
        elif m == REDIRECT:
            s.seat = st.wseat
            s.title = T["move_to"] % seat_name(r, st.wseat)
        else:
            s.seat = st.wseat
            s.title = T["removes"] % (seat_name(r, st.wseat), st.wcount)

    def _board(self, s, st):
        r = st.rules
        lines = []
        inv = [0, 0, 0, 0]
        for row in range(4):
            if row < r.seats:
                left = "%s%s:%d" % (">" if row == st.leader else " ", seat_name(r, row)[:2],
                                    st.ins[row])
            else:
                left = ""
            left = (left + "      ")[:_GRID]
            cells = []
            for e in range(7):
                if row == 0:
                    cells.append(str(e + 1))
                    if st.rev >> e & 1:
                        inv[0] |= 1 << (_GRID + 2 * e)
                else:
                    who = []
                    for seat in range(r.seats):
                        who.extend([seat] * st.cult[seat * 7 + e])
                    cells.append(seat_char(r, who[row - 1]) if row - 1 < len(who) else ".")
            lines.append(left + " ".join(cells))
        s.lines = lines
        s.inv = inv

    def _over(self, s, st):
        r = st.rules
        T = self.ui.T
        v = st.view()
        w = v["winners"]
        s.title = T["wins"] % seat_name(r, w[0]) if w else T["no_winner"]
        s.seat = w[0] if w else -1
        if v["reason"] == "immediate":
            s.lines = [T["immediate"], T["insanity"] % " ".join([str(i) for i in st.ins])]
            return
        pw = v["power"]
        cells = ["%s %d" % (seat_name(r, i), pw[i]) for i in range(r.seats)]
        head = T["power"]
        lines = [head + "  ".join(cells[:2])]
        if len(cells) > 2:
            lines.append(" " * len(head) + "  ".join(cells[2:]))
        d = st.decider
        if d > 0:
            lines.append(T["tie_elder"] % d)
        elif d < 0:
            lines.append(T["tie_all"])
        s.lines = lines
