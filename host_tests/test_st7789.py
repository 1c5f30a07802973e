"""altar_host.device.st7789, the ST7789 decoder the RP2040 runner's SPI capture goes
through, without the emulator: on the bytes the Pico Display profile's
BusDisplay sends through Blinka's displayio, on the golden
pico-display screen sent as CircuitPython's core sends it, and on the chip's
commands one by one (windows, wrapping, MADCTL, colour modes, inversion)."""

import os
import time
import types

import busdisplay
import displayio

import boards
from altar_host.device import displaylog as L
from altar_host.device import st7789 as S
from altar_host.device.emulator import Device, DigitalInOut, Hardware, SPI, png_pixels
from conftest import HERE

GOLDEN = os.path.join(HERE, "golden", "screens", "pico-display-board.png")
INIT = [(0x01, b""), (0x11, b""), (0x3A, b"\x55"), (0x36, b"\x08"), (0x13, b""),
        (0x29, b""), (0x36, b"\xc0"), (0x21, b"")]      # adafruit_st7789's, bgr and invert on
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
    """The profile's build() with Blinka's BusDisplay on a recording SPI bus:
    (its glass.Glass, wire). Refreshes only when told; no init delays."""
    wire = Wire()

    class BusDisplay(busdisplay.BusDisplay):
        _auto_refresh = False        # Blinka's refresh thread leaves it alone

    monkeypatch.setattr(busdisplay, "time", types.SimpleNamespace(
        sleep=lambda s: None, monotonic=time.monotonic))
    hw = Hardware("pico_display", lambda w, h: None,
                  drivers={"busdisplay": types.SimpleNamespace(BusDisplay=BusDisplay),
                           "digitalio": wire.digitalio,
                           "busio": types.SimpleNamespace(SPI=wire.SPI)})
    glass, _, _, _ = hw.build(boards.load("pico_display"))
    return glass, wire


def commands(runs):
    """(command, its data) for each command in the runs."""
    out = []
    for is_data, data in runs:
        if is_data:
            out[-1] = (out[-1][0], out[-1][1] + data)
        else:
            out.extend((c, b"") for c in data)
    return out


# -- the profile's bytes through Blinka's BusDisplay ----------------------------------------

def test_the_real_drivers_stream_decodes_to_what_displayio_shows(monkeypatch, tmp_path):
    """The emulator's pico-display screen, refreshed through the profile's BusDisplay
    on Blinka's FourWire: the decoded glass is the emulator's capture."""
    dev = Device("pico-display")
    dev.press("ok")
    want = png_pixels(dev.png())
    group = dev.display.root_group
    glass, wire = real_driver(monkeypatch)         # build() releases dev.display
    display = glass.display
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
    path.write_text(L.encode([r for c, d in INIT for r in ((False, bytes([c])), (True, d))]
                             + wire.runs))
    assert png_pixels(L.decode(str(path), S.Panel()).png()) == want


def test_the_glass_stream_decodes_to_what_the_emulator_shows(monkeypatch):
    """The Pico Display's screens as glass.Glass sends them itself (a window a
    row of changed cells, RAMWR then RAMWRC, no MADCTL), through Blinka's
    FourWire: a new screen, then only the cells that changed, decode to the
    emulator's capture, margins black, with a pool small enough that cells
    are drawn over (the goldens cover the rest: the big number, tints)."""
    dev = Device("pico-display", players="Ana,Bia,Caio,Inês")
    glass, wire = real_driver(monkeypatch)         # build() releases dev.display
    displayio.release_displays()
    glass.cells = 8
    panel = S.Panel()
    for c, d in INIT:
        panel.send(c, d)
    del wire.runs[:]
    canvas = dev.app.canvas
    shots = 0
    for word in ["ok", "ok", "next", "next", "back", "back"]:
        dev.press(word)
        want = png_pixels(dev.png())
        for r in range(canvas.rows):     # what the device's own glass sent, again
            canvas.lo[r], canvas.hi[r] = 0, canvas.cols
        glass.draw(canvas)
        sent = commands(wire.runs)
        assert {c for c, _ in sent} <= {0x2A, 0x2B, 0x2C, 0x3C}
        for run in wire.runs:
            panel.feed(*run)
        del wire.runs[:]
        assert (240, 135, panel.rgb()) == want
        shots += 1
    assert shots == 6 and len(glass.slot) == 8


# -- the golden screen, sent as CircuitPython's core sends it -------------------------------

