"""js/ reads as rooms named for their jobs: the page's assembly in js/page/ (a few files), each other job in a folder
of its own, none so full that a reader cannot scan it; and docs/architecture.md's table of folders names every file
of js/, and names none that is not there."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "js"
#: The table's rows: "| `js/<folder>/` | the files, each named in backquotes | …".
TABLE_ROW = re.compile(r"^\| `(js/(?:[\w-]+/)*)` \| (.*?) \| ", re.M)


def files_by_folder():
    folders = {}
    for path in JS.rglob("*"):
        if path.is_file() and path.suffix in (".js", ".css"):
            folders.setdefault(path.parent.relative_to(ROOT).as_posix() + "/", set()).add(path.name)
    return folders


def test_the_page_keeps_only_its_assembly_and_no_folder_is_too_full_to_scan():
    folders = files_by_folder()
    assert len(folders["js/page/"]) <= 8, sorted(folders["js/page/"])
    crowded = {folder: len(names) for folder, names in folders.items() if len(names) > 15}
    assert crowded == {}


def test_the_architecture_page_names_every_file_of_js_and_only_those():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    named = {}
    for folder, cell in TABLE_ROW.findall(text):
        named.setdefault(folder, set()).update(re.findall(r"`([\w.-]+\.(?:js|css))`", cell))
    folders = files_by_folder()
    missing = {folder: sorted(names - named.get(folder, set())) for folder, names in folders.items()}
    assert {folder: names for folder, names in missing.items() if names} == {}, "files the table does not name"
    extra = {folder: sorted(names - folders.get(folder, set())) for folder, names in named.items()}
    assert {folder: names for folder, names in extra.items() if names} == {}, "names in the table that are not files"
