"""Altar on real CircuitPython 10.3 for the Pico, in rp2040js (tools/rp2040,
../shared/rp2040), with a Pico Display Pack: a drive laid out by `altar
deploy` plus the CircuitPython libraries from PyPI boots, its first screen
goes out over SPI, buttons work, and a game started before a power cut is
resumed at the next boot (microcontroller.nvm kept in the emulated flash)."""

import os

import pytest

import boards
from altar_host import board_emu, st7789
from altar_host.emulator import png_pixels
from conftest import HERE

PROFILE = boards.load("pico_display")
FRAME_BYTES = PROFILE.WIDTH * PROFILE.HEIGHT * 2      # a full screen of RGB565
FIRST_SCREEN_SEC = 5.0                                # from code.py's start
GOLDEN = os.path.join(HERE, "golden", "screens", "pico-display-%s.png")
PRESS = 7.4             # emulated s: after code.py's start (about 2.3) + FIRST_SCREEN_SEC
# New game (A) -> players, A -> two players, Y, A: a Sete Selos game starts; 0.5 s apart
KEYS = ("A", "A", "Y", "A")
CUT = PRESS + 0.5 * len(KEYS) + 0.2         # the power cut, once the game's journal is written


@pytest.fixture(scope="module")
def drive(tmp_path_factory):
    why = board_emu.missing(install=True)     # installs rp2040js with npm once if needed
    if why:
        pytest.skip("the emulated Pico cannot run: " + why)
    d = str(tmp_path_factory.mktemp("circuitpy"))
    try:
        board_emu.make_drive(d, "pico-display")
    except board_emu.Unavailable as e:        # e.g. no network for pip download
        pytest.skip(str(e))
    return board_emu.fat_image(d, str(tmp_path_factory.mktemp("img") / "circuitpy.img"))


@pytest.fixture(scope="module")
def boot(drive, tmp_path_factory):
    """RAMWR burst 2 is Altar's first screen (1 is displayio's blank one after
    the ST7789's init); the keys come once the first screen's deadline has
    passed; the power goes at CUT."""
    presses = [(k, PRESS + 0.5 * i, PRESS + 0.5 * i + 0.15) for i, k in enumerate(KEYS)]
    return board_emu.run(image=drive, max_sec=CUT + 1, stop_at=CUT, presses=presses, spi=True,
                         dump_nvm=True, workdir=str(tmp_path_factory.mktemp("emu")))


@pytest.fixture(scope="module")
def reboot(drive, boot, tmp_path_factory):
    """The same drive booted again with the NVM the cut left."""
    return board_emu.run(image=drive, max_sec=12, until_frames=2, nvm=boot.nvm_path, spi=True,
                         workdir=str(tmp_path_factory.mktemp("emu2")))


def test_boots_without_error(boot):
    assert boot.code == 0, boot.stderr[-2000:]
    assert "code.py output:" in boot.console
    assert "Traceback" not in boot.console, boot.console[-2000:]
    assert "power cut" in boot.summary["reason"]


def test_first_screen_within_5s_of_code_py(boot):
    start = boot.line_time("code.py output:")
    assert start is not None, boot.console[-2000:]
    screens = [b for b in boot.summary["ramwr_bursts"] if b["bytes"] == FRAME_BYTES]
    assert len(screens) >= 2, boot.summary["ramwr_bursts"]
    first = screens[1]
    assert first["end"] - start <= FIRST_SCREEN_SEC, (start, first)
    # Altar's screen, not displayio's: drawn in the profile's two colours
    pixels = board_emu.ramwr_pixels(boot.spi_path, first["start"] - 0.001)
    for colour in PROFILE.COLOURS:
        assert pixels.get(board_emu.rgb565(colour), 0) > 1000, (hex(colour), pixels)


def test_spi_log_format(boot):
    with open(boot.spi_path) as f:
        head = f.readline()
        kinds = {line[0] for line in f}
    assert head == "# altar-spi 1\n"
    assert kinds <= {"C", "D", "#"} and {"C", "D"} <= kinds
    assert os.path.getsize(boot.spi_path) > 2 * FRAME_BYTES


def test_a_press_redraws(boot):
    """The screen stays still until A is pressed (held low), then changes."""
    bursts = boot.summary["ramwr_bursts"]
    assert [b for b in bursts if b["start"] >= PRESS], bursts
    idle = [b for b in bursts[2:] if b["start"] < PRESS]
    assert not idle, bursts


def glass(boot, until):
    """The Display Pack's glass after the SPI bytes sent until `until` (s)."""
    return (PROFILE.WIDTH, PROFILE.HEIGHT, st7789.decode(boot.spi_path, until=until).rgb())


def golden(name):
    with open(GOLDEN % name, "rb") as f:
        return png_pixels(f.read())


def test_the_screens_are_the_host_emulators_pixel_for_pixel(boot):
    """What real CircuitPython sends the ST7789 shows the golden screens the
    host emulator draws: the new-game menu, then players after A."""
    assert glass(boot, PRESS - 0.01) == golden("new-game")
    assert glass(boot, PRESS + 0.45) == golden("players")


def test_a_game_cut_by_a_power_loss_is_resumed(boot, reboot):
    with open(boot.nvm_path, "rb") as f:
        nvm = f.read()
    assert b'"game": "sete-selos"' in nvm, nvm[:200]
    assert reboot.code == 0 and "Traceback" not in reboot.console, reboot.console[-2000:]
    before = glass(boot, CUT)[2]
    after = glass(reboot, reboot.summary["emulated"])[2]
    assert after != before                       # the title says it was resumed
    assert after[30:] == before[30:]             # the same board below the title
