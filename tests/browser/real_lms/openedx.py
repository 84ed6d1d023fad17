"""Open edX's SCORM block (openedx-scorm-xblock 19.0.5) in the XBlock workbench (xblock-sdk 0.14.0, Django, sqlite),
run from its own virtualenv on 127.0.0.1 with an empty database.

    with running(workdir) as lms:                 # lms.name == "Open edX"
        handle = lms.upload(zip_path)             # the block's usage id
        lms.log_in_learner(context); page.goto(lms.launch_url(handle))
        sco = lms.sco_frame(page); ...; lms.stored(handle)

An author's path, over HTTP like a browser: the author opens the block's editor (its studio view) and saves its form
with the zip, unchanged, as a multipart POST to the block's `studio_submit` handler with the page's CSRF token; the
block unzips it into its storage and launches the first `<resource href>` of its manifest. The learner's page is
the block's student view, which holds the SCORM API and frames the package (served by the block's `assets_proxy`
handler). The block keeps the learner's record as one row of the workbench's sqlite table: its field `scorm_data`
(every element the package set, as sent) beside its own status and score.

The workbench is a Django project that ships no `manage.py`, and four of its ways do not match what the block
expects of Open edX's LMS; the project written into the work folder (`PROJECT_FILES`) mends each as Django starts
(scormbench/apps.py):
  - the block's workbench scenario names its tag `<openedxscorm/>`, but the block is installed as `scorm`, and one
    scenario that does not load stops the workbench from showing any;
  - the workbench gives each block a `location` that is a `Mock`, whose `block_id` the block joins into a path;
  - the workbench's handler addresses end in `?student=…`, where the block appends the package's file paths to the
    address of its `assets_proxy` handler;
  - the block names the learner by the user service's `edx-platform.user_id` and `edx-platform.username`, which only
    the LMS sets.
It adds one address of its own, `POST /scenarios/new/`, that makes a scenario holding one SCORM block with no
package: the workbench makes scenarios in code (it has no course editor), so this stands for the author adding a unit.

The workbench has no log-in: it names the learner by the `student` parameter of the page's address, and its JS
runtime adds that name to every handler call, so the launch address names the learner (`LEARNER`).
"""

import contextlib
import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from html.parser import HTMLParser
from http.cookiejar import CookieJar
from pathlib import Path

from sitebuild.paths import cache_root

from .servers import kept_database, stop
from .venvs import REQUIREMENTS_DIR, virtualenv

NAME = "Open edX"
#: The workbench's names for the learner and the author (its `student` query parameter).
LEARNER = "learner"
AUTHOR = "author"
#: The fields of the block's editor that its script (static/js/src/studio.js) sends with the package.
EDITOR_FIELDS = ("display_name", "has_score", "enable_navigation_menu", "enable_fullscreen_button", "weight", "width",
                 "height", "navigation_menu_width", "popup_on_launch")
DATABASE_NAME = "workbench.sqlite3"
SERVER_LOG = "server.log"
#: Seconds to wait for the server's first answer (its first page loads every installed block's scenarios).
START_TIMEOUT = 90
#: Seconds for one ordinary HTTP request, and for making the database.
REQUEST_TIMEOUT = 30
SETUP_TIMEOUT = 180
#: Seconds for the upload's request: the block unzips the package inside it (about a second for 12 MB here).
UPLOAD_TIMEOUT = 300
#: Milliseconds to wait for the block's frame to start loading the package.
FRAME_TIMEOUT_MS = 30_000
#: `stored` reads until the learner's row has not changed for this many seconds, or for SETTLE_TIMEOUT at most: the
#: block's SetValue sends its values in the background, one request at a time.
SETTLE_SECONDS = 0.5
SETTLE_TIMEOUT = 10

MANAGE_PY = '''\
"""The workbench's manage.py (xblock-sdk ships none), with the settings of scormbench/."""
import os
import sys

if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    os.environ["DJANGO_SETTINGS_MODULE"] = "scormbench.settings"
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
'''

