"""`altar emulate` in a terminal too small for the pixels (60 x 24), for
someone who sees only its text rows: a whole game of each title played in a
pseudo-terminal, key by key, and on every screen what the device inverts
(the title bar, the selected row, revealed Elders, the seat that would win,
the lit checklist step, the final round's banner) in reverse video, and the
big trump number written beside its label.

An emulated Device beside it gets the same keys: the game drivers read it
to choose their keys, and it says what the terminal must show next. Each key
waits for the terminal's screen to become that (so the test runs as fast as
the emulator draws, and a screen that never comes fails by its timeout)."""

import os
import re
import select
import signal
import struct
import sys
import time

import pytest

from altar import log
from altar_fw.ui import GAMES as GAME_LIST
from altar_host.device import emulate
from altar_host.device.emulator import Device
from device_driver import goto, new_game, play, value_of
from test_device import TOUR
from test_device_games import fa_tour, ra_tour

COLS, ROWS = 60, 24
CLEAR = "\x1b[H\x1b[2J"        # how the emulator starts each frame
WAIT = 10                      # seconds a screen may take to show
# Key words -> what a terminal sends for them (the emulator's TERMINAL).
TYPED = {"prev": b"\x1b[A", "next": b"\x1b[B", "ok": b"\r", "back": b"\x7f", "undo": b"u"}
_CSI = re.compile(r"\x1b\[([0-9;]*)([A-Za-z])")

try:
    import fcntl
    import pty
    import termios
except ImportError:       # Windows has no pseudo-terminals
    pty = None


def cells(line):
    """A line of terminal output as (character, in reverse video) pairs,
    its escape sequences read (SGR 7 and 27 switch reverse video on and off,
    0 resets; 38/48 colours' own numbers are skipped)."""
    out = []
    rev = False
    i = 0
    while i < len(line):
        m = _CSI.match(line, i)
        if not m:
            out.append((line[i], rev))
            i += 1
            continue
        i = m.end()
        if m.group(2) != "m":
            continue
        params = [int(p or 0) for p in m.group(1).split(";")]
        k = 0
        while k < len(params):
            p = params[k]
            if p in (38, 48):
                k += 4 if params[k + 1] == 2 else 2
                continue
            if p == 0 or p == 27:
                rev = False
            elif p == 7:
                rev = True
            k += 1
    return out


def text_rows(frame):
    """The device's rows in a frame: between the box's borders, each as
    (text, mask), the mask a "#" for each column in reverse video, "." for
    the others. None if the frame has no box."""
    rows = []
    inside = False
    for line in frame.replace("\r", "").split("\n"):
        chars = cells(line)
        plain = "".join(c for c, _ in chars)
        if "┌" in plain:
            inside = True
        elif "└" in plain:
            return rows
        elif inside:
            a, b = plain.index("│"), plain.rindex("│")
            row = chars[a + 1:b]
            rows.append(("".join(c for c, _ in row), "".join("#" if r else "." for _, r in row)))
    return None


def expected(dev):
    """What the text rows must show now, from the Ui's screen: each row's
    text padded to the screen's columns, and its mask: the title bar and the
    selected line whole, other lines their inverted columns; the big number
    after its label ("Trunfo 7")."""
    s = dev.app.ui.screen
    cols = dev.app.canvas.cols
    texts = dev.text()
    if s.big is not None:
        label = dev.app.ui.T["trump_lbl"] % (dev.app.ui.session.state.tricks + 1)
        r = 1 + s.lines.index(label)
        texts[r] = "%s %d" % (label, s.big)
    rows = []
    for r, text in enumerate(texts):
        i = r - 1
        inv = -1 if r == 0 or i == s.cursor else 0
        if inv == 0 and s.inv is not None and i < len(s.inv):
            inv = s.inv[i]
        rows.append((text.ljust(cols),
                     "".join("#" if inv >> c & 1 else "." for c in range(cols))))
    return rows


