"""wagtail-lms 0.11.1 (Wagtail 8.0.1, Django 5.2, sqlite), run from its own virtualenv on 127.0.0.1 with a database
of its own, as a small Wagtail site set up the way its README says.

    with running(workdir) as lms:                 # lms.name == "wagtail-lms"
        handle = lms.upload(zip_path)             # the SCORM lesson page's id, as text
        lms.log_in_learner(context); page.goto(lms.launch_url(handle))
        sco = lms.sco_frame(page); ...; lms.stored(handle)

The author's path, over HTTP as a browser takes it: the author logs in to the Wagtail admin, uploads the zip
unchanged in LMS > SCORM Packages (wagtail-lms unpacks it and reads its manifest in that request), adds a SCORM
lesson page for it under the course page and publishes it. The learner logs in on the site's login page and opens
the lesson's player, which enrolls them (WAGTAIL_LMS_AUTO_ENROLL) and frames the package. What it stored is read
from the sqlite file.

What a package meets there (wagtail_lms/models.py, views.py and templates/wagtail_lms/scorm_player.html):
- The launch URL is the href of the manifest's first <resource type="webcontent">, verbatim (a query string in it
  survives), found only in SCORM 1.2's content-packaging namespace (imscp_rootv1p1p2): a SCORM 2004 manifest
  (imscp_v1p1) gets none, and its player sends the learner back to the lesson page. Items' `parameters` are never
  read.
- The player page defines window.API, and window.API_1484_11 as the same object, with SCORM 1.2's LMS* calls except
  LMSFinish (it has LMSTerminate instead), and no SCORM 2004 calls at all. Its script comes after the frame, so a
  package's page can load before the API exists.
- LMSSetValue accepts anything, answers "true" and sends the value without waiting; LMSGetValue answers the last
  value set under that name, else a few defaults (cmi.core.entry is always "ab-initio"), else "".
- Leaving the player (reload, closing the tab) sends LMSCommit and LMSTerminate from its beforeunload handler.
"""

import contextlib
import http.cookiejar
import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
import zipfile
from dataclasses import dataclass
from pathlib import Path

from sitebuild.paths import cache_root

from .servers import kept_database, stop
from .venvs import REQUIREMENTS_DIR, virtualenv

NAME = "wagtail-lms"
DATABASE_NAME = "lms.sqlite3"
HOST = "127.0.0.1"
AUTHOR = ("author", "author-password-1")
LEARNER = ("learner", "learner-password-1")
#: Seconds to wait for the server's first answer (Wagtail imports a lot: a few seconds on a busy 2-core machine).
START_TIMEOUT = 90
#: Seconds for one HTTP request to it (a 12 MB upload is unpacked inside the request).
REQUEST_TIMEOUT = 120
#: Seconds for setting the site up (migrating an empty database takes most of it).
SETUP_TIMEOUT = 300
#: Milliseconds to wait for the player's frame to show the package.
FRAME_TIMEOUT_MS = 30_000
#: `stored` reads until the attempt has not changed for this many seconds, or for SETTLE_TIMEOUT at most.
SETTLE_SECONDS = 0.4
SETTLE_TIMEOUT = 10
#: Where Wagtail's own first migration puts the site's home page; the course page goes under it.
HOME_PAGE_ID = 2
#: An empty paragraph in the rich-text editor's format (the admin's forms post rich text as Draftail JSON).
EMPTY_RICH_TEXT = json.dumps({"blocks": [{"key": "empty", "type": "unstyled", "text": "", "depth": 0,
                                          "inlineStyleRanges": [], "entityRanges": [], "data": {}}],
                              "entityMap": {}})

