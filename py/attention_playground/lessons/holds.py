"""What a step holds back: the numbers a later question asks about, on the same scene, kept hidden until it is answered.

A lesson asks before it shows. A question hides the numbers of its own step until the learner answers (the page
does that by itself), but an earlier step on the same scene would show them: the lab's first step drew the heatmap
whose row of “met” the second step asks the learner to sketch. So each step holds back what a later question on the
same scene reads, until that question is answered:

    holds(steps)  ->  [[{"stage": "weights", "head": 0, "row": 3, "until": "what-the-third-word-reads"}, ...], ...]

one list per step. A hold names a stage of the worked computation the page draws (js/ui/teaching/step-view.js): Q, K,
V, scores, scaled, masked, weights (the heatmap, the bars and the weights table with it), output. A hold on the
weights names the head and the row a question reads where it names them (a pick of the word “it” reads most in head 0
is about that one row of that one head), so the rest of the heatmap still shows: the lab's trained scene asks about
one row of head 0, then another row of head 0, then all of head 3, then one row of head 2, and each answer reveals
its own part and no other. A hold with neither is the whole stage (every head, every row).

A question about the exponentials or their total is about the weights' stage, where the page works them out.
Questions that compare a scene with a variant of it, or read a claim, the shape of a table or a switch, ask about
nothing drawn on the step's own scene, and hold nothing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from .mistakes import LessonInputError
from .variants import find_head, plain
from .words import find_word

#: The page's stages a question about each stage of the lesson format reads (misconceptions.LESSON_STAGES).
SHOWN_AS = {
    "Q": ("Q",), "K": ("K",), "V": ("V",), "scores": ("scores",), "scaled": ("scaled", "masked"), "masked": ("masked",),
    "exp": ("weights",), "total": ("weights",), "weights": ("weights",), "output": ("output",),
}
#: The kinds of question that read a row or a cell of the weights (unless a measure says otherwise).
READS_THE_WEIGHTS = ("pick", "sketch", "estimate")
#: Measures read off the scene's own weights, in the head they name (every row, or the row they name).
MEASURES_OF_THE_WEIGHTS = ("reads-most", "top")


class Part(NamedTuple):
    """What a question reads, or a reveal shows: a stage, in one head (None: every head), one row (None: every row)."""

    stage: str
    head: int | None = None
    row: int | None = None

    def covers(self, other: Part) -> bool:
        return (self.stage == other.stage and self.head in (None, other.head) and self.row in (None, other.row))

    def as_hold(self, until: str) -> dict[str, Any]:
        hold: dict[str, Any] = {"stage": self.stage}
        if self.head is not None:
            hold["head"] = self.head
        if self.row is not None:
            hold["row"] = self.row
        hold["until"] = until
        return hold


def _weights_part(spec: Mapping[str, Any], scene: Mapping[str, Any] | None) -> Part:
    """The weights of the head and the row `spec` names, in `scene`; the whole stage where they cannot be told."""
    if scene is None:
        return Part("weights")
    try:
        head = find_head(0 if spec.get("head") is None else spec["head"], plain(scene), "head")
        row = find_word(spec["row"], scene["tokens"], "row") if spec.get("row") is not None else None
    except (LessonInputError, KeyError, TypeError):
        return Part("weights")  # the checker names the mistake; here, hold everything rather than guess
    return Part("weights", head, row)


def parts_asked(question: Mapping[str, Any] | None, scene: Mapping[str, Any] | None = None) -> tuple[Part, ...]:
    """What answers `question` on its own scene; () when it asks about nothing drawn there."""
    if not question or "variant" in question or question.get("by") == "effect":
        return ()
    measure = question.get("measure")
    if measure is not None:
        if measure.get("of") in MEASURES_OF_THE_WEIGHTS and "variant" not in measure:
            return (_weights_part(measure, scene),)
        return ()
    if question["kind"] == "compute":
        stages = SHOWN_AS.get(question.get("stage", "weights"), ())
        return tuple(_weights_part(question, scene) if stage == "weights" else Part(stage) for stage in stages)
    if question["kind"] in READS_THE_WEIGHTS:
        return (_weights_part(question, scene),)
    return ()


def same_scene_key(scene: Mapping[str, Any]) -> str:
    """What makes two steps' scenes the same numbers: everything but their names and words about them."""
    numbers = {key: value for key, value in scene.items() if key not in ("id", "title", "description")}
    return json.dumps(numbers, sort_keys=True)


#: Measures whose answer is not read off the scene's own weights: a claim's training, a table's shape, √d's trend.
NOT_READ_OFF_THE_WEIGHTS = ("claim", "shape", "scaling", "scaling-trend")


def parts_revealed(question: Mapping[str, Any] | None, scene: Mapping[str, Any] | None = None) -> tuple[Part, ...]:
    """What a question's reveal shows once answered: what it asks about, or else the weights, where a choice about
    them (what the mask leaves, what a switch does to a weight) is seen to be right."""
    asked = parts_asked(question, scene)
    if asked or not question or question["kind"] == "build":
        return asked
    if question.get("measure", {}).get("of") in NOT_READ_OFF_THE_WEIGHTS:
        return ()
    return (Part("weights"),)


def holds(steps: Sequence[tuple[str, Mapping[str, Any], Mapping[str, Any] | None]]) -> list[list[dict[str, Any]]]:
    """For each of `steps` ((id, scene shown, question) in order), what it holds back and until which later step:
    every part a later question reads on the same scene, until the first such question, but those a question up to
    this one on that scene has revealed (its own too: answered, its reveal shows them; what a later question asks of
    them is then to be worked out, not guessed, and hiding them again would only confuse)."""
    keys = [same_scene_key(scene) for _, scene, _ in steps]
    revealed: dict[str, list[Part]] = {}
    held = []
    for index, key in enumerate(keys):
        shown = revealed.setdefault(key, [])
        shown.extend(parts_revealed(steps[index][2], steps[index][1]))
        until: dict[Part, str] = {}  # each part held until the first later question on it: its reveal shows it
        for later in range(index + 1, len(steps)):
            step_id, scene, question = steps[later]
            if keys[later] != key:
                continue
            for part in parts_asked(question, scene):
                if not any(seen.covers(part) for seen in shown):
                    until.setdefault(part, step_id)
        held.append([part.as_hold(step_id) for part, step_id in until.items()])
    return held
