"""`altar simulate`: whole games with bots; every game's log replays to the
same result (both VMs for a sample), results do not depend on the chunks
(nor on Dask: test_dask.py), and the draft deals what the rulebook says."""

import json
import os
import re
import statistics
import sys
import types

import pytest

from altar import log
from altar.rng import Rng
from altar_host.sim import simulate as sim
from altar_host.sim import card_table
from altar_host.sim.bots import RandomBot
from altar_host.cli import main
from conftest import ROOT, VMS, have, run_replay


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


class Spy(RandomBot):
    """A random bot that records what it was offered in the draft."""
    offered = []

    def keep(self, seat, cards, state):
        Spy.offered.append((seat, len(cards)))
        return super().keep(seat, cards, state)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_draft_keeps_seven_cards_a_seat_from_shrinking_hands(players):
    from altar.core import Session
    s = Session({"altar": 1, "game": "sete-selos", "players": ["a"] * players, "first": 0})
    Spy.offered = []
    bots = [Spy(Rng(i)) for i in range(s.rules.seats)]
    kept = card_table.draft(s.state, Rng(1), bots)
    deck = {(g, v) for g in range(4) if s.rules.signs >> g & 1 for v in range(1, 8)}
    assert all(len(k) == 7 for k in kept) and {c for k in kept for c in k} == deck
    humans = players
    # each human sees 7, 6, ... 1 cards; the Banished picks blind (never asked)
    assert sorted(n for _, n in Spy.offered) == sorted(list(range(1, 8)) * humans)


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


def test_progress_bar():
    """rich's bar, the count, games a second and the time left; none when
    stderr is not a terminal."""
    import io
    out = io.StringIO()
    with sim.Bar(20, out) as bar:
        bar(5, 20)
        bar(20, 20)
    text = out.getvalue()
    assert "20/20 games" in text and "games/s" in text and "━" in text
    with sim.progress_bar(20) as bar:       # pytest's stderr is no terminal
        assert bar is None


