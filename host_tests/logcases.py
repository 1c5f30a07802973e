"""Session logs shared by test_parity.py and test_errors.py (not a test module).

VALID: name -> log bytes that replay (exit 0).
ERRORS: name -> (log bytes, line, reason fragment): one error class of the
contract each; `line` is the 1-based line the replay must name.

Everything is built at import from fixed seeds, so it is the same on every run.
"""

import json

from altar.core import Session
from altar_host.sim.randomplay import DECK, fantasmagoria_game, ritos_game, sete_selos_game

H2 = {"altar": 1, "game": "sete-selos", "players": ["Ana", "Bia"]}
H3 = {"altar": 1, "game": "sete-selos", "players": ["Ana", "Bia", "Caio"]}
H4 = {"altar": 1, "game": "sete-selos", "players": ["Ana", "Bia", "Caio", "Duda"]}


def q(winner, value):
    return {"do": "ritual", "winner": winner, "value": value}


UNDO = {"do": "undo"}


def text(*lines, end=b"\n"):
    """Log bytes: dicts/lists are written as JSON (raw UTF-8), str lines as
    they are, bytes lines as given; joined with "\\n"."""
    out = []
    for ln in lines:
        if isinstance(ln, bytes):
            out.append(ln)
        elif isinstance(ln, str):
            out.append(ln.encode("utf-8"))
        else:
            out.append(json.dumps(ln, ensure_ascii=False).encode("utf-8"))
    return b"\n".join(out) + end


def cut(header, actions, pred):
    """The shortest prefix of `actions` after which pred(view) holds."""
    s = Session(header)
    for i, a in enumerate(actions):
        s.do(a)
        if pred(s.view()):
            return actions[:i + 1], s.view()
    raise AssertionError("no prefix of this game matches")


def awaiting(kind):
    return lambda v: (v["awaiting"] or {}).get("do") == kind


def after(header, actions):
    s = Session(header)
    for a in actions:
        s.do(a)
    return s.view()


# -- valid logs ----------------------------------------------------------------

VALID = {}

# ~40 whole random games: 2/3/4 players, referee and quick entry mixed, undo.
for players in (2, 3, 4):
    for i in range(12):
        quick = (0, 25, 60, 100)[i % 4]
        undo = (0, 15, 40)[i % 3]
        seed = 100 * players + i
        h, a = sete_selos_game(players, seed, quick=quick, undo=undo)
        VALID["game-%dp-s%d-q%d-u%d" % (players, seed, quick, undo)] = text(h, *a)

for name, players, seed, opts in [
    ("opt-3p-signs013", 3, 1, {"signs": [0, 1, 3]}),
    ("opt-3p-signs013-b", 3, 2, {"signs": [0, 1, 3]}),
    ("opt-3p-signs123-no-trump", 3, 3, {"signs": [1, 2, 3]}),
    ("opt-2p-banished-high", 2, 3, {"banished_removal": "high"}),
    ("opt-2p-power-three-5", 2, 5, {"power_2p_three": 5}),
    ("opt-4p-power", 4, 1, {"power": [1, 2, 4]}),
    ("opt-2p-seating-fixed", 2, 7, {"banished_seating": "fixed"}),
    ("opt-2p-four-elders", 2, 8, {"four_elders_2p": True}),
]:
    h, a = sete_selos_game(players, seed, quick=20, undo=10, options=opts)
    VALID[name] = text(h, *a)

