"""Key presses to inputs (short, long, timestamps), the lights' effects, and
the emulator's interactive terminal."""

import os

import pytest

from altar_fw.inputs import BACK, LONG_MS, NEXT, OK, PREV, UNDO, Presses, ticks_diff
from altar_fw.lights import BANISHED, EFFECTS, SEAT_COLOURS, Lights
from altar_host.device.emulator import TICKS_START, TICKS_WRAP, Device, Pixels
from device_driver import new_game, ritual
from conftest import terminal

KEYMAP = ((PREV, BACK), (OK, 0), (NEXT, UNDO))


def test_short_and_long_presses_from_event_timestamps():
    p = Presses(KEYMAP)
    assert p.event(0, True, 1000) == 0
    assert p.event(0, False, 1000 + LONG_MS - 1) == PREV
    assert p.event(0, True, 5000) == 0 and p.event(0, False, 5000 + LONG_MS) == BACK
    assert p.event(1, True, 0) == 0 and p.event(1, False, 5000) == OK   # no long input: short
    assert p.event(2, False, 10) == 0          # a release without its press
    assert p.event(7, True, 10) == 0           # not a key of this board
    # supervisor.ticks_ms wraps at 2**29: a hold across the wrap is still long
    assert p.event(2, True, (1 << 29) - 100) == 0 and p.event(2, False, 600) == UNDO


def test_effects_are_distinct_short_and_end_on_the_leader():
    assert len(set(EFFECTS.values())) == len(EFFECTS)
    px = Pixels(12)
    lights = Lights(px)
    lights.seat(1)
    assert lights.tick(0) and px.shown == [SEAT_COLOURS[1]] * 12
    assert not lights.tick(50)                   # nothing changed: no write
    for name in ("reveal", "insanity", "victory"):
        lights.start(name)                        # timed from the next tick
        frames = []
        t = 1000
        while lights.effect is not None:
            if lights.tick(t):
                frames.append(list(px.shown))
            t += 10                               # ticks, never a sleep
        assert len(frames) > 2 and t - 1000 <= 3000
        assert px.shown == [SEAT_COLOURS[1]] * 12
    lights.seat(2, banished=2)
    lights.tick(t)
    assert px.shown == [BANISHED] * 12


def test_an_effect_is_timed_from_the_first_tick_that_can_show_it():
    """A redraw between start and the next tick (a quarter second on the
    Pico Display) does not eat the effect's first frames."""
    px = Pixels(1)
    lights = Lights(px)
    lights.seat(0)
    lights.tick(0)
    lights.start("reveal")
    seen = []
    for t in range(250, 900, 5):
        if lights.tick(t):
            seen.append(px.shown[0])
    assert seen == [0xFFFFFF, 0, 0xFFFFFF, 0, SEAT_COLOURS[0]]


def test_ticks_diff_across_the_wrap():
    assert ticks_diff(5, 3) == 2 and ticks_diff(3, 5) == -2
    assert ticks_diff(100, TICKS_WRAP - 100) == 200
    assert ticks_diff(TICKS_WRAP - 100, 100) == -200


def test_an_effect_started_just_before_the_wrap_ends_on_time():
    px = Pixels(1)
    lights = Lights(px)
    lights.seat(0)
    t0 = TICKS_WRAP - 60
    lights.start("reveal")                       # "W.W.", 120 ms a frame from the next tick
    seen = []
    for dt in range(0, 600, 10):
        lights.tick((t0 + dt) % TICKS_WRAP)
        seen.append(px.shown[0])
    assert seen[:12] == [0xFFFFFF] * 12 and seen[12:24] == [0] * 12      # across the wrap
    assert seen[24:36] == [0xFFFFFF] * 12 and seen[36:48] == [0] * 12
    assert lights.effect is None and seen[48:] == [SEAT_COLOURS[0]] * 12


def test_the_emulator_clock_runs_as_ticks_ms_and_a_hold_across_its_wrap_is_long():
    dev = Device("feather-oled", capture=False)
    assert dev.now == TICKS_START
    dev.tick(TICKS_WRAP - TICKS_START - 300)
    assert dev.now == TICKS_WRAP - 300
    dev.press("ok")                                 # Sete Selos: how many players
    dev.press("undo")                               # C held 700 ms, across the wrap
    assert dev.now < 1000 and dev.text()[0] == dev.app.ui.T["nothing_undo"]
    dev.boot()
    assert dev.now == TICKS_START                   # power-on starts it over


def test_a_reveal_flashes_the_pixels_on_the_device():
    dev = Device("macropad", capture=False)
    new_game(dev, 4, 0)
    for winner in (0, 1, 2):
        ritual(dev, winner, 5)
    assert dev.app.ui.event == "reveal"
    dev.tick(5)                                         # the loop's next step
    assert dev.pixels.shown == [0xFFFFFF] * 12          # the first frame: white
    dev.tick(2000)
    leader = dev.app.ui.session.state.leader
    assert dev.pixels.shown == [SEAT_COLOURS[leader]] * 12


@pytest.mark.parametrize("rows,cols,shows", [
    (50, 100, "█"),                          # room for the pixels, in blocks
    (24, 80, "│\x1b[7mSete Selos"),          # 80x24: the screen's text rows, the selection reversed
    (8, 40, "The terminal is too small"),    # and says so when even that does not fit
])
def test_interactive_terminal_fits_the_window_and_quits(rows, cols, shows, tmp_path):
    status, out = terminal(["emulate", "--board", "feather-oled", "--serial-log", os.devnull],
                           [b"\r"], rows, cols, {"XDG_DATA_HOME": str(tmp_path)})   # OK: Sete Selos
    assert status == 0
    assert shows.encode() in out
