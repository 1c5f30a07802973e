"""`altar live`: the device's stream and sync request, the mirror that
replays them, and the page in a real browser (Chromium, driven by
Selenium) following whole games played on the emulator, two browsers at
once, a refused line, a board unplugged and plugged back, and Ctrl-C."""

import asyncio
import json
import os
import pty
import signal
import subprocess
import sys
import time
import tty
import urllib.request

import aiohttp
import pytest

from altar import log
from altar_fw.journal import BEGIN, END, MARK, SYNC
from altar_host import live
from altar_host.device.emulator import Device
from conftest import ROOT, browser  # noqa: F401 (a fixture)
from test_device import tour
from test_device_games import fa_tour, ra_tour

GAME = ("ok", "ok", "ok", "ok", "next", "ok", "next", "ok")   # Sete Selos, 2 players: a ritual
TOURS = {"sete-selos": tour, "fantasmagoria": fa_tour, "ritos-ancestrais": ra_tour}
# Where the README's pictures of the page come from: ALTAR_LIVE_SHOTS=docs
SHOTS = os.environ.get("ALTAR_LIVE_SHOTS")


def streamed(dev):
    """What the device printed since the last call."""
    text = "".join(dev.serial)
    del dev.serial[:]
    return text


class Fed:
    """An emulated device whose console feeds a Mirror, as altar live's."""

    def __init__(self, board="pico-display", lang="pt"):
        self.dev = Device(board, lang=lang)
        self.mirror = live.Mirror(lang)
        self.console = live.Console(self.mirror)
        self.dev.console.send(SYNC)
        self.dev.tick(1)
        self.feed()

    def feed(self):
        self.console.feed(streamed(self.dev))


def same_game(mirror, dev):
    """The mirror holds the device's game, action for action."""
    s = dev.app.ui.session
    assert mirror.session.view() == s.view()
    assert list(mirror.session.records()) == list(s.records())


# -- the device's side ----------------------------------------------------------------

def test_each_journaled_press_streams_its_line_after_the_screen():
    dev = Device("pico-display")
    streamed(dev)
    for w in ("ok", "ok", "ok"):             # Sete Selos, 2 players, P1 deals: the new game
        dev.press(w)
    header, = streamed(dev).splitlines()
    assert header.startswith(MARK) and json.loads(header[len(MARK):])["players"] == ["P1", "P2"]
    for w in ("ok", "next", "ok", "next"):   # ritual 1's winner, P1, and its value
        dev.press(w)
        assert streamed(dev) == ""
    dev.press("ok")
    assert streamed(dev) == MARK + '{"do": "ritual", "value": 1, "winner": 0}\n'
    dev.press("undo")
    assert streamed(dev) == MARK + '{"do": "undo"}\n'
    # the line is written after the glass has the press (App.redraw)
    assert dev.app.store.said is None


def test_the_stream_can_be_turned_off():
    dev = Device("pico-display", stream=False)
    for w in ("ok", "ok", "ok", "ok", "next", "ok", "next", "ok"):
        dev.press(w)
    assert dev.app.ui.session.kept and "".join(dev.serial) == ""
    dev.console.send(SYNC)
    dev.tick(1)                                # a sync is still answered
    assert streamed(dev).startswith(BEGIN)


def test_the_device_answers_a_sync_amid_noise_and_only_a_whole_one():
    dev = Device("feather-oled")
    streamed(dev)
    dev.console.send("ALTAR?SYN")
    dev.tick(1)
    assert streamed(dev) == ""
    dev.console.send("x\r\nALTAR?ALTAR?SYNC\r\n")     # a restart inside the request counts
    dev.tick(1)
    assert streamed(dev) == BEGIN + "\n" + END + "\n"     # no game yet: the markers alone
    for w in GAME:
        dev.press(w)
    streamed(dev)
    dev.console.send("Ä" + SYNC)              # a non-ASCII byte is just noise
    dev.tick(1)
    text = streamed(dev)
    assert text.startswith(BEGIN) and text.endswith(END + "\n")
    lines = text.splitlines()[1:-1]
    assert log.load(lines).view() == dev.app.ui.session.view()


# -- the mirror ------------------------------------------------------------------------

