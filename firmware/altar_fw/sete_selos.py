"""Cthulhu: Sete Selos on the device: the board, quick ritual entry (winner,
then value), the redirect prompt, the removals with the engine's suggestion
first, the power each seat would have were the game to end now (from the
menu), and the result with its tie-break.

The board, 5 rows of 20 columns, is a table: the title is its header (the
ritual in play, the Elders' values 1-7 over their columns, then insanity's
column), and each seat has a row of its own: ">" for the leader, its name,
how many of its cultists stand on each Elder ("." for none; a revealed
Elder's column inverted), and its insanity. A free fourth row says what the
numbers are, or, before a 2-player series' first ritual, who is its first
player (the Banished's pile goes to their right). On a colour screen each
seat's row is in its colour, the pixels' colour for that seat.
"""

from altar.core import const
from altar.sete_selos import WAIT_REDIRECT, best_removal, power_result, removals, suggest
from altar_fw.ui import COLS, INFO, fit, seat_options

BOARD = const(20)
WINNER = const(21)
VALUE = const(22)
REDIRECT = const(23)
REMOVE = const(24)
_OVER = const(25)
_SCORE = const(26)
_SHOWN = const(12)          # removal choices listed, best first
_CELL = const(5)            # Elder e's column is _CELL + 2 * e


def power_if_ended(state):
    """(power per seat, winners, decider, cultists removed per seat) were the
    game to end by power now: each seat removes its insanity's worth as the
    device suggests (the Banished as it would), then the engine's
    power_result. Here, not in the engine: only the device asks (a replay's
    heap does not hold it)."""
    r = state.rules
    cult = bytearray(state.cult)
    removed = []
    for s in range(r.seats):
        k = state.removal_count(s)
        if k:
            for e in (best_removal(state.stacks(s), k, r.power, r.banished_low)
                      if s == r.banished else suggest(state, s)):
                cult[s * 7 + e - 1] -= 1
        removed.append(k)
    return power_result(cult, r.seats, r.power) + (removed,)


def _tints(rules):
    """A row a seat, each in its seat's colour (4: the Banished's)."""
    return [4 if seat == rules.banished else seat for seat in range(rules.seats)]


