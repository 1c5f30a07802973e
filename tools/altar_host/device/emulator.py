"""The device on CPython: the firmware's own modules with fake hardware that
keeps CircuitPython's APIs (Blinka and adafruit-blinka-displayio underneath).

- Hardware: one power-on of a board. The profile's own build() runs on fake
  `board` (the board's pins), `busio`, `keypad`, `neopixel`, `rotaryio`,
  `pwmio` and display driver modules; displayio and its buses stay Blinka's.
- FrameDisplay: a busdisplay.BusDisplay without a bus; each refreshed area is
  copied into an RGB framebuffer (mono boards show it as the panel would).
  It is board.DISPLAY, and what a display driver makes.
- Keys: keypad's EventQueue API (get, get_into) fed by the emulator, with
  timestamps from a virtual clock (Blinka's keypad scans pins in a thread
  and its deinit hangs).
- Pixels: a NeoPixel-like strip.
- Encoder: rotaryio.IncrementalEncoder on the board's knob, counting a
  clockwise turn up or down by the order of its pins, as the board does.
- FlashNVM: microcontroller.nvm with RP2040 flash rules, in memory or a file:
  a write into erased (0xFF) bytes programs them; any other write erases the
  4 KB sector and programs it again. A power cut can be set to strike after
  k bytes of the next write (PowerCut is raised; the device reboots).
- Device: a board profile, those fakes and the firmware's App, on a virtual
  millisecond clock that runs as supervisor.ticks_ms does (from 0x1FFF0000,
  wrapping at 2**29 about 65 s in); `press("ok")`, `turn(1)`, `text()`,
  `png()`, `boot()`.
"""

import contextlib
import importlib
import io
import os
import sys
import types

from PIL import Image

# Blinka prints a warning on stdout when it imports on a PC ("GENERIC_X86 is
# not fully supported"); the emulator needs none of the pins it warns about.
with contextlib.redirect_stdout(io.StringIO()):
    import busdisplay
    import displayio
    import fourwire
    from displayio._area import Area

import boards
from altar_fw import inputs
from altar_fw.app import App
from altar_fw import font as font_mod
from altar_host.device.console import dump_to_log

SECTOR = 4096
TICKS_START = 0x1FFF0000   # supervisor.ticks_ms at power-on
TICKS_WRAP = 1 << 29       # it counts 29 bits
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
# The font the board loads from /fonts (see firmware/code.py).
FONT = os.path.join(ROOT, "firmware", "fonts", "altar-mono-12.bin")
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
    """keypad.Keys: its pins are never scanned, the emulator feeds its events."""

    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.02, max_events=64,
                 debounce_threshold=1):
        self.pins = tuple(pins)
        self.interval = interval
        self.key_count = len(self.pins)
        self.events = EventQueue()


class Pixels:
    """A NeoPixel strip (auto_write off): `shown` is what the LEDs show."""

    def __init__(self, n):
        self.buf = [0] * n
        self.shown = [0] * n

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


class NeoPixel(Pixels):
    """neopixel.NeoPixel: a strip on a pin."""

    def __init__(self, pin, n, *, bpp=3, brightness=1.0, auto_write=True, pixel_order=None):
        super().__init__(n)
        self.pin = pin
        self.brightness = brightness


class Encoder:
    """rotaryio.IncrementalEncoder on the pins (a, b). A turn of the board's
    knob counts up when (a, b) is `clockwise` and the turn is clockwise, down
    when either is the other way round; on other pins it counts nothing."""

    def __init__(self, pin_a, pin_b, clockwise):
        self.pins = (pin_a, pin_b)
        self.clockwise = clockwise
        self.position = 0

    def turn(self, clicks):
        """The knob turns `clicks` detents clockwise (negative: anticlockwise)."""
        if self.pins == self.clockwise:
            self.position += clicks
        elif self.pins == self.clockwise[::-1]:
            self.position -= clicks


