"""An ST7789 as the panel sees it: decode the bytes sent to the chip over SPI
(each run with the D/C line's level) into the picture on the glass.

The model, from the ST7789V datasheet:

- Frame memory: 240 columns x 320 rows of pixels, kept here as 0xRRGGBB
  (65K colours expand by a left shift, r5 << 3, g6 << 2, b5 << 3, as the
  emulator's FrameDisplay does; 262K: << 2; 4K: << 4). Power on and SWRESET
  leave it as it was (zero at power on here).
- CASET (0x2A) / RASET (0x2B) set the window in the host's address space;
  RAMWR (0x2C) starts at its top left and fills it column first, row after
  row, wrapping to the top when it is full; RAMWRC (0x3C) goes on from where
  the last write stopped. A pixel's bytes may span data runs; a command drops
  an unfinished pixel.
- MADCTL (0x36) maps host addresses to the memory (section 8.12's table):
  MV exchanges them (CASET then drives the memory's row, RASET its column),
  then MX mirrors the memory column (239 - c), MY the memory row (319 - r).
  It applies to later writes; what is already in memory stays. The RGB/BGR
  bit (0x08) swaps red and blue; ML and MH only change the scan order.
- COLMOD (0x3A): low nibble 5 = 16 bits per pixel (big-endian RGB565, what
  displayio sends), 6 = 18 bits (3 bytes), 3 = 12 bits (3 bytes, 2 pixels).
- INVON/INVOFF (0x21/0x20) invert what the glass shows; an IPS glass like
  the Pico Display Pack's is itself inverted, so it shows true colours with
  inversion on (adafruit_st7789 sends INVON).
- SLPIN/SLPOUT (0x10/0x11), DISPOFF/DISPON (0x28/0x29): the glass is black
  unless the chip is awake and the display on (rgb(raw=True) shows anyway).
- Vertical scrolling, partial and idle modes are not modelled: `unhandled`
  counts those commands (and any other unknown one) so a caller can notice.

The glass is a window of the memory, seen at some orientation: a `View`
gives the viewer's size and, for viewer pixel (0, 0) and a step right and a
step down, the memory column and row. PICO_DISPLAY is the Pimoroni Pico
Display Pack as adafruit_st7789 drives it with rotation=270, colstart=53,
rowstart=40 (boards/pico_display.py): MADCTL 0xC0 (MX, MY), and displayio
writes viewer pixel (x, y) at host column 53 + y, row 279 - x, so memory
column 186 - y, row 40 + x; the glass covers memory columns 52..186 and rows
40..279. TFT_eSPI's four rotations of a 135x240 ST7789 (offsets 52 or 53,
40; MADCTL 0x00, MX|MV, MX|MY, MV|MY) all land on exactly that memory in
this model, which backs both the glass and the MV/MX/MY reading above.

The bytes come from the runner's log (altar_host.device.displaylog: decode,
glass_at), or from `feed` and `send` directly.
"""

import collections

from altar_host.device.emulator import init_steps, png_rgb

RAM_COLS = 240
RAM_ROWS = 320

NOP, SWRESET, SLPIN, SLPOUT, PTLON, NORON = 0x00, 0x01, 0x10, 0x11, 0x12, 0x13
INVOFF, INVON, DISPOFF, DISPON = 0x20, 0x21, 0x28, 0x29
CASET, RASET, RAMWR, RAMWRC = 0x2A, 0x2B, 0x2C, 0x3C
MADCTL, COLMOD = 0x36, 0x3A
MY, MX, MV, ML, BGR, MH = 0x80, 0x40, 0x20, 0x10, 0x08, 0x04

# Commands that change nothing on the glass (in this model) and take
# parameters the decoder just drops: tearing, gamma, porch, power, ...
QUIET = {NOP, NORON, 0x34, 0x35, 0x44, 0x51, 0x53, 0x55, 0x5E, 0xB0, 0xB2, 0xB7, 0xBB,
         0xC0, 0xC2, 0xC3, 0xC4, 0xC6, 0xD0, 0xE0, 0xE1, 0xE4, 0xE7, 0xE8, 0xE9}


