"""A course author's lesson page for the browser tests: pages served for real by a server of their own on
127.0.0.1 (another port than the playground's: another origin), as a course site serves its lessons.

A page fulfilled by a route would not do: Chromium's local network checks keep such a page from framing
127.0.0.1.
"""

import contextlib
import http.server

from sitebuild import server as dev_server


@contextlib.contextmanager
def serving_lesson(files):
    """Serve `files` ({path: text}) until the block ends; gives the server's base URL (no slash at its end)."""
    bodies = {path: text.encode() for path, text in files.items()}

    class LessonHandler(http.server.BaseHTTPRequestHandler):
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

    with dev_server.serving(LessonHandler) as url:
        yield url
