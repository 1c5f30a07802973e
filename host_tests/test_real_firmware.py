"""Altar on real CircuitPython 10.3 for the Pico, in rp2040js (tools/rp2040,
../shared/rp2040), with a Pico Display Pack: a drive laid out by `altar
deploy` plus the CircuitPython libraries from PyPI.

Each run presses the buttons the host emulator pressed for the same play
(emulator.Device.keyed, board_emu.key_presses), so the board's screens can
be checked against the goldens and the host's, and its state against the
engine's. The long runs go side by side (node is one process a run): the
whole Sete Selos game with the Fantasmagória and Ritos openings and a
2-player game over three series, then the game's journal resumed with the
power cut in the middle of a journal write.
"""

import concurrent.futures
import os
import random
import shutil

import pytest

from altar import log
from altar.core import Session
from altar_host import board_emu, st7789
from altar_host.console import dump_to_log
from altar_host.emulator import Device, FlashNVM, png_pixels
from conftest import HERE
from board_script import NAMES, PROFILE, START, named, opening, two_player, whole_game
from test_device import TOUR
from test_device_games import fa_tour, ra_tour

FRAME_BYTES = PROFILE.WIDTH * PROFILE.HEIGHT * 2      # a full screen of RGB565
FIRST_SCREEN_SEC = 5.0                                # from reset
GOLDEN = os.path.join(HERE, "golden", "screens", "pico-display-%s.png")
CUT_SEED = 11          # which journal write the power cut hits, and when in it


def glass(result, times):
    """The Display Pack's glass at each emulated time, from a run's SPI log."""
    return [(PROFILE.WIDTH, PROFILE.HEIGHT, g) for g in st7789.glass_at(result.spi_path, times)]


def golden(name):
    with open(GOLDEN % name, "rb") as f:
        return png_pixels(f.read())


def host_boot(nvm_path):
    """The host emulator booted from (a copy of) an NVM sector the board left."""
    shutil.copyfile(nvm_path, nvm_path + ".host")
    return Device("pico-display", nvm=FlashNVM(nvm_path + ".host"))


def in_parallel(*calls):
    with concurrent.futures.ThreadPoolExecutor(len(calls)) as pool:
        return [f.result() for f in [pool.submit(c) for c in calls]]


@pytest.fixture(scope="module")
def images(tmp_path_factory):
    why = board_emu.missing(install=True)     # installs rp2040js with npm once if needed
    if why:
        pytest.skip("the emulated Pico cannot run: " + why)
    out = {}
    for name, lang, players in (("pt", "pt", None), ("en", "en", None), ("names", "en", NAMES)):
        d = str(tmp_path_factory.mktemp("circuitpy-" + name))
        try:
            board_emu.make_drive(d, "pico-display", lang=lang, players=players)
        except board_emu.Unavailable as e:    # e.g. no network for pip download
            pytest.skip(str(e))
        out[name] = board_emu.fat_image(d, str(tmp_path_factory.mktemp("img") / "circuitpy.img"))
    return out


@pytest.fixture(scope="module")
def scripts():
    return {"game": whole_game(), "fa": opening(fa_tour, "pt", "fa-board"),
            "ra": opening(ra_tour, "en", "ra-points"), "names": named(), "two": two_player()}


KEYS = os.path.join(os.path.dirname(HERE), "tools", "rp2040", "two-rituals.keys")


@pytest.fixture(scope="module")
def runs(images, scripts, tmp_path_factory):
    """The three plays on the board, side by side, and the README's command
    (board_emu's: deploy, --keys, --png)."""
    def go(name, lang):
        s = scripts[name]
        return lambda: board_emu.run(image=images[lang], max_sec=s.end() + 0.5, presses=s.presses(),
                                     spi=True, dump_nvm=True,
                                     workdir=str(tmp_path_factory.mktemp("emu-" + name)))
    cli = str(tmp_path_factory.mktemp("cli"))
    readme = lambda: board_emu.main(["--keys", KEYS, "--png", os.path.join(cli, "screen.png"),
                                     "--keep", cli])
    game, fa, ra, names, two, code = in_parallel(go("game", "pt"), go("fa", "pt"), go("ra", "en"),
                                                 go("names", "names"), go("two", "en"), readme)
    return {"game": game, "fa": fa, "ra": ra, "names": names, "two": two, "cli": (code, cli)}


@pytest.fixture(scope="module")
def cut_at(runs, scripts):
    """A random moment inside a random journal write of the game (after the
    first key: the writes before it are the boot's), and the number of keys
    released by then."""
    game = runs["game"]
    presses = scripts["game"].presses()
    writes = [w for w in board_emu.journal_writes(game.summary) if w[0] > presses[0][2]]
    assert len(writes) >= len(TOUR[1]), writes
    rng = random.Random(CUT_SEED)
    w0, w1 = rng.choice(writes)
    t = rng.uniform(w0, w1)
    return t, sum(1 for p in presses if p[2] <= t)