class View:
    """The glass: width x height viewer pixels; viewer (0, 0) is memory
    (column, row) `origin`; one step right moves by `xstep`, one step down by
    `ystep` (each (dcolumn, drow))."""

    def __init__(self, width, height, origin, xstep, ystep):
        self.width = width
        self.height = height
        self.origin = origin
        self.xstep = xstep
        self.ystep = ystep
        c0, r0 = origin
        self.index = []           # memory index of each viewer pixel, row by row
        for y in range(height):
            for x in range(width):
                c = c0 + x * xstep[0] + y * ystep[0]
                r = r0 + x * xstep[1] + y * ystep[1]
                assert 0 <= c < RAM_COLS and 0 <= r < RAM_ROWS, (x, y, c, r)
                self.index.append(r * RAM_COLS + c)

    def memory(self, x, y):
        """(column, row) in memory of viewer pixel (x, y)."""
        c0, r0 = self.origin
        return (c0 + x * self.xstep[0] + y * self.ystep[0],
                r0 + x * self.xstep[1] + y * self.ystep[1])


PICO_DISPLAY = View(240, 135, origin=(186, 40), xstep=(0, 1), ystep=(-1, 0))

_RGB565 = None


def _rgb565():
    global _RGB565
    if _RGB565 is None:
        _RGB565 = [(v >> 11) << 19 | (v >> 5 & 0x3F) << 10 | (v & 0x1F) << 3
                   for v in range(65536)]
    return _RGB565


