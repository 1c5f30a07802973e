"""Undo from checkpoints: Session keeps a copy of the state's attributes after
every CHECKPOINT_EVERY-th kept record (the newest CHECKPOINTS of them), and
an undo restores the newest one left and replays only the records after it.
Over random games of every game, any run of undos (and play in between)
must give exactly the state a fresh session reaches by playing the records
kept; no checkpoint may share a buffer or a list with the live state; and
the VMs must do the same as CPython."""

import os

import pytest

from altar import core
from altar.core import CHECKPOINT_EVERY as K, CHECKPOINTS, Rejected, Session, copy_value
from altar import log
from altar_host.sim.randomplay import fantasmagoria_game, ritos_game, sete_selos_game
from conftest import HERE, snapshot, vm_run

# (game, players, seed, entry): entry is Sete Selos' and Fantasmagória's
# quick per cent (Fantasmagória: an odd one leaves the deck out). Long games
# of their kind: 21 to 34 records for Sete Selos (a 2-player game crosses
# one checkpoint, the others two), 37 to 48 for Fantasmagória, 37 to 70 for
# Ritos Ancestrais.
GAMES = [("sete-selos", n, seed, quick) for n, seeds in ((2, (5, 11)), (3, (3, 8)), (4, (7, 1)))
         for seed, quick in zip(seeds, (0, 40))] + \
        [("fantasmagoria", n, seed, quick) for n in (3, 4) for seed, quick in ((2, 0), (4, 33))] + \
        [("ritos-ancestrais", n, seed, 0) for n in (2, 3, 4) for seed in (3, 11)]


def game(name, n, seed, k):
    if name == "sete-selos":
        return sete_selos_game(n, seed, quick=k)
    if name == "fantasmagoria":
        return fantasmagoria_game(n, seed, quick=k, deck=not k % 2)
    return ritos_game(n, seed)


def records(h, actions):
    s = Session(h)
    for a in actions:
        s.do(a)
    return s.history


def fresh(h, recs):
    """The state of a new session that plays `recs`, snapshot."""
    s = Session(h)
    for t in recs:
        s.play(t)
    return snapshot(s.state)


def mutables(v, out):
    """The bytearrays and lists in v (lists' items too), by id."""
    if type(v) is bytearray or type(v) is list:
        out[id(v)] = v
        if type(v) is list:
            for x in v:
                mutables(x, out)
    return out


def check_marks(s):
    """The checkpoints are what the session says: at most CHECKPOINTS, each
    after a multiple of K records kept and at that record's end in `kept`,
    none beyond the records kept, each holding every attribute but the
    rules; and none shares a buffer or list with the live state or another."""
    m = s.marks
    assert len(m) <= CHECKPOINTS
    ends = [0]
    for b in s.records():
        ends.append(ends[-1] + 2 + len(b))
    assert s.count == len(ends) - 1
    names = sorted(a for a in vars(s.state) if a != "rules")
    live = {}
    for a in names:
        mutables(getattr(s.state, a), live)
    for i, mark in enumerate(m):
        c, end = mark[0], mark[1]
        assert c % K == 0 and 0 < c <= s.count and ends[c] == end
        if i:
            assert m[i - 1][0] < c
        assert sorted(mark[2::2]) == names
        held = {}
        for v in mark[3::2]:
            mutables(v, held)
        assert not set(held) & set(live), "a checkpoint shares a buffer with the state"
        for other in m[:i]:
            assert not set(held) & set(mutables(other, {}))


def undo_checked(s, h, recs, counted):
    """One undo, checked against a fresh replay of the records it keeps;
    `counted` (the fixture) counts the records the undo applied."""
    n = s.count
    had = [mark[0] for mark in s.marks if mark[0] <= n - 1]
    counted[0] = 0
    s.do({"do": "undo"})
    replayed = counted[0]
    assert s.count == n - 1
    assert snapshot(s.state) == fresh(h, recs[:n - 1])
    assert s.history == recs[:n - 1]
    # From the newest checkpoint left, or from the start when none is.
    assert replayed == (n - 1 - had[-1] if had else n - 1)
    if had:
        assert replayed < K
    check_marks(s)


@pytest.fixture
def counted(monkeypatch):
    """How many records each game's State.apply applied (reset by the caller)."""
    from altar import fantasmagoria, ritos_ancestrais, sete_selos
    n = [0]
    for mod in (sete_selos, fantasmagoria, ritos_ancestrais):
        def counting(self, t, _apply=mod.State.apply):
            n[0] += 1
            return _apply(self, t)
        monkeypatch.setattr(mod.State, "apply", counting)
    return n


@pytest.mark.parametrize("name,n,seed,k", GAMES)
def test_undo_to_zero_from_checkpoints(name, n, seed, k, counted):
    """A whole game undone to nothing, one undo at a time."""
    h, actions = game(name, n, seed, k)
    recs = records(h, actions)
    assert len(recs) > K + 4, "a game too short for a checkpoint"
    s = Session(h)
    for t in recs:
        s.play(t)
        check_marks(s)
    assert [m[0] for m in s.marks] == list(range(K, len(recs) + 1, K))[-CHECKPOINTS:]
    while s.count:
        undo_checked(s, h, recs, counted)
    assert s.marks == [] and s.kept == bytearray()
    assert snapshot(s.state) == snapshot(Session(h).state)