class Terminal:
    """`altar ARGS` in a pseudo-terminal of COLS x ROWS."""

    def __init__(self, args, env, cwd):
        try:
            self.pid, self.fd = pty.fork()
        except OSError as e:     # e.g. a container without /dev/ptmx or devpts
            pytest.skip("no pseudo-terminal can be opened here: %s" % e)
        if self.pid == 0:
            try:
                # the window's size before the emulator asks for it
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
                os.chdir(cwd)
                os.environ.update(env)
                os.execv(sys.executable, [sys.executable, "-m", "altar_host.cli"] + args)
            finally:
                os._exit(127)
        self.out = ""          # what was written since the last screen taken
        self.log = ""          # everything written
        self.screens = 0

    def read(self, timeout):
        """What the emulator wrote within `timeout` s; False once it exited."""
        r, _, _ = select.select([self.fd], [], [], timeout)
        if r:
            try:
                got = os.read(self.fd, 1 << 16)
            except OSError:      # EIO: the emulator has exited
                return False
            if not got:
                return False
            text = got.decode(errors="replace")
            self.out += text
            self.log += text
        return True

    def wait_for(self, want, after, rows=text_rows):
        """Wait until a frame drawn since the last one taken has `rows` equal
        to `want` (each frame is looked at: a screen the emulator drew and
        then changed, as an undo's account after 3 s, counts); return them,
        else fail, saying which screen."""
        self.screens += 1
        deadline = time.time() + WAIT
        got = None
        while time.time() < deadline:
            # whole frames: the emulator starts each with CLEAR, ends it with the footer
            parts = self.out.split(CLEAR)
            for k in range(1, len(parts)):
                if "q: quit" not in parts[k]:
                    break
                got = rows(parts[k])
                if got == want:
                    self.out = CLEAR.join([""] + parts[k + 1:])
                    return got
            self.read(0.05)
        assert got == want, "screen %d, after %s" % (self.screens, after)

    def send(self, data):
        os.write(self.fd, data)

    def quit(self):
        """q; (exit status, what it printed last)."""
        self.send(b"q")
        self.out = ""
        deadline = time.time() + WAIT
        while time.time() < deadline and self.read(0.5):
            pass
        pid, status = os.waitpid(self.pid, os.WNOHANG)
        if not pid:                  # it did not quit: stopped, so that the test ends
            os.kill(self.pid, signal.SIGKILL)
            _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return os.waitstatus_to_exitcode(status), self.out


class Twin:
    """The Device the game drivers play (`app`, `press`, `can`, `text`), and
    the emulator in a terminal given the same keys, whose text rows must
    show what that Device shows, inversions and all, after every key."""

    def __init__(self, dev, term):
        self.dev = dev
        self.app = dev.app
        self.term = term
        self.can = dev.can
        self.text = dev.text
        term.wait_for(expected(dev), "the start")

    def press(self, word):
        self.dev.press(word)
        self.term.send(TYPED.get(word) or word.encode())
        rows = self.term.wait_for(expected(self.dev), word)
        s = self.app.ui.screen
        if s.cursor >= 0:        # the selected row (an option, Power now's winner): whole
            text, mask = rows[1 + s.cursor]
            assert text.rstrip() == s.lines[s.cursor] and mask == "#" * len(mask), rows


def sete_selos(dev):
    """The golden tour's game (reveals, redirects, removals, a power end),
    with a look at Power now on the way and an undo."""
    h, actions = TOUR
    new_game(dev, 3, h["first"])
    looked = False
    for i, a in enumerate(actions):
        if i >= 12 and a["do"] == "ritual" and not looked:      # between rituals
            looked = True
            dev.press("back")
            goto(dev, value_of(dev, 4))          # Menu > Power now
            assert dev.app.ui.screen.cursor >= 0          # a seat would win, inverted
            dev.press("ok")
            play(dev, a)
            dev.press("undo")
        play(dev, a)
    dev.press("ok")                              # the result's OK: the menu


def fantasmagoria(dev):
    fa_tour(dev, lambda name: None)


def ritos(dev):
    ra_tour(dev, lambda name: None)


# title -> (board, language, the whole game by key words)
GAMES = {"sete-selos": ("macropad", "pt", sete_selos),
         "fantasmagoria": ("pico-display", "pt", fantasmagoria),
         "ritos-ancestrais": ("feather-oled", "en", ritos)}


@pytest.mark.skipif(pty is None, reason="no pseudo-terminals on this system (the pty module)")
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_game_can_be_played_by_the_text_rows(game, tmp_path):
    board, lang, by_keys = GAMES[game]
    data = tmp_path / "data" / "altar"
    env = {"TERM": "xterm", "XDG_DATA_HOME": str(tmp_path / "data")}
    term = Terminal(["emulate", "--board", board, "--lang", lang], env, str(tmp_path))
    try:
        twin = Twin(Device(board, lang=lang, capture=False), term)
        by_keys(twin)
        assert twin.app.ui.session.state.over
        term.send(b"e")
        term.wait_for(True, "e", lambda frame: "Exported: " in frame)
    finally:
        status, said = term.quit()
    assert status == 0 and "The game is kept in" in said
    assert term.screens > 40
    # the export, and the serial console, in the user's data folder, said on the screen
    exports = os.listdir(data / "exports")
    assert len(exports) == 1 and exports[0].startswith("altar-%s-" % game)
    assert ("Exported: %s (and on the serial console, %s)" % (data / "exports" / exports[0],
                                                             data / "serial.log")
            in term.log.replace("\r\n", ""))       # the status line, in rows of 60
    with open(data / "exports" / exports[0], encoding="utf-8") as f:
        assert log.load(f.read().splitlines()).view() == twin.app.ui.session.view()
    assert "-----END ALTAR LOG-----" in (data / "serial.log").read_text()
    assert os.listdir(tmp_path) == ["data"]      # nothing where the emulator was started


