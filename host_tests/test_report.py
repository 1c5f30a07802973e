"""The simulation reports: every plot a real picture of the size asked for,
every plot and table named on the page, the JSON as given."""

import html
import json
import re
import types

import pytest
from PIL import Image

from matplotlib.colors import to_hex

from altar_fw.lights import BANISHED, SEAT_COLOURS
from altar_host.sim import report
from altar_host.sim import simulate as sim

PLOTS = ("winrate.png", "winrate-position.png", "lengths.png", "endings.png", "scores.png")


@pytest.fixture(scope="module", params=[("sete-selos", 4), ("sete-selos", 2), ("fantasmagoria", 3)],
                ids=lambda p: "%s-%d" % p)
def summary(request):
    game, players = request.param
    counts, secs = sim.simulate(game, players, ["random"], 30, 1)
    return sim.summarise(game, players, ["random"], 1, counts, {}, secs)


def check_png(path, size):
    """The picture has the size asked for and something drawn on it: a plot
    has text, axes and bars in many shades, a blank canvas one colour."""
    with Image.open(path) as im:
        assert im.format == "PNG" and im.size == size, path
        colours = im.convert("RGB").getcolors(maxcolors=1 << 20)
    assert len(colours) > 10, path
    white = sum(n for n, c in colours if c == (255, 255, 255))
    assert white < 0.95 * size[0] * size[1], path


def images(page):
    return dict(re.findall(r'<img src="([^"]+)" alt="([^"]+)"', page))


def captions(page):
    return [html.unescape(c) for c in re.findall(r"<caption>([^<]+)</caption>", page)]


def test_a_batch_report_has_its_plots_and_tables(summary, tmp_path):
    report.write(str(tmp_path), summary)
    assert json.loads((tmp_path / "summary.json").read_text()) == summary
    for name in PLOTS:
        check_png(tmp_path / name, (640, 360))
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert set(images(page)) == set(PLOTS)
    tables = captions(page)
    assert len(tables) == 5
    for topic in ("Win rate by seat", "Win rate by position", "How games end", "Game length",
                  "by seat"):
        assert any(topic in t for t in tables), topic
    seats = ["P1", "P2", "Ban"] if summary["players"] == 2 else \
        ["P%d" % (i + 1) for i in range(summary["players"])]
    positions = ["1st", "2nd", "Ban"] if summary["players"] == 2 else \
        ["1st", "2nd", "3rd", "4th"][:summary["players"]]
    for row in seats + positions + ["no winner"]:
        assert "<th scope=row>%s</th>" % row in page
    # what a position is, for this game
    first = "first round&#x27;s leader" if summary["game"] == "fantasmagoria" else \
        "Each game draws its first player"
    assert first in page
    for ending in summary["endings"]:
        assert "<th scope=row>%s</th>" % ending in page
    unit = "rituals played" if summary["game"] == "sete-selos" else "actions in the log"
    assert unit in page
    assert "interrupted" not in page


def test_an_interrupted_batch_says_so_and_an_empty_one_still_draws(tmp_path):
    counts = sim.empty("fantasmagoria", 3)
    summary = sim.summarise("fantasmagoria", 3, ["random"], 5, counts, {"x": 1}, 0.0, 200)
    report.write(str(tmp_path), summary)
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "0 of 200 games" in page and "x=1" in page
    for name in PLOTS:
        with Image.open(tmp_path / name) as im:
            assert im.size == (640, 360)


def hexes(patches):
    return [to_hex(p.get_facecolor(), keep_alpha=False).upper() for p in patches]