@pytest.mark.parametrize("name,n,seed,k", GAMES)
def test_undo_runs_and_play_between(name, n, seed, k, counted):
    """Runs of undos across checkpoints, each followed by part of the game
    played again: a checkpoint restored twice, re-taken by play, and taken
    again by the whole replay that follows undoing past the oldest."""
    h, actions = game(name, n, seed, k)
    recs = records(h, actions)
    s = Session(h)
    for t in recs:
        s.play(t)
    for back, again in ((3, 1), (K + 2, 5), (1, 0), (2 * K + 3, K), (K, 2 * K + 1),
                        (5, 0), (2 * K, 0), (len(recs), 0)):
        for _ in range(min(back, s.count)):
            undo_checked(s, h, recs, counted)
        for t in recs[s.count:s.count + again]:
            s.play(t)
            check_marks(s)
        assert snapshot(s.state) == fresh(h, recs[:s.count])
    assert s.count == 0 and s.marks == []


def test_undo_on_an_empty_session_changes_nothing():
    h, actions = sete_selos_game(3, 4)
    s = Session(h)
    for a in actions[:K + 1]:
        s.do(a)
    while s.count:
        s.undo()
    before = snapshot(s.state), bytes(s.kept), s.count, list(s.marks)
    with pytest.raises(Rejected):
        s.do({"do": "undo"})
    assert (snapshot(s.state), bytes(s.kept), s.count, list(s.marks)) == before


def test_a_restored_checkpoint_is_not_the_state():
    """What changes the state after a restore, in place, leaves the
    checkpoint as it was: restored again, it gives the same state."""
    h, actions = fantasmagoria_game(4, 9)
    recs = records(h, actions)
    s = Session(h)
    for t in recs[:K + 2]:
        s.play(t)
    s.undo()       # restores the checkpoint after K records, replays one
    assert s.count == K + 1 and [m[0] for m in s.marks] == [K]
    st = s.state
    st.void[0] = 99
    st.track.append(1)
    st.rounds.append([1])
    st.winners.append(0)
    s.undo()       # the same checkpoint, nothing replayed
    assert s.count == K
    assert snapshot(s.state) == fresh(h, recs[:K])
    check_marks(s)


def test_every_state_attribute_is_one_a_checkpoint_copies():
    """Every attribute of every game's state, after every record of random
    games: a kind copy_value copies (bytearray, list) or shares (int, bool,
    str, None, tuple), and the same names throughout, so that a restore sets
    all of them."""
    kinds = {}
    for name, n, seed, k in GAMES:
        h, actions = game(name, n, seed, k)
        s = Session(h)
        names = sorted(vars(s.state))
        for a in actions:
            s.do(a)
            assert sorted(vars(s.state)) == names
            for attr, v in vars(s.state).items():
                if attr == "rules":
                    continue
                c = copy_value(v)
                assert c == v and (c is not v) == (type(v) in (bytearray, list))
                kinds.setdefault(name, set()).add(type(v).__name__)
    assert kinds["fantasmagoria"] >= {"bytearray", "list", "int", "bool"}
    assert kinds["sete-selos"] >= {"bytearray", "list", "int", "bool", "str", "NoneType"}


def test_copy_value():
    inner = bytearray(b"ab")
    v = [1, [2, inner], (3, 4), None, "x", True, len]
    c = copy_value(v)
    assert c == v and c is not v and c[1] is not v[1] and c[1][1] is not inner
    assert c[2] is v[2] and c[6] is len
    for bad in ({}, {"a": 1}, [object()], set()):
        with pytest.raises(TypeError):
            copy_value(bad)


def test_a_method_a_tool_wraps_on_the_state_is_kept():
    """altar_host.sheet_facts wraps a Fantasmagória state's end_round: the
    checkpoints share the wrapper, and an undo to one puts it back."""
    h, actions = fantasmagoria_game(4, 2)
    s = Session(h)
    ends = []
    score = s.state.end_round

    def end_round():
        ends.append(s.count)
        score()
    s.state.end_round = end_round
    for a in actions:
        s.do(a)
    assert len(ends) == 3 and len(s.marks) == CHECKPOINTS
    while s.count > K:
        s.undo()
    assert s.state.end_round is end_round
    del s.state.end_round
    assert snapshot(s.state) == fresh(h, records(h, actions)[:K])


def test_checkpoint_constants():
    assert K == 16 and CHECKPOINTS == 2
    assert core.CHECKPOINT_EVERY == K


# -- the same on the VMs -----------------------------------------------------------

SCRIPT = os.path.join(HERE, "undo_script.py")


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    """One long game of each: Sete Selos 4 players, Fantasmagória 4 players
    (referee entry), Ritos Ancestrais 4 players, as session logs."""
    d = tmp_path_factory.mktemp("undo")
    paths = []
    for name, n, seed, k in (("sete-selos", 4, 1, 0), ("fantasmagoria", 4, 2, 0),
                             ("ritos-ancestrais", 4, 3, 0)):
        h, actions = game(name, n, seed, k)
        p = str(d / (name + ".jsonl"))
        with open(p, "w") as f:
            for line in log.lines(h, actions):
                f.write(line + "\n")
        paths.append(p)
    return paths


@pytest.fixture(scope="module")
def on_cpython(logs):
    rc, out, err = vm_run("cpython", [SCRIPT] + logs, timeout=300)
    assert rc == 0, err.decode()
    return out


def test_undo_script_on_cpython(on_cpython):
    assert on_cpython.endswith(b"UNDO-OK 3\n")
    assert on_cpython.count(b"\n") > 250       # an undo a line


def test_undo_on_the_vms(vm, logs, on_cpython):
    """Each VM checks its own undos against fresh replays, and prints every
    state after every undo as CPython does, byte for byte."""
    rc, out, err = vm_run(vm, [SCRIPT] + logs, timeout=300)
    assert rc == 0, err.decode(errors="replace")
    assert out == on_cpython
