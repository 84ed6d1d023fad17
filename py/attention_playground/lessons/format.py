"""A lesson file: Markdown read with markdown-it-py, its two kinds of fenced block read as TOML (tomllib).

    # The lesson's title

    ```lesson
    source = "Attention from scratch"
    summary = "Attention built by hand, number by number."
    ```

    Prose before the first step: the lesson's introduction.

    ## A step's title

    The step's prose: paragraphs, lists, emphasis, `code`, code blocks, links.

    ```step
    scene = "dog-bites-man"
    [question]
    kind = "pick"
    row = "man"
    ask = "Which word does “man” read most?"
    ```

`read_lesson(text, name)` gives the parts with their line numbers and every mistake of form it finds; the checker
(checker.py) then checks what the blocks say. This is the one module that imports markdown-it, and the lesson's
prose leaves it as a small tree of plain data, never as HTML: raw HTML in a lesson is not parsed (it stays text),
and the page builds the tree with DOM calls and textContent:

    {"type": "paragraph" | "quote", "children": [...]}      {"type": "heading", "level": 3, "children": [...]}
    {"type": "list", "ordered": bool, "start": n, "tight": bool, "items": [[block, ...], ...]}
    {"type": "code_block", "language": "python" | null, "text": "..."}            {"type": "rule"}
    {"type": "text", "text": "..."}   {"type": "emphasis" | "strong", "children": [...]}   {"type": "break"}
    {"type": "code", "text": "..."}   {"type": "link", "href": "https://…" or a relative one, "children": [...]}

A link goes to an http(s) address or a relative one ("#lesson=…&step=…", "?embed&lesson=…"); any other (javascript:,
data:, mailto:, …) is refused with a message, and so is an image.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode

#: The info words of the two fenced blocks a lesson gives meaning to.
LESSON_FENCE, STEP_FENCE = "lesson", "step"
#: A link may go to an address of one of these schemes, or to a relative one.
LINK_SCHEMES = ("http", "https")


class Problem(NamedTuple):
    """One mistake in a lesson file: where (1-based line; the step's number and id when in a step), which key, what."""

    line: int
    message: str
    field: str | None = None
    step: int | None = None
    step_id: str | None = None


@dataclass
class Block:
    """A fenced ```lesson or ```step block: its TOML text, the line of its opening fence, and what it says (None
    if the TOML could not be read)."""

    text: str
    line: int
    data: dict[str, Any] | None = None

    def line_of(self, path: str | None) -> int:
        """The line of the key `path` names ("question.options[2].value"), or the nearest line above it."""
        return self.line + key_line(self.text, path) if path else self.line


@dataclass
class Step:
    """One `## Step` of a lesson: its title, prose and block."""

    number: int
    title: str
    line: int
    prose: list[dict[str, Any]] = field(default_factory=list)
    block: Block | None = None


@dataclass
class LessonFile:
    """A lesson file as read: its title, the lesson block, the introduction, the steps, and the mistakes of form."""

    name: str
    title: str | None = None
    title_line: int = 1
    meta: Block | None = None
    intro: list[dict[str, Any]] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def _parser() -> MarkdownIt:
    """CommonMark with raw HTML off (it stays text); links are let through so that a refused one gets a message
    instead of silently turning into text."""
    md = MarkdownIt("commonmark", {"html": False})
    md.validateLink = lambda url: True
    return md


_MARKDOWN = _parser()


# ------------------------------------------------------------------------------------------------------------
# Prose: markdown-it's tree to plain data


def link_problem(href: str) -> str | None:
    """Why a link's address is refused, or None: only http(s) and relative addresses are followed."""
    cleaned = re.sub(r"[\x00-\x20\x7f]", "", href)  # browsers skip these inside a scheme
    head = re.split(r"[/?#]", cleaned, maxsplit=1)[0]
    if ":" not in head:
        return None  # relative: a path, "?embed&lesson=…", "#lesson=…&step=…"
    scheme = head.split(":", 1)[0].lower()
    if scheme in LINK_SCHEMES:
        return None
    return (f"the link to {href[:60]!r} is refused: a lesson links only to http(s) addresses and relative ones "
            "(such as #lesson=ID&step=STEP)")


class _Prose:
    """Turns markdown-it's nodes into the lesson's prose tree, noting problems at the block's line."""

    def __init__(self, problems: list[Problem], line_offset: int, where: dict[str, Any]):
        self.problems = problems
        self.line_offset = line_offset
        self.where = where  # step, step_id, field: where a problem belongs

    def problem(self, node: SyntaxTreeNode | None, message: str) -> None:
        line = self.line_offset + (node.map[0] if node is not None and node.map else 0) + 1
        self.problems.append(Problem(line, message, **self.where))

    def blocks(self, nodes: list[SyntaxTreeNode]) -> list[dict[str, Any]]:
        out = []
        for node in nodes:
            converted = self.block(node)
            if converted is not None:
                out.append(converted)
        return out

    def block(self, node: SyntaxTreeNode) -> dict[str, Any] | None:
        kind = node.type
        if kind == "paragraph":
            return {"type": "paragraph", "children": self.inline(node.children[0], node) if node.children else []}
        if kind == "heading":
            return {"type": "heading", "level": int(node.tag[1]), "children": self.inline(node.children[0], node)}
        if kind in ("bullet_list", "ordered_list"):
            ordered = kind == "ordered_list"
            tight = all(child.hidden for item in node.children for child in item.children if child.type == "paragraph")
            listed = {"type": "list", "ordered": ordered, "tight": tight,
                      "items": [self.blocks(item.children) for item in node.children]}
            if ordered:
                listed["start"] = int(node.attrs.get("start", 1))
            return listed
        if kind == "blockquote":
            return {"type": "quote", "children": self.blocks(node.children)}
        if kind in ("fence", "code_block"):
            language = (node.info or "").split()[0] if kind == "fence" and node.info.strip() else None
            return {"type": "code_block", "language": language, "text": node.content}
        if kind == "hr":
            return {"type": "rule"}
        self.problem(node, f"{kind} is not part of a lesson's prose")
        return None

    def inline(self, inline: SyntaxTreeNode, block: SyntaxTreeNode) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for node in inline.children:
            kind = node.type
            if kind == "text":
                _add_text(out, node.content)
            elif kind == "softbreak":
                _add_text(out, " ")
            elif kind == "hardbreak":
                out.append({"type": "break"})
            elif kind == "code_inline":
                out.append({"type": "code", "text": node.content})
            elif kind in ("em", "strong"):
                out.append({"type": "emphasis" if kind == "em" else "strong", "children": self.inline(node, block)})
            elif kind == "link":
                href = str(node.attrs.get("href", ""))
                refused = link_problem(href)
                if refused:
                    self.problem(block, refused)
                    out.extend(self.inline(node, block))  # its text stays, without the link
                else:
                    out.append({"type": "link", "href": href, "children": self.inline(node, block)})
            elif kind == "image":
                self.problem(block, "an image is not part of a lesson's prose: the page shows the scene instead")
            else:
                self.problem(block, f"{kind} is not part of a lesson's prose")
        return out


def _add_text(out: list[dict[str, Any]], text: str) -> None:
    if out and out[-1]["type"] == "text":
        out[-1]["text"] += text
    else:
        out.append({"type": "text", "text": text})


def plain_text(nodes: list[dict[str, Any]]) -> str:
    """The text of a prose tree's inline nodes, without their marks (a title)."""
    parts = []
    for node in nodes:
        if "text" in node and node["type"] in ("text", "code"):
            parts.append(node["text"])
        elif node["type"] == "break":
            parts.append(" ")
        else:
            parts.append(plain_text(node.get("children", [])))
    return "".join(parts)


def prose(text: str, problems: list[Problem], line: int = 0, **where: Any) -> list[dict[str, Any]]:
    """Markdown text (a question's `ask`, a hint) as a prose tree; its problems are noted at `line` (1-based) and
    `where` (step, step_id, field)."""
    converter = _Prose(problems, line - 1 if line else 0, where)
    return converter.blocks(SyntaxTreeNode(_MARKDOWN.parse(text)).children)


# ------------------------------------------------------------------------------------------------------------
# The file


def _read_block(node: SyntaxTreeNode, problems: list[Problem], where: dict[str, Any]) -> Block:
    block = Block(node.content, node.map[0] + 1)
    try:
        block.data = tomllib.loads(node.content)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        at = re.search(r"\(at line (\d+), column (\d+)\)", message)
        if at:
            line = block.line + int(at[1])
        elif "end of document" in message:  # the block stops before a value is finished: its last line
            line = block.line + len(node.content.rstrip("\n").split("\n"))
        else:
            line = block.line
        message = re.sub(r"\s*\((at line \d+, column \d+|at end of document)\)", "", message)
        problems.append(Problem(line, f"the ```{node.info.strip()} block is not valid TOML: {message.rstrip('.')}",
                                **where))
    return block


#: HTML comments before the title (a file's name, a licence), which a course's tools may need there: never shown.
_LEADING_COMMENTS = re.compile(r"\A(?:\s*<!--.*?-->)+", re.S)


def without_leading_comments(text: str) -> str:
    """`text` with the HTML comments before its first line of Markdown blanked out, its lines kept where they were."""
    return _LEADING_COMMENTS.sub(lambda comments: "\n" * comments.group(0).count("\n"), text, count=1)


def read_lesson(text: str, name: str) -> LessonFile:
    """Read a lesson file's text: its parts with their lines, and every mistake of form (see the module docstring).
    HTML comments before the title are left out (without_leading_comments)."""
    lesson = LessonFile(name)
    problems = lesson.problems
    nodes = SyntaxTreeNode(_MARKDOWN.parse(without_leading_comments(text))).children
    step: Step | None = None
    after_block = False
    for node in nodes:
        line = node.map[0] + 1 if node.map else 1
        where = {"step": step.number, "step_id": None} if step else {}
        info = (node.info or "").strip() if node.type == "fence" else None
        if node.type == "heading" and node.tag == "h1":
            if lesson.title is not None or step is not None:
                problems.append(Problem(line, "a lesson has one title, its first line \"# Title\"; use ## for a step "
                                        "and ### inside a step's prose", **where))
                continue
            lesson.title = plain_text(_Prose(problems, 0, {}).inline(node.children[0], node)).strip()
            lesson.title_line = line
            continue
        if lesson.title is None:
            problems.append(Problem(line, "a lesson starts with its title, a line \"# Title\""))
            lesson.title = ""
        if node.type == "heading" and node.tag == "h2":
            title = plain_text(_Prose(problems, 0, {}).inline(node.children[0], node)).strip()
            step = Step(len(lesson.steps) + 1, title, line)
            lesson.steps.append(step)
            after_block = False
            continue
        if info == LESSON_FENCE:
            if step is not None or lesson.meta is not None:
                problems.append(Problem(line, "the ```lesson block comes once, between the title and the first step",
                                        **where))
                continue
            lesson.meta = _read_block(node, problems, {})
            continue
        if step is None:
            if info == STEP_FENCE:
                problems.append(Problem(line, "a ```step block belongs to a step: put a \"## Step title\" above it"))
                continue
            lesson.intro.extend(_Prose(problems, 0, {}).blocks([node]))
            continue
        if info == STEP_FENCE:
            if step.block is not None:
                problems.append(Problem(line, "a step has exactly one ```step block; start a new step with ## for "
                                        "another", **where))
                continue
            step.block = _read_block(node, problems, where)
            after_block = True
            continue
        if after_block:
            problems.append(Problem(line, "the step's prose comes before its ```step block (what to show after the "
                                    "answer goes in the question's explain)", **where))
            continue
        step.prose.extend(_Prose(problems, 0, where).blocks([node]))
    if lesson.title is None:
        problems.append(Problem(1, "a lesson starts with its title, a line \"# Title\""))
        lesson.title = ""
    if not lesson.steps:
        problems.append(Problem(lesson.title_line, "a lesson has at least one step, a \"## Step title\" with its "
                                                   "```step block"))
    for step in lesson.steps:
        if step.block is None:
            problems.append(Problem(step.line, "the step has no ```step block", step=step.number))
    return lesson


# ------------------------------------------------------------------------------------------------------------
# Where a key of a block is, for messages


_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_ASSIGNMENT = re.compile(r"^\s*([A-Za-z0-9_\-\"'.\s]+?)\s*=")
_INDEXED = re.compile(r"^(?P<name>[^\[]+)(?:\[(?P<index>\d+)\])?$")


def _segments(path: str) -> list[tuple[str, int | None]]:
    out = []
    for part in re.findall(r"[^.\[\]]+(?:\[\d+\])?", path):
        match = _INDEXED.match(part)
        out.append((match["name"], int(match["index"]) if match["index"] else None))
    return out


def _key_names(text: str) -> list[str]:
    return [part.strip().strip("\"'") for part in text.split(".")]


def key_line(block_text: str, path: str) -> int:
    """The 1-based line, within a block's text, of the key `path` names (dotted, with [i] for a list's i-th
    entry): the best line found by reading the TOML's headers and assignments, or 0 (the fence) if none."""
    wanted = _segments(path)
    names = [name for name, _ in wanted]
    best_line, best_depth = 0, 0
    header: list[str] = []
    occurrences: dict[tuple[str, ...], int] = {}
    lines = block_text.split("\n")
    for number, text in enumerate(lines, start=1):
        found = _HEADER.match(text)
        if found and not text.strip().startswith("#"):
            header = _key_names(found[2])
            key = tuple(header)
            occurrences[key] = occurrences.get(key, -1) + 1
            if found[1] == "[[" and len(header) <= len(names) and names[:len(header)] == header:
                index = wanted[len(header) - 1][1]
                if index is not None and occurrences[key] != index:
                    continue
            depth = _matched(header, wanted, occurrences)
            if depth > best_depth:
                best_line, best_depth = number, depth
            continue
        assigned = _ASSIGNMENT.match(text)
        if not assigned or text.strip().startswith("#"):
            continue
        full = header + _key_names(assigned[1])
        depth = _matched(full, wanted, occurrences, header)
        if depth > best_depth:
            best_line, best_depth = number, depth
            if depth == len(full) and depth < len(names) and wanted[depth - 1][1] is not None:
                entry = _list_entry(lines, number - 1, wanted[depth - 1][1])
                if entry:
                    best_line = entry
    return best_line


def _matched(full: list[str], wanted: list[tuple[str, int | None]], occurrences: dict, header=None) -> int:
    """How many leading segments of the wanted path `full` matches (an array of tables' entry by its number)."""
    depth = 0
    for name, (wanted_name, index) in zip(full, wanted):
        if name != wanted_name:
            break
        depth += 1
        key = tuple(full[:depth])
        if index is not None and header is not None and len(header) >= depth and key in occurrences:
            if occurrences[key] != index:
                return 0
    return depth


def _list_entry(lines: list[str], start: int, index: int) -> int:
    """The 1-based line where the index-th table or list of a list written over several lines (`key = [` …)
    begins, or 0 if it cannot be told (a list of texts, or the entry is not there)."""
    depth, count = 0, -1
    for number in range(start, len(lines)):
        text = lines[number]
        begin = text.find("=") + 1 if number == start else 0
        for char in text[begin:]:
            if char in "[{":
                depth += 1
                if depth == 2:
                    count += 1
                    if count == index:
                        return number + 1
            elif char in "]}":
                depth -= 1
                if depth == 0:
                    return 0
    return 0
