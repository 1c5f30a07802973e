"""Altar on real CircuitPython 10.3 for the Adafruit Feather RP2040 with the
128 x 64 OLED FeatherWing, in rp2040js (tools/rp2040): the
wing's SH1107 at 0x3C over I2C (driven by adafruit_displayio_sh1107), its
three buttons, the Feather's NeoPixel (PIO), the NVM.

A whole Fantasmagória game entered with the three buttons, holds included
(the golden tour, the last round's piles undone and entered again, the menu
by back, Export), and a Ritos Ancestrais opening run side by side; then a
power cut in one of the Ritos journal writes and the game's journal resumed,
side by side.
"""

import pytest

from altar import log
from altar_fw.inputs import LONG_MS
from altar_fw.lights import SEAT_COLOURS
from board_script import fa_game, ritos
from real_board import (assert_exported, assert_game_and_ritos, assert_lights, assert_screens,
                        game_and_ritos, images, usable)

BOARD = "feather-oled"
CUT_SEED = 3


@pytest.fixture(scope="module")
def scripts():
    usable(BOARD)
    return {"game": fa_game(BOARD), "ra": ritos(BOARD)}


@pytest.fixture(scope="module")
def runs(scripts, tmp_path_factory):
    return game_and_ritos(BOARD, scripts, images(tmp_path_factory, BOARD), tmp_path_factory,
                          CUT_SEED)


def test_the_runs_boot_resume_and_survive_a_power_cut(runs, scripts):
    """Every run ends without an error; the game's journal resumes at the
    next boot to the host's screen for it; a power cut in a Ritos journal
    write loses at most the action in flight."""
    assert_game_and_ritos(scripts, runs)


def test_a_fantasmagoria_game_by_three_buttons_and_their_holds_is_the_hosts(runs, scripts):
    """The log the board prints is the host emulator's line for line: three
    rounds, a spirit's tie, one undo; A and C were held (back, undo)."""
    s = scripts["game"]
    held = {s.profile.KEYS[k] for k, ms in s.dev.keyed if ms > LONG_MS}
    assert held == {"A", "C"}, held
    text = assert_exported(s, runs["game"])
    board = log.load(text.splitlines())
    assert board.view()["status"] == "over" and board.view()["spirit"]
    assert sum('"undo"' in ln for ln in text.splitlines()) == 1


def test_the_screens_on_the_way_are_the_goldens(runs, scripts):
    for name in ("game", "ra"):
        assert_screens(scripts[name], runs[name])


def test_the_neopixel_shows_each_seat_and_every_effect(runs, scripts):
    """The Feather's NeoPixel, decoded from GP16's bits: the host's frames,
    change by change, at the profile's brightness: the seats' colours, a
    possession's purple, the spirit's and the victory's frames."""
    shown = assert_lights(scripts["game"], runs["game"])
    dim = lambda c: "".join("%02x" % (v * 51 // 256) for v in (c >> 8 & 255, c >> 16, c & 255))
    for c in SEAT_COLOURS + (0xA000FF,):
        assert dim(c) in shown, hex(c)
    assert_lights(scripts["ra"], runs["ra"])
