"""`altar simulate`: whole games with bots; every game's log replays to the
same result (both VMs for a sample), results do not depend on the chunks
(nor on Dask: test_dask.py), and the draft deals what the rulebook says."""

import json
import os

import pytest

from altar import log
from altar.rng import Rng
from altar_host import simulate as sim
from altar_host.cli import main
from conftest import VMS, have, run_replay


@pytest.mark.parametrize("game,players,bots", [
    ("sete-selos", 2, ["heuristic", "random"]), ("sete-selos", 3, ["random"]),
    ("sete-selos", 4, ["heuristic", "random"]), ("fantasmagoria", 4, ["random"]),
])
def test_simulated_logs_replay_to_the_same_result(tmp_path, game, players, bots):
    counts, _ = sim.simulate(game, players, bots, 40, 7, logs=str(tmp_path))
    names = sorted(os.listdir(tmp_path))
    assert len(names) == 40
    again = sim.empty(game, players)
    for i in range(40):
        with open(tmp_path / ("%s-%d.jsonl" % (game, 7 + i)), "rb") as f:
            s = log.load(f)
        assert s.view()["status"] == "over"
        sim.tally(again, s)
    assert again == counts
    for name in names[:3]:             # the contract's replay, every VM here, same bytes
        cp = run_replay("cpython", str(tmp_path / name))
        assert cp[0] == 0
        for vm in VMS:
            if have(vm):
                assert cp == run_replay(vm, str(tmp_path / name)), vm


def test_results_do_not_depend_on_the_chunks(tmp_path, capsys):
    one, _ = sim.simulate("sete-selos", 4, ["random"], 120, 3)
    for chunk in (1, 7, 120):
        assert sim.simulate("sete-selos", 4, ["random"], 120, 3, chunk=chunk)[0] == one
    assert one["games"] == 120 and sum(one["endings"].values()) == 120
    assert main(["simulate", "--games", "50", "--players", "3", "--bots", "heuristic",
                 "--report", str(tmp_path)]) == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["games"] == 50 and sum(summary["endings"].values()) == 50
    assert all(lo <= r <= hi for r, (lo, hi) in zip(summary["win_rate"], summary["win_rate_95"]))
    # power per seat when the game ended by power (an immediate victory counts none)
    scored = [sum(c.values()) for c in summary["scores"]]
    assert scored == [summary["endings"].get("power", 0)] * 3
    assert (tmp_path / "report.html").exists()
    capsys.readouterr()
    assert main(["simulate", "--games", "5", "--bots", "oracle"]) == 2
    assert main(["simulate", "--games", "5", "--option", "power=[1, 2]"]) == 2
    for bad in (["--games", "0"], ["--games", "-3"], ["--jobs", "0"]):
        assert main(["simulate"] + bad) == 2
        assert "at least 1" in capsys.readouterr().err


def test_ctrl_c_keeps_the_chunks_that_finished(tmp_path, capsys, monkeypatch):
    calls = []
    run_chunk = sim.run_chunk

    def interrupted(job):
        calls.append(job)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return run_chunk(job)
    monkeypatch.setattr(sim, "run_chunk", interrupted)
    assert main(["simulate", "--games", "100", "--chunk", "10", "--report", str(tmp_path)]) == 130
    out, err = capsys.readouterr()
    assert "interrupted: 20 of 100 games finished" in err
    assert json.loads(out)["games"] == 20
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["interrupted"] == {"games_asked": 100} and summary["games"] == 20
    monkeypatch.setattr(sim, "run_chunk", run_chunk)
    assert summary["wins"] == sim.simulate("sete-selos", 4, ["random"], 20, 0)[0]["wins"]


class Spy(sim.RandomBot):
    """A random bot that records what it was offered in the draft."""
    seen = []

    def keep(self, seat, cards, state):
        Spy.seen.append((seat, len(cards)))
        return super().keep(seat, cards, state)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_draft_keeps_seven_cards_a_seat_from_shrinking_hands(players):
    from altar.core import Session
    s = Session({"altar": 1, "game": "sete-selos", "players": ["a"] * players, "first": 0})
    Spy.seen = []
    bots = [Spy(Rng(i)) for i in range(s.rules.seats)]
    kept = sim._draft(s.state, s.rules, Rng(1), bots)
    deck = {(g, v) for g in range(4) if s.rules.signs >> g & 1 for v in range(1, 8)}
    assert all(len(k) == 7 for k in kept) and {c for k in kept for c in k} == deck
    humans = players
    # each human sees 7, 6, ... 1 cards; the Banished picks blind (never asked)
    assert sorted(n for _, n in Spy.seen) == sorted(list(range(1, 8)) * humans)


def test_wilson_interval():
    lo, hi = sim.wilson(50, 100)
    assert 0.40 < lo < 0.41 and 0.59 < hi < 0.60
    assert sim.wilson(0, 0) == (0.0, 0.0)


