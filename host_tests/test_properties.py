"""Random play, checked after every action: the invariants of the rules,
rejection without change, undo equivalence and the log round trip."""

import io

from hypothesis import given, settings, strategies as st

from altar import log
from altar.core import Rejected, Session
from altar_host.randomplay import sete_selos_game
from conftest import header, snapshot

SETTINGS = settings(max_examples=150, deadline=None, derandomize=True)


def invariants(s):
    v = s.view()
    r = s.rules
    totals = [sum(e["cultists"]) for e in v["elders"]]
    assert all(t <= 3 for t in totals)
    assert 0 <= v["ritual"] <= 21
    assert 0 <= v["leader"] < r.seats
    for seat in range(r.seats):
        assert v["insanity"][seat] <= r.victory[seat][2]
    scoring = v["reason"] == "power" or (v["awaiting"] or {}).get("do") == "remove"
    if scoring:
        assert all(e["revealed"] for e in v["elders"])
        assert 21 - sum(v["insanity"]) <= sum(totals) <= 21
        return
    for e, t in zip(v["elders"], totals):
        assert e["revealed"] == (t == 3)  # revealed exactly at the third cultist
    pending = 0
    if (v["awaiting"] or {}).get("do") == "redirect":
        pending = 1
    if v["reason"] == "immediate":
        w = v["winners"][0]
        pending = int(v["insanity"][w] >= r.victory[w][2])  # won before the move
    assert sum(totals) == v["ritual"] - pending  # one cultist per ritual
    assert (v["status"] == "over") == (v["reason"] is not None)


def round_trip(s):
    buf = io.StringIO()
    log.write(s, buf)
    again = log.load(buf.getvalue().splitlines())
    assert snapshot(again.state) == snapshot(s.state)
    assert again.view() == s.view()


def step(s, a):
    """Try `a`; rejected: nothing changed; accepted: undo restores exactly."""
    before = snapshot(s.state)
    try:
        s.do(a)
    except Rejected:
        assert snapshot(s.state) == before
        return False
    after = snapshot(s.state)
    s.do({"do": "undo"})
    assert snapshot(s.state) == before
    s.do(a)
    assert snapshot(s.state) == after
    invariants(s)
    return True


@st.composite
def action(draw, seats):
    kind = draw(st.integers(0, 9))
    if kind <= 4:
        return {"do": "ritual", "winner": draw(st.integers(0, seats - 1)),
                "value": draw(st.integers(1, 7))}
    if kind <= 6:
        return {"do": "redirect", "elder": draw(st.integers(1, 7))}
    if kind == 7:
        return {"do": "ritual", "cards": [[draw(st.integers(0, 3)), draw(st.integers(1, 7))]
                                          for _ in range(seats)]}
    if kind == 8:
        return {"do": "remove", "seat": draw(st.integers(0, seats - 1)),
                "elders": draw(st.lists(st.integers(1, 7), min_size=1, max_size=5))}
    return {"do": "undo"}


@SETTINGS
@given(st.sampled_from([2, 3, 4]), st.data())
def test_random_actions_keep_the_invariants(n, data):
    s = Session(header(n, first=data.draw(st.integers(0, n - 1))))
    seats = s.rules.seats
    for _ in range(data.draw(st.integers(1, 80))):
        a = data.draw(action(seats))
        if a["do"] == "remove" and s.state.wait == 2:
            # aim most removals at the seat and count that are due
            if data.draw(st.booleans()):
                a = {"do": "remove", "seat": s.state.wseat,
                     "elders": s.mod.suggest(s.state, s.state.wseat)}
        if a["do"] == "undo":
            before = len(s.history)
            try:
                s.do(a)
            except Rejected:
                assert before == 0
            invariants(s)
            continue
        step(s, a)
    round_trip(s)


@SETTINGS
@given(st.sampled_from([2, 3, 4]), st.integers(0, 2 ** 31), st.integers(0, 100))
def test_whole_legal_games(n, seed, quick):
    h, actions = sete_selos_game(n, seed, quick=quick)
    s = Session(h)
    for a in actions:
        assert step(s, a)
    assert s.view()["status"] == "over"
    round_trip(s)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 2 ** 31))
def test_undo_to_any_depth_is_exact(n, seed):
    h, actions = sete_selos_game(n, seed)
    s = Session(h)
    snaps = [snapshot(s.state)]
    for a in actions:
        s.do(a)
        snaps.append(snapshot(s.state))
    for i in range(len(actions), 0, -1):
        assert snapshot(s.state) == snaps[i]
        s.do({"do": "undo"})
    assert snapshot(s.state) == snaps[0] == snapshot(Session(h).state)
