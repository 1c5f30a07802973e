"""Altar on real CircuitPython 10.3 for the Pico, in rp2040js (tools/rp2040),
with a Pico Display Pack: a drive laid out by `altar deploy` plus the
CircuitPython libraries from PyPI (the MacroPad and the Feather: test_real_macropad.py, test_real_feather.py; what they share:
real_board.py).

The long runs go side by side (node is one process a run): the whole Sete
Selos game with the Fantasmagória and Ritos openings and a 2-player game
over three series, then the game's journal resumed with the power cut in the
middle of a journal write.
"""

import os
import time

import pytest

import boards
from altar import log
from altar.core import Session
from altar_fw.journal import BEGIN, MARK
from altar_host import live
from altar_host.device import board_emu
from altar_fw.lights import SEAT_COLOURS
from altar_host.device.emulator import Device, png_pixels, rgb_led
from conftest import HERE, browser  # noqa: F401 (a fixture)
from board_script import NAMES, START, named, opening, two_player, whole_game
from real_board import (assert_exported, assert_lights, assert_resumed, assert_screens, boot, cut,
                        cut_moment, glass, host_boot, image, in_parallel, play, ran, usable)
from test_device import TOUR
from test_device_games import fa_tour, ra_tour
from test_live import settled, shown

BOARD = "pico-display"
PROFILE = boards.load(BOARD)
FRAME_BYTES = PROFILE.WIDTH * PROFILE.HEIGHT * 2      # a full screen of RGB565
FIRST_SCREEN_SEC = 5.0                                # from reset
CUT_SEED = 11          # which journal write the power cut hits, and when in it


@pytest.fixture(scope="module")
def images(tmp_path_factory):
    usable(BOARD)
    return {"pt": image(tmp_path_factory, BOARD, "pt"), "en": image(tmp_path_factory, BOARD, "en"),
            "names": image(tmp_path_factory, BOARD, "en", NAMES)}


@pytest.fixture(scope="module")
def scripts():
    return {"game": whole_game(), "fa": opening(fa_tour, "pt", "fa-board"),
            "ra": opening(ra_tour, "en", "ra-points"), "names": named(), "two": two_player()}


KEYS = os.path.join(os.path.dirname(HERE), "tools", "rp2040", "two-rituals.keys")
# docs/emulator.md's command (test_doc_commands.py holds the two the same)
DOC_ARGS = ["--board", "pico-display", "--keys", "tools/rp2040/two-rituals.keys", "--png", "pico.png"]


@pytest.fixture(scope="module")
def runs(images, scripts, tmp_path_factory):
    """The plays on the board, side by side, and the docs' command
    (board_emu's: deploy, --keys, --png), its files in a folder of its own."""
    d = lambda name: str(tmp_path_factory.mktemp("emu-" + name))
    cli = d("cli")
    args = [KEYS if a == DOC_ARGS[3] else os.path.join(cli, "screen.png") if a == DOC_ARGS[5]
            else a for a in DOC_ARGS]
    readme = lambda: board_emu.main(args + ["--keep", cli])
    game, fa, ra, names, two, code = in_parallel(
        play(images["pt"], scripts["game"], d("game"), sync=True), play(images["pt"], scripts["fa"], d("fa")),
        play(images["en"], scripts["ra"], d("ra")),
        play(images["names"], scripts["names"], d("n")),
        play(images["en"], scripts["two"], d("two")), readme)
    return {"game": game, "fa": fa, "ra": ra, "names": names, "two": two, "cli": (code, cli)}


@pytest.fixture(scope="module")
def after(images, runs, scripts, tmp_path_factory):
    """The game's journal resumed at the next boot, and the game cut by a
    power loss in a journal write (the same keys, stopped then) and booted
    again."""
    game = scripts["game"]
    d = lambda name: str(tmp_path_factory.mktemp("emu-" + name))
    t, done = cut_moment(game, runs["game"], CUT_SEED)
    resume, cut_run = in_parallel(
        boot(images["pt"], BOARD, runs["game"].nvm_path, d("resume")),
        cut(images["pt"], game, t, d("cut")))
    reboot = boot(images["pt"], BOARD, cut_run.nvm_path, d("reboot"))()
    return {"resume": resume, "cut": cut_run, "reboot": reboot, "done": done}


def test_every_run_boots_and_ends_without_error(runs):
    for name, r in sorted((k, v) for k, v in runs.items() if k != "cli"):
        ran(r, name)


def test_the_first_screen_is_out_within_5s_of_reset(runs):
    first = runs["game"].summary["ramwr_bursts"][0]
    assert first["bytes"] == FRAME_BYTES and first["end"] <= FIRST_SCREEN_SEC, first
    # Altar's screen, not displayio's console: drawn in the profile's two colours
    pixels = board_emu.ramwr_pixels(runs["game"].spi_path, 0, first["end"] + 0.001)
    for colour in PROFILE.COLOURS:
        assert pixels.get(board_emu.rgb565(colour), 0) > 1000, (hex(colour), pixels)


def test_spi_log_format(runs):
    with open(runs["game"].spi_path) as f:
        head = f.readline()
        kinds = {line[0] for line in f}
    assert head == "# altar-spi 1\n"
    assert kinds <= {"C", "D", "#"} and {"C", "D"} <= kinds


def test_nothing_is_drawn_between_the_first_screen_and_the_first_key(runs):
    bursts = runs["game"].summary["ramwr_bursts"]
    assert bursts[1]["start"] > START, bursts[:3]


