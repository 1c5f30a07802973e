"""`altar emulate` as a new user meets it: keys that arrive together, a
window of any size, each board's keys in the footer, the export reaching a
file `altar dump` reads, PNGs after each key, and messages for bad input."""

import os

import pytest

from altar_host.device import emulate
from altar_host.cli import BOARD_NAMES, main
from altar_host.device.emulator import Device
from conftest import terminal


class Shots(list):
    def __call__(self, name):
        self.append(name)


def test_keys_that_arrive_together_are_each_handled():
    assert emulate.split_keys("\x1b[B\x1b[B\r") == ["\x1b[B", "\x1b[B", "\r"]
    assert emulate.split_keys("\x1bOAu\x1b") == ["\x1bOA", "u", "\x1b"]
    assert emulate.split_keys("12q") == ["1", "2", "q"]
    dev = Device("macropad", capture=False)
    shots = Shots()
    assert emulate.typed(dev, "\x1b[B\x1b[B\r", emulate.Serial(os.devnull), shots) == ""
    assert dev.pressed == ["next", "next", "ok"] and shots == ["next", "next", "ok"]
    assert dev.text()[0] != Device("macropad", capture=False).text()[0]   # Ritos was chosen
    assert emulate.typed(dev, "xq\r", emulate.Serial(os.devnull), shots) is None   # q quits


@pytest.mark.parametrize("board", BOARD_NAMES)
def test_the_screen_fits_the_terminal(board):
    dev = Device(board)
    for cols, rows in ((80, 24), (200, 80), (60, 14)):
        for reverse in (True, False):
            lines = emulate.frame(dev, cols, rows, reverse=reverse).split("\n")
            assert len(lines) <= rows
            assert all(emulate.visible(ln) <= cols for ln in lines)
    big = emulate.frame(dev, 200, 80)
    assert "█" in big or "▀" in big                       # the pixels, in blocks
    small = emulate.frame(dev, 80, 24)
    assert ("│" in small) != ("█" in small or "▀" in small)       # one or the other
    assert "too small" in emulate.frame(dev, 30, 6)


def test_each_board_shows_its_own_keys():
    macro = emulate.footer(Device("macropad", capture=False))
    pico = emulate.footer(Device("pico-display", capture=False))
    feather = emulate.footer(Device("feather-oled", capture=False))
    assert "1-7: values" in macro and "Enter: ok  " in macro and "u: undo (hold back)" in macro
    assert "1-7" not in pico and "1-7" not in feather
    assert "Enter: ok (A)" in pico and "u: undo (hold B)" in pico
    assert "Enter: ok (B)" in feather


def test_export_reaches_a_file_that_altar_dump_reads(tmp_path, capsys):
    dev = Device("macropad", capture=False)
    serial = emulate.Serial(str(tmp_path / "serial.log"))
    shots = Shots()
    assert emulate.typed(dev, "e", serial, shots, str(tmp_path)) == "No game to export yet"
    emulate.typed(dev, "\r\r\r\r\r3", serial, shots)        # a game, one ritual
    status = emulate.typed(dev, "e", serial, shots, str(tmp_path))
    assert shots[-1] == "export"
    # the export is a session log of its own, named after the game, and on the serial console
    saved = [p for p in os.listdir(tmp_path) if p.endswith(".jsonl")]
    assert len(saved) == 1 and saved[0].startswith("altar-sete-selos-")
    assert status == "Exported: %s (and on the serial console, %s)" % (
        tmp_path / saved[0], tmp_path / "serial.log")
    assert main(["replay", "--json", str(tmp_path / saved[0])]) == 0
    assert '"ritual": 1' in capsys.readouterr().out
    # an export that does not replay (a journal an older Altar wrote) is said, nothing saved
    real = dev.app.store.export
    dev.app.store.export = lambda: dev.serial.append(
        "-----BEGIN ALTAR LOG-----\n{\"altar\": 2}\n-----END ALTAR LOG-----\n")
    status = emulate.typed(dev, "e", serial, shots, str(tmp_path))
    assert status.startswith("The export (on the serial console, %s) does not replay: line 1:"
                             % (tmp_path / "serial.log")), status
    assert len([p for p in os.listdir(tmp_path) if p.endswith(".jsonl")]) == 1
    dev.app.store.export = real
    emulate.typed(dev, "\r14e", serial, shots, str(tmp_path))  # again: a second file, not over it
    assert len([p for p in os.listdir(tmp_path) if p.endswith(".jsonl")]) == 2
    # the serial log holds both exports: `altar dump` takes the last
    assert main(["dump", str(tmp_path / "serial.log"), "-o", str(tmp_path / "g.jsonl")]) == 0
    assert (tmp_path / "g.jsonl").read_text().count("ritual") == 2
    # scripted: the export word prints the markers too, as a board's console
    keys = tmp_path / "keys.txt"
    keys.write_text("ok ok ok ok ok 3 export\n")
    assert main(["emulate", "--keys", str(keys)]) == 0
    out = capsys.readouterr().out
    (tmp_path / "out.txt").write_text(out)
    assert "-----BEGIN ALTAR LOG-----" in out
    assert main(["dump", str(tmp_path / "out.txt"), "-o", str(tmp_path / "h.jsonl")]) == 0