def test_the_games_no_one_won_are_counted(capsys):
    """Seed 789 ends in a tie by power that no Elder breaks: it is counted,
    so the wins and the games with no winner add up to the games played,
    by seat and by position."""
    counts, _ = sim.simulate("sete-selos", 4, ["heuristic"], 12, 780)
    assert counts["no_winner"] == 1 and counts["games"] == 12
    assert sum(counts["wins"]) + counts["no_winner"] == 12
    assert sum(counts["position_wins"]) + counts["no_winner"] == 12
    assert main(["simulate", "--bots", "heuristic", "--games", "12", "--seed", "780"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["no_winner"] == 1
    assert sum(out["win_rate"]) + out["no_winner_rate"] == pytest.approx(1, abs=1e-3)


def expected_position(s, winner):
    """The winner's position, worked out here from the log: Sete Selos
    counts from the header's first (the Banished, seat 2 of 2 players, is
    its own last position); Fantasmagória from the seat of the lowest
    card in the first sacrifice (on equal numbers, the lower suit)."""
    n = len(s.header["players"])
    if s.header["game"] == "sete-selos":
        return winner if winner >= n else (winner - s.header["first"]) % n
    cards = s.actions()[0]["cards"]
    suits = ("gato", "vela", "bode", "boneca")
    leader = min(range(n), key=lambda i: (cards[i][1], suits.index(cards[i][0])))
    return (winner - leader) % n


@pytest.mark.parametrize("game,players", [("sete-selos", 4), ("sete-selos", 3),
                                          ("sete-selos", 2), ("fantasmagoria", 3)])
def test_positions_count_from_the_first_player(game, players):
    counts, _ = sim.simulate(game, players, ["heuristic"], 30, 11)
    want = [0] * len(counts["wins"])
    for i in range(30):
        s = sim.GAMES[game](players, 11 + i, ["heuristic"])
        for w in s.view()["winners"]:
            want[expected_position(s, w)] += 1
    assert counts["position_wins"] == want
    assert want != counts["wins"]        # the first player varies: positions are no seats


def test_first_fixes_the_first_player_and_keeps_the_deal(tmp_path, capsys):
    assert main(["simulate", "--games", "20", "--first", "0", "--logs", str(tmp_path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["first"] == 0
    for name in os.listdir(tmp_path):
        with open(tmp_path / name, "rb") as f:
            assert json.loads(f.readline())["first"] == 0
    # P1 is always first: its seat is the first position, and so on
    assert out["position_win_rate"] == out["win_rate"]
    # the first player is drawn even when fixed: fixing the seat a seed draws
    # plays that seed's game exactly
    for seed in range(5):
        drawn = sim.sete_selos(3, seed, ["random"])
        fixed = sim.sete_selos(3, seed, ["random"], None, drawn.header["first"])
        assert fixed.actions() == drawn.actions()
    with pytest.raises(ValueError, match="no first player"):
        sim.fantasmagoria(3, 0, ["random"], None, 0)


@pytest.mark.parametrize("text,game,players,says", [
    ("random", "sete-selos", 4, None), ("random", "fantasmagoria", 3, None),
    ("3", "sete-selos", 4, 3), ("1", "sete-selos", 2, 1),
    ("2", "sete-selos", 2, "a seat 0..1 (0 is P1) or random, not '2'"),
    ("-1", "sete-selos", 3, "a seat 0..2"), ("P1", "sete-selos", 4, "not 'P1'"),
    ("0", "fantasmagoria", 4, "the sacrifice chooses the first leader"),
])
def test_parse_first(text, game, players, says):
    if says is None or type(says) is int:
        assert sim.parse_first(text, game, players) == says
    else:
        with pytest.raises(ValueError, match=re.escape(says)):
            sim.parse_first(text, game, players)


def test_the_paired_interval():
    assert sim.paired(0, 0, 50) == (0.0, [0.0, 0.0])
    d, (lo, hi) = sim.paired(3, 1, 10)      # differences +1 three times, -1 once, 0 six
    sd = statistics.pstdev([1, 1, 1, -1] + [0] * 6)
    assert d == 0.2 and (lo, hi) == (round(0.2 - 1.96 * sd / 10 ** 0.5, 4),
                                     round(0.2 + 1.96 * sd / 10 ** 0.5, 4))


def test_balance_intervals_are_paired_by_seed():
    """The change's interval is the normal approximation on the per-seed
    differences of the same deals, worked out here game by game; an option
    set that plays as the baseline does changes nothing, to the last game."""
    args = types.SimpleNamespace(game="sete-selos", players=3, bots="heuristic", games=40,
                                 seed=4, first="random",
                                 set=["", "power=[3,5,10]", "power=[1,2,3]"])
    result = sim.balance(args, sim.Workers())
    same = result["sets"][1]
    for key in ("win_rate_change", "position_win_rate_change"):
        assert same[key] == [(0.0, [0.0, 0.0])] * 3
    other = result["sets"][2]
    for seat in range(3):
        diffs = []
        for i in range(40):
            base = sim.sete_selos(3, 4 + i, ["heuristic"])
            changed = sim.sete_selos(3, 4 + i, ["heuristic"], {"power": [1, 2, 3]})
            diffs.append((seat in changed.view()["winners"]) - (seat in base.view()["winners"]))
        d = statistics.mean(diffs)
        h = 1.96 * statistics.pstdev(diffs) / 40 ** 0.5
        assert other["win_rate_change"][seat] == (round(d, 4), [round(d - h, 4), round(d + h, 4)])
    assert any(lo < hi for _, (lo, hi) in other["win_rate_change"])     # not all zero
    assert "paired" in result["change"]


def _bench():
    sys.path.insert(0, os.path.join(ROOT, "tools", "bench"))
    try:
        import bench_simulate
    finally:
        sys.path.pop(0)
    return bench_simulate


def test_the_speed_bench_says_when_openspiel_is_missing(monkeypatch):
    """tools/bench/bench_simulate.py's anchor rows need the bench extra; without
    it the table says how to get it."""
    bench = _bench()
    monkeypatch.setitem(sys.modules, "pyspiel", None)     # import pyspiel fails
    assert bench.anchor_rows(2) == [
        "| OpenSpiel | not installed (`pip install -e '.[bench]'`) | | | |"]


def test_the_speed_bench_times_openspiel_beside_altar():
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (the bench extra, which "
                                          "the test extra includes: pip install -e '.[test]')")
    rows = _bench().anchor_rows(3)
    assert [r.split(" | ")[1].split(",")[0] for r in rows] == ["hearts", "spades", "oh_hell"]
    assert all(r.startswith("| OpenSpiel 2.0.2 |") and r.endswith("| anchor |") for r in rows)
