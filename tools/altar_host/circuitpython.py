"""CircuitPython's own binaries, kept in the repository: where they are and
whether this machine runs them.

tools/circuitpython/ holds, built from CircuitPython's source (its README
says what each is and how build.sh rebuilds it): bin/circuitpython (the unix
VM, 32-bit like the RP2040), bin/circuitpython64, bin/mpy-cross, and
firmware/ (each board's UF2 for the emulated RP2040, which
tools/rp2040/run.mjs finds there itself). ALTAR_CIRCUITPYTHON names another
folder of the same layout, such as a maker's own build.
"""

import os
import platform

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KEPT = os.path.join(ROOT, "tools", "circuitpython")
ENV = "ALTAR_CIRCUITPYTHON"
# The kept host tools are static Linux x86-64 executables (the 32-bit VM an
# i386 one, which x86-64 Linux runs); a folder named by ENV is the user's own.
BUILT_FOR = ("Linux", "x86_64")
MACHINE = (platform.system(), platform.machine())


def home(environ=None):
    """The folder with bin/ and firmware/."""
    environ = os.environ if environ is None else environ
    return environ.get(ENV) or KEPT


def tool(name, environ=None):
    """(path, None) of the host tool bin/`name` where this machine can run it,
    else (None, why not)."""
    environ = os.environ if environ is None else environ
    path = os.path.join(home(environ), "bin", name)
    if not environ.get(ENV) and MACHINE != BUILT_FOR:
        return None, "%s is built for %s %s and this machine is %s %s" % (
            (os.path.relpath(path, ROOT),) + BUILT_FOR + MACHINE)
    if not os.path.isfile(path):
        return None, "%s is missing" % path
    return path, None
