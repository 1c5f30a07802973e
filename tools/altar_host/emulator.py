"""The device on CPython: the firmware's own modules with fake hardware that
keeps CircuitPython's APIs (Blinka and adafruit-blinka-displayio underneath).

- FrameDisplay: a busdisplay.BusDisplay without a bus; each refreshed area is
  copied into an RGB framebuffer (mono boards show it as the panel would).
- Keys: keypad's EventQueue API (get, get_into) fed by the emulator, with
  timestamps from a virtual clock (Blinka's keypad scans pins in a thread
  and its deinit hangs).
- Pixels: a NeoPixel-like strip.
- FlashNVM: microcontroller.nvm with RP2040 flash rules, in memory or a file:
  a write into erased (0xFF) bytes programs them; any other write erases the
  4 KB sector and programs it again. A power cut can be set to strike after
  k bytes of the next write (PowerCut is raised; the device reboots).
- Device: a board profile, those fakes and the firmware's App, on a
  virtual millisecond clock; `press("ok")`, `text()`, `png()`, `reboot()`.
"""

import contextlib
import io
import os
import zlib

# Blinka prints a warning on stdout when it imports on a PC ("GENERIC_X86 is
# not fully supported"); the emulator needs none of the pins it warns about.
with contextlib.redirect_stdout(io.StringIO()):
    import busdisplay
    import displayio
    from adafruit_bitmap_font import bitmap_font
    from displayio._area import Area

import boards
from altar_fw import inputs
from altar_fw.app import App
from altar_fw.journal import BEGIN, END

SECTOR = 4096
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The font the board loads from /fonts (see firmware/code.py).
FONT = os.path.join(ROOT, "firmware", "fonts", "altar-mono-12.bdf")
WORDS = {"prev": inputs.PREV, "next": inputs.NEXT, "ok": inputs.OK, "back": inputs.BACK,
         "undo": inputs.UNDO}


class PowerCut(Exception):
    """The power failed during a flash write."""


class FlashNVM:
    """microcontroller.nvm on the RP2040, by its flash rules."""

    def __init__(self, path=None, size=SECTOR):
        self.path = path
        self.data = bytearray(b"\xff" * size)
        if path and os.path.exists(path):
            with open(path, "rb") as f:
                got = f.read()
            self.data[:len(got)] = got[:size]
        self.cut_after = -1     # bytes the next write programs before the power fails
        self.chaos = None       # (per cent, rng): cut that often, at a random byte
        self.erases = 0
        self.programs = 0
        self.writes = 0

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        return self.data[i] if isinstance(i, int) else bytes(self.data[i])

    def __setitem__(self, i, value):
        if isinstance(i, int):
            i = slice(i, i + 1)
            value = bytes((value,))
        start, stop, _ = i.indices(len(self.data))
        value = bytes(value)
        if len(value) != stop - start:
            raise ValueError("nvm slice assignment must keep the length")
        self.writes += 1
        if all(b == 0xFF for b in self.data[start:stop]):
            self.programs += 1
            self._program(start, value)
        else:
            # Erase the sector, then program it whole with the new content.
            self.erases += 1
            content = bytearray(self.data)
            content[start:stop] = value
            self.data[:] = b"\xff" * len(self.data)
            self._program(0, bytes(content))

    def _program(self, start, value):
        k = len(value)
        if self.chaos and self.chaos[1].random() * 100 < self.chaos[0]:
            self.cut_after = self.chaos[1].randrange(k)
        cut = 0 <= self.cut_after < k
        if cut:
            k = self.cut_after
        for j in range(k):
            self.data[start + j] &= value[j]    # programming only clears bits
        self.cut_after = -1
        self._save()
        if cut:
            raise PowerCut("power cut after %d of %d bytes" % (k, len(value)))

    def _save(self):
        if self.path:
            with open(self.path, "wb") as f:
                f.write(self.data)


class Event:
    """keypad.Event."""

    def __init__(self, key_number=0, pressed=True, timestamp=0):
        self.key_number = key_number
        self.pressed = pressed
        self.released = not pressed
        self.timestamp = timestamp


