"""The command line as a new user meets it: help and version, one-line
messages instead of tracebacks, arguments checked before any work, words
for people on a terminal and JSON for machines."""

import json
import os
import subprocess
import sys

import pytest

from altar.core import Rejected
from altar_fw import ui as U
from altar_fw.journal import BEGIN, END
from altar_host import cli
from altar_host.sim import simulate as sim
from altar_host.cli import main


def run(argv, capsys, terminal=False):
    """(exit code, stdout, stderr) of `altar ARGV`; terminal: stdout (still
    captured) says it is a terminal, as when a person runs the command."""
    if terminal:
        sys.stdout.isatty = lambda: True
    try:
        code = main(argv)
    except SystemExit as e:          # argparse's own exits: --help, --version
        code = e.code
    finally:
        if terminal:
            del sys.stdout.isatty
    out, err = capsys.readouterr()
    return code, out, err


def test_help_lists_every_command_with_its_defaults(capsys):
    code, out, _ = run(["--help"], capsys)
    assert code == 0
    for cmd in ("emulate", "replay", "demo", "dump", "sheet", "deploy", "simulate", "balance"):
        assert cmd in out
    code, out, _ = run(["simulate", "--help"], capsys)
    assert "search" in out and "(default: 1000)" in out and "(default: random)" in out
    code, out, _ = run(["demo", "--help"], capsys)
    assert "line by line" in out and "bundled" in out
    code, out, _ = run(["replay", "--help"], capsys)
    assert "a session log" in out
    code, out, _ = run(["--version"], capsys)
    assert code == 0 and out.startswith("altar ")


def test_every_lang_option_offers_the_firmwares_languages(monkeypatch, capsys):
    """--lang takes its choices from the firmware's one list (ui.LANGS)."""
    monkeypatch.setattr(cli, "LANGS", U.LANGS + ("xx",))
    for cmd in ("emulate", "dump", "sheet", "deploy"):
        code, out, _ = run([cmd, "--help"], capsys)
        assert "--lang {%s}" % ",".join(U.LANGS + ("xx",)) in out, cmd


def test_demo_says_why_it_cannot_in_one_line(tmp_path, capsys):
    code, out, err = run(["demo", str(tmp_path / "nope")], capsys)
    assert code == 2 and not out and err.count("\n") == 1 and "cannot read" in err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"altar": 1, "game": "sete-selos", "players": ["a", "b"]}\n{"do": "flip"}\n')
    code, out, err = run(["demo", str(bad)], capsys)
    assert code == 2 and not out
    assert err == 'line 2: unknown verb "flip" for sete-selos\n'


def test_demo_names_the_seats_and_says_a_game_is_not_over(tmp_path, capsys):
    part = tmp_path / "part.jsonl"
    part.write_text('{"altar": 1, "game": "sete-selos", "players": ["Ana", "Bia", "Caio"]}\n'
                    '{"do": "ritual", "winner": 1, "value": 3}\n')
    code, out, _ = run(["demo", str(part)], capsys)
    assert code == 0
    assert "Bia leads" in out and "insanity Ana 0 Bia 0 Caio 0" in out
    assert out.splitlines()[-1] == "result: not over"
    assert "None" not in out


def test_demo_keeps_its_columns_whatever_a_line_holds(tmp_path, capsys):
    """A long name or action widens its column; no row is pushed out of line."""
    game = tmp_path / "long.jsonl"
    game.write_text('{"altar": 1, "game": "sete-selos", "players": ["Ana", "Bia", "Caio"]}\n'
                    '{"do": "ritual", "winner": 1, "value": 3}\n'
                    '{"do": "ritual", "cards": [[1, 3], [1, 5], [1, 4]]}\n')
    code, out, _ = run(["demo", str(game)], capsys)
    rows = [ln for ln in out.splitlines() if ln.lstrip()[:1].isdigit()]
    assert code == 0 and len(rows) == 2
    assert len({ln.index("ritual ") for ln in rows}) == 1, rows    # the state column