@pytest.fixture(scope="module")
def after(images, runs, scripts, cut_at, tmp_path_factory):
    """The game's journal resumed at the next boot, and the game cut by a
    power loss in a journal write (the same keys, stopped then) and booted
    again."""
    t, _ = cut_at
    presses = [p for p in scripts["game"].presses() if p[1] < t]
    cut_dir = str(tmp_path_factory.mktemp("emu-cut"))
    resume, cut = in_parallel(
        lambda: board_emu.run(image=images["pt"], max_sec=12, until_frames=1,
                              nvm=runs["game"].nvm_path, spi=True,
                              workdir=str(tmp_path_factory.mktemp("emu-resume"))),
        lambda: board_emu.run(image=images["pt"], max_sec=t + 1, stop_at=t, presses=presses,
                              dump_nvm=True, workdir=cut_dir))
    assert cut.code == 0 and "power cut" in cut.summary["reason"], cut.stderr[-2000:]
    reboot = board_emu.run(image=images["pt"], max_sec=12, until_frames=1, nvm=cut.nvm_path,
                           spi=True, workdir=str(tmp_path_factory.mktemp("emu-reboot")))
    return {"resume": resume, "cut": cut, "reboot": reboot}


def test_every_run_boots_and_ends_without_error(runs):
    for name, r in sorted((k, v) for k, v in runs.items() if k != "cli"):
        assert r.code == 0, (name, r.stderr[-2000:])
        assert "code.py output:" in r.console, name
        assert "Traceback" not in r.console, (name, r.console[-2000:])


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
    text = dump_to_log(runs["game"].console)
    board = log.load(text.splitlines())
    engine = Session(TOUR[0])
    for a in TOUR[1]:
        engine.do(a)
    assert board.view() == engine.view()
    assert board.state.over and board.state.reason == "power"
    host = scripts["game"].dev.export()
    strip = lambda t: [ln for ln in t.splitlines() if '"seed"' not in ln]    # os.urandom's
    assert strip(text) == strip(host)
    assert sum('"undo"' in ln for ln in text.splitlines()) == 1


def test_the_screens_on_the_way_are_the_goldens(runs, scripts):
    """The glass as the panel shows it, decoded from the SPI bytes, just
    before the key after each named screen: the host emulator's golden PNG,
    pixel for pixel."""
    for name in ("game", "fa", "ra"):
        s = scripts[name]
        presses = s.presses()
        moments = [presses[n][1] - 0.001 if n < len(presses) else s.end() for _, n in s.shots]
        for (shot, _), got in zip(s.shots, glass(runs[name], moments)):
            assert got == golden(shot), shot


def test_two_players_over_three_series_on_the_board(runs, scripts):
    """A 2-player game whose first player moves, by the buttons: before each
    series the glass names its first player as the host emulator's does,
    pixel for pixel, and the board exports the host's game."""
    s = scripts["two"]
    r = runs["two"]
    presses = s.presses()
    moments = [presses[n][1] - 0.001 for _, n in s.shots]
    assert [name for name, _ in s.shots] == ["first-player-%d" % n for n in (1, 2, 3)]
    for (shot, _), got in zip(s.shots, glass(r, moments)):
        assert got == s.pixels[shot], shot
    text = dump_to_log(r.console)
    strip = lambda t: [ln for ln in t.splitlines() if '"seed"' not in ln]    # os.urandom's
    assert strip(text) == strip(s.dev.export())
    assert log.load(text.splitlines()).view()["status"] == "over"


def test_names_in_settings_toml_show_on_the_board_and_go_into_its_journal(runs, scripts):
    """ALTAR_PLAYERS as `altar deploy --players` writes it, read by the real
    CircuitPython: the board's screens are the host emulator's with the same
    setting (ë drawn as e), and its journal's header keeps the names."""
    s = scripts["names"]
    r = runs["names"]
    presses = s.presses()
    moments = [presses[n][1] - 0.001 if n < len(presses) else s.end() for _, n in s.shots]
    for (shot, _), got in zip(s.shots, glass(r, moments)):
        assert got == s.pixels[shot], shot
    dev = host_boot(r.nvm_path)
    assert dev.app.ui.session.rules.players == ["Ana", "Bia", "Zoë"]


def test_the_whole_games_journal_is_resumed_at_the_next_boot(runs, after, scripts):
    """The board boots to the screen the host emulator shows for the same
    NVM: the game's result, under a "Retomado" title."""
    r = after["resume"]
    assert r.code == 0 and "Traceback" not in r.console, r.console[-2000:]
    dev = host_boot(runs["game"].nvm_path)
    assert dev.app.ui.session.view() == scripts["game"].dev.app.ui.session.view()
    assert dev.text()[0] == dev.app.ui.T["resumed"]
    assert glass(r, [r.summary["emulated"]])[0] == png_pixels(dev.png())


def test_a_cut_in_a_journal_write_loses_at_most_the_action_in_flight(after, cut_at, scripts):
    t, released = cut_at
    views = scripts["game"].views
    r = after["reboot"]
    assert r.code == 0 and "Traceback" not in r.console, r.console[-2000:]
    dev = host_boot(after["cut"].nvm_path)
    got = dev.app.ui.session.view() if dev.app.ui.session else None
    assert got in (views[released - 1], views[released]), (t, released)
    assert glass(r, [r.summary["emulated"]])[0] == png_pixels(dev.png())


def test_the_readmes_command_saves_the_screen_the_host_emulator_shows(runs):
    code, folder = runs["cli"]
    assert code == 0
    dev = Device("pico-display")
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
