"""Lesson files: read, checked and compiled. Each mistake is named by its file, line, step and key; hostile text
compiles to inert text or is refused; the compiled lesson holds no expected answer and no solution.

The lessons shipped in lessons/ are checked in tests/tooling/test_build_lessons.py (this folder is also run inside
Pyodide, where only the module and these tests are laid out).
"""

import io
import json

import pytest

from attention_playground import load_preset
from attention_playground.presets import list_presets
from attention_playground.lessons.__main__ import check
from attention_playground.lessons.checker import check_lesson, describe, slug
from attention_playground.lessons.compile import LessonProblems, compile_lesson
from attention_playground.lessons.format import link_problem, read_lesson
from attention_playground.lessons.questions import QUESTION_KEYS
from attention_playground.lessons.sources import decode_scene_link, encode_scene_link, resolve_scene

GOOD = """# A small lesson

```lesson
source = "a tutorial"
summary = "Two steps."
```

Some *introduction*.

## Where “it” looks

Prose with `code` and a [link](https://example.org/page) and a [step link](#lesson=other&step=one).

```step
scene = "it-animal-noun"
panels = ["heatmap", "bars"]
focus = "it"

[question]
kind = "pick"
row = "it"
ask = "Which word does “it” read most?"
explain = "It looks for an animal noun."
```

## Put it back

```step
id = "rebuild"
scene = "#preset=it-no-noun-match"

[question]
kind = "build"
conditions = [{weight = {row = "it", column = "cat"}, at_least = 0.9}]
max_edits = 1
fields = ["Wq"]
ask = "One edit of Wq."
hints = ["The pronoun's row.", "The noun column."]
solution = [{field = "Wq", row = "pronoun", column = "noun", value = 4}]
```
"""


