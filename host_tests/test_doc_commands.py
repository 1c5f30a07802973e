"""Every command the docs show, run as their reader runs it: each command of
every `sh` block in README.md and docs/*.md, through bash, in a scratch
folder with a HOME of its own, `.venv/bin/` being the venv that runs these
tests. What a command needs from outside is stood in for: a board on
/dev/ttyACM0 is a pseudo-terminal printing the example game's export, the
CIRCUITPY drive a folder, the Dask cluster at 10.0.0.5 one on this machine,
and `--games N` plays a few games. A command that serves (`altar live`,
Dask's) is stopped with Ctrl-C once it serves; the emulator runs on a
pseudo-terminal and is quit with q. The set-up commands are what .ci/run
runs; the few that change the machine or need the Internet are named in
NOT_RUN with why, so a new command in a doc is run here or said there."""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import tty
import urllib.request

import pytest

from altar_fw.journal import BEGIN, END
from conftest import ROOT, cp_tool, terminal

BIN = os.path.dirname(sys.executable)
EXAMPLES = os.path.join(ROOT, "tools", "altar_host", "examples")
GAMES = 4                 # what `--games N` plays here

# The set-up: .ci/run runs the README's test command as it stands.
SETUP = re.compile(r"^(python3 -m venv \.venv|\.venv/bin/pip install -q -e \S+|"
                   r"\.venv/bin/python -m pytest)$")
NOT_RUN = {
    r"^apt-get install ": "installs Debian packages as root (.ci/run installs those the tests need)",
    r"^\.venv/bin/pip install circup$": "installs circup from PyPI, over the Internet",
    r"^\.venv/bin/circup ": "circup downloads Adafruit's library bundles from GitHub",
}
# Run by the test that boots the real firmware, which takes the same arguments.
ELSEWHERE = re.compile(r"^\.venv/bin/python -m altar_host\.device\.board_emu (.*)$")
SERVES = re.compile(r"^\.venv/bin/altar live ")
CLUSTER = re.compile(r"\bdask (scheduler|worker)\b|--cluster ")
TERMINAL = re.compile(r"^\.venv/bin/altar emulate\b")


def doc_commands():
    """(page, command) for each command of every doc's `sh` blocks: lines
    continued with \\ joined, comments dropped, && chains cut (a pipeline
    stays whole: it is one command to its reader)."""
    pages = ["README.md"] + sorted("docs/" + n for n in os.listdir(os.path.join(ROOT, "docs"))
                                   if n.endswith(".md"))
    for page in pages:
        with open(os.path.join(ROOT, page), encoding="utf-8") as f:
            text = f.read()
        for block in re.findall(r"```sh\n(.*?)```", text, re.S):
            for line in block.replace("\\\n", " ").splitlines():
                line = re.sub(r"(^|\s+)#.*$", "", line).strip()
                for cmd in line.split(" && ") if line else ():
                    yield page, " ".join(cmd.split())


COMMANDS = list(doc_commands())


def kind(cmd):
    if SETUP.match(cmd):
        return "setup"
    if any(re.match(k, cmd) for k in NOT_RUN):
        return "not run"
    if ELSEWHERE.match(cmd):
        return "elsewhere"
    if SERVES.match(cmd):
        return "serves"
    if CLUSTER.search(cmd):
        return "cluster"
    return "terminal" if TERMINAL.match(cmd) else "run"


def of(k):
    return [pytest.param(c, id="%s: %s" % (p, c[:70])) for p, c in COMMANDS if kind(c) == k]


def capture(game):
    """A game's export as the serial console prints it (Menu > Export)."""
    with open(os.path.join(EXAMPLES, game), encoding="utf-8") as f:
        lines = f.read().splitlines()
    return "code.py output:\r\n%s\r\n%s\r\n" % (BEGIN, "\r\n".join(lines + [END]))