class Play:
    """Sete Selos' screens (the protocol: ui.py's docstring)."""
    MAIN = BOARD
    OVER = _OVER
    SCORE = _SCORE        # the power now, from the menu

    def __init__(self, ui):
        self.ui = ui
        self.winner = 0        # the ritual's winner, while its value is asked
        self.value = 0         # the ritual's value, once entered
        self.tok = [ui.T["elder_abbr"] + str(e) for e in range(1, 8)]   # Elder e's name
        r = ui.session.rules
        if r.seats == 4 and not ui.session.kept:
            # No row is free for the legend with 4 players: it stands in
            # the title of a new game's first board, until a key.
            ui.notice = ui.T["board_legend"]
        # self.choices, set with a removal's options: removals(), best first

    def playing(self, st):
        """The board, or the redirect or removal the state waits for (the
        engine's suggestion first, with the power it leaves)."""
        ui = self.ui
        if not st.wait:
            ui.mode = BOARD
        elif st.wait == WAIT_REDIRECT:
            ui.options(REDIRECT, [(ui.T["elder"] % (e + 1), e + 1, e + 1) for e in range(7)
                                  if not st.rev >> e & 1], back_to=-1)
        else:
            ch = removals(st.stacks(st.wseat), st.wcount, st.rules.power, True, _SHOWN)
            named = " " + ui.T["pw"]
            opts = []
            i = 0
            for power, elders in ch:
                # "*" the engine's suggestion; the power it leaves, named while
                # it fits beside a number key's digit
                label = ("*" if i == 0 else " ") + self._elders(elders)
                pw = named if len(label) + len(named) + 2 <= COLS - 2 else " "
                opts.append((label + pw + str(power), i, i + 1 if i < 7 else 0))
                i += 1
            self.choices = ch
            ui.options(REMOVE, opts, back_to=-1)

    def open(self):
        """OK on the board: a ritual, its winner first (the leader preselected)."""
        ui = self.ui
        ui.options(WINNER, seat_options(ui.names), sel=ui.session.state.leader)

    def can_score(self):
        """Power now is offered between rituals: once the end's removals
        have begun (or a redirect waits), the removal screen shows the power."""
        st = self.ui.session.state
        return not st.over and not st.wait

    def back(self):
        """From the value to the winner; from the winner or the power now to
        the board; from a redirect or a removal the state waits for, the
        menu (its undo is the way back)."""
        ui = self.ui
        if ui.mode == WINNER or ui.mode == _SCORE:
            self.ui.enter()
        elif ui.mode == VALUE:
            ui.options(WINNER, seat_options(ui.names), sel=self.winner)
        else:
            ui.menu()        # a redirect or a removal is due: the menu (undo) is the way back

    def chosen(self, v):
        """A ritual's winner, then its value; a redirect's Elder; a removal."""
        ui = self.ui
        m = ui.mode
        if m == WINNER:
            self.winner = v
            # No value selected: a hasty OK records nothing (it used to record a 7).
            ui.options(VALUE, [(str(k), k, k) for k in range(1, 8)], sel=-1)
        elif m == VALUE:
            self.value = v
            if ui.act({"do": "ritual", "winner": self.winner, "value": v}):
                self._tell()
        elif m == REDIRECT:
            if ui.act({"do": "redirect", "elder": v}):
                self._tell()
        elif m == REMOVE:
            ui.act({"do": "remove", "seat": ui.session.state.wseat, "elders": self.choices[v][1]})

    def _tell(self):
        """After a ritual or a redirect, a screen of its own says what the
        board cannot: the revealed Elder that sends the winner's cultist
        elsewhere (and costs 1 insanity), or the series that starts and
        who deals it. Not over the full-journal warning."""
        ui = self.ui
        st = ui.session.state
        T = ui.T
        if ui.mode == INFO or st.over:
            return
        if st.wait == WAIT_REDIRECT:
            ui.info(T["revealed"] % self.value, T["revealed_text"] % ui.names[st.wseat])
        elif st.ritual % 7 == 0 and 0 < st.ritual < 21 and not st.wait:
            text = T["series_2p_text" if st.rules.banished >= 0 else "series_text"]
            ui.info(T["series"] % (st.ritual // 7 + 1), text % ui.names[st.first])

    def _elders(self, elders):
        """Elder values as the screens name them ("E2 E5"): joined a piece at
        a time, as short strings are the board's cheapest objects."""
        out = ""
        for e in elders:
            out = out + " " + self.tok[e - 1] if out else self.tok[e - 1]
        return out

    def said(self, d):
        """What an undone action was (d: the log action), for a person."""
        ui = self.ui
        T = ui.T
        st = ui.session.state
        names = ui.names
        if d["do"] == "ritual":
            if "winner" in d:
                return T["said_ritual_text"] % (names[d["winner"]], st.ritual + 1, d["value"])
            return T["said_cards_text"] % (st.ritual + 1)
        if d["do"] == "redirect":
            return T["said_redirect_text"] % (names[st.wseat], d["elder"])
        return T["said_remove_text"] % (names[d["seat"]], self._elders(d["elders"]))

    # -- the lights' events ----------------------------------------------------

    def marks(self):
        """The Elders revealed, the insanity in play, the game over."""
        st = self.ui.session.state
        return st.rev, sum(st.ins), st.over

    def event(self, before):
        """The game's end (a victory, or none), an insanity, a reveal."""
        rev, ins, over = self.marks()
        if over and not before[2]:
            return "victory" if self.ui.session.state.winners else "over"
        if ins > before[1]:
            return "insanity"
        if rev & ~before[0]:
            return "reveal"
        return None

    # -- drawing -----------------------------------------------------------------

    def draw_entry(self, s, st, m):
        """An entry's title and seat (the power now: its own rows)."""
        ui = self.ui
        names = ui.names
        T = ui.T
        if m == _SCORE:
            self._score(s, st)
        elif m == WINNER:
            s.title = T["winner_q"] % (st.ritual + 1)
            s.seat = ui.opts[ui.sel][1]
        elif m == VALUE:
            s.title = fit(T["won_with"], (names[self.winner],))
            s.seat = self.winner
        elif m == REDIRECT:
            s.seat = st.wseat
            s.title = fit(T["move_to"], (names[st.wseat],))
        else:
            s.seat = st.wseat
            s.title = fit(T["removes"], (names[st.wseat], st.wcount))

    def draw_main(self, s, st):
        """The board: the leader's colour, a row a seat under the Elders."""
        s.seat = st.leader
        r = st.rules
        T = self.ui.T
        # The ritual in play, as the ritual entry numbers it (1..21).
        s.title = ("R%d" % min(st.ritual + 1, 21) + "     ")[:_CELL] + \
            "1 2 3 4 5 6 7" + " " + T["ins_col"]
        revealed = 0
        for e in range(7):
            if st.rev >> e & 1:
                revealed |= 1 << (_CELL + 2 * e)
        lines = []
        for seat in range(r.seats):
            cells = []
            for e in range(7):
                k = st.cult[seat * 7 + e]
                cells.append(str(k) if k else ".")
            lines.append(("%s%-3s " % (">" if seat == st.leader else " ", self.ui.short[seat]))
                         + " ".join(cells) + " " + str(st.ins[seat]))
        if r.banished >= 0 and st.ritual % 7 == 0 and st.ritual < 21:
            lines.append(fit(T["first_player"], (self.ui.names[st.first],)))
        elif r.seats < 4:
            lines.append(T["board_legend"])
        s.lines = lines
        s.inv = [revealed] * r.seats
        s.tints = _tints(r)

    def _score(self, s, st):
        """A row a seat: its power after removing its insanity's worth (the
        suggested removal), the seat that would win inverted."""
        T = self.ui.T
        pw, w, _, removed = power_if_ended(st)
        s.title = T["power_if"]
        s.lines = [("%-3s %3d  " % (self.ui.short[i], pw[i]) + (T["removed"] % removed[i]
                                                                if removed[i] else "")).rstrip()
                   for i in range(st.rules.seats)]
        s.cursor = w[0] if w else -1
        s.seat = s.cursor
        s.tints = _tints(st.rules)

    def draw_over(self, s, st):
        """The winner, and the power or insanity that decided it."""
        r = st.rules
        T = self.ui.T
        w = st.winners
        s.title = fit(T["wins"], (self.ui.names[w[0]],)) if w else T["no_winner"]
        s.seat = w[0] if w else -1
        if st.reason == "immediate":
            s.lines = [T["immediate"], T["insanity"] % " ".join([str(i) for i in st.ins])]
            return
        pw = st.powers
        cells = ["%s %d" % (self.ui.short[i], pw[i]) for i in range(r.seats)]
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
