"""`altar emulate --window`: the board as it looks, in a desktop window.

The panel is the firmware's own root_group, refreshed by displayio into
blinka_displayio_pygamedisplay's PyGameDisplay (`Panel`), which the window
scales by a whole number; no second copy of the screen is drawn. Around it
the board's buttons, labelled as on the board (a click presses, a long click
holds, the wheel turns the MacroPad's knob), and its lights in the colours
altar_fw.lights sets. The keyboard keys are the terminal's (emulate.TERMINAL).
"""

import os
import sys

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")   # pygame's banner on standard output

import busdisplay  # noqa: E402
import displayio  # noqa: E402
import pygame  # noqa: E402
from blinka_displayio_pygamedisplay import PyGameDisplay  # noqa: E402

BACKGROUND = (24, 26, 30)
BOARD = {"macropad": (40, 40, 44), "pico-display": (20, 60, 30), "feather-oled": (30, 30, 60)}
KEY = (200, 200, 196)
KEY_DOWN = (120, 120, 116)
INK = (20, 20, 20)
LABEL = (230, 230, 230)


class Refused(Exception):
    """No display to open a window on (no $DISPLAY, or SDL cannot open one)."""


class Panel(PyGameDisplay):
    """The board's panel: displayio's refreshes, drawn by
    blinka_displayio_pygamedisplay into a surface of the panel's size (the
    window scales it); Blinka's one display while the window is open."""

    def _initialize(self, init_sequence):
        self._pygame_screen = pygame.Surface((self.width, self.height))

    def _refresh_display(self):
        busdisplay.BusDisplay._refresh_display(self)    # the window flips once it is drawn

    def _release(self):
        busdisplay.BusDisplay._release(self)            # the window keeps pygame


