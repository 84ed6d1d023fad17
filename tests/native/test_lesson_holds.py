"""A lesson never shows what a later step asks before that step is answered: each step holds back the stages of the
worked computation a later question reads on the same scene (lessons/holds.py), until it is answered. A planted
spoiler (a step that shows a scene's weights before a question on them) is held; the two shipped lessons hold what
their later questions ask, and nothing a question on another scene asks."""

import json
from pathlib import Path

from attention_playground.lessons.compile import compile_lesson
from attention_playground.lessons.holds import stages_asked, stages_revealed

ROOT = Path(__file__).resolve().parents[2]

PLANTED = """# Planted

```lesson
source = "a test"
summary = "A step that would show the answer of the next."
```

## Look first

The weights of “dog bites man”, shown before they are asked.

```step
scene = "dog-bites-man"
panels = ["heatmap", "weights", "steps"]
```

## The score first

```step
[question]
kind = "compute"
stage = "scores"
row = "man"
column = "dog"
ask = "The score of “man” reading “dog”?"
```

## Then a weight

```step
[question]
kind = "compute"
stage = "weights"
row = "man"
column = "dog"
ask = "The weight “man” gives “dog”?"
```

## Another scene

```step
scene = "it-animal-noun"

[question]
kind = "pick"
row = "it"
ask = "Which word does “it” read most?"
```
"""


def test_a_planted_spoiler_is_held_until_the_question_it_would_answer():
    _, lesson = compile_lesson(PLANTED, "lessons/planted.md")
    look, score, weight, other = lesson["steps"]
    assert look["holds"] == [{"stage": "scores", "until": score["id"]}, {"stage": "weights", "until": weight["id"]}]
    assert score["holds"] == [{"stage": "weights", "until": weight["id"]}], "its own stage shows once it is answered"
    assert weight["holds"] == [] and other["holds"] == [], "nothing later asks about their scenes"


def shipped(lesson_id):
    _, lesson = compile_lesson((ROOT / "lessons" / f"{lesson_id}.md").read_text(encoding="utf-8"), f"lessons/{lesson_id}.md")
    return lesson["steps"]


def test_the_shipped_lessons_hold_back_what_their_first_steps_showed_too_early():
    lab = shipped("self-attention-lab")
    assert {"stage": "weights", "until": lab[1]["id"]} in lab[0]["holds"], "the lab's first heatmap drew the row step 2 asks"
    scratch = shipped("attention-from-scratch")
    where = next(step for step in scratch if step["id"] == "where-does-it-look")
    assert {"stage": "weights", "until": where["id"]} in scratch[0]["holds"]


def test_in_both_lessons_no_stage_a_question_asks_is_shown_on_its_scene_before_it():
    """The spoiler check over both lessons: for every question and every step before it on the same scene, the stage
    it asks about is held there, or an earlier question on that scene has already shown it."""
    for lesson_id in ("attention-from-scratch", "self-attention-lab"):
        steps = shipped(lesson_id)
        scenes = [json.dumps(step["scene"], sort_keys=True) if step["scene"] else None for step in steps]
        for index in range(1, len(scenes)):  # a step that keeps the scene on show keeps the one before
            scenes[index] = scenes[index] or scenes[index - 1]
        for later, step in enumerate(steps):
            for stage in stages_asked(step["question"]):
                for before in range(later):
                    if scenes[before] != scenes[later]:
                        continue
                    shown = any(stage in stages_revealed(steps[k]["question"]) for k in range(before + 1) if scenes[k] == scenes[later])
                    held = any(hold["stage"] == stage for hold in steps[before]["holds"])
                    assert shown or held, f"{lesson_id}: step {before + 1} shows the {stage} that step {later + 1} asks about"


def test_no_reveal_of_a_change_states_the_weight_a_later_step_asks_to_estimate():
    """A choice about what a change does to one weight is revealed with the weight before and after it; a later
    step that asks to estimate that same weight must not find it there (“Scaling every query” doubled Wq and so
    showed the answer of “Twice as loud”, the design doubled, two steps before it was asked)."""
    from attention_playground.lessons.checker import check_lesson
    from attention_playground.lessons.questions import answer, expected
    from attention_playground.lessons.words import percent

    for lesson_id in ("attention-from-scratch", "self-attention-lab"):
        steps = check_lesson((ROOT / "lessons" / f"{lesson_id}.md").read_text(encoding="utf-8"), lesson_id).steps
        for i, step in enumerate(steps):
            measure = (step.question or {}).get("measure", {})
            if measure.get("of") != "change":
                continue
            right = expected(step.question, step.scene)["value"]
            option = next(option["id"] for option in step.question["options"] if option["value"] == right)
            said = answer(step.question, step.scene, option)["feedback"]
            for later in steps[i + 1:]:
                question = later.question or {}
                if question.get("kind") == "estimate" and (question.get("row"), question.get("column")) == (measure["row"], measure["column"]):
                    weight = percent(expected(question, later.scene)["value"])
                    assert weight not in said, f"{lesson_id}: “{step.step.title}” says {weight}, the answer of “{later.step.title}”"
