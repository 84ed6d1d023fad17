"""An LMS for the browser tests, on one server of its own: SCORM packages served from their zips, as a course
platform serves an uploaded package, and a player page that runs scorm-again as the LMS's runtime and launches a
package's SCO in a frame.

The course's page is another site: the test opens http://localhost:<port>/course.html, which frames the player at
http://127.0.0.1:<port>/player.html, which frames the package. The player and the package share an origin (a SCO
finds the runtime in its parent window, which the browser allows only within one origin), and both are
third-party to the course's page, so Chromium blocks their storage: the learner's work can only survive in the
LMS's record.

    with lms_server(packages) as lms:          # packages: {name: path of its zip}
        page.goto(lms.course_url(name, version, launch, suspend_data=None))
        player = lms.player(page); sco = lms.sco(page)

`pack` and `unpack` write and read the learner's work as the page keeps it in suspend_data.
"""

import base64
import contextlib
import html
import http.server
import json
import mimetypes
import zipfile
import zlib
from urllib.parse import parse_qs, quote, urlsplit

from course_pages import send
from scorm_again import runtime_scripts
from sitebuild import server as dev_server

COURSE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A course</title>
<link rel="icon" href="data:,"></head><body><iframe id="player" src="{player}" width="1280" height="1000"></iframe></body></html>"""

PLAYER = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>The LMS's player</title>
<link rel="icon" href="data:,"></head><body>
<script src="/scorm-again/scorm12.min.js"></script><script src="/scorm-again/scorm2004.min.js"></script>
<script src="/player.js"></script></body></html>"""

#: The player: the runtime of the version asked for, under its standard name, with the record it kept before (the
#: suspend_data the test hands it), every call the SCO makes noted in window.calls, and the SCO in a frame.
PLAYER_SCRIPT = """const params = new URLSearchParams(location.search);
const version = params.get("version");
const api = version === "1.2" ? new Scorm12API({ autocommit: false, logLevel: 5 }) : new Scorm2004API({ autocommit: false, logLevel: 5 });
if (params.get("suspend")) api.cmi.suspend_data = params.get("suspend");
window.calls = [];
const names = version === "1.2" ? ["LMSInitialize", "LMSCommit", "LMSFinish"] : ["Initialize", "Commit", "Terminate"];
for (const name of names) api.on(name, () => window.calls.push([name]));
api.on(version === "1.2" ? "LMSSetValue.cmi.*" : "SetValue.cmi.*", (element, value) => window.calls.push(["SetValue", element, value]));
window[version === "1.2" ? "API" : "API_1484_11"] = api;
window.api = api;
window.record = () => JSON.parse(JSON.stringify(api.renderCMIToJSONObject()));
const frame = document.createElement("iframe");
frame.id = "sco";
frame.src = params.get("launch");
frame.width = 1200;
frame.height = 960;
document.body.append(frame);
window.leave = () => frame.remove();
"""


class LmsServer:
    def __init__(self, url):
        self.url = url  # http://127.0.0.1:<port>
        self.port = urlsplit(url).port

    def course_url(self, package, launch, version, suspend_data=None):
        """The course's page (localhost) launching `launch` of `package` with the runtime of `version`."""
        player = f"{self.url}/player.html?version={version}&launch={quote(f'/packages/{package}/{launch}', safe='')}"
        if suspend_data:
            player += f"&suspend={quote(suspend_data, safe='')}"
        return f"http://localhost:{self.port}/course.html?player={quote(player, safe='')}"

    @staticmethod
    def player(page):
        return next(frame for frame in page.frames if "/player.html" in frame.url)

    @staticmethod
    def sco(page):
        return next(frame for frame in page.frames if "/packages/" in frame.url)


@contextlib.contextmanager
def lms_server(packages):
    """Serve the course page, the player, scorm-again and each package in `packages` ({name: zip path}), unpacked
    on the fly from its zip, with no isolation headers (as a course platform serves them)."""
    archives = {name: zipfile.ZipFile(path) for name, path in packages.items()}
    scripts = {f"/scorm-again/{name}": text.encode() for name, text in runtime_scripts().items()}
    pages = {"/player.html": PLAYER.encode(), "/player.js": PLAYER_SCRIPT.encode(), **scripts}

    class LmsHandler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            send(self, *self.find(urlsplit(self.path)))

        def find(self, parts):
            if parts.path == "/course.html":
                player = parse_qs(parts.query).get("player", [""])[0]
                return COURSE.format(player=html.escape(player)).encode(), "text/html"
            if parts.path in pages:
                return pages[parts.path], "text/javascript" if parts.path.endswith(".js") else "text/html"
            if parts.path.startswith("/packages/"):
                name, _, inner = parts.path[len("/packages/"):].partition("/")
                archive = archives.get(name)
                if archive is None or inner not in archive.NameToInfo:
                    return None, None
                kind = dev_server.SiteRequestHandler.extensions_map.get("." + inner.rsplit(".", 1)[-1]) or mimetypes.guess_type(inner)[0]
                return archive.read(inner), kind or "application/octet-stream"
            return None, None

        def log_message(self, *args):
            pass

    try:
        with dev_server.serving(LmsHandler) as url:
            yield LmsServer(url)
    finally:
        for archive in archives.values():
            archive.close()


def unpack(suspend_data):
    """The work in a suspend_data as js/lms/suspend-data.js packs it: "ap1." + base64url(deflate-raw(JSON))."""
    assert suspend_data.startswith("ap1."), suspend_data[:40]
    data = suspend_data[4:]
    return json.loads(zlib.decompress(base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)), -15))


def pack(work):
    """`work` as the page packs it into suspend_data (the inverse of `unpack`)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = compressor.compress(json.dumps(work).encode()) + compressor.flush()
    return "ap1." + base64.urlsafe_b64encode(data).decode().rstrip("=")
