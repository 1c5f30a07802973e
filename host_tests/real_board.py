"""What the tests of Altar on real CircuitPython in an emulated board share
(test_real_firmware.py: the Pico Display; test_real_macropad.py;
test_real_feather.py): the drive's image, the runs, the glass decoded from
the display's bytes, the lights, the exported log, a power cut in a journal
write. Not a test module.

A run presses on the board the inputs the host emulator made for the same
play (board_script.Script), so the board's screens, lights and game can be
checked against the host's and the goldens.
"""

import concurrent.futures
import os
import random
import shutil

import pytest

from altar_fw.journal import SYNC
from altar_host.device import board_emu, displaylog
from altar_host.device.console import dump_to_log
from altar_host.device.emulator import Device, FlashNVM, png_pixels
from board_script import START
from conftest import HERE

GOLDEN = os.path.join(HERE, "golden", "screens", "%s-%s.png")
BOOTED = START + 0.5      # emulated s by which a board has booted (resumed) to its screen


def usable(name):
    """Skip the module unless the emulated board can run here (installs
    rp2040js with npm once if needed)."""
    why = board_emu.missing(install=True, name=name)
    if why:
        pytest.skip("the emulated %s cannot run: %s" % (name, why))


def image(tmp_path_factory, name, lang="pt", players=None):
    """A CIRCUITPY image of what `altar deploy --board name` writes, with
    the CircuitPython libraries from PyPI (skips if pip cannot get them)."""
    d = str(tmp_path_factory.mktemp("circuitpy-%s-%s" % (name, lang)))
    try:
        board_emu.make_drive(d, name, lang=lang, players=players)
    except board_emu.Unavailable as e:    # e.g. no network for pip download
        pytest.skip(str(e))
    return board_emu.fat_image(d, str(tmp_path_factory.mktemp("img") / "circuitpy.img"), name)


def in_parallel(*calls):
    with concurrent.futures.ThreadPoolExecutor(len(calls)) as pool:
        return [f.result() for f in [pool.submit(c) for c in calls]]


SYNC_SEC = 1.0     # emulated s for a whole game's export over the UART (about 0.2 s)


def play(img, script, workdir, sync=False, **kw):
    """A call that plays `script` on the board from `img`: the display's
    bytes and the NVM kept. sync: then the host asks for the whole game, as
    `altar live` does (SYNC typed on the console at script.end())."""
    events = script.inputs()
    end = script.end() + 0.5
    if sync:
        events = events + [("type", SYNC, script.end(), script.end())]
        end += SYNC_SEC
    return lambda: board_emu.run(image=img, name=script.board, max_sec=end, events=events,
                                 spi=True, dump_nvm=True, workdir=workdir, **kw)


def boot(img, name, nvm, workdir):
    """A call that boots the board from `img` with this NVM, to its screen."""
    return lambda: board_emu.run(image=img, name=name, max_sec=BOOTED, nvm=nvm, spi=True,
                                 workdir=workdir)


def ran(result, what):
    assert result.code == 0, (what, result.stderr[-2000:])
    assert "code.py output:" in result.console, what
    assert "Traceback" not in result.console, (what, result.console[-2000:])


def glass(name, result, times):
    """The board's glass at each emulated time, decoded from its display log,
    as emulator.png_pixels gives a PNG."""
    p = board_emu.panel(name)
    return [(p.width, p.height, g) for g in displaylog.glass_at(result.spi_path, times, p)]


def golden(name, shot):
    with open(GOLDEN % (name, shot), "rb") as f:
        return png_pixels(f.read())


def assert_screens(script, result):
    """Just before the input after each named screen, the glass is the
    script's capture of it, or else the golden."""
    shots = script.shots
    got = glass(script.board, result, [script.before(n) for _, n in shots])
    for (shot, _), g in zip(shots, got):
        want = script.pixels[shot] if shot in script.pixels else golden(script.board, shot)
        assert g == want, shot


def assert_lights(script, result):
    """From the first input on, the board's LEDs show what the host's showed
    for the same play, change by change (seat colours and every effect's
    frames: each input that starts one waits for its end)."""
    dev = script.dev
    first = script.inputs()[0][2]
    frames = board_emu.led_frames(result.summary, dev)
    got = [[f for t, f in frames if t < first][-1]] + [f for t, f in frames if t >= first]
    want = [board_emu.sent(dev, c) for c in [script.lit0] + [c for cs in script.lights for c in cs]]
    squeeze = lambda seq: [f for i, f in enumerate(seq) if i == 0 or f != seq[i - 1]]
    assert squeeze(got) == squeeze(want)
    return squeeze(want)


