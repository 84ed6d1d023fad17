"""A lesson never shows what a later step asks before that step is answered: each step holds back what a later
question reads on the same scene (lessons/holds.py), a stage of the worked computation, or one row or one head of
the weights, until it is answered. A planted spoiler (a step that shows a scene's weights before a question on them)
is held; the two shipped lessons hold what their later questions ask, and nothing a question on another scene asks."""

import json
from pathlib import Path

from attention_playground.lessons.compile import compile_lesson
from attention_playground.lessons.holds import Part, parts_asked, parts_revealed

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
    man = checked_planted().steps[0].scene["tokens"].index("man")  # the row the weight's question reads
    assert look["holds"] == [{"stage": "scores", "until": score["id"]},
                             {"stage": "weights", "head": 0, "row": man, "until": weight["id"]}]
    assert score["holds"] == [{"stage": "weights", "head": 0, "row": man, "until": weight["id"]}], \
        "its own stage shows once it is answered"
    assert weight["holds"] == [] and other["holds"] == [], "nothing later asks about their scenes"


def checked(lesson_id):
    from attention_playground.lessons.checker import check_lesson

    return check_lesson((ROOT / "lessons" / f"{lesson_id}.md").read_text(encoding="utf-8"), lesson_id).steps


def checked_planted():
    from attention_playground.lessons.checker import check_lesson

    return check_lesson(PLANTED, "planted.md")


def shipped(lesson_id):
    _, lesson = compile_lesson((ROOT / "lessons" / f"{lesson_id}.md").read_text(encoding="utf-8"), f"lessons/{lesson_id}.md")
    return lesson["steps"]


def test_the_shipped_lessons_hold_back_what_their_first_steps_showed_too_early():
    lab = shipped("self-attention-lab")
    met = checked("self-attention-lab")[0].scene["tokens"].index("met")
    assert {"stage": "weights", "head": 0, "row": met, "until": lab[1]["id"]} in lab[0]["holds"], \
        "the lab's first heatmap drew the row step 2 asks"
    scratch = shipped("attention-from-scratch")
    where = next(step for step in scratch if step["id"] == "where-does-it-look")
    assert any(hold["until"] == where["id"] and hold["stage"] == "weights" for hold in scratch[0]["holds"])


def test_in_both_lessons_nothing_a_question_asks_is_shown_on_its_scene_before_it():
    """The spoiler check over both lessons: for every question and every step before it on the same scene, what it
    asks about (a stage, or a row or a head of the weights) is held there, or an earlier question on that scene has
    already shown it."""
    for lesson_id in ("attention-from-scratch", "self-attention-lab"):
        steps, compiled_steps = checked(lesson_id), shipped(lesson_id)
        scenes = [json.dumps(step.scene, sort_keys=True) for step in steps]
        for later, step in enumerate(steps):
            for part in parts_asked(step.question, step.scene):
                for before in range(later):
                    if scenes[before] != scenes[later]:
                        continue
                    shown = any(seen.covers(part) for k in range(before + 1) if scenes[k] == scenes[later]
                                for seen in parts_revealed(steps[k].question, steps[k].scene))
                    held = any(Part(hold["stage"], hold.get("head"), hold.get("row")).covers(part)
                               for hold in compiled_steps[before]["holds"])
                    assert shown or held, f"{lesson_id}: step {before + 1} shows {part} that step {later + 1} asks about"