def test_replay_speaks_on_a_terminal_and_keeps_json_for_machines(tmp_path, capsys):
    game = tmp_path / "g.jsonl"
    game.write_text('{"altar": 1, "game": "fantasmagoria", "players": ["Ana", "Bia", "Caio"]}\n')
    code, out, _ = run(["replay", str(game)], capsys, terminal=True)
    assert code == 0 and out.startswith("fantasmagoria, 3 players: Ana, Bia, Caio\n")
    assert "not over" in out
    code, out, _ = run(["replay", "--json", str(game)], capsys, terminal=True)
    assert json.loads(out)["game"] == "fantasmagoria"


GAME = ['{"altar": 1, "game": "sete-selos", "players": ["Ana", "Bia", "Caio", "Duda"]}',
        '{"do": "ritual", "value": 5, "winner": 1}', '{"do": "undo"}',
        '{"do": "ritual", "value": 4, "winner": 2}',
        '{"cards": [[1, 3], [1, 5], [0, 5], [1, 4]], "do": "ritual"}']


def capture(tmp_path, lines):
    """A serial capture of the device exporting `lines`, with the console's chatter around."""
    path = tmp_path / "serial.txt"
    path.write_text("code.py output:\r\n%s\r\n%s\r\n>>> \r\n"
                    % (BEGIN, "\r\n".join(lines + [END])))
    return str(path)


def test_dump_prints_the_log_alone_without_o(tmp_path, capsys):
    code, out, err = run(["dump", capture(tmp_path, GAME)], capsys)
    assert code == 0 and out == "".join(ln + "\n" for ln in GAME) and not err
    code, out, err = run(["dump", capture(tmp_path, GAME), "-o", "-"], capsys)
    assert code == 0 and out == "".join(ln + "\n" for ln in GAME) and not err


def test_dump_to_a_file_says_what_it_wrote(tmp_path, capsys):
    game = str(tmp_path / "game.jsonl")
    code, out, err = run(["dump", capture(tmp_path, GAME), "-o", game], capsys)
    assert code == 0 and not out
    assert err == ("altar dump: wrote %s: a sete-selos game of 4 players (Ana, Bia, Caio, Duda), "
                   "3 actions, 1 undone\n" % game)
    assert open(game).read() == "".join(ln + "\n" for ln in GAME)
    code, out, err = run(["dump", capture(tmp_path, GAME[:2]), "-o", game], capsys)
    assert code == 0 and err.endswith("(Ana, Bia, Caio, Duda), 1 action\n")


def test_dump_says_why_it_cannot_in_one_line(tmp_path, capsys):
    code, out, err = run(["dump", capture(tmp_path, GAME), "--sheet"], capsys)
    assert (code, out) == (2, "")
    assert err == "altar dump: --sheet needs -o LOG: the sheet is written beside the log\n"
    code, out, err = run(["dump", capture(tmp_path, GAME), "-o",
                          str(tmp_path / "no" / "game.jsonl")], capsys)
    assert code == 2 and not out and err.count("\n") == 1 and "cannot write" in err
    code, out, err = run(["dump", capture(tmp_path, GAME[:1] + ['{"do": "undo"}'])], capsys)
    assert code == 2 and not out
    assert err == "altar dump: the exported log is refused: line 2: nothing to undo\n"
    code, out, err = run(["dump", str(tmp_path / "nope.txt")], capsys)
    assert code == 2 and not out and err.count("\n") == 1


EXAMPLE = os.path.join(os.path.dirname(cli.__file__), "examples", "sete-selos-4p.jsonl")