class Board:
    """A board on a serial port: a pseudo-terminal whose far end prints a
    game's export every 0.2 s (Menu > Export, or the answer to altar live's
    sync) and reads what it is sent, until closed. A whole export goes in
    one write, so a reader that opens the port mid-way (pyserial empties
    what came before) reads whole exports from the next on."""

    def __init__(self, text):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.data = text.encode()
        self.on = True
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while self.on:
            for step in (lambda: os.write(self.master, self.data), lambda: os.read(self.master, 4096)):
                try:
                    step()
                except (BlockingIOError, OSError):
                    pass
            time.sleep(0.2)

    def close(self):
        self.on = False
        self.thread.join()
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def place(tmp_path):
    """The scratch folder a reader runs the docs' commands in: the
    repository's lib, CircuitPython's binaries and the files the commands name (the example logs as
    the log, the captures, the Dask settings), a CIRCUITPY folder, and a
    HOME whose serial.log is an export."""
    home = tmp_path / "home"
    (home / ".local" / "share" / "altar").mkdir(parents=True)
    (home / ".local" / "share" / "altar" / "serial.log").write_text(capture("sete-selos-2p.jsonl"))
    (home / "CIRCUITPY").mkdir()
    os.symlink(os.path.join(ROOT, "lib"), str(tmp_path / "lib"))
    (tmp_path / "tools").mkdir()
    os.symlink(os.path.join(ROOT, "tools", "circuitpython"), str(tmp_path / "tools" / "circuitpython"))
    shutil.copytree(EXAMPLES, str(tmp_path / "tools" / "altar_host" / "examples"))
    shutil.copytree(os.path.join(ROOT, "tools", "altar_host", "sim", "dask"),
                    str(tmp_path / "tools" / "altar_host" / "sim" / "dask"))
    shutil.copy(os.path.join(EXAMPLES, "sete-selos-4p.jsonl"), str(tmp_path / "game.jsonl"))
    for name in ("captured.txt", "altar-serial.log"):
        (tmp_path / name).write_text(capture("sete-selos-4p.jsonl"))
    os.utime(str(tmp_path / "game.jsonl"), (0, 0))        # a log the command writes is new
    env = dict(os.environ, HOME=str(home), PATH=BIN + os.pathsep + os.environ["PATH"])
    env.pop("ALTAR_MPY_CROSS", None)
    return tmp_path, env


def as_run(cmd, port=None):
    """The command as bash runs it here: the venv's programs, the stand-ins."""
    cmd = cmd.replace(".venv/bin/", BIN + "/").replace("/media/$USER/", "$HOME/")
    cmd = re.sub(r"\bLOG\b", "game.jsonl", cmd).replace("10.0.0.5", "127.0.0.1")
    cmd = re.sub(r"--games \d+", "--games %d" % GAMES, cmd)
    return cmd.replace("/dev/ttyACM0", port) if port else cmd


def bash(cmd, cwd, env, port=None):
    """The command started in a session of its own (Ctrl-C reaches all of it)."""
    return subprocess.Popen(["bash", "-c", as_run(cmd, port)], cwd=str(cwd), env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)


def made(cmd, cwd, since):
    """What the command says it writes, written by it: -o FILE, --write
    FILE, --report DIR, a deploy's drive."""
    files = []
    m = re.search(r"(?:-o|--write) (\S+)", cmd)
    if m:
        files.append(cwd / m.group(1))
    m = re.search(r"--report (\S+)", cmd)
    if m:
        files.append(cwd / m.group(1) / ("balance.html" if "altar balance" in cmd else "report.html"))
    if "altar deploy" in cmd:
        files.append(cwd / "home" / "CIRCUITPY" / "code.py")
    for f in files:
        assert f.is_file() and f.stat().st_mtime >= since, (cmd, f)


def test_every_doc_command_is_run_or_said_why_not():
    """Nothing in the docs escapes these tests unsaid, and nothing said here
    is stale."""
    assert len(COMMANDS) > 30
    for pattern in NOT_RUN:
        assert any(re.match(pattern, c) for _, c in COMMANDS), pattern
    assert {kind(c) for _, c in COMMANDS} == {"setup", "not run", "elsewhere", "serves",
                                              "cluster", "terminal", "run"}


def test_the_set_up_commands_are_what_ci_runs():
    """The README's test command is .ci/run's last line, word for word; the
    emulator's set-up is the same without the test extra."""
    with open(os.path.join(ROOT, ".ci", "run"), encoding="utf-8") as f:
        ci = f.read().splitlines()
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    test_line = [ln for ln in readme.splitlines() if ln.endswith("-m pytest")]
    assert test_line and test_line[0] == ci[-1]
    assert test_line[0].replace(" -e '.[test]' ", " -e . ").replace(
        ".venv/bin/python -m pytest", ".venv/bin/altar emulate") in readme
    assert {c for _, c in COMMANDS if kind(c) == "setup"} == {
        "python3 -m venv .venv", ".venv/bin/pip install -q -e .",
        ".venv/bin/pip install -q -e '.[test]'", ".venv/bin/python -m pytest"}