SETTINGS = '''"""The test site: Wagtail with wagtail-lms, as wagtail-lms's README sets it up, in {workdir}."""
from pathlib import Path

WORKDIR = Path({workdir!r})
SECRET_KEY = "a-key-for-a-throwaway-test-site"
DEBUG = True  # a throwaway test site: errors in full in server.log
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = [
    "wagtail_lms",
    "wagtail.contrib.forms", "wagtail.contrib.redirects", "wagtail.embeds", "wagtail.sites", "wagtail.users",
    "wagtail.snippets", "wagtail.documents", "wagtail.images", "wagtail.search", "wagtail.admin", "wagtail",
    "modelcluster", "taggit", "django_filters",
    "django.contrib.admin", "django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions",
    "django.contrib.messages", "django.contrib.staticfiles",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "wagtail.contrib.redirects.middleware.RedirectMiddleware",
]
ROOT_URLCONF = "lms_site.urls"
TEMPLATES = [{{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [WORKDIR / "templates"],
    "APP_DIRS": True,
    "OPTIONS": {{"context_processors": [
        "django.template.context_processors.debug",
        "django.template.context_processors.request",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
    ]}},
}}]
# Writes wait for each other, as on a database server: with sqlite's default (deferred) transactions, two of the
# player's calls that overlap fail at once with "database is locked" (a 500 the learner never sees).
DATABASES = {{"default": {{"ENGINE": "django.db.backends.sqlite3", "NAME": WORKDIR / {database!r},
                          "OPTIONS": {{"timeout": 20, "transaction_mode": "IMMEDIATE"}}}}}}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_TZ = True
TIME_ZONE = "UTC"
STATIC_URL = "/static/"
STATIC_ROOT = WORKDIR / "static"
MEDIA_URL = "/media/"
MEDIA_ROOT = WORKDIR / "media"
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
WAGTAIL_SITE_NAME = "Test site"
WAGTAILADMIN_BASE_URL = "http://127.0.0.1"
WAGTAILSEARCH_BACKENDS = {{"default": {{"BACKEND": "wagtail.search.backends.database"}}}}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # a throwaway site: log in fast

# A course's package is several megabytes: Django's 2.5 MB limits would refuse the upload.
DATA_UPLOAD_MAX_MEMORY_SIZE = 200 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 200 * 1024 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 10_000

# The learner is enrolled when they first open a lesson's player.
WAGTAIL_LMS_AUTO_ENROLL = True
'''

URLS = '''from django.contrib import admin
from django.urls import include, path
from wagtail import urls as wagtail_urls
from wagtail.admin import urls as wagtailadmin_urls

urlpatterns = [
    path("django-admin/", admin.site.urls),
    path("admin/", include(wagtailadmin_urls)),
    path("accounts/", include("django.contrib.auth.urls")),
    path("lms/", include("wagtail_lms.urls")),
    path("", include(wagtail_urls)),
]
'''

#: wagtail-lms's templates extend the site's "base.html"; its README asks for its course.css there. (A stylesheet
#: in the head holds back the player's script, which defines the API, while the package's frame loads.)
BASE_TEMPLATE = '''{% load static %}<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{% block title %}Test site{% endblock %}</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="{% static 'wagtail_lms/css/course.css' %}"></head>
<body>{% if messages %}<ul class="messages">
{% for message in messages %}<li>{{ message }}</li>{% endfor %}</ul>{% endif %}
{% block content %}{% endblock %}</body></html>
'''

#: The site's login page (django.contrib.auth's LoginView looks for this template; learners have no admin).
LOGIN_TEMPLATE = '''{% extends "base.html" %}{% block content %}
<form method="post">{% csrf_token %}{{ form.as_p }}<input type="hidden" name="next" value="{{ next }}">
<button type="submit">Log in</button></form>{% endblock %}
'''

#: The site's WSGI application, with the static files (the admin's and wagtail-lms's) served as runserver serves them.
WSGI = '''import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lms_site.settings")
from django.contrib.staticfiles.handlers import StaticFilesHandler
from django.core.wsgi import get_wsgi_application

application = StaticFilesHandler(get_wsgi_application())
'''

