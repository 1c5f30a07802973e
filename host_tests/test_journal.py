"""The journal against frames that pass their check yet are wrong (another
firmware's, a bit flip the CRC-8 missed): the engine refuses every record
its parser could not have made, and the boot keeps what it can play."""

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from altar.core import Rejected, Session, encode
from altar_fw import journal as J
from altar_fw import ui as U
from altar_host.sim import randomplay
from altar_host.device.emulator import Device, FlashNVM
from conftest import HERE, journaled, snapshot

SS3 = {"altar": 1, "game": "sete-selos", "players": ["P1", "P2", "P3"]}
GAMES = {"sete-selos": randomplay.sete_selos_game, "fantasmagoria": randomplay.fantasmagoria_game,
         "ritos-ancestrais": randomplay.ritos_game}


def test_the_reviews_frame_is_refused_and_the_boot_resumes_without_it():
    """(1, 7, 3), a ritual won by seat 7 of 3, crashed every boot."""
    dev = Device("macropad", nvm=FlashNVM(), capture=False)
    store = J.Store(dev.nvm)
    s = store.new(SS3)
    for t in ((1, 0, 5), (1, 7, 3), (9, 0, 0), (1, 1, 6)):
        store.journal.append(encode(t))
    dev.boot()
    ui = dev.app.ui
    assert dev.text()[0] == ui.T["resumed_skip"] % 2
    assert [tuple(t) for t in ui.session.history] == [(1, 0, 5), (1, 1, 6)]
    # The journal now holds the game alone: the next boot refuses nothing.
    dev.boot()
    assert dev.text()[0] == dev.app.ui.T["resumed"]
    assert dev.app.ui.session.view() == ui.session.view() != s.view()


BAD = {
    "sete-selos": [(), (0,), (9, 0, 0), (1, 7, 3), (1, 0, 8), (1, 0), (1, 0, 5, 5), (3, 7),
                   (4, 0), (4, 0, 7), (4, 9, 0), (2, 8, 9), (2, 9, 10, 11), (2, 1 << 40, 9, 10),
                   (1, -1, 3)],
    "fantasmagoria": [(), (9,), (2, 0, 0), (2, 5, 4), (2, 5), (4, 0, 21), (4, 5, 3), (5, 4),
                      (7, 0, 0), (7, 13, 0, 0, 0, 0, 0, 0, 0), (7, 0, 16, 0, 0, 0, 0, 0, 0),
                      (3, 33, 34, 35), (3, 33, 34, 35, 0xE0), (3, 33, 34, 35, 0x183),
                      (3, 33, 34, 35, -36), (3, 33, 34, 35, 36, 0x21), (6, 5, 33), (6, 0, 0, 0)],
    "ritos-ancestrais": [(), (0,), (5,), (1,), (1, 1000), (2, 0), (3, 4, 1), (3, 0, 1, 3),
                         (4, 0, 0, 0), (4, 0, 0, 0, 100)],
}


@pytest.mark.parametrize("game", sorted(BAD))
def test_records_no_parse_makes_are_refused_and_change_nothing(game):
    h = {"altar": 1, "game": game, "players": ["P1", "P2", "P3", "P4"]}
    s = Session(h)
    if game == "fantasmagoria":
        s.do({"do": "sacrifice", "trump": 5, "leader": 0})
    before = snapshot(s.state)
    kept = bytes(s.kept)
    for t in BAD[game]:
        with pytest.raises(Rejected, match="not an action of this game|number|ghost"):
            s.play(t)
        assert snapshot(s.state) == before and s.kept == kept


def test_a_journal_of_a_newer_format_is_said_and_kept():
    dev = Device("macropad", nvm=FlashNVM(), capture=False)
    f = J.frame(b"\x07" + b'{"altar": 1}')
    dev.nvm.data[0:len(f)] = f
    dev.boot()
    T = dev.app.ui.T
    assert dev.text()[0] == T["newer"]
    assert bytes(dev.nvm.data[0:len(f)]) == f


