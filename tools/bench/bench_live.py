#!/usr/bin/env python3
"""`altar live` against hostile browsers: the server's memory while many
WebSockets each send an unfinished fragmented message, then after they go.

    .venv/bin/python tools/bench/bench_live.py [--sockets 200] [--no-write]

Serves a capture file with `altar live` in a process of its own, twice: as
the server is (a browser's message at most live.MAX_MESSAGE bytes), and as
it was before issue 43 (aiohttp's default, 4 MB a message, no cap on
browsers). Each time it opens `--sockets` WebSocket connections over
loopback, each sending one text message in 64 KB fragments without its
final frame (up to 4 MB, or until the server closes the socket), reads the
server's resident memory (VmRSS) with all of them open, closes them, and
reads it again a second later. Writes the "bench_live" section of
BENCHMARKS.md. About half a minute.
"""

import argparse
import base64
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time

sys.path[:0] = [os.path.dirname(os.path.abspath(__file__))]

from benchmd import md_table, write_section  # noqa: E402

FRAGMENT = 64 * 1024
MESSAGE = 4 * 1024 * 1024      # aiohttp's default max_msg_size
SERVE = ("import sys; from altar_host import live\n"
         "if sys.argv[1] == 'before':\n"
         "    live.MAX_MESSAGE, live.MAX_BROWSERS = %d, 10 ** 6\n"
         "from altar_host.cli import main\n"
         "sys.exit(main(['live', sys.argv[2], '--port', '0']))\n" % MESSAGE)


def rss(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def frame(opcode, fin, payload):
    """A client frame, masked with a zero key (so the payload is as is)."""
    n = len(payload)
    head = bytes([(0x80 if fin else 0) | opcode])
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + struct.pack(">H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack(">Q", n)
    return head + b"\0\0\0\0" + payload


def hostile(port):
    """A WebSocket that starts a message and never ends it: the socket, or
    None if the server refused the handshake."""
    s = socket.create_connection(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n"
               % (port, key)).encode())
    head = b""
    while b"\r\n\r\n" not in head:
        got = s.recv(4096)
        if not got:
            break
        head += got
    if not head.startswith(b"HTTP/1.1 101"):
        s.close()
        return None
    s.settimeout(2)
    data = b"x" * FRAGMENT
    try:
        s.sendall(frame(1, False, data))
        for _ in range(MESSAGE // FRAGMENT - 2):
            s.sendall(frame(0, False, data))
    except OSError:
        pass                    # the server closed it: the message was too big
    return s


def measure(kind, sockets, capture):
    p = subprocess.Popen([sys.executable, "-c", SERVE, kind, capture], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    try:
        url = p.stdout.readline().split()[2]
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        time.sleep(0.5)
        idle = rss(p.pid)
        open_ = [s for s in (hostile(port) for _ in range(sockets)) if s is not None]
        time.sleep(1)
        held = rss(p.pid)
        for s in open_:
            s.close()
        time.sleep(1)
        return {"idle": idle, "held": held, "after": rss(p.pid), "accepted": len(open_)}
    finally:
        p.terminate()
        p.wait(5)


def mb(b):
    return "%.0f MB" % (b / 1e6)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sockets", type=int, default=200)
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as d:
        capture = os.path.join(d, "altar-serial.log")
        open(capture, "w").close()
        rows = []
        for kind, what in (("before", "before issue 43: 4 MB a message, no cap"),
                           ("now", "now: 64 bytes a message, 64 browsers")):
            m = measure(kind, args.sockets, capture)
            rows.append([what, m["accepted"], mb(m["idle"]), mb(m["held"]), mb(m["after"])])
    text = "\n".join([
        "## `altar live` against hostile browsers (tools/bench/bench_live.py)",
        "",
        "The server's resident memory (VmRSS) while %d WebSocket connections each send one "
        "text message in 64 KB fragments and never its last frame (up to 4 MB, or until the "
        "server closes them), and a second after they close. Loopback, one run; %s."
        % (args.sockets, time.strftime("%Y-%m-%d")),
        "",
        md_table(["server", "handshakes it accepted", "idle", "all open", "after they closed"],
                 rows),
    ])
    print(text)
    if not args.no_write:
        write_section("bench_live", text)


if __name__ == "__main__":
    main()
