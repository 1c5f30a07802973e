"""`altar live SOURCE`: the device's game mirrored in a browser as it is
played, for the whole table and the phones around it (read-only).

The device streams its game on the serial console (altar_fw.journal): each
journaled line after MARK, and on SYNC, the host's request, the whole game
between BEGIN and END, as Menu > Export prints it. `Console` splits that
text; `Mirror` replays each line through the engine and keeps what the page
shows (a line the engine refuses is a warning, and the game stays as it
was); `Server` (aiohttp) serves the page and pushes every change to each
browser over a WebSocket. The sources: a serial port (asked for a sync at
each connection, so a board unplugged and plugged back catches up), a file
that grows (a terminal's capture), or the emulator (`altar emulate --live`).
"""

import asyncio
import html
import json
import os
import socket
import stat
import sys
import threading

from aiohttp import WSMsgType, web

from altar import log
from altar.core import Rejected, Session, decode
from altar.jsonin import loads
from altar_fw.journal import BEGIN, END, MARK, SYNC
from altar_fw.ui import GAMES, play_class, seat_names
from altar_host import sheet, sheet_games, summary
from altar_host.device.console import CONSOLE_CODES, is_header
from altar_host.sheet_facts import facts

_WARNINGS = 5          # the page keeps the last few
_NAME = 40             # a name's characters on the page: all of them
_POLL = 0.1            # s between looks at a file, or at a port that is gone
_QUOTE = 80            # characters of a bad line a warning quotes (a line may be megabytes)


def _cut(text):
    return text if len(text) <= _QUOTE else text[:_QUOTE] + "..."


class Console:
    """The serial console's text, split into what the mirror acts on:
    each streamed line (after MARK) and each export (BEGIN ... END)."""

    def __init__(self, mirror):
        self.mirror = mirror
        self.reset()

    def reset(self):
        """Forget a partial line or export (the port went away mid-line)."""
        self.part = ""
        self.block = None

    def feed(self, text):
        self.part += text
        *lines, self.part = self.part.split("\n")
        for ln in lines:
            self._line(CONSOLE_CODES.sub("", ln).rstrip("\r"))

    def _line(self, ln):
        if self.block is not None and (ln.endswith(BEGIN) or MARK in ln):
            # The board reset mid-export: what came of it is dropped, this line is read.
            self.mirror.warn(self.mirror.w["live_cut_export"] % len(self.block))
            self.block = None
        if ln.endswith(BEGIN):
            self.block = []
        elif self.block is not None:
            if ln == END:
                block, self.block = self.block, None
                self.mirror.sync(block)
            else:
                self.block.append(ln)
        elif MARK in ln:
            self.mirror.line(ln[ln.index(MARK) + len(MARK):])


class _Voice:
    """What the device's screens need to say an action: its words, the
    session, the seats' names (altar_fw's Play.said)."""

    def __init__(self, T, session):
        self.T = T
        self.session = session
        self.names = seat_names(session.rules, _NAME)