def test_a_journal_from_before_the_format_byte_still_resumes():
    nvm = bytearray(b"\xff" * 4096)
    j = J.Journal(nvm)
    j.append(b'{"altar": 1, "game": "sete-selos", "players": ["P1", "P2", "P3"]}')
    j.append(encode((1, 2, 4)))
    s, skipped = J.Store(nvm).load()
    assert skipped == 0 and s.view()["ritual"] == 1
    out = []
    st = J.Store(nvm, out.append)
    st.load()
    st.export()
    assert "".join(out).split("\n")[1].startswith('{"altar": 1')


def _whole_game(game, seed):
    h, actions = GAMES[game](players=3 + seed % 2, seed=seed, undo=20)
    nvm = bytearray(b"\xff" * 4096)
    journaled(nvm, h, actions)
    return nvm


def _boot(nvm):
    ui = U.Ui(J.Store(nvm), 0, "en", "")
    ui.boot()
    ui.draw()
    return ui


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 30),
       edits=st.lists(st.tuples(st.integers(1, 400), st.binary(min_size=1, max_size=12)),
                      min_size=1, max_size=6))
def test_any_valid_frame_in_a_real_game_boots(game, seed, edits):
    """A whole game's journal, with frames replaced by others that pass
    their check: the boot never raises, plays what the engine accepts, and
    leaves a journal that boots again to the same game, refusing nothing,
    and exports, every line an action the parser reads."""
    nvm = _whole_game(game, seed)
    frames = list(J.Journal(nvm).frames())
    for i, p in edits:
        frames[i % (len(frames) - 1) + 1] = p
    nvm[:] = b"\xff" * len(nvm)
    j = J.Journal(nvm)
    for p in frames:
        j.append(p)
    ui = _boot(nvm)
    s = ui.session
    again = _boot(nvm)
    assert again.notice == again.T["resumed"]
    assert again.session.view() == s.view()
    assert [tuple(t) for t in again.session.history] == [tuple(t) for t in s.history]
    out = []
    st_ = J.Store(nvm, out.append)
    st_.load()
    st_.export()
    lines = "".join(out).split("\n")[1:-2]       # between the markers
    assert Session(json.loads(lines[0])).view() is not None
    for ln in lines[1:]:
        a = json.loads(ln)
        if a != {"do": "undo"}:
            s.mod.parse(s.rules, a)
    for t in s.history:                 # what was kept, the parser could have made
        assert tuple(s.mod.parse(s.rules, s.mod.unparse(t))) == tuple(t)


def test_random_journals_boot_alike_on_every_vm(vm):
    """journal_fuzz.py: 300 random journals of valid frames, booted and
    exported; CPython and each VM print the same bytes."""
    from conftest import vm_run
    args = [os.path.join(HERE, "journal_fuzz.py"), "1", "300"]
    cp = vm_run("cpython", args)
    other = vm_run(vm, args)
    assert cp[0] == 0, cp[2].decode()
    assert other[0] == 0 and other[2] == b"", other[2].decode()
    assert cp[1] == other[1]
    out = cp[1].decode()
    assert "same=False" not in out and out.count("same=True") > 400
    assert int(out.split("records played ")[1]) > 1000


def test_the_crc_table_is_the_bit_loop_of_crc_8():
    """crc8 looks a byte up in a table: the table is CRC-8 (polynomial 0x07)
    a bit at a time, and a check is never 0xFF (the erased byte)."""
    def bits(c):
        for _ in range(8):
            c = (c << 1 ^ 0x07) & 0xFF if c & 0x80 else c << 1
        return c
    assert J._TABLE == bytes(bits(i) for i in range(256))
    assert J.crc8(b"123456789"[1:], ord("1")) == 0xF4      # CRC-8's check value
    assert J.crc8(b"", 0x48) == 0 and J.crc8(b"", 0x47) == bits(0x47)   # 0xFF maps to 0
