"""`altar deploy`: the CIRCUITPY layout, the mpy-cross check, and board picking."""

import os
import stat

import pytest

import boards
from altar_host import deploy
from altar_host.cli import main


def tree(d):
    out = []
    for base, _, files in os.walk(d):
        for f in files:
            out.append(os.path.relpath(os.path.join(base, f), d))
    return sorted(out)


@pytest.mark.parametrize("board,profile,reqs", [
    ("macropad", "macropad", ["adafruit_bitmap_font", "neopixel"]),
    ("pico-display", "pico_display", ["adafruit_bitmap_font", "adafruit_st7789"]),
    ("feather-oled", "feather_oled", ["adafruit_bitmap_font", "adafruit_displayio_sh1107",
                                      "neopixel"]),
])
def test_deploy_lays_out_a_circuitpy_drive(tmp_path, board, profile, reqs):
    assert main(["deploy", str(tmp_path), "--board", board]) == 0
    files = tree(tmp_path)
    assert "code.py" in files and "settings.toml" in files and "requirements.txt" in files
    assert "fonts/altar-mono-12.bdf" in files and "fonts/LICENSE-altar-mono.txt" in files
    assert "lib/altar/core.py" in files and "lib/altar/sete_selos.py" in files
    assert "lib/altar_fw/app.py" in files and "lib/altar_fw/journal.py" in files
    assert [f for f in files if f.startswith("lib/boards/")] == \
        ["lib/boards/__init__.py", "lib/boards/%s.py" % profile]
    assert not [f for f in files if f.endswith(".mpy") or "__pycache__" in f]
    assert (tmp_path / "requirements.txt").read_text().split() == reqs
    assert 'ALTAR_BOARD = "%s"' % profile in (tmp_path / "settings.toml").read_text()
    # A second deploy keeps the user's settings and leaves no stale module.
    (tmp_path / "settings.toml").write_text("MINE = 1\n")
    (tmp_path / "lib" / "altar" / "old.mpy").write_bytes(b"C")
    assert main(["deploy", str(tmp_path), "--board", board]) == 0
    assert (tmp_path / "settings.toml").read_text() == "MINE = 1\n"
    assert not (tmp_path / "lib" / "altar" / "old.mpy").exists()


def fake_mpy_cross(tmp_path, head):
    exe = tmp_path / ("mpy-cross-" + head)
    exe.write_text("#!/bin/sh\n# -o OUT SRC\nprintf '%s\\006' > \"$2\"\n" % head)
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    return str(exe)


def test_micropython_mpy_cross_is_refused(tmp_path, capsys):
    drive = tmp_path / "drive"
    drive.mkdir()
    assert main(["deploy", str(drive), "--board", "macropad",
                 "--mpy-cross", fake_mpy_cross(tmp_path, "M")]) == 2
    assert "not CircuitPython's" in capsys.readouterr().err
    assert tree(drive) == []


def test_circuitpython_mpy_cross_compiles_the_modules(tmp_path):
    drive = tmp_path / "drive"
    drive.mkdir()
    assert main(["deploy", str(drive), "--board", "feather-oled",
                 "--mpy-cross", fake_mpy_cross(tmp_path, "C")]) == 0
    files = tree(drive)
    assert "lib/altar/core.mpy" in files and "lib/altar_fw/ui.mpy" in files
    assert "lib/boards/feather_oled.mpy" in files and "lib/boards/__init__.py" in files
    assert "code.py" in files and "lib/altar/core.py" not in files


def test_deploy_refuses_unknown_boards_and_missing_folders(tmp_path):
    with pytest.raises(ValueError):
        deploy.deploy(str(tmp_path), "arduino")
    with pytest.raises(deploy.DeployError):
        deploy.deploy(str(tmp_path / "nope"), "macropad")


def test_board_picking_by_id_and_override():
    assert boards.pick("adafruit_macropad_rp2040").__name__ == "boards.macropad"
    assert boards.pick("raspberry_pi_pico_w").__name__ == "boards.pico_display"
    assert boards.pick("adafruit_macropad_rp2040", "feather_oled").__name__ == "boards.feather_oled"
    with pytest.raises(ValueError) as e:
        boards.pick("arduino_nano_rp2040_connect")
    assert "ALTAR_BOARD" in str(e.value)
    for name in boards.PROFILES:
        p = boards.load(name)
        assert len(p.KEYS) == len(p.KEYMAP) and p.PIXELS >= 1
        shorts = {k[0] for k in p.KEYMAP} | {k[1] for k in p.KEYMAP}
        from altar_fw.inputs import BACK, NEXT, OK, PREV, UNDO
        assert {PREV, NEXT, OK, BACK, UNDO} <= shorts, name    # every board speaks the grammar
