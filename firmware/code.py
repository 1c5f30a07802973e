"""Altar on a CircuitPython board: pick the board's profile (board.board_id,
or ALTAR_BOARD in settings.toml), build its hardware, run the app."""

import os
import sys
import time

import board
import keypad
import microcontroller
import supervisor
import terminalio

import boards
from altar_fw.app import App

profile = boards.pick(board.board_id, os.getenv("ALTAR_BOARD"))
display, keys, pixels, encoder = profile.build()
app = App(display, keys, pixels, encoder, profile.KEYMAP, microcontroller.nvm,
          terminalio.FONT, keypad.Event(), profile.SCALE, profile.COLOURS,
          write=sys.stdout.write, seed=int.from_bytes(os.urandom(4), "little") >> 1)
while True:
    app.step(supervisor.ticks_ms())
    time.sleep(0.005)
