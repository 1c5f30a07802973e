"""ALTAR_PLAYERS, the seats' names in settings.toml, read once at boot (and
checked by `altar deploy --players`). A module of its own: the Ui drops it
once read, so its code does not stay in the board's heap."""

from altar.core import const
from altar.jsonout import dumps

_MAX_SEATS = const(4)
_NAME_LEN = const(10)     # a name's characters
# The names' room in the journal's header frame (250 bytes): the rest of a
# header takes at most 90 ("ritos-ancestrais", an 11-digit seed).
ROOM = const(160)


def player_names(text):
    """ALTAR_PLAYERS ("Ana,Bia,Caio,Duda": seat 1 first) as a list of names;
    "" or None: none. A bad setting raises ValueError(reason's key, its
    value) for the language's table (players_*_text); quotes and
    backslashes (and control characters) are refused so that the value
    stays a plain TOML string."""
    if not text:
        return []
    names = [n.strip() for n in text.split(",")]
    if len(names) > _MAX_SEATS:
        raise ValueError("players_many_text", len(names))
    for i in range(len(names)):
        n = names[i]
        if not n:
            raise ValueError("players_empty_text", i + 1)
        if len(n) > _NAME_LEN:
            raise ValueError("players_long_text", n)
        for ch in n:
            if ch < " " or ch == "\x7f" or ch == '"' or ch == "\\":
                raise ValueError("players_char_text", n)
        # A seat's number as another seat's name would stand twice (the
        # seats after the names are P-numbered).
        if n in names[:i] or n[:1] == "P" and n[1:].isdigit() and n != "P%d" % (i + 1):
            raise ValueError("players_twice_text", n)
    # The header holds a name for every seat, P-numbers after the names;
    # JSON writes an accented letter as 6 bytes.
    if len(dumps(names + ["P%d" % (i + 1) for i in range(len(names), _MAX_SEATS)])) > ROOM:
        raise ValueError("players_room_text", len(names))
    return names