class Mirror:
    """The device's game as its console told it. `changed()` is called after
    every change; `warn(text)` also gets each warning (the terminal)."""

    def __init__(self, lang="pt", changed=None, warn=None):
        self.lang = lang
        self.w = sheet.Words(lang)
        self.changed = changed or (lambda: None)
        self.on_warn = warn or (lambda text: None)
        self.session = None
        self.lines = []          # the game's log as told: the header, each action and undo
        self.status = "waiting"  # the source: waiting, connected, disconnected, reading
        self.last = ""           # the last action, in the device's words
        self.undo = False        # ... was an undo
        self.warnings = []
        self.seq = 0             # counts changes: the page shows the newest

    # -- what the console says ------------------------------------------------------

    def line(self, text):
        """One streamed log line: a new game's header, an action or an undo.
        Whatever it holds, a line the engine does not take is a warning, the
        game stays as it was, and the next line is read."""
        w = self.w
        try:
            obj = loads(text)
        except ValueError:
            return self.warn(w["live_unparsed"] % _cut(text))
        try:
            if is_header(obj):
                session = Session(obj)
                self.session, self.lines = session, [text]
                return self._said(w["live_new_game"], False)
            if self.session is None:
                return self.warn(w["live_orphan"] % _cut(text))
            said = self._play(obj)
        except Rejected as e:
            return self.warn(w["live_refused"] % (e, _cut(text)))
        except Exception as e:      # a case nobody foresaw must not stop the page
            return self.warn(w["live_failed"] % (type(e).__name__, _cut(text)))
        self.lines.append(text)
        self._said(*said)

    def _play(self, obj):
        """Apply a log action to the session (Rejected: nothing changed); what
        the device would say of it, and whether it was an undo."""
        s = self.session
        if type(obj) is not dict or "do" not in obj:
            s.do(obj)           # the engine's own refusal: not an action
        play = play_class(s.header["game"])(_Voice(self.w.device, s))
        if obj.get("do") == "undo":
            last = None
            for last in s.records():
                pass
            s.do(obj)
            # said as the device says it: of the state the undo went back to
            return self.w["live_undone"] % play.said(s.mod.unparse(decode(last))), True
        t = s.mod.parse(s.rules, obj)
        said = play.said(s.mod.unparse(t))
        s.play(t)
        return said, False

    def sync(self, lines):
        """An export: the whole game (or none) replaces what was told, if
        the engine replays it."""
        lines = [ln for ln in lines if ln.strip()]
        if not lines:
            self.session = None
            self.lines = []
            return self._said("", False)
        try:
            s = log.load(lines)
        except log.LogError as e:
            return self.warn(self.w["live_bad_sync"] % e)
        if lines != self.lines:
            self.session = s
            self.lines = lines
            self._said(self.w["live_synced"] % (len(lines) - 1), False)

    def set_status(self, status):
        if status != self.status:
            self.status = status
            self._changed()

    def warn(self, text):
        self.warnings = (self.warnings + [text])[-_WARNINGS:]
        self.on_warn(text)
        self._changed()

    def _said(self, last, undo):
        self.last = last
        self.undo = undo
        self._changed()

    def _changed(self):
        self.seq += 1
        self.changed()

    # -- what the page shows --------------------------------------------------------

    def view(self):
        """The page's content: plain values, and HTML for the game's parts."""
        w = self.w
        v = {"seq": self.seq, "status": self.status, "status_text": w["live_" + self.status],
             "warnings": self.warnings, "last": self.last, "undo": self.undo,
             "game": None, "title": w["live"], "now": "", "outcome": "", "history": "",
             "over": False, "empty": w["live_no_game"]}
        s = self.session
        if s is None:
            return v
        game = s.header["game"]
        page = sheet.Sheet(s, self.lang, pictures=False)
        f = facts(s)
        over = f.view["status"] == "over"
        v.update(game=game, over=over, title=[t for g, t, _, _ in GAMES if g == game][0],
                 now=_NOW[game](page, s, f.view),
                 outcome="\n".join(([sheet_games.result(page, f.view)] if over else [])
                                   + sheet_games.ending(page, f)),
                 history="\n".join(sheet_games.history(page, f)))
        return v

    def page_sheet(self):
        """The full game sheet (pictures included) of the game so far."""
        return sheet.build(self.session, self.lang,
                           summary.undone(len(self.lines), self.session))[0]


# -- each game's panel: what the table looks at now ---------------------------------------

def _facts(items):
    return "<p class=facts>%s</p>" % "".join("<span>%s</span>" % i for i in items)


