"""The development server: `python3 build.py serve` serves the project's own folder on 127.0.0.1.

Files are served as they are on disk (an edit shows on reload), with the MIME types a module worker and
WebAssembly need, except index.html, which gets the policy and the module preloads written in as dist/ does
(page.py). Every script is sent with the Content-Security-Policy as a header: a worker takes its policy from
there (csp.py). The page's policy, except for the in-Pyodide test run's scripts (tests/in_pyodide/), whose
worker installs pytest with micropip and gets the allowance that needs (csp.in_pyodide_tests_policy).

Every response also carries the headers that make the page cross-origin isolated (csp.ISOLATION_HEADERS): there
SharedArrayBuffer exists, so Stop can interrupt a learner's runaway code in a fraction of a second instead of
ending its worker (js/service/exercise-runner.js). Everything the page loads is its own, so nothing is blocked
by them; a course page on another origin can still frame the page and load js/embed-host.js.
"""

import contextlib
import http.server
import sys
import threading
import urllib.parse
from pathlib import Path

from . import csp, page
from .paths import ROOT

#: Paths that are the page itself (with or without a query: ?embed&…).
PAGE_PATHS = {"/", "/index.html"}
#: Where the in-Pyodide test run's scripts are served from (never part of dist/).
IN_PYODIDE_TESTS_PATH = "/tests/in_pyodide/"
#: Where `serve --lesson FILE.md` serves the lesson's folder: the lesson file and the scene files beside it.
LESSON_PREVIEW_PATH = "/lesson-preview/"


class SiteRequestHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the project root with the MIME types a module worker and WebAssembly need, quietly.

    Browsers are told to revalidate every file (Cache-Control: no-cache), so an edit shows on reload while
    unchanged files still come back as 304 Not Modified.
    """

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".map": "application/json",
        ".css": "text/css",
        ".svg": "image/svg+xml",
        ".html": "text/html",
        ".zip": "application/zip",
        ".whl": "application/zip",
        ".md": "text/markdown; charset=utf-8",
    }

    #: The folder served; a subclass may serve another (a built site).
    root = ROOT
    #: Send ISOLATION_HEADERS; a subclass may play a static host that does not.
    isolated = True
    #: Revalidate every file, so an edit shows on reload; a subclass serving files that cannot change while it
    #: serves them (the tests' build of a run) may let the browser keep them instead.
    cache_control = "no-cache"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=str(self.root), **kwargs)

    def do_GET(self):
        if self.path.split("?", 1)[0].split("#", 1)[0] in PAGE_PATHS and (self.root / "index.html").exists():
            self.send_page()
        else:
            super().do_GET()

    def send_page(self):
        """index.html with the policy and the preloads written in (the file on disk has markers)."""
        text = (self.root / "index.html").read_text(encoding="utf-8")
        if page.POLICY_MARKER in text:
            text = page.render_index(text)
        body = text.encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def end_headers(self):
        self.send_header("Cache-Control", self.cache_control)
        if self.isolated:
            for name, value in csp.ISOLATION_HEADERS.items():
                self.send_header(name, value)
        path = self.path.split("?", 1)[0]
        if path.endswith((".js", ".mjs")):  # a worker's policy
            in_pyodide_tests = path.startswith(IN_PYODIDE_TESTS_PATH)
            policy = csp.in_pyodide_tests_policy() if in_pyodide_tests else csp.content_security_policy()
            self.send_header("Content-Security-Policy", policy)
        super().end_headers()

    def log_request(self, code="-", size="-"):
        if not str(code).startswith(("2", "3")):  # only what needs attention
            super().log_request(code, size)

    def log_error(self, format, *args):
        if not format.startswith("code %d"):  # send_error's line; log_request above says it with the path
            super().log_error(format, *args)


def previewing(lesson_file):
    """A handler that also serves the folder of `lesson_file` under LESSON_PREVIEW_PATH (nothing outside it), as it
    is on disk at every request: the page previewing the lesson reads it again after each save."""
    folder = Path(lesson_file).resolve().parent

    class LessonPreviewHandler(SiteRequestHandler):
        def translate_path(self, path):
            clean = path.split("?", 1)[0].split("#", 1)[0]
            if not clean.startswith(LESSON_PREVIEW_PATH):
                return super().translate_path(path)
            target = (folder / urllib.parse.unquote(clean[len(LESSON_PREVIEW_PATH):])).resolve()
            return str(target if target.is_relative_to(folder) else folder / ".not-beside-the-lesson")  # answered 404

    return LessonPreviewHandler


def preview_address(base_url, lesson_file):
    """The page previewing `lesson_file`: its step reloads whenever the file (or a scene file beside it) is saved."""
    name = urllib.parse.quote(Path(lesson_file).name)
    return f"{base_url}/index.html#lesson-src={urllib.parse.quote(LESSON_PREVIEW_PATH[1:], safe='')}{name}&preview"


class SiteServer(http.server.ThreadingHTTPServer):
    """One thread per request. A browser that hangs up mid-download (a closed tab, a stopped worker) is
    normal, not an error worth a traceback."""

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def make_server(port=0, handler=SiteRequestHandler):
    """A server for the project on 127.0.0.1 at `port`; if that port is taken, on a free one."""
    try:
        return SiteServer(("127.0.0.1", port), handler)
    except OSError:
        return SiteServer(("127.0.0.1", 0), handler)


def serve_in_background(handler=SiteRequestHandler):
    """Serve with `handler` on a free port of 127.0.0.1 from a daemon thread; returns (server, its base URL with no
    trailing slash). `server.shutdown()` stops it. Tests and benchmarks serve this way."""
    server = make_server(0, handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, port = server.server_address[:2]
    return server, f"http://{host}:{port}"


@contextlib.contextmanager
def serving(handler=SiteRequestHandler):
    """`serve_in_background` for the length of a `with` block (or a fixture's yield); gives the base URL."""
    server, url = serve_in_background(handler)
    try:
        yield url
    finally:
        server.shutdown()
        server.server_close()


def serve(port, lesson_file=None):
    """Serve the project until Ctrl+C; with `lesson_file`, preview it too (previewing, preview_address)."""
    server = make_server(port, previewing(lesson_file) if lesson_file else SiteRequestHandler)
    host, actual_port = server.server_address[:2]
    if actual_port != port:
        print(f"port {port} is busy, using {actual_port}")
    print(f"serving the playground at http://{host}:{actual_port}/  (Ctrl+C stops)", flush=True)
    if lesson_file:
        print(f"previewing {lesson_file}: open {preview_address(f'http://{host}:{actual_port}', lesson_file)}\n"
              "  each save shows at once, at the step on show, with the checker's mistakes in the page", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
