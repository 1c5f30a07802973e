"""The device: journal, engine, screens, keys and lights in one loop.

Hardware is passed in (see boards/): a display (`root_group`, `refresh`;
or `draw(canvas)`, one that sends the canvas's changes itself, glass.Glass), a
keypad-like `keys` (`events.get_into`), a pixel strip, an optional rotary
encoder, the profile's keymap, and `nvm` (microcontroller.nvm on the board,
a flash-rules file in the emulator), the settings' text of ALTAR_LANG
and ALTAR_PLAYERS, and `collect` (gc.collect on the board). The game itself
is kept by a journal.Store, the Ui's sink. The serial console: `write` takes
what the device prints (the export, and with `stream` each journaled line
for `altar live`), and `runtime` (supervisor.runtime: its
serial_bytes_available) and `stdin` (sys.stdin) bring the host's requests.
"""

from altar.core import const
from altar_fw.canvas import Canvas
from altar_fw.inputs import NEXT, PREV, VALUE, Presses, ticks_diff
from altar_fw.journal import SYNC, Store
from altar_fw.lights import Lights
from altar_fw.ui import COLS, Ui

_TOLD_MS = const(3000)      # how long an undo's account stays before the game's screen returns


class App:
    def __init__(self, display, keys, pixels, encoder, keymap, nvm, font, event,
                 scale=1, colours=(0xFFFFFF, 0x000000), write=None, seed=0, lang="pt",
                 players="", collect=None, stream=False, runtime=None, stdin=None):
        self.display = display
        self.keys = keys
        self.event = event              # one keypad.Event, reused for every key event
        self.presses = Presses(keymap)
        self.encoder = encoder
        self.pos = encoder.position if encoder else 0
        self.told_at = 0
        self.collect = collect
        self.lights = Lights(pixels)
        self.store = Store(nvm, write, stream)
        self.runtime = runtime
        self.stdin = stdin
        self.heard = 0          # how much of SYNC the console has brought so far
        self.canvas = Canvas(display.width, display.height, font, COLS, scale, colours[0],
                             colours[1])
        display.auto_refresh = False
        display.root_group = self.canvas.group
        self.draw = getattr(display, "draw", None)
        numbered = False
        for short, _ in keymap:
            numbered = numbered or short > VALUE
        self.ui = Ui(self.store, seed, lang, players, numbered)
        self.ui.boot()
        self.ui.say_settings()
        self.redraw(0)

    # -- the loop ----------------------------------------------------------------

    def step(self, now):
        """The lights, then pending key and encoder events (what they change
        shows on the lights at the next step, after the redraw)."""
        self.lights.tick(now)
        ui = self.ui
        moved = False
        ev = self.event
        while self.keys.events.get_into(ev):
            key = self.presses.event(ev.key_number, ev.pressed, ev.timestamp)
            if key:
                ui.press(key)
                moved = True
        if self.encoder:
            p = self.encoder.position
            while p != self.pos:
                ui.press(NEXT if p > self.pos else PREV)
                self.pos += 1 if p > self.pos else -1
                moved = True
        if moved:
            self.redraw(now)
        elif ui.told and ticks_diff(now, self.told_at) >= _TOLD_MS:
            ui.quiet()
            self.redraw(now)
        if self.runtime and self.runtime.serial_bytes_available:
            self.hear()

    def hear(self):
        """Read what waits on the console (never blocking) for SYNC, the
        host's request for the whole game; anything else is dropped."""
        while self.runtime.serial_bytes_available:
            c = self.stdin.read(1)
            n = self.heard
            if c == SYNC[n]:
                n += 1
            else:
                n = 1 if c == SYNC[0] else 0
            if n == len(SYNC):
                n = 0
                self.store.export()
            self.heard = n

    def redraw(self, now):
        """The screen first; then the lights, the Ui's work left for after
        the glass, and the garbage: what a press left is collected once it
        is on the glass, so that the next press runs with the heap clean
        and pays for no collection (a press allocates about 2 KB, a
        collection costs 2-6 ms on the board)."""
        ui = self.ui
        if ui.told:
            self.told_at = now
        s = ui.draw()
        self.canvas.show(s)
        if self.draw:
            self.draw(self.canvas)
        else:
            self.display.refresh()
        rules = ui.session.rules if ui.session else None
        self.lights.seat(s.seat, getattr(rules, "banished", -1))
        if ui.event:
            self.lights.start(ui.event)
        self.store.tell()
        ui.idle()
        if self.collect:
            self.collect()
