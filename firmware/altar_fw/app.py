"""The device: journal, engine, screens, keys and lights in one loop.

Hardware is passed in (see boards/): a display (`root_group`, `refresh`), a
keypad-like `keys` (`events.get_into`), a pixel strip, an optional rotary
encoder, the profile's keymap, and `nvm` (microcontroller.nvm on the board,
a flash-rules file in the emulator). The app is also the Ui's sink: every
change to the game becomes a journal frame before the screen moves on.
"""

from altar.core import Rejected, Session
from altar.jsonin import loads
from altar.jsonout import dumps
from altar_fw import journal
from altar_fw.canvas import Canvas
from altar_fw.inputs import NEXT, PREV, Presses
from altar_fw.lights import Lights
from altar_fw.ui import Ui

BEGIN = "-----BEGIN ALTAR LOG-----"
END = "-----END ALTAR LOG-----"


class App:
    def __init__(self, display, keys, pixels, encoder, keymap, nvm, font, event,
                 scale=1, colours=(0xFFFFFF, 0x000000), write=None, seed=0):
        self.display = display
        self.keys = keys
        self.event = event              # one keypad.Event, reused for every key event
        self.presses = Presses(keymap)
        self.encoder = encoder
        self.pos = encoder.position if encoder else 0
        self.lights = Lights(pixels)
        self.journal = journal.Journal(nvm)
        self.write = write
        self.header = None
        self.canvas = Canvas(display.width, display.height, font, scale, colours[0], colours[1])
        display.auto_refresh = False
        display.root_group = self.canvas.group
        self.ui = Ui(self, seed)
        self.boot()
        self.redraw(0)

    def boot(self):
        """Replay the journal's valid frames and resume the game's screen."""
        header, records = self.journal.read()
        if header is None:
            if self.journal.torn:
                self.ui.notice = "No game to resume"
            return
        try:
            session = Session(loads(header.decode()))
        except (Rejected, ValueError):
            self.ui.info("Journal unreadable", "Its header is not a session: start a new game.")
            return
        skipped = 0
        for p in records:
            try:
                if p == journal.UNDO:
                    session.undo()
                else:
                    session.play(journal.decode(p))
            except Rejected:
                skipped += 1     # a record this engine refuses: keep the others
        self.header = header
        self.ui.resume(session)
        self.ui.notice = "Resumed, %d skipped" % skipped if skipped else "Resumed"

    # -- the loop ----------------------------------------------------------------

    def step(self, now):
        """Handle pending key and encoder events, then the lights."""
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
        self.lights.tick(now)

    def redraw(self, now):
        ui = self.ui
        s = ui.draw()
        self.canvas.show(s)
        rules = ui.session.rules if ui.session else None
        self.lights.seat(s.seat, getattr(rules, "banished", -1))
        if ui.event:
            self.lights.start(ui.event, now)
        self.display.refresh()

    # -- the Ui's sink: the journal ---------------------------------------------

    def new(self, header):
        self.header = dumps(header).encode()
        self.journal.rewrite(self.header, ())

    def did(self, record):
        if not self.journal.append(journal.encode(record)):
            self.compact()

    def undid(self):
        if not self.journal.append(journal.UNDO):
            self.compact()

    def compact(self):
        """A full journal keeps only what the game still holds (no undos)."""
        try:
            self.journal.rewrite(self.header, [journal.encode(t) for t in self.ui.session.history])
        except ValueError:
            self.ui.info("Journal full", "This game no longer fits the flash: play on, but "
                         "export the log before unplugging.")

    def export(self):
        """The journal as a session log on the serial console, between markers."""
        if self.write is None:
            return
        self.write(BEGIN + "\n")
        for line in self.log_lines():
            self.write(line + "\n")
        self.write(END + "\n")

    def log_lines(self):
        header, records = self.journal.read()
        if header is None:
            return
        yield header.decode()
        mod = self.ui.session.mod
        for p in records:
            yield '{"do": "undo"}' if p == journal.UNDO else dumps(mod.unparse(journal.decode(p)))
