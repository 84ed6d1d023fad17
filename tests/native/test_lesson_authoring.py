"""A course's own lesson file, compiled by the request the page sends (`lesson_compile`, lessons/authoring.py): the
same lesson as the build writes, its scene files asked for and then read beside it, its mistakes line by line; and
the check command reads scene files beside the lesson on disk."""

import io
import json
from pathlib import Path

from attention_playground.entry import handle
from attention_playground.lessons.__main__ import check
from attention_playground.lessons.compile import compile_lesson
from attention_playground.presets import load_preset

ROOT = Path(__file__).resolve().parents[2]

COURSE_LESSON = """# A lesson of the course's

```lesson
source = "The course's own notes"
summary = "Two steps: an example of the playground's, then a scene kept beside the lesson."
```

## The example first

```step
scene = "#preset=it-animal-noun"
[question]
kind = "pick"
row = "it"
ask = "Where does “it” look?"
```

## Our scene

```step
scene = "scenes/our-scene.json"
[question]
kind = "estimate"
row = "man"
column = "dog"
ask = "How much does “man” read “dog”?"
```
"""


def compile_request(markdown, name="our-lesson.md", files=None):
    payload = {"markdown": markdown, "name": name, **({"files": files} if files is not None else {})}
    reply = json.loads(handle(json.dumps({"kind": "lesson_compile", "payload": payload})))
    assert reply["ok"], reply
    return reply["result"]


def our_scene_text():
    return json.dumps(load_preset("dog-bites-man") | {"tokens": ["dog", "bites", "man"]})


def test_a_shipped_lesson_compiles_in_the_request_as_the_build_compiles_it():
    for lesson_id in ("attention-from-scratch", "self-attention-lab"):
        text = (ROOT / "lessons" / f"{lesson_id}.md").read_text(encoding="utf-8")
        compiled = compile_request(text, f"{lesson_id}.md")
        entry, lesson = compile_lesson(text, f"lessons/{lesson_id}.md")
        assert compiled == {"entry": entry, "lesson": lesson}


def test_a_scene_file_is_asked_for_then_read_beside_the_lesson():
    assert compile_request(COURSE_LESSON) == {"needs": ["scenes/our-scene.json"]}
    compiled = compile_request(COURSE_LESSON, files={"scenes/our-scene.json": our_scene_text()})
    step = compiled["lesson"]["steps"][1]
    assert step["scene"] == {"scene": json.loads(our_scene_text()), "file": "scenes/our-scene.json"}
    assert compiled["entry"]["id"] == "our-lesson"
    assert [s["kind"] for s in compiled["entry"]["steps"]] == ["pick", "estimate"]


def test_a_scene_file_that_cannot_be_had_or_read_is_a_mistake_at_its_line():
    line = COURSE_LESSON.splitlines().index('scene = "scenes/our-scene.json"') + 1
    for text, expected in ({"error": "HTTP 404"}, "HTTP 404"), ("{not json", "is not JSON"), ("[1, 2]", "not a scene"):
        problems = compile_request(COURSE_LESSON, files={"scenes/our-scene.json": text})["problems"]
        assert [(p["line"], p["step"], p["field"]) for p in problems] == [(line, 2, "scene")]
        assert expected in problems[0]["message"]
        assert problems[0]["text"].startswith(f"our-lesson.md:{line}: step 2 (our-scene): scene: ")


def test_a_mistake_comes_back_as_its_line_step_field_and_expectation_and_never_as_steps():
    broken = COURSE_LESSON.replace('row = "it"', 'row = "dog"')
    line = broken.splitlines().index('row = "dog"') + 1
    reply = compile_request(broken, files={"scenes/our-scene.json": our_scene_text()})
    assert set(reply) == {"problems"}
    [problem] = reply["problems"]
    assert (problem["line"], problem["step"], problem["step_id"], problem["field"]) == (line, 1, "the-example-first", "question.row")
    assert "“dog”" in problem["message"] and "tired" in problem["message"]  # the word refused, and the words it may be


def test_a_malformed_request_names_its_field():
    for payload, field in (({"markdown": 3, "name": "a.md"}, "markdown"), ({"markdown": "# A", "name": ""}, "name"),
                           ({"markdown": "# A", "name": "a.md", "files": []}, "files")):
        reply = json.loads(handle(json.dumps({"kind": "lesson_compile", "payload": payload})))
        assert not reply["ok"] and reply["error"]["field"] == field


def test_the_check_command_reads_a_scene_file_beside_the_lesson(tmp_path):
    (tmp_path / "scenes").mkdir()
    lesson = tmp_path / "our-lesson.md"
    lesson.write_text(COURSE_LESSON, encoding="utf-8")
    out = io.StringIO()
    assert check([str(lesson)], out) == 1
    assert "our-scene.json" in out.getvalue() and "cannot be read beside the lesson" in out.getvalue()
    (tmp_path / "scenes" / "our-scene.json").write_text(our_scene_text(), encoding="utf-8")
    out = io.StringIO()
    assert check([str(lesson)], out) == 0, out.getvalue()
    assert "2 steps, 2 questions, no mistakes" in out.getvalue()
