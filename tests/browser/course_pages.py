"""Course pages for the tests: a page of another origin (its own server on 127.0.0.1, another port) that frames the
playground, as a course author's lesson does. Served for real: a page fulfilled by a route would not do, as
Chromium's local network checks keep such a page from framing 127.0.0.1."""

import contextlib
import http.server

from sitebuild import server as dev_server


@contextlib.contextmanager
def course_page(files):
    """Serve `files(url)` ({path: text}; "/" is the page; `url` the server's own base URL, for a page that names its
    origin) from a server of its own, for the length of the `with` block; gives that URL (no slash at the end)."""
    bodies = {}

    class CoursePageHandler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = bodies.get(self.path)
            if body is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/javascript" if self.path.endswith(".js") else "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    with dev_server.serving(CoursePageHandler) as url:
        bodies.update({path: text.encode() for path, text in files(url).items()})
        yield url
