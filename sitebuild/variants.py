"""The deployable variants of the site, made from dist/:

- every site gets generated/runtime.json, which tells the Web Worker where the Python runtime is, which NumPy
  wheel to fetch itself (a site with the vendored runtime), and whether the page should install its service
  worker (sw.js);
- dist/ (vendored runtime) and the CDN site get an offline manifest: the files sw.js keeps, and a cache
  version made from the runtime's version and a hash of those files, so each build gets a cache of its own;
- dist/ carries what a course author needs beside the site: their guide as plain text (course-authors.txt, from
  docs/course-authors.md) and the example lesson (examples/course-page.html with its stylesheet and script, whose
  paths to the playground resolve from there);
- `--zip` packs dist/ into one zip for a course platform or a machine with no network;
- `--cdn` copies dist/ without the vendored runtime, pointing the worker (and the Content-Security-Policy,
  if the page has one) at the official Pyodide CDN instead.

"""

import hashlib
import json
import os
import re
import shutil
import zipfile
from pathlib import Path

from .csp import add_host_to_page_csp
from .paths import ROOT

RUNTIME_CONFIG = Path("generated") / "runtime.json"
OFFLINE_MANIFEST = Path("generated") / "offline-manifest.js"
SERVICE_WORKER = "sw.js"
VENDORED_INDEX_URL = "vendor/pyodide/"
# Response headers for static hosts that read them from a file (Netlify, Cloudflare Pages).
HEADERS_FILE = "_headers"
ZIP_FOLDER = "attention-playground"
# The offline zip, written into dist/ beside the site it holds.
ZIP_NAME = "attention-playground.zip"
# Fixed timestamps keep the zip byte-stable for the same files.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)

#: The course authors' guide, shipped as plain text (the build has no Markdown renderer: it runs on the standard
#: library alone), and where it comes from.
AUTHOR_GUIDE = "course-authors.txt"
AUTHOR_GUIDE_SOURCE = Path("docs") / "course-authors.md"
#: The example lesson, shipped at the same path as in the project, so that its `../index.html` and
#: `../js/embed-host.js` reach the site's own files.
EXAMPLE_LESSON = ("examples/course-page.html", "examples/course-page.css", "examples/course-page.js")
AUTHOR_GUIDE_HEADER = """This is the Attention Playground's guide for course authors (docs/course-authors.md in the project's source),
as plain Markdown text. Links to other .md pages point to the project's docs/ folder, which is not part of the
built site; everything about embedding, options and hosting is on this page.

"""

ZIP_README = f"""Attention Playground, offline copy
===================================

Everything the playground needs is in this folder, Python runtime included: it asks no other host for
anything. For course authors, beside the site:

- {AUTHOR_GUIDE}: the guide for course authors: how to embed a playground in a lesson
  (index.html?embed in an <iframe>), every option (panels, locks, origins, theme), links, driving a frame
  from the lesson's script, and hosting.
- examples/course-page.html: a complete lesson with two playgrounds, to copy from.

To use it:

- On a course platform (LMS): upload the folder (or this zip, if the platform unpacks it) and link to
  index.html, or to a page of yours that embeds it as examples/course-page.html does.
- On your own machine, with no network: serve the folder from a local web server, e.g.

      python3 -m http.server 8000 --bind 127.0.0.1

  and open http://127.0.0.1:8000/. (Browsers do not run it from file://, because the page starts a Web
  Worker and loads WebAssembly, which they allow only over http.)

After the first visit, a service worker keeps a copy of the site in the browser, so the next visit starts
without the network.
"""


def write_author_files(site_dir, project_dir=ROOT):
    """Put into `site_dir` what a course author needs beside the site: the guide (AUTHOR_GUIDE, from the project's
    docs/course-authors.md, as text) and the example lesson (EXAMPLE_LESSON), at the paths they have in the project.
    Returns the paths written, relative to `site_dir`."""
    site_dir, project_dir = Path(site_dir), Path(project_dir)
    guide = (project_dir / AUTHOR_GUIDE_SOURCE).read_text(encoding="utf-8")
    (site_dir / AUTHOR_GUIDE).write_text(AUTHOR_GUIDE_HEADER + guide, encoding="utf-8")
    for name in EXAMPLE_LESSON:
        (site_dir / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(project_dir / name, site_dir / name)
    return [AUTHOR_GUIDE, *EXAMPLE_LESSON]


def write_runtime_config(site_dir, index_url, service_worker, numpy_wheel=None):
    """generated/runtime.json: where the worker loads Pyodide from (relative to the site root, or a full
    URL), whether the page installs its service worker, and `numpy_wheel` ({file, integrity} in the runtime's
    folder, runtime.vendored_numpy_wheel) if the worker is to fetch and unpack NumPy itself
    (js/runtime/start-python.js says why); without it the runtime installs NumPy as a package."""
    config = {"indexURL": index_url, "serviceWorker": service_worker}
    if numpy_wheel:
        config["numpyWheel"] = numpy_wheel
    path = Path(site_dir) / RUNTIME_CONFIG
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(config, indent=2) + "\n")


def site_files(site_dir):
    """Every file of the site, as paths relative to its root with forward slashes, sorted; not the
    service worker and its manifest (the browser keeps those itself), nor the offline zip."""
    site_dir = Path(site_dir)
    skipped = {SERVICE_WORKER, OFFLINE_MANIFEST.as_posix(), ZIP_NAME}
    names = (path.relative_to(site_dir).as_posix() for path in site_dir.rglob("*") if path.is_file())
    return sorted(name for name in names if name not in skipped and not name.endswith(".partial"))


