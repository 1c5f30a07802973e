"""Refused logs in process (altar.log.load -> LogError with .line and .reason),
blank-line numbering, and the command lines: `python -m altar.replay` and
`altar replay LOG [--write FILE]`."""

import io
import json
import os
import subprocess
import sys

import pytest

from altar import log
from altar.core import Rejected, Session
from altar_host.sim.randomplay import sete_selos_game
from conftest import LIB, ROOT, VMS, have, rejects, run_replay
from logcases import ERRORS, H2, H3, H4, UNDO, VALID, q, text


def load_bytes(data):
    return log.load(io.BytesIO(data))


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_error_classes_in_process(name):
    data, line, fragment = ERRORS[name]
    with pytest.raises(log.LogError) as e:
        load_bytes(data)
    assert e.value.line == line, (e.value.line, e.value.reason)
    assert fragment in e.value.reason, e.value.reason
    assert str(e.value) == "line %d: %s" % (line, e.value.reason)
    assert "\n" not in e.value.reason


@pytest.mark.parametrize("name", sorted(n for n in ERRORS if b"\xff" not in ERRORS[n][0]
                                        and "utf8" not in n))
def test_error_classes_from_str_lines(name):
    """load() takes str lines as well as bytes, with the same verdict."""
    data, line, fragment = ERRORS[name]
    with pytest.raises(log.LogError) as e:
        log.load(io.StringIO(data.decode("utf-8")))
    assert (e.value.line, fragment in e.value.reason) == (line, True), e.value.reason


def test_valid_logs_load_from_bytes_and_str():
    for name in ("unicode-names-blank-lines", "crlf-no-final-newline", "prefix-4p-awaiting-remove"):
        data = VALID[name]
        assert load_bytes(data).view() == log.load(io.StringIO(data.decode("utf-8"))).view()
        assert load_bytes(data).view() == log.load(data.splitlines()).view()


# -- seats in messages: as the device names them, with the log's number --------

def refused(header, *actions):
    """The reason the last action (or the header) is refused; nothing changed."""
    if not actions:
        with pytest.raises(Rejected) as e:
            Session(header)
        return str(e.value)
    s = Session(header)
    for a in actions[:-1]:
        s.do(a)
    return rejects(s, actions[-1], "")


FH4 = {"altar": 1, "game": "fantasmagoria", "players": ["Ana", "Bia", "Caio", "Duda"]}
SAC = {"do": "sacrifice", "trump": 5, "leader": 0}


@pytest.mark.parametrize("header,actions,reason", [
    # a seat out of range: the names, then the log's numbers
    (H3, [q(5, 1)], "winner must be P1..P3 (seat 0..2), not 5"),
    (H4, [q(-1, 1)], "winner must be P1..P4 (seat 0..3), not -1"),
    (dict(H3, first=3), [], "first must be P1..P3 (seat 0..2), not 3"),
    (FH4, [{"do": "sacrifice", "trump": 5, "leader": 4}], "leader must be P1..P4 (seat 0..3), not 4"),
    (FH4, [SAC, {"do": "trick", "winner": 9}], "winner must be P1..P4 (seat 0..3), not 9"),
    (FH4, [SAC, {"do": "possess", "seat": 4, "number": 3}], "seat must be P1..P4 (seat 0..3), not 4"),
    # one seat named
    (FH4, [SAC, {"do": "possess", "seat": 2, "number": 4}, {"do": "trick", "winner": 2},
           {"do": "possess", "seat": 2, "number": 5}], "P3 (seat 2) is already possessed this round"),
    (FH4, [SAC, {"do": "trick", "cards": [["gato", 4], ["fantasma", 1], ["gato", 2], ["gato", 3]]}],
     "P2 (seat 1) is not possessed, so it holds no ghost"),
    (H3, [{"do": "ritual", "cards": [[1, 3], [2, 4], [1, 5]]},
          {"do": "ritual", "cards": [[2, 6], [0, 1], [1, 6]]}],
     "P2 (seat 1) did not follow sign 1 earlier in this series, so it cannot hold card [1, 6]"),
], ids=["winner-3p", "winner-4p-negative", "header-first", "fa-leader", "fa-winner", "fa-seat",
        "fa-possessed-twice", "fa-ghost", "void-sign"])