class FrameDisplay(busdisplay.BusDisplay):
    """A display without a bus: refreshed areas land in `frame` (RGB565)."""

    # Blinka's displayio thread visits every display once __new__ has
    # registered it, before __init__ runs; off, it leaves this one alone.
    _auto_refresh = False

    def __init__(self, width, height, mono, capture=True, chip=None):
        super().__init__(None, b"", width=width, height=height, color_depth=16,
                         auto_refresh=False)
        self.mono = mono
        self.capture = capture    # False: skip Blinka's per-pixel fill (fast runs)
        self._frame = [0] * (width * height)
        self.chip = chip          # the model of a board's own display (its bus: `bus`)
        self.panel = None         # a panel model, once the firmware sends on the bus itself
        self.stale = False        # the panel's memory has pixels the frame lacks

    @property
    def frame(self):
        """The glass, RGB565 row by row: displayio's refreshes, or the
        panel's memory where the firmware writes it (glass.Glass, pages.Pages)."""
        if self.stale:
            self.stale = False
            self._frame = self.panel.rgb565()
        return self._frame

    @property
    def bus(self):
        """A board's own display's bus (board.DISPLAY.bus), which
        pages.Pages writes: it lands in the board's chip, `chip`."""
        return _OwnBus(self)

    def send(self, command, data, init):
        """A command the firmware sent on the display's bus itself
        (glass.Glass, pages.Pages): it lands in the panel's memory, which
        the frame then shows; `init`, the display's init sequence, starts an
        ST7789 (a board's own chip starts as its core starts it)."""
        if not self.capture:
            return
        if self.panel is None:
            if self.chip is not None:
                self.panel = self.chip.Panel()
                self.panel.init(self.chip.INIT)
            else:
                from altar_host.device import st7789
                self.panel = st7789.Panel()
                self.panel.init(init)
        self.panel.send(command, bytes(data))
        self.stale = True

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
                self._frame[row + i] = (v >> 8 | v << 8) & 0xFFFF   # bytes come swapped
        return True

    def rgb(self, x, y):
        return _rgb(self.frame[y * self._core.width + x], self.mono)

    def rgb_bytes(self):
        """The whole frame as R, G, B bytes row by row (for png_rgb)."""
        # Few distinct colours on a screen: each converted once.
        seen = {}
        out = bytearray()
        for v in self.frame:
            c = seen.get(v)
            if c is None:
                c = seen[v] = bytes(_rgb(v, self.mono))
            out += c
        return bytes(out)


def _rgb(v, mono):
    """(r, g, b) of an RGB565 pixel; on a mono board as the OLED shows it."""
    r, g, b = (v >> 11) << 3, (v >> 5 & 0x3F) << 2, (v & 0x1F) << 3
    if mono:     # an OLED pixel is on or off
        return (255, 255, 255) if r * 3 + g * 6 + b > 1280 else (0, 0, 0)
    return r, g, b


def rgb_led(duties):
    """The colour (0xRRGGBB) an RGB LED shows whose red, green and blue are
    active low PWM outputs at these duty cycles (0..0xFFFF)."""
    return sum((0xFFFF - d) >> 8 << 16 - 8 * i for i, d in enumerate(duties))


# -- the board a profile's build() runs on ---------------------------------------------

class Pin:
    """microcontroller.Pin: one GPIO, whatever names the board gives it."""

    def __init__(self, gpio):
        self.gpio = gpio

    def __repr__(self):
        return "GPIO%d" % self.gpio


class Lock:
    """busio's bus lock: try_lock fails while it is held."""

    locked = False

    def try_lock(self):
        if self.locked:
            return False
        self.locked = True
        return True

    def unlock(self):
        self.locked = False


class I2C(Lock):
    """busio.I2C (board.I2C()): keeps each write as (address, bytes)."""

    def __init__(self):
        self.writes = []

    def writeto(self, address, buffer, *, start=0, end=None):
        self.writes.append((address, bytes(buffer[start:end])))

    def deinit(self):
        pass


class SPI(Lock):
    """busio.SPI: its pins; what it writes goes nowhere."""

    def __init__(self, clock, MOSI=None, MISO=None, half_duplex=False):
        self.pins = (clock, MOSI, MISO)

    def configure(self, *, baudrate=100000, polarity=0, phase=0, bits=8):
        pass

    def write(self, buffer, *, start=0, end=None):
        pass

    def deinit(self):
        pass


class DigitalInOut:
    """digitalio.DigitalInOut: a line that keeps its value."""

    def __init__(self, pin):
        self.pin = pin
        self.value = False

    def switch_to_output(self, value=False, drive_mode=None):
        self.value = value

    def deinit(self):
        pass


class PWMOut:
    """pwmio.PWMOut: keeps its duty cycle."""

    def __init__(self, pin, *, duty_cycle=0, frequency=500, variable_frequency=False):
        self.pin = pin
        self.duty_cycle = duty_cycle
        self.frequency = frequency

    def deinit(self):
        pass


class _OwnBus:
    """board.DISPLAY.bus of a board whose core makes its display."""

    def __init__(self, display):
        self.display = display

    def send(self, command, data, *, toggle_every_byte=False):
        self.display.send(command, data, None)


