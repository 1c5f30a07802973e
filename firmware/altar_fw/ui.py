"""What the device shows and what each input does: pure Python, no displayio
(it runs under the MicroPython VM in the tests).

`Ui.press(input)` acts; `Ui.draw()` then fills `Ui.screen` (a Screen), what
to draw (once for all the inputs the app handled in a loop pass): a title and
up to 4 lines of at most COLS characters, the selected line, per line a mask
of columns to show inverted, and optionally a big number. The game being
played supplies its own screens (sete_selos.py, fantasmagoria.py,
ritos_ancestrais.py: "The game's screens" below); this module holds what
every game shares: the new-game steps, the menu, undo, export, option
lists and notices. Every string comes from one table per language
(lang_pt.py, the default, and lang_en.py).

Every change to the game goes through `sink` (a journal.Store):
`new(header)` returns the new Session; `did(record)` and `undid()` return
False once the game no longer fits the flash; `export()`.

The game's screens. Each game's module has a class `Play`, made as
`Play(ui)` when a game starts or is resumed (`Ui.play`; the module is
imported only for the game played). Its screens are the Ui's modes from 20
(the Ui's own are below): the class attributes `MAIN`, the game in play,
where OK opens an entry and BACK the menu, `OVER`, the result, where OK
and BACK open the menu, and `SCORE`, the game's own score view, which the
menu offers while `can_score()` (0: the game has none; then `can_score`
is never called); then the entries' screens, option lists (`Ui.options`)
whose choices go to `chosen`, or a screen to read without options (the
score view), which OK leaves too. `Ui.enter()` shows
the screen the game's state calls for: `OVER` once the game is over, else
the Play's `playing(state)`; `Ui.draw()` draws `MAIN` with
`draw_main(screen, state)`, `OVER` with `draw_over(screen, state)`, and an
entry's options itself, then `draw_entry(screen, state, mode)` for its
title and seat. The Play's methods:

- `playing(state)`: set `MAIN`, or the entry the state waits for (a
  redirect, a removal, the round's sacrifice, the end's bonuses...).
- `open()`: OK on `MAIN`: the options of a new entry.
- `back()`: BACK on an entry's screen (OK too on one to read): a step
  back, `Ui.enter()`, or the menu when the state waits for this entry.
- `chosen(v)`: the value of the option chosen on an entry's screen; its
  last step plays the log action with `Ui.act(action)`.
- `said(d)`: what the log action `d` just undone was, for a person (the
  state is already without it).
- `marks()`, then `event(before)`: the lights. The Ui takes `marks()`, a
  tuple, before an action; `event` compares it with the state after the
  action and returns the effect to play (a lights.EFFECTS name) or None.
- `can_score()`, only in a game with a `SCORE` view: True if the menu
  offers it now (Sete Selos' "Power now").
- `draw_main(s, state)`, `draw_over(s, state)`, `draw_entry(s, state,
  mode)`: fill the Screen `s` (reset: no inversion, cursor, big number or
  tints; `draw_entry` after the option list).
"""

from altar.core import Rejected, const, decode, game_module
from altar_fw.inputs import BACK, NEXT, OK, PREV, UNDO, VALUE
from altar_fw.journal import FORMAT

COLS = const(20)
ROWS = const(4)

# Screens; the game's own are numbered from 20.
GAME = const(1)
_PLAYERS = const(2)
FIRST = const(3)
MENU = const(4)
_CONFIRM = const(5)
INFO = const(6)
_START = const(7)       # an INFO screen whose OK starts the game (Fantasmagória's reminder)

# name, title, player counts, the first seat's question (None: no first seat)
GAMES = (("sete-selos", "Sete Selos", (2, 3, 4), "who_first"),
         ("fantasmagoria", "Fantasmagória", (3, 4), None),
         ("ritos-ancestrais", "Ritos Ancestrais", (2, 3, 4), "who_starts"))
LANGS = ("pt", "en")


