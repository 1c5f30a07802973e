"""Random journals whose every frame passes its check, booted as the device
boots them, on every VM:

    python host_tests/journal_fuzz.py SEED COUNT
    MICROPYPATH=lib:firmware tools/circuitpython/bin/circuitpython host_tests/journal_fuzz.py ...

Each journal is a header (a game's, with or without the format byte, now
and then a format no firmware wrote) and up to 60 frames: action records
of random verbs, lengths and fields, raw bytes, undos. The Ui boots over
it; what the screen says and the game it resumed are printed, then the
journal is booted again and exported: the second boot must refuse nothing
and resume the same game, and the export must replay to it. Every VM must
print the same bytes, and none may raise.
"""

import sys

from altar.core import Session, encode
from altar.jsonin import loads
from altar.jsonout import dump, dumps
from altar.rng import Rng
from altar_fw import journal as J
from altar_fw import ui as U

DECK = {"numbers": [1, 10], "cursed": {"candelabro": ["vela", 4], "gato-da-sorte": ["gato", 9],
                                       "belleanna": ["boneca", 2]}}
HEADERS = (
    {"altar": 1, "game": "sete-selos", "players": ["A", "B"]},
    {"altar": 1, "game": "sete-selos", "players": ["A", "B", "C"], "first": 1},
    {"altar": 1, "game": "sete-selos", "players": ["A", "B", "C", "D"]},
    {"altar": 1, "game": "fantasmagoria", "players": ["A", "B", "C"]},
    {"altar": 1, "game": "fantasmagoria", "players": ["A", "B", "C", "D"]},
    {"altar": 1, "game": "fantasmagoria", "players": ["A", "B", "C", "D"], "deck": DECK},
    {"altar": 1, "game": "ritos-ancestrais", "players": ["A", "B"]},
    {"altar": 1, "game": "ritos-ancestrais", "players": ["A", "B", "C", "D"]},
)


def field(rng):
    """A record's field: mostly what the games use (seats, values, cards),
    now and then far out of range."""
    k = rng.below(10)
    if k < 6:
        return rng.below(8) if k else rng.below(24) - 1
    if k < 9:       # a Fantasmagória card, now and then cursed or a pile taken
        return rng.below(6) << 5 | rng.below(13) | (0x100 if k == 7 else 0) | (0x200 if k == 8 else 0)
    return rng.below(1 << 20) - (1 << 19)


def card(rng):
    return (1 + rng.below(4)) << 5 | 1 + rng.below(10)


def likely(game, n, rng):
    """A record of the game's shape, with fields in or near its ranges:
    enough of them fit the state to take a game some way."""
    k = rng.below(4)
    if game == "sete-selos":
        return ((1, rng.below(n), 1 + rng.below(7)), (3, rng.below(8)),
                (4, rng.below(n), rng.below(7), rng.below(7)),
                [2] + [rng.below(4) << 3 | rng.below(8) for _ in range(n)])[k]
    if game == "fantasmagoria":
        return ((2, 1 + rng.below(10), rng.below(n)), (4, rng.below(n), rng.below(11) - 1),
                (5, rng.below(n)), [1 + 2 * rng.below(2)] + [card(rng) for _ in range(n)])[k]
    return ((1, rng.below(30)), (2,), (3, rng.below(n), rng.below(9) - 4),
            [4] + [rng.below(5) for _ in range(n)])[k]


def payload(game, n, rng):
    k = rng.below(12)
    if k == 0:
        return J.UNDO
    if k == 1:
        return bytes([rng.below(256) for _ in range(1 + rng.below(9))])
    if k < 8:
        return encode(likely(game, n, rng))
    # Lengths the games' records have (a verb, then 0, 1, 2, 4, 5, 8 fields) or any.
    n = (0, 1, 2, 2, 2, 4, 5, 8, rng.below(12))[rng.below(9)]
    return encode([1 + rng.below(7)] + [field(rng) for _ in range(n)])


def journal(rng):
    nvm = bytearray(b"\xff" * 4096)
    hd = HEADERS[rng.below(len(HEADERS))]
    h = dumps(hd).encode()
    k = rng.below(8)
    fmt = b"" if k == 0 else bytes((J.FORMAT if k > 1 else 2 + rng.below(200),))
    j = J.Journal(nvm)
    j.append(fmt + h)
    for _ in range(rng.below(61)):
        j.append(payload(hd["game"], len(hd["players"]), rng))
    return nvm


def boot(nvm, write=None):
    ui = U.Ui(J.Store(nvm, write), 0, "en", "")
    ui.boot()
    s = ui.draw()
    return ui, "%s|%s" % (s.title, "|".join(s.lines))


def main(seed, count):
    accepted = 0
    for i in range(count):
        rng = Rng(seed * 100003 + i)
        nvm = journal(rng)
        ui, screen = boot(nvm)
        s = ui.session
        print("%d %s" % (i, screen))
        if s is None:
            continue
        accepted += len(s.history)
        dump(s.view(), sys.stdout.write)
        print()
        out = []
        ui, screen = boot(nvm, out.append)
        ui.sink.export()
        lines = "".join(out).split("\n")[1:-2]
        again = Session(loads(lines[0]))
        for ln in lines[1:]:
            again.do(loads(ln))
        print("again %s same=%s export same=%s" % (
            screen, ui.session.view() == s.view(), again.view() == s.view()))
    print("records played %d" % accepted)


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
