"""scormhost 0.1.0 (FastAPI, SQLite): a small SCORM host, run by uvicorn in a virtualenv of its own.

Its model: anyone may launch a course (a guest is known by a cookie); the first account registered is its admin,
and an admin or instructor uploads packages (`POST /api/packages`, a zip). A signed-in learner's progress is
kept under their account id. The player page (`/launch/<id>`) frames the package's launch file, served from
`/content/<id>/<path>`, and puts the runtime (`window.API` or `window.API_1484_11`, a shim of its own) in itself,
the SCO's parent. The shim keeps every `cmi.*` element it is given and sends all of them on each Commit and
Finish (`PUT /api/scorm/<id>/cmi`), which the server merges into one JSON file per learner and launch under
`data/sessions/<id>/`. That folder, not the database (which holds only accounts and login tokens), is where
scormhost keeps attempts, so `stored` reads it; scormhost grades nothing.

    with running(workdir) as lms:
        handle = lms.upload(zip_path)
        lms.log_in_learner(context); page.goto(lms.launch_url(handle)); sco = lms.sco_frame(page)
        lms.stored(handle)   # {"status": "completed", "score_raw": 80.0, ...}
"""

import contextlib
import json
import os
import re
import secrets
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from http.cookiejar import CookieJar
from pathlib import Path

from sitebuild.paths import cache_root

from .servers import stop
from .venvs import virtualenv

NAME = "scormhost"
#: Its first account becomes its admin, who may upload; the second is an ordinary learner.
AUTHOR = {"email": "author@example.com", "username": "author", "password": "author-password",
          "display_name": "Course Author"}
LEARNER = {"email": "learner@example.com", "username": "learner", "password": "learner-password",
           "display_name": "Lea Learner"}
#: Seconds a login is used for before logging in again: scormhost's access tokens last 30 minutes.
LOGIN_REUSE = 20 * 60
#: Seconds to wait for the server to answer after starting it (it runs its migrations first).
START_TIMEOUT = 60
#: Seconds for one HTTP request, an upload of a whole site included.
REQUEST_TIMEOUT = 120
#: Seconds for the player page to point its frame at the package (after it has fetched the learner's record).
FRAME_TIMEOUT = 30
#: What uvicorn prints once it listens, with the port it was given (it is started on port 0: no race for one).
LISTENING = re.compile(r"Uvicorn running on (http://127\.0\.0\.1:\d+)")
#: Where the server's bytecode is kept between runs (see start_server).
BYTECODE_DIR = cache_root() / "lms-venvs" / "scormhost-bytecode"
#: The access token's cookie (scormhost's HostSettings.access_cookie_name); its refresh token's is beside it.
ACCESS_COOKIE = "scormhost_access_token"


class ScormhostError(RuntimeError):
    """scormhost did not start, or refused a request the harness made (the message says which, and why)."""


class Scormhost:
    """The running server, as the tests use it (real_lms.Platform)."""

    name = NAME

    def __init__(self, url: str, data_dir: Path, signed_in: dict):
        self.url = url  # http://127.0.0.1:<port>
        self.data_dir = data_dir
        #: {account's email: (when, scormhost's answer, its cookies)}, from sign-up, then from each login
        self.signed_in = signed_in
        self.learner_id = str(signed_in[LEARNER["email"]][1]["user"]["id"])  # the name of the learner's records

    def session(self, account: dict):
        """(scormhost's answer, cookies) of a recent login of `account`: logging in costs a bcrypt check, so one
        is reused while its token lasts."""
        when, answer, cookies = self.signed_in[account["email"]]
        if time.monotonic() - when > LOGIN_REUSE:
            answer, cookies = log_in(self.url, account)
            self.signed_in[account["email"]] = (time.monotonic(), answer, cookies)
        return answer, cookies

    def upload(self, package_zip) -> str:
        """Upload the zip as an author does (its API, signed in as the admin); returns the package's id, which
        scormhost makes from the file's name ("-1", "-2"... added when that id is taken)."""
        token = self.session(AUTHOR)[0]["access_token"]
        package_zip = Path(package_zip)
        body, content_type = multipart_file("file", package_zip.name, package_zip.read_bytes())
        answer = request_json(self.url, "/api/packages", body, {"Content-Type": content_type,
                                                                 "Authorization": f"Bearer {token}"})
        return answer["id"]

    def log_in_learner(self, context) -> None:
        """Hand the browser context the cookies scormhost set when the learner logged in over HTTP."""
        cookies = self.session(LEARNER)[1]
        context.add_cookies([{"name": cookie.name, "value": cookie.value, "url": self.url, "httpOnly": True,
                              "sameSite": "Lax"} for cookie in cookies])

    def launch_url(self, handle) -> str:
        """The player page, as the catalog's "Launch" link opens it (scormhost picks the manifest's first item)."""
        return f"{self.url}/launch/{handle}"

    def sco_frame(self, page):
        """The player's frame, once it has been pointed at the package: the player fetches the learner's record
        first and only then sets the frame's address, so the frame is blank until then."""
        page.wait_for_selector("iframe#scormhost-content[src]", state="attached", timeout=FRAME_TIMEOUT * 1000)
        frame = page.locator("iframe#scormhost-content").element_handle().content_frame()
        frame.wait_for_url(re.compile(r"/content/"), wait_until="commit", timeout=FRAME_TIMEOUT * 1000)
        return frame

    def stored(self, handle) -> dict:
        """The learner's record of the package, as scormhost saved it last (every element the package set,
        merged over the shim's defaults); every value None (no interactions) when nothing was saved."""
        return record_of(self.attempt_elements(handle))

    def attempt_elements(self, handle) -> dict:
        """The raw `cmi.*` elements scormhost keeps for the learner and package ({} before the first commit)."""
        return attempt_elements(self.data_dir / "sessions" / handle, self.learner_id)