def build_hash(site_dir, files):
    """A short hash of the site's files (names and contents): a new build gets a new cache."""
    digest = hashlib.sha256()
    for name in files:
        digest.update(name.encode() + b"\0")
        digest.update(hashlib.sha256((Path(site_dir) / name).read_bytes()).digest())
    return digest.hexdigest()[:12]


def write_offline_manifest(site_dir, runtime_version, runtime_urls=()):
    """generated/offline-manifest.js for sw.js: the cache's version, the files to keep, and whether to make
    the page cross-origin isolated.

    `runtime_urls` are full URLs of runtime files hosted elsewhere (the CDN), kept as well. A site whose
    runtime is its own is isolated (`isolate`); one that loads the runtime from another host is not, since
    that host's files would have to opt in. Returns the cache version.
    """
    site_dir = Path(site_dir)
    files = site_files(site_dir)
    version = f"pyodide-{runtime_version}-{build_hash(site_dir, files)}"
    # No entry for the folder itself ("./"): a course platform serves a package's files but may answer 404 for its
    # folder, which failed the whole install. sw.js answers a visit to the folder with its index.html.
    manifest = {"version": version, "files": files, "runtime": list(runtime_urls), "isolate": not runtime_urls}
    text = (
        "// Written by the build: what sw.js keeps for offline use. A new build writes a new version,\n"
        "// which makes the browser install the new service worker and drop the old cache.\n"
        f"self.offlineManifest = {json.dumps(manifest, indent=1)};\n"
    )
    (site_dir / OFFLINE_MANIFEST).write_text(text)
    return version


def prepare_offline_site(site_dir, runtime_version, index_url=VENDORED_INDEX_URL, runtime_files=(), numpy_wheel=None):
    """Make a built site installable for offline use: its runtime config and its offline manifest.

    `runtime_files` are the runtime's file names, kept by the service worker when `index_url` is a full
    URL (for the vendored runtime they are among the site's own files already); `numpy_wheel` as for
    write_runtime_config.
    """
    write_runtime_config(site_dir, index_url, service_worker=True, numpy_wheel=numpy_wheel)
    remote = [index_url + name for name in runtime_files] if re.match(r"https?://", index_url) else []
    return write_offline_manifest(site_dir, runtime_version, remote)


def write_zip(site_dir, zip_path):
    """Pack `site_dir` into `zip_path`, in a folder ZIP_FOLDER with a README.txt. Returns the file count."""
    site_dir = Path(site_dir)
    zip_path = Path(zip_path)
    zip_path.parent.mkdir(parents=True, exist_ok=True)
    temporary = zip_path.with_name(zip_path.name + ".partial")
    left_out = {zip_path.resolve(), temporary.resolve(), (site_dir / ZIP_NAME).resolve()}  # never a zip in itself
    files = sorted(path for path in site_dir.rglob("*") if path.is_file() and path.resolve() not in left_out)
    with zipfile.ZipFile(temporary, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in files:
            info = zipfile.ZipInfo(f"{ZIP_FOLDER}/{path.relative_to(site_dir).as_posix()}", date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes())
        info = zipfile.ZipInfo(f"{ZIP_FOLDER}/README.txt", date_time=ZIP_DATE)
        info.external_attr = 0o644 << 16
        archive.writestr(info, ZIP_README)
    os.replace(temporary, zip_path)
    return len(files) + 1


def without_vendored_runtime(dist_dir):
    """A copytree filter that leaves out vendor/pyodide/ (other vendored files stay) and the offline zip."""
    runtime_dir = (Path(dist_dir) / VENDORED_INDEX_URL).resolve()

    def ignore(directory, names):
        directory = Path(directory).resolve()
        left_out = {name for name in names if name.endswith(".partial")}
        if directory == Path(dist_dir).resolve():
            left_out.add(ZIP_NAME)
        if directory == runtime_dir.parent:
            left_out.add(runtime_dir.name)
        return left_out

    return ignore


def write_cdn_site(dist_dir, cdn_dir, cdn_url, runtime_version, runtime_files, header_policy=None):
    """A copy of dist/ that loads the runtime from `cdn_url` instead of carrying it. Returns its version.

    The page's Content-Security-Policy <meta>, if it has one, gets the CDN's origin. A Web Worker ignores
    the page's <meta> and takes its policy from the HTTP header its script came with, so when
    `header_policy` is given (the policy with the CDN's origin in it) it is also written as a `_headers`
    file, the form static hosts such as Netlify and Cloudflare Pages read; other hosts set the same header
    in their own configuration.
    """
    dist_dir, cdn_dir = Path(dist_dir), Path(cdn_dir)
    shutil.rmtree(cdn_dir, ignore_errors=True)
    shutil.copytree(dist_dir, cdn_dir, ignore=without_vendored_runtime(dist_dir))
    origin = cdn_origin(cdn_url)
    for page in cdn_dir.rglob("*.html"):
        page.write_text(add_host_to_page_csp(page.read_text(), origin))
    if header_policy:
        (cdn_dir / HEADERS_FILE).write_text(f"/*\n  Content-Security-Policy: {header_policy}\n")
    return prepare_offline_site(cdn_dir, runtime_version, index_url=cdn_url, runtime_files=runtime_files)


def cdn_origin(cdn_url):
    """"https://cdn.jsdelivr.net" for "https://cdn.jsdelivr.net/pyodide/v0.27.7/full/"."""
    return re.match(r"https?://[^/]+", cdn_url).group(0)