def test_seats_have_the_devices_colours_and_positions_greys(summary):
    """P1 is red in the plots as on the device's lights, the Banished
    purple; a position is no seat, so its bars are grey (the Banished,
    its own position, keeps its purple)."""
    players, game = summary["players"], summary["game"]
    seat, position = report.ways(players, game)
    names = seat[2]
    want = ["#%06X" % c for c in SEAT_COLOURS[:players]]
    want += ["#%06X" % BANISHED] if len(names) > players else []
    assert want[0] == "#FF2000"
    assert hexes(report.plot_winrate(summary, *seat[:4]).axes[0].patches) == want
    boxes = report.plot_scores(summary, names, seat[3]).axes[0].patches
    assert hexes(boxes) == [want[i] for i, c in enumerate(summary["scores"]) if c]
    forest = report.plot_forest({"game": game, "players": players, "games": 1, "sets": [
        {"options": {}, "win_rate_change": [[0, [0, 0]]] * len(names)}]}, *seat[:4])
    # each seat's errorbar: its marker line first
    assert [to_hex(c.lines[0].get_color()).upper() for c in forest.axes[0].containers] == want
    shades = hexes(report.plot_winrate(summary, *position[:4]).axes[0].patches)
    for c in shades[:players]:
        assert c[1:3] == c[3:5] == c[5:7]        # grey: red = green = blue
    assert len(set(shades[:players])) == players and shades[players:] == want[players:]


def forest_size(result):
    seats = len(result["sets"][0]["win_rate"])
    return (640, round(100 * report.forest_height(len(result["sets"]), seats)))


def check_balance(directory, result):
    report.write_balance(str(directory), result)
    # as JSON: the changes come as (d, [lo, hi]) tuples, read back as lists
    assert json.loads((directory / "balance.json").read_text()) == json.loads(json.dumps(result))
    for name in ("forest.png", "forest-position.png"):
        check_png(directory / name, forest_size(result))
    page = (directory / "balance.html").read_text(encoding="utf-8")
    assert list(images(page)) == ["forest.png", "forest-position.png"]
    tables = captions(page)
    # each set a table of seats, of positions and of endings, named by its options
    assert len(tables) == 3 * len(result["sets"])
    for row in result["sets"]:
        label = report.options_label(row["options"])
        assert sum(label in t for t in tables) == 3, label
    assert page.count("<th scope=row>no winner</th>") == len(result["sets"])
    assert "paired" in page
    return page


def test_a_balance_report_from_the_real_comparison(tmp_path):
    args = types.SimpleNamespace(game="sete-selos", players=4, bots="random", games=30, seed=2,
                                 first="random", set=["", "power=[1,2,3]"])
    result = sim.balance(args, sim.Workers())
    page = check_balance(tmp_path, result)
    assert "defaults (baseline)" in page and "power=[1, 2, 3]" in page
    assert page.count("Game length: mean") == 2 and "rituals played" in page


def test_a_balance_report_with_the_banished_and_many_sets(tmp_path):
    def row(options, rates, changes):
        interval = [[max(0, r - 0.1), min(1, r + 0.1)] for r in rates]
        change = [[d, [d - 0.12, d + 0.12]] for d in changes]
        return {"options": options, "win_rate": rates, "win_rate_95": interval,
                "no_winner": 0, "no_winner_rate": 0, "no_winner_rate_95": [0, 0.1],
                "position_win_rate": rates, "position_win_rate_95": interval,
                "endings": {"power": 20, "immediate": 10},
                "win_rate_change": change, "position_win_rate_change": change}
    result = {"game": "sete-selos", "players": 2, "bots": ["heuristic", "random"], "seed": 0,
              "games": 30, "first": 1, "change": sim.CHANGE, "sets": [
                  row({}, [0.2, 0.3, 0.5], [0, 0, 0]),
                  row({"power": [1, 2, 3]}, [0.25, 0.25, 0.5], [0.05, -0.05, 0]),
                  row({"elders": 5, "a_rather_long_option_name": "some value"},
                      [0.1, 0.1, 0.8], [-0.1, -0.2, 0.3])]}
    page = check_balance(tmp_path, result)
    assert "<th scope=row>Ban</th>" in page and "+30.0 pp" in page
    assert "<th scope=row>1st</th>" in page and "P2 is first in every game (--first 1)" in page
