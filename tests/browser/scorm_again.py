"""scorm-again, an LMS's SCORM runtime made for testing content, for the browser tests: a pinned copy fetched once
into the download cache (never committed), checked against the registry's integrity on every use
(npm_tarballs.py), and served to a page that plays the LMS. `runtime_scripts()` gives the two browser builds:
{"scorm12.min.js": text, "scorm2004.min.js": text}, which define the globals `Scorm12API` and `Scorm2004API`."""

from npm_tarballs import package_file

SCORM_AGAIN_VERSION = "3.4.3"
#: The registry's integrity for that version's tarball.
SCORM_AGAIN_INTEGRITY = "sha512-Zbe+7ArMUbT1lVnqYxsbGRfI9JD9JVqEPzZLQdk0nfNmcDYJ404rMO9nbkQ0Hzwux5uACF9zKsvc29Q/ZzMOdg=="
SCRIPTS = ("scorm12.min.js", "scorm2004.min.js")


def runtime_scripts():
    """The browser builds of scorm-again's SCORM 1.2 and 2004 runtimes."""
    return {name: package_file("scorm-again", SCORM_AGAIN_VERSION, SCORM_AGAIN_INTEGRITY, f"dist/{name}").decode("utf-8")
            for name in SCRIPTS}
