"""Altar on real CircuitPython 10.3 for the Pico, in rp2040js (tools/rp2040,
../shared/rp2040), with a Pico Display Pack: a drive laid out by `altar
deploy` plus the CircuitPython libraries from PyPI.

Each run presses the buttons the host emulator pressed for the same play
(emulator.Device.keyed, board_emu.key_presses), so the board's screens can
be checked against the goldens and the host's, and its state against the
engine's. The long runs go side by side (node is one process a run): the
whole Sete Selos game with the Fantasmagória and Ritos openings, then the
game's journal resumed with the power cut in the middle of a journal write.
"""

import concurrent.futures
import os
import random
import shutil

import pytest

import boards
from altar import log
from altar.core import Session
from altar_host import board_emu, st7789
from altar_host.emulator import Device, FlashNVM, dump_to_log, png_pixels
from conftest import HERE
from device_driver import goto, play, value_of
from test_device import TOUR, tour
from test_device_games import fa_tour, ra_tour

PROFILE = boards.load("pico_display")
FRAME_BYTES = PROFILE.WIDTH * PROFILE.HEIGHT * 2      # a full screen of RGB565
FIRST_SCREEN_SEC = 5.0                                # from reset
START = 5.0            # emulated s of the first press: the first screen is out
GOLDEN = os.path.join(HERE, "golden", "screens", "pico-display-%s.png")
CUT_SEED = 11          # which journal write the power cut hits, and when in it


class Enough(Exception):
    """Stops a tour on the host once it has shown the screens wanted."""


class Script:
    """A play on the host emulator's Pico Display, kept to be pressed on the
    board: the keys, the screens named on the way (name, keys pressed before
    it), and the session's view after each key."""

    def __init__(self, lang="pt"):
        self.dev = Device("pico-display", capture=False, lang=lang)
        self.shots = []
        self.views = [None]
        key = self.dev.key

        def keyed(k, hold=80):
            key(k, hold)
            s = self.dev.app.ui.session
            self.views.append(s.view() if s else None)
        self.dev.key = keyed

    def shot(self, name):
        self.shots.append((name, len(self.dev.keyed)))

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
    for lang in ("pt", "en"):
        d = str(tmp_path_factory.mktemp("circuitpy-" + lang))
        try:
            board_emu.make_drive(d, "pico-display", lang=lang)
        except board_emu.Unavailable as e:    # e.g. no network for pip download
            pytest.skip(str(e))
        out[lang] = board_emu.fat_image(d, str(tmp_path_factory.mktemp("img") / "circuitpy.img"))
    return out


@pytest.fixture(scope="module")
def scripts():
    return {"game": whole_game(), "fa": opening(fa_tour, "pt", "fa-board"),
            "ra": opening(ra_tour, "en", "ra-points")}


@pytest.fixture(scope="module")
def runs(images, scripts, tmp_path_factory):
    """The three plays on the board, side by side."""
    def go(name, lang):
        s = scripts[name]
        return lambda: board_emu.run(image=images[lang], max_sec=s.end() + 0.5, presses=s.presses(),
                                     spi=True, dump_nvm=True,
                                     workdir=str(tmp_path_factory.mktemp("emu-" + name)))
    game, fa, ra = in_parallel(go("game", "pt"), go("fa", "pt"), go("ra", "en"))
    return {"game": game, "fa": fa, "ra": ra}


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
    for name, r in sorted(runs.items()):
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