class Strings:
    """A language's strings, kept as its module's one text of "key=value"
    lines: `T[key]` is a key's text, `values()` every text. A key's text is
    found in the text once, then kept: on the board a find walks the text's
    UTF-8 from its start, each index and slice again, 3.5 ms a key on the
    Pico, and a screen may look up twenty."""

    def __init__(self, text):
        self.text = text
        self.found = {}

    def __getitem__(self, key):
        v = self.found.get(key)
        if v is None:
            v = self.found[key] = self._find(key)
        return v

    def _find(self, key):
        t = self.text
        n = len(key)
        i = t.find(key)
        while i >= 0:
            # A key starts a line and ends at "="; elsewhere it is a word of a text.
            if (i == 0 or t[i - 1] == "\n") and t[i + n:i + n + 1] == "=":
                return t[i + n + 1:t.find("\n", i)]
            i = t.find(key, i + 1)
        raise KeyError(key)

    def values(self):
        t = self.text
        j = -1
        while True:
            i = t.find("=", j + 1)     # keys hold no "="
            if i < 0:
                return
            j = t.find("\n", i)
            yield t[i + 1:j]


def strings(lang):
    """The strings of a language ("pt" or "en")."""
    if lang == "en":
        from altar_fw.lang_en import TEXT
    else:
        from altar_fw.lang_pt import TEXT
    return Strings(TEXT)


class Screen:
    """What to draw; the Ui fills one in place."""

    def __init__(self):
        self.title = ""
        self.lines = []
        self.cursor = -1     # selected line, inverted
        self.inv = None      # per line, a bit per column to invert
        self.seat = -1       # whose colour the lights show
        self.tints = None    # per line, its seat's colour on a colour screen (4: the Banished)
        self.big = None      # a number drawn large at the right (the planchette)


_NAME_LEN = const(10)     # a name's characters (altar_fw.settings)
_SHORT = const(3)         # a name's columns in the boards' tables


def seat_names(rules, width=_NAME_LEN):
    """Each seat's name for the screens, cut to `width` ("Ban" the Banished);
    P1, P2... for every seat if two cut names would look alike."""
    ban = getattr(rules, "banished", -1)
    out = []
    for s in range(rules.seats):
        n = "Ban" if s == ban else rules.players[s][:width].strip()
        if n in out:
            return ["Ban" if s == ban else "P%d" % (s + 1) for s in range(rules.seats)]
        out.append(n)
    return out


def seat_options(names, which=None):
    """(name, seat, shortcut) for each seat, or each that `which` accepts."""
    return [(names[s], s, s + 1) for s in range(len(names)) if which is None or which(s)]


def fit(template, args, at=0):
    """template % args, args[at] (a name) cut so that the line keeps to COLS."""
    a = list(args)
    a[at] = ""
    room = COLS - len(template % tuple(a))
    a[at] = args[at][:max(room, _SHORT)]
    return template % tuple(a)


def wrap(text, cols=COLS):
    """Words to lines of at most `cols` characters."""
    out = []
    line = ""
    for w in text.split(" "):
        while len(w) > cols:
            if line:
                out.append(line)
                line = ""
            out.append(w[:cols])
            w = w[cols:]
        if not line:
            line = w
        elif len(line) + 1 + len(w) <= cols:
            line += " " + w
        else:
            out.append(line)
            line = w
    if line:
        out.append(line)
    return out