def test_bad_key_files_and_words_get_one_line(tmp_path, capsys):
    assert main(["emulate", "--keys", str(tmp_path / "missing.txt")]) == 2
    out, err = capsys.readouterr()
    assert not out and err.count("\n") == 1 and "cannot read" in err
    bad = tmp_path / "bad.txt"
    bad.write_text("ok flarp\n")
    assert main(["emulate", "--keys", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "key word 2: unknown key word 'flarp'" in err and "prev next ok back undo" in err
    bad.write_text("wait:soon\n")
    assert main(["emulate", "--keys", str(bad)]) == 2
    assert "wait:MS takes milliseconds" in capsys.readouterr().err


def test_quitting_keeps_the_game_and_the_next_run_resumes_it(tmp_path):
    """The board keeps its flash when unplugged: so does the emulator, in the
    user's data folder; --fresh starts over with the old flash moved aside."""
    env = {"XDG_DATA_HOME": str(tmp_path / "data")}
    args = ["emulate", "--lang", "en", "--serial-log", os.devnull]
    flash = tmp_path / "data" / "altar" / "macropad.flash"
    # New game > Sete Selos > 4 players > P1 deals; P2 won ritual 1 with 5.
    status, out = terminal(args + ["--players", "Ana,Bia,Caio,Duda"],
                           [b"\r", b"4", b"1", b"\r", b"2", b"5"], env=env, cwd=str(tmp_path))
    assert status == 0
    said = out.decode(errors="replace").replace("\r", "").replace("\n", "")
    assert ("The game is kept in %s: `altar emulate --board macropad --lang en` resumes it"
            % flash) in said
    status, out = terminal(args, [b"u"], rows=24, cols=80, env=env, cwd=str(tmp_path))
    text = out.decode(errors="replace")
    assert status == 0 and "Resumed from %s" % flash in text.replace("\r\n", "")
    assert ">Bia" in text and "Bia won ritual 1" in text       # its names, then what was undone
    status, out = terminal(args + ["--fresh"], env=env, cwd=str(tmp_path))
    said = out.decode(errors="replace").replace("\r", "").replace("\n", "")
    assert status == 0 and "No game was started" in said
    assert ("The flash before --fresh is in %s.previous" % flash) in said
    assert os.path.exists(str(flash) + ".previous")


def test_names_from_the_command_line_reach_the_export_and_the_sheet(tmp_path, capsys):
    keys = tmp_path / "keys.txt"
    keys.write_text("ok 3 1   # Sete Selos, 3 players, Ana deals\nok 2 5   # Bia won with 5\nexport\n")
    assert main(["emulate", "--lang", "en", "--players", "Ana, Bia,Zoë", "--keys", str(keys)]) == 0
    out = capsys.readouterr().out
    assert "Ana" in out.split("-----END ALTAR LOG-----")[1]       # the last screen: names
    (tmp_path / "serial.txt").write_text(out)
    assert main(["dump", str(tmp_path / "serial.txt"), "-o", str(tmp_path / "g.jsonl"),
                 "--sheet"]) == 0
    assert '"players": ["Ana", "Bia", "Zo\\u00eb"]' in (tmp_path / "g.jsonl").read_text()
    html = (tmp_path / "g.html").read_text()
    assert "Bia" in html and "Zoë" in html
    capsys.readouterr()                   # dump's own lines
    keys.write_text("# the first screen only\n")
    assert main(["emulate", "--players", "A,B,C,D,E", "--keys", str(keys)]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == ["Erro: ALTAR_PLAYERS", "5 nomes, no máximo"]
