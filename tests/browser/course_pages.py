"""Course pages for the tests: a page of another origin (its own server on 127.0.0.1, another port) that frames the
playground, as a course author's lesson does. Served for real: a page fulfilled by a route would not do, as
Chromium's local network checks keep such a page from framing 127.0.0.1."""

import contextlib
import http.server

from sitebuild import server as dev_server


def send(handler, body, kind):
    """Answer the request `handler` holds with `body` (bytes) of MIME type `kind`, or 404 if `body` is None."""
    if body is None:
        handler.send_error(404)
        return
    handler.send_response(200)
    handler.send_header("Content-Type", kind)
    # A course's site lets the playground read its files (a lesson and its scenes), as GitHub Pages does.
    handler.send_header("Access-Control-Allow-Origin", "*")
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


MIME_TYPES = {"js": "text/javascript", "md": "text/markdown; charset=utf-8", "json": "application/json"}


@contextlib.contextmanager
def course_page(files):
    """Serve `files(url)` ({path: text}; "/" is the page; `url` the server's own base URL, for a page that names its
    origin) from a server of its own, for the length of the `with` block; gives that URL (no slash at the end)."""
    bodies = {}

    class CoursePageHandler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            send(self, bodies.get(self.path), MIME_TYPES.get(self.path.rsplit(".", 1)[-1], "text/html"))

        def log_message(self, *args):
            pass

    with dev_server.serving(CoursePageHandler) as url:
        bodies.update({path: text.encode() for path, text in files(url).items()})
        yield url


#: A course page's script that hears the frames and asks them: `window.heard` holds every attention-playground
#: message but the frames' resizes ({frame: the frame's id, origin, data}); `window.ask(frameId, method, params)`
#: sends a request and resolves with its reply; `window.askOrNothing(frameId, method)` resolves with "no reply"
#: when none comes within 1.5 s.
COURSE_SCRIPT = """window.heard = [];
addEventListener("message", (event) => {
  const frame = [...document.querySelectorAll("iframe")].find((f) => f.contentWindow === event.source);
  if (event.data?.type?.startsWith("attention-playground:") && event.data.type !== "attention-playground:resize") {
    window.heard.push({ frame: frame?.id ?? null, origin: event.origin, data: event.data });
  }
});
let next = 1;
window.ask = (frameId, method, params) => new Promise((resolve) => {
  const id = next++;
  const frame = document.getElementById(frameId);
  const listen = (event) => {
    if (event.source !== frame.contentWindow || event.data?.type !== "attention-playground:reply" || event.data.id !== id) return;
    removeEventListener("message", listen);
    resolve(event.data);
  };
  addEventListener("message", listen);
  frame.contentWindow.postMessage({ type: "attention-playground:request", id, method, params }, "*");
});
window.askOrNothing = (frameId, method) => Promise.race([window.ask(frameId, method, {}),
  new Promise((resolve) => setTimeout(() => resolve("no reply"), 1500))]);"""
