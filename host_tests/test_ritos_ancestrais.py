"""Ritos Ancestrais (docs/rules.md, Ritos Ancestrais)."""

import io
import json
import re

import pytest

from altar import log
from altar import ritos_ancestrais as ra
from altar.core import Rejected, Session
from altar_host.sim.randomplay import ritos_game
from conftest import do_checked, rejects


def game(n=3, first=0, **kw):
    h = {"altar": 1, "game": "ritos-ancestrais", "players": ["P%d" % i for i in range(n)],
         "first": first}
    h.update(kw)
    return Session(h)


def score(p):
    return {"do": "score", "points": p}


END = {"do": "end-turn"}


def test_turns_go_clockwise_from_the_initial_player():
    s = game(3, first=2)
    seen = []
    for _ in range(4):
        seen.append(s.view()["turn"])
        s.do(END)
    assert seen == [2, 0, 1, 2]


def test_points_are_the_current_players_and_may_be_corrected():
    s = game(2, first=1)
    s.do(score(5))
    s.do(score(-2))
    assert s.view()["scores"] == [0, 3]
    rejects(s, score(1000), "points must be -999..999")
    rejects(s, {"do": "score", "points": 1.5}, "points must be an integer")


@pytest.mark.parametrize("first,trigger,extra", [
    (1, 2, [0]),      # seats after the trigger up to the one before the initial player
    (1, 1, [2, 0]),   # the initial player triggers: everyone else plays once more
    (1, 0, []),       # the seat before the initial player: the game ends at once
])
def test_21_triggers_the_final_turns(first, trigger, extra):
    s = game(3, first=first)
    while s.view()["turn"] != trigger:
        s.do(END)
    s.do(score(21))
    v = s.view()
    assert v["final"] is True and v["status"] == "playing"
    s.do(END)
    played = []
    while not s.state.done:
        played.append(s.view()["turn"])
        s.do(score(30))   # more points in the final turns: no new trigger
        s.do(END)
    assert played == extra
    assert s.state.trigger == trigger
    rejects(s, score(1), "final turn is over")
    rejects(s, END, "final turn is over")


def finished(scores, first=0):
    """3 players; seat i ends with scores[i]; seat 0 triggers."""
    s = game(len(scores), first=first)
    for p in scores:
        s.do(score(p))
        s.do(END)
    assert s.state.done
    return s


def test_bonus_then_hands_close_the_game():
    s = game(3)
    rejects(s, {"do": "bonus", "seat": 0, "points": 2}, "after the final turn")
    rejects(s, {"do": "hands", "counts": [1, 2, 3]}, "after the final turn")
    s = finished([21, 18, 19])
    s.do({"do": "bonus", "seat": 1, "points": 4})   # Azathoth, say
    v = s.view()
    assert v["scores"] == [21, 22, 19] and v["status"] == "playing" and v["hands"] is None
    rejects(s, {"do": "hands", "counts": [1, 2]}, "counts must have 3 entries")
    s.do({"do": "hands", "counts": [3, 1, 0]})
    v = s.view()
    assert v["status"] == "over" and v["winners"] == [1] and v["hands"] == [3, 1, 0]
    rejects(s, {"do": "bonus", "seat": 0, "points": 1}, "game is over")


def test_tie_goes_to_more_cards_in_hand_then_shared():
    s = finished([21, 21, 5])
    s.do({"do": "hands", "counts": [2, 4, 7]})
    assert s.view()["winners"] == [1]
    s = finished([21, 21, 5])
    s.do({"do": "hands", "counts": [4, 4, 7]})
    assert s.view()["winners"] == [0, 1]


def test_acted_follows_the_turn():
    """What the device's checklist ticks ("one action": test_device_games)."""
    s = game(2)
    assert not s.state.acted
    s.do(score(3))
    assert s.state.acted
    s.do(END)
    assert not s.state.acted


def test_invocations_are_data_without_invented_points():
    s = game(2)
    assert s.rules.options["invocations"] == [{"name": "Deep One", "points": None, "symbols":
                                               {"necronomicon": 1, "elder-sign": 2,
                                                "miskatonic": 1}}]
    mine = [{"name": "Shoggoth", "symbols": {"cthulhu": 2}, "points": 5}]
    assert game(2, options={"invocations": mine}).rules.options["invocations"] == mine
    for bad, frag in (([{"name": "X", "symbols": {"stars": 1}, "points": 1}], "unknown symbol"),
                      ([{"name": "X", "symbols": {}, "points": -1}], "points must be"),
                      ([{"name": "X"}], "each invocation"),
                      ([3], "same kind")):
        with pytest.raises(Rejected) as e:
            game(2, options={"invocations": bad})
        assert frag in str(e.value)