def test_the_real_firmware_command_is_the_one_its_test_runs():
    """Booting the real firmware in rp2040js takes a minute a board: the
    docs show the one command test_real_firmware.py runs as it stands."""
    from test_real_firmware import DOC_ARGS
    shown = [ELSEWHERE.match(c).group(1).split() for _, c in COMMANDS if kind(c) == "elsewhere"]
    assert shown == [DOC_ARGS]


@pytest.mark.parametrize("cmd", of("run"))
def test_a_doc_command_does_what_it_says(cmd, place):
    cwd, env = place
    kept = re.search(r"tools/circuitpython/bin/(\S+)", cmd)
    if kept:
        cp_tool(kept.group(1))      # Linux x86-64 binaries: elsewhere this skips, saying why
    board = Board(capture("sete-selos-4p.jsonl")) if "/dev/ttyACM0" in cmd else None
    since = time.time() - 1       # a file system's times may be coarser than this clock's
    try:
        p = bash(cmd, cwd, env, board and board.path)
        out, err = p.communicate(timeout=180)
    finally:
        if board:
            board.close()
    assert p.returncode == 0 and "Traceback" not in err, (as_run(cmd), out[-2000:], err[-2000:])
    made(cmd, cwd, since)


@pytest.mark.parametrize("cmd", of("terminal"))
def test_the_emulator_runs_on_a_terminal(cmd, place):
    """As the README's first command leaves it: the board drawn in the
    terminal, a key or two, q quits (an --live page is served meanwhile)."""
    cwd, env = place
    argv = cmd.split()
    status, out = terminal(argv[1:], [b"\r", b"\r"], env=env, cwd=str(cwd),
                           prog=[os.path.join(BIN, os.path.basename(argv[0]))])
    assert status == 0 and b"Traceback" not in out, out[-2000:]
    assert b"q: quit" in out or b"q quits" in out
    if "--live" in cmd:
        assert b"altar live: http://127.0.0.1:8700/" in out


def serving(p, cmd):
    """Wait until the server says it serves: altar live's URL, Dask's
    scheduler address or a worker's registration."""
    stream, needle = ((p.stdout, "altar live: http://") if "altar live" in cmd else
                      (p.stderr, "Scheduler at" if "scheduler" in cmd else "Registered to"))
    said = ""
    deadline = time.time() + 60
    while time.time() < deadline:
        line = stream.readline()
        said += line
        if needle in line or not line:
            break
    assert needle in said, (cmd, said)
    # keep reading, so a chatty server never blocks on a full pipe
    threading.Thread(target=stream.read, daemon=True).start()
    return said


def stop(p):
    if p.poll() is None:
        os.killpg(p.pid, signal.SIGINT)
    try:
        return p.wait(10)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


@pytest.mark.parametrize("cmd", of("serves"))
def test_altar_live_serves_the_game_and_stops_on_ctrl_c(cmd, place):
    """On this machine's address: the page's state holds the board's (or the
    capture's) game; Ctrl-C stops it cleanly within a second or so."""
    cwd, env = place
    board = Board(capture("sete-selos-4p.jsonl")) if "/dev/ttyACM0" in cmd else None
    p = bash(cmd, cwd, env, board and board.path)
    try:
        serving(p, cmd)
        deadline, v = time.time() + 20, {}
        while time.time() < deadline and v.get("game") != "sete-selos":
            time.sleep(0.2)
            v = json.loads(urllib.request.urlopen("http://127.0.0.1:8700/state").read())
        assert v["game"] == "sete-selos" and not v["warnings"], v
        assert stop(p) == 0
    finally:
        stop(p)
        if board:
            board.close()


def test_the_dask_cluster_the_docs_start_plays_the_docs_simulation(place):
    """The scheduler, then its workers (Altar's Dask settings), then the
    simulation sent to them, as docs/simulation.md runs them on three
    machines, here on one."""
    cwd, env = place
    scheduler, worker, sim = [c for _, c in COMMANDS if kind(c) == "cluster"]
    assert "scheduler" in scheduler and "worker" in worker and "--cluster" in sim
    running, since = [], time.time() - 1
    try:
        for s in (scheduler, worker):
            running.append(bash(s, cwd, env))
            serving(running[-1], s)
        p = bash(sim, cwd, env)
        out, err = p.communicate(timeout=180)
        assert p.returncode == 0 and "Traceback" not in err, (out[-2000:], err[-2000:])
        made(sim, cwd, since)
    finally:
        for r in reversed(running):
            stop(r)