def test_the_trained_scene_holds_each_later_row_and_head_and_shows_the_rest():
    """The lab's trained scene asks, in turn, about the second “fox” in head 0, the second “the” in head 0, every
    row of head 3 (the sink) and the second “fox” in head 2. Step 9's reveal shows its own row and holds the other
    three parts (it showed the second “the” at 1.000 on “fox”, step 10's answer); each later step holds what is
    still to be asked."""
    steps, compiled_steps = checked("self-attention-lab"), shipped("self-attention-lab")
    at = next(i for i, step in enumerate(compiled_steps) if step["id"] == "a-trained-model-on-a-repeated-noun")
    tokens = list(steps[at].scene["tokens"])
    second = lambda word: [i for i, token in enumerate(tokens) if token == word][1]  # noqa: E731
    early, sink, weight_one = (compiled_steps[at + k]["id"] for k in (1, 2, 3))
    assert compiled_steps[at]["holds"] == [
        {"stage": "weights", "head": 0, "row": second("the"), "until": early},
        {"stage": "weights", "head": 3, "until": sink},
        {"stage": "weights", "head": 2, "row": second("fox"), "until": weight_one},
    ]
    assert compiled_steps[at + 1]["holds"] == compiled_steps[at]["holds"][1:], "answered, the second “the” shows"
    assert compiled_steps[at + 2]["holds"] == compiled_steps[at]["holds"][2:]
    assert compiled_steps[at + 3]["holds"] == []


def test_a_question_names_the_row_and_head_it_reads_and_a_stage_elsewhere():
    scene = {"tokens": ["a", "b", "a"], "heads": [{"name": "h0"}, {"name": "h1"}]}
    assert parts_asked({"kind": "pick", "row": "a#2", "head": 1}, scene) == (Part("weights", 1, 2),)
    assert parts_asked({"kind": "choose", "measure": {"of": "reads-most", "column": "a", "head": 1}}, scene) == \
        (Part("weights", 1, None),)
    assert parts_asked({"kind": "compute", "stage": "scores", "row": "b", "column": "a"}, scene) == (Part("scores"),)
    assert parts_asked({"kind": "pick", "row": "nowhere"}, scene) == (Part("weights"),), "a row it cannot find: all"
    assert parts_asked({"kind": "pick", "row": "b", "variant": {"scale": False}}, scene) == ()
    assert Part("weights").covers(Part("weights", 1, 2)) and not Part("weights", 1).covers(Part("weights", 0, 2))
    assert parts_asked({"kind": "sketch", "row": "b"}) == (Part("weights"),), "without its scene: the whole stage"
    assert parts_revealed({"kind": "choose", "options": []}) == (Part("weights"),)


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


def test_a_step_whose_words_state_a_later_answer_is_a_mistake_naming_both_steps_and_the_number():
    """The numbers on screen are held back; words cannot be. A lesson whose first step's prose states the weight its
    third step asks for fails the check, with both steps and the number; the same lesson without it passes."""
    from attention_playground.lessons.checker import check_lesson, describe
    from attention_playground.lessons.words import number, percent

    clean = check_lesson(PLANTED, "planted.md")
    assert clean.problems == []
    weight_step = next(step for step in clean.steps if step.id == "then-a-weight")
    weight = weight_step.expected["value"]
    for written in (number(weight), percent(weight)):
        spoiled = PLANTED.replace("shown before they are asked.", f"shown before they are asked: “man” gives “dog” {written}.")
        lesson = check_lesson(spoiled, "planted.md")
        [line] = [describe(problem, "planted.md") for problem in lesson.problems]
        heading = spoiled.splitlines().index("## Look first") + 1
        assert line.startswith(f"planted.md:{heading}: step 1 (look-first): "), line
        assert f"its words say {written}, the answer step 3 (then-a-weight) asks for" in line, line


def test_a_number_counts_as_given_away_only_as_a_whole():
    """24.8% is not 4.8%, and 10.2483 is not 0.2483: a step's words give a later answer away only when they state
    that number itself."""
    from attention_playground.lessons.checker import check_lesson
    from attention_playground.lessons.words import number

    weight = next(step for step in check_lesson(PLANTED, "planted.md").steps if step.id == "then-a-weight").expected["value"]
    for around in (f"1{number(weight)}", f"{number(weight)}1"):
        spoiled = PLANTED.replace("shown before they are asked.", f"shown before they are asked: {around}.")
        assert check_lesson(spoiled, "planted.md").problems == [], around