def test_player_count_and_verbs():
    with pytest.raises(Rejected):
        game(1)
    with pytest.raises(Rejected):
        game(5)
    rejects(game(2), {"do": "ritual", "winner": 0, "value": 3}, "unknown verb")
    rejects(game(2), {"do": "end-turn", "seat": 1}, 'unknown key "seat"')


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("seed", range(15))
def test_random_games_undo_and_equal_turns(n, seed):
    h, actions = ritos_game(n, seed)
    s = Session(h)
    turns = [0] * n
    for a in actions:
        if a["do"] == "end-turn":
            turns[s.view()["turn"]] += 1
        assert do_checked(s, a)
    v = s.view()
    assert v["status"] == "over" and v["final"] and v["winners"]
    assert len(set(turns)) == 1   # everyone had the same number of turns
    assert ra.NAME == v["game"]


# -- a bonus may name its card -------------------------------------------------

def bonus(seat, points, card=None):
    d = {"do": "bonus", "seat": seat, "points": points}
    if card is not None:
        d["card"] = card
    return d


def test_a_bonus_may_name_its_card_and_scores_the_same():
    named = finished([21, 18, 19])
    plain = finished([21, 18, 19])
    for i, card in enumerate(ra.BONUS_CARDS):
        named.do(bonus(i, 2 + i, card))
        plain.do(bonus(i, 2 + i))
    assert named.view() == plain.view() and named.view()["scores"] == [23, 21, 23]
    # the card is a small int at the end of the record, only when named
    assert named.history[-3:] == [(3, 0, 2, 0), (3, 1, 3, 1), (3, 2, 4, 2)]
    assert plain.history[-3:] == [(3, 0, 2), (3, 1, 3), (3, 2, 4)]
    assert named.actions()[-1] == {"do": "bonus", "seat": 2, "points": 4,
                                   "card": "cidade-de-innsmouth"}
    assert "card" not in plain.actions()[-1]


def test_a_bonus_card_survives_the_log_written_and_read():
    s = finished([21, 18, 19])
    s.do(bonus(1, 4, "azathoth"))
    s.do(bonus(0, 2))
    s.do(bonus(2, 3, "idolo-antigo"))
    s.do({"do": "undo"})
    s.do(bonus(2, 1, "cidade-de-innsmouth"))
    out = io.StringIO()
    log.write(s, out)
    again = log.load(out.getvalue().splitlines())
    assert again.actions() == s.actions() and again.history == s.history
    assert again.view() == s.view()
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [x.get("card") for x in lines if x.get("do") == "bonus"] == \
        ["azathoth", None, "cidade-de-innsmouth"]
    out2 = io.StringIO()
    log.write(again, out2)
    assert out2.getvalue() == out.getvalue()


@pytest.mark.parametrize("card,shown", [
    ("cthulhu", '"cthulhu"'), ("Azathoth", '"Azathoth"'), ("", '""'), (2, "2"), (None, "null"),
    (["azathoth"], '["azathoth"]'), ("Ídolo Antigo", '"\\u00cddolo Antigo"'),
])
def test_an_unknown_bonus_card_is_refused(card, shown):
    s = finished([21, 18, 19])
    s.do(bonus(0, 1, "azathoth"))
    said = rejects(s, {"do": "bonus", "seat": 1, "points": 3, "card": card}, "")
    assert said == ("unknown bonus card %s; expected one of idolo-antigo, azathoth, "
                    "cidade-de-innsmouth" % shown)
    assert s.view()["scores"] == [22, 18, 19]


def test_a_bonus_seat_is_named_as_the_device_names_it():
    assert rejects(finished([21, 18, 19]), bonus(3, 1, "azathoth"), "") == \
        "seat must be P1..P3 (seat 0..2), not 3"
    s = game(2)
    s.do(score(21))
    s.do(END)
    s.do(END)
    assert rejects(s, bonus(-1, 1), "") == "seat must be P1 or P2 (seat 0..1), not -1"


@pytest.mark.parametrize("lang,names", [
    ("pt", ["Azathoth", "—", "Cidade de Innsmouth"]),
    ("en", ["Azathoth", "—", "Cidade de Innsmouth (City of Innsmouth)"]),
])
def test_the_sheet_names_the_bonus_cards(lang, names):
    from altar_host import sheet
    s = finished([21, 18, 19])
    s.do(bonus(1, 4, "azathoth"))
    s.do(bonus(0, 2))
    s.do(bonus(2, 3, "cidade-de-innsmouth"))
    page, _ = sheet.build(s, lang)
    rows = re.findall(r"<tr><td><span class=seat[^>]*>([^<]*)</span></td><td>([^<]*)</td>"
                      r"<td class=n>(-?\d+)</td></tr>", page)
    assert rows == [("P1", names[0], "4"), ("P0", names[1], "2"), ("P2", names[2], "3")]
    # a log that names no card: no card column
    s = finished([21, 18, 19])
    s.do(bonus(1, 4))
    page, _ = sheet.build(s, lang)
    assert re.search(r"<tr><td><span class=seat[^>]*>P1</span></td><td class=n>4</td></tr>", page)