SETTINGS_PY = '''\
"""The workbench's own settings, with what holds state in this folder (the sqlite database, the unzipped packages)
and the mends of scormbench/apps.py installed."""
import warnings
from pathlib import Path

# The workbench's filesystem library (fs) imports pkg_resources, which warns at every start.
warnings.filterwarnings("ignore", message="pkg_resources is deprecated")

from workbench.settings import *  # noqa: E402,F401,F403

HERE = Path(__file__).resolve().parent.parent
# A test's database, made anew for each run: no need to wait for the disk at every write.
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": str(HERE / "workbench.sqlite3"),
                         "OPTIONS": {"timeout": 30, "init_command": "PRAGMA synchronous = OFF"}}}
MEDIA_ROOT = str(HERE / "media")
MEDIA_URL = "/media/"
DJFS = {"type": "osfs", "directory_root": str(HERE / "djpyfs"), "url_root": "/static/djpyfs"}
XBLOCK_SETTINGS = {"ScormXBlock": {}}
INSTALLED_APPS = [*INSTALLED_APPS, "scormbench.apps.ScormBenchConfig"]
ROOT_URLCONF = "scormbench.urls"
# One log, the server's output (server.log): Django's own (each request, failures with their tracebacks) and what
# the block says of the packages it unzips.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"stderr": {"class": "logging.StreamHandler"}},
    "loggers": {"openedxscorm": {"handlers": ["stderr"], "level": "INFO"}},
}
'''

APPS_PY = '''\
"""Where the workbench does not match what the SCORM block expects of Open edX's LMS, mended as Django starts."""
from unittest.mock import Mock

from django.apps import AppConfig


class ScormBenchConfig(AppConfig):
    name = "scormbench"
    label = "scormbench"

    def ready(self):
        from openedxscorm.scormxblock import ScormXBlock
        from workbench.runtime import WorkBenchUserService, WorkbenchRuntime

        name_the_scenario_tag_as_installed(ScormXBlock)
        give_locations_a_block_id(WorkbenchRuntime)
        keep_the_proxy_address_a_path(ScormXBlock)
        name_the_learner_as_the_lms_does(WorkBenchUserService)


def name_the_scenario_tag_as_installed(block_class):
    """The block's scenario says <openedxscorm/>; its entry point is `scorm`. The workbench loads every block's
    scenarios at its first page and fails whole when one does not load."""
    block_class.workbench_scenarios = staticmethod(lambda: [("ScormXBlock", "<vertical_demo><scorm/></vertical_demo>")])


def give_locations_a_block_id(runtime_class):
    """The workbench sets `block.location` to a Mock; the block joins `location.block_id` into a storage path (the
    folder of packages uploaded by its older releases), so the first upload failed in os.path.join. In the LMS the
    block_id is a string naming the block: here, the usage id."""
    patch_block = runtime_class._patch_xblock

    def patch_block_with_a_block_id(self, block):
        patch_block(self, block)
        if isinstance(getattr(block, "location", None), Mock):
            block.location.block_id = str(block.scope_ids.usage_id)

    runtime_class._patch_xblock = patch_block_with_a_block_id


def keep_the_proxy_address_a_path(block_class):
    """The block appends the package's paths to the address of its `assets_proxy` handler, which in the LMS has no
    query; the workbench's ends in ?student=..., which would put the path in the query. Drop it (the package's
    files are the same for every learner)."""

    def proxy_base_url(self):
        return self.runtime.handler_url(self, "assets_proxy").split("?", 1)[0].rstrip("/")

    block_class.proxy_base_url = property(proxy_base_url)


def name_the_learner_as_the_lms_does(service_class):
    """The block reads the learner's id and name (cmi.core.student_id, cmi.learner_name...) from the user service's
    edx-platform.* attributes; the workbench's service sets only its own. Both are the workbench's student name."""
    make_user = service_class.__init__

    def make_user_with_lms_names(self, uid):
        make_user(self, uid)
        self._user.opt_attrs["edx-platform.user_id"] = uid
        self._user.opt_attrs["edx-platform.username"] = uid

    service_class.__init__ = make_user_with_lms_names
'''