def test_balance_compares_option_sets_on_the_same_seeds(tmp_path, capsys):
    assert main(["balance", "--players", "4", "--games", "60", "--set", "",
                 "--set", "power=[1,2,3]", "--report", str(tmp_path)]) == 0
    result = json.loads((tmp_path / "balance.json").read_text())
    base, other = result["sets"]
    assert base["options"] == {} and other["options"] == {"power": [1, 2, 3]}
    assert all(d == 0 for d, _ in base["win_rate_change"])
    for (d, (lo, hi)), r0, r1 in zip(other["win_rate_change"], base["win_rate"], other["win_rate"]):
        assert abs(d - (r1 - r0)) < 1e-3 and lo <= d <= hi
    assert "power" in capsys.readouterr().out
    assert main(["balance", "--games", "5", "--set", "", "--set", "jokers=1"]) == 2


def test_the_search_bot_deals_only_what_its_seat_could_not_see():
    """Stop a game mid-series and check the search bot's sampled deals: the
    right number of cards each, none it has seen, none of a sign a seat has
    shown it lacks (this ritual's plays included), the true hands possible."""
    from altar.core import Session
    checked = 0
    for seed in range(30):
        s = Session({"altar": 1, "game": "sete-selos", "players": ["a", "b", "c", "d"],
                     "first": 0})
        rng = Rng(seed)
        bots = [sim.RandomBot(Rng(seed * 8 + i)) for i in range(4)]
        hands = sim._draft(s.state, s.rules, rng, bots)
        st = s.state
        for _ in range(2 + seed % 4):           # some rituals of the first series
            trick = []
            for i in range(4):
                seat = (st.leader + i) % 4
                h = hands[seat]
                legal = [c for c in h if c[0] == trick[0][0]] if trick else h
                c = bots[seat].play(seat, legal or h, trick, st)
                h.remove(c)
                trick.append(c)
            s.play(bytes([2] + [g * 8 + v for g, v in trick]))
            if st.wait or st.over:
                break
        if st.wait or st.over:
            continue
        trick = []
        for i in range(seed % 3):               # part of the next ritual
            seat = (st.leader + i) % 4
            h = hands[seat]
            legal = [c for c in h if c[0] == trick[0][0]] if trick else h
            c = (legal or h)[0]
            h.remove(c)
            trick.append(c)
        me = (st.leader + len(trick)) % 4
        bot = sim.SearchBot(Rng(seed))
        bot.hand = hands[me]
        lead = trick[0][0] if trick else None
        for _ in range(5):
            dealt = bot._deal(me, st, trick)
            for o in range(4):
                if o == me:
                    continue
                assert len(dealt[o]) == len(hands[o])
                assert not set(dealt[o]) & (set(hands[me]) | set(trick))
                for c in dealt[o]:
                    assert not st.void[o] >> c[0] & 1
                played_off = [trick[i] for i in range(len(trick))
                              if (st.leader + i) % 4 == o and trick[i][0] != lead]
                if played_off:
                    assert all(c[0] != lead for c in dealt[o])
            assert sorted(c for o in range(4) if o != me for c in dealt[o]) == \
                sorted(c for o in range(4) if o != me for c in hands[o])
            checked += 1
    assert checked >= 50


def test_the_search_bot_plays_whole_legal_games(tmp_path):
    old = sim.SearchBot.iterations
    sim.SearchBot.iterations = 8
    try:
        out, _ = sim.simulate("sete-selos", 3, ["search", "heuristic", "random"], 4, 2,
                              logs=str(tmp_path))
    finally:
        sim.SearchBot.iterations = old
    again = sim.empty("sete-selos", 3)
    for i in range(4):
        with open(tmp_path / ("sete-selos-%d.jsonl" % (2 + i)), "rb") as f:
            sim.tally(again, log.load(f))
    assert again == out


def test_the_search_grows_a_tree_of_every_seats_cards():
    from altar.core import Session
    s = Session({"altar": 1, "game": "sete-selos", "players": ["a", "b", "c", "d"], "first": 0})
    hands = sim._draft(s.state, s.rules, Rng(3), [sim.RandomBot(Rng(i)) for i in range(4)])
    bot = sim.SearchBot(Rng(5))
    bot.session = s
    bot.hand = hands[0]
    card = bot.play(0, hands[0], [], s.state)
    root = bot.root
    assert card in hands[0] and card in root.children
    assert sum(n.visits for n in root.children.values()) == bot.iterations
    assert max(root.children.values(), key=lambda n: n.visits) is root.children[card]
    deep = [g for n in root.children.values() for g in n.children.values()]
    assert deep and all(len(k) == 2 for n in root.children.values() for k in n.children)


def test_progress_bar(capsys):
    sim.bar(5, 20)
    sim.bar(20, 20)
    err = capsys.readouterr().err
    assert "5/20 games" in err and err.endswith("20/20 games\n") and "#" * 30 in err