# Truncated games: mid-game, awaiting a redirect, awaiting a removal.
for players, seed in ((2, 11), (3, 0), (4, 0)):
    h, a = sete_selos_game(players, seed, quick=30, undo=20)
    p, _ = cut(h, a, awaiting("redirect"))
    VALID["prefix-%dp-awaiting-redirect" % players] = text(h, *p)
    VALID["prefix-%dp-half" % players] = text(h, *a[:len(a) // 2])
for players, seed in ((3, 3), (4, 1)):
    h, a = sete_selos_game(players, seed, quick=30, undo=20)
    p, _ = cut(h, a, awaiting("remove"))
    VALID["prefix-%dp-awaiting-remove" % players] = text(h, *p)

# Header only, header defaults, odd but legal header values.
VALID["header-only-2p"] = text(H2)
VALID["header-only-4p-first3"] = text(dict(H4, first=3, seed=-5))
VALID["header-key-order-big-seed"] = text(
    {"seed": 2 ** 70, "players": ["a", "b", "c"], "first": 2, "game": "sete-selos", "altar": 1})
VALID["all-undone"] = text(H3, q(0, 1), q(1, 2), UNDO, UNDO)
_h, _a = sete_selos_game(4, 7, quick=50)
VALID["game-over-then-undo"] = text(_h, *_a, UNDO)
VALID["duplicate-key-last-wins"] = text(H3, '{"do": "ritual", "winner": 5, "winner": 1, "value": 4}')

# Non-ASCII names, blank and whitespace-only lines, CRLF, no final newline.
_h, _a = sete_selos_game(3, 11, quick=40, undo=20)
_h = dict(_h, players=["João", "Zoë", "🐙 Ctulhu"])
VALID["unicode-names-blank-lines"] = text(
    "", _h, "", *[x for a in _a for x in (a, "   ")], "\t", "")
VALID["unicode-names-escaped"] = text(
    '{"altar": 1, "game": "sete-selos", "players": ["Jo\\u00e3o", "Zo\\u00eb", "\\u00c9dipo", "\\u0416"]}',
    q(3, 7), q(0, 7))
_h, _a = sete_selos_game(2, 12, quick=50, undo=30)
_h = dict(_h, players=["Zoë", "João"])
VALID["crlf-no-final-newline"] = b"\r\n".join(
    json.dumps(x, ensure_ascii=False).encode() for x in [_h] + _a)
VALID["tabs-and-spaces-around"] = text("\t" + json.dumps(H3) + "  ", " \t ", " " + json.dumps(q(1, 3)) + "\t")

# Ritos Ancestrais: whole games, one with undo, and games cut short.
for players in (2, 3, 4):
    for seed in range(3):
        h, a = ritos_game(players, seed, undo=20 * seed)
        VALID["ritos-%dp-s%d" % (players, seed)] = text(h, *a)
        VALID["ritos-%dp-s%d-before-hands" % (players, seed)] = text(h, *a[:-1])
        VALID["ritos-%dp-s%d-half" % (players, seed)] = text(h, *a[:len(a) // 2])
# Bonuses naming their cards (the name changes no score).
_h, _a = ritos_game(3, 4)
assert _a[-1]["do"] == "hands"
_a[-1:-1] = [{"do": "bonus", "seat": 1, "points": 2, "card": "idolo-antigo"},
             {"do": "bonus", "seat": 0, "points": -1},
             {"do": "bonus", "seat": 2, "points": 5, "card": "azathoth"}, UNDO,
             {"do": "bonus", "seat": 2, "points": 3, "card": "cidade-de-innsmouth"}]
VALID["ritos-3p-bonus-cards"] = text(_h, *_a)

# Fantasmagória: whole games in referee and quick entry, with and without a
# deck, every option; games cut mid-round, before a round's end, at a
# quick possession, after a Copo.
_FA_OPTIONS = [None, {"led_copo": "free"}, {"copo_follows": False},
               {"copo_traps_filipi": False}, {"track_floor": False},
               {"odd_card": "dealt"}, {"only_ghosts": "end", "odd_card": "dealt"}]
for players in (3, 4):
    for i in range(14):
        quick = (0, 0, 30, 100, 60)[i % 5]
        opts = _FA_OPTIONS[i % 7]
        seed = 500 + 10 * players + i
        h, a = fantasmagoria_game(players, seed, quick=quick, undo=(0, 20)[i % 2],
                                  options=opts, deck=i % 3 != 0)
        VALID["fa-%dp-s%d-q%d" % (players, seed, quick)] = text(h, *a)
        if i < 3:
            VALID["fa-%dp-s%d-half" % (players, seed)] = text(h, *a[:len(a) // 2])
            VALID["fa-%dp-s%d-before-end" % (players, seed)] = text(h, *a[:-1])
_h, _a = fantasmagoria_game(4, 7, quick=100)
_i = [j for j, x in enumerate(_a) if x["do"] == "possess"][0]
VALID["fa-open-possession"] = text(_h, *_a[:_i + 1])
_h, _a = fantasmagoria_game(3, 2)
_i = [j for j, x in enumerate(_a) if ["copo"] in x.get("cards", [])][0]
VALID["fa-after-copo"] = text(_h, *_a[:_i + 1])
FH = {"altar": 1, "game": "fantasmagoria", "players": ["Ana", "Bia", "Caio", "Duda"], "seed": 3}
VALID["fa-header-only"] = text(FH)
VALID["fa-spirit-tie"] = text(FH, *[x for _ in range(3) for x in (
    {"do": "sacrifice", "trump": 2, "leader": 1},
    {"do": "end-round", "piles": [{"ghosts": 2}, {"ghosts": 2}, {"ghosts": 3}, {"ghosts": 2}]})])

# -- error logs: one per error class of the contract --------------------------

ERRORS = {}


def err(name, data, line, fragment):
    assert name not in ERRORS, name
    ERRORS[name] = (data, line, fragment)


# Not JSON / not an object / not text.
err("not-json-action", text(H3, '{"do": "ritual", "winner": 0'), 2, "not valid JSON")
err("not-json-header", text("altar: 1"), 1, "not valid JSON")
err("form-feed-line", text(H3, "\x0c"), 2, "not valid JSON")  # not JSON whitespace
err("not-json-trailing-comma", text(H3, '{"do": "ritual", "winner": 0, "value": 3,}'), 2,
    "not valid JSON")
err("not-json-single-quotes", text(H3, "{'do': 'undo'}"), 2, "not valid JSON")
err("json-list-action", text(H3, q(0, 1), [0, 1]), 3, "an action must be a JSON object")
err("json-number-action", text(H3, "7"), 2, "an action must be a JSON object")
err("json-string-header", text('"sete-selos"'), 1, "the header must be a JSON object")
err("json-null-header", text("null"), 1, "the header must be a JSON object")
err("invalid-utf8", text(H3, q(0, 1), b'{"do": "ritual", "winner": 1, "value": \xff}'), 3,
    "not UTF-8 text")
err("invalid-utf8-truncated-seq", text(b'{"altar": 1, "game": "sete-selos", "players": ["Jo\xc3", "B"]}'),
    1, "not UTF-8 text")
err("utf8-bom", b"\xef\xbb\xbf" + text(H3), 1, "not valid JSON")
err("empty-file", b"", 1, "no header")
err("only-blank-lines", b"\n\n   \n\t\n\r\n", 1, "no header")

# Verbs and keys.
err("unknown-verb", text(H3, {"do": "pass"}), 2, "unknown verb")
err("verb-not-a-string", text(H3, {"do": 3}), 2, "unknown verb")
# Any value is quoted: a number with a fraction (the VMs print floats
# differently), and at most 40 characters of a long one.
err("verb-a-fraction", text(H3, '{"do": 0.5}'), 2, "unknown verb <fraction> for sete-selos")
err("verb-a-long-string", text(H3, {"do": "x" * 100000}), 2,
    'unknown verb "%s... for sete-selos' % ("x" * 39))
err("verb-a-long-list", text(H3, {"do": [2.5e300] + list(range(50))}), 2,
    "unknown verb [<fraction>, 0, 1, 2, 3, 4, 5, 6, 7, 8, ... for sete-selos")
err("unknown-key", text(H3, {"do": "ritual", "winner": 0, "value": 3, "note": "x"}), 2,
    'unknown key "note"')
err("unknown-key-on-undo", text(H3, q(0, 1), {"do": "undo", "times": 2}), 3, 'unknown key "times"')
err("unknown-key-non-ascii", text(H3, {"do": "redirect", "elder": 2, "Zoë": 1}), 2,
    'unknown key "Zo\\u00eb"')
err("unknown-key-astral", text(H3, {"do": "undo", "🐙": 1}), 2, 'unknown key "\\ud83d\\udc19"')
err("missing-do", text(H3, {"winner": 0, "value": 3}), 2, "missing key 'do'")
err("missing-value", text(H3, {"do": "ritual", "winner": 0}), 2, "missing key 'value'")
err("missing-elders", text(H3, {"do": "remove", "seat": 0}), 2, "missing key 'elders'")

# Values.
err("value-out-of-range", text(H3, q(0, 8)), 2, "value must be 1..7, not 8")
err("winner-out-of-range-2p", text(H2, q(3, 1)), 2, "winner must be P1, P2 or Ban (seat 0..2), not 3")
err("winner-negative", text(H4, q(-1, 1)), 2, "winner must be P1..P4 (seat 0..3), not -1")
err("elder-out-of-range", text(H3, {"do": "redirect", "elder": 0}), 2, "elder must be 1..7, not 0")
err("bool-for-int", text(H3, {"do": "ritual", "winner": True, "value": 3}), 2,
    "winner must be an integer")
err("float-for-int", text(H3, q(0, 1), '{"do": "ritual", "winner": 1, "value": 3.0}'), 3,
    "value must be an integer")
err("exponent-for-int", text(H3, '{"do": "ritual", "winner": 1, "value": 3e0}'), 2,
    "value must be an integer")
err("string-for-int", text(H3, {"do": "ritual", "winner": "0", "value": 3}), 2,
    "winner must be an integer")
err("cards-wrong-count", text(H3, {"do": "ritual", "cards": [[1, 2], [1, 3]]}), 2,
    "cards must have 3 entries, not 2")
err("cards-not-a-list", text(H3, {"do": "ritual", "cards": None}), 2, "cards must be a list")
err("card-malformed", text(H3, {"do": "ritual", "cards": [[1, 2], [1], [1, 3]]}), 2,
    "a card must be [sign, value]")
err("card-sign-not-in-play", text(H3, {"do": "ritual", "cards": [[1, 2], [3, 5], [1, 3]]}), 2,
    "sign 3 is not in play with 3 players")
err("card-value-out-of-range", text(H4, {"do": "ritual", "cards": [[1, 2], [3, 0], [1, 3], [2, 2]]}),
    2, "a card's value must be 1..7, not 0")
err("elders-empty", text(H3, {"do": "remove", "seat": 0, "elders": []}), 2,
    "elders must have 1..21 entries, not 0")

# Referee entry: cards the table cannot have played.
err("card-twice-in-ritual", text(H3, {"do": "ritual", "cards": [[1, 3], [1, 3], [1, 4]]}), 2,
    "card [1, 3] is played twice")
err("card-replayed-in-series",
    text(H3, {"do": "ritual", "cards": [[1, 3], [1, 4], [1, 5]]}, "",
         {"do": "ritual", "cards": [[2, 1], [1, 3], [2, 2]]}), 4,
    "card [1, 3] was already played in this series")
err("card-of-a-void-sign",
    text(H3, {"do": "ritual", "cards": [[1, 3], [2, 4], [1, 5]]},
         {"do": "ritual", "cards": [[2, 6], [0, 1], [1, 6]]}), 3,
    "P2 (seat 1) did not follow sign 1 earlier in this series")

# Actions the state forbids now.
_h, _a = sete_selos_game(3, 0, quick=30, undo=20)
_p, _v = cut(_h, _a, awaiting("redirect"))
_seat = _v["awaiting"]["seat"]
_revealed = [e["value"] for e in _v["elders"] if e["revealed"]][0]
err("ritual-while-redirect-awaited", text(_h, *_p, q(0, 1)), len(_p) + 2,
    "P%d (seat %d) must first redirect its cultist" % (_seat + 1, _seat))
err("redirect-onto-revealed", text(_h, *_p, {"do": "redirect", "elder": _revealed}), len(_p) + 2,
    "Elder %d is revealed; choose a sealed Elder" % _revealed)
err("remove-while-redirect-awaited", text(_h, *_p, {"do": "remove", "seat": _seat, "elders": [1]}),
    len(_p) + 2, "no removal is due now")
err("redirect-not-awaited", text(H3, q(0, 1), {"do": "redirect", "elder": 3}), 3,
    "no cultist is waiting to be redirected")

_h, _a = sete_selos_game(4, 1, quick=30, undo=20)
_p, _v = cut(_h, _a, awaiting("remove"))
_seat, _count = _v["awaiting"]["seat"], _v["awaiting"]["count"]
_stacks = [e["cultists"][_seat] for e in _v["elders"]]
_empty = _stacks.index(0) + 1
_ok = [e + 1 for e in range(7) for _ in range(_stacks[e])][:_count]
err("ritual-while-remove-awaited", text(_h, *_p, q(0, 1)), len(_p) + 2,
    "the rituals are over: P%d (seat %d) must remove %d cultists" % (_seat + 1, _seat, _count))
err("remove-wrong-seat", text(_h, *_p, {"do": "remove", "seat": (_seat + 1) % 4, "elders": _ok}),
    len(_p) + 2, "P%d (seat %d) removes now, not P%d (seat %d)"
    % (_seat + 1, _seat, (_seat + 1) % 4 + 1, (_seat + 1) % 4))
err("remove-wrong-count", text(_h, *_p, {"do": "remove", "seat": _seat, "elders": _ok + [_ok[0]]}),
    len(_p) + 2, "P%d (seat %d) must remove %d cultists, not %d"
    % (_seat + 1, _seat, _count, _count + 1))
err("remove-from-empty-elder",
    text(_h, *_p, {"do": "remove", "seat": _seat, "elders": [_empty] * _count}), len(_p) + 2,
    "cannot remove %d" % _count)
err("redirect-while-remove-awaited", text(_h, *_p, {"do": "redirect", "elder": 1}), len(_p) + 2,
    "no cultist is waiting to be redirected")

_h, _a = sete_selos_game(3, 4, quick=50, undo=10)
assert after(_h, _a)["status"] == "over"
err("ritual-after-game-over", text(_h, *_a, q(0, 1)), len(_a) + 2, "the game is over")
err("redirect-after-game-over", text(_h, *_a, "", {"do": "redirect", "elder": 1}), len(_a) + 3,
    "the game is over")
err("remove-after-game-over", text(_h, *_a, {"do": "remove", "seat": 0, "elders": [1]}),
    len(_a) + 2, "the game is over")
err("undo-nothing", text(H3, UNDO), 2, "nothing to undo")
err("undo-past-start", text(H3, q(0, 1), "", UNDO, UNDO), 5, "nothing to undo")

# Header.
err("header-version-2", text(dict(H3, altar=2)), 1, "unsupported log version")
err("header-version-string", text(dict(H3, altar="1")), 1, "unsupported log version")
err("header-version-missing", text({"game": "sete-selos", "players": ["a", "b"]}), 1,
    "missing key 'altar'")
err("header-unknown-key", text(dict(H3, date="2024-01-01")), 1, 'unknown key "date"')
err("header-action-as-header", text(q(0, 1)), 1, "unknown key")
err("header-unknown-game", text(dict(H3, game="xadrez")), 1, "unknown game")
err("header-game-missing", text({"altar": 1, "players": ["a", "b"]}), 1, "missing key 'game'")
err("header-one-player", text(dict(H3, players=["Ana"])), 1, "2 to 4 players, not 1")
err("header-five-players", text(dict(H3, players=["a", "b", "c", "d", "e"])), 1,
    "2 to 4 players, not 5")
err("header-nine-players", text(dict(H3, players=list("abcdefghi"))), 1,
    "players must have 1..8 entries, not 9")
err("header-players-not-list", text(dict(H3, players="Ana")), 1, "players must be a list")
err("header-empty-name", text(dict(H3, players=["Ana", ""])), 1, "non-empty name")
err("header-name-not-string", text(dict(H3, players=["Ana", 2])), 1, "non-empty name")
err("header-unknown-option", text(dict(H3, options={"jokers": True})), 1, 'unknown option "jokers"')
err("header-option-bad-type", text(dict(H2, options={"power_2p_three": "5"})), 1,
    "option 'power_2p_three' must be of the same kind as 10")
err("header-option-float", text(dict(H2, options={"power_2p_three": 5.0})), 1,
    "option 'power_2p_three' must be of the same kind")
err("header-option-list-item-type", text(dict(H3, options={"signs": [0, 1, "3"]})), 1,
    "option 'signs' must be of the same kind as [0, 1, 2]")
err("header-option-sign-range", text(dict(H3, options={"signs": [0, 1, 4]})), 1,
    "a sign in option 'signs' must be 0..3, not 4")
err("header-option-signs-repeat", text(dict(H3, options={"signs": [0, 1, 1]})), 1,
    "3 different signs")
err("header-option-removal-word", text(dict(H2, options={"banished_removal": "middle"})), 1,
    "banished_removal")
err("header-options-not-object", text(dict(H3, options=[])), 1, "options must be an object")
err("header-first-out-of-range", text(dict(H3, first=3)), 1, "first must be P1..P3 (seat 0..2), not 3")
err("header-first-negative", text(dict(H4, first=-1)), 1, "first must be P1..P4 (seat 0..3), not -1")
err("header-first-huge", text(dict(H3, first=10 ** 30)), 1, "first must be P1..P3 (seat 0..2), not 1" + "0" * 30)
err("header-first-bool", text(dict(H3, first=True)), 1, "first must be an integer")
err("header-seed-string", text(dict(H3, seed="7")), 1, "seed must be an integer")
err("header-deck", text(dict(H3, deck={"numbers": [1, 20]})), 1, "deck is only for fantasmagoria")
err("header-after-blank-lines", b"\n\n" + text(dict(H3, altar=0)), 3, "unsupported log version")

RH = {"altar": 1, "game": "ritos-ancestrais", "players": ["A", "B", "C"], "first": 1}
_h, _a = ritos_game(3, 1)
err("ritos-score-after-final-turn", text(_h, *_a[:-1], {"do": "score", "points": 1}),
    len(_a) + 1, "final turn is over")
err("ritos-hands-too-early", text(RH, {"do": "hands", "counts": [1, 2, 3]}), 2,
    "after the final turn")
err("ritos-bonus-bad-seat", text(_h, *_a[:-1], {"do": "bonus", "seat": 3, "points": 1}),
    len(_a) + 1, "seat must be P1..P3 (seat 0..2), not 3")
err("ritos-bonus-unknown-card", text(_h, *_a[:-1], {"do": "bonus", "seat": 0, "points": 1,
                                                    "card": "shoggoth"}),
    len(_a) + 1, 'unknown bonus card "shoggoth"; expected one of idolo-antigo, azathoth, '
    'cidade-de-innsmouth')
err("ritos-points-range", text(RH, {"do": "score", "points": 10 ** 6}), 2, "points must be -999..999")
err("ritos-unknown-verb", text(RH, {"do": "ritual", "winner": 0, "value": 1}), 2, "unknown verb")
err("ritos-verb-a-fraction", text(RH, '{"do": 1e-3}'), 2,
    "unknown verb <fraction> for ritos-ancestrais")
err("ritos-bonus-card-a-fraction", text(_h, *_a[:-1], '{"do": "bonus", "seat": 0, "points": 1, '
                                        '"card": 0.5}'),
    len(_a) + 1, "unknown bonus card <fraction>; expected one of")
err("ritos-one-player", text(dict(RH, players=["A"], first=0)), 1, "2 to 4 players")
err("ritos-bad-invocation", text(dict(RH, options={"invocations": [{"name": "X"}]})), 1,
    "each invocation")

# Fantasmagória.
_t = {"do": "sacrifice", "trump": 5, "leader": 0}
err("fa-trick-before-sacrifice", text(FH, {"do": "trick", "winner": 0}), 2,
    "round 1 starts with the sacrifice")
err("fa-sacrifice-twice", text(FH, _t, _t), 3, "round 1's sacrifice is done")
err("fa-sacrifice-cursed", text(FH, {"do": "sacrifice", "cards": [
    ["gato", 1], ["bode", 7], ["vela", 2], ["boneca", 3]]}), 2, "cursed cards cannot be sacrificed")
err("fa-sacrifice-ghost", text(FH, {"do": "sacrifice", "cards": [
    ["gato", 1], ["fantasma", 7], ["vela", 2], ["boneca", 3]]}), 2, "must be a ritual card")
err("fa-three-player-vela", text(dict(FH, players=["A", "B", "C"]), {"do": "sacrifice", "cards": [
    ["gato", 1], ["vela", 7], ["boneca", 3]]}), 2, "vela cards are out of the game with 3 players")
err("fa-two-players", text(dict(FH, players=["A", "B"])), 1, "fantasmagoria is for 3 to 4 players")
err("fa-card-number-range", text(FH, _t, {"do": "trick", "cards": [
    ["gato", 1], ["gato", 21], ["gato", 2], ["gato", 3]]}), 3, "a card's number must be 1..20, not 21")
err("fa-card-outside-deck", text(dict(FH, deck=DECK), _t, {"do": "trick", "cards": [
    ["gato", 1], ["gato", 11], ["gato", 2], ["gato", 3]]}), 3, "a card's number must be 1..10")
err("fa-card-unknown-suit", text(FH, _t, {"do": "trick", "cards": [
    ["copas", 1], ["gato", 11], ["gato", 2], ["gato", 3]]}), 3, 'unknown card ["copas", 1]')
err("fa-verb-a-fraction", text(FH, '{"do": -0.0}'), 2, "unknown verb <fraction> for fantasmagoria")
err("fa-card-a-fraction", text(FH, _t, '{"do": "trick", "cards": [[1.5, 3], ["gato", 11], '
                                       '["gato", 2], ["gato", 3]]}'), 3,
    "unknown card [<fraction>, 3]")
err("fa-cursed-name-a-fraction", text(FH, _t, '{"do": "trick", "cards": [["gato", 1, 2.5], '
                                              '["gato", 11], ["gato", 2], ["gato", 3]]}'), 3,
    "unknown cursed card <fraction>")
err("fa-cursed-wrong-suit", text(FH, _t, {"do": "trick", "cards": [
    ["gato", 1, "belleanna"], ["gato", 11], ["gato", 2], ["gato", 3]]}), 3,
    "belleanna is a boneca card")
err("fa-cursed-not-in-deck", text(dict(FH, deck=DECK), _t, {"do": "trick", "cards": [
    ["gato", 1, "gato-da-sorte"], ["gato", 10], ["gato", 2], ["gato", 3]]}), 3,
    'gato-da-sorte is ["gato", 9]')
err("fa-ghost-lead", text(dict(FH, options={"only_ghosts": "end"}), _t, {"do": "trick", "cards": [
    ["fantasma", 1], ["gato", 1], ["gato", 2], ["gato", 3]]}), 3,
    "a ghost may lead only when every seat is possessed")
err("fa-ghost-lead-counted", text(dict(FH, deck=DECK), _t, {"do": "trick", "cards": [
    ["gato", 5], ["bode", 9], ["gato", 6], ["gato", 7]]}, {"do": "trick", "cards": [
    ["fantasma", 1], ["gato", 8], ["gato", 10], ["gato", 4]]}), 4,
    "a ghost may lead only when every seat is possessed, or from a hand of ghosts alone: "
    "P2 (seat 1) holds 12 cards, at most 3 of them ghosts")
_s = {"do": "sacrifice", "cards": [["bode", 3], ["gato", 5], ["boneca", 5], ["vela", 6]]}
_t1 = {"do": "trick", "cards": [["gato", 6], ["boneca", 8], ["gato", 7], ["gato", 4]]}
err("fa-void-after-possession", text(dict(FH, deck=DECK), _s, _t1, {"do": "trick", "cards": [
    ["gato", 1], ["gato", 2], ["gato", 3], ["gato", 10]]}), 4,
    "P2 (seat 1) showed in trick 1 that it holds no gato but the sacrificed card of the ghost "
    'pile it took then, so it cannot hold ["gato", 1]')
err("fa-took-other-sacrificed", text(FH, _s, dict(_t1, took=[["vela", 6]]), {"do": "trick", "cards": [
    ["boneca", 5], ["boneca", 3], ["boneca", 4], ["boneca", 6]]}), 4,
    'P2 (seat 1) took the ghost pile of ["vela", 6], so it holds no other sacrificed card')
err("fa-took-count", text(FH, _s, dict(_t1, took=[["vela", 6], ["gato", 5]])), 3,
    "took must name one ghost pile for each seat this trick possesses (1), not 2")
err("fa-took-not-sacrificed", text(FH, _s, dict(_t1, took=[["vela", 7]])), 3,
    'took: ["vela", 7] is not the sacrificed card of a ghost pile still to take')
err("fa-hands-counted", text(dict(FH, deck=DECK), _s, {"do": "end-round", "leftover": [
    [], [], [], []]}), 3, "P1 (seat 0) must hold 9 cards at the round's end, not 0")
err("fa-round-over", text(dict(FH, deck=DECK), _t, *[{"do": "trick", "winner": 0}] * 10), 12,
    "round 1 is over: P4 (seat 3) has no card left for another trick")
err("fa-ghost-unpossessed", text(FH, _t, {"do": "trick", "cards": [
    ["gato", 4], ["fantasma", 1], ["gato", 2], ["gato", 3]]}), 3,
    "P2 (seat 1) is not possessed, so it holds no ghost")
err("fa-card-replayed", text(FH, _t, {"do": "trick", "cards": [
    ["gato", 4], ["gato", 1], ["gato", 2], ["gato", 3]]}, {"do": "trick", "cards": [
        ["bode", 4], ["bode", 1], ["bode", 2], ["gato", 3]]}), 4,
    'card ["gato", 3] was already played this round')
err("fa-possess-twice", text(FH, _t, {"do": "possess", "seat": 2, "number": 4},
                             {"do": "trick", "winner": 2}, {"do": "possess", "seat": 2, "number": 5}),
    5, "P3 (seat 2) is already possessed this round")
err("fa-open-possession-then-cards", text(FH, _t, {"do": "possess", "seat": 2, "number": 4},
                                          {"do": "trick", "cards": [["gato", 4], ["gato", 1],
                                                                    ["bode", 2], ["gato", 3]]}),
    4, "close the trick with its winner")
err("fa-leftover-after-quick", text(FH, _t, {"do": "trick", "winner": 1},
                                    {"do": "end-round", "leftover": [[], [], [], []]}), 4,
    "a trick of round 1 was entered as its result: end the round with piles")
err("fa-leftover-no-empty-hand", text(FH, _t, {"do": "end-round", "leftover": [
    [["gato", 1]], [["gato", 2]], [["gato", 3]], [["gato", 4]]]}), 3,
    "a round ends when a seat has no card left")
err("fa-piles-two-belleanna", text(FH, _t, {"do": "end-round", "piles": [
    {"belleanna": 1}, {"belleanna": 1}, {}, {}]}), 3, "two piles hold belleanna")
err("fa-piles-too-many-ghosts", text(FH, _t, {"do": "end-round", "piles": [
    {"ghosts": 5}, {"ghosts": 5}, {"ghosts": 3}, {}]}), 3, "the piles hold 13 ghosts; the game has 12")
err("fa-possess-copo-by-default", text(FH, _t, {"do": "possess", "seat": 1, "number": None}), 3,
    "only with option copo_follows false")
err("fa-bad-option", text(dict(FH, options={"led_copo": "last"})), 1, "led_copo")
err("fa-bad-odd-card", text(dict(FH, options={"odd_card": "first"})), 1,
    'option \'odd_card\' must be "aside" or "dealt"')
err("ss-bad-seating", text(dict(H2, options={"banished_seating": "left"})), 1,
    'option \'banished_seating\' must be "follow" or "fixed"')
err("fa-bad-deck", text(dict(FH, deck={"numbers": [8, 12], "cursed": DECK["cursed"]})), 1,
    "must include 7")
_h, _a = fantasmagoria_game(3, 9, quick=50)
err("fa-after-game-over", text(_h, *_a, _t), len(_a) + 2, "the game is over")