URLS_PY = '''\
"""The workbench's addresses, and one that makes a scenario holding a SCORM block (the workbench makes its
scenarios in code)."""
import itertools
import threading

from django.http import JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from workbench.scenarios import add_xml_scenario, get_scenarios
from workbench.urls import urlpatterns as workbench_urlpatterns

NUMBERS = itertools.count(1)
ONE_AT_A_TIME = threading.Lock()


@csrf_exempt
@require_POST
def new_scenario(_request):
    """A new scenario with one SCORM block and no package: {"scenario": its name, "usage_id": the block's}. The
    workbench numbers a scenario's blocks after its name, so the block is <name>.scorm.d0.u0."""
    with ONE_AT_A_TIME:
        scenarios = get_scenarios()
        name = f"scorm-package-{next(NUMBERS)}"
        add_xml_scenario(name, name, "<scorm/>")
        return JsonResponse({"scenario": name, "usage_id": scenarios[name].usage_id})


urlpatterns = [path("scenarios/new/", new_scenario), *workbench_urlpatterns]
'''

#: The Django project written into the work folder, {relative path: text}.
PROJECT_FILES = {
    "manage.py": MANAGE_PY,
    "scormbench/__init__.py": "",
    "scormbench/settings.py": SETTINGS_PY,
    "scormbench/apps.py": APPS_PY,
    "scormbench/urls.py": URLS_PY,
}

#: Each SCORM version's names, in the block's `scorm_data`, of what `stored` gives.
ELEMENTS = {
    "SCORM_12": {"status": "cmi.core.lesson_status", "score_raw": "cmi.core.score.raw",
                 "score_min": "cmi.core.score.min", "score_max": "cmi.core.score.max", "score_scaled": None,
                 "location": "cmi.core.lesson_location", "suspend_data": "cmi.suspend_data",
                 "session_time": "cmi.core.session_time"},
    "SCORM_2004": {"status": "cmi.completion_status", "score_raw": "cmi.score.raw", "score_min": "cmi.score.min",
                   "score_max": "cmi.score.max", "score_scaled": "cmi.score.scaled", "location": "cmi.location",
                   "suspend_data": "cmi.suspend_data", "session_time": "cmi.session_time"},
}
#: The learner's answer to an interaction, in each version.
RESPONSE = {"SCORM_12": "student_response", "SCORM_2004": "learner_response"}
SCORES = ("score_raw", "score_min", "score_max", "score_scaled")


@contextlib.contextmanager
def running(workdir, report=lambda line: None):
    """The workbench with the SCORM block on a free port of 127.0.0.1, its database (empty) and the unzipped
    packages in `workdir`; stopped when the block ends."""
    workdir = Path(workdir)
    python = virtualenv("openedx", report)
    write_project(workdir)
    shutil.copyfile(migrated_database(python, report), workdir / DATABASE_NAME)
    with serving(python, workdir, report) as base_url:
        yield Workbench(base_url, workdir)


def write_project(workdir: Path) -> None:
    """The Django project (manage.py and scormbench/) in `workdir`."""
    for relative, text in PROJECT_FILES.items():
        target = workdir / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def python_environment() -> dict:
    """The environment of the workbench's processes: the test's own, less what would point them at the project's
    packages or another Django project, and with their compiled modules kept in the download cache beside the
    virtualenv rather than in it (its stamp lists its files), so that each process after the first imports Django in
    under a second instead of compiling it again, even where PYTHONDONTWRITEBYTECODE is set."""
    environment = {name: value for name, value in os.environ.items()
                   if name not in ("PYTHONPATH", "PYTHONHOME", "DJANGO_SETTINGS_MODULE", "PYTHONDONTWRITEBYTECODE")}
    environment["PYTHONPYCACHEPREFIX"] = str(cache_root() / "lms-venvs" / "openedx-pycache")
    environment["PYTHONUNBUFFERED"] = "1"
    return environment