@pytest.mark.parametrize("game", sorted(TOURS))
def test_the_mirror_follows_whole_games_press_by_press(game):
    fed = Fed()
    seen = []
    press = fed.dev.press

    def pressed(word):
        press(word)
        fed.feed()
        if fed.dev.app.ui.session is not None:
            same_game(fed.mirror, fed.dev)
            seen.append(fed.mirror.last)
    fed.dev.press = pressed
    TOURS[game](fed.dev, lambda name: None)
    assert fed.mirror.view()["over"] and not fed.mirror.warnings and len(set(seen)) > 5
    fed.dev.press("undo")                     # the end taken back, said as the device says it
    assert fed.mirror.last.startswith("Desfeito: ") and fed.mirror.undo
    assert not fed.mirror.view()["over"]


def test_a_line_the_engine_refuses_is_a_warning_and_changes_nothing():
    fed = Fed()
    for w in GAME:
        fed.dev.press(w)
    fed.feed()
    m = fed.mirror
    before = (m.view(), list(m.lines))
    for bad in ('{"do": "ritual", "value": 9, "winner": 0}', '{"do": "dance"}', "[1, 2]",
                "not json", '{"do": "undo", "x": 1}'):
        fed.console.feed(MARK + bad + "\r\n")
    assert len(m.warnings) == 5 and "value must be 1..7, not 9" in m.warnings[0]
    assert "not json" in m.warnings[3]
    after = m.view()
    assert after["now"] == before[0]["now"] and m.lines == before[1]
    # the device's next line still counts
    fed.dev.press("ok")
    fed.dev.press("ok")
    fed.feed()
    same_game(m, fed.dev)


def test_any_line_is_a_warning_that_changes_nothing_and_reading_goes_on():
    """Issue 43: `ALTAR> {}` (no "do") froze the page for good. Every line
    the engine does not take, whatever it holds, is one short warning."""
    fed = Fed()
    for w in GAME:
        fed.dev.press(w)
    fed.feed()
    m = fed.mirror
    warned = []
    m.on_warn = warned.append
    before = (m.view(), list(m.lines))
    huge = '{"do": "%s"}' % ("x" * 1_000_000)
    for bad in ("{}", '{"do": null}', '{"winner": 0, "value": 3}', "[]", "7", huge):
        fed.console.feed(MARK + bad + "\r\n")
    assert len(warned) == 6 and "missing key 'do'" in warned[0]
    assert "an action must be a JSON object" in warned[3]
    assert max(len(w) for w in warned) < 300
    assert m.view()["now"] == before[0]["now"] and m.lines == before[1]
    fed.dev.press("ok")
    fed.dev.press("ok")
    fed.feed()
    same_game(m, fed.dev)
    # a line whose handling fails for a reason nobody foresaw: the same
    m.session.mod = None
    m.line('{"do": "ritual", "winner": 0, "value": 3}')
    assert m.warnings[-1].startswith("linha não lida (AttributeError), ignorada: ")


def test_an_export_cut_short_ends_at_the_next_streamed_line():
    """The board reset in the middle of an export: its header and half a line,
    then the actions it streams once it is back. The export's lines are
    dropped with a warning, and the streamed actions are played."""
    m = live.Mirror("en")
    c = live.Console(m)
    header = '{"altar": 1, "game": "ritos-ancestrais", "players": ["A", "B"]}'
    c.feed(MARK + header + "\r\n" + MARK + '{"do": "score", "points": 1}\r\n')
    c.feed(BEGIN + "\r\n" + header + "\r\n" + '{"do": "sco' + "\r\n")
    for _ in range(10):
        c.feed(MARK + '{"do": "score", "points": 2}\r\n')
    assert m.session.view()["scores"] == [21, 0]
    assert m.warnings == ["an export was cut short (did the device restart?): 2 of its lines "
                          "dropped"]
    # a new export inside an open one: the first is dropped, the second read
    c.feed(BEGIN + "\r\n" + header + "\r\n" + BEGIN + "\r\n" + header + "\r\n"
           + '{"do": "score", "points": 5}\r\n' + END + "\r\n")
    assert m.session.view()["scores"] == [5, 0] and len(m.warnings) == 2


def test_a_reader_that_fails_says_so_on_the_page():
    """A reader that stops (a bug, a device gone in a way pyserial did not
    foresee) no longer leaves the page saying "connected"."""
    lv = live.Live("en")
    lv.mirror.on_warn = lambda text: None
    lv.mirror.set_status("connected")

    async def reading(source, console, mirror):
        raise RuntimeError("the port vanished")
    asyncio.run(lv.read(reading, "/dev/ttyACM0"))
    v = lv.mirror.view()
    assert v["status"] == "stopped" and v["status_text"] == "reading stopped"
    assert v["warnings"] == ["reading /dev/ttyACM0 stopped (the port vanished): start altar "
                             "live again"]


