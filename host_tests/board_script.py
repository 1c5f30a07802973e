"""Plays on the host emulator's Pico Display kept to be pressed on the board
(emulated RP2040: test_real_firmware.py, tools/bench_board.py): the keys,
the screens named on the way, the session after each key. Not a test
module."""

import boards
from altar_host import board_emu
from altar_host.emulator import Device, png_pixels
from device_driver import goto, new_game, play, ritual, value_of
from test_device import TOUR, play_two_player_game, tour

PROFILE = boards.load("pico_display")
START = 5.0            # emulated s of the first press: the first screen is out
NAMES = "Ana,Bia,Zoë"  # ALTAR_PLAYERS of the drive named(); the font lacks ë


class Enough(Exception):
    """Stops a tour on the host once it has shown the screens wanted."""


class Script:
    """A play on the host emulator's Pico Display, kept to be pressed on the
    board: the keys, the screens named on the way (name, keys pressed before
    it; with `capture`, the host's pixels of each too), and the session's
    view after each key."""

    def __init__(self, lang="pt", players="", capture=False):
        self.dev = Device("pico-display", capture=capture, lang=lang, players=players)
        self.shots = []
        self.pixels = {}
        self.views = [None]
        key = self.dev.key

        def keyed(k, hold=80):
            key(k, hold)
            s = self.dev.app.ui.session
            self.views.append(s.view() if s else None)
        self.dev.key = keyed

    def shot(self, name):
        self.shots.append((name, len(self.dev.keyed)))
        if self.dev.capture:
            self.pixels[name] = png_pixels(self.dev.png())

    def presses(self):
        return board_emu.key_presses(self.dev.keyed, START, PROFILE.KEYS)

    def end(self):
        """Emulated s once the last key's screen is drawn."""
        t1 = self.presses()[-1][2]
        return t1 + board_emu.GAP


def whole_game():
    """The golden tour (a 3-player Sete Selos game to its end), the last
    removal undone and entered again, then Menu > Export log."""
    s = Script()
    tour(s.dev, s.shot)
    s.dev.press("back")                 # the menu's back: to the result
    s.dev.press("undo")                 # B held
    play(s.dev, TOUR[1][-1])
    s.dev.press("ok")
    goto(s.dev, value_of(s.dev, 2))     # Export log
    return s


def two_player():
    """A 2-player Sete Selos game over three series, the first player named
    before each (the bundled example by quick entry), then Menu > Export."""
    s = Script("en", capture=True)
    play_two_player_game(s.dev, lambda n: s.shot("first-player-%d" % n))
    s.dev.press("ok")                   # the result's OK: the menu
    goto(s.dev, value_of(s.dev, 2))     # Export log
    return s


def named():
    """A drive whose settings.toml names the seats (NAMES): a 3-player Sete
    Selos game that Bia deals, Zoë wins ritual 1 with 5, then the menu's
    Power now."""
    s = Script("en", NAMES, capture=True)
    new_game(s.dev, 3, 1)
    ritual(s.dev, 2, 5)
    s.shot("names-board")
    s.dev.press("back")
    goto(s.dev, value_of(s.dev, 4))     # Power now
    s.shot("names-power")
    return s


def opening(play_tour, lang, last):
    """A tour of the host's golden screens, up to the screen `last`."""
    s = Script(lang)

    def shot(name):
        s.shot(name)
        if name == last:
            raise Enough
    try:
        play_tour(s.dev, shot)
    except Enough:
        pass
    return s