class Ui:
    def __init__(self, sink, seed=0, lang="pt", players="", numbered=False):
        self.T = strings(lang)
        # The board has value keys: an option a key picks shows its number.
        self.numbered = numbered
        self.sink = sink
        self.seed = seed          # the next new game's seed (the app draws it)
        self.players = []         # ALTAR_PLAYERS' names, for new games
        self.bad = None           # why ALTAR_PLAYERS was refused: said once booted
        if players:
            self._read_players(players)
        self.session = None
        self.play = None          # the game's screens (sete.Play)
        self.names = []           # the game's seats as the screens name them
        self.short = []           # the same, in the boards' tables' _SHORT columns
        self.mode = GAME
        self.opts = []            # (label, value, number or 0) of an option screen
        self.sel = 0              # the selected option; -1: none yet (OK waits for one)
        self.numbers = False      # the options show their numbers (set with them)
        self.back_to = GAME
        self.form = [0, 0]        # new game: game index, players
        self.loading = None       # the game chosen, its modules not yet loaded (idle())
        self.notice = ""          # one-shot title, e.g. "Undone"
        self.told = []            # one-shot lines under it: what was undone
        self._info = []           # the lines of an INFO screen
        self.event = None         # "reveal", "insanity", "victory": for the lights
        self.screen = Screen()
        self._game_menu()

    # -- the game ---------------------------------------------------------

    def _read_players(self, text):
        """ALTAR_PLAYERS' names, read before the journal: the game's replay
        is then not yet in the heap beside the parser's code."""
        import sys
        import altar_fw
        from altar_fw import settings
        try:
            self.players = settings.player_names(text)
        except ValueError as e:
            self.bad = e.args
        # Read once: the module goes, and its code with it (the heap).
        del sys.modules["altar_fw.settings"]
        del altar_fw.settings

    def say_settings(self):
        """Once booted: a bad ALTAR_PLAYERS said on the screen (after an
        unreadable journal's message); the seats then stay P1-P4."""
        T = self.T
        if self.bad and self.mode != INFO:
            self.notice = ""
            self.info(T["players_bad"], T[self.bad[0]] % self.bad[1] + T["players_default_text"])

    def boot(self):
        """Resume the game in the journal: the frames the engine plays, and
        on the screen how many it refused. A header that is no session
        (damage, or a newer firmware's journal) is said, and kept until a
        new game."""
        T = self.T
        st = self.sink
        try:
            session, skipped = st.load()
        except (Rejected, ValueError):
            if st.fmt > FORMAT:
                self.info(T["newer"], T["newer_text"] % (st.fmt, FORMAT))
            else:
                self.info(T["unreadable"], T["unreadable_text"])
            return
        if session is None:
            if st.journal.torn:
                self.notice = T["no_game"]
            return
        if skipped:
            # The journal then holds the game alone: the next boot and the
            # export read what was played, not the refused frames again.
            st.compact()
        self.resume(session)
        self.notice = T["resumed_skip"] % skipped if skipped else T["resumed"]

    def resume(self, session):
        """Take over a game (read back from the journal)."""
        self.session = session
        self.names = seat_names(session.rules)
        self.short = seat_names(session.rules, _SHORT)
        self.play = play_class(session.header["game"])(self)
        self.enter()

    def act(self, obj):
        """Apply a log action; True if the engine took it."""
        s = self.session
        before = self.play.marks()
        try:
            t = s.mod.parse(s.rules, obj)
            s.play(t)
        except Rejected as e:
            self.info(self.T["refused"], str(e))
            return False
        kept = self.sink.did(t)
        self.event = self.play.event(before)
        self.enter()
        if not kept:
            self.full()
        return True

    def enter(self):
        """Show the game's screen its state calls for, no option list left:
        the result once the game is over, else the Play's `playing`."""
        st = self.session.state
        self.opts = []
        self.back_to = -1
        if st.over:
            self.mode = self.play.OVER
        else:
            self.play.playing(st)

    def full(self):
        self.info(self.T["full"], self.T["full_text"])

    def undo(self):
        if self.session is None or not self.session.kept:
            self.notice = self.T["nothing_undo"]
            return
        s = self.session
        last = None
        for last in s.records():
            pass
        d = s.mod.unparse(decode(last))
        s.undo()
        kept = self.sink.undid()
        self.enter()
        # Said on the game's screen until the next key or a few seconds
        # (the app's clock): what was undone, then the game's own title.
        self.notice = self.T["undone"]
        self.told = wrap(self.play.said(d))[:ROWS]
        if not kept:
            self.full()

    # -- input ------------------------------------------------------------

    def quiet(self):
        """The notice and what it told are over: the screen's own title."""
        self.notice = ""
        self.told = []

    def idle(self):
        """Work a press left for after its screen is on the glass: the
        modules of the game just chosen load while the players read the
        next screen (up to about 0.1 s on the board), not on the press that
        starts the game."""
        if self.loading:
            play_class(self.loading)
            self.loading = None

    def press(self, key):
        self.quiet()
        self.event = None
        if key == UNDO:
            self.undo()
        elif self.mode >= 20:
            self._game_key(key)
        elif key == BACK:
            self._back()
        elif self.opts:
            self.choose_key(key)
        elif key == OK:
            self._back()

    def _game_key(self, key):
        """A key on one of the game's screens. On its main screen OK opens an
        entry and BACK the menu; on its result both open the menu; on an
        entry's options BACK steps back (play.back) and the rest choose."""
        p = self.play
        m = self.mode
        if m == p.MAIN:
            if key == OK:
                p.open()
            elif key == BACK:
                self.menu()
        elif m == p.OVER:
            if key == OK or key == BACK:
                self.menu()
        elif key == BACK or key == OK and not self.opts:
            p.back()         # a screen to read (the score view): OK returns too
        else:
            self.choose_key(key)

    def choose_key(self, key):
        """Option-list keys: move, take the selection, or the value key N
        takes the option numbered N, on every list (a seat, a value, an
        Elder keep their own numbers; other lists number their rows
        once for all), whichever rows are on the screen."""
        n = len(self.opts)
        if not n:
            return              # a key with nothing to choose does nothing
        if key == PREV:
            self.sel = (self.sel - 1) % n if self.sel >= 0 else n - 1
        elif key == NEXT:
            self.sel = (self.sel + 1) % n
        elif key > VALUE:
            for i in range(n):
                if self.opts[i][2] == key - VALUE:
                    self.sel = i
                    self._chosen(self.opts[i][1])
                    return
        elif key == OK and self.sel >= 0:
            self._chosen(self.opts[self.sel][1])

    def options(self, mode, opts, sel=0, back_to=GAME):
        """An option screen: `opts` (label, value, number or 0), `sel` the
        option selected first (-1: none, so that OK waits for a choice)."""
        self.mode = mode
        self.opts = opts
        self.sel = sel if -1 <= sel < len(opts) else 0
        self.back_to = back_to
        numbers = False
        if self.numbered:
            # not where each label already starts with its number ("5", "+3", "2 jogadores")
            for o in opts:
                numbers = numbers or o[2] > 0 and o[0].split(" ", 1)[0].lstrip("+") != str(o[2])
        self.numbers = numbers

    def info(self, title, text, back_to=-1):
        """A message screen; OK or BACK return (to the game by default)."""
        self.mode = INFO
        self.opts = []
        self.back_to = back_to
        self.screen.title = title
        self._info = wrap(text)[:ROWS]

    def _chosen(self, v):
        m = self.mode
        if m >= 20:
            self.play.chosen(v)
        elif m == GAME:
            self.form[0] = v
            self.loading = GAMES[v][0]
            counts = GAMES[v][2]
            self.options(_PLAYERS, [(self.T["n_players"] % n, n, n) for n in counts], back_to=GAME)
        elif m == _PLAYERS:
            self.form[1] = v
            if GAMES[self.form[0]][3]:
                self.options(FIRST, seat_options(self._players(v)), back_to=_PLAYERS)
            elif GAMES[self.form[0]][0] == "fantasmagoria" and v == 3:
                self.info(GAMES[self.form[0]][1], self.T["three_out_text"], _START)
            else:
                self._start(0)
        elif m == FIRST:
            self._start(v)
        elif m == MENU:
            self._menu(v)
        elif m == _CONFIRM:
            if v:
                self._game_menu()
            else:
                self.enter()

    def _back(self):
        b = self.back_to
        if b == _START:
            self._start(0)
        elif b < 0 and self.session is not None:
            self.enter()
        elif b == _PLAYERS:
            self.mode = GAME
            self._chosen(self.form[0])
        else:
            self._game_menu()

    # -- shared screens -----------------------------------------------------

    def _game_menu(self):
        opts = [(GAMES[i][1], i, i + 1) for i in range(len(GAMES))]
        self.options(GAME, opts, back_to=-1)

    def _start(self, first):
        name = GAMES[self.form[0]][0]
        n = self.form[1]
        header = {"altar": 1, "game": name, "players": self._players(n),
                  "first": first, "seed": self.seed}
        session = self.sink.new(header)
        self.seed += 1
        self.resume(session)

    def _players(self, n):
        """A new game's n names: ALTAR_PLAYERS' first, then P-numbers."""
        p = self.players
        return [p[i] if i < len(p) else "P%d" % (i + 1) for i in range(n)]

    def menu(self):
        T = self.T
        opts = [(T["back_game"], 0, 1), (T["undo_last"], 1, 2), (T["export"], 2, 3),
                (T["new_game"], 3, 4)]
        p = self.play
        if p.SCORE and p.can_score():
            opts.append((T["power_now"], 4, 5))      # the game's own score view
        self.options(MENU, opts, back_to=-1)

    def _menu(self, v):
        if v == 0:
            self.enter()
        elif v == 1:
            self.undo()
            self.enter()
        elif v == 2:
            self.sink.export()
            self.info(self.T["exported"], self.T["exported_text"])
        elif v == 4:
            self.options(self.play.SCORE, [])
        else:
            self.options(_CONFIRM, [(self.T["keep"], 0, 0), (self.T["erase"], 1, 0)], back_to=-1)

    # -- drawing -------------------------------------------------------------

    def draw(self):
        s = self.screen
        s.inv = None
        s.cursor = -1
        s.big = None
        s.tints = None
        m = self.mode
        if m >= 20:
            p = self.play
            st = self.session.state
            if m == p.MAIN:
                p.draw_main(s, st)
            elif m == p.OVER:
                p.draw_over(s, st)
            else:
                self.draw_options(s)
                p.draw_entry(s, st, m)
        elif self.mode == INFO:
            s.lines = self._info
        else:
            T = self.T
            if m == FIRST:
                s.title = T[GAMES[self.form[0]][3]]
            else:
                s.title = T[{GAME: "new_game", _PLAYERS: "how_many", MENU: "menu",
                             _CONFIRM: "erase_q"}[m]]
            self.draw_options(s)
        if self.notice:
            s.title = self.notice
        if self.told:
            s.lines = self.told
            s.cursor = -1
            s.inv = None
            s.big = None
            s.tints = None
        return s

    def draw_options(self, s):
        """The option list, scrolled so that the selection shows; on a board
        with value keys each option a key picks shows its number first
        (unless every label begins with it)."""
        opts = self.opts
        sel = self.sel
        top = max(0, min(sel - ROWS + 1, len(opts) - ROWS))
        top = max(0, min(top, sel))
        numbers = self.numbers
        end = min(top + ROWS, len(opts))
        lines = []
        for i in range(top, end):
            label, _, n = opts[i]
            if numbers:
                label = ("%d " % n if n else "  ") + label
            # A list longer than the screen: an arrow where more rows wait.
            mark = 0 if i == top and top > 0 else 1 if i == end - 1 and end < len(opts) else -1
            if mark >= 0:
                label = label[:COLS - 1]
                label += " " * (COLS - 1 - len(label)) + self.T["scroll"][mark]
            lines.append(label[:COLS])
        s.lines = lines
        s.cursor = sel - top if sel >= 0 else -1


def play_class(game):
    """The game's Play (its screens), with its engine module: imported only
    for a game about to be played."""
    game_module(game)
    if game == "sete-selos":
        from altar_fw.sete_selos import Play
    elif game == "fantasmagoria":
        from altar_fw.fantasmagoria import Play
    else:
        from altar_fw.ritos_ancestrais import Play
    return Play