def migrated_database(python: Path, report) -> Path:
    """A database with the workbench's tables and nothing in them, kept in the download cache (servers.py)."""
    requirements = (REQUIREMENTS_DIR / "lms-openedx.txt").read_bytes()

    def make(folder):
        write_project(folder)
        migrate(python, folder)

    return kept_database("openedx", requirements + "".join(PROJECT_FILES.values()).encode() + str(python).encode(),
                         make, DATABASE_NAME, report)


def migrate(python: Path, workdir: Path) -> None:
    """The workbench's tables in a new sqlite database (the workbench has no migrations, hence --run-syncdb)."""
    done = subprocess.run([str(python), "manage.py", "migrate", "--run-syncdb", "--no-input"], cwd=workdir,
                          env=python_environment(), capture_output=True, text=True, timeout=SETUP_TIMEOUT,
                          check=False)
    if done.returncode != 0:
        raise RuntimeError(f"openedx: migrating the workbench's database failed:\n{done.stdout[-2000:]}"
                           f"{done.stderr[-4000:]}")


def free_port() -> int:
    """A port of 127.0.0.1 that nothing listens on now (the server binds it a moment later)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def serving(python: Path, workdir: Path, report):
    """Django's server (one process, threaded) for the workbench on a free port of 127.0.0.1, answering, until the
    block ends; its base URL. Another free port is tried if something took the first in the meantime."""
    for attempt in range(3):
        port = free_port()
        with open(workdir / SERVER_LOG, "ab") as log:
            server = subprocess.Popen([str(python), "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
                                      cwd=workdir, env=python_environment(), stdin=subprocess.DEVNULL, stdout=log,
                                      stderr=subprocess.STDOUT)
        base_url = f"http://127.0.0.1:{port}"
        try:
            started = time.monotonic()
            if wait_until_answering(server, base_url, workdir):
                report(f"openedx: the workbench answered at {base_url} after {time.monotonic() - started:.1f} s")
                yield base_url
                return
            if "port is already in use" not in log_tail(workdir) or attempt == 2:
                raise RuntimeError(f"openedx: the workbench exited with {server.returncode}:\n{log_tail(workdir)}")
        finally:
            stop(server)


def wait_until_answering(server: subprocess.Popen, base_url: str, workdir: Path) -> bool:
    """True once the workbench's index answers (its first page loads every block's scenarios), False if the server
    exited first; raises if the index answers with an error or nothing answers in time."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            return False
        try:
            with urllib.request.urlopen(base_url + "/", timeout=REQUEST_TIMEOUT):
                return True
        except urllib.error.HTTPError as error:
            raise RuntimeError(f"openedx: the workbench's index answered {error.code}:\n{log_tail(workdir)}") from error
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"openedx: the workbench did not answer within {START_TIMEOUT} s:\n{log_tail(workdir)}")


def log_tail(workdir: Path, size: int = 4000) -> str:
    """The end of the server's log, for error messages."""
    try:
        return (workdir / SERVER_LOG).read_bytes()[-size:].decode("utf-8", "replace")
    except OSError:
        return "(no server log)"


class EditorForm(HTMLParser):
    """The values of the block's editor form as a browser sends them when the author changes nothing: each input's
    value (a number field's only where it reads as a number: the form writes "None" for an unset width, which a
    browser sends as ""), and each select's selected option."""

    def __init__(self, html: str):
        super().__init__()
        self.values = {}
        self.select = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "input" and attributes.get("name"):
            value = attributes.get("value") or ""
            if attributes.get("type") == "number" and not reads_as_number(value):
                value = ""
            self.values[attributes["name"]] = value
        elif tag == "select":
            self.select = attributes.get("name")
        elif tag == "option" and self.select and ("selected" in attributes or self.select not in self.values):
            self.values[self.select] = attributes.get("value", "")

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None