def layout(dev, scale):
    """Where the panel, the buttons (key number -> rect, label) and the
    lights go on this board: (size, panel's top-left, buttons, knob rect or
    None, light centres)."""
    w, h = dev.display.width * scale, dev.display.height * scale
    m = 24
    keys = dev.profile.KEYS
    buttons = {}
    lights = []
    knob = None
    if dev.name == "macropad":
        # the 12 keys under the panel, 3 a row as wide as it, a NeoPixel in each; the knob right
        kw, kh = (w - 2 * m) // 3, 64
        top = m + h + m
        for k in range(12):
            r = pygame.Rect(m + (k % 3) * (kw + m), top + (k // 3) * (kh + m), kw, kh)
            buttons[k] = (r, keys[k])
            lights.append((r.right - 14, r.top + 14))
        knob = pygame.Rect(m + w + m, m, 80, 80)
        buttons[12] = (pygame.Rect(knob.x, knob.bottom + 8, 80, 32), keys[12])
        return (m + w + m + 80 + m, top + 4 * (kh + m)), (m, m), buttons, knob, lights
    if dev.name == "pico-display":
        # A and B left of the panel, X and Y right of it, the RGB LED above
        side = 70
        for k, (x, y) in enumerate(((m, m + 20), (m, m + h - side - 20),
                                    (m + side + m + w + m, m + 20),
                                    (m + side + m + w + m, m + h - side - 20))):
            buttons[k] = (pygame.Rect(x, y, side, side), keys[k])
        lights.append((m + side + m + w // 2, m + h + m + 12))
        return (m + side + m + w + m + side + m, m + h + m + 24 + m), (m + side + m, m), \
            buttons, None, lights
    # the FeatherWing: A, B, C right of the panel; the Feather's NeoPixel under it
    side = 60
    for k in range(3):
        buttons[k] = (pygame.Rect(m + w + m, m + k * (h - side) // 2, side, side), keys[k])
    lights.append((m + w // 2, m + h + m + 12))
    return (m + w + m + side + m, m + h + m + 24 + m), (m, m), buttons, None, lights


class Window:
    """The window of one emulated device (emulator.Device): `step()` takes
    the events, runs the device's clock and draws. `typed(chunk)` handles
    the keyboard as the terminal does (emulate.typed: None to quit, else a
    status); `pressed()` runs after a click (the serial console's output)."""

    def __init__(self, dev, title, typed=None, pressed=None):
        if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY")
                                                     or os.environ.get("WAYLAND_DISPLAY")):
            raise Refused("neither $DISPLAY nor $WAYLAND_DISPLAY is set")
        try:
            pygame.display.init()
            pygame.font.init()
            info = pygame.display.Info()
        except pygame.error as e:
            raise Refused(str(e))
        driver = pygame.display.get_driver()
        if driver in ("offscreen", "dummy"):
            # SDL's fallbacks when it finds no display: a window no one would see
            pygame.quit()
            raise Refused("SDL found none, only its %s driver" % driver)
        self.dev = dev
        self.title = title
        self.typed = typed
        self.pressed = pressed or (lambda: None)
        self.clock = pygame.time.Clock()
        # the largest whole scale (at most 5) at which the board fits the desktop
        room = (info.current_w or 1280) - 40, (info.current_h or 800) - 80
        for self.scale in range(5, 0, -1):
            size = layout(dev, self.scale)[0]
            if size[0] <= room[0] and size[1] <= room[1]:
                break
        self.size, self.at, self.buttons, self.knob, self.lights = layout(dev, self.scale)
        try:
            self.surface = pygame.display.set_mode(self.size)
        except pygame.error as e:
            raise Refused(str(e))
        font = pygame.font.Font(None, 28)
        # each label drawn once, blitted every frame
        self.labels = {k: font.render(label, True, INK) for k, (_, label) in self.buttons.items()}
        self.knob_label = font.render("knob", True, INK)
        self.panel = None
        self.down = None          # (key number, ms when pressed) while the mouse holds a button
        self.status = ""          # what the last export said
        self.adopt()

    def adopt(self):
        """The panel shows the firmware's root_group: after a boot (a new
        canvas, and the board's build() made its own display), the window's
        Panel takes Blinka's one display and the group."""
        group = self.dev.app.canvas.group
        if self.panel is not None and self.panel.root_group is group:
            return
        displayio.release_displays()
        d = self.dev.display
        self.panel = Panel(width=d.width, height=d.height, auto_refresh=False, caption=None)
        self.panel.root_group = group

    def title_text(self):
        ui = self.dev.app.ui
        game = ui.session.header["game"] if ui.session else "no game"
        said = "Altar: %s, %s (flash: %s)" % (self.dev.name, game, self.title)
        return "%s - %s" % (said, self.status) if self.status else said

    def step(self):
        """One turn of the window's loop (about 30 a second); False once it
        is closed or q is typed."""
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                return False
            if event.type == pygame.KEYDOWN and self.typed:
                got = self.typed(self.keys(event) or "")
                if got is None:
                    return False
                self.status = got or self.status
            elif self.mouse(event, pygame.time.get_ticks()):
                self.pressed()
        self.dev.tick(self.clock.tick(30))      # effects play on, in real time
        self.frame()
        return True

    def close(self):
        pygame.quit()

    # -- input ------------------------------------------------------------------------------

    def button_at(self, pos):
        for k, (r, _) in self.buttons.items():
            if r.collidepoint(pos):
                return k
        return None

    def mouse(self, event, now):
        """A click on a button presses it, a long one holds it; the wheel
        turns the knob. True if the device had an input."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            k = self.button_at(event.pos)
            if k is not None:
                self.down = (k, now)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.down:
            k, t = self.down
            self.down = None
            self.dev.key(k, max(80, now - t))
            return True
        elif event.type == pygame.MOUSEWHEEL and self.dev.encoder:
            self.dev.turn(-event.y)
            return True
        return False

    # -- drawing ----------------------------------------------------------------------------

    def frame(self):
        """Refresh the panel (displayio redraws what changed) and draw the window."""
        self.adopt()
        self.panel.refresh()
        s = self.surface
        s.fill(BACKGROUND)
        pygame.draw.rect(s, BOARD[self.dev.name], s.get_rect(), border_radius=18)
        w, h = self.panel.width * self.scale, self.panel.height * self.scale
        s.blit(pygame.transform.scale(self.panel._pygame_screen, (w, h)), self.at)
        lit = self.dev.lit()
        for k, (r, _) in self.buttons.items():
            down = self.down is not None and self.down[0] == k
            pygame.draw.rect(s, KEY_DOWN if down else KEY, r, border_radius=10)
            s.blit(self.labels[k], self.labels[k].get_rect(center=r.center))
        # a MacroPad's lights shine through its keys: drawn over them
        for c, rgb in zip(self.lights, lit):
            pygame.draw.circle(s, (rgb >> 16, rgb >> 8 & 0xFF, rgb & 0xFF), c, 9)
        if self.knob:
            pygame.draw.ellipse(s, KEY, self.knob)
            s.blit(self.knob_label, self.knob_label.get_rect(center=self.knob.center))
        pygame.display.set_caption(self.title_text())
        pygame.display.flip()

    def keys(self, event):
        """A key on the keyboard as the terminal sends it (emulate.TERMINAL's
        spelling), or None."""
        special = {pygame.K_UP: "\x1b[A", pygame.K_DOWN: "\x1b[B", pygame.K_LEFT: "\x1b[D",
                   pygame.K_RIGHT: "\x1b[C", pygame.K_RETURN: "\r", pygame.K_KP_ENTER: "\r",
                   pygame.K_BACKSPACE: "\x7f", pygame.K_ESCAPE: "\x1b"}
        return special.get(event.key) or event.unicode or None

    def panel_rect(self):
        """Where the panel is in the window (for the tests' screenshots)."""
        return pygame.Rect(self.at, (self.panel.width * self.scale,
                                     self.panel.height * self.scale))
