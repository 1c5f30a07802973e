"""A device's serial console, as `altar dump` reads it: a board's port (or
a saved capture, or the emulator's console) and the session log its export
prints between the markers. Apart from the emulator, so that reading a real
board imports neither Blinka's displayio, Pillow nor the firmware's App."""

import re

from altar_fw.journal import BEGIN, END

# What a CircuitPython console adds around the lines printed: the status bar
# (an OSC title "ESC ] 0 ; ... ESC \\" with no newline, so the next line printed
# follows it) and cursor moves ("ESC [ 2 K").
CONSOLE_CODES = re.compile(r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b\[[0-9;?]*[A-Za-z]")


def read(path):
    """The text of a capture file, or of a serial port (/dev/...) up to the
    end of an export (or 30 s of silence); OSError if it cannot be read."""
    if not path.startswith("/dev/"):
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    import serial  # pyserial, installed with Blinka
    with serial.Serial(path, 115200, timeout=30) as port:
        text = ""
        while END not in text:
            chunk = port.readline().decode("utf-8", "replace")
            if not chunk:
                break
            text += chunk
    return text


def dump_to_log(text):
    """The lines between the device's export markers, the last export's in
    a capture that holds several: a session log. The console's escape codes
    and line ends ("\\r\\r\\n" from the board's UART) are dropped."""
    lines = [ln for ln in (CONSOLE_CODES.sub("", ln).strip() for ln in text.splitlines()) if ln]
    if BEGIN in lines:
        lines = lines[len(lines) - lines[::-1].index(BEGIN):]
        if END not in lines:
            raise ValueError("the dump has no end marker: it was cut short")
        lines = lines[:lines.index(END)]
        return "".join(ln + "\n" for ln in lines)
    raise ValueError("no Altar log in this dump")