def core_stream(rows, chunk_rows=7, split=333):
    """A full refresh of a 240x135 picture (rows of RGB bytes) as
    CircuitPython's BusDisplay sends it at rotation 270, colstart 53,
    rowstart 40: the native 135x240 frame (viewer pixel (x, y) at native
    (y, 239 - x)) in subrectangles of `chunk_rows` rows, each its CASET,
    RASET, RAMWR and big-endian RGB565, the data cut into runs of `split`
    bytes (odd: pixels span runs)."""
    runs = [r for c, d in INIT for r in ((False, bytes([c])), (True, d))]
    for y0 in range(0, 240, chunk_rows):
        y1 = min(y0 + chunk_rows, 240)
        px = bytearray()
        for ny in range(y0, y1):
            for nx in range(135):
                row = rows[nx]
                x = 239 - ny
                r, g, b = row[3 * x:3 * x + 3]
                px += (r >> 3 << 11 | g >> 2 << 5 | b >> 3).to_bytes(2, "big")
        runs += [(False, b"\x2a"), (True, (53).to_bytes(2, "big") + (187).to_bytes(2, "big")),
                 (False, b"\x2b"), (True, (40 + y0).to_bytes(2, "big")
                                    + (40 + y1 - 1).to_bytes(2, "big")),
                 (False, b"\x2c")]
        runs += [(True, bytes(px[i:i + split])) for i in range(0, len(px), split)]
    return runs


def test_the_golden_pico_display_screen_round_trips(tmp_path):
    with open(GOLDEN, "rb") as f:
        golden = png_pixels(f.read())
    assert golden[:2] == (240, 135)                # the panel's resolution, not scaled
    path = tmp_path / "spi.txt"
    # one native row a RAMWR, as the firmware's log from run.mjs shows (CircuitPython
    # 10 on the RP2040), and 7 rows a window, wrapping row to row
    path.write_text(L.encode(core_stream(golden[2], chunk_rows=7)))
    assert (240, 135, L.decode(str(path), S.Panel()).rgb()) == golden
    path.write_text(L.encode(core_stream(golden[2], chunk_rows=1)))
    panel = L.decode(str(path), S.Panel())
    assert (240, 135, panel.rgb()) == golden
    assert panel.pixels == 135 * 240 and not panel.dropped and not panel.unhandled
    assert png_pixels(panel.png()) == golden
    assert png_pixels(panel.png(2))[:2] == (480, 270)


# -- the chip, command by command ----------------------------------------------------------

def lit(view=SMALL, madctl=0, colmod=0x55):
    p = S.Panel(view)
    for c, d in [(0x11, b""), (0x29, b""), (0x21, b""), (0x3A, bytes([colmod])),
                 (0x36, bytes([madctl]))]:
        p.send(c, d)
    return p


def window(p, c0, c1, r0, r1):
    p.send(0x2A, c0.to_bytes(2, "big") + c1.to_bytes(2, "big"))
    p.send(0x2B, r0.to_bytes(2, "big") + r1.to_bytes(2, "big"))


def px(*values):
    return b"".join(v.to_bytes(2, "big") for v in values)


def at(p, c, r):
    """The colour in memory at column c, row r (0xRRGGBB)."""
    return p.ram[r * S.RAM_COLS + c]


RED, GREEN, BLUE, WHITE = 0xF800, 0x07E0, 0x001F, 0xFFFF


def test_a_write_fills_the_window_row_by_row_and_wraps_to_its_top():
    p = lit()
    window(p, 1, 2, 0, 1)
    p.send(0x2C, px(1, 2, 3, 4, 5))                # 2x2 window, a fifth pixel wraps
    assert [at(p, c, r) for r in (0, 1) for c in (1, 2)] == [
        S._rgb565()[v] for v in (5, 2, 3, 4)]
    p.send(0x3C, px(6))                            # RAMWRC: on from the sixth
    assert at(p, 2, 0) == S._rgb565()[6]
    p.send(0x2C, px(7))                            # RAMWR: from the window's start again
    assert at(p, 1, 0) == S._rgb565()[7]
    assert p.pixels == 7


def test_pixels_span_data_runs_and_a_command_drops_half_a_pixel():
    p = lit()
    window(p, 0, 3, 0, 0)
    p.command(0x2C)
    for b in px(RED, GREEN):
        p.data(bytes([b]))
    p.data(b"\x00")                               # half a pixel, then a command
    p.command(0x00)
    assert [at(p, c, 0) for c in range(3)] == [0xF80000, 0x00FC00, 0]
    p.feed("C", b"\x2a")                           # a window's bytes may span runs too
    p.feed("D", b"\x00\x05")
    p.feed("D", b"\x00\x06")
    assert p.caset == [5, 6]


