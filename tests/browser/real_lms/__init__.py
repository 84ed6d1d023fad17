"""Real course platforms (LMSs) from PyPI, each started by the tests in a virtualenv of its own, so that a SCORM
package is tested where courses run it: uploaded through the platform's own upload path as an author would, a
learner in Chromium, and what the platform stored read back from its database.

    venvs.py       the virtualenvs, from requirements/lms-*.txt (pinned with hashes), kept in the download cache
    wagtail.py     wagtail-lms 0.11.1 (Wagtail, Django, sqlite)
    scormhost.py   scormhost 0.1.0
    openedx.py     Open edX's SCORM block (openedx-scorm-xblock 19.0.5) in the XBlock workbench (xblock-sdk 0.14.0)

Each platform module has `running(workdir)`, a context manager that starts the platform on 127.0.0.1 with an empty
database and yields an object with the same calls (see `Platform` below).
"""

from typing import Protocol


class Platform(Protocol):
    """One running LMS, as the tests use it."""

    #: Its name in the docs' table ("wagtail-lms", "scormhost", "Open edX").
    name: str

    def upload(self, package_zip) -> str:
        """Upload the package's zip, unchanged, through the platform's own upload path (what an author does);
        returns a handle naming the course item made of it."""

    def log_in_learner(self, context) -> None:
        """Give a Playwright browser context the learner's session (cookies), so its pages are the learner's."""

    def launch_url(self, handle) -> str:
        """The address a learner opens to take the item (the platform's own player page)."""

    def sco_frame(self, page):
        """The frame in the player page that holds the package's own page (the SCO)."""

    def stored(self, handle) -> dict:
        """What the platform keeps of the learner's attempt, read from its database: {"status", "score_raw",
        "score_min", "score_max", "score_scaled", "grade" (0-1 as the platform grades it, or None where it grades
        nothing), "location", "suspend_data", "session_time", "interactions": [{"id", "result", "response"}]};
        an element the platform does not keep is None."""
