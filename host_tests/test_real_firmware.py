"""Altar on real CircuitPython 10.3 for the Pico, in rp2040js (tools/rp2040,
../shared/rp2040), with a Pico Display Pack: a drive laid out by `altar
deploy` plus the CircuitPython libraries from PyPI boots, and its first
screen goes out over SPI."""

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


@pytest.fixture(scope="module")
def boot(tmp_path_factory):
    why = board_emu.missing(install=True)     # installs rp2040js with npm once if needed
    if why:
        pytest.skip("the emulated Pico cannot run: " + why)
    drive = str(tmp_path_factory.mktemp("circuitpy"))
    try:
        board_emu.make_drive(drive, "pico-display")
    except board_emu.Unavailable as e:        # e.g. no network for pip download
        pytest.skip(str(e))
    work = str(tmp_path_factory.mktemp("emu"))
    # RAMWR burst 2 is Altar's first screen (1 is displayio's blank one after the
    # ST7789's init); A is pressed once the first screen's deadline has passed.
    return board_emu.run(drive, max_sec=PRESS + 0.6, presses=[("A", PRESS, PRESS + 0.15)],
                         spi=True, workdir=work)


def test_boots_without_error(boot):
    assert boot.code == 0, boot.stderr[-2000:]
    assert "code.py output:" in boot.console
    assert "Traceback" not in boot.console, boot.console[-2000:]
    assert "max emulated time" in boot.summary["reason"]


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
    assert glass(boot, boot.summary["emulated"]) == golden("players")