def test_colours_show_true_on_the_ips_glass_with_inversion_on():
    p = lit()
    window(p, 0, 3, 0, 0)
    p.send(0x2C, px(RED, GREEN, BLUE, WHITE))
    assert p.rgb()[0] == bytes.fromhex("f80000 00fc00 0000f8 f8fcf8")
    p.send(0x20)                                   # INVOFF: the IPS glass inverts
    assert p.rgb()[0] == bytes.fromhex("07ffff ff03ff ffff07 070307")
    assert S.Panel(SMALL, ips=False).rgb(raw=True)[0] == bytes(12)
    p.send(0x36, b"\x08")                          # BGR: red and blue swap (new writes)
    p.send(0x21)
    p.send(0x2C, px(RED))
    assert p.rgb()[0][:6] == bytes.fromhex("0000f8 00fc00")


def test_the_glass_is_dark_until_awake_and_on():
    p = S.Panel(SMALL)
    window(p, 0, 0, 0, 0)
    p.send(0x3A, b"\x55")
    p.send(0x21)
    p.send(0x2C, px(WHITE))
    assert not p.lit and p.rgb()[0] == bytes(12)
    assert p.rgb(raw=True)[0][:3] == bytes.fromhex("f8fcf8")
    p.send(0x11)
    p.send(0x29)
    assert p.lit and p.rgb()[0][:3] == bytes.fromhex("f8fcf8")
    p.send(0x28)
    assert p.rgb()[0] == bytes(12)
    p.send(0x29)
    p.send(0x01)                                   # SWRESET: registers back, memory kept
    assert (p.madctl, p.colmod, p.inverted, p.lit) == (0, 0x66, False, False)
    assert (p.caset, p.raset) == ([0, 239], [0, 319])
    assert p.rgb(raw=True)[0][:3] == bytes.fromhex("070307")


def test_madctl_maps_the_hosts_addresses_to_memory():
    """Section 8.12: MV exchanges (CASET drives the memory's row), then MX
    mirrors the column (239 - c), MY the row (319 - r)."""
    want = {0x00: [(1, 2), (2, 2), (1, 3)],
            0x40: [(238, 2), (237, 2), (238, 3)],          # MX
            0x80: [(1, 317), (2, 317), (1, 316)],          # MY
            0xC0: [(238, 317), (237, 317), (238, 316)],    # MX MY: adafruit_st7789's
            0x20: [(2, 1), (2, 2), (3, 1)],                # MV
            0x60: [(237, 1), (237, 2), (236, 1)],          # MV MX
            0xA0: [(2, 318), (2, 317), (3, 318)],          # MV MY
            0x10: [(1, 2), (2, 2), (1, 3)],                # ML: scan order only
            }
    for m, cells in want.items():
        p = lit(madctl=m)
        window(p, 1, 2, 2, 3)
        p.send(0x2C, px(RED, GREEN, BLUE))
        assert [at(p, c, r) for c, r in cells] == [0xF80000, 0x00FC00, 0x0000F8], hex(m)
        assert p.pixels == 3


def test_with_mv_the_window_can_reach_past_column_239():
    p = lit(madctl=0x20)
    window(p, 319, 320, 239, 239)                  # host column 319 is memory row 319
    p.send(0x2C, px(RED, GREEN))
    assert at(p, 239, 319) == 0xF80000 and p.dropped == 1


def test_18_and_12_bit_colours():
    p = lit(colmod=0x66)
    window(p, 0, 3, 0, 0)
    p.send(0x2C, bytes.fromhex("fc0000 00fc00 0000"))
    p.data(bytes.fromhex("fc"))
    assert [at(p, c, 0) for c in range(3)] == [0xFC0000, 0x00FC00, 0x0000FC]
    p.send(0x3A, b"\x53")
    p.send(0x2C, bytes.fromhex("f0000f"))          # 4 bits each, two pixels in 3 bytes
    assert [at(p, c, 0) for c in range(2)] == [0xF00000, 0x0000F0]