@pytest.mark.parametrize("argv", [
    ["replay", EXAMPLE, "--write", "{out}"],
    ["sheet", EXAMPLE, "-o", "{out}"],
    ["dump", "{capture}", "-o", "{out}"],
    ["emulate", "--keys", "{keys}", "--export", "{out}"],
    ["emulate", "--keys", "{keys}", "--screens", "{out}"],
    ["emulate", "--keys", "{keys}", "--serial-log", "{out}"],
    ["simulate", "--games", "1", "--report", "{out}"],
    ["simulate", "--games", "1", "--logs", "{out}"],
    ["balance", "--games", "1", "--set", "", "--report", "{out}"],
])
def test_a_file_that_cannot_be_written_is_one_line(argv, tmp_path, capsys):
    """Every file or folder a command writes where the user says: a path
    that cannot be is said in one line, no traceback, and the command fails."""
    (tmp_path / "file").write_text("")
    keys = tmp_path / "keys.txt"
    keys.write_text("ok ok ok ok ok 3 export\n")   # a Sete Selos game begun, and exported
    out = str(tmp_path / "file" / "x")          # under a file: no one can write it
    argv = [a.format(out=out, capture=capture(tmp_path, GAME), keys=keys) for a in argv]
    code, _, err = run(argv, capsys)
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("altar %s: cannot write %s" % (argv[0], out))      # or a file beside it
    assert err.endswith(": Not a directory\n")


def test_dump_reads_a_board_without_the_emulator(tmp_path):
    """`altar dump` of a real board imports neither Blinka's displayio, nor
    Pillow, nor the firmware's App (the emulator's 175 modules)."""
    game = tmp_path / "game.jsonl"
    code = ("import sys; from altar_host.cli import main; "
            "assert main(['dump', sys.argv[1], '-o', sys.argv[2]]) == 0; "
            "print(sorted(m for m in ('displayio', 'PIL', 'altar_fw.app', 'altar_host.device.emulator') "
            "if m in sys.modules))")
    p = subprocess.run([sys.executable, "-c", code, capture(tmp_path, GAME), str(game)],
                       capture_output=True, text=True)
    assert (p.returncode, p.stdout) == (0, "[]\n"), p.stderr
    assert game.read_text() == "".join(ln + "\n" for ln in GAME)


@pytest.mark.parametrize("argv,says", [
    (["--players", "9"], "sete-selos is for 2 to 4 players, not 9"),
    (["--game", "fantasmagoria", "--players", "2"], "fantasmagoria is for 3 to 4 players, not 2"),
    (["--bots", "random,random"], "one bot for every seat or one per seat (4 for 4 players), not 2"),
    (["--bots", "flarp"], "unknown bot 'flarp'; the bots are heuristic, random, search"),
    (["--option", "power=[1,2"], "the value of power is malformed JSON"),
    (["--option", "power"], "'power' is not KEY=VALUE"),
    (["--option", "jokers=1"], 'unknown option "jokers"'),
    (["--games", "0"], "--games must be at least 1"),
])
def test_simulate_refuses_nonsense_before_playing(argv, says, capsys):
    code, out, err = run(["simulate"] + argv, capsys)
    assert code == 2 and not out and says in err and err.count("\n") == 1


@pytest.mark.parametrize("cmd", [["simulate"], ["balance", "--set", ""]])
@pytest.mark.parametrize("argv,says", [
    (["--first", "4"], "--first is a seat 0..3 (0 is P1) or random, not '4'"),
    (["--players", "2", "--first", "2"], "--first is a seat 0..1 (0 is P1) or random, not '2'"),
    (["--first", "first"], "not 'first'"),
    (["--game", "fantasmagoria", "--players", "3", "--first", "0"],
     "fantasmagoria has no first player to fix: the sacrifice chooses the first leader"),
])
def test_first_is_a_seat_or_random(cmd, argv, says, capsys, monkeypatch):
    monkeypatch.setattr(sim, "batch", None)         # refused before any game is played
    code, out, err = run(cmd + argv, capsys)
    assert code == 2 and not out and err.count("\n") == 1
    assert err.startswith("altar %s: " % cmd[0]) and says in err


def test_balance_refuses_malformed_json(capsys):
    code, out, err = run(["balance", "--set", "", "--set", "power=[1,2"], capsys)
    assert code == 2 and "malformed JSON" in err