def test_messages_name_seats_as_the_device(header, actions, reason):
    assert refused(header, *actions) == reason


def test_two_player_sete_selos_names_the_banished():
    assert refused(H2, q(7, 1)) == "winner must be P1, P2 or Ban (seat 0..2), not 7"
    assert refused(H2, {"do": "remove", "seat": 3, "elders": [1]}) == \
        "seat must be P1, P2 or Ban (seat 0..2), not 3"
    # the Banished cannot be the first dealer: only the players are offered
    assert refused(dict(H2, first=2)) == "first must be P1 or P2 (seat 0..1), not 2"
    # the Banished may win a ritual: accepted as seat 2
    s = Session(H2)
    s.do(q(2, 3))
    assert s.view()["leader"] == 2 and s.actions() == [q(2, 3)]


def test_a_seat_awaited_is_named():
    """The awaited seat and the one that tried, by name and number; the
    view and the journal keep the numbers."""
    h, a = sete_selos_game(4, 1, quick=30, undo=20)
    s = Session(h)
    for x in a:
        s.do(x)
        if (s.view()["awaiting"] or {}).get("do") == "remove":
            break
    aw = s.view()["awaiting"]
    seat, count = aw["seat"], aw["count"]
    other = (seat + 1) % 4
    assert rejects(s, q(0, 1), "") == "the rituals are over: P%d (seat %d) must remove %d cultists" \
        % (seat + 1, seat, count)
    assert rejects(s, {"do": "remove", "seat": other, "elders": [1]}, "") == \
        "P%d (seat %d) removes now, not P%d (seat %d)" % (seat + 1, seat, other + 1, other)
    assert rejects(s, {"do": "remove", "seat": seat, "elders": [1] * (count + 1)}, "") == \
        "P%d (seat %d) must remove %d cultists, not %d" % (seat + 1, seat, count, count + 1)


def test_replay_says_the_seat_on_one_line(tmp_path, vm):
    p = tmp_path / "ban.jsonl"
    p.write_bytes(text(H2, q(0, 1), q(7, 2)))
    for v in ("cpython", vm):
        assert run_replay(v, str(p)) == (
            2, b"", b"line 3: winner must be P1, P2 or Ban (seat 0..2), not 7\n"), v


# -- line numbers count blank lines --------------------------------------------

@pytest.mark.parametrize("blank", ["", "   ", "\t", "\r", " \t \r"])
def test_blank_lines_count_in_numbering(blank):
    lines = [json.dumps(H3), blank, json.dumps(q(0, 1)), blank, blank, json.dumps(q(0, 9))]
    with pytest.raises(log.LogError) as e:
        log.load([ln + "\n" for ln in lines])
    assert e.value.line == 6
    assert "value must be 1..7, not 9" in e.value.reason


def test_blank_lines_before_the_header():
    with pytest.raises(log.LogError) as e:
        load_bytes(b"\n \n\n" + text({"altar": 1, "game": "xadrez", "players": ["a", "b"]}))
    assert e.value.line == 4 and "unknown game" in e.value.reason
    s = load_bytes(b"\n \n\n" + text(H3, "", q(2, 5)))
    assert s.view()["ritual"] == 1


def test_crlf_lines_number_like_lf():
    data = b"\r\n".join([json.dumps(H3).encode(), b"", json.dumps(q(1, 1)).encode(), b"{"])
    with pytest.raises(log.LogError) as e:
        load_bytes(data)
    assert (e.value.line, e.value.reason) == (4, "not valid JSON")


def test_error_is_the_first_bad_line():
    """Later bad lines are not looked at; the state before the bad line counts."""
    with pytest.raises(log.LogError) as e:
        load_bytes(text(H3, q(0, 1), UNDO, UNDO, "not json", {"do": "nope"}))
    assert (e.value.line, e.value.reason) == (4, "nothing to undo")