class Panel:
    """An ST7789 and its glass. feed(is_data, bytes) for each run sent."""

    def __init__(self, view=PICO_DISPLAY, ips=True):
        self.view = view
        self.ips = ips                  # the glass inverts (shows true colours with INVON)
        self.ram = [0] * (RAM_COLS * RAM_ROWS)
        self.commands = collections.Counter()    # every command byte received
        self.unhandled = collections.Counter()   # ones this model ignores
        self.pixels = 0                 # pixels written to memory
        self.time = None                # emulated seconds of the last command read (decode)
        self.dropped = 0                # data bytes with nowhere to go
        self.reset()

    def reset(self):
        """Power on / SWRESET: registers to their defaults (memory kept)."""
        self.madctl = 0
        self.colmod = 0x66
        self.inverted = False
        self.asleep = True
        self.on = False
        self.caset = [0, RAM_COLS - 1]
        self.raset = [0, RAM_ROWS - 1]
        self.cmd = None
        self.params = bytearray()
        self.writing = False
        self.partial = b""
        self.x = self.y = 0

    # -- the bus ----------------------------------------------------------------------

    def feed(self, is_data, data):
        """A run of bytes: commands (is_data false, or "C") or data (true, "D")."""
        if isinstance(is_data, str):
            is_data = is_data.upper() == "D"
        if is_data:
            self.data(data)
        else:
            for c in bytes(data):
                self.command(c)

    def init(self, seq):
        """A busdisplay init sequence (emulator.init_steps)."""
        for cmd, params in init_steps(seq):
            self.send(cmd, params)

    def send(self, cmd, params=b""):
        """A command and its parameters, as one call (tests, scripts)."""
        self.command(cmd)
        if params:
            self.data(params)

    def command(self, c):
        self.commands[c] += 1
        self.cmd = c
        self.params = bytearray()
        self.writing = False
        self.partial = b""
        if c == SWRESET:
            self.reset()
        elif c == SLPIN:
            self.asleep = True
        elif c == SLPOUT:
            self.asleep = False
        elif c == DISPOFF:
            self.on = False
        elif c == DISPON:
            self.on = True
        elif c == INVOFF:
            self.inverted = False
        elif c == INVON:
            self.inverted = True
        elif c == RAMWR:
            self.writing = True
            self.x, self.y = self.caset[0], self.raset[0]
        elif c == RAMWRC:
            self.writing = True
        elif c not in (CASET, RASET, MADCTL, COLMOD) and c not in QUIET:
            self.unhandled[c] += 1

    def data(self, data):
        data = bytes(data)
        if not data:
            return
        if self.writing:
            return self._pixels(data)
        c = self.cmd
        if c in (CASET, RASET, MADCTL, COLMOD):
            self.params += data
            p = self.params
            if c == MADCTL:
                self.madctl = p[0]
            elif c == COLMOD:
                self.colmod = p[0]
            elif len(p) >= 4:
                window = self.caset if c == CASET else self.raset
                window[:] = [p[0] << 8 | p[1], p[2] << 8 | p[3]]
        elif c is None:
            self.dropped += len(data)

    def _pixels(self, data):
        depth = self.colmod & 0x7
        data = self.partial + data
        if depth == 5:                              # 16 bits: RGB565, big-endian
            n = len(data) // 2
            table = _rgb565()
            colours = [table[data[2 * i] << 8 | data[2 * i + 1]] for i in range(n)]
            used = 2 * n
        elif depth == 6:                            # 18 bits: a byte each, top 6 bits
            n = len(data) // 3
            colours = [(data[3 * i] & 0xFC) << 16 | (data[3 * i + 1] & 0xFC) << 8
                       | data[3 * i + 2] & 0xFC for i in range(n)]
            used = 3 * n
        elif depth == 3:                            # 12 bits: 3 bytes, 2 pixels
            n = len(data) // 3
            colours = []
            for i in range(n):
                v = int.from_bytes(data[3 * i:3 * i + 3], "big")
                for w in (v >> 12, v & 0xFFF):
                    colours.append((w >> 8) << 20 | (w >> 4 & 0xF) << 12 | (w & 0xF) << 4)
            used = 3 * n
        else:
            self.dropped += len(data)
            self.partial = b""
            return
        self.partial = data[used:]
        self._write(colours)

    def _write(self, colours):
        m = self.madctl
        mv, mx, my = m & MV, m & MX, m & MY
        if m & BGR:
            colours = [(v & 0xFF) << 16 | (v & 0xFF00) | v >> 16 for v in colours]
        xs, xe = self.caset
        ys, ye = self.raset
        cols, rows = (RAM_ROWS, RAM_COLS) if mv else (RAM_COLS, RAM_ROWS)
        x, y = self.x, self.y
        ram = self.ram
        for v in colours:
            if x < cols and y < rows:
                c, r = (y, x) if mv else (x, y)
                if mx:
                    c = RAM_COLS - 1 - c
                if my:
                    r = RAM_ROWS - 1 - r
                ram[r * RAM_COLS + c] = v
                self.pixels += 1
            else:
                self.dropped += 1
            if x >= xe:
                x = xs
                y = ys if y >= ye else y + 1
            else:
                x += 1
        self.x, self.y = x, y

    # -- the glass --------------------------------------------------------------------

    @property
    def width(self):
        return self.view.width

    @property
    def height(self):
        return self.view.height

    @property
    def lit(self):
        """The glass shows the memory: the chip awake and the display on."""
        return self.on and not self.asleep

    def rgb(self, raw=False):
        """The glass: a list of rows, each bytes of R, G, B per pixel (as
        emulator.png_pixels gives a PNG). Black unless lit (raw: anyway)."""
        w, h = self.view.width, self.view.height
        if not raw and not self.lit:
            return [bytes(3 * w) for _ in range(h)]
        flip = 0xFFFFFF if self.inverted != self.ips else 0
        ram = self.ram
        out = []
        index = self.view.index
        for y in range(h):
            row = bytearray()
            for i in index[y * w:(y + 1) * w]:
                row += (ram[i] ^ flip).to_bytes(3, "big")
            out.append(bytes(row))
        return out

    def rgb565(self):
        """The glass as displayio's RGB565 values, row by row (what the host
        emulator's frame holds); the memory whatever the chip's state."""
        ram = self.ram
        seen = {}
        out = []
        for m in self.view.index:
            c = ram[m]
            v = seen.get(c)
            if v is None:
                v = seen[c] = (c >> 19) << 11 | (c >> 10 & 0x3F) << 5 | (c >> 3 & 0x1F)
            out.append(v)
        return out

    def png(self, scale=1, raw=False):
        return png_rgb(self.view.width, self.view.height, b"".join(self.rgb(raw)), scale)
