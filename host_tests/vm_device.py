"""The device's view-model and journal without displayio, for every VM:

    python host_tests/vm_device.py GAME PLAYERS SEED [CUT]
    MICROPYPATH=lib:firmware micropython host_tests/vm_device.py GAME PLAYERS SEED [CUT] [--mem]
    MICROPYPATH=lib:firmware tools/circuitpython/bin/circuitpython host_tests/vm_device.py ...

GAME is the index in the new-game list: 0 Sete Selos, 1 Fantasmagória,
2 Ritos Ancestrais.

A seeded player presses keys through a whole game (with undos, menus and a
reboot from the journal); every screen is printed, then the journal read
back and replayed. With CUT (a per cent), the power also fails during that
share of the flash writes, at a random byte, and the device boots again
from what the flash holds. Every VM must print the same bytes.
"""

import gc
import os
import sys

from altar.jsonout import dump
from altar.rng import Rng
from altar_fw import journal as J
from altar_fw import ui as U
from altar_fw.inputs import BACK, NEXT, OK, UNDO, VALUE


class PowerCut(Exception):
    pass


class Flash:
    """microcontroller.nvm by the RP2040's flash rules, as the emulator's
    FlashNVM has them: a write into erased (0xFF) bytes programs them; any
    other write erases the sector and programs it whole. With `cut` per
    cent of the writes, the power fails after a random number of bytes.
    The sector is a file: on a board it is not in the heap either."""

    def __init__(self, path, cut, seed):
        self.f = open(path, "w+b")
        os.remove(path)         # gone with the process, even one the heap runs out on
        for _ in range(16):
            self.f.write(b"\xff" * 256)
        self.cut = cut
        self.rng = Rng(seed)

    def __len__(self):
        return 4096

    def __getitem__(self, i):
        f = self.f
        if type(i) is int:
            f.seek(i)
            return f.read(1)[0]
        f.seek(i.start)
        return f.read(i.stop - i.start)

    def __setitem__(self, i, value):
        start, stop = i.start, i.stop
        for b in self[start:stop]:
            if b != 0xFF:
                content = bytearray(self[0:4096])
                content[start:stop] = value
                self.f.seek(0)
                for _ in range(16):
                    self.f.write(b"\xff" * 256)
                return self._program(0, content)
        self._program(start, value)

    def _program(self, start, value):
        n = len(value)
        if self.rng.below(100) < self.cut:
            n = self.rng.below(n)
        old = self[start:start + n]
        self.f.seek(start)
        self.f.write(bytes([old[j] & value[j] for j in range(n)]))   # programming only clears bits
        if n < len(value):
            raise PowerCut()

    def close(self):
        self.f.close()


def show(ui):
    s = ui.screen
    print("%s|%s cur=%d inv=%s seat=%d ev=%s" % (s.title, "|".join(s.lines), s.cursor,
                                                 s.inv, s.seat, ui.event))


def boot(nvm, seed):
    """A Ui over the journal in nvm, as the app boots it."""
    store = J.Store(nvm, sys.stdout.write)
    # ALTAR_PLAYERS on odd seeds: names cut to fit, a letter the font lacks.
    ui = U.Ui(store, seed, "pt", "Ana,Bia,Mariana,Zoë" if seed % 2 else "")
    ui.boot()
    ui.say_settings()
    ui.draw()
    return ui


# As the board's App: once each press's screen is drawn, the Ui's idle work
# and a collection.
# CPython's collector is not the board's and costs a game seconds: not there.
COLLECT = gc.collect if sys.implementation.name != "cpython" else None


def press(ui, key):
    ui.press(key)
    ui.draw()
    show(ui)
    ui.idle()
    if COLLECT:
        COLLECT()


def pick(ui, rng, index=-1):
    """Select an option (random unless given) by NEXT presses or its number."""
    if index < 0:
        index = rng.below(len(ui.opts))
    num = ui.opts[index][2]
    if num and rng.below(2):
        press(ui, VALUE + num)
        return
    while ui.sel != index:
        press(ui, NEXT)
    press(ui, OK)


def start(ui, rng, index, players):
    pick(ui, rng, index)
    pick(ui, rng, [o[1] for o in ui.opts].index(players))
    if ui.mode == U.FIRST:
        pick(ui, rng)
    elif ui.mode == U.INFO:
        press(ui, OK)


def step(ui, rng, k):
    if ui.mode == U.INFO:
        press(ui, OK)
    elif ui.opts:
        pick(ui, rng)
    elif k == 0:
        press(ui, UNDO)
    elif k == 1:
        press(ui, BACK)            # the menu, and back
        press(ui, BACK)
    else:
        press(ui, OK)


def game(index, players, seed, cut=0):
    """Game `index` of the new-game list, played by a seeded random player."""
    rng = Rng(seed)
    path = "/tmp/altar-vm-flash-%d" % int.from_bytes(os.urandom(4), "little")
    nvm = Flash(path, cut, seed + 1)
    ui = boot(nvm, seed)
    show(ui)
    n = 0
    while ui.session is None or not ui.session.state.over:
        n += 1
        k = rng.below(20)
        view = ui.session.view() if ui.session else None
        try:
            if ui.session is None:
                start(ui, rng, index, players)
            elif k == 2 or n == 3:
                ui = None                  # power off (a board's heap starts empty) and on
                ui = boot(nvm, seed)
                print("reboot same=%s" % (ui.session.view() == view))
            else:
                step(ui, rng, k)
        except PowerCut:
            ui = None
            ui = boot(nvm, seed)
            # The torn frame is lost, nothing else: the game as before the key.
            print("cut same=%s" % ((ui.session.view() if ui.session else None) == view))
    lines = [0]

    def count(text):          # the export, streamed as the serial console takes it
        lines[0] += text.count("\n")

    view = ui.session.view()
    ui = None                    # what the device holds is not needed to read the flash back
    again = J.Store(nvm, count)
    s, skipped = again.load()
    again.export()
    j = again.journal
    print("journal frames=%d bytes=%d torn=%d skipped=%d" % (lines[0] - 3, j.end, j.torn, skipped))
    print("replay same=%s" % (s.view() == view))
    nvm.close()
    dump(s.view(), sys.stdout.write)     # streamed, as the replay does
    print()


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:] if a != "--mem"]
    game(*args)
    if "--mem" in sys.argv:    # MicroPython only: the steady heap after a whole game
        import gc
        gc.collect()
        print("MEM", gc.mem_alloc(), gc.mem_free())