@contextlib.contextmanager
def running(workdir):
    """scormhost on a free port of 127.0.0.1 with its database and files in `workdir`/data, an author (its
    admin) and a learner registered; stopped when the block ends."""
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    python = virtualenv(NAME)
    log_path = workdir / "scormhost.log"
    with open(log_path, "wb") as log:
        process = start_server(python, workdir, log)
        try:
            url = wait_until_listening(process, log_path)
            signed_in = {account["email"]: (time.monotonic(), *register(url, account))
                         for account in (AUTHOR, LEARNER)}
            yield Scormhost(url, workdir / "data", signed_in)
        finally:
            stop(process)


def start_server(python: Path, workdir: Path, log):
    """uvicorn serving scormhost's app factory from `workdir`: the factory keeps its data in ./data, whatever
    SCORMHOST_DATA_DIR says, so the working folder is what places it. Only the settings chosen here apply.

    The virtualenv is installed without bytecode, and compiling FastAPI, pydantic and SQLAlchemy at every start
    would cost seconds of CPU: their bytecode is kept in a folder of its own in the download cache (Python checks
    each file against its source), so the installed folder stays as its stamp says."""
    environment = {name: value for name, value in os.environ.items()
                   if not name.startswith("SCORMHOST_") and name != "PYTHONDONTWRITEBYTECODE"}
    environment.update({
        "SCORMHOST_DATABASE_URL": f"sqlite:///{workdir.resolve() / 'data' / 'scormhost.db'}",
        "SCORMHOST_SECRET_KEY": secrets.token_urlsafe(32),
        "PYTHONPYCACHEPREFIX": str(BYTECODE_DIR),
    })
    command = [str(python), "-m", "uvicorn", "--factory", "scormhost:create_scorm_app",
               "--host", "127.0.0.1", "--port", "0", "--no-access-log", "--timeout-graceful-shutdown", "2"]
    return subprocess.Popen(command, cwd=workdir, env=environment, stdin=subprocess.DEVNULL,
                            stdout=log, stderr=subprocess.STDOUT)


