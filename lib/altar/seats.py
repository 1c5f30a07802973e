"""Seats as the engine's messages name them for people: "P3 (seat 2)", the
device's name for a seat without a name, then the log's number. Imported only when a message is
made, so a valid log never loads it (the replay's heap)."""


def seat_name(seat, banished=-1):
    """A seat as the device names it to people: P1..Pn (the log's seat + 1),
    "Ban" for the Banished Cultist (`banished`: its seat, or -1)."""
    return "Ban" if seat == banished else "P%d" % (seat + 1)


def seat_ref(seat, banished=-1):
    """A seat in a message: its name, then the log's number: "P3 (seat 2)"."""
    return "%s (seat %d)" % (seat_name(seat, banished), seat)


def seat_range(seats, banished=-1):
    """Every seat, for a message: "P1..P3 (seat 0..2)", "P1, P2 or Ban (seat
    0..2)", "P1 or P2 (seat 0..1)"."""
    k = seats - 1 if banished >= 0 else seats     # the players; the Banished is last
    names = "P1..P%d" % k if k > 2 else ", ".join([seat_name(s) for s in range(k)])
    if banished >= 0:
        names += " or Ban"
    elif k == 2:
        names = "P1 or P2"
    nums = "seat 0" if seats == 1 else "seat 0..%d" % (seats - 1)
    return "%s (%s)" % (names, nums)
