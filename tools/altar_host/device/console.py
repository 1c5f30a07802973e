"""A device's serial console, as `altar dump` reads it: a board's port (or
a saved capture, or the emulator's console) and the session log its export
prints between the markers. Apart from the emulator, so that reading a real
board imports neither Blinka's displayio, Pillow nor the firmware's App."""

import re

from altar.jsonin import loads
from altar_fw.journal import BEGIN, END, MARK

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


def is_header(obj):
    """A log line's object that opens a game (its header), not an action."""
    return type(obj) is dict and "altar" in obj


def dump_to_log(text, notes=None):
    """The session log a capture holds: the lines between the device's export
    markers, the last export's in a capture that holds several. The
    console's escape codes and line ends ("\\r\\r\\n" from the board's UART)
    are dropped.

    An export cut short (the capture stopped, or the board restarted in the
    middle of it) gives what it can: its whole lines, then the lines the
    board streamed after it; `notes` (a list) gets a sentence saying what was
    dropped. ValueError when there is no log to give."""
    lines = [ln for ln in (CONSOLE_CODES.sub("", ln).strip() for ln in text.splitlines()) if ln]
    if BEGIN not in lines:
        raise ValueError("no Altar log in this dump")
    lines = lines[len(lines) - lines[::-1].index(BEGIN):]
    k = 0
    while k < len(lines) and lines[k] != END and MARK not in lines[k]:
        k += 1
    if k < len(lines) and lines[k] == END:
        return "".join(ln + "\n" for ln in lines[:k])
    out = []
    for ln in lines[:k]:
        try:
            loads(ln)
        except ValueError:
            break                   # a line cut short, and whatever came after it
        out.append(ln)
    whole, dropped = len(out), k - len(out)
    if not out:
        raise ValueError("the dump's export was cut short before its header")
    streamed = 0
    for ln in lines[k:]:
        if MARK in ln:
            line = ln[ln.index(MARK) + len(MARK):]
            try:
                obj = loads(line)
            except ValueError:
                obj = None
            out = [line] if is_header(obj) else out + [line]
            streamed += 1
    if notes is not None:
        notes.append("the export was cut short (the capture stopped, or the board restarted): "
                     "read its first %d line%s, dropped %d%s"
                     % (whole, "" if whole == 1 else "s", dropped,
                        ", then %d line%s the board streamed after it"
                        % (streamed, "" if streamed == 1 else "s") if streamed else ""))
    return "".join(ln + "\n" for ln in out)