def multipart(fields: dict, file_field: str, file_name: str, content: bytes) -> tuple[bytes, str]:
    """A multipart/form-data body of text fields and one file, as a browser's FormData sends it; (body, type)."""
    boundary = f"----scormbench{uuid.uuid4().hex}"
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
             for name, value in fields.items()]
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{file_field}"; filename="{file_name}"\r\n'
                 f"Content-Type: application/zip\r\n\r\n".encode() + content + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def reads_as_number(value) -> bool:
    """Whether `value` (most often a string) reads as a number."""
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return True


def number_or_text(value):
    """A score as a number where the package's value reads as one (the block keeps what SetValue was given, a
    string), else as it was given."""
    return float(value) if reads_as_number(value) else value


def interactions(scorm_data: dict, response_name: str) -> list[dict]:
    """The package's interactions in index order, from the flat `cmi.interactions.N.<field>` elements the block
    keeps: [{"id", "result", "response", "elements": every field set under that index}]."""
    by_index = {}
    for element, value in scorm_data.items():
        parts = element.split(".", 3)
        if len(parts) == 4 and parts[:2] == ["cmi", "interactions"]:
            by_index.setdefault(parts[2], {})[parts[3]] = value
    return [{"id": fields.get("id"), "result": fields.get("result"), "response": fields.get(response_name),
             "elements": fields} for _, fields in sorted(by_index.items(), key=index_order)]


def index_order(item) -> tuple:
    """Interactions by their index as a number (10 after 9); an index that is no number (a package's bug) last."""
    index = item[0]
    return (0, int(index), "") if index.isdigit() else (1, 0, index)


def record_of(version: str, learner: dict) -> dict:
    """`stored`'s record from the learner's row: the elements of `scorm_data` (None for each the package did not
    set), and `grade` the block's own score (lesson_score, 0-1; 0 once the package reports failed, as the block
    grades), None before the package set any score."""
    scorm_data = learner.get("scorm_data", {})
    record = {key: scorm_data.get(element) if element else None for key, element in ELEMENTS[version].items()}
    for key in SCORES:
        record[key] = number_or_text(record[key])
    grade = learner.get("lesson_score")
    if grade is not None and learner.get("success_status") == "failed":
        grade = 0.0
    record["grade"] = grade
    record["interactions"] = interactions(scorm_data, RESPONSE[version])
    record["scorm_version"] = version
    record["scorm_data"] = scorm_data
    return record