class EventQueue:
    """keypad.EventQueue, fed by the emulator."""

    def __init__(self):
        self.queue = []

    def append(self, key, pressed, ms):
        self.queue.append((key, pressed, ms))

    def get_into(self, ev):
        if not self.queue:
            return False
        ev.key_number, ev.pressed, ev.timestamp = self.queue.pop(0)
        ev.released = not ev.pressed
        return True

    def get(self):
        ev = Event()
        return ev if self.get_into(ev) else None

    def __len__(self):
        return len(self.queue)


class Keys:
    """keypad.Keys without pins."""

    def __init__(self, n):
        self.key_count = n
        self.events = EventQueue()


class Pixels:
    """A NeoPixel strip (auto_write off): `shown` is what the LEDs show."""

    def __init__(self, n):
        self.buf = [0] * n
        self.shown = [0] * n
        self.shows = 0

    def __len__(self):
        return len(self.buf)

    def __setitem__(self, i, c):
        self.buf[i] = c

    def __getitem__(self, i):
        return self.buf[i]

    def fill(self, c):
        for i in range(len(self.buf)):
            self.buf[i] = c

    def show(self):
        self.shown = list(self.buf)
        self.shows += 1


class FrameDisplay(busdisplay.BusDisplay):
    """A display without a bus: refreshed areas land in `frame` (RGB565)."""

    # Blinka's displayio thread visits every display once __new__ has
    # registered it, before __init__ runs; off, it leaves this one alone.
    _auto_refresh = False

    def __init__(self, width, height, mono, capture=True):
        super().__init__(None, b"", width=width, height=height, color_depth=16,
                         auto_refresh=False)
        self.mono = mono
        self.capture = capture    # False: skip Blinka's per-pixel fill (fast runs)
        self.frame = [0] * (width * height)
        self.refreshes = 0

    def _refresh_area(self, area):
        clipped = Area()
        if not self._core.clip_area(area, clipped) or not self.capture:
            return True
        w = clipped.width()
        h = clipped.height()
        buf = memoryview(bytearray(4 * ((w * h + 1) // 2))).cast("I")
        mask = memoryview(bytearray(4 * ((w * h) // 32 + 1))).cast("I")
        self._core.fill_area(clipped, mask, buf)
        px = buf.cast("B").cast("H")
        width = self._core.width
        for j in range(h):
            row = (clipped.y1 + j) * width + clipped.x1
            for i in range(w):
                v = px[j * w + i]
                self.frame[row + i] = (v >> 8 | v << 8) & 0xFFFF   # bytes come swapped
        self.refreshes += 1
        return True

    def rgb(self, x, y):
        v = self.frame[y * self._core.width + x]
        r, g, b = (v >> 11) << 3, (v >> 5 & 0x3F) << 2, (v & 0x1F) << 3
        if self.mono:     # an OLED pixel is on or off
            return (255, 255, 255) if r * 3 + g * 6 + b > 1280 else (0, 0, 0)
        return r, g, b


# -- PNG, written and read without Pillow (filter 0, 8-bit RGB) ------------------

def png_bytes(width, height, rgb, scale=1):
    raw = bytearray()
    for y in range(height):
        row = bytearray()
        for x in range(width):
            row.extend(bytes(rgb(x, y)) * scale)
        for _ in range(scale):
            raw.append(0)
            raw.extend(row)
    width *= scale
    height *= scale

    def chunk(kind, data):
        c = kind + data
        return len(data).to_bytes(4, "big") + c + zlib.crc32(c).to_bytes(4, "big")

    ihdr = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes((8, 2, 0, 0, 0))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(bytes(raw), 9))
            + chunk(b"IEND", b""))


def png_pixels(data):
    """(width, height, RGB rows as bytes) of a PNG that png_bytes wrote."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    p = 8
    idat = b""
    while p < len(data):
        n = int.from_bytes(data[p:p + 4], "big")
        kind = data[p + 4:p + 8]
        body = data[p + 8:p + 8 + n]
        if kind == b"IHDR":
            w = int.from_bytes(body[:4], "big")
            h = int.from_bytes(body[4:8], "big")
        elif kind == b"IDAT":
            idat += body
        p += 12 + n
    raw = zlib.decompress(idat)
    stride = 1 + 3 * w
    return w, h, [raw[y * stride + 1:(y + 1) * stride] for y in range(h)]


# -- the emulated device --------------------------------------------------------------

class Device:
    """A board profile's firmware on fake hardware and a virtual clock."""

    def __init__(self, board="macropad", nvm=None, seed=0, serial=None, capture=True, lang="pt"):
        self.profile = boards.load(board.replace("-", "_"))
        p = self.profile
        self.name = board
        self.lang = lang
        self.nvm = nvm if nvm is not None else FlashNVM()
        self.seed = seed
        self.serial = serial if serial is not None else []
        self.now = 0
        displayio.release_displays()    # as a profile's build() does; Blinka allows one
        self.display = FrameDisplay(p.WIDTH, p.HEIGHT, p.COLOURS == (0xFFFFFF, 0), capture)
        self.pixels = Pixels(p.PIXELS)
        self.font = load_font()
        self.boots = 0
        self.cuts = 0
        self.pressed = []          # every key word pressed, in order
        self.boot()

    def boot(self):
        """Power on: the firmware starts over from the journal in NVM."""
        p = self.profile
        self.keys = Keys(len(p.KEYMAP))
        self.encoder = Encoder() if p.ENCODER else None
        self.app = App(self.display, self.keys, self.pixels, self.encoder, p.KEYMAP, self.nvm,
                       self.font, Event(), p.SCALE, p.COLOURS, self.serial.append,
                       self.seed + self.boots, self.lang)
        self.boots += 1

    def tick(self, ms):
        """Let ms pass and run the loop; a power cut reboots the device."""
        self.now += ms
        try:
            self.app.step(self.now)
        except PowerCut:
            self.cuts += 1
            self.boot()

    def key(self, k, hold=80):
        """Press and release key number k, holding it `hold` ms."""
        self.keys.events.append(k, True, self.now)
        self.tick(hold)
        self.keys.events.append(k, False, self.now)
        self.tick(40)

    def press(self, word):
        """A logical input by name ("ok", "undo", "3" for VALUE + 3), as this
        board makes it: the key that gives it, short or held."""
        want = inputs.VALUE + int(word) if word.isdigit() else WORDS[word]
        self.pressed.append(word)
        for k, (short, long) in enumerate(self.profile.KEYMAP):
            if short == want:
                return self.key(k)
        for k, (short, long) in enumerate(self.profile.KEYMAP):
            if long == want:
                return self.key(k, inputs.LONG_MS + 100)
        if self.encoder and want in (inputs.PREV, inputs.NEXT):
            self.encoder.position += 1 if want == inputs.NEXT else -1
            return self.tick(40)
        raise KeyError("%s has no key for %r" % (self.name, word))

    def can(self, word):
        want = inputs.VALUE + int(word) if word.isdigit() else WORDS[word]
        return any(want in m for m in self.profile.KEYMAP)

    def text(self):
        """The text rows the screen shows now."""
        return [r[0] for r in self.app.canvas.shown]

    def png(self, scale=1):
        d = self.display
        return png_bytes(d.width, d.height, d.rgb, scale)

    def export(self):
        """The session log the device prints when asked (menu: Export log)."""
        del self.serial[:]
        self.app.store.export()
        return dump_to_log("".join(self.serial))


_FONT = []


def load_font():
    """The board's font, loaded once: glyphs are read on demand and never change."""
    if not _FONT:
        _FONT.append(bitmap_font.load_font(FONT))
    return _FONT[0]


class Encoder:
    """rotaryio.IncrementalEncoder."""

    def __init__(self):
        self.position = 0


def dump_to_log(text):
    """The lines between the device's export markers: a session log."""
    lines = text.splitlines()
    if BEGIN in lines:
        lines = lines[lines.index(BEGIN) + 1:]
        if END not in lines:
            raise ValueError("the dump has no end marker: it was cut short")
        lines = lines[:lines.index(END)]
        return "".join(ln + "\n" for ln in lines)
    raise ValueError("no Altar log in this dump")
