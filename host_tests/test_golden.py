"""Golden transcripts of complete games (Sete Selos with 4 and 2 players,
Fantasmagória with 4, Ritos Ancestrais with 3): the state after every action,
as the replay prints it. ALTAR_REGEN=1 rewrites them (then read the diff
before committing)."""

import json
import os

import pytest

from altar.core import Session
from altar.jsonout import dumps
from altar_host.cli import EXAMPLES
from conftest import HERE, run_replay

GAMES = ("sete-selos-4p", "sete-selos-2p", "fantasmagoria-4p", "ritos-ancestrais-3p")
LOG, GOLDEN = (os.path.join(EXAMPLES, "sete-selos-4p.jsonl"),
               os.path.join(HERE, "golden", "sete-selos-4p.transcript"))


def paths(name):
    return (os.path.join(EXAMPLES, name + ".jsonl"),
            os.path.join(HERE, "golden", name + ".transcript"))


def transcript(log_path):
    with open(log_path, encoding="utf-8") as f:
        lines = [ln for ln in f.read().splitlines() if ln.strip()]
    s = Session(json.loads(lines[0]))
    out = []
    for line in lines[1:]:
        s.do(json.loads(line))
        out.append(line)
        out.append("=> " + dumps(s.view()))
    return out


@pytest.mark.parametrize("name", GAMES)
def test_golden_transcript(name):
    log_path, golden = paths(name)
    got = transcript(log_path)
    if os.environ.get("ALTAR_REGEN"):
        with open(golden, "w", encoding="utf-8") as f:
            f.write("\n".join(got) + "\n")
    with open(golden, encoding="utf-8") as f:
        assert got == f.read().splitlines()


def test_golden_game_is_complete_and_rich():
    with open(GOLDEN, encoding="utf-8") as f:
        last = json.loads(f.read().splitlines()[-1][3:])
    assert last["status"] == "over" and last["reason"] == "power"
    assert last["ritual"] == 21 and last["winners"] == [3]
    with open(LOG, encoding="utf-8") as f:
        verbs = [json.loads(ln)["do"] for ln in f.read().splitlines()[1:]]
    assert {"ritual", "redirect", "remove"} <= set(verbs)


@pytest.mark.parametrize("name", GAMES)
def test_golden_final_state_on_every_vm(name, vm):
    log_path, golden = paths(name)
    with open(golden, encoding="utf-8") as f:
        want = (f.read().splitlines()[-1][3:] + "\n").encode()
    for v in ("cpython", vm):
        assert run_replay(v, log_path) == (0, want, b"")


def test_two_player_golden_game_moves_the_first_player():
    """Three series; the Banished wins series 1's last ritual, so P1, to its
    right, is first player of series 2 and the order of play changes."""
    log_path, golden = paths("sete-selos-2p")
    with open(golden, encoding="utf-8") as f:
        views = [json.loads(ln[3:]) for ln in f.read().splitlines() if ln.startswith("=> ")]
    firsts = [v["first_player"] for v in views if v["ritual"] in (6, 7, 13, 14, 20, 21)]
    assert firsts[0] == 1 and firsts[-1] == 0 and views[-1]["ritual"] == 21
    series_1_last = next(v for v in views if v["ritual"] == 7)
    assert series_1_last["elders"] != views[0]["elders"] and series_1_last["leader"] == 2
    assert views[-1]["status"] == "over" and views[-1]["reason"] == "power"
    with open(log_path, encoding="utf-8") as f:
        verbs = [json.loads(ln) for ln in f.read().splitlines()[1:]]
    assert any("cards" in a for a in verbs[7:]) and {"remove"} <= {a["do"] for a in verbs}


def test_fantasmagoria_golden_game_is_complete_and_rich():
    log_path, golden = paths("fantasmagoria-4p")
    with open(golden, encoding="utf-8") as f:
        last = json.loads(f.read().splitlines()[-1][3:])
    assert last["status"] == "over" and last["spirit"] and last["winners"] == [1]
    # Checked by hand, trick by trick (see the transcript): P1 won trick 11
    # with Filipi Bode, so its one ghost counts 2, and BelleAnna 4; P4 has 5
    # ghosts, Gato da sorte and Candelabro.
    assert last["rounds"][0] == [6, 1, 5, 4]
    with open(log_path, encoding="utf-8") as f:
        text = f.read()
    for part in ('"copo"', '"filipi-bode"', '"gato-da-sorte"', '"candelabro"', '"belleanna"',
                 '"fantasma"', '"end-round"', '"sacrifice"', '"took"'):
        assert part in text


@pytest.mark.parametrize("name", GAMES)
def test_demo_reads_out_each_example(name, capsys):
    from altar_host.cli import main
    assert main(["demo", paths(name)[0]]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Altar replays %s.jsonl" % name
    assert out[-1].startswith("result: winner: P")
