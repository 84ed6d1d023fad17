"""docs/architecture.md's "A keystroke's path" names, hop by hop, the file a keystroke passes through and the calls
that hand it on: every file it names exists, and every call it names is in that file, so a reader who searches for
a name finds the next hop."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: A hop: "N. **`path`**: what happens there, with the calls named in backquotes".
HOP = re.compile(r"^\d+\. \*\*`([\w/.-]+)`\*\*: (.*?)(?=^\d+\. \*\*|\Z)", re.M | re.S)
#: A name in backquotes, alone or as a call: `edit`, `applyEdit`, `actions.edit(…)`, `REQUEST_KINDS.COMPUTE`.
NAME = re.compile(r"`(?:[a-z]+\.)?([A-Za-z_]\w*)[`(.]")


def keystroke_path():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## A keystroke's path", 1)[1].split("\nThe other views", 1)[0]
    return HOP.findall(section)


def test_the_path_goes_from_the_cell_to_the_heatmap_through_files_that_exist():
    hops = keystroke_path()
    assert len(hops) >= 10
    assert hops[0][0] == "js/ui/grids/weight-matrices.js" and hops[-1][0] == "js/ui/heatmap/heatmap-panel.js"
    assert [path for path, _ in hops if not (ROOT / path).is_file()] == []


def test_every_call_a_hop_names_is_in_its_file():
    missing = []
    for path, words in keystroke_path():
        source = (ROOT / path).read_text(encoding="utf-8")
        names = set(NAME.findall(words)) - {"data"}  # `data-edit` and its kin are attributes, named as the cell has them
        missing += [f"{path}: {name}" for name in sorted(names) if not re.search(rf"\b{name}\b", source)]
    assert missing == []
