"""A local web page of live device charts (`python -m loom dashboard`), NVDashboard style.

A small HTTP server (the standard library's) serves one page, `_dashboard.html`, whose
plain JavaScript draws utilisation, memory, loom's pool, PCIe/NVLink traffic and
temperature on canvases; it fetches nothing from outside the machine. One thread samples
the devices each second (`_sampler.Monitor`) and keeps the last `history` samples:

    GET /          the page
    GET /data      the latest sample (the JSON document of `loom top --json`)
    GET /history   {"samples": [...]}: the kept samples, oldest first, for a page just opened

Run it inside a program to chart that program's own pool (loom's allocator statistics
belong to the process that samples them)::

    dash = loom.dashboard.start(port=8787)   # returns at once; dash.url, dash.stop()
"""
import argparse
import collections
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from ._sampler import Monitor

# Its public names (the docs page of loom.dashboard lists these, not the imported helpers).
__all__ = ["Dashboard", "start", "main"]

_PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_dashboard.html")


class Dashboard:
    """A running dashboard: its server and sampling threads. Stop it with stop()."""

    def __init__(self, host="127.0.0.1", port=8787, interval=1.0, history=600, monitor=None):
        if not interval > 0:
            raise ValueError(f"[dashboard] interval must be > 0, got {interval}")
        self.interval = interval
        self._samples = collections.deque(maxlen=max(1, int(history)))
        self._lock = threading.Lock()
        self._stop = threading.Event()
        with open(_PAGE, "rb") as f:
            self._page = f.read()
        self._monitor = monitor or Monitor()
        self._take_sample()  # /data answers from the first request on
        self._server = ThreadingHTTPServer((host, port), _handler(self))
        self._server.daemon_threads = True
        self.host, self.port = self._server.server_address[:2]
        self._threads = [threading.Thread(target=self._server.serve_forever, name="loom-dashboard-http", daemon=True),
                         threading.Thread(target=self._sample_loop, name="loom-dashboard-sampler", daemon=True)]
        for t in self._threads:
            t.start()

    @property
    def url(self):
        return f"http://{self.host}:{self.port}/"

    def _take_sample(self):
        s = self._monitor.sample()
        with self._lock:
            self._samples.append(s)

    def _sample_loop(self):
        while not self._stop.wait(self.interval):
            try:
                self._take_sample()
            except Exception as e:  # keep serving what was sampled; say why it stopped moving
                print(f"loom dashboard: sampling failed: {e!r}", file=sys.stderr)

    def latest(self):
        with self._lock:
            return self._samples[-1]

    def samples(self):
        with self._lock:
            return list(self._samples)

    def stop(self):
        """Stops serving and sampling; returns when both threads have ended."""
        if self._stop.is_set():
            return
        self._stop.set()
        self._server.shutdown()
        self._server.server_close()
        for t in self._threads:
            t.join()
        self._monitor.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def _handler(dash):
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server's name)
            path = self.path.split("?", 1)[0]
            if path in ("/", "/index.html"):
                self._send(200, "text/html; charset=utf-8", dash._page)
            elif path == "/data":
                self._send_json(dash.latest())
            elif path == "/history":
                self._send_json({"interval": dash.interval, "samples": dash.samples()})
            else:
                self._send(404, "text/plain; charset=utf-8", f"no such page: {path}\n".encode())

        def _send_json(self, obj):
            self._send(200, "application/json", json.dumps(obj).encode())

        def _send(self, code, ctype, body):
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):  # one line per poll each second would drown the terminal
            pass

    return Handler


def start(host="127.0.0.1", port=8787, interval=1.0, history=600):
    """Starts a dashboard in background threads of this process and returns it (a Dashboard:
    .url, .stop()). port=0 picks a free port. Serving on another address than loopback
    shows this machine's processes to the network: pass host explicitly for that."""
    return Dashboard(host=host, port=port, interval=interval, history=history)


def main(argv):
    ap = argparse.ArgumentParser(prog="python -m loom dashboard",
                                 description="Serve live device charts on a local web page.")
    ap.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    ap.add_argument("--port", type=int, default=8787, help="port (8787; 0 picks a free one)")
    ap.add_argument("--interval", type=float, default=1.0, metavar="S", help="seconds between samples (1)")
    args = ap.parse_args(argv)
    if not args.interval > 0:
        ap.error(f"--interval must be > 0, got {args.interval}")
    try:
        dash = start(args.host, args.port, args.interval)
    except OSError as e:
        print(f"loom dashboard: cannot listen on {args.host}:{args.port}: {e.strerror or e}", file=sys.stderr)
        return 1
    print(f"loom dashboard on {dash.url} (Ctrl-C stops it)", flush=True)
    try:
        threading.Event().wait()  # until Ctrl-C
    except KeyboardInterrupt:
        pass
    finally:
        dash.stop()
    return 0
