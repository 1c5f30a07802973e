"""Each board profile's build() on the emulator's fake board, with Adafruit's
display drivers (and Blinka's BusDisplay for the Pico's ST7789) where they
matter: the driver starts the panel as the library documents it, the keys, pixels and knob are on the board's pins, and
the MacroPad's knob turns the way adafruit_macropad does."""

import shutil
import time
import types

import adafruit_displayio_sh1107
import busdisplay
import displayio
import i2cdisplaybus
import pytest

import boards
from altar_fw import inputs
from altar_fw import ui as U
from altar_host.device import board_emu
from altar_host.device.emulator import Device, Hardware, I2C


class Screen(tuple):
    bus = None


def screen(width, height, chip=None):
    """The display a fake driver (or board.DISPLAY) gives: enough for build()."""
    return Screen(("screen", width, height))


def sh1107_init(writes):
    """The SH1107's init commands from the I2C writes: command writes are
    (0x80, byte) pairs; the init ends with display on (0xAF)."""
    cmds = []
    for _, data in writes:
        if data[0] == 0x80:
            cmds.append(bytes(data[1::2]))
            if data[1] == 0xAF:
                return cmds
    raise AssertionError("no display-on command")


def test_every_profile_builds_on_its_board():
    for name in boards.PROFILES:
        p = boards.load(name)
        hw = Hardware(name, screen)
        display, keys, pixels, encoder = hw.build(p)
        assert boards.pick(hw.modules["board"].board_id) is p
        # the display itself, or under what writes it (glass.Glass, pages.Pages)
        assert getattr(display, "display", display) == ("screen", p.WIDTH, p.HEIGHT)
        assert keys.key_count == len(p.KEYMAP) == len(p.KEYS)
        assert len(pixels) == p.PIXELS
        assert (encoder is not None) == p.ENCODER


def test_feather_oled_starts_the_sh1107_as_the_library_documents_the_wing():
    """Adafruit_CircuitPython_DisplayIO_SH1107 documents the 128x64 FeatherWing
    as SH1107(bus, width=128, height=64). The rotation sets the multiplex
    ratio (command 0xA8): 64 rows (0x3F) there; rotation=0 sent 0x7F."""
    hw = Hardware("feather_oled", screen,
                  drivers={"adafruit_displayio_sh1107": adafruit_displayio_sh1107})
    hw.build(boards.load("feather_oled"))
    got = sh1107_init(hw.i2c.writes)

    displayio.release_displays()
    i2c = I2C()
    bus = i2cdisplaybus.I2CDisplayBus(i2c, device_address=0x3C)
    adafruit_displayio_sh1107.SH1107(bus, width=128, height=64)
    displayio.release_displays()

    assert {a for a, _ in hw.i2c.writes} == {0x3C}
    assert got == sh1107_init(i2c.writes)
    assert [c for c in got if c[0] == 0xA8] == [b"\xa8\x3f"]


def test_pico_display_starts_the_st7789_as_adafruits_display_pack_example(monkeypatch):
    """Adafruit_CircuitPython_ST7789's
    examples/st7789_240x135_simpletest_Pimoroni_Pico_Display_Pack.py, with
    auto_refresh off (Altar refreshes; displayio's own first refresh cost
    0.2 s of the boot), and the library's commands with the datasheet's
    waits (test_st7789 checks the commands)."""
    calls = []

    class BusDisplay(busdisplay.BusDisplay):
        _auto_refresh = False        # Blinka's refresh thread leaves it alone

        def __init__(self, bus, init, **kw):
            calls.append((bus, init, kw))
            super().__init__(bus, init, **kw)

    hw = Hardware("pico_display", screen,
                  drivers={"busdisplay": types.SimpleNamespace(BusDisplay=BusDisplay)})
    monkeypatch.setattr(busdisplay, "time", types.SimpleNamespace(
        sleep=lambda s: None, monotonic=time.monotonic))     # the init's waits
    display, _, _, _ = hw.build(boards.load("pico_display"))
    displayio.release_displays()
    pin = hw.modules["board"]
    (bus, init, kw), = calls
    assert init == boards.load("pico_display").INIT
    assert kw == dict(rotation=270, width=240, height=135, rowstart=40, colstart=53,
                      backlight_pin=pin.GP20, auto_refresh=False)
    assert (display.width, display.height) == (240, 135)
    assert hw.spis[0].pins == (pin.GP18, pin.GP19, None)
    assert (bus._dc.pin, bus._chip_select.pin) == (pin.GP16, pin.GP17)


def test_the_keys_and_lights_are_on_the_boards_pins():
    want = {
        "macropad": (["KEY%d" % k for k in range(1, 13)] + ["ENCODER_SWITCH"], "NEOPIXEL"),
        "feather_oled": (["D9", "D6", "D5"], "NEOPIXEL"),
        "pico_display": (["GP12", "GP13", "GP14", "GP15"], None),
    }
    for name in want:
        hw = Hardware(name, screen)
        _, keys, pixels, _ = hw.build(boards.load(name))
        pin = hw.modules["board"]
        keys_pins, pixel_pin = want[name]
        assert keys.pins == tuple(getattr(pin, k) for k in keys_pins)
        assert keys.interval == inputs.SCAN           # scanned every 10 ms, not keypad's 20
        if pixel_pin:
            assert pixels.pin == getattr(pin, pixel_pin)
        else:                                  # the Display Pack's RGB LED
            assert [p.pin for p in hw.pwms] == list(hw.rgb)


def test_the_macropad_knob_turned_clockwise_is_next():
    hw = Hardware("macropad", screen)
    pin = hw.modules["board"]
    wrong = hw.modules["rotaryio"].IncrementalEncoder(pin.ROTA, pin.ROTB)
    wrong.turn(1)
    assert wrong.position == -1      # these pins count clockwise down: PREV

    dev = Device("macropad", capture=False)
    ui = dev.app.ui
    assert ui.mode == U.GAME and ui.sel == 0
    dev.turn(1)
    assert ui.sel == 1
    dev.turn(1)
    dev.turn(-1)
    assert ui.sel == 1
    dev.turn(-2)
    assert ui.sel == len(ui.opts) - 1    # anticlockwise past the first wraps round


def test_the_emulated_rp2040_runs_each_board_on_its_profiles_pins():
    """tools/rp2040/run.mjs's presets (its --describe) put the NeoPixels and
    the knob where the profiles do: the knob's first pin (the first to fall
    in a clockwise turn) is the one rotaryio is given first."""
    if not shutil.which("node"):
        pytest.skip("node is not installed: the runner's presets cannot be read")
    assert set(board_emu.BOARDS) == {name.replace("_", "-") for name in boards.PROFILES}
    for name in board_emu.BOARDS:
        b = board_emu.board(name)
        pins = boards.load(name).emulated()["pins"]
        assert b.get("neopixel") == pins.get("NEOPIXEL"), name
        knob = boards.load(name).emulated().get("knob")
        assert b.get("knob") == ([pins[n] for n in knob] if knob else None), name