def test_the_pico_display_view_is_the_glass_displayio_writes_at_rotation_270():
    """Viewer (x, y) is host column 53 + y, row 279 - x (what Blinka's
    displayio sends at rotation 270), memory column 186 - y, row 40 + x
    through MADCTL 0xC0: the glass is columns 52..186, rows 40..279."""
    v = S.PICO_DISPLAY
    assert (v.width, v.height) == (240, 135)
    for x, y in [(0, 0), (239, 0), (0, 134), (239, 134), (17, 99)]:
        host_c, host_r = 53 + y, 279 - x
        assert v.memory(x, y) == (239 - host_c, 319 - host_r)
    cols = {i % 240 for i in v.index}
    rows = {i // 240 for i in v.index}
    assert (min(cols), max(cols), min(rows), max(rows)) == (52, 186, 40, 279)


def test_unknown_commands_are_counted():
    p = lit()
    p.send(0x33, bytes(6))                         # vertical scroll: not modelled
    p.send(0xB2, bytes(5))                         # porch: nothing to show
    assert dict(p.unhandled) == {0x33: 1}


def test_the_runners_log_format_parses():
    """tools/rp2040/FORMAT.md's lines; what else the parser reads."""
    assert L.parse_line("C 2a 1.234567") == ("C", b"\x2a", 1.234567)
    assert L.parse_line("D 0000003f") == ("D", bytes.fromhex("0000003f"), None)
    assert L.parse_line("C 2a") == ("C", b"\x2a", None)
    assert L.parse_line("d 00 35 00BB") == ("D", b"\x00\x35\x00\xbb", None)
    assert L.parse_line("  # a note") is None and L.parse_line("") is None
    text = L.encode([(False, b"\x2c"), (True, bytes(5000))], times=[0.5, 0.5])
    assert text.splitlines()[0] == "# altar-spi 1"
    assert text.splitlines()[1] == "C 2c 0.500000"
    assert [len(line) for line in text.splitlines()[2:4]] == [2 + 8192, 2 + 1808]
    assert text.splitlines()[-1] == "# end 0.500000 5001"
    assert [(d, len(b), t) for d, b, t in L.parse(text.splitlines())] == [
        ("C", 1, 0.5), ("D", 4096, None), ("D", 904, None)]
    try:
        list(L.parse(["# altar-spi 2"]))
        raise AssertionError("version 2 read")
    except ValueError:
        pass


def test_decode_checks_the_end_line_and_stops_at_a_time(tmp_path):
    runs = [(False, b"\x11"), (False, b"\x29"), (False, b"\x21"), (False, b"\x3a"),
            (True, b"\x55")]
    frame = []
    for t, colour in ((1.0, RED), (2.0, GREEN)):
        for c, d in [(0x2A, "003500bb"), (0x2B, "00280117")]:
            frame += [(False, bytes([c])), (True, bytes.fromhex(d))]
        frame += [(False, b"\x2c"), (True, px(colour) * (135 * 240))]
    times = [0.0] * 5 + [1.0] * 6 + [2.0] * 6
    path = tmp_path / "spi.txt"
    path.write_text(L.encode(runs + frame, times))
    assert L.decode(str(path), S.Panel()).rgb()[0][:3] == bytes.fromhex("00fc00")
    at_1 = L.decode(str(path), S.Panel(), until=1.5)
    assert at_1.rgb()[0][:3] == bytes.fromhex("f80000") and at_1.time == 1.0
    moments = [0.5, 1.0, 1.5, 2.5]
    assert L.glass_at(str(path), moments, S.Panel()) == [
        L.decode(str(path), S.Panel(), until=t).rgb() for t in moments]
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-3] + lines[-1:]) + "\n")   # a lost D line
    try:
        L.decode(str(path), S.Panel())
        raise AssertionError("a truncated log decoded")
    except ValueError as e:
        assert "end line counts" in str(e)


def test_tft_espis_four_rotations_of_a_135x240_panel_fill_the_same_glass():
    """TFT_eSPI's ST7789_Rotation.h (CGRAM_OFFSET, width 135), an independent
    driver: MADCTL and offsets of each rotation; every one writes exactly the
    memory the PICO_DISPLAY view shows (columns 52..186, rows 40..279)."""
    glass = set(S.PICO_DISPLAY.index)
    for madctl, (c0, c1), (r0, r1) in [(0x00, (52, 186), (40, 279)),
                                        (0x60, (40, 279), (53, 187)),     # MX MV
                                        (0xC0, (53, 187), (40, 279)),     # MX MY
                                        (0xA0, (40, 279), (52, 186))]:    # MV MY
        p = lit(madctl=madctl)
        window(p, c0, c1, r0, r1)
        p.send(0x2C, px(WHITE) * (135 * 240))
        assert {i for i, v in enumerate(p.ram) if v} == glass, hex(madctl)
