"""The binaries Altar keeps (tools/circuitpython: CircuitPython's host tools
and the boards' firmware; tools/rp2040/bootrom.mjs): each is the file its
SHA256SUMS names, its README says what it is, and it is what it says."""

import hashlib
import os
import shutil
import struct
import subprocess

import pytest

from conftest import ROOT, cp_tool

KEPT = os.path.join(ROOT, "tools", "circuitpython")
RP2040 = os.path.join(ROOT, "tools", "rp2040")
VERSION = "10.3.0-alpha.4-53-gcd3da4a5d8"


def sums(folder):
    """{path relative to folder: SHA-256} from folder/SHA256SUMS."""
    out = {}
    with open(os.path.join(folder, "SHA256SUMS")) as f:
        for line in f:
            digest, name = line.rstrip("\n").split("  ", 1)
            out[name] = digest
    return out


def files(folder, *subs):
    return sorted(os.path.join(s, n) for s in subs for n in os.listdir(os.path.join(folder, s)))


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


@pytest.mark.parametrize("folder,subs", [(KEPT, ("bin", "firmware")), (RP2040, ("",))],
                         ids=["circuitpython", "bootrom"])
def test_every_kept_binary_is_the_one_its_checksum_names(folder, subs):
    listed = sums(folder)
    if subs == ("",):
        assert sorted(listed) == ["bootrom.mjs"]
    else:
        assert sorted(listed) == files(folder, *subs)
    for name, want in listed.items():
        assert digest(os.path.join(folder, name)) == want, name


def test_the_readme_says_what_each_binary_is_and_the_licences_are_there():
    with open(os.path.join(KEPT, "README.md")) as f:
        readme = f.read()
    for name in files(KEPT, "bin", "firmware"):
        assert "`%s`" % name in readme or "`%s`" % os.path.basename(name) in readme, name
    assert "cd3da4a5d894a9648871db7188fc38ee4b344cd4" in readme and VERSION in readme
    assert os.path.isfile(os.path.join(KEPT, "LICENSE"))
    assert os.path.isfile(os.path.join(KEPT, "build.sh"))
    assert os.access(os.path.join(KEPT, "build.sh"), os.X_OK)
    with open(os.path.join(RP2040, "LICENSE-bootrom.txt")) as f:
        assert "Copyright 2020 (c) 2020 Raspberry Pi (Trading) Ltd." in f.read()
    for name in files(KEPT, "bin"):
        assert os.access(os.path.join(KEPT, name), os.X_OK), name


def test_the_firmware_files_are_rp2040_uf2s_of_that_circuitpython():
    """UF2 blocks of 512 bytes (magics, the RP2040's family ID) whose payload
    holds the banner of CircuitPython 10.3.0-alpha.4 for its board."""
    boards = {"raspberry_pi_pico": b"Raspberry Pi Pico with rp2040",
              "adafruit_macropad_rp2040": b"Adafruit Macropad RP2040 with rp2040",
              "adafruit_feather_rp2040": b"Adafruit Feather RP2040 with rp2040"}
    for name in files(KEPT, "firmware"):
        with open(os.path.join(KEPT, name), "rb") as f:
            data = f.read()
        assert len(data) % 512 == 0, name
        payload = b""
        for i in range(0, len(data), 512):
            m0, m1, flags, addr, size, n, total, family = struct.unpack_from("<8I", data, i)
            assert (m0, m1) == (0x0A324655, 0x9E5D5157), name
            assert struct.unpack_from("<I", data, i + 508)[0] == 0x0AB16F30, name
            assert flags & 0x2000 and family == 0xE48BFF56, name     # the RP2040's
            payload += data[i + 32:i + 32 + size]
        board = [b for b in boards if b in name]
        assert len(board) == 1, name
        assert b"Adafruit CircuitPython 10.3.0-alpha.4 on " in payload, name
        assert boards[board[0]] in payload, name


def test_the_host_tools_are_that_circuitpython():
    """Where this machine runs them (Linux x86-64, or the folder
    ALTAR_CIRCUITPYTHON names): the version, and a 32-bit VM."""
    mpy_cross, vm = cp_tool("mpy-cross"), cp_tool("circuitpython")
    out = subprocess.run([mpy_cross, "--version"], capture_output=True, text=True,
                         timeout=60).stdout
    assert "CircuitPython %s" % VERSION in out and "mpy v6." in out
    for exe, bits in ((vm, 2 ** 31 - 1), (cp_tool("circuitpython64"), 2 ** 63 - 1)):
        out = subprocess.run([exe, "-c", "import sys; print(sys.implementation.name, "
                              "sys.maxsize); print(sys.version)"], capture_output=True,
                             text=True, timeout=60).stdout
        assert out.startswith("circuitpython %d\n" % bits) and VERSION in out, out


def test_the_emulated_boards_take_the_kept_firmware_or_the_folder_named(tmp_path, monkeypatch):
    """run.mjs finds each board's firmware in tools/circuitpython/firmware, or
    in the folder ALTAR_CIRCUITPYTHON names; one missing there is said."""
    from altar_host.device import board_emu
    for exe in ("node", "mkfs.fat", "mcopy"):
        if not shutil.which(exe):
            pytest.skip("%s is not installed (apt-get install -y nodejs dosfstools mtools)" % exe)
    monkeypatch.delenv("ALTAR_CIRCUITPYTHON", raising=False)
    monkeypatch.setattr(board_emu, "_BOARD", {})
    uf2 = board_emu.board("macropad")["uf2"]
    assert uf2 == os.path.join(KEPT, "firmware",
                               "circuitpython-10.3.0-alpha.4-adafruit_macropad_rp2040-uart1.uf2")
    monkeypatch.setenv("ALTAR_CIRCUITPYTHON", str(tmp_path))
    monkeypatch.setattr(board_emu, "_BOARD", {})
    assert board_emu.board("macropad")["uf2"] == str(tmp_path / "firmware" / os.path.basename(uf2))
    assert board_emu.missing(name="macropad") == "the firmware is missing: %s" % (
        tmp_path / "firmware" / os.path.basename(uf2))