def test_a_sync_replaces_the_game_and_a_broken_one_keeps_it():
    fed = Fed()
    m = fed.mirror
    for w in GAME:
        fed.dev.press(w)
    fed.dev.serial[:] = []                    # the stream's lines lost (a host not listening)
    assert m.session is None
    fed.dev.console.send(SYNC)
    fed.dev.tick(1)
    fed.feed()
    same_game(m, fed.dev)
    assert m.last == "Em dia com o aparelho: 1 ações" and m.lines == _told(fed.dev)
    m.sync(['{"altar": 1, "game": "sete-selos", "players": ["A", "B"]}', '{"do": "fly"}'])
    same_game(m, fed.dev)
    assert "line 2: unknown verb" in m.warnings[-1]
    # an action before any game: a warning, until the next sync
    orphan = live.Mirror()
    orphan.line('{"do": "undo"}')
    assert orphan.session is None and len(orphan.warnings) == 1


def test_a_new_game_on_the_device_replaces_the_old_one():
    fed = Fed()
    for w in GAME:
        fed.dev.press(w)
    fed.dev.press("back")                     # the menu: erase, new game
    fed.feed()
    m = fed.mirror
    m.line('{"altar": 1, "game": "fantasmagoria", "players": ["A", "B", "C"]}')
    assert m.view()["game"] == "fantasmagoria" and m.last == "Novo jogo" and m.lines[1:] == []


def test_the_console_reads_lines_split_anywhere_and_ignores_the_rest():
    m = live.Mirror("en")
    c = live.Console(m)
    text = ("code.py output:\r\nAuto-reload is off.\r\n" + MARK
            + '{"altar": 1, "game": "ritos-ancestrais", "players": ["A", "B"]}\r\n'
            + "garbage" + MARK + '{"do": "score", "points": 3}\n'
            + BEGIN + "\n" + '{"altar": 1, "game": "ritos-ancestrais", "players": ["A", "B"]}\n'
            + '{"do": "score", "points": 3}\n{"do": "score", "points": 2}\n' + END + "\n")
    for i in range(len(text)):               # a byte at a time, as a port may bring it
        c.feed(text[i])
    assert m.session.view()["scores"] == [5, 0] and not m.warnings
    assert m.last == "Caught up with the device: 2 actions"


# -- the page in a browser ---------------------------------------------------------------

def shown(driver, th, timeout=5):
    """Wait until the page shows the latest change of altar live's mirror."""
    from selenium.webdriver.support.ui import WebDriverWait
    settled(th)
    want = str(th.mirror.seq)
    WebDriverWait(driver, timeout, 0.02).until(
        lambda d: d.find_element("tag name", "body").get_attribute("data-seq") == want,
        "the page shows change %s, not %s" % (
            want, driver.find_element("tag name", "body").get_attribute("data-seq")))
    return driver


def text(driver, id_):
    return driver.find_element("id", id_).text


@pytest.fixture
def served():
    """altar live in a thread, fed by the test; closed at the end."""
    made = []

    def start(source=None, lang="pt"):
        th = live.Thread(lang, "127.0.0.1", 0, source)
        made.append(th)
        return th, "http://127.0.0.1:%d/" % th.server.port
    yield start
    for th in made:
        th.close()


def check_now(d, v):
    """The game's panel in the DOM says what the view says."""
    cells = d.find_elements("css selector", "#now td")
    assert cells
    if v["game"] == "fantasmagoria" and v["now"].count("id=trump"):
        trump = json.loads(urllib.request.urlopen(d.current_url + "state").read())
        assert text(d, "trump") == str(trump["now"].split("id=trump>")[1].split("<")[0])