def init_steps(seq):
    """(command, parameters) of a busdisplay init sequence: each command,
    then its length (bit 7: a delay byte follows the parameters), then its
    parameters."""
    i = 0
    while i < len(seq):
        n = seq[i + 1] & 0x7F
        yield seq[i], seq[i + 2:i + 2 + n]
        i += 2 + n + (1 if seq[i + 1] & 0x80 else 0)


class FourWire(fourwire.FourWire):
    """Blinka's FourWire; what the firmware sends with `send` (glass.Glass)
    also reaches the display made on it (FrameDisplay.send), whose own
    refreshes never take the bus here."""

    screen = None       # that display, and its init sequence
    init = b""

    def send(self, command, data, *, toggle_every_byte=False):
        super().send(command, data, toggle_every_byte=toggle_every_byte)
        if self.screen is not None:
            self.screen.send(command, data, self.init)


def _module(name, **attrs):
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    return m


class Hardware:
    """One power-on of a board (a profile's name, either spelling): the
    modules its profile's build() imports, its emulated() pins and parts. `screen(width, height)` makes a display: board.DISPLAY,
    and what the fake display drivers return; `drivers` puts real driver
    modules in their place, by name. displayio, i2cdisplaybus and fourwire are
    Blinka's, on `i2c` (board.I2C(), which keeps what it carries) and `spis`.
    `pwms` are the PWM outputs made."""

    def __init__(self, name, screen, drivers=None):
        spec = boards.load(name).emulated()
        self.screen = screen
        self.i2c = I2C()
        self.spis = []
        self.pwms = []
        gpios = {}
        pins = {n: gpios.setdefault(g, Pin(g)) for n, g in spec["pins"].items()}
        self.knob = tuple(pins[n] for n in spec.get("knob", ()))
        self.rgb = tuple(pins[n] for n in spec.get("rgb", ()))
        board_id = dict(boards.BOARDS)[boards.profile_name(name)][0]
        board = _module("board", board_id=board_id, I2C=lambda: self.i2c, **pins)
        if "display" in spec:
            displayio.release_displays()     # as the core does before it makes board.DISPLAY
            board.DISPLAY = screen(*spec["display"], chip=spec.get("chip"))
        self.modules = {
            "board": board,
            "busio": _module("busio", SPI=self._spi),
            "digitalio": _module("digitalio", DigitalInOut=DigitalInOut),
            "keypad": _module("keypad", Keys=Keys, Event=Event, EventQueue=EventQueue),
            "neopixel": _module("neopixel", NeoPixel=NeoPixel),
            "rotaryio": _module("rotaryio", IncrementalEncoder=self._encoder),
            "pwmio": _module("pwmio", PWMOut=self._pwm),
            "adafruit_displayio_sh1107": _module("adafruit_displayio_sh1107", SH1107=self._driver),
            "busdisplay": _module("busdisplay", BusDisplay=self._driver),
            "fourwire": _module("fourwire", FourWire=FourWire),
        }
        self.modules.update(drivers or {})

    def _spi(self, *args, **kw):
        self.spis.append(SPI(*args, **kw))
        return self.spis[-1]

    def _pwm(self, *args, **kw):
        self.pwms.append(PWMOut(*args, **kw))
        return self.pwms[-1]

    def _encoder(self, pin_a, pin_b):
        return Encoder(pin_a, pin_b, self.knob)

    def _driver(self, bus, *init, **kw):
        screen = self.screen(kw["width"], kw["height"])
        if isinstance(bus, FourWire):
            bus.screen = screen
            bus.init = bytes(init[0])
        return screen

    def build(self, profile):
        """The profile's build() on this board: (display, keys, pixels, encoder)."""
        saved = {name: sys.modules.get(name) for name in self.modules}
        sys.modules.update(self.modules)
        # Blinka's FourWire drives its command and chip select lines with
        # digitalio, which has no pins on a PC.
        lines = fourwire.digitalio
        fourwire.digitalio = self.modules["digitalio"]
        try:
            return profile.build()
        finally:
            fourwire.digitalio = lines
            for name, m in saved.items():
                if m is None:
                    del sys.modules[name]
                else:
                    sys.modules[name] = m


# -- PNG, by Pillow ------------------------------------------------------------------

def png_rgb(width, height, data, scale=1):
    """A PNG of `data`, width * height pixels of R, G, B bytes row by row,
    each pixel `scale` times as wide and high."""
    img = Image.frombytes("RGB", (width, height), bytes(data))
    if scale != 1:
        img = img.resize((width * scale, height * scale), Image.NEAREST)
    out = io.BytesIO()
    img.save(out, "PNG")
    return out.getvalue()


