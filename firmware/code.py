"""Altar on a CircuitPython board: pick the board's profile (board.board_id,
or ALTAR_BOARD in settings.toml), build its hardware, load the screens'
font, run the app in the language of ALTAR_LANG ("pt", the
default, or "en"), new games' seats named by ALTAR_PLAYERS ("Ana,Bia,Caio"); ALTAR_STREAM = 0
stops the live stream of the game on the serial console (`altar live`)."""

import gc
import os
import sys
import time

import board
import keypad
import microcontroller
import supervisor

import boards
from altar_fw import font
from altar_fw.app import App

# The build's terminalio font has no accents: the bundled subset of Terminus,
# every glyph in one strip (altar_fw/font.py, tools/make/make_font.py).
FONT = "/fonts/altar-mono-12.bin"

profile = boards.pick(board.board_id, os.getenv("ALTAR_BOARD"))
display, keys, pixels, encoder = profile.build()
lang = os.getenv("ALTAR_LANG") or "pt"
players = str(os.getenv("ALTAR_PLAYERS") or "")   # a bare number reads as an int
app = App(display, keys, pixels, encoder, profile.KEYMAP, microcontroller.nvm,
          font.load(FONT), keypad.Event(), profile.SCALE, profile.COLOURS,
          write=sys.stdout.write, seed=int.from_bytes(os.urandom(4), "little") >> 1,
          lang=lang, players=players, collect=gc.collect,
          stream=os.getenv("ALTAR_STREAM") != 0, runtime=supervisor.runtime, stdin=sys.stdin)
while True:
    app.step(supervisor.ticks_ms())
    time.sleep(0.001)   # a key's event waits for this, 0.5 ms on average
