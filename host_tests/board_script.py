"""Plays on the host emulator kept to be played again on the emulated board
(real CircuitPython in rp2040js: test_real_*.py, tools/bench/bench_board.py): the
inputs, the screens named on the way, the session after each input and the
lights the host showed after it. Not a test module.

The host idles after each input as long as the board will (`gaps`), its
clock running the app's loop, so that both play the same timeline: an
input that starts a light effect waits until the effect is over."""

import boards
from altar_host.device import board_emu
from altar_host.device.emulator import Device, png_pixels
from device_driver import goto, new_game, play, ritual, value_of
from test_device import TOUR, play_two_player_game, tour
from test_device_games import FA_PILES, fa_end_round, fa_tour, ra_tour

START = 5.0            # emulated s of the first input: the first screen is out
NAMES = "Ana,Bia,Zoë"  # ALTAR_PLAYERS of the drive named(); the font lacks ë
TICK_MS = 10           # the host's loop while it idles (the board's: 1 ms and the work)
SETTLE_MS = 400        # after an effect's last frame, before the next input


class Enough(Exception):
    """Stops a tour on the host once it has shown the screens wanted."""


class Script:
    """A play on the host emulator's board, kept to be played on the real
    firmware: `shots` (name, inputs before it; with `capture`, the host's
    pixels of each in `pixels`), `views` (the session's view after each
    input), `gaps` (emulated s from each input's end to the next) and
    `lights` (per input, the colours the host's LEDs showed from its end
    to the next input, a list per change; `lit0` before the first). With knob=True (the MacroPad)
    prev and next turn the encoder and ok presses it."""

    def __init__(self, board="pico-display", lang="pt", players="", capture=False, knob=False):
        self.board = board
        self.profile = boards.load(board)
        self.dev = dev = Device(board, capture=capture, lang=lang, players=players)
        self.shots = []
        self.pixels = {}
        self.views = [None]
        self.gaps = []
        self.lights = []
        self.lit0 = dev.lit()               # the LEDs before the first input
        key, turn, press = dev.key, dev.turn, dev.press

        def after():
            s = dev.app.ui.session
            self.views.append(s.view() if s else None)
            shown = [dev.lit()]
            waited = 40                  # Device.key and turn run the loop 40 ms after
            until = board_emu.GAP * 1000
            while waited < until:
                effect = dev.app.lights.effect is not None
                dev.tick(TICK_MS)
                waited += TICK_MS
                if effect and dev.app.lights.effect is None:
                    until = max(until, waited + SETTLE_MS)
                elif dev.app.lights.effect is not None:
                    until = waited + TICK_MS
                if dev.lit() != shown[-1]:
                    shown.append(dev.lit())
            self.gaps.append(waited / 1000)
            self.lights.append(shown)

        def keyed(k, hold=80):
            key(k, hold)
            after()

        def turned(clicks):
            turn(clicks)
            after()
        dev.key, dev.turn = keyed, turned
        if knob:
            switch = self.profile.KEYS.index("encoder")

            def by_knob(word):
                if word in ("prev", "next"):
                    dev.pressed.append(word)
                    return dev.turn(1 if word == "next" else -1)
                if word == "ok":
                    dev.pressed.append(word)
                    return dev.key(switch)
                return press(word)
            dev.press = by_knob

    def shot(self, name):
        self.shots.append((name, len(self.dev.keyed)))
        if self.dev.capture:
            self.pixels[name] = png_pixels(self.dev.png())

    def inputs(self):
        """The board's inputs (board_emu.inputs) for this play."""
        return board_emu.inputs(self.dev, START, self.gaps)

    def end(self):
        """Emulated s once the last input's gap is over."""
        return self.inputs()[-1][3] + self.gaps[-1]

    def before(self, n):
        """Emulated s just before input n (or the end, past the last one)."""
        ev = self.inputs()
        return ev[n][2] - 0.001 if n < len(ev) else self.end()

    def export(self):
        """From the menu: Export log."""
        goto(self.dev, value_of(self.dev, 2))


def whole_game(board="pico-display", knob=False, shortcut=False):
    """The golden tour (a 3-player Sete Selos game to its end), the last
    removal undone and entered again, then Menu > Export log. knob and
    shortcut: the MacroPad's encoder and value keys (see Script, goto)."""
    s = Script(board, knob=knob)
    tour(s.dev, s.shot, shortcut)
    s.dev.press("back")                 # the menu's back: to the result
    s.dev.press("undo")                 # held
    play(s.dev, TOUR[1][-1], shortcut)
    s.dev.press("ok")                   # the result's OK: the menu
    s.export()
    return s


def fa_game(board):
    """The golden Fantasmagória tour (4 players, three rounds, a spirit's
    tie), the last round's piles undone (held) and entered again, then the
    menu by back (held) and Export log."""
    s = Script(board)
    fa_tour(s.dev, s.shot)
    s.dev.press("undo")
    fa_end_round(s.dev, FA_PILES[-1])
    s.dev.press("back")
    s.export()
    return s


def two_player():
    """A 2-player Sete Selos game over three series, the first player named
    before each (the bundled example by quick entry), then Menu > Export."""
    s = Script("pico-display", "en", capture=True)
    play_two_player_game(s.dev, lambda n: s.shot("first-player-%d" % n))
    s.dev.press("ok")                   # the result's OK: the menu
    s.export()
    return s


def named():
    """A drive whose settings.toml names the seats (NAMES): a 3-player Sete
    Selos game that Bia deals, Zoë wins ritual 1 with 5, then the menu's
    Power now."""
    s = Script("pico-display", "en", NAMES, capture=True)
    new_game(s.dev, 3, 1)
    ritual(s.dev, 2, 5)
    s.shot("names-board")
    s.dev.press("back")
    goto(s.dev, value_of(s.dev, 4))     # Power now
    s.shot("names-power")
    return s


def opening(play_tour, lang, last, board="pico-display"):
    """A tour of the host's golden screens, up to the screen `last`."""
    s = Script(board, lang)

    def shot(name):
        s.shot(name)
        if name == last:
            raise Enough
    try:
        play_tour(s.dev, shot)
    except Enough:
        pass
    return s


def ritos(board):
    """Ritos Ancestrais in English to its final round (a turn, points), the
    screens named as the goldens."""
    return opening(ra_tour, "en", "ra-final", board)