def png_pixels(data):
    """(width, height, RGB rows as bytes) of any PNG: comparing these, not
    the files' bytes, keeps goldens equal however they were compressed."""
    with Image.open(io.BytesIO(data)) as img:
        w, h = img.size
        raw = img.convert("RGB").tobytes()
    return w, h, [raw[y * 3 * w:(y + 1) * 3 * w] for y in range(h)]


# -- the emulated device --------------------------------------------------------------

class Console:
    """The serial console's input as the firmware sees it: supervisor.runtime
    (serial_bytes_available) and sys.stdin (read) in one; `send` types."""

    def __init__(self):
        self.waiting = ""

    @property
    def serial_bytes_available(self):
        return len(self.waiting.encode())

    def read(self, n):
        got, self.waiting = self.waiting[:n], self.waiting[n:]
        return got

    def send(self, text):
        self.waiting += text


class Device:
    """A board profile's firmware on fake hardware and a virtual clock.
    `serial` collects what it prints; `console.send` types on its console."""

    def __init__(self, board="macropad", nvm=None, seed=0, serial=None, capture=True, lang="pt",
                 players="", stream=True):
        self.profile = boards.load(board)
        self.name = board
        self.lang = lang
        self.players = players      # ALTAR_PLAYERS' text
        self.capture = capture
        self.nvm = nvm if nvm is not None else FlashNVM()
        self.seed = seed
        self.serial = serial if serial is not None else []
        self.stream = stream        # ALTAR_STREAM: the live stream on the console
        self.console = Console()
        self.font = load_font()
        self.boots = 0
        self.cuts = 0
        self.pressed = []          # every key word pressed, in order
        self.keyed = []            # every input: (key number, ms held) or ("turn", detents)
        self.boot()

    def screen(self, width, height, chip=None):
        """A display of the board (Blinka allows one: build() releases the last);
        `chip`, the model of a board's own display (board.DISPLAY's)."""
        if chip is not None:
            chip = importlib.import_module("altar_host.device." + chip)
        return FrameDisplay(width, height, self.profile.COLOURS == (0xFFFFFF, 0), self.capture,
                            chip)

    def boot(self):
        """Power on: code.py's start (the profile's build(), the font), then
        the firmware starts over from the journal in NVM."""
        p = self.profile
        self.now = TICKS_START
        self.hardware = Hardware(self.name, self.screen)
        shown, self.keys, self.pixels, self.encoder = self.hardware.build(p)
        # The FrameDisplay, also under a glass.Glass or pages.Pages (which send to it)
        self.display = getattr(shown, "display", shown)
        self.app = App(shown, self.keys, self.pixels, self.encoder, p.KEYMAP, self.nvm,
                       self.font, Event(), p.SCALE, p.COLOURS, self.serial.append,
                       self.seed + self.boots, self.lang, self.players, stream=self.stream,
                       runtime=self.console, stdin=self.console)
        self.boots += 1

    def tick(self, ms):
        """Let ms pass and run the loop; a power cut reboots the device."""
        self.now = (self.now + ms) % TICKS_WRAP
        try:
            self.app.step(self.now)
        except PowerCut:
            self.cuts += 1
            self.boot()

    def key(self, k, hold=80):
        """Press and release key number k, holding it `hold` ms."""
        self.keyed.append((k, hold))
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
            return self.turn(1 if want == inputs.NEXT else -1)
        raise KeyError("%s has no key for %r" % (self.name, word))

    def turn(self, clicks):
        """Turn the knob `clicks` detents clockwise (negative: anticlockwise)."""
        self.keyed.append(("turn", clicks))
        self.encoder.turn(clicks)
        self.tick(40)

    def can(self, word):
        want = inputs.VALUE + int(word) if word.isdigit() else WORDS[word]
        return any(want in m for m in self.profile.KEYMAP)

    def text(self):
        """The text rows the screen shows now."""
        return [r[0] for r in self.app.canvas.shown]

    def lit(self):
        """The colour each LED shows (0xRRGGBB): a strip's, or an RGB LED's
        from its three PWM outputs (active low)."""
        if isinstance(self.pixels, Pixels):
            return self.pixels.shown
        duty = {p.pin: p.duty_cycle for p in self.hardware.pwms}
        return [rgb_led([duty[pin] for pin in self.hardware.rgb])]

    def png(self, scale=1):
        d = self.display
        return png_rgb(d.width, d.height, d.rgb_bytes(), scale)

    def export(self):
        """The session log the device prints when asked (menu: Export log)."""
        del self.serial[:]
        self.app.store.export()
        return dump_to_log("".join(self.serial))


_FONT = []


def load_font():
    """The board's font, loaded once: glyphs never change once read."""
    if not _FONT:
        _FONT.append(font_mod.load(FONT))
    return _FONT[0]