@pytest.mark.parametrize("game", sorted(TOURS))
def test_the_page_shows_each_press_of_a_whole_game(game, browser, served, tmp_path):
    th, url = served()
    dev = Device("pico-display")
    d = browser()
    d.get(url)
    dev.console.send(SYNC)
    dev.tick(1)
    th.feed(streamed(dev))
    m = th.mirror
    shown(d, th)
    assert text(d, "status") == "conectado" and "Nenhum jogo" in text(d, "empty")
    press = dev.press
    changes = []

    def pressed(word):
        seq = m.seq
        press(word)
        th.feed(streamed(dev))
        settled(th)
        if m.seq == seq:
            return
        shown(d, th)
        changes.append(word)
        v = m.view()
        assert text(d, "last") == v["last"]
        assert ("undo" in d.find_element("id", "last").get_attribute("class")) == v["undo"]
        assert text(d, "title") == v["title"]
        check_now(d, v)
        if len(changes) == {"sete-selos": 14, "fantasmagoria": 6, "ritos-ancestrais": 8}[game]:
            shoot(d, game)
    dev.press = pressed
    TOURS[game](dev, lambda name: None)
    assert len(changes) > 8
    # the end: the result with its reason, and the button to the full sheet
    assert not d.find_element("id", "open").get_attribute("hidden")
    result = d.find_element("css selector", "#outcome .result").text
    assert result and d.find_elements("css selector", "#outcome h2")
    d.find_element("id", "sheet").click()
    d.switch_to.window(d.window_handles[-1])
    # the new tab may not have loaded yet on a busy machine
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(d, 10, 0.05).until(lambda d: d.find_elements("tag name", "table"),
                                     "the full sheet's tab shows no table")
    assert "<img" in d.page_source
    d.close()
    d.switch_to.window(d.window_handles[0])


def _told(dev):
    """The lines a mirror should hold for the device's game: its export's."""
    return dev.export().splitlines()


def settled(th):
    """Wait until altar live's thread has taken in what it was fed."""
    asyncio.run_coroutine_threadsafe(asyncio.sleep(0), th.loop).result(5)


def shoot(d, game):
    """The page in mid-game: checked for ink; kept for the README if asked."""
    png = d.get_screenshot_as_png()
    assert len(png) > 10_000
    if SHOTS:
        with open(os.path.join(SHOTS, "live-%s.png" % game), "wb") as f:
            f.write(png)


def test_two_browsers_and_a_refused_line(browser, served):
    th, url = served()
    a, b = browser(), browser()
    a.get(url)
    b.get(url)
    th.feed(MARK + '{"altar": 1, "game": "fantasmagoria", "players": ["Ana", "Bia", "Caio"]}\n')
    th.feed(MARK + '{"do": "sacrifice", "trump": 7, "leader": 1}\n')
    m = th.mirror
    settled(th)
    for d in (a, b):
        shown(d, th)
        assert text(d, "trump") == "7" and "Bia" in text(d, "now")
    before = text(a, "now")
    th.feed(MARK + '{"do": "sacrifice", "trump": 8, "leader": 0}\n')   # one a round
    settled(th)
    for d in (a, b):
        shown(d, th)
        assert text(d, "now") == before and "ignorado" in text(d, "warnings")
        assert text(d, "trump") == "7"


def test_a_board_unplugged_and_plugged_back_catches_up(browser, served, tmp_path):
    """A pseudo-terminal is the board's port: closed (unplugged) while the
    game goes on, then opened again under the same name; altar live asks for
    a sync and shows the game with nothing lost or doubled."""
    path = str(tmp_path / "ttyALTAR")
    dev = Device("pico-display")
    streamed(dev)

    def plug():
        master, slave = pty.openpty()
        tty.setraw(slave)
        os.symlink(os.ttyname(slave), path)
        return master, slave

    def serve_port(master, until):
        """The device on its port: what it prints goes out, SYNC comes in."""
        end = time.monotonic() + until
        while time.monotonic() < end:
            out = streamed(dev)
            if out:
                os.write(master, out.encode())
            import select
            r, _, _ = select.select([master], [], [], 0.02)
            if r:
                dev.console.send(os.read(master, 1024).decode(errors="replace"))
                dev.tick(1)

    master, slave = plug()
    th, url = served(path)
    d = browser()
    d.get(url)
    m = th.mirror
    serve_port(master, 1.0)                   # the sync's answer: no game yet
    for w in GAME:
        dev.press(w)
    serve_port(master, 0.5)
    shown(d, th)
    assert text(d, "status") == "conectado" and m.session is not None
    os.close(master)                          # unplugged
    os.close(slave)
    os.unlink(path)
    deadline = time.monotonic() + 5
    while m.status != "disconnected" and time.monotonic() < deadline:
        time.sleep(0.02)
    shown(d, th)
    assert text(d, "status") == "desconectado"
    for w in ("ok", "3", "ok", "ok", "next", "ok"):     # played while unplugged
        if w.isdigit() and not dev.can(w):
            continue
        dev.press(w)
    streamed(dev)                              # printed to nobody
    master, slave = plug()
    serve_port(master, 1.5)
    shown(d, th)
    assert text(d, "status") == "conectado"
    same_game(m, dev)
    assert m.lines == _told(dev)
    os.close(master)
    os.close(slave)


