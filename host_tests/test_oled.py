"""altar_host.device.sh1106 and sh1107 (the models in altar_host.device.oled), the decoders
of the MacroPad's and the FeatherWing's displays, without the emulated
board: the bytes Adafruit's real SH1107 driver sends through Blinka's
displayio for the Feather profile (and what another rotation would show),
the I2C control bytes, and the chips' commands one by one (addressing,
remaps, offset, multiplex, inversion, display off)."""

import time
import types

import adafruit_displayio_sh1107
import busdisplay
import displayio

import boards
from altar_host.device import displaylog as L
from altar_host.device import sh1106, sh1107
from altar_host.device.emulator import Device, Hardware, png_pixels


def runs(writes):
    """I2C writes (address, bytes) as a display log's runs."""
    out = []
    for _, data in writes:
        out += [("I", b""), ("D", data)]
    return out


def real_sh1107(monkeypatch, **kw):
    """The Feather profile's build() with adafruit_displayio_sh1107 on
    Blinka's I2CDisplayBus and the emulator's recording I2C (kw: the
    driver's own arguments over the profile's): (display, hardware)."""
    class SH1107(adafruit_displayio_sh1107.SH1107):
        _auto_refresh = False        # Blinka's refresh thread leaves it alone

        def __init__(self, bus, **args):
            args.update(kw)
            super().__init__(bus, **args)
    monkeypatch.setattr(busdisplay, "time", types.SimpleNamespace(
        sleep=lambda s: None, monotonic=time.monotonic))
    hw = Hardware("feather_oled", lambda w, h: None,
                  drivers={"adafruit_displayio_sh1107": types.SimpleNamespace(SH1107=SH1107)})
    display, _, _, _ = hw.build(boards.load("feather_oled"))
    return display, hw


def through_the_real_driver(monkeypatch, tmp_path, **kw):
    """The emulator's feather-oled screen after a key, refreshed through the
    real driver: (the host's pixels, the glass decoded from the bytes)."""
    dev = Device("feather-oled")
    dev.press("ok")
    want = png_pixels(dev.png())
    group = dev.display.root_group
    display, hw = real_sh1107(monkeypatch, **kw)       # build() releases dev.display
    try:
        display.root_group = group
        display.refresh()
    finally:
        displayio.release_displays()
    assert {a for a, _ in hw.i2c.writes} == {0x3C}
    path = tmp_path / "i2c.txt"
    path.write_text(L.encode(runs(hw.i2c.writes)))
    return want, png_pixels(L.decode(str(path), sh1107.Panel()).png())


def test_the_real_sh1107_drivers_writes_decode_to_what_displayio_shows(monkeypatch, tmp_path):
    """The wing's documented call (rotation 90, offset 0x60): the glass is
    the emulator's screen."""
    want, got = through_the_real_driver(monkeypatch, tmp_path)
    assert got == want and len(set(want[2])) > 1


def test_another_rotation_shows_turned_on_the_wing(monkeypatch, tmp_path):
    """rotation=270 puts the picture upside down on the wing's glass; the
    host's fake (a plain 128 x 64 frame) would not show that."""
    want, got = through_the_real_driver(monkeypatch, tmp_path, rotation=270)
    w, h, rows = want
    assert got == (w, h, [bytes(b"".join(r[3 * x:3 * x + 3] for x in range(w - 1, -1, -1)))
                          for r in rows[::-1]])


def test_rotation_0_drives_128_rows_and_garbles_the_wing(monkeypatch, tmp_path):
    """What boards/feather_oled.py warns of: since the library's 1.7.2,
    rotation=0 sets a multiplex of 128 for a 64-row panel."""
    want, got = through_the_real_driver(monkeypatch, tmp_path, rotation=0)
    assert got != want


# -- I2C control bytes ------------------------------------------------------------------

def test_control_bytes_split_an_i2c_write_into_commands_and_data():
    p = sh1107.Panel()
    # Co = 1: one command a control byte; then Co = 0, D/C = 1: the rest is data
    for kind, data in runs([(0x3C, b"\x80\xaf\x80\xb2\x80\x13\x80\x04"),
                            (0x3C, b"\x40\x01\x02\x03"),
                            (0x3C, b"\x00\xb3\x10\x00"),          # Co = 0, D/C = 0: commands
                            (0x3C, b"\x80\xa7\xc0\xff")]):        # Co = 1 then a data byte
        p.feed(kind, data)
    assert p.on and p.inverse and p.commands[0xAF] == 1
    i = 2 * p.COLUMNS + 0x34
    assert list(p.ram[i:i + 3]) == [1, 2, 3]
    assert p.page == 3 and p.column == 1 and p.ram[3 * p.COLUMNS] == 0xFF


# -- the chips, command by command -------------------------------------------------------