def _sete_selos(page, s, v):
    w = page.w
    n = min(v["ritual"] + (v["status"] != "over"), 21)
    items = [html.escape(w["live_ritual"] % (n, (n - 1) // 7 + 1)),
             "%s: %s" % (html.escape(w["leader"]), page.seat(v["leader"]))]
    if s.rules.banished >= 0:
        items.append(w.device["first_player"] % page.seat(v["first_player"]))
    head = "".join('<th class="elder%s">%s%d</th>' % (" revealed" * e["revealed"],
                                                      html.escape(w["elder_abbr"]), e["value"])
                   for e in v["elders"])
    rows = []
    for seat in range(s.rules.seats):
        mad = s.rules.victory[seat][2]
        cells = "".join('<td class="n%s">%s</td>' % (" revealed" * e["revealed"],
                                                      e["cultists"][seat] or "·")
                        for e in v["elders"])
        rows.append('<tr><td>%s</td>%s<td class="n ins">%d / %d</td></tr>' % (
            page.seat(seat), cells, v["insanity"][seat], mad))
    return _facts(items) + '<table class=elders><tr><th></th>%s<th>%s</th></tr>%s</table>' % (
        head, html.escape(w.word("insanity")), "".join(rows))


def _fantasmagoria(page, s, v):
    w = page.w
    trick = min(s.state.tricks + (v["status"] != "over"), 99)
    possessed = [i for i, p in enumerate(v["possessed"]) if p]
    items = [html.escape(w["live_round"] % (min(v["round"], 3), trick))]
    if v["leader"] is not None:        # the round's sacrifice has named it
        items.append("%s: %s" % (html.escape(w["leader"]), page.seat(v["leader"])))
    items.append(w["live_possessed"] % (page.seats(possessed) or html.escape(w["live_nobody"])))
    trump = "?" if v["trump"] is None else v["trump"]
    big = '<div class=planchette><span class=label>%s</span><span id=trump>%s</span></div>' % (
        html.escape(w["planchette"]), trump)
    rounds = v["rounds"]
    head = "".join("<th>%s</th>" % html.escape(w.word("round_n") % (r + 1))
                   for r in range(len(rounds)))
    rows = "".join("<tr><td>%s</td>%s<td class=n><b>%d</b></td></tr>" % (
        page.seat(seat), "".join("<td class=n>%d</td>" % r[seat] for r in rounds),
        v["scares"][seat]) for seat in range(s.rules.seats))
    return big + _facts(items) + "<table class=scores><tr><th></th>%s<th>%s</th></tr>%s</table>" % (
        head, html.escape(w["track"]), rows)


def _ritos_ancestrais(page, s, v):
    w = page.w
    items = [] if v["status"] == "over" else [w["turn"] % page.seat(v["turn"])]
    if v["final"]:
        items.append('<b class=final>%s</b>' % html.escape(w["live_final"]))
    top = max([25] + v["scores"])
    rows = "".join(
        '<tr><td>%s</td><td class=bar><div style="width:%.1f%%;background:%s"></div>'
        '<i style="left:%.1f%%"></i></td><td class=n><b>%d</b></td></tr>' % (
            page.seat(seat), 100 * sc / top, page.colours[seat], 100 * 21 / top, sc)
        for seat, sc in enumerate(v["scores"]))
    return _facts(items) + "<table class=race>%s</table>" % rows


_NOW = {"sete-selos": _sete_selos, "fantasmagoria": _fantasmagoria,
        "ritos-ancestrais": _ritos_ancestrais}


# -- the page ----------------------------------------------------------------------------

PAGE = """<!doctype html>
<html lang=%(lang)s><meta charset=utf-8>
<meta name=viewport content="width=device-width, initial-scale=1">
<title>Altar</title>
<style>
body { font-family: sans-serif; margin: 0 auto; max-width: 70em; padding: 0 1em 2em;
  color: #eee; background: #111; font-size: 1.4em; }
header { display: flex; justify-content: space-between; align-items: baseline; }
h1 { font-size: 1.6em; margin: 0.4em 0; }
#status { padding: 0.1em 0.6em; border-radius: 1em; background: #555; }
#status[data-status=connected], #status[data-status=reading] { background: #264; }
#status[data-status=disconnected] { background: #a22; }
#last { font-size: 1.5em; margin: 0.3em 0; min-height: 1.3em; }
#last.undo { color: #fc6; }
.facts span { margin-right: 1.5em; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { padding: 0.15em 0.6em; border-bottom: 1px solid #444; text-align: left; }
td.n, th.elder { text-align: center; font-variant-numeric: tabular-nums; }
.elders { font-size: 1.3em; }
.elders .revealed { background: #433; }
.planchette { float: right; text-align: center; margin-left: 1em; }
.planchette .label { display: block; }
#trump { font-size: 5em; font-weight: bold; line-height: 1; }
.race { width: 100%%; font-size: 1.2em; }
td.bar { position: relative; width: 70%%; }
td.bar div { height: 1em; }
td.bar i { position: absolute; top: 0; bottom: 0; border-left: 3px dashed #fff; }
.final { color: #fc6; }
#warnings { color: #fc6; }
#history { font-size: 0.8em; }
tr.first td { border-top: 2px solid #888; }
tr.final td { background: #332; }
.seat::before { content: ""; display: inline-block; width: 0.8em; height: 0.8em;
  border-radius: 50%%; margin-right: 0.35em; background: var(--c); vertical-align: -0.05em; }
.result { font-size: 1.3em; font-weight: bold; }
a.button { display: inline-block; padding: 0.4em 1em; background: #468; color: #fff;
  border-radius: 0.3em; text-decoration: none; }
</style>
<header><h1 id=title>Altar</h1><span id=status></span></header>
<p id=empty></p>
<p id=last></p>
<div id=now></div>
<div id=outcome></div>
<p id=open hidden><a class=button id=sheet href=sheet target=_blank>%(sheet)s</a></p>
<ul id=warnings></ul>
<h2 id=history_h hidden>%(history)s</h2>
<div id=history></div>
<script>
const $ = (id) => document.getElementById(id);
function show(v) {
  document.body.dataset.seq = v.seq;
  $("title").textContent = v.title;
  $("status").textContent = v.status_text;
  $("status").dataset.status = v.status;
  $("empty").textContent = v.game ? "" : v.empty;
  $("last").textContent = v.last;
  $("last").className = v.undo ? "undo" : "";
  $("now").innerHTML = v.now;
  $("outcome").innerHTML = v.outcome;
  $("open").hidden = !v.over;
  $("history_h").hidden = !v.history;
  $("history").innerHTML = v.history;
  $("warnings").replaceChildren(...v.warnings.map((t) => {
    const li = document.createElement("li"); li.textContent = t; return li; }));
}
function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws.onmessage = (e) => show(JSON.parse(e.data));
  ws.onclose = () => {
    $("status").textContent = "altar live?"; $("status").dataset.status = "disconnected";
    setTimeout(connect, 1000);
  };
}
connect();
</script>
"""


# What the server lets in. The page sends nothing, so a browser's message may
# be tiny (aiohttp's default is 4 MB a socket, held while it arrives); a
# table and its phones are far fewer browsers than the cap; one that does not
# read a view within SEND_S is dropped (its page reconnects and gets the latest).
MAX_MESSAGE = 64
MAX_BROWSERS = 64
SEND_S = 10
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def host_name(host):
    """(name, port or None) of an HTTP Host header: "[::1]:8700", "pc.local"."""
    name, _, port = host.rpartition(":") if not host.endswith("]") else (host, "", "")
    if not name or not port.isdigit():
        name, port = host, ""
    return name.strip("[]").lower(), int(port) if port else None


class Server:
    """The page, its WebSocket and the game sheet, for every browser; read-only
    (what a browser sends is ignored). Each browser has one sender, woken by
    a change, which sends the latest view: a burst of changes is one send.

    It answers only to the names it is served under (`names`), so a page
    whose name was rebound to this machine's address (DNS rebinding) gets
    nothing, and its WebSocket only to its own page: a page of another
    origin that the laptop's browser opens cannot watch the game."""

    def __init__(self, mirror, host="127.0.0.1", port=8700):
        self.mirror = mirror
        self.host = host
        self.port = port
        self.clients = {}        # WebSocket -> its sender's wake-up
        self.shown = None        # the view's JSON, built once a change
        self.runner = None
        self.names = set()
        mirror.changed = self.changed

    def changed(self):
        self.shown = None
        for wake in self.clients.values():
            wake.set()

    def _json(self):
        if self.shown is None:
            self.shown = json.dumps(self.mirror.view(), ensure_ascii=False)
        return self.shown

    def served_names(self):
        """The names and addresses a browser may reach this server by."""
        if self.host in ("0.0.0.0", "", "::"):
            names = {lan_address(), socket.gethostname(), socket.gethostname() + ".local"}
            try:
                names.update(a[4][0] for a in socket.getaddrinfo(socket.gethostname(), None))
            except OSError:
                pass
            return {n.lower() for n in names} | set(LOOPBACK)
        return {self.host.lower()} | (set(LOOPBACK) if self.host in LOOPBACK else set())

    @web.middleware
    async def guard(self, request, handler):
        name, port = host_name(request.host or "")
        if name not in self.names or (port or 80) != self.port:
            return web.Response(status=421, text="altar live answers to %s on port %d only"
                                % (", ".join(sorted(self.names)), self.port))
        origin = request.headers.get("Origin")
        if request.path == "/ws" and origin is not None \
                and origin not in ("http://" + request.host, "https://" + request.host):
            return web.Response(status=403, text="altar live: a page from %s may not watch "
                                "this game" % origin[:80])
        return await handler(request)

    async def _sender(self, request, ws, wake):
        while True:
            await wake.wait()
            wake.clear()
            try:
                await asyncio.wait_for(ws.send_str(self._json()), SEND_S)
            except asyncio.TimeoutError:
                request.transport.abort()
                return

    async def page(self, request):
        w = self.mirror.w
        return web.Response(text=PAGE % {"lang": self.mirror.lang, "sheet": w["live_sheet"],
                                         "history": w["live_history"]},
                            content_type="text/html")

    async def state(self, request):
        return web.Response(text=self._json(), content_type="application/json")

    async def sheet(self, request):
        if self.mirror.session is None:
            raise web.HTTPNotFound(text=self.mirror.w["live_no_game"])
        return web.Response(text=self.mirror.page_sheet(), content_type="text/html")

    async def socket(self, request):
        if len(self.clients) >= MAX_BROWSERS:
            return web.Response(status=503, text="altar live: %d browsers already watch this "
                                "game" % MAX_BROWSERS)
        # a closing page waits for no browser: Ctrl-C ends everything within a second
        ws = web.WebSocketResponse(heartbeat=10, timeout=0.3, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        wake = asyncio.Event()
        wake.set()
        self.clients[ws] = wake
        sender = asyncio.ensure_future(self._sender(request, ws, wake))
        try:
            async for msg in ws:
                if msg.type == WSMsgType.ERROR:
                    break
        finally:
            sender.cancel()
            del self.clients[ws]
        return ws

    async def start(self):
        app = web.Application(middlewares=[self.guard], client_max_size=MAX_MESSAGE * 16)
        app.add_routes([web.get("/", self.page), web.get("/ws", self.socket),
                        web.get("/state", self.state), web.get("/sheet", self.sheet)])
        self.runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.2)
        await self.runner.setup()
        site = web.TCPSite(self.runner, self.host, self.port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]   # port 0: the one given
        self.names = self.served_names()

    async def stop(self):
        for ws in list(self.clients):
            await ws.close()
        await self.runner.cleanup()


# -- the sources ------------------------------------------------------------------------

def is_port(path):
    """A serial port (a character device, or COMn on Windows), not a file."""
    if path.upper().startswith("COM"):
        return True
    try:
        return stat.S_ISCHR(os.stat(path).st_mode)
    except OSError:
        return path.startswith("/dev/")


async def read_port(path, console, mirror):
    """A serial port, opened again whenever it comes back; a sync at each
    connection. pyserial's blocking reads run in a thread."""
    import serial
    loop = asyncio.get_running_loop()
    while True:
        try:
            port = await loop.run_in_executor(None, lambda: serial.Serial(path, 115200,
                                                                          timeout=_POLL))
        except (serial.SerialException, OSError):
            mirror.set_status("disconnected")
            await asyncio.sleep(_POLL * 5)
            continue
        console.reset()
        mirror.set_status("connected")
        try:
            await loop.run_in_executor(None, port.write, (SYNC + "\r\n").encode())
            while True:
                data = await loop.run_in_executor(None, port.read, 4096)
                if data:
                    console.feed(data.decode("utf-8", "replace"))
        except (serial.SerialException, OSError):
            mirror.set_status("disconnected")
        finally:
            port.close()


async def read_file(path, console, mirror):
    """A file that grows (a terminal's capture of the console), read from its
    start; one that shrinks or is replaced is read again from its start."""
    at = 0
    ident = None
    while True:
        try:
            st = os.stat(path)
        except OSError:
            mirror.set_status("waiting")
            await asyncio.sleep(_POLL)
            continue
        mirror.set_status("reading")
        if (st.st_ino, st.st_dev) != ident or st.st_size < at:
            ident = (st.st_ino, st.st_dev)
            at = 0
            console.reset()
        if st.st_size > at:
            with open(path, "rb") as f:
                f.seek(at)
                data = f.read()
            # a partial UTF-8 character waits for its end
            cut = len(data.decode("utf-8", "ignore").encode("utf-8")) if data[-1] >= 0x80 \
                else len(data)
            at += cut
            console.feed(data[:cut].decode("utf-8", "replace"))
        await asyncio.sleep(_POLL)


# -- running it ----------------------------------------------------------------------------

def lan_address():
    """This machine's address on the LAN (the route out), for the phones."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))     # no packet is sent
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def announce(server, out=sys.stdout):
    """The URL to open, and for the LAN a QR code of it for the phones."""
    host = server.host
    shown = lan_address() if host in ("0.0.0.0", "") else host
    url = "http://%s:%d/" % (shown, server.port)
    out.write("altar live: %s (Ctrl-C stops)\n" % url)
    if shown not in ("127.0.0.1", "localhost"):
        import segno
        segno.make(url, error="m").terminal(out=out, compact=True)
    out.flush()
    return url


def warn_terminal(text):
    print("altar live: %s" % text, file=sys.stderr, flush=True)


class Live:
    """altar live's parts: the mirror, the console text that feeds it, the
    server; `start(source)` serves and reads a port or a file (None: the
    caller feeds the console, its device there from the start)."""

    def __init__(self, lang="pt", host="127.0.0.1", port=8700):
        self.mirror = Mirror(lang, warn=warn_terminal)
        self.console = Console(self.mirror)
        self.server = Server(self.mirror, host, port)

    async def start(self, source=None):
        await self.server.start()
        if source is None:
            self.mirror.set_status("connected")
        else:
            reading = read_port if is_port(source) else read_file
            asyncio.ensure_future(self.read(reading, source))

    async def read(self, reading, source):
        """Run a reader; one that fails says so on the page and in the
        terminal, rather than leave the page saying "connected"."""
        try:
            await reading(source, self.console, self.mirror)
        except Exception as e:
            self.mirror.set_status("stopped")
            self.mirror.warn(self.mirror.w["live_reader_failed"] % (source, e))

    async def stop(self):
        """The reading ends, and every browser's connection, then the server."""
        for t in asyncio.all_tasks():
            if t is not asyncio.current_task():
                t.cancel()
        await self.server.stop()


class Thread(Live):
    """altar live in a thread of its own, for a caller in another (the
    emulator, which feeds it with `feed(text)`)."""

    def __init__(self, lang="pt", host="127.0.0.1", port=8700, source=None):
        super().__init__(lang, host, port)
        self.loop = asyncio.new_event_loop()
        started = threading.Event()
        self.error = None

        def run():
            asyncio.set_event_loop(self.loop)
            try:
                self.loop.run_until_complete(self.start(source))
            except OSError as e:
                self.error = e
                return
            finally:
                started.set()
            self.loop.run_forever()

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        started.wait()
        if self.error:
            raise self.error

    def feed(self, text):
        if text:
            self.loop.call_soon_threadsafe(self.console.feed, text)

    def close(self):
        asyncio.run_coroutine_threadsafe(self.stop(), self.loop).result(2)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(2)


async def serve(source, lang, host, port):
    live = Live(lang, host, port)
    await live.start(source)
    announce(live.server)
    try:
        await asyncio.Event().wait()
    finally:
        await live.stop()


def main(args):
    try:
        asyncio.run(serve(args.source, args.lang, args.host, args.port))
    except KeyboardInterrupt:
        pass
    except OSError as e:         # the address is taken, or not this machine's
        print("altar live: cannot serve on %s:%d: %s" % (args.host, args.port, e.strerror),
              file=sys.stderr)
        return 2
    return 0