def assert_exported(script, result):
    """The log the board printed (Menu > Export log) is the host's, line for
    line (the header's seed aside: os.urandom's)."""
    text = dump_to_log(result.console)
    strip = lambda t: [ln for ln in t.splitlines() if '"seed"' not in ln]
    assert strip(text) == strip(script.dev.export())
    return text


def host_boot(script, nvm_path):
    """The host emulator booted from (a copy of) an NVM sector the board left
    after `script`, with its board and settings."""
    shutil.copyfile(nvm_path, nvm_path + ".host")
    d = script.dev
    return Device(d.name, nvm=FlashNVM(nvm_path + ".host"), lang=d.lang, players=d.players)


def cut_moment(script, result, seed):
    """A random moment inside a random journal write of the play (after the
    first input: the writes before it are the boot's), and the number of
    inputs finished by then."""
    ev = script.inputs()
    writes = [w for w in board_emu.journal_writes(result.summary) if w[0] > ev[0][3]]
    assert writes, result.summary.get("nvm_writes")
    rng = random.Random(seed)
    w0, w1 = rng.choice(writes)
    t = rng.uniform(w0, w1)
    return t, sum(1 for e in ev if e[3] <= t)


def cut(img, script, t, workdir):
    """A call that plays `script` until a power cut at emulated time t, the
    NVM then kept."""
    return lambda: board_emu.run(image=img, name=script.board, max_sec=t + 1, stop_at=t,
                                 events=[e for e in script.inputs() if e[2] < t],
                                 dump_nvm=True, workdir=workdir)


def assert_resumed(script, cut_run, reboot, done):
    """After the cut, the board boots to the game at most the input in
    flight short (`done` inputs had finished), the host's screen for it."""
    assert cut_run.code == 0 and "power cut" in cut_run.summary["reason"], cut_run.stderr[-2000:]
    ran(reboot, "reboot")
    dev = host_boot(script, cut_run.nvm_path)
    got = dev.app.ui.session.view() if dev.app.ui.session else None
    assert got in (script.views[done - 1], script.views[done]), done
    assert glass(script.board, reboot, [reboot.summary["emulated"]])[0] == png_pixels(dev.png())


def images(tmp_path_factory, name):
    """The board's images in Portuguese and in English."""
    return {lang: image(tmp_path_factory, name, lang) for lang in ("pt", "en")}


def game_and_ritos(name, scripts, imgs, tmp_path_factory, cut_seed):
    """The runs of a board's whole game (scripts["game"], in Portuguese) and
    Ritos opening (scripts["ra"], in English), side by side; then a power cut
    at a random moment of one of the Ritos journal writes ("cut"; "done": the
    inputs finished by then) and the game's journal booted ("resume"), side
    by side; then the board booted after the cut ("reboot")."""
    d = lambda what: str(tmp_path_factory.mktemp("%s-%s" % (name, what)))
    game, ra = in_parallel(play(imgs["pt"], scripts["game"], d("game")),
                           play(imgs["en"], scripts["ra"], d("ra")))
    t, done = cut_moment(scripts["ra"], ra, cut_seed)
    cut_run, resume = in_parallel(cut(imgs["en"], scripts["ra"], t, d("cut")),
                                  boot(imgs["pt"], name, game.nvm_path, d("resume")))
    reboot = boot(imgs["en"], name, cut_run.nvm_path, d("reboot"))()
    return {"game": game, "ra": ra, "cut": cut_run, "done": done, "resume": resume,
            "reboot": reboot}


def assert_game_and_ritos(scripts, runs):
    """game_and_ritos's runs: each booted and ended without an error, the
    game's journal resumes to the host's screen for it, and the cut loses at
    most the action in flight."""
    for what in ("game", "ra", "resume"):
        ran(runs[what], what)
    game = scripts["game"]
    r = runs["resume"]
    dev = host_boot(game, runs["game"].nvm_path)
    assert dev.app.ui.session.view() == game.dev.app.ui.session.view()
    assert glass(game.board, r, [r.summary["emulated"]])[0] == png_pixels(dev.png())
    assert_resumed(scripts["ra"], runs["cut"], runs["reboot"], runs["done"])