class Workbench:
    """The running workbench, as the tests use it (real_lms.Platform)."""

    name = NAME

    def __init__(self, base_url: str, workdir: Path):
        self.base_url = base_url
        self.workdir = workdir
        self.database = workdir / DATABASE_NAME
        self.author_cookies = CookieJar()
        self.author = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.author_cookies))

    def request(self, path: str, data: bytes | None = None, headers: dict | None = None,
                timeout: float = REQUEST_TIMEOUT) -> bytes:
        """The author's request to the workbench: the answer's body, or an error with the answer and the server's
        log."""
        request = urllib.request.Request(self.base_url + path, data=data, headers=headers or {})
        try:
            with self.author.open(request, timeout=timeout) as response:
                return response.read()
        except urllib.error.HTTPError as error:
            raise RuntimeError(f"openedx: {request.get_method()} {path} answered {error.code} {error.reason}\n"
                               f"{error.read()[:1000].decode('utf-8', 'replace')}\n{log_tail(self.workdir)}") from error

    def csrf_token(self) -> str:
        """The author's CSRF token: the cookie the editor's page set, which Django checks against the header."""
        for cookie in self.author_cookies:
            if cookie.name == "csrftoken":
                return cookie.value
        raise RuntimeError("openedx: the workbench set no csrftoken cookie")

    def upload(self, package_zip) -> str:
        """A new scenario with one SCORM block, and the package's zip uploaded unchanged through the block's editor:
        its form's fields as the editor shows them and the file, posted to its studio_submit handler with the
        editor page's CSRF token. Returns the block's usage id."""
        package_zip = Path(package_zip)
        made = json.loads(self.request("/scenarios/new/", data=b""))
        scenario, usage_id = made["scenario"], made["usage_id"]
        editor_path = f"/scenario/{scenario}/studio_view/?student={AUTHOR}"
        form = EditorForm(self.request(editor_path).decode("utf-8", "replace")).values
        missing = [name for name in ("scorm_file", *EDITOR_FIELDS) if name not in form]
        if missing:
            raise RuntimeError(f"openedx: the block's editor has no field {missing}")
        body, content_type = multipart({name: form[name] for name in EDITOR_FIELDS}, "file", package_zip.name,
                                       package_zip.read_bytes())
        answer = json.loads(self.request(
            f"/handler/{usage_id}/studio_submit/?student={AUTHOR}", data=body, timeout=UPLOAD_TIMEOUT,
            headers={"Content-Type": content_type, "X-CSRFToken": self.csrf_token(),
                     "Referer": self.base_url + editor_path}))
        if answer.get("result") != "success" or answer.get("errors"):
            raise RuntimeError(f"openedx: the block refused {package_zip.name}: {answer}")
        return usage_id

    def log_in_learner(self, context) -> None:
        """Nothing to do: the workbench has no log-in. It takes the learner from the `student` parameter of the
        page's address (launch_url names LEARNER), and its JS runtime adds it to every handler call."""

    def launch_url(self, handle) -> str:
        """The learner's view of the block's scenario (the workbench names the block `<scenario>.scorm.d0.u0`)."""
        scenario = handle.split(".", 1)[0]
        return f"{self.base_url}/scenario/{scenario}/?student={LEARNER}"

    def sco_frame(self, page):
        """The block's frame, once it is loading the package's launch page (from the block's assets_proxy handler)."""
        page.wait_for_selector("iframe.scorm-embedded[src]", state="attached", timeout=FRAME_TIMEOUT_MS)
        frame = page.locator("iframe.scorm-embedded").element_handle().content_frame()
        frame.wait_for_url(re.compile(r"/assets_proxy/"), wait_until="commit", timeout=FRAME_TIMEOUT_MS)
        return frame

    def row(self, handle, user_id) -> str | None:
        """The JSON of one row of the workbench's state table (scope 'usage': a learner's fields of the block, or
        with no user its settings); None where there is none."""
        with contextlib.closing(sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=30)) as database:
            found = database.execute(
                "SELECT state FROM workbench_xblockstate WHERE scope = 'usage' AND scope_id = ? AND user_id IS ?",
                (handle, user_id)).fetchone()
        return found[0] if found else None

    def settled_row(self, handle, user_id) -> str | None:
        """The row once it has stopped changing (the block's page sends the package's values in the background)."""
        deadline = time.monotonic() + SETTLE_TIMEOUT
        last = self.row(handle, user_id)
        while time.monotonic() < deadline:
            time.sleep(SETTLE_SECONDS)
            now = self.row(handle, user_id)
            if now == last:
                break
            last = now
        return last

    def stored(self, handle) -> dict:
        """The learner's record as the block keeps it (see record_of), with `scorm_version` (SCORM_12 or SCORM_2004,
        as the block read the manifest) and `scorm_data` (every element the package set, as it was sent)."""
        version = json.loads(self.row(handle, None) or "{}").get("scorm_version", "SCORM_12")
        return record_of(version, json.loads(self.settled_row(handle, LEARNER) or "{}"))
