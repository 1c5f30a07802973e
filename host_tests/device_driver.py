"""Drive an emulated device by key presses, as a player would (not a test
module). The driver reads the screen's state only to decide which keys to
press; every change goes through the keys."""

from altar_fw import sete_selos as screens
from altar_fw import ui as U
from altar_host.cli import BOARD_NAMES as BOARDS


def goto(dev, index, shortcut=False):
    """Select option `index` of the option screen shown, then take it: by its
    number key when asked and the board has one, else by prev/next."""
    ui = dev.app.ui
    num = ui.opts[index][2]
    if shortcut and num and dev.can(str(num)):
        dev.press(str(num))
        return
    n = len(ui.opts)
    # from no selection (-1) next selects the first option, prev the last
    fwd, back = ((index - ui.sel) % n, (ui.sel - index) % n) if ui.sel >= 0 else (index + 1,
                                                                                  n - index)
    word = "next" if fwd <= back else "prev"
    for _ in range(min(fwd, back)):
        dev.press(word)
    assert ui.sel == index
    dev.press("ok")


def value_of(dev, v):
    """The index of the option whose value is v."""
    return [o[1] for o in dev.app.ui.opts].index(v)


def new_game(dev, players, first, shortcut=False):
    ui = dev.app.ui
    if ui.mode != U.GAME:
        dev.press("back")
        if ui.mode != U.MENU:
            dev.press("back")
        goto(dev, value_of(dev, 3))           # menu: New game
        goto(dev, value_of(dev, 1))           # yes, erase it
    T = ui.T
    assert ui.mode == U.GAME and dev.text()[0] == T["new_game"]
    goto(dev, 0, shortcut)
    assert dev.text()[0] == T["how_many"]
    goto(dev, value_of(dev, players), shortcut)
    assert dev.text()[0] == T["who_first"]
    goto(dev, value_of(dev, first), shortcut)
    assert ui.mode == screens.BOARD


def read_on(dev):
    """OK through what Sete Selos says after an entry on a screen of its
    own: the revealed Elder that sends a cultist elsewhere, a new series."""
    ui = dev.app.ui
    T = ui.T
    while ui.mode == U.INFO and ui.screen.title.startswith(
            (T["revealed"].split("%")[0], T["series"].split("%")[0])):
        dev.press("ok")


def ritual(dev, winner, value, shortcut=False, read=True):
    ui = dev.app.ui
    assert ui.mode == screens.BOARD
    dev.press("ok")
    assert ui.mode == screens.WINNER and dev.text()[0] == ui.T["winner_q"] % (
        ui.session.state.ritual + 1)
    goto(dev, value_of(dev, winner), shortcut)
    assert ui.mode == screens.VALUE
    goto(dev, value_of(dev, value), shortcut)
    if read:
        read_on(dev)


def redirect(dev, elder, shortcut=False, read=True):
    assert dev.app.ui.mode == screens.REDIRECT
    goto(dev, value_of(dev, elder), shortcut)
    if read:
        read_on(dev)


def remove(dev, index):
    assert dev.app.ui.mode == screens.REMOVE
    goto(dev, index)


def play(dev, action, shortcut=False):
    """One log action (quick entry) by key presses."""
    if action["do"] == "ritual":
        ritual(dev, action["winner"], action["value"], shortcut)
    elif action["do"] == "redirect":
        redirect(dev, action["elder"], shortcut)
    elif action["do"] == "remove":
        choices = dev.app.ui.play.choices
        remove(dev, [e for _, e in choices].index(sorted(action["elders"])))
    elif action["do"] == "undo":
        dev.press("undo")
    else:
        raise ValueError(action)




def random_game(dev, rng, game, players, undo=0.05):
    """Start `game` (its index in the new-game list) and play it to the end
    as a random player: any option, OK on the game's own screens, now and
    then an undo. Returns the number of undos."""
    ui = dev.app.ui
    goto(dev, game, rng.random() < 0.5)
    goto(dev, value_of(dev, players), rng.random() < 0.5)
    if ui.mode == U.FIRST:
        goto(dev, rng.randrange(players), rng.random() < 0.5)
    elif ui.mode == U.INFO:
        dev.press("ok")                 # Fantasmagória's 3-player reminder
    undos = 0
    while not dev.app.ui.session.state.over:
        ui = dev.app.ui
        if ui.mode == U.INFO:
            dev.press("ok")
        elif rng.random() < undo and ui.session.history:
            dev.press("undo")
            undos += 1
        elif ui.opts:
            goto(dev, rng.randrange(len(ui.opts)), rng.random() < 0.5)
        else:
            dev.press("ok")
    return undos