def node_types(value):
    """Every "type" in a compiled prose tree (or any JSON value)."""
    if isinstance(value, dict):
        found = {value["type"]} if isinstance(value.get("type"), str) else set()
        return found.union(*(node_types(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(node_types(item) for item in value)) if value else set()
    return set()


def all_keys(value):
    if isinstance(value, dict):
        return set(value).union(*(all_keys(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(all_keys(item) for item in value)) if value else set()
    return set()


def test_a_good_lesson_compiles_to_an_index_entry_and_a_lesson_the_page_loads():
    entry, lesson = compile_lesson(GOOD, "lessons/small.md")
    assert entry == {"id": "small", "title": "A small lesson", "source": "a tutorial", "summary": "Two steps.",
                     "steps": [{"id": "where-it-looks", "title": "Where “it” looks", "kind": "pick"},
                               {"id": "rebuild", "title": "Put it back", "kind": "build"}]}
    first, second = lesson["steps"]
    assert first["scene"] == {"preset": "it-animal-noun"} and second["scene"] == {"preset": "it-no-noun-match"}
    assert first["focus"] == {"word": "it", "index": 7} and first["panels"] == ["heatmap", "bars"]
    assert first["question"] == {"kind": "pick", "row": "it"}
    assert first["ask"] == [{"type": "paragraph", "children": [{"type": "text", "text": "Which word does “it" +
                                                                 "” read most?"}]}]
    assert first["prose"][0]["children"][3] == {"type": "link", "href": "https://example.org/page",
                                                "children": [{"type": "text", "text": "link"}]}
    assert len(second["hints"]) == 2
    assert lesson["intro"] == [{"type": "paragraph", "children": [
        {"type": "text", "text": "Some "}, {"type": "emphasis", "children": [{"type": "text", "text": "introduction"}]},
        {"type": "text", "text": "."}]}]
    # Nothing the checker computed, and no solution, reaches the page.
    assert "solution" not in all_keys(lesson)
    for step in lesson["steps"]:
        required, optional = QUESTION_KEYS[step["question"]["kind"]]
        assert set(step["question"]) <= {"kind", *required, *optional}
    assert "0.92" not in json.dumps(lesson) and "92." not in json.dumps(lesson)


def planted(text, name="lessons/planted.md"):
    """The checker's lines for a lesson text, as the command prints them."""
    return [describe(problem, name) for problem in sorted(check_lesson(text, name).problems)]


MISTAKES = """# Planted

## One

```step
scene = "it-animal-noun"
[question]
kind = "pik"
row = "it"
ask = "?"
```

## Two

```step
focus = "cat#2"
```

## Three

```step
scene = "dog-bites-man"
[question]
kind = "pick"
row = "dog"
ask = "Which word does “dog” read most?"
```

## Four

```step
scene = "it-animal-noun"
[question]
kind = "choose"
measure = {of = "change", row = "it", column = "cat", variant = {Wq = "times 2"}}
options = [
  {id = "up", text = "up", value = "rises"},
  {id = "down", text = "down", value = "rise"},
]
ask = "?"
```

## Five

```step
scene = "it-animal-noun"
[question]
kind = "build"
conditions = [{weight = {row = "it", column = "cat"}, at_least = 0.5}]
ask = "?"
solution = []
```

## Six

```step
scene = "it-no-noun-match"
[question]
kind = "build"
conditions = [{weight = {row = "it", column = "cat"}, at_least = 0.9}]
max_edits = 1
ask = "?"
solution = [{field = "Wq", row = "pronoun", column = "animal", value = 5}]
```

## Seven

```step
scene = "no-such-example"
```

## One

```step
scene = "dog-bites-man"
panels = ["heatmap", "sidebar"]
```

## Nine

Prose before.

```step
scene = "dog-bites-man"
```

Prose after the block.

## Ten
"""


def test_every_planted_mistake_is_named_by_file_line_step_and_key():
    assert planted(MISTAKES) == [
        "lessons/planted.md:8: step 1 (one): question.kind: kind is one of pick, estimate, sketch, choose, compute, "
        "build; got “pik”",
        "lessons/planted.md:16: step 2 (two): focus: “cat” occurs 1 time, so there is no “cat#2”",
        "lessons/planted.md:25: step 3 (three): question.row: “dog” has no one answer here: “dog” and “man” tie",
        "lessons/planted.md:38: step 4 (four): question.options[1].value: “rise” is not an outcome of “change”; it "
        "gives rises, falls, stays",
        "lessons/planted.md:49: step 5 (five): question.conditions: the step's scene already meets this target: “it” "
        "puts 92.0% on “cat” (the target: at least 50.0%)",
        # An animal query of 5 and no noun query: e^(5/√2) / (e^(5/√2) + 9) for "cat".
        "lessons/planted.md:63: step 6 (six): question.solution: the solution does not reach the target: “it” puts "
        "79.2% on “cat” (the target: at least 90.0%)",
        "lessons/planted.md:69: step 7 (seven): scene: “no-such-example” is not an example, a link or a scene file; the "
        f"examples are {', '.join(preset['id'] for preset in list_presets())}, a link starts with #preset= or #s=, and a "
        "scene file's path ends in .json",
        "lessons/planted.md:74: step 8 (one): two steps have the id “one”: give this one its own (id = \"…\")",
        "lessons/planted.md:76: step 8 (one): panels: panels lists the panels to show, each once, among presets, "
        "controls, notes, heatmap, bars, features, weights, steps, heads, experiments, model, exercise; got a list "
        "of 2",
        "lessons/planted.md:87: step 9 (nine): the step's prose comes before its ```step block (what to show after "
        "the answer goes in the question's explain)",
        "lessons/planted.md:89: step 10 (ten): the step has no ```step block",
    ]


def test_the_command_prints_one_line_per_mistake_and_exits_1_or_a_summary_and_0(tmp_path):
    bad, good = tmp_path / "planted.md", tmp_path / "small.md"
    bad.write_text(MISTAKES, encoding="utf-8")
    good.write_text(GOOD, encoding="utf-8")
    out = io.StringIO()
    assert check([str(bad), str(good)], out) == 1
    lines = out.getvalue().splitlines()
    assert len(lines) == 12 and lines[0].startswith(f"{bad}:8: step 1 (one): question.kind: ")
    assert lines[-1] == "11 mistakes in 2 lessons"
    out = io.StringIO()
    assert check([str(good)], out) == 0
    assert out.getvalue() == "1 lesson checked: 2 steps, 2 questions, no mistakes\n"


def test_toml_that_cannot_be_read_is_named_at_its_line_in_the_file():
    text = "# T\n\n## S\n\n```step\nscene = \"dog-bites-man\"\npanels = [\n```\n"
    (line,) = planted(text)
    assert line.startswith("lessons/planted.md:7: step 1 (s): the ```step block is not valid TOML: ")


def test_html_comments_before_the_title_are_left_out_and_lines_keep_their_numbers():
    """A course's tools may put a comment first (the file's name, a licence): the lesson reads as without it."""
    commented = "<!-- docs/lessons/small.md -->\n<!--\n  CC BY 4.0\n-->\n" + GOOD
    plain = check_lesson(GOOD, "small.md")
    read = check_lesson(commented, "small.md")
    assert read.problems == [] and read.file.title == plain.file.title == "A small lesson"
    assert [step.step.line for step in read.steps] == [step.step.line + 4 for step in plain.steps]
    broken = commented.replace('"it-animal-noun"', '"no-such-example"', 1)
    [problem] = check_lesson(broken, "small.md").problems
    assert problem.line == broken.splitlines().index('scene = "no-such-example"') + 1
    # A comment after the title is the lesson's text, as any raw HTML is: shown as it is, never run.
    assert check_lesson(GOOD.replace("Some *introduction*.", "<!-- a note -->"), "small.md").file.intro[0]["children"][0]["text"] == "<!-- a note -->"


def test_the_form_of_the_file_is_checked():
    assert planted("Intro first.\n\n# Title\n\n## S\n\n```step\nscene = \"dog-bites-man\"\n```\n") == [
        "lessons/planted.md:1: a lesson starts with its title, a line \"# Title\"",
        "lessons/planted.md:3: a lesson has one title, its first line \"# Title\"; use ## for a step and ### inside a "
        "step's prose",
    ]
    assert planted("# T\n\n```step\nscene = \"dog-bites-man\"\n```\n") == [
        "lessons/planted.md:1: a lesson has at least one step, a \"## Step title\" with its ```step block",
        "lessons/planted.md:3: a ```step block belongs to a step: put a \"## Step title\" above it",
    ]
    assert planted("# T\n\n## S\n\n```step\nscene = \"dog-bites-man\"\n```\n", "lessons/Bad Name.md") == [
        "lessons/Bad Name.md:1: the file's name is the lesson's id: lower-case letters, digits and hyphens, then .md; "
        "got “lessons/Bad Name.md”"]


HOSTILE = """# Hostile <script>alert(1)</script>

<script>alert("intro")</script>

## A step with &lt;b&gt;entities&lt;/b&gt; & <img src=x onerror=alert(1)>

Click [here](javascript:alert(1)), [there](JaVaScRiPt:alert(1)), [data](data:text/html,<script>x</script>),
<javascript:alert(2)>, [mail](mailto:a@b.c) and [tab](java&#9;script:alert(3)) and [ok](?embed&lesson=a&step=b).

<div onclick="x()">raw block</div>

![an image](https://example.org/x.png)

```step
scene = "dog-bites-man"
[question]
kind = "pick"
row = "man"
ask = "<script>alert(4)</script> [x](javascript:void(0))"
```
"""


def test_hostile_text_compiles_to_inert_text_or_is_refused():
    problems = planted(HOSTILE)
    refused = [line for line in problems if "is refused" in line]
    # javascript: in any case, with a tab inside and as an autolink; data:; mailto:; and in the question's ask.
    assert len(refused) == 7, problems
    assert all(":6: step 1" in line or ":7: step 1" in line or "question.ask" in line for line in refused)
    assert any("an image is not part of a lesson's prose" in line for line in problems)
    # Without the refused parts, what is left compiles, and every piece of markup is text.
    safe = HOSTILE.split("Click")[0] + "<div onclick=\"x()\">raw block</div>\n\n```step" + HOSTILE.split("```step")[1]
    safe = safe.replace(" [x](javascript:void(0))", "")
    entry, lesson = compile_lesson(safe, "lessons/hostile.md")
    assert entry["title"] == "Hostile <script>alert(1)</script>"
    assert node_types(lesson) <= {"paragraph", "text", "emphasis", "strong", "code", "code_block", "list", "link",
                                  "heading", "quote", "break", "rule", "pick"}
    texts = json.dumps(lesson, ensure_ascii=False)
    assert '"text": "<script>alert(\\"intro\\")</script>"' in texts  # raw HTML stays text, for textContent
    assert "<b>entities</b> & <img src=x onerror=alert(1)>" in lesson["steps"][0]["title"]
    assert '"text": "<div onclick=\\"x()\\">raw block</div>"' in texts


@pytest.mark.parametrize(("href", "refused"), [
    ("https://example.org", False), ("http://example.org/a?b#c", False), ("#lesson=a&step=b", False),
    ("?embed&lesson=a&step=b", False), ("docs/lessons.md", False), ("/index.html", False),
    ("javascript:alert(1)", True), (" JAVASCRIPT:alert(1)", True), ("java\tscript:alert(1)", True),
    ("java%09script:alert(1)", True), ("data:text/html,x", True), ("vbscript:x", True), ("file:///etc/passwd", True),
    ("mailto:a@b.c", True),
])
def test_only_http_and_relative_links_are_followed(href, refused):
    assert (link_problem(href) is not None) == refused


def test_a_scene_link_is_read_as_the_page_writes_it_and_a_damaged_one_is_named():
    scene = load_preset("dog-bites-man")
    link = encode_scene_link(scene, {"focus": 2, "head": 0})
    assert decode_scene_link(link) == scene
    source = resolve_scene(link)
    assert source.reference == {"link": link} and source.scene == scene
    for broken, words in ((link[:-12], "damaged or cut off"), ("#s=9.abc", "format 9"), ("#s=4.@@", "#s=<version>")):
        with pytest.raises(ValueError, match=words):
            decode_scene_link(broken)
    made = resolve_scene({"from": "it-animal-noun", "change": {"Wq": "times 2"}})
    assert made.reference["from"] == "it-animal-noun" and made.scene["heads"][0]["Wq"][2] == [8.0, 8.0]


def test_a_step_without_a_scene_keeps_the_one_before_and_a_step_id_is_a_slug_of_its_title():
    lesson = check_lesson(GOOD.replace('scene = "#preset=it-no-noun-match"\n', ""), "lessons/x.md")
    assert [problem.message for problem in lesson.problems] == [
        "the step's scene already meets this target: “it” puts 92.0% on “cat” (the target: at least 90.0%)"]
    assert lesson.steps[1].scene == load_preset("it-animal-noun")
    assert slug("Why divide by √d?") == "why-divide-by-root-d" and slug("“it” & the cat!") == "it-the-cat"


def test_the_build_gets_every_mistake_at_once():
    with pytest.raises(LessonProblems) as problems:
        compile_lesson(MISTAKES, "lessons/planted.md")
    assert len(problems.value.lines) == 11


def test_reading_keeps_the_parts_with_their_lines():
    read = read_lesson(GOOD, "small.md")
    assert (read.title, read.title_line, read.meta.line, len(read.steps)) == ("A small lesson", 1, 3, 2)
    assert [(step.number, step.title, step.line, step.block.line) for step in read.steps] == [
        (1, "Where “it” looks", 10, 14), (2, "Put it back", 26, 28)]
    assert read.steps[1].block.line_of("question.solution") == 39
    assert read.steps[1].block.line_of("question.hints") == 38
    assert read.steps[1].block.line_of("question.conditions[0].at_least") == 34


def test_the_trained_models_panel_is_checked_against_the_model_itself():
    step = """# T

## S

```step
scene = "trained-repeated-noun"
panels = ["heatmap", "model"]
model = {words = "the fox met a crow", head = "L1H2", knocked_out = ["L0H3"]}
```
"""
    lesson = check_lesson(step, "lessons/m.md")
    assert lesson.problems == [] and lesson.steps[0].settings["model"] == {
        "words": "the fox met a crow", "head": "L1H2", "knocked_out": ["L0H3"]}
    assert planted(step.replace('"L1H2"', '"L5H0"')) == [
        "lessons/planted.md:8: step 1 (s): model.head: “L5H0” is not a head of the trained model: L0H0 to L1H3"]
    (unknown,) = planted(step.replace("crow", "dragonz"))
    assert unknown.startswith("lessons/planted.md:8: step 1 (s): model.words: ") and "dragonz" in unknown

