"""altar_host.st7789, the ST7789 decoder the RP2040 runner's SPI capture goes
through, without the emulator: on the bytes Adafruit's real ST7789 driver
sends through Blinka's displayio for the Pico Display profile, on the golden
pico-display screen sent as CircuitPython's core sends it, and on the chip's
commands one by one (windows, wrapping, MADCTL, colour modes, inversion)."""

import os
import time
import types

import adafruit_st7789
import busdisplay
import displayio

import boards
from altar_host import st7789 as S
from altar_host.emulator import Device, DigitalInOut, Hardware, SPI, png_pixels
from conftest import HERE

GOLDEN = os.path.join(HERE, "golden", "screens", "pico-display-board.png")
INIT = [(0x01, b""), (0x11, b""), (0x3A, b"\x55"), (0x36, b"\x08"), (0x13, b""),
        (0x29, b""), (0x36, b"\xc0"), (0x21, b"")]      # adafruit_st7789, bgr and invert on
SMALL = S.View(4, 3, origin=(0, 0), xstep=(1, 0), ystep=(0, 1))   # memory's top left


class Wire:
    """The SPI bus and the D/C line: each write as (D/C high, bytes)."""

    def __init__(self):
        self.runs = []
        self.dc = None
        wire = self

        class Line(DigitalInOut):
            def __init__(self, pin):
                super().__init__(pin)
                if pin.gpio == 16:
                    wire.dc = self

        class Bus(SPI):
            def write(self, buffer, *, start=0, end=None):
                wire.runs.append((wire.dc.value, bytes(buffer[start:end])))

        self.digitalio = types.SimpleNamespace(DigitalInOut=Line)
        self.SPI = Bus


def real_driver(monkeypatch):
    """The profile's build() with adafruit_st7789 on a recording SPI bus:
    (display, wire). Refreshes only when told; no init delays."""
    wire = Wire()

    class ST7789(adafruit_st7789.ST7789):
        _auto_refresh = False        # Blinka's refresh thread leaves it alone

        def __init__(self, bus, **kw):
            super().__init__(bus, auto_refresh=False, **kw)

    monkeypatch.setattr(busdisplay, "time", types.SimpleNamespace(
        sleep=lambda s: None, monotonic=time.monotonic))
    hw = Hardware("pico_display", lambda w, h: None,
                  drivers={"adafruit_st7789": types.SimpleNamespace(ST7789=ST7789),
                           "digitalio": wire.digitalio,
                           "busio": types.SimpleNamespace(SPI=wire.SPI)})
    display, _, _, _ = hw.build(boards.load("pico_display"))
    return display, wire


def commands(runs):
    """(command, its data) for each command in the runs."""
    out = []
    for is_data, data in runs:
        if is_data:
            out[-1] = (out[-1][0], out[-1][1] + data)
        else:
            out.extend((c, b"") for c in data)
    return out


# -- the real driver's bytes -----------------------------------------------------------

def test_the_real_drivers_stream_decodes_to_what_displayio_shows(monkeypatch, tmp_path):
    """The emulator's pico-display screen, refreshed through adafruit_st7789
    on Blinka's FourWire: the decoded glass is the emulator's capture."""
    dev = Device("pico-display")
    dev.press("ok")
    want = png_pixels(dev.png())
    group = dev.display.root_group
    display, wire = real_driver(monkeypatch)       # build() releases dev.display
    try:
        assert commands(wire.runs) == INIT
        del wire.runs[:]
        display.root_group = group
        display.refresh()
    finally:
        displayio.release_displays()
    sent = commands(wire.runs)
    assert sent[:3] == [(0x2A, bytes.fromhex("003500bb")), (0x2B, bytes.fromhex("00280117")),
                        (0x2C, sent[2][1])]        # host columns 53..187, rows 40..279
    panel = S.Panel()
    for c, d in INIT:
        panel.send(c, d)
    for run in wire.runs:
        panel.feed(*run)
    assert panel.lit and panel.inverted and panel.madctl == 0xC0
    assert (240, 135, panel.rgb()) == want
    assert len({r for r in want[2]}) > 1           # not a blank screen

    path = tmp_path / "spi.txt"
    path.write_text(S.encode([r for c, d in INIT for r in ((False, bytes([c])), (True, d))]
                             + wire.runs))
    assert png_pixels(S.decode(str(path)).png()) == want
