"""Altar on real CircuitPython 10.3 for the Adafruit MacroPad, in rp2040js
(tools/rp2040): its built-in SH1106 over SPI1, its twelve
keys, the encoder (PIO) and its switch, its twelve NeoPixels (PIO), the NVM.

A whole Sete Selos game entered by the value keys and the encoder (turns to
move, its switch for OK; the golden tour, an undo, Menu > Export) and a
Ritos Ancestrais opening run side by side; then a power cut in one of the
Ritos journal writes and the game's journal resumed, side by side.
"""

import pytest

from altar import log
from altar.core import Session
from altar_fw.lights import SEAT_COLOURS
from board_script import ritos, whole_game
from real_board import (assert_exported, assert_game_and_ritos, assert_lights, assert_screens,
                        game_and_ritos, images, usable)
from test_device import TOUR

BOARD = "macropad"
CUT_SEED = 5


@pytest.fixture(scope="module")
def scripts():
    usable(BOARD)
    return {"game": whole_game(BOARD, knob=True, shortcut=True), "ra": ritos(BOARD)}


@pytest.fixture(scope="module")
def runs(scripts, tmp_path_factory):
    return game_and_ritos(BOARD, scripts, images(tmp_path_factory, BOARD), tmp_path_factory,
                          CUT_SEED)


def test_the_runs_boot_resume_and_survive_a_power_cut(runs, scripts):
    """Every run ends without an error; the game's journal resumes at the
    next boot to the host's screen for it; a power cut in a Ritos journal
    write loses at most the action in flight."""
    assert_game_and_ritos(scripts, runs)


def test_the_game_by_value_keys_and_the_encoder_is_the_engines(runs, scripts):
    """The log the board prints is the game the engine plays from TOUR's
    actions, and the host emulator's line for line; the encoder turned and
    was pressed, and the value keys were used."""
    s = scripts["game"]
    kinds = {k if k == "turn" else s.profile.KEYS[k] for k, _ in s.dev.keyed}
    assert {"turn", "encoder", "1", "2"} <= kinds, kinds
    text = assert_exported(s, runs["game"])
    engine = Session(TOUR[0])
    for a in TOUR[1]:
        engine.do(a)
    board = log.load(text.splitlines())
    assert board.view() == engine.view() and board.state.reason == "power"
    assert sum('"undo"' in ln for ln in text.splitlines()) == 1


def test_the_screens_on_the_way_are_the_goldens(runs, scripts):
    for name in ("game", "ra"):
        assert_screens(scripts[name], runs[name])


def test_the_lights_show_each_seat_and_every_effect(runs, scripts):
    """The twelve NeoPixels, decoded from GP19's bits: the host's frames,
    change by change, at the profile's brightness; among them the seats'
    colours, a reveal's white and the victory's chase."""
    shown = assert_lights(scripts["game"], runs["game"])
    dim = lambda c: "".join("%02x" % (v * 51 // 256) for v in (c >> 8 & 255, c >> 16, c & 255))
    for c in SEAT_COLOURS[:3] + (0xFFFFFF,):
        assert dim(c) * 12 in shown, hex(c)
    lit = lambda f: sum(f[i:i + 6] != "000000" for i in range(0, len(f), 6))
    assert sum(lit(f) == 1 for f in shown) >= 12           # the chase: one pixel of twelve
    assert_lights(scripts["ra"], runs["ra"])
