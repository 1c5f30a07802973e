"""CPython, MicroPython and CircuitPython's 32-bit VM (from sources and from
.mpy files) replay every log of a corpus to the same bytes.

The corpus (logcases.py) holds 124 valid logs (Sete Selos: 60, random whole
games over 2/3/4 players, with options, truncated games, Unicode names, blank
lines; Fantasmagória: 36, referee and quick entry, with and without a deck,
every option, cut games; Ritos Ancestrais: 28) and 114 error logs (every
error class of the contract, 24 of them Fantasmagória's, 8 Ritos'), plus
the VM edge cases below. Each is written to a temp dir and replayed once per VM, in parallel;
the tests then compare each VM's result with CPython's.
"""

import concurrent.futures
import io
import json
import os
import re

import pytest

from altar import log
from altar_host import circuitpython
from conftest import VMS, have, run_replay
from logcases import ERRORS, H3, VALID, text

# Inputs on which the VMs' own primitives (str.strip, bytes.decode, int(),
# json.loads) disagree. Each entry: (log bytes, what the raw primitives do).
# The engine makes both VMs agree on all of them; they stay as regression
# cases, apart from the contract cases.
EDGES = {
    # CPython's str.strip() removes Unicode whitespace, MicroPython's only
    # ASCII whitespace; the JSON reader then sees the character.
    "nbsp-only-line": (text(H3, "\u00a0"),
                       "CPython: blank line, exit 0; MicroPython: line 2: not valid JSON"),
    "nbsp-after-action": (text(H3, json.dumps({"do": "ritual", "winner": 0, "value": 3}) + "\u00a0"),
                          "CPython: exit 0; MicroPython: line 2: not valid JSON"),
    "line-separator-only-line": (text(H3, "\u2028"),
                                 "CPython: blank line, exit 0; MicroPython: line 2: not valid JSON"),
    "file-separator-only-line": (text(H3, "\x1c"),
                                 "CPython: blank line, exit 0; MicroPython: line 2: not valid JSON"),
    # MicroPython's bytes.decode() accepts what CPython refuses as UTF-8.
    "utf8-encoded-surrogate": (
        b'{"altar": 1, "game": "sete-selos", "players": ["A\xed\xa0\x80", "B"]}\n',
        "CPython: line 1: not UTF-8 text; MicroPython (plain decode) accepts it"),
    "utf8-overlong-2-bytes": (
        b'{"altar": 1, "game": "sete-selos", "players": ["A\xc0\xafB", "B"]}\n',
        "CPython: line 1: not UTF-8 text; MicroPython decodes C0 AF as '/', exit 0"),
    "utf8-overlong-3-bytes": (
        b'{"altar": 1, "game": "sete-selos", "players": ["A\xe0\x80\xafB", "B"]}\n',
        "CPython: line 1: not UTF-8 text; MicroPython decodes E0 80 AF as '/', exit 0"),
    "utf8-beyond-10ffff": (
        b'{"altar": 1, "game": "sete-selos", "players": ["A\xf4\x90\x80\x80", "B"]}\n',
        "CPython: line 1: not UTF-8 text; MicroPython decodes F4 90 80 80 as U+110000, exit 0"),
    # CPython refuses int() of more than 4300 digits (sys.set_int_max_str_digits).
    "5000-digit-seed": (
        ('{"altar": 1, "game": "sete-selos", "players": ["A", "B"], "seed": %s}\n'
         % ("9" * 5000)).encode(),
        "CPython: line 1: not valid JSON (int max str digits); MicroPython: exit 0"),
    # Things MicroPython's own json.loads takes and CPython's refuses, or the
    # reverse: they made the VMs disagree until the engine got its own strict
    # reader (altar.jsonin); kept as regression cases.
    "mpy-json-missing-comma": (text(H3, '{"do": "ritual" "winner": 0, "value": 3}'),
                               "json.loads: MicroPython accepts a missing comma"),
    "mpy-json-trailing-comma": (text(H3, '{"do": "ritual", "winner": 0, "value": 3,}'),
                                "json.loads: MicroPython accepts a trailing comma"),
    "mpy-json-leading-zero": (text(H3, '{"do": "ritual", "winner": 0, "value": 03}'),
                              "json.loads: MicroPython accepts 03"),
    "mpy-json-bad-escape": (text(H3, '{"do": "und\\o"}'),
                            "json.loads: MicroPython reads \\o as o"),
    "mpy-json-raw-tab-in-string": (text(dict(H3, players=["A\tB", "C"])),
                                   "json.loads: MicroPython accepts a raw control character"),
    "mpy-json-missing-value": (text(H3, '{"do": "undo", "x": }'),
                               "json.loads: MicroPython drops a key without a value"),
    "mpy-json-non-string-key": (text(H3, '{"do": "undo", 1: 2}'),
                                "json.loads: MicroPython takes an int key; sorted() of mixed keys "
                                "then raises TypeError (exit 1, traceback)"),
    "mpy-json-mismatched-brackets": (text(H3, '{"do": "ritual", "winner": 0, "value": 3]'),
                                     "json.loads: MicroPython accepts {...]"),
    "cpy-json-nan": (text(dict(H3, seed=float("nan"))),
                     "json.loads: CPython reads NaN (seed must be an integer), MicroPython refuses"),
    "cpy-json-infinity": (text(H3, '{"do": "ritual", "winner": 0, "value": -Infinity}'),
                          "json.loads: CPython reads -Infinity, MicroPython refuses"),
    "escaped-astral-key": (text(H3, '{"do": "undo", "\\ud83d\\ude00": 1}'),
                           "json.loads: MicroPython keeps a surrogate pair as two code points "
                           "(CESU-8 bytes in the message)"),
    "escaped-lone-surrogate-key": (text(H3, '{"do": "undo", "\\udc80": 1}'),
                                   "CPython writes a lone surrogate as \\udc80 on stderr, "
                                   "MicroPython as raw bytes"),
    "deep-nesting": (text("[" * 3000 + "]" * 3000),
                     "json.loads: CPython RecursionError (exit 1, traceback); "
                     "MicroPython MemoryError at 100000 deep"),
    "escaped-nul-in-key": (text(H3, '{"do": "undo", "a\\u0000b": 1}'), "a NUL in the message"),
}

