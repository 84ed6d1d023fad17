"""SCORM packages of the site: one per shipped lesson and one for the whole playground, each in SCORM 1.2 and
SCORM 2004 (4th edition), for a course platform (LMS) that tracks learners.

Each package is a zip of the self-contained site (dist/, runtime included: it asks no other host for anything)
with an `imsmanifest.xml` at its root. The manifest has one organization with one item, a SCO whose resource's
`href` is the launch itself, `index.html?lms=<version>&lesson=<id>` (no lesson for the whole playground): js/lms/
then finds the LMS's runtime and reports to it. The launch is in the `href`, not in the item's `parameters`, since
course platforms launch the first resource's `href` and drop `parameters` (wagtail-lms, scormhost and Open edX's
SCORM block all do). The resource lists every file of the package.

The site is compressed once, into a base zip; each package is a copy of it with its manifest appended.

    write_packages(dist_dir, out_dir, lessons)   -> [Package]

A course's own lessons (`build.py --scorm --lesson FILE.md`, or a folder of them) are packaged the same way, from a
copy of the site whose lessons list theirs beside the shipped ones, one package per lesson of theirs (and none of
the shipped ones, nor the whole playground):

    write_own_lesson_packages(dist_dir, out_dir, compiled)   -> [Package]
"""

import json
import os
import shutil
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import quoteattr, escape

#: The manifest's name; SCORM requires it at the package's root.
MANIFEST = "imsmanifest.xml"
#: The launch parameter js/lms/launch.js reads (LMS_PARAMETER there).
LMS_PARAMETER = "lms"
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
#: The SCORM versions, as the launch parameter names them, with what each manifest declares.
VERSIONS = {
    "1.2": {
        "suffix": "scorm12",
        "schemaversion": "1.2",
        "namespaces": {
            "": "http://www.imsproject.org/xsd/imscp_rootv1p1p2",
            "adlcp": "http://www.adlnet.org/xsd/adlcp_rootv1p2",
        },
        "schema_location": "http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd "
                           "http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd",
        "scorm_type": "adlcp:scormtype",
    },
    "2004": {
        "suffix": "scorm2004",
        "schemaversion": "2004 4th Edition",
        "namespaces": {
            "": "http://www.imsglobal.org/xsd/imscp_v1p1",
            "adlcp": "http://www.adlnet.org/xsd/adlcp_v1p3",
        },
        "schema_location": "http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd "
                           "http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd",
        "scorm_type": "adlcp:scormType",
    },
}
#: What the whole playground's package is called (its file name and its manifest's title).
WHOLE = ("attention-playground", "Attention Playground")


@dataclass(frozen=True)
class Package:
    path: Path
    version: str
    lesson: str | None  # the lesson's id, or None for the whole playground
    launch: str  # the address the LMS opens, relative to the package's root


def launch_address(version, lesson):
    """The address the LMS opens, relative to the package's root: the page, with the launch's query."""
    return f"index.html?{LMS_PARAMETER}={version}" + (f"&lesson={lesson}" if lesson else "")


def manifest(version, identifier, title, lesson, files):
    """The imsmanifest.xml of one package, as text: `files` are every path in the package but the manifest."""
    spec = VERSIONS[version]
    namespaces = " ".join(f'xmlns{":" + prefix if prefix else ""}="{uri}"' for prefix, uri in spec["namespaces"].items())
    listed = "\n".join(f"      <file href={quoteattr(name)}/>" for name in files)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier={quoteattr(identifier)} version="1" {namespaces}
          xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="{spec["schema_location"]}">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>{spec["schemaversion"]}</schemaversion>
  </metadata>
  <organizations default="organization">
    <organization identifier="organization">
      <title>{escape(title)}</title>
      <item identifier="item" identifierref="playground">
        <title>{escape(title)}</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="playground" type="webcontent" {spec["scorm_type"]}="sco" href={quoteattr(launch_address(version, lesson))}>
{listed}
    </resource>
  </resources>
</manifest>
"""


def site_files(dist_dir, left_out):
    """Every file of the built site, as paths relative to it, but those under the folders `left_out`."""
    return sorted(path.relative_to(dist_dir).as_posix() for path in dist_dir.rglob("*")
                  if path.is_file() and not any(part in left_out for part in path.relative_to(dist_dir).parts[:1]))


def write_base(dist_dir, files, base_path):
    """The site compressed once: every file of `files`, at the zip's root."""
    with zipfile.ZipFile(base_path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in files:
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, (dist_dir / name).read_bytes())


def write_packages(dist_dir, out_dir, lessons, left_out=(), whole=True):
    """Write every package into `out_dir` (afresh): `lessons` is [(id, title)] of the lessons, and with `whole` the
    whole playground's too. Files of
    `dist_dir` under the top-level names in `left_out`, and any zip at its root (the offline zip), are not packed.
    Returns the packages written."""
    dist_dir, out_dir = Path(dist_dir), Path(out_dir)
    shutil.rmtree(out_dir, ignore_errors=True)
    out_dir.mkdir(parents=True)
    files = [name for name in site_files(dist_dir, set(left_out)) if not ("/" not in name and name.endswith(".zip"))]
    base = out_dir / "site.zip.partial"
    write_base(dist_dir, files, base)
    packages = []
    for version, spec in VERSIONS.items():
        for lesson, title in [*([(None, WHOLE[1])] if whole else []), *lessons]:
            name = f"{lesson or WHOLE[0]}-{spec['suffix']}"
            path = out_dir / f"{name}.zip"
            shutil.copyfile(base, path)
            with zipfile.ZipFile(path, "a") as archive:
                info = zipfile.ZipInfo(MANIFEST, date_time=ZIP_DATE)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                archive.writestr(info, manifest(version, name, title, lesson, files))
            packages.append(Package(path, version, lesson, launch_address(version, lesson)))
    os.remove(base)
    return packages


def write_own_lesson_packages(dist_dir, out_dir, compiled):
    """Write the packages of a course's own lessons into `out_dir` (afresh): `compiled` is [(index entry, lesson)]
    (lessons.compile_own). The site is copied with hard links (its files are not changed: the lessons' are written
    anew, as new files) and its lesson list gets theirs."""
    from .lessons import write_compiled

    dist_dir = Path(dist_dir)
    with tempfile.TemporaryDirectory(dir=Path(out_dir).parent) as staging:
        site = Path(staging) / "site"
        shutil.copytree(dist_dir, site, copy_function=os.link)
        lessons_dir = site / "generated" / "lessons"
        write_compiled(lessons_dir, compiled, index=json.loads((lessons_dir / "index.json").read_text(encoding="utf-8")))
        return write_packages(site, out_dir, [(entry["id"], entry["title"]) for entry, _ in compiled], whole=False)
