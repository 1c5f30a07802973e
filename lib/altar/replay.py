"""python -m altar.replay LOG: the state after the last action, as one line
of sorted-key JSON (exit 0), or `line N: reason` on stderr (exit 2).
Runs unchanged under MicroPython: `MICROPYPATH=lib micropython -m altar.replay LOG`.
"""

import sys

from altar.core import small_heap
from altar.jsonout import dump
from altar.log import LogError, load


def main(argv):
    small_heap()
    if len(argv) != 2:
        sys.stderr.write("usage: python -m altar.replay LOG\n")
        return 2
    try:
        f = open(argv[1], "rb")
    except OSError:
        sys.stderr.write("cannot read %s\n" % argv[1])
        return 2
    try:
        view = load(f).view()
    except LogError as e:
        sys.stderr.write("%s\n" % e)
        return 2
    except OSError:
        # MicroPython opens a directory and fails only when reading it.
        sys.stderr.write("cannot read %s\n" % argv[1])
        return 2
    finally:
        f.close()
    # Streamed: the whole line would not fit the board's heap as one string.
    dump(view, sys.stdout.write)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