def spi(p, *commands, data=b""):
    p.feed("C", bytes(commands))
    if data:
        p.feed("D", data)


def lit_pixels(p):
    """The glass's lit pixels as (x, y)."""
    rows = p.rgb()
    return {(x, y) for y, r in enumerate(rows) for x in range(p.width) if r[3 * x]}


def test_the_macropads_setup_shows_displayios_pixel_where_it_drew_it():
    """board.c's init (remaps 0xA1 and 0xC8, column start 2): a byte at
    page 1, column 2 + 5 with bit 2 set is displayio's pixel (5, 10)."""
    p = sh1106.Panel()
    spi(p, 0xAE, 0xD5, 0x80, 0xA8, 0x3F, 0xD3, 0x00, 0x40, 0xAD, 0x8B, 0xA1, 0xC8,
        0xDA, 0x12, 0x81, 0xFF, 0xA6, 0xA4, 0xAF)
    assert lit_pixels(p) == set()
    spi(p, 0xB1, 0x10, 0x07, data=b"\x04")
    assert lit_pixels(p) == {(5, 10)}
    assert not p.unhandled and not p.dropped


def test_sh1106_remaps_start_line_inversion_and_off():
    p = sh1106.Panel([(c, s) for c in range(64) for s in range(128)])   # the chip's lines
    spi(p, 0xAF, 0xB0, 0x10, 0x00, data=b"\x01")          # RAM line 0, column 0
    assert lit_pixels(p) == {(0, 0)}
    spi(p, 0xA1)                                          # SEG s shows column 131 - s
    assert lit_pixels(p) == set()
    spi(p, 0xA0, 0xC8)                                    # COM c shows line 63 - c
    assert lit_pixels(p) == {(0, 63)}
    spi(p, 0xC0, 0x41)                                    # start line 1: line 0 on COM 63
    assert lit_pixels(p) == {(0, 63)}
    spi(p, 0x40, 0xD3, 0x05)                              # offset 5: line 0 on COM 5
    assert lit_pixels(p) == {(0, 5)}
    spi(p, 0xD3, 0x00, 0xA8, 0x0F)                        # 16 rows driven
    spi(p, 0xB4, 0x10, 0x00, data=b"\x01")                # line 32: not driven
    assert lit_pixels(p) == {(0, 0)}
    spi(p, 0xA7)
    assert len(lit_pixels(p)) == 16 * 128 - 1
    spi(p, 0xA6, 0xA5)
    assert len(lit_pixels(p)) == 16 * 128
    spi(p, 0xAE)
    assert lit_pixels(p) == set() and not p.lit


def test_sh1106_columns_stop_at_the_ram_and_unknown_commands_are_counted():
    p = sh1106.Panel()
    spi(p, 0xB0, 0x18, 0x02, data=bytes(3))               # columns 130, 131, then past
    assert p.written == 2 and p.dropped == 1
    spi(p, 0x20, 0x20, 0x33)                              # board.c's 0x20 pair: not an SH1106's
    assert dict(p.unhandled) == {0x20: 2}


def test_sh1107_vertical_addressing_and_the_wings_glass():
    p = sh1107.Panel()
    for kind, data in runs([(0x3C, b"\x80\xaf\x80\xa8\x80\x3f\x80\xd3\x80\x60"
                                   b"\x80\x21\x80\xb0\x80\x10\x80\x00"),
                            (0x3C, b"\x40\x01\x01")]):    # pages 0 and 1, line 0
        p.feed(kind, data)
    assert p.page == 2 and p.column == 0
    # line 0 is the glass's bottom row; segment 0 and 8 its columns 0 and 8
    assert lit_pixels(p) == {(0, 63), (8, 63)}


def test_the_macropads_pages_show_what_displayio_draws(monkeypatch):
    """pages.Pages writes the MacroPad's SH1106 itself: after every input of
    the Fantasmagória tour (new screens, selection moves, the big trump
    drawn, changed and gone), the chip's glass is what displayio draws of
    the same canvas, and only pages under changed rows were sent."""
    from test_device_games import fa_tour
    from altar_host.device.emulator import FrameDisplay
    dev = Device("macropad")
    chip = dev.display
    displayio.release_displays()          # the device's own display takes no refresh
    ref = FrameDisplay(128, 64, True)
    ref.root_group = dev.app.canvas.group
    press = dev.press
    bigs = set()
    sent = []

    def check(*args, **kw):
        before = chip.panel.written
        press(*args, **kw)
        sent.append(chip.panel.written - before)
        ref.refresh()
        assert chip.frame == ref.frame
        bigs.add(dev.app.canvas.big)
    monkeypatch.setattr(dev, "press", check)
    fa_tour(dev, lambda name: None)
    assert None in bigs and len(bigs) > 2
    assert 0 < min(sent) < 100 and max(sent) <= 8 * 120     # the text area, 8 pages at most