@pytest.mark.parametrize("cmd", [["simulate"], ["balance", "--set", ""]])
def test_a_game_the_engine_refuses_is_one_line_and_a_bug_its_traceback(cmd, monkeypatch, capsys):
    def refused(*args, **kw):
        raise Rejected("the engine says no")
    monkeypatch.setattr(sim, "batch", refused)
    code, out, err = run(cmd + ["--games", "1"], capsys)
    assert (code, out, err) == (2, "", "altar %s: the engine says no\n" % cmd[0])

    def bug(*args, **kw):
        raise KeyError("a bug")
    monkeypatch.setattr(sim, "batch", bug)
    with pytest.raises(KeyError):
        main(cmd + ["--games", "1"])


def test_every_game_takes_every_bot(capsys):
    code, out, _ = run(["simulate", "--game", "fantasmagoria", "--players", "3",
                        "--bots", "search,heuristic,random", "--games", "1"], capsys)
    assert code == 0 and json.loads(out)["games"] == 1


def test_simulate_and_balance_print_tables_on_a_terminal(capsys):
    code, out, _ = run(["simulate", "--games", "30", "--players", "2",
                        "--bots", "heuristic,random"], capsys, terminal=True)
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("sete-selos, 2 players, 30 games from seed 0")
    assert lines[2].split() == ["seat", "bot", "wins", "win", "rate", "[95%", "interval]"]
    assert lines[4].split()[:2] == ["P1", "heuristic"] and lines[5].split()[:2] == ["P2", "random"]
    assert lines[6].split()[:2] == ["Ban", "(dummy)"]
    assert lines[7].split()[:3] == ["no", "winner", "0"]
    # rich lays the columns out: each row's win rate starts where the header's does
    assert len({ln.index("%") - 5 for ln in lines[4:8]}) == 1
    assert [ln.split()[0] for ln in lines[11:14]] == ["1st", "2nd", "Ban"]
    assert "1st is the game's first player" in out and "--first random" in out
    code, out, _ = run(["balance", "--games", "40", "--set", "",
                        "--set", "power=[1,2,3];banished_removal=\"high\""], capsys, terminal=True)
    lines = out.splitlines()
    assert code == 0 and "the same seeds" in lines[0]
    assert lines[2].split() == ["option", "set", "P1", "P2", "P3", "P4", "no", "winner"]
    assert lines[4] == "(the defaults)" and lines[5].split()[:2] == ["win", "rate"]
    assert lines[5].count("[") == 5         # the games no one won too
    assert lines[6].split() == ["change"] + ["(baseline)"] * 4
    assert lines[7] == "banished_removal=high; power=[1, 2, 3]"
    assert lines[9].split()[0] == "change" and lines[9].count("[") == 4
    assert lines[11].split() == ["option", "set", "1st", "2nd", "3rd", "4th"]
    assert lines[13] == "(the defaults)" and lines[17].count("[") == 4
    assert "Change, in percentage points: paired" in out
    code, out, _ = run(["balance", "--games", "10", "--set", "", "--json"], capsys, terminal=True)
    assert json.loads(out)["sets"][0]["win_rate_change"][0] == [0.0, [0.0, 0.0]]


def test_the_rule_for_bots_is_one_for_all_or_one_per_seat():
    assert sim.seat_bots(["search"], "sete-selos", 3) == ["search"] * 3
    assert sim.seat_bots(["random", "heuristic"], "sete-selos", 2) == ["random", "heuristic"]
    with pytest.raises(ValueError):
        sim.seat_bots(["random", "heuristic"], "fantasmagoria", 4)


def test_sheet_says_what_it_wrote(tmp_path, capsys):
    out = str(tmp_path / "game.html")
    code, text, err = run(["sheet", EXAMPLE, "-o", out], capsys)
    assert code == 0 and not err and text == "altar sheet: wrote %s\n" % out
    assert os.path.exists(out)
