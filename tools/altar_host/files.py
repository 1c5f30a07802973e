"""Files the user names on the command line (a log to write, a folder of
screens, a report): written whole, and a failure said in one line, as the
user's to fix; a traceback would say bug."""

import sys


def save(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def cannot(cmd, path, e):
    """Say in one line why `cmd` could not write `path` (OSError e)."""
    print("altar %s: cannot write %s: %s" % (cmd, e.filename or path, e.strerror),
          file=sys.stderr)


def wrote(cmd, path, write, *args, **kw):
    """write(*args, **kw), which writes `path` (a file or folder the user named)
    and maybe files beside or in it: True, or False once `cannot` said why."""
    try:
        write(*args, **kw)
    except OSError as e:
        cannot(cmd, path, e)
        return False
    return True