def test_a_whole_sete_selos_game_by_the_buttons_exports_the_engines_game(runs, scripts):
    """The log the board prints (Menu > Export log) is the game the engine
    plays from TOUR's actions, and the host emulator's, action for action."""
    text = assert_exported(scripts["game"], runs["game"])
    board = log.load(text.splitlines())
    engine = Session(TOUR[0])
    for a in TOUR[1]:
        engine.do(a)
    assert board.view() == engine.view()
    assert board.state.over and board.state.reason == "power"
    assert sum('"undo"' in ln for ln in text.splitlines()) == 1


def test_the_game_streams_live_over_the_uart_to_altar_live(runs, scripts, browser, tmp_path):
    """Each journaled input's line is on the UART within 0.5 emulated s of
    the input's end; the host's request (SYNC) is answered with the whole
    game; and the console, as a file that grows, is the game in `altar
    live`'s page in Chromium, its end and the reason."""
    r, script = runs["game"], scripts["game"]
    ends = [t1 for _, _, _, t1 in script.inputs()]
    lines = r.summary["lines"]
    told = [(t, text) for t, text in lines if MARK in text]   # after the title bar's codes too
    assert len(told) == len(list(script.dev.app.store.journal.frames()))   # the host's
    # a line's time is when it began; the header's began with the title bar's
    # codes, printed at boot
    timed = [(t, text) for t, text in told if text.startswith(MARK)]
    assert len(timed) == len(told) - 1
    late = [(round(t - max(e for e in ends if e <= t), 3), text) for t, text in timed
            if t - max(e for e in ends if e <= t) > 0.5]
    assert not late
    assert [t for t, text in lines if text.strip() == BEGIN][-1] > script.end()
    capture = tmp_path / "altar-serial.log"
    th = live.Thread("pt", "127.0.0.1", 0, str(capture))
    try:
        d = browser()
        d.get("http://127.0.0.1:%d/" % th.server.port)
        text = r.console
        with open(capture, "w", encoding="utf-8") as f:
            for i in range(0, len(text), 2000):       # as a terminal's capture grows
                f.write(text[i:i + 2000])
                f.flush()
                time.sleep(0.02)
        want = script.dev.app.ui.session.view()
        m = th.mirror
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not (m.session and m.session.view() == want):
            time.sleep(0.05)
            settled(th)
        assert m.session.view() == want and not m.warnings
        shown(d, th)
        assert d.find_element("id", "status").text == "lendo o arquivo"
        assert d.find_element("css selector", "#outcome .result").text.endswith("vence!")
        assert d.find_elements("css selector", "#history table")
    finally:
        th.close()


def test_the_screens_on_the_way_are_the_goldens(runs, scripts):
    """The glass as the panel shows it, decoded from the SPI bytes, just
    before the key after each named screen: the host emulator's golden PNG
    (or its own capture), pixel for pixel: the tours, a 2-player game whose
    first player moves before each series, and names from settings.toml
    (ë drawn as e)."""
    assert [name for name, _ in scripts["two"].shots] == ["first-player-%d" % n for n in (1, 2, 3)]
    for name in ("game", "fa", "ra", "two", "names"):
        assert_screens(scripts[name], runs[name])


def test_the_rgb_led_shows_each_seat_and_every_effect(runs, scripts):
    """The Display Pack's RGB LED, read from its three PWM outputs: the
    host's colours, change by change (the seat's, a reveal, the end)."""
    shown = assert_lights(scripts["game"], runs["game"])
    # the profile's RGBLed: each channel's duty cycle 0xFFFF - v * 257 * 30%, active low
    led = lambda c: [rgb_led([0xFFFF - (c >> 16 - 8 * i & 0xFF) * 257 * 30 // 100
                              for i in range(3)])]
    for c in SEAT_COLOURS[:3] + (0xFFFFFF,):
        assert led(c) in shown, hex(c)


def test_two_players_over_three_series_export_the_hosts_game(runs, scripts):
    text = assert_exported(scripts["two"], runs["two"])
    assert log.load(text.splitlines()).view()["status"] == "over"


def test_names_in_settings_toml_go_into_the_boards_journal(runs, scripts):
    """ALTAR_PLAYERS as `altar deploy --players` writes it, read by the real
    CircuitPython: its journal's header keeps the names."""
    dev = host_boot(scripts["names"], runs["names"].nvm_path)
    assert dev.app.ui.session.rules.players == ["Ana", "Bia", "Zoë"]


def test_the_whole_games_journal_is_resumed_at_the_next_boot(runs, after, scripts):
    """The board boots to the screen the host emulator shows for the same
    NVM: the game's result, under a "Retomado" title."""
    r = after["resume"]
    ran(r, "resume")
    dev = host_boot(scripts["game"], runs["game"].nvm_path)
    assert dev.app.ui.session.view() == scripts["game"].dev.app.ui.session.view()
    assert dev.text()[0] == dev.app.ui.T["resumed"]
    assert glass(BOARD, r, [r.summary["emulated"]])[0] == png_pixels(dev.png())


def test_a_cut_in_a_journal_write_loses_at_most_the_action_in_flight(after, scripts):
    assert_resumed(scripts["game"], after["cut"], after["reboot"], after["done"])


def test_the_readmes_command_saves_the_screen_the_host_emulator_shows(runs):
    code, folder = runs["cli"]
    assert code == 0
    dev = Device(BOARD)
    with open(KEYS, encoding="utf-8") as f:
        for line in f:
            for w in line.split("#")[0].split():
                dev.press(w)
    with open(os.path.join(folder, "screen.png"), "rb") as f:
        assert png_pixels(f.read()) == png_pixels(dev.png(scale=2))


def test_board_emu_names_a_word_it_cannot_press(tmp_path, capsys):
    keys = tmp_path / "keys.txt"
    keys.write_text("ok\nok reboot\n")
    assert board_emu.main(["--keys", str(keys)]) == 2
    assert "line 2: 'reboot' is not a key word" in capsys.readouterr().err