MANAGE = '''import os
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lms_site.settings")
from django.core.management import execute_from_command_line

execute_from_command_line(sys.argv)
'''

#: Run once in the site's folder: the database's tables, then the author (a Wagtail admin) and the learner.
SETUP = '''import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lms_site.settings")
import django

django.setup()
from django.contrib.auth import get_user_model
from django.core.management import call_command

call_command("migrate", verbosity=0, interactive=False)
users = get_user_model().objects
users.create_superuser({author[0]!r}, "author@example.com", {author[1]!r})
users.create_user({learner[0]!r}, "learner@example.com", {learner[1]!r}, first_name="Lee", last_name="Learner")
'''


class WagtailLmsError(RuntimeError):
    """wagtail-lms did not start, or refused what the harness asked of it (the message says which, and why)."""


def write_site(workdir: Path) -> None:
    """The Django project: settings, URLs, the WSGI application, the templates wagtail-lms expects of a site, and
    manage.py."""
    package = workdir / "lms_site"
    (workdir / "templates" / "registration").mkdir(parents=True, exist_ok=True)
    package.mkdir(parents=True, exist_ok=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    settings = SETTINGS.format(workdir=str(workdir), database=DATABASE_NAME)
    (package / "settings.py").write_text(settings, encoding="utf-8")
    (package / "urls.py").write_text(URLS, encoding="utf-8")
    (workdir / "templates" / "base.html").write_text(BASE_TEMPLATE, encoding="utf-8")
    (workdir / "templates" / "registration" / "login.html").write_text(LOGIN_TEMPLATE, encoding="utf-8")
    (package / "wsgi.py").write_text(WSGI, encoding="utf-8")
    (workdir / "manage.py").write_text(MANAGE, encoding="utf-8")


def python_environment() -> dict:
    """The environment the site's processes run in: their compiled modules kept in the download cache, beside the
    virtualenv rather than in it (its stamp lists its files), so each process after the first imports Django and
    Wagtail in about a second instead of compiling them again, even where PYTHONDONTWRITEBYTECODE is set."""
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    environment["PYTHONPYCACHEPREFIX"] = str(cache_root() / "lms-venvs" / "wagtail-pycache")
    return environment


def set_up_site(python: Path, workdir: Path) -> None:
    """Migrate the empty database and make the two users, in one process (Wagtail's imports cost seconds)."""
    (workdir / "setup_site.py").write_text(SETUP.format(author=AUTHOR, learner=LEARNER), encoding="utf-8")
    done = subprocess.run([str(python), "setup_site.py"], cwd=workdir, capture_output=True, text=True,
                          env=python_environment(), timeout=SETUP_TIMEOUT, check=False)
    if done.returncode != 0:
        raise WagtailLmsError(f"wagtail-lms: setting up the site failed:\n{done.stdout[-2000:]}{done.stderr[-4000:]}")


def migrated_database(python: Path, report) -> Path:
    """A database that has every table and the two users, kept in the download cache (servers.py): migrating
    Wagtail's empty database costs most of a minute of CPU."""
    requirements = (REQUIREMENTS_DIR / "lms-wagtail.txt").read_bytes()

    def make(folder):
        write_site(folder)
        set_up_site(python, folder)

    return kept_database("wagtail-lms", requirements + (SETTINGS + URLS + SETUP).encode() + str(python).encode(),
                         make, DATABASE_NAME, report)


def free_port() -> int:
    """A port of 127.0.0.1 that nothing listens on now (the server binds it a moment later)."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def dev_server(python: Path, workdir: Path, serial: bool):
    """The site served by waitress on 127.0.0.1 until the block ends, then stopped; gives its URL. Its output goes to
    server.log in the workdir, quoted in the error if it never answers."""
    server, url = start_server(python, workdir, serial)
    try:
        yield url
    finally:
        stop(server)


def start_server(python: Path, workdir: Path, serial: bool, tries: int = 3):
    """The server process, answering, and its URL; on another free port if another process took the one picked."""
    log_path = workdir / "server.log"
    for attempt in range(tries):
        url = f"http://{HOST}:{free_port()}"
        # waitress, not runserver: a one-request-at-a-time runserver waits on any connection a browser opened ahead
        # and has not used yet (Chromium preconnects), and the next page waited for it; waitress reads every
        # connection as it comes and hands whole requests to its threads, here one (`serial`).
        command = [str(python), "-m", "waitress", f"--listen={url.removeprefix('http://')}",
                   f"--threads={1 if serial else 4}", "lms_site.wsgi:application"]
        with open(log_path, "wb") as log:
            server = subprocess.Popen(command, cwd=workdir,
                                      env=python_environment(), stdout=log, stderr=subprocess.STDOUT,
                                      stdin=subprocess.DEVNULL)
        try:
            wait_until_answering(url, server, log_path)
            return server, url
        except WagtailLmsError:
            if server.poll() is None:
                server.kill()
                server.wait()
            if attempt + 1 == tries or "in use" not in tail(log_path):
                raise
    raise AssertionError("unreachable")


def wait_until_answering(url: str, server: subprocess.Popen, log_path: Path) -> None:
    """Poll the login page until it answers; fail at once if the server process has ended."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise WagtailLmsError(f"wagtail-lms: the server ended ({server.returncode}):\n{tail(log_path)}")
        try:
            with urllib.request.urlopen(f"{url}/accounts/login/", timeout=5) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise WagtailLmsError(f"wagtail-lms: no answer from {url} in {START_TIMEOUT} s:\n{tail(log_path)}")


def tail(path: Path, size: int = 4000) -> str:
    """The end of the server's log, for an error message."""
    return path.read_text(encoding="utf-8", errors="replace")[-size:] if path.exists() else ""


class Browser:
    """A visitor to the site over HTTP: cookies kept, forms posted with Django's CSRF token, redirects followed.
    Each answer is (final URL, status, body text)."""

    def __init__(self, base_url: str):
        self.base_url = base_url
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def cookie(self, name: str) -> str | None:
        """The value of the site's cookie `name` (None until the site has set it)."""
        return next((cookie.value for cookie in self.cookies if cookie.name == name), None)

    def get(self, path: str):
        return self.send(urllib.request.Request(self.base_url + path))

    def post_form(self, path: str, fields: dict, files: dict | None = None):
        """POST `fields` (and `files`: {name: (filename, bytes)}) as the page's form does, CSRF token included.
        The page is fetched first, as a browser shows it before it is sent, which also sets the CSRF cookie."""
        self.get(path)
        fields = {"csrfmiddlewaretoken": self.cookie("csrftoken") or "", **fields}
        if files:
            body, kind = multipart(fields, files)
        else:
            body, kind = urllib.parse.urlencode(fields).encode(), "application/x-www-form-urlencoded"
        request = urllib.request.Request(self.base_url + path, data=body, method="POST",
                                         headers={"Content-Type": kind, "Referer": self.base_url + path})
        return self.send(request)

    def send(self, request):
        """Send `request`; an error status is an answer like any other (the caller says what it expected)."""
        try:
            with self.opener.open(request, timeout=REQUEST_TIMEOUT) as response:
                return response.url, response.status, response.read().decode("utf-8", errors="replace")
        except urllib.error.HTTPError as error:
            return error.url, error.code, error.read().decode("utf-8", errors="replace")

    def log_in(self, path: str, user: tuple[str, str]) -> None:
        """Log in on the login form at `path`; an answer that still shows the form means it was refused."""
        url, status, body = self.post_form(path, {"username": user[0], "password": user[1]})
        if status != 200 or 'name="password"' in body or self.cookie("sessionid") is None:
            raise WagtailLmsError(f"wagtail-lms: {user[0]} could not log in at {path} ({status}, ended at {url})")


def multipart(fields: dict, files: dict) -> tuple[bytes, str]:
    """A multipart/form-data body and its Content-Type, as a browser sends a form with a file."""
    boundary = uuid.uuid4().hex
    parts = []
    for name, value in fields.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    for name, (filename, data) in files.items():
        head = (f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                "Content-Type: application/zip\r\n\r\n")
        parts.append(head.encode() + data + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def manifest_version(package_zip: Path) -> str:
    """"2004" or "1.2", what an author picks in the upload form's version field for this package (the player
    itself never reads the field)."""
    try:
        with zipfile.ZipFile(package_zip) as archive:
            manifest = archive.read("imsmanifest.xml").decode("utf-8", errors="replace")
    except (KeyError, zipfile.BadZipFile):
        return "1.2"  # the form's default; wagtail-lms will say what is wrong with the package
    found = re.search(r"<(?:\w+:)?schemaversion>\s*([^<]*)", manifest)
    return "2004" if found and ("2004" in found.group(1) or "1.3" in found.group(1)) else "1.2"


def form_errors(body: str) -> str:
    """What the admin's answer says went wrong: its form's error lines, else its error page's title."""
    found = re.findall(r'class="[^"]*error-message[^"]*"[^>]*>\s*(?:<[^>]+>\s*)*([^<]+)', body)
    if found:
        return "; ".join(text.strip() for text in found)
    title = re.search(r"<title>(.*?)</title>", body, re.DOTALL)
    return " ".join(title.group(1).split()) if title else body[:600]


@dataclass
class WagtailLms:
    """The running site. Handles are SCORM lesson pages' ids, as text."""

    url: str
    database_path: Path
    author: Browser
    name: str = NAME

    def upload(self, package_zip) -> str:
        """The author's path: the zip, unchanged, through LMS > SCORM Packages > Add (wagtail-lms unpacks it and
        reads its manifest in that request), then a SCORM lesson page for it under the course page, published.
        Both through the Wagtail admin's own forms over HTTP. A package whose manifest gives wagtail-lms no launch
        URL is uploaded all the same (its player then refuses it: see `sco_frame`)."""
        package_zip = Path(package_zip)
        title = f"{package_zip.stem} {uuid.uuid4().hex[:8]}"
        fields = {"title": title, "description": "", "version": manifest_version(package_zip)}
        url, status, body = self.author.post_form("/admin/scormpackage/new/", fields,
                                                  {"package_file": (package_zip.name, package_zip.read_bytes())})
        package_id = self.query_one("SELECT id FROM wagtail_lms_scormpackage WHERE title = ? AND extracted_path != ''",
                                    title)
        if package_id is None:
            raise WagtailLmsError(f"wagtail-lms did not take {package_zip.name} ({status} at {url}): "
                                  f"{form_errors(body)}")
        lesson_id = self.add_page("scormlessonpage", self.course_page_id(), title,
                                  {"intro": EMPTY_RICH_TEXT, "scorm_package": str(package_id)})
        return str(lesson_id)

    def package(self, handle) -> dict:
        """What wagtail-lms made of the lesson's package on upload: {"launch_url" (the manifest's href, "" when it
        found none), "version" (the form's field), "manifest_data" (its reading of the manifest),
        "extracted_path"}."""
        with self.database() as db:
            row = db.execute("""SELECT package.launch_url, package.version, package.manifest_data,
                                       package.extracted_path
                                FROM wagtail_lms_scormpackage AS package
                                JOIN wagtail_lms_scormlessonpage AS lesson ON lesson.scorm_package_id = package.id
                                WHERE lesson.page_ptr_id = ?""", (int(handle),)).fetchone()
        if row is None:
            raise WagtailLmsError(f"wagtail-lms has no lesson {handle}")
        return {"launch_url": row["launch_url"], "version": row["version"],
                "manifest_data": json.loads(row["manifest_data"]), "extracted_path": row["extracted_path"]}

    def course_page_id(self) -> int:
        """The one course page the lessons go under, made by the author the first time it is needed."""
        existing = self.query_one("SELECT page_ptr_id FROM wagtail_lms_coursepage")
        return existing or self.add_page("coursepage", HOME_PAGE_ID, "Attention course",
                                         {"description": EMPTY_RICH_TEXT})

    def add_page(self, page_type: str, parent_id: int, title: str, fields: dict) -> int:
        """Add a page of `page_type` under `parent_id` in the page editor and publish it; returns its id."""
        slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
        form = {"title": title, "slug": slug, "action-publish": "action-publish", **fields,
                "comments-TOTAL_FORMS": "0", "comments-INITIAL_FORMS": "0",
                "comments-MIN_NUM_FORMS": "0", "comments-MAX_NUM_FORMS": "1000"}
        url, status, body = self.author.post_form(f"/admin/pages/add/wagtail_lms/{page_type}/{parent_id}/", form)
        page_id = self.query_one("SELECT id FROM wagtailcore_page WHERE slug = ? AND live = 1", slug)
        if page_id is None:
            raise WagtailLmsError(f"wagtail-lms: the {page_type} '{title}' was not published ({status} at {url}): "
                                  f"{form_errors(body)}")
        return page_id

    def log_in_learner(self, context) -> None:
        """The learner logs in on the site's login page over HTTP; their session cookie goes to `context`."""
        learner = Browser(self.url)
        learner.log_in("/accounts/login/", LEARNER)
        context.add_cookies([{"name": cookie.name, "value": cookie.value, "url": self.url}
                             for cookie in learner.cookies])

    def launch_url(self, handle) -> str:
        """The lesson's player (what its "Launch SCORM Content" button opens). It redirects back to the lesson page
        with a message when wagtail-lms found no launch URL in the package's manifest."""
        return f"{self.url}/lms/scorm-lesson/{handle}/play/"

    @staticmethod
    def sco_frame(page):
        """The player's #scorm-frame, once it shows the package's launch page (/lms/scorm-content/…)."""
        if "/play/" not in page.url:
            notes = page.eval_on_selector_all(".messages li", "items => items.map(item => item.textContent)")
            raise WagtailLmsError(f"wagtail-lms showed no player but {page.url}: {notes or 'no message'}")
        frame = page.wait_for_selector("iframe#scorm-frame", state="attached", timeout=FRAME_TIMEOUT_MS).content_frame()
        frame.wait_for_url("**/lms/scorm-content/**", timeout=FRAME_TIMEOUT_MS)
        return frame

    def stored(self, handle) -> dict:
        """The learner's attempt at the lesson's package, once it has stopped changing for a moment (the player
        sends most calls without waiting for their answers, so some may still be on their way).

        wagtail-lms keeps every value the SCO sets, verbatim, as a key/value row (all of them are in "cmi"), and
        copies SCORM 1.2's cmi.core.lesson_status, lesson_location and score.raw/min/max, and cmi.suspend_data,
        into the attempt's own columns, which are what its admin shows and what completes a course: "status",
        "score_*", "location" and "suspend_data" here are those columns. Each call rewrites the whole attempt as
        its request read it, so calls served side by side (running(serial=False)) undo each other's columns; the
        rows keep every value. Session time and interactions live only in the rows.

        It grades nothing: "grade" is the attempt's score_scaled column, which its SCORM API never writes (only
        H5P's xAPI does), so it is None for a SCORM package. Everything is None when the learner has no attempt."""
        record, deadline = self.read_attempt(handle), time.monotonic() + SETTLE_TIMEOUT
        while time.monotonic() < deadline:
            time.sleep(SETTLE_SECONDS)
            again = self.read_attempt(handle)
            if again == record:
                break
            record = again
        return record

    def read_attempt(self, handle) -> dict:
        """The learner's attempt at the lesson's package as the database holds it now (see `stored`)."""
        with self.database() as db:
            attempt = db.execute(
                """SELECT attempt.* FROM wagtail_lms_scormattempt AS attempt
                   JOIN wagtail_lms_scormlessonpage AS lesson ON lesson.scorm_package_id = attempt.scorm_package_id
                   JOIN auth_user AS user ON user.id = attempt.user_id
                   WHERE lesson.page_ptr_id = ? AND user.username = ?""", (int(handle), LEARNER[0])).fetchone()
            if attempt is None:
                return empty_record()
            rows = dict(db.execute("SELECT key, value FROM wagtail_lms_scormdata WHERE attempt_id = ?",
                                   (attempt["id"],)).fetchall())
        return {"status": attempt["completion_status"], "success_status": attempt["success_status"],
                "score_raw": attempt["score_raw"], "score_min": attempt["score_min"],
                "score_max": attempt["score_max"], "score_scaled": attempt["score_scaled"],
                "grade": attempt["score_scaled"], "location": attempt["location"],
                "suspend_data": attempt["suspend_data"],
                "session_time": rows.get("cmi.core.session_time", rows.get("cmi.session_time")),
                "interactions": interactions(rows), "cmi": rows}

    def query_one(self, sql: str, *parameters):
        """The first column of the first row, read from the site's database (None when there is none)."""
        with self.database() as db:
            row = db.execute(sql, parameters).fetchone()
        return row[0] if row else None

    @contextlib.contextmanager
    def database(self):
        """The site's sqlite file, read-only (the server writes it meanwhile); rows can be read by column name."""
        db = sqlite3.connect(f"{self.database_path.as_uri()}?mode=ro", uri=True, timeout=20)
        db.row_factory = sqlite3.Row
        try:
            yield db
        finally:
            db.close()


def empty_record() -> dict:
    """What `stored` gives when the learner has not opened the lesson's player."""
    keys = ("status", "success_status", "score_raw", "score_min", "score_max", "score_scaled", "grade",
            "location", "suspend_data", "session_time")
    return {**dict.fromkeys(keys), "interactions": [], "cmi": {}}


def interactions(rows: dict) -> list[dict]:
    """The interactions the SCO set, by index, from the key/value rows (1.2's student_response or 2004's
    learner_response as "response")."""
    indexes = sorted({int(found.group(1)) for key in rows if (found := re.match(r"cmi\.interactions\.(\d+)\.", key))})
    return [{"id": rows.get(f"cmi.interactions.{index}.id"),
             "result": rows.get(f"cmi.interactions.{index}.result"),
             "response": rows.get(f"cmi.interactions.{index}.student_response",
                                  rows.get(f"cmi.interactions.{index}.learner_response"))}
            for index in indexes]


@contextlib.contextmanager
def running(workdir, report=lambda line: None, serial=True):
    """wagtail-lms on 127.0.0.1 with a database of its own in `workdir` (two users, no course, no package), the
    author logged in, until the block ends; the server is stopped then.

    `serial` (the default) serves one request at a time, as one worker of a WSGI server does: the player sends a
    package's values without waiting for the answers, and wagtail-lms rewrites the whole attempt on each, so calls
    served side by side undo each other's columns (see `WagtailLms.stored`); serial=False serves them side by side,
    as a site with several workers or threads does."""
    workdir = Path(workdir).resolve()
    python = virtualenv("wagtail", report)
    write_site(workdir)
    shutil.rmtree(workdir / "media", ignore_errors=True)  # a workdir used before: its packages' files go too
    shutil.copyfile(migrated_database(python, report), workdir / DATABASE_NAME)
    with dev_server(python, workdir, serial) as url:
        author = Browser(url)
        author.log_in("/admin/login/", AUTHOR)
        yield WagtailLms(url=url, database_path=workdir / DATABASE_NAME, author=author)
