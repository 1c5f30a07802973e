"""The device's view-model and journal without displayio, for both VMs:

    python host_tests/vm_device.py GAME PLAYERS SEED
    MICROPYPATH=lib:firmware micropython host_tests/vm_device.py GAME PLAYERS SEED [--mem]

GAME is the index in the new-game list: 0 Sete Selos, 1 Fantasmagória,
2 Ritos Ancestrais.

A seeded player presses keys through a whole game (with undos, menus and a
reboot from the journal); every screen is printed, then the journal read
back and replayed. Both VMs must print the same bytes.
"""

import sys

from altar.jsonout import dump
from altar.rng import Rng
from altar_fw import journal as J
from altar_fw import ui as U
from altar_fw.inputs import BACK, NEXT, OK, UNDO, VALUE


def show(ui):
    s = ui.screen
    print("%s|%s cur=%d inv=%s seat=%d ev=%s" % (s.title, "|".join(s.lines), s.cursor,
                                                 s.inv, s.seat, ui.event))


def boot(nvm, seed):
    """A Ui over the journal in nvm, as the app boots it."""
    store = J.Store(nvm, sys.stdout.write)
    ui = U.Ui(store, seed)
    session, skipped = store.load()
    if session is not None:
        ui.resume(session)
    ui.draw()
    return ui


def press(ui, key):
    ui.press(key)
    ui.draw()
    show(ui)


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


def game(index, players, seed):
    """Game `index` of the new-game list, played by a seeded random player."""
    rng = Rng(seed)
    nvm = bytearray(4096)      # stands for the flash sector, outside the heap on a board
    for i in range(4096):
        nvm[i] = 0xFF
    ui = boot(nvm, seed)
    show(ui)
    pick(ui, rng, index)
    pick(ui, rng, [o[1] for o in ui.opts].index(players))
    if ui.mode == U.FIRST:
        pick(ui, rng)
    elif ui.mode == U.INFO:
        press(ui, OK)
    n = 0
    while not ui.session.state.over:
        n += 1
        k = rng.below(20)
        if k == 2 or n == 3:
            view = ui.session.view()
            ui = boot(nvm, seed)       # power off and on
            print("reboot same=%s" % (ui.session.view() == view))
        elif ui.mode == U.INFO:
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
    again = J.Store(nvm)
    s, skipped = again.load()
    j = again.journal
    print("journal frames=%d bytes=%d torn=%d skipped=%d" % (len(list(again.lines())) - 1,
                                                            j.end, j.torn, skipped))
    print("replay same=%s" % (s.view() == ui.session.view()))
    dump(s.view(), sys.stdout.write)     # streamed, as the replay does
    print()


if __name__ == "__main__":
    game(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))
    if "--mem" in sys.argv:    # MicroPython only: the steady heap after a whole game
        import gc
        gc.collect()
        print("MEM", gc.mem_alloc(), gc.mem_free())
