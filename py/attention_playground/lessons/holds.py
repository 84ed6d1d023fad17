"""What a step holds back: the numbers a later question asks about, on the same scene, kept hidden until it is answered.

A lesson asks before it shows. A question hides the numbers of its own step until the learner answers (the page
does that by itself), but an earlier step on the same scene would show them: the lab's first step drew the heatmap
whose row of “met” the second step asks the learner to sketch. So each step holds back the stages of the worked
computation that a later question on the same scene reads, until that question is answered:

    holds(steps)  ->  [[{"stage": "weights", "until": "what-the-third-word-reads"}, ...], ...]   one list per step

A stage is one the page draws (js/ui/teaching/step-view.js): Q, K, V, scores, scaled, masked, weights (the heatmap,
the bars and the weights table with it), output. A question about the exponentials or their total is about the
weights' stage, where the page works them out. Questions that compare a scene with a variant of it, or read a claim,
the shape of a table or a switch, ask about nothing drawn on the step's own scene, and hold nothing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

#: The page's stages a question about each stage of the lesson format reads (misconceptions.LESSON_STAGES).
SHOWN_AS = {
    "Q": ("Q",), "K": ("K",), "V": ("V",), "scores": ("scores",), "scaled": ("scaled", "masked"), "masked": ("masked",),
    "exp": ("weights",), "total": ("weights",), "weights": ("weights",), "output": ("output",),
}
#: The kinds of question that read a row or a cell of the weights (unless a measure says otherwise).
READS_THE_WEIGHTS = ("pick", "sketch", "estimate")


def stages_asked(question: Mapping[str, Any] | None) -> tuple[str, ...]:
    """The page's stages whose numbers answer `question` on its own scene; () when it asks about none."""
    if not question or "measure" in question or "variant" in question or question.get("by") == "effect":
        return ()
    if question["kind"] == "compute":
        return SHOWN_AS.get(question.get("stage", "weights"), ())
    if question["kind"] in READS_THE_WEIGHTS:
        return ("weights",)
    return ()


def same_scene_key(scene: Mapping[str, Any]) -> str:
    """What makes two steps' scenes the same numbers: everything but their names and words about them."""
    numbers = {key: value for key, value in scene.items() if key not in ("id", "title", "description")}
    return json.dumps(numbers, sort_keys=True)


#: Measures whose answer is not read off the scene's own weights: a claim's training, a table's shape, √d's trend.
NOT_READ_OFF_THE_WEIGHTS = ("claim", "shape", "scaling", "scaling-trend")


def stages_revealed(question: Mapping[str, Any] | None) -> tuple[str, ...]:
    """The stages a question's reveal shows once answered: those it asks about, or the weights, where a choice about
    them (which word is read most, what the mask leaves, what a switch does to a weight) is seen to be right."""
    asked = stages_asked(question)
    if asked or not question or question["kind"] == "build":
        return asked
    if question.get("measure", {}).get("of") in NOT_READ_OFF_THE_WEIGHTS:
        return ()
    return ("weights",)


def holds(steps: Sequence[tuple[str, Mapping[str, Any], Mapping[str, Any] | None]]) -> list[list[dict[str, str]]]:
    """For each of `steps` ((id, scene shown, question) in order), the stages it holds back and until which later
    step: every stage a later question reads on the same scene, until the first such question, but those a question
    up to this one on that scene has revealed (its own too: answered, its reveal shows them; what a later question
    asks of them is then to be worked out, not guessed, and hiding them again would only confuse)."""
    keys = [same_scene_key(scene) for _, scene, _ in steps]
    revealed: dict[str, set[str]] = {}
    held = []
    for index, key in enumerate(keys):
        shown = revealed.setdefault(key, set())
        shown.update(stages_revealed(steps[index][2]))
        until: dict[str, str] = {}  # each stage held until the first later question on it: its reveal shows it
        for later in range(index + 1, len(steps)):
            step_id, _, question = steps[later]
            if keys[later] == key:
                for stage in stages_asked(question):
                    if stage not in shown:
                        until.setdefault(stage, step_id)
        held.append([{"stage": stage, "until": step_id} for stage, step_id in until.items()])
    return held