LINE = re.compile(rb"^line (\d+): ([^\n]+)\n$")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """name -> {"path", "cpython": (rc, out, err), and the same for each VM here}."""
    d = tmp_path_factory.mktemp("parity")
    logs = {}
    for group in (VALID, {k: v[0] for k, v in ERRORS.items()}, {k: v[0] for k, v in EDGES.items()}):
        for name, data in group.items():
            path = str(d / (name + ".jsonl"))
            with open(path, "wb") as f:
                f.write(data)
            logs[name] = {"path": path}
    jobs = [(name, vm) for name in logs for vm in ("cpython",) + VMS if have(vm)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as ex:
        results = ex.map(lambda job: run_replay(job[1], logs[job[0]]["path"]), jobs)
        for (name, vm), res in zip(jobs, results):
            logs[name][vm] = res
    return logs


def same(r, vm):
    cp, other = r["cpython"], r[vm]
    assert cp[0] == other[0], "exit codes differ: CPython %r, %s %r" % (cp, vm, other)
    assert cp[1] == other[1], "stdout differs:\nCPython %r\n%s %r" % (cp[1], vm, other[1])
    assert cp[2] == other[2], "stderr differs:\nCPython %r\n%s %r" % (cp[2], vm, other[2])


def test_corpus_size():
    assert len(VALID) >= 120
    assert len([n for n in VALID if n.startswith("fa-")]) >= 30
    assert len([n for n in VALID if n.startswith(("game-", "opt-"))]) >= 40
    assert len(ERRORS) >= 30


@pytest.mark.parametrize("name", sorted(VALID))
def test_valid_log(corpus, name, vm):
    r = corpus[name]
    same(r, vm)
    rc, out, err = r["cpython"]
    assert (rc, err) == (0, b""), err
    assert out.endswith(b"\n") and out.count(b"\n") == 1
    view = json.loads(out)
    assert isinstance(view, dict)
    expected = log.load(io.BytesIO(VALID[name])).view()
    assert out == (json.dumps(expected, sort_keys=True) + "\n").encode()
    assert view == expected


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_error_log(corpus, name, vm):
    _, line, fragment = ERRORS[name]
    r = corpus[name]
    same(r, vm)
    rc, out, err = r["cpython"]
    assert rc == 2, (rc, out, err)
    assert out == b""
    m = LINE.match(err)
    assert m, "stderr is not one line 'line N: reason': %r" % err
    assert int(m.group(1)) == line, err
    assert fragment.encode("utf-8") in m.group(2), err


def test_newline_in_key_keeps_stderr_one_line(tmp_path, vm):
    """A key with an escaped newline is echoed in the reason: the reason
    must still be one line (contract: 'prints one line to stderr')."""
    p = tmp_path / "nl.jsonl"
    p.write_bytes(text(H3, '{"do": "undo", "a\\nb": 1}'))
    for v in ("cpython", vm):
        rc, out, err = run_replay(v, str(p))
        assert (rc, out) == (2, b"")
        assert err == b'line 2: unknown key "a\\nb"\n', err


@pytest.mark.parametrize("name", sorted(EDGES))
def test_vm_edge(corpus, name, vm):
    r = corpus[name]
    same(r, vm)
    rc, out, err = r["cpython"]
    if rc == 0:
        assert json.loads(out)["game"] == "sete-selos"
    else:
        assert rc == 2 and out == b"" and LINE.match(err), (rc, out, err)


def test_a_machine_that_cannot_run_circuitpythons_vm_skips_saying_why(monkeypatch):
    """The kept VM is a Linux x86-64 binary: elsewhere its tests skip, naming
    it and how to bring one's own."""
    import conftest
    monkeypatch.delenv(circuitpython.ENV, raising=False)
    monkeypatch.setattr(circuitpython, "MACHINE", ("Darwin", "arm64"))
    assert conftest.have("micropython") and not conftest.have("circuitpython-mpy")
    with pytest.raises(pytest.skip.Exception) as e:
        conftest.need("circuitpython")
    assert ("tools/circuitpython/bin/circuitpython is built for Linux x86_64 and this machine "
            "is Darwin arm64" in str(e.value))
    assert "ALTAR_CIRCUITPYTHON" in str(e.value) and "build.sh" in str(e.value)
