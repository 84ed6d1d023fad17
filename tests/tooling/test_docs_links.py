"""The README and the pages under docs/ link to each other and into the repository: every relative link names a
file that exists, and every #anchor names a heading of the page it points into (as GitHub makes heading anchors)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# [text](target) outside code; an image's ![alt](target) too.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6}) (.+)$")


def without_code(text: str) -> str:
    """The page with its fenced code blocks and inline code blanked out: links there are examples, not links."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def anchors(path: Path) -> set[str]:
    """The anchors GitHub gives the page's headings: lower case, punctuation dropped, spaces as hyphens, a repeat
    numbered."""
    seen: dict[str, int] = {}
    found = set()
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)
    for line in text.splitlines():
        match = HEADING.match(line)
        if not match:
            continue
        title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", match.group(2))  # a link in a heading: its text
        slug = re.sub(r"[^\w\- ]", "", title.replace("`", "").replace("*", "").lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def links(path: Path) -> list[str]:
    return [target for target in LINK.findall(without_code(path.read_text(encoding="utf-8")))
            if not re.match(r"[a-z]+:", target)]  # https:, mailto: are not the repository's


@pytest.mark.parametrize("page", PAGES, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_every_relative_link_and_anchor_resolves(page):
    broken = []
    for target in links(page):
        file_part, _, anchor = target.partition("#")
        linked = (page.parent / file_part).resolve() if file_part else page
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{target}: no heading with that anchor")
    assert broken == []


def test_the_pages_link_to_each_other():
    """Every page under docs/ is reachable from the README's table of documents."""
    readme_links = {target.partition("#")[0] for target in links(ROOT / "README.md")}
    for page in PAGES[1:]:
        assert page.relative_to(ROOT).as_posix() in readme_links, page.name