def test_empty_and_blank_logs_name_line_1():
    for data in (b"", b"\n", b"   \n\n\t\n"):
        with pytest.raises(log.LogError) as e:
            load_bytes(data)
        assert e.value.line == 1 and "empty" in e.value.reason


# -- python -m altar.replay -------------------------------------------------------

def replay_cmd(*args):
    env = dict(os.environ, PYTHONPATH=LIB)
    p = subprocess.run([sys.executable, "-m", "altar.replay"] + list(args), env=env,
                       capture_output=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def test_replay_without_argument():
    rc, out, err = replay_cmd()
    assert (rc, out) == (2, b"")
    assert b"usage" in err and err.count(b"\n") == 1


def test_replay_with_two_arguments(tmp_path):
    p = tmp_path / "a.jsonl"
    p.write_bytes(text(H3))
    rc, out, err = replay_cmd(str(p), str(p))
    assert (rc, out) == (2, b"") and b"usage" in err


def test_replay_missing_file(tmp_path):
    path = str(tmp_path / "nope.jsonl")
    rc, out, err = replay_cmd(path)
    assert (rc, out) == (2, b"")
    assert err == ("cannot read %s\n" % path).encode()


def test_replay_missing_file_every_vm(tmp_path, vm):
    path = str(tmp_path / "nope.jsonl")
    for v in ("cpython", vm):
        assert run_replay(v, path) == (2, b"", ("cannot read %s\n" % path).encode())


def test_replay_directory(tmp_path, vm):
    """A path that opens but cannot be read as a file: still exit 2, one line."""
    for v in ("cpython", vm):
        rc, out, err = run_replay(v, str(tmp_path))
        assert (rc, out) == (2, b"")
        assert err.count(b"\n") == 1 and b"cannot read" in err, err


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root reads any file")
def test_replay_unreadable_file(tmp_path):
    p = tmp_path / "secret.jsonl"
    p.write_bytes(text(H3))
    p.chmod(0)
    try:
        rc, out, err = replay_cmd(str(p))
    finally:
        p.chmod(0o644)
    assert (rc, out) == (2, b"") and b"cannot read" in err


# -- altar replay LOG [--write FILE] ---------------------------------------------

def altar_cmd(*args):
    exe = os.path.join(os.path.dirname(sys.executable), "altar")
    cmd = [exe] if os.path.exists(exe) else [sys.executable, "-m", "altar_host.cli"]
    p = subprocess.run(cmd + list(args), capture_output=True, timeout=60, cwd=ROOT)
    return p.returncode, p.stdout, p.stderr


@pytest.mark.parametrize("name", ["game-4p-s401-q25-u15", "prefix-3p-awaiting-redirect",
                                  "unicode-names-blank-lines", "header-only-2p"])
def test_altar_replay_same_bytes_as_module(tmp_path, name):
    p = tmp_path / "log.jsonl"
    p.write_bytes(VALID[name])
    got = altar_cmd("replay", str(p))
    assert got[0] == 0 and got[2] == b""
    assert got == replay_cmd(str(p))


@pytest.mark.parametrize("name", ["undo-past-start", "invalid-utf8", "unknown-key-non-ascii",
                                  "empty-file", "remove-wrong-count"])
def test_altar_replay_errors_like_module(tmp_path, name):
    p = tmp_path / "log.jsonl"
    p.write_bytes(ERRORS[name][0])
    w = tmp_path / "out.jsonl"
    got = altar_cmd("replay", str(p), "--write", str(w))
    assert got[0] == 2 and got[1] == b""
    assert got == replay_cmd(str(p))
    assert not w.exists()


def test_altar_replay_missing_file(tmp_path):
    rc, out, err = altar_cmd("replay", str(tmp_path / "nope.jsonl"))
    assert (rc, out) == (2, b"") and b"cannot read" in err


@pytest.mark.parametrize("players,seed", [(2, 5), (3, 3), (4, 12)])
def test_altar_replay_write_drops_undone_actions(tmp_path, players, seed):
    h, a = sete_selos_game(players, seed, quick=30, undo=50)
    h = dict(h, players=["João", "Zoë", "🐙", "Ana"][:players])
    assert UNDO in a
    src = tmp_path / "in.jsonl"
    src.write_bytes(text(h, "", *a))
    w = tmp_path / "out.jsonl"
    rc, out, err = altar_cmd("replay", str(src), "--write", str(w))
    assert (rc, err) == (0, b"")
    written = w.read_bytes()
    lines = written.decode("utf-8").splitlines()
    assert written.endswith(b"\n") and "" not in lines
    assert json.loads(lines[0]) == h
    kept = [json.loads(ln) for ln in lines[1:]]
    assert UNDO not in kept
    s = Session(h)
    for x in a:
        s.do(x)
    assert kept == s.actions()
    assert len(kept) == len(a) - 2 * a.count(UNDO)
    # The written log replays to the same bytes, on every VM here.
    assert replay_cmd(str(w)) == (0, out, b"")
    for vm in VMS:
        if have(vm):
            assert run_replay(vm, str(w)) == (0, out, b""), vm
    # Writing it again is a fixed point.
    w2 = tmp_path / "out2.jsonl"
    assert altar_cmd("replay", str(w), "--write", str(w2))[0] == 0
    assert w2.read_bytes() == written


def test_altar_replay_write_all_undone(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_bytes(text(H3, q(0, 1), q(1, 2), UNDO, UNDO))
    w = tmp_path / "out.jsonl"
    rc, out, _ = altar_cmd("replay", str(src), "--write", str(w))
    assert rc == 0
    assert [json.loads(ln) for ln in w.read_text(encoding="utf-8").splitlines()] == [H3]
    assert out == replay_cmd(str(w))[1]


def test_altar_replay_write_keeps_the_bonus_cards(tmp_path):
    """Ritos Ancestrais' optional `card` of a bonus: written back as read,
    absent where the log had none; the written log replays alike."""
    src = tmp_path / "in.jsonl"
    src.write_bytes(VALID["ritos-3p-bonus-cards"])
    w = tmp_path / "out.jsonl"
    rc, out, err = altar_cmd("replay", str(src), "--write", str(w))
    assert (rc, err) == (0, b"")
    written = [json.loads(ln) for ln in w.read_text(encoding="utf-8").splitlines()[1:]]
    # as read, the undone Azathoth bonus gone
    assert [a for a in written if a["do"] == "bonus"] == [
        {"do": "bonus", "seat": 0, "points": 1}, {"do": "bonus", "seat": 2, "points": 1},
        {"do": "bonus", "seat": 1, "points": 2, "card": "idolo-antigo"},
        {"do": "bonus", "seat": 0, "points": -1},
        {"do": "bonus", "seat": 2, "points": 3, "card": "cidade-de-innsmouth"}]
    assert replay_cmd(str(w)) == (0, out, b"")


@pytest.mark.parametrize("name", sorted(n for n in ERRORS if "fraction" in n or "long" in n))
@pytest.mark.parametrize("cmd", ["replay", "demo", "sheet", "dump"])
def test_every_log_reader_refuses_any_value_in_one_line(tmp_path, name, cmd):
    """A number with a fraction, or a value of a hundred thousand
    characters, where an action wants something else: every reader of logs
    says so in one line, quoting at most 40 characters of it (issue 43)."""
    from altar_fw.journal import BEGIN, END
    data, line, fragment = ERRORS[name]
    p = tmp_path / "log.jsonl"
    if cmd == "dump":
        rows = data.decode().splitlines()
        data = ("code.py output:\r\n%s\r\n%s\r\n%s\r\n" % (BEGIN, "\r\n".join(rows), END)).encode()
    p.write_bytes(data)
    args = [cmd, str(p)] + (["-o", str(tmp_path / "out.html")] if cmd == "sheet" else [])
    rc, out, err = altar_cmd(*args)
    assert rc == 2 and err.count(b"\n") == 1 and b"Traceback" not in err, err
    assert ("line %d: %s" % (line, fragment)).encode() in err
    assert len(err) < 200
