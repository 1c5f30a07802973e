"""`altar emulate --window`: under Xvfb, the window on each board shows the
firmware's panel at its scale (the golden screen), its lights in the
seats' colours, and acts on the keyboard and on clicks (a long click holds);
without a display it refuses in one line."""

import os
import shutil
import subprocess
import sys

import pytest

from altar_fw.lights import SEAT_COLOURS
from altar_host.device import emulate
from altar_host.device.emulator import Device, FlashNVM, png_pixels
from conftest import ROOT
from real_board import golden

BOARDS = ("pico-display", "macropad", "feather-oled")


@pytest.fixture(scope="module")
def xvfb():
    """An X server of its own (Xvfb): its DISPLAY, set while the module runs."""
    if not shutil.which("Xvfb"):
        pytest.skip("no Xvfb on PATH (Debian: xvfb)")
    proc = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "1600x1200x24",
                             "-nolisten", "tcp"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    display = ":" + proc.stdout.readline().decode().strip()
    old = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = display
    yield display
    if old is None:
        del os.environ["DISPLAY"]
    else:
        os.environ["DISPLAY"] = old
    proc.terminate()
    proc.wait()


def opened(board, tmp_path):
    from altar_host.device.window import Window
    dev = Device(board, FlashNVM(str(tmp_path / "flash.bin")))
    serial = emulate.Serial(str(tmp_path / "serial.log"))
    win = Window(dev, str(tmp_path / "flash.bin"),
                 lambda chunk: emulate.typed(dev, chunk, serial, lambda w: None, str(tmp_path)),
                 lambda: serial.take(dev))
    win.step()
    return dev, win


def key(win, k, **kw):
    import pygame
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, unicode=kw.get("unicode", ""),
                                         mod=0, scancode=0))
    for _ in range(15):                    # half a second: the lights' next state shows
        win.step()


def panel565(win):
    """The window's panel area, RGB565 (the panel's own colours), one value a pixel."""
    import pygame
    r = win.panel_rect()
    sub = win.surface.subsurface(r)
    w, h = r.size
    return [_565(sub.get_at((x, y))[:3]) for y in range(h) for x in range(w)]


def _565(rgb):
    r, g, b = rgb
    return (r >> 3) << 11 | (g >> 2) << 5 | b >> 3


def scaled(screen, scale):
    """A screen (png_pixels': width, height, RGB rows) at the window's scale, RGB565."""
    w, h, rows = screen
    return [_565(rows[y // scale][3 * (x // scale):3 * (x // scale) + 3])
            for y in range(h * scale) for x in range(w * scale)]


@pytest.mark.parametrize("board", BOARDS)
def test_the_window_shows_the_boards_panel_and_lights(board, xvfb, tmp_path):
    import pygame
    dev, win = opened(board, tmp_path)
    try:
        assert win.scale >= 2 and pygame.display.get_caption()[0].startswith(
            "Altar: %s, no game (flash: %s" % (board, tmp_path))
        assert panel565(win) == scaled(golden(board, "new-game"), win.scale)
        key(win, pygame.K_RETURN)
        assert panel565(win) == scaled(golden(board, "players"), win.scale)
        key(win, pygame.K_RETURN)
        key(win, pygame.K_RETURN)             # Sete Selos, 2 players, P1 deals: the board
        if board != "feather-oled":
            # the boards that write their panel themselves: the chip's glass, decoded from what
            # the firmware sent, is what the window's displayio draws (on the Pico Display, the
            # seats in their colours)
            assert panel565(win) == scaled(png_pixels(dev.png()), win.scale)
            assert len(set(panel565(win))) > (3 if board == "pico-display" else 1)
        key(win, pygame.K_RETURN)
        key(win, pygame.K_DOWN)               # ritual 1's winner? P1 selected
        assert dev.text()[0] == "Ritual 1: vencedor?" and "sete-selos" in win.title_text()
        lit = dev.lit()
        assert lit[0] and all(c == lit[0] for c in lit)
        for (x, y), c in zip(win.lights, lit):
            assert win.surface.get_at((x, y))[:3] == (c >> 16, c >> 8 & 0xFF, c & 0xFF)
        if board != "pico-display":        # the Pico's RGB LED is dimmed; the others show it whole
            assert lit[0] == SEAT_COLOURS[0]
        pygame.image.save(win.surface, str(tmp_path / "window.png"))
        if os.environ.get("ALTAR_WINDOW_SHOTS"):
            pygame.image.save(win.surface, os.path.join(os.environ["ALTAR_WINDOW_SHOTS"],
                                                        "window-%s.png" % board))
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q, unicode="q", mod=0,
                                             scancode=0))
        assert win.step() is False            # q quits, as in the terminal
    finally:
        win.close()


def _click(win, k, hold):
    """xdotool on the window: the button's centre, pressed for `hold` s."""
    import pygame
    wid = str(pygame.display.get_wm_info()["window"])
    x, y = win.buttons[k][0].center
    return subprocess.Popen(["xdotool", "mousemove", "--window", wid, str(x), str(y),
                             "mousedown", "1", "sleep", str(hold), "mouseup", "1"])


@pytest.mark.parametrize("board", BOARDS)
def test_a_click_is_the_button_and_a_long_click_its_hold(board, xvfb, tmp_path):
    if not shutil.which("xdotool"):
        pytest.skip("no xdotool on PATH (Debian: xdotool)")
    dev, win = opened(board, tmp_path)
    try:
        keymap = dev.profile.KEYMAP
        from altar_fw.inputs import BACK, OK, UNDO
        ok = [k for k, (short, _) in enumerate(keymap) if short == OK][0]
        for _ in range(3):                 # Sete Selos, 2 players, P1 deals
            p = _click(win, ok, 0.05)
            while p.poll() is None:
                win.step()
            for _ in range(6):
                win.step()
        assert dev.app.ui.session is not None and dev.keyed[-1][0] == ok
        before = dev.text()
        hold = [k for k, (short, long) in enumerate(keymap) if long == UNDO][0]
        assert keymap[hold][0] == BACK or board == "feather-oled"
        p = _click(win, hold, 1.0)
        while p.poll() is None:
            win.step()
        for _ in range(6):
            win.step()
        assert dev.keyed[-1][0] == hold and dev.keyed[-1][1] >= 700
        assert dev.text()[0] == "Nada a desfazer" != before[0]     # the hold: undo
        if dev.encoder:                       # the wheel turns the MacroPad's knob
            import pygame
            pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False))
            win.step()
            assert dev.keyed[-1] == ("turn", 1)
    finally:
        win.close()


def test_without_a_display_the_window_is_refused_in_one_line(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    p = subprocess.run([sys.executable, "-m", "altar_host.cli", "emulate", "--window",
                        "--nvm", str(tmp_path / "f.bin")], capture_output=True, text=True,
                       env=env, cwd=ROOT, timeout=60, stdin=subprocess.DEVNULL)
    assert p.returncode == 2
    err = [ln for ln in p.stderr.splitlines() if ln.startswith("altar emulate")]
    assert len(err) == 1 and "no display for a window" in err[0] and "without --window" in err[0]