def marked_rows(frame):
    """The device's rows in a frame drawn without reverse video: (mark, text)
    each, the mark the column before the box's border."""
    lines = [ln for ln in frame.replace("\r", "").split("\n") if "│" in ln]
    return [(ln[:ln.index("│")], ln[ln.index("│") + 1:ln.rindex("│")]) for ln in lines]


@pytest.mark.skipif(pty is None, reason="no pseudo-terminals on this system (the pty module)")
def test_a_terminal_without_reverse_video_marks_the_selection(tmp_path):
    """TERM=dumb: `>` before the selected row. Down on "How many players?"
    moves it (it changed nothing on the screen when inversion was dropped)."""
    env = {"TERM": "dumb", "XDG_DATA_HOME": str(tmp_path / "data")}
    term = Terminal(["emulate", "--lang", "en"], env, str(tmp_path))
    T = Device("macropad", capture=False, lang="en").app.ui.T

    def shows(title, options, selected, after):
        rows = [title] + options + [""] * (4 - len(options))
        marks = [">" if i == 1 + selected else " " for i in range(5)]
        term.wait_for(list(zip(marks, [r.ljust(20) for r in rows])), after, marked_rows)
    try:
        # the MacroPad numbers what its keys pick (not "2 players": it starts with its number)
        shows(T["new_game"], ["%d %s" % (i + 1, g[1]) for i, g in enumerate(GAME_LIST)], 0,
              "the start")
        term.send(b"\r")
        counts = [T["n_players"] % n for n in (2, 3, 4)]
        shows(T["how_many"], counts, 0, "ok")
        term.send(b"\x1b[B")
        shows(T["how_many"], counts, 1, "next")
        assert "\x1b[7m" not in term.log and ">row [cols]: inverted" in term.log
    finally:
        status, _ = term.quit()
    assert status == 0


def test_inverted_columns_are_bracketed_in_place():
    """A bracket takes the blank beside its run, so a table keeps its
    columns; one blank between two runs is `|`; beside a letter, inserted."""
    row = ">P2  . . 2 . 1 . . 0"

    def elders(*es):          # their columns on the Sete Selos board
        return sum(1 << (5 + 2 * e) for e in es)
    assert emulate.bracketed(row, elders(2)) == ">P2  . .[2]. 1 . . 0"
    assert emulate.bracketed(row, elders(2, 3)) == ">P2  . .[2|.]1 . . 0"
    assert emulate.bracketed(row, elders(6)) == ">P2  . . 2 . 1 .[.]0"
    assert emulate.bracketed("draw2 action hand7", 0b111111 << 6) == "draw2[action]hand7"
    assert emulate.bracketed("ab", 0b1) == "[a]b" and emulate.bracketed("ab", 0b10) == "a[b]"


def test_the_text_rows_show_inversion_and_the_big_number():
    """In a frame of text rows: the title bar and the selected option in
    reverse video (or marked), the trump beside its label, in English."""
    dev = Device("macropad", capture=False, lang="en")
    goto(dev, 1)                               # Fantasmagória
    goto(dev, value_of(dev, 4))
    goto(dev, value_of(dev, 5))                # trump 5
    goto(dev, 1)                               # P2 leads
    T = dev.app.ui.T
    rows = text_rows(emulate.frame(dev, COLS, ROWS))
    assert rows[0][1] == "#" * 20 and rows[2][0].rstrip() == "%s 5" % (T["trump_lbl"] % 1)
    dev.press("ok")                            # a trick: its options, the first selected
    rows = text_rows(emulate.frame(dev, COLS, ROWS))
    assert [m for _, m in rows] == ["#" * 20] * 2 + ["." * 20] * 3
    plain = marked_rows(emulate.frame(dev, COLS, ROWS, reverse=False))
    assert [m for m, _ in plain] == [" ", ">", " ", " ", " "]
    assert "\x1b[7m" not in emulate.frame(dev, COLS, ROWS, reverse=False)