def test_a_growing_file_and_ctrl_c(tmp_path):
    """altar live on a capture file, as a process: the state follows the
    file as it grows; SIGINT ends it within a second."""
    capture = tmp_path / "altar-serial.log"
    proc = subprocess.Popen([sys.executable, "-m", "altar_host.cli", "live", str(capture),
                             "--port", "0", "--lang", "en"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        line = proc.stdout.readline()
        assert line.startswith("altar live: http://127.0.0.1:")
        url = line.split()[2]
        state = lambda: json.loads(urllib.request.urlopen(url + "state").read())  # noqa: E731
        deadline = time.monotonic() + 5
        while state()["status"] != "waiting" and time.monotonic() < deadline:
            time.sleep(0.05)
        capture.write_text("code.py output:\n" + MARK
                           + '{"altar": 1, "game": "ritos-ancestrais", "players": ["A", "B"]}\n')
        with open(capture, "a") as f:
            f.write(MARK + '{"do": "score", "points": 4}\n' + MARK + '{"do": "scor')
        deadline = time.monotonic() + 5
        while "A" not in state()["last"] and time.monotonic() < deadline:
            time.sleep(0.05)
        v = state()
        assert v["status"] == "reading" and v["last"] == "+4 points for A"
        with open(capture, "a") as f:
            f.write('e", "points": 2}\n')
        deadline = time.monotonic() + 5
        while state()["last"] != "+2 points for A" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert state()["last"] == "+2 points for A"
        t = time.monotonic()
        proc.send_signal(signal.SIGINT)
        proc.wait(5)
        assert time.monotonic() - t < 1.0 and proc.returncode == 0
    finally:
        proc.kill()
        proc.wait()


def test_the_lan_url_comes_with_a_qr_code_and_the_local_one_without():
    import io

    class Served:
        host, port = "0.0.0.0", 8700
    out = io.StringIO()
    url = live.announce(Served, out)
    assert url.startswith("http://") and url.endswith(":8700/") and url in out.getvalue()
    qr = out.getvalue().splitlines()[1:]
    assert len(qr) > 10 and all(set(r) <= set(" ▀▄█") for r in qr)
    Served.host = "127.0.0.1"
    out = io.StringIO()
    assert live.announce(Served, out) == "http://127.0.0.1:8700/"
    assert out.getvalue() == "altar live: http://127.0.0.1:8700/ (Ctrl-C stops)\n"


def test_a_taken_port_is_said_plainly(capsys):
    th = live.Thread("pt", "127.0.0.1", 0)
    try:
        from altar_host.cli import main
        assert main(["live", "nowhere.log", "--port", str(th.server.port)]) == 2
        assert "cannot serve on 127.0.0.1:%d" % th.server.port in capsys.readouterr().err
    finally:
        th.close()


def test_emulate_live_serves_the_emulators_game(tmp_path):
    """`altar emulate --live`: the emulator and altar live in one process; after
    a script the page stays up until Ctrl-C."""
    keys = tmp_path / "keys.txt"
    keys.write_text("ok ok ok ok next ok next ok\n")      # Sete Selos, 2 players, a ritual
    proc = subprocess.Popen([sys.executable, "-m", "altar_host.cli", "emulate", "--keys",
                             str(keys), "--board", "pico-display", "--live", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        line = proc.stderr.readline()
        assert line.startswith("altar live: http://127.0.0.1:")
        url = line.split()[2]
        assert "page stays up" in proc.stderr.readline()
        v = json.loads(urllib.request.urlopen(url + "state").read())
        assert v["game"] == "sete-selos" and v["status"] == "connected"
        assert v["last"] == "P1 venceu o ritual 1 com 1"
        page = urllib.request.urlopen(url).read().decode()
        assert "<script>" in page and 'id=now' in page
        proc.send_signal(signal.SIGINT)
        proc.wait(5)
        assert proc.returncode == 0
        assert MARK + '{"do": "ritual", "value": 1, "winner": 0}' in proc.stdout.read()
    finally:
        proc.kill()
        proc.wait()


# -- what the server lets in (issue 43) -------------------------------------------------

def _get(port, path, host=None, origin=None):
    """(status, body) of a GET with its own Host and Origin headers."""
    import http.client
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    headers = {"Host": "127.0.0.1:%d" % port if host is None else host}
    if origin:
        headers["Origin"] = origin
    c.request("GET", path, headers=headers)
    r = c.getresponse()
    return r.status, r.read().decode()


def _ws(port, origin=None, send=None):
    """A WebSocket to /ws: (the handshake's status, the first frame's kind
    and text, the close code once `send` is sent)."""

    async def go():
        headers = {"Origin": origin} if origin else {}
        async with aiohttp.ClientSession() as s:
            try:
                ws = await s.ws_connect("http://127.0.0.1:%d/ws" % port, headers=headers)
            except aiohttp.WSServerHandshakeError as e:
                return e.status, None, None
            first = await ws.receive(timeout=5)
            code = None
            if send is not None:
                await ws.send_str(send)
                msg = await ws.receive(timeout=5)
                code = ws.close_code if msg.type in (aiohttp.WSMsgType.CLOSE,
                                                     aiohttp.WSMsgType.CLOSED) else msg.type
            await ws.close()
            return 101, first.type, code
    return asyncio.run(go())


def test_a_foreign_host_or_origin_gets_nothing(served):
    """DNS rebinding (a page's own name resolved to this machine) reaches no
    part of the server, and a page of another origin opens no WebSocket;
    the served names and the page's own origin do."""
    th, url = served()
    port = th.server.port
    for host in ("127.0.0.1:%d" % port, "localhost:%d" % port, "[::1]:%d" % port):
        assert _get(port, "/state", host)[0] == 200, host
    for host in ("attacker.example:%d" % port, "attacker.example", "127.0.0.1:1",
                 "127.0.0.1", "", "[::1"):
        status, body = _get(port, "/state", host)
        assert status in (400, 421) and "players" not in body, host
    status, body = _get(port, "/", "rebound.example:%d" % port)
    assert status == 421 and "altar live answers to 127.0.0.1, ::1, localhost on port %d only" \
        % port in body
    assert _ws(port, "http://attacker.example")[0] == 403
    assert _ws(port, "http://127.0.0.1:%d" % (port + 1))[0] == 403
    assert _ws(port, "http://127.0.0.1:%d" % port)[:2] == (101, aiohttp.WSMsgType.TEXT)
    assert _ws(port)[:2] == (101, aiohttp.WSMsgType.TEXT)  # not a browser: no Origin


def test_on_the_lan_the_machines_names_are_served():
    class Mirror:
        changed = None
    s = live.Server(Mirror(), "0.0.0.0", 8700)
    names = s.served_names()
    assert live.lan_address() in names and "localhost" in names and "127.0.0.1" in names
    assert "attacker.example" not in names
    assert live.host_name("[::1]:8700") == ("::1", 8700)
    assert live.host_name("PC.local") == ("pc.local", None)


def test_a_browser_may_send_almost_nothing_and_their_number_is_capped(served, monkeypatch):
    """The page sends nothing: a message past MAX_MESSAGE closes its socket
    (1009, too big) instead of being held (4 MB a socket by default); past
    MAX_BROWSERS a browser is refused with a reason."""
    th, url = served()
    port = th.server.port
    assert _ws(port, send="x" * live.MAX_MESSAGE)[2] == 1009
    monkeypatch.setattr(live, "MAX_BROWSERS", 0)
    assert _ws(port)[0] == 503
    assert "browsers already watch this game" in _get(port, "/ws")[1]


def test_a_browser_that_does_not_read_is_dropped(monkeypatch):
    """A browser whose view has not gone out within SEND_S is cut off (its
    page reconnects and gets the latest), so its copies pile up nowhere."""
    monkeypatch.setattr(live, "SEND_S", 0.05)
    aborted = []

    class Transport:
        def abort(self):
            aborted.append(True)

    class Request:
        transport = Transport()

    class Stuck:
        async def send_str(self, text):
            await asyncio.sleep(60)

    class Mirror:
        changed = None

        def view(self):
            return {}

    async def go():
        wake = asyncio.Event()
        wake.set()
        await asyncio.wait_for(live.Server(Mirror())._sender(Request(), Stuck(), wake), 5)
    asyncio.run(go())
    assert aborted == [True]