def wait_until_listening(process, log_path: Path) -> str:
    """The server's base URL, once uvicorn says it listens and the server answers its health check."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise ScormhostError(f"scormhost exited with {process.returncode}:\n{log_tail(log_path)}")
        found = LISTENING.search(log_path.read_text(encoding="utf-8", errors="replace"))
        if found and answers(found.group(1)):
            return found.group(1)
        time.sleep(0.1)
    raise ScormhostError(f"scormhost did not answer within {START_TIMEOUT} s:\n{log_tail(log_path)}")


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/health", timeout=5) as response:
            return response.status == 200
    except OSError:
        return False


def log_tail(log_path: Path, lines=40) -> str:
    return "\n".join(log_path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])


def register(url: str, account: dict):
    """Create the account through scormhost's own sign-up, which also logs it in; returns (scormhost's answer:
    the token and the user, the cookies it set)."""
    return sign_in(url, "/api/auth/register", account)


def log_in(url: str, account: dict):
    """Log in as the login page does; returns (scormhost's answer, the cookies it set)."""
    return sign_in(url, "/api/auth/login", {"email": account["email"], "password": account["password"]})


def sign_in(url: str, path: str, fields: dict):
    """POST the account's fields to a sign-up or login endpoint; returns (its answer, the cookies it set)."""
    jar = CookieJar()
    answer = request_json(url, path, json.dumps(fields).encode(), {"Content-Type": "application/json"}, jar)
    if not any(cookie.name == ACCESS_COOKIE for cookie in jar):
        raise ScormhostError(f"POST {path} set no {ACCESS_COOKIE} cookie")
    return answer, list(jar)


def request_json(url: str, path: str, body: bytes, headers: dict, jar=None) -> dict:
    """POST `body` to the server and return its JSON answer; a refusal raises ScormhostError with scormhost's
    own reason (its `detail`)."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar if jar is not None else CookieJar()))
    request = urllib.request.Request(url + path, data=body, headers=headers, method="POST")
    try:
        with opener.open(request, timeout=REQUEST_TIMEOUT) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        raise ScormhostError(f"POST {path}: {error.code} {error.read().decode(errors='replace')[:2000]}") from None


def multipart_file(field: str, filename: str, content: bytes):
    """A multipart/form-data body holding one file, as a browser's upload form sends it; returns (body, type)."""
    boundary = uuid.uuid4().hex
    head = (f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; filename="{filename}"\r\n'
            "Content-Type: application/zip\r\n\r\n").encode()
    return head + content + f"\r\n--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def attempt_elements(sessions: Path, learner_id: str) -> dict:
    """The elements of the learner's newest record in a package's sessions folder. scormhost keeps one file per
    learner and launch address (`<learner>__<launch, made safe>.json`); a package has one launch."""
    records = [read_record(path) for path in sessions.glob(f"{learner_id}__*.json")]
    if not records:
        return {}
    return max(records, key=lambda record: record.get("updated_at", ""))["elements"]


def read_record(path: Path, attempts=20) -> dict:
    """One record file. scormhost rewrites it in place at every commit, so a read may catch it half written:
    read again until it is whole."""
    for _ in range(attempts - 1):
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            time.sleep(0.05)
    return json.loads(path.read_text(encoding="utf-8"))


def record_of(elements: dict) -> dict:
    """The platform-neutral record (real_lms.Platform.stored) of scormhost's elements, for either version; the
    version is told by the elements' names (the shim saves its defaults with every commit)."""
    if any(name.startswith("cmi.core.") for name in elements):
        return {
            "status": elements.get("cmi.core.lesson_status"),
            "score_raw": number(elements.get("cmi.core.score.raw")),
            "score_min": number(elements.get("cmi.core.score.min")),
            "score_max": number(elements.get("cmi.core.score.max")),
            "score_scaled": None,
            "grade": None,
            "location": elements.get("cmi.core.lesson_location"),
            "suspend_data": elements.get("cmi.suspend_data"),
            "session_time": elements.get("cmi.core.session_time"),
            "interactions": interactions(elements, "student_response"),
        }
    return {
        "status": elements.get("cmi.completion_status"),
        "score_raw": number(elements.get("cmi.score.raw")),
        "score_min": number(elements.get("cmi.score.min")),
        "score_max": number(elements.get("cmi.score.max")),
        "score_scaled": number(elements.get("cmi.score.scaled")),
        "grade": None,
        "location": elements.get("cmi.location"),
        "suspend_data": elements.get("cmi.suspend_data"),
        "session_time": elements.get("cmi.session_time"),
        "interactions": interactions(elements, "learner_response"),
    }


def number(text):
    """A score as a number; None where the element is missing or empty (or not a number)."""
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def interactions(elements: dict, response_name: str) -> list:
    """The interactions, in index order, from the flat `cmi.interactions.<n>.<field>` elements scormhost keeps
    as they were set (it has no interaction records of its own)."""
    indexes = sorted({int(found.group(1)) for name in elements
                      if (found := re.fullmatch(r"cmi\.interactions\.(\d+)\.\w+", name))})
    return [{"id": elements.get(f"cmi.interactions.{index}.id"),
             "result": elements.get(f"cmi.interactions.{index}.result"),
             "response": elements.get(f"cmi.interactions.{index}.{response_name}")} for index in indexes]
