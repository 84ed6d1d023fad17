"""The benchmark's web server: build.py's own request handler on 127.0.0.1, counting the bytes it sends.

The page is served exactly as `python3 build.py serve` serves it (same MIME types, same headers); the only
addition is a ledger of what went out per request, which is the "bytes transferred" figure.
"""

import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def dev_server():
    """build.py's server module, sitebuild/server.py (its request handler serves the repository root)."""
    sys.path.insert(0, str(ROOT))
    try:
        from sitebuild import server  # noqa: E402
    finally:
        sys.path.pop(0)
    return server


class ByteLedger:
    """Bytes sent per request (status line, headers and body), since the last `take()`. Thread-safe."""

    def __init__(self):
        self._lock = threading.Lock()
        self._entries = []

    def add(self, path, sent, status):
        with self._lock:
            self._entries.append({"path": path, "bytes": sent, "status": status})

    def take(self):
        """The entries so far, and start a new list."""
        with self._lock:
            entries, self._entries = self._entries, []
        return entries


class CountingWriter:
    """A socket file that counts what is written through it."""

    def __init__(self, raw):
        self.raw = raw
        self.count = 0

    def write(self, data):
        self.count += len(data)
        return self.raw.write(data)

    def __getattr__(self, name):
        return getattr(self.raw, name)


def start_server(ledger, isolated=True):
    """Serve the repository root on a free port of 127.0.0.1 in a background thread.

    `isolated` False plays a plain static host (most hosts, every course platform): the same files without the
    cross-origin isolation headers, so the page has no SharedArrayBuffer.
    Returns (server, base URL); call server.shutdown() to stop it.
    """
    server_module = dev_server()

    class CountingHandler(server_module.SiteRequestHandler):
        def setup(self):
            super().setup()
            self.wfile = CountingWriter(self.wfile)

        def handle_one_request(self):
            before = self.wfile.count
            self.status_sent = None
            super().handle_one_request()
            if self.wfile.count > before and getattr(self, "path", None):
                ledger.add(self.path.split("?")[0], self.wfile.count - before, self.status_sent)

        def send_response(self, code, message=None):
            self.status_sent = code
            super().send_response(code, message)

        def log_message(self, *args):
            pass  # the benchmark prints its own summary

    CountingHandler.isolated = isolated
    return server_module.serve_in_background(CountingHandler)
