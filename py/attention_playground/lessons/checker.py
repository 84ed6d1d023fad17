"""Every mistake in a lesson file, each named by its line, its step and its key, before anything reaches a learner.

`check_lesson(text, name)` reads the file (format.py), then checks each step as the page will use it: its scene
resolved (sources.py) and checked by the module's own validation, its panels, focus and head, and its question
read as the page's copy will be read (questions.read_question) and then asked on the step's scene, so that every
expected answer is computed once here:

- a pick must have one top word (not a tie), a computed number must be a number, a sketch's row numbers;
- a multiple choice's computed options must show different numbers, and exactly one statement option must name
  what the measure gives (for a claim, which only the page's training decides, every outcome exactly once);
- a build's scene must not meet the target already, and its `solution` (edits, never sent to the page) must reach
  it within `max_edits` and `fields`.

A step without `scene` keeps the scene of the step before it, as the page does (the learner's edits included); it
is checked on that step's scene.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..scene import SceneError
from .format import Block, LessonFile, Problem, Step, prose, read_lesson
from .measures import NEEDS_EVIDENCE, SceneAtHand
from .mistakes import LessonInputError
from .questions import expected, read_question
from .spoilers import answers_given_away
from .sources import SceneFiles, Source, resolve_scene
from .variants import apply_edits, changed_cells
from .words import describe_value, find_word, quote, whole_number

#: The page's panels, by the names links and embed mode use (js/layout/view.js: PANEL_SELECTORS; a test ties them).
PANELS = ("presets", "controls", "notes", "heatmap", "bars", "features", "weights", "steps", "heads", "experiments",
          "model", "exercise")
#: The tabs of the experiments panel (js/ui/teaching/experiments.js; a test ties them).
EXPERIMENTS = ("one-thing", "scaling", "order", "knockout")
#: An id: of a lesson (its file name) and of a step.
ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
#: The keys of a ```step block, and of the ```lesson block.
STEP_KEYS = ("id", "scene", "panels", "focus", "head", "model", "experiment", "exercise", "claim", "question")
LESSON_KEYS = ("source", "summary")
#: Keys of a question that are for the learner's eyes or the checker's, never judged: the compiled lesson keeps the
#: first three beside the question, and never the solution.
PRESENTATION_KEYS = ("ask", "explain", "hints")
AUTHOR_KEYS = (*PRESENTATION_KEYS, "solution")
#: The keys of a step's `model` table (the trained model's panel).
MODEL_KEYS = ("name", "words", "head", "knocked_out", "focus")
#: The models a step may open: the story world's (as shipped: the default) and the English one.
MODEL_NAMES = ("shipped", "english")


def _config_and_reader(name: str):
    """The shape of the model a step opens, and a function that reads its text into the tokens the panel shows,
    `<bos>` first (a SceneError for text it cannot take). Read only for a step that uses a model; the English
    model's weights are not read at all (its settings and tokenizer say all the checker needs, and are all the page
    fetches to check a lesson)."""
    if name == "english":
        from ..english.checkpoint import shipped_settings  # noqa: PLC0415
        from ..english.requests import encode_text, shown  # noqa: PLC0415
        from ..model.config import TrainConfig  # noqa: PLC0415

        config = TrainConfig.from_dict(shipped_settings()["config"])
        return config, lambda text: [shown(piece) for piece in encode_text(text, config.max_words)[0]]
    from ..model import load_model  # noqa: PLC0415
    from ..model.transformer import encode  # noqa: PLC0415

    shipped = load_model()
    return shipped.config, lambda text: [shipped.vocabulary[i] for i in encode(shipped, text).tolist()]
_MODEL_HEAD = re.compile(r"^L(\d)H(\d)$")


@dataclass
class CheckedStep:
    """A step as the page will have it, every part checked."""

    step: Step
    id: str
    scene: dict[str, Any]  # the scene the step shows: its own, or the one it keeps
    reference: dict[str, Any] | None  # how the compiled lesson points at its own scene; None: it keeps the last
    settings: dict[str, Any] = field(default_factory=dict)  # panels, focus, head, model, experiment, exercise, claim
    question: dict[str, Any] | None = None  # the public question: what the page sends back to be judged
    presentation: dict[str, Any] = field(default_factory=dict)  # ask, explain, hints as prose trees
    expected: dict[str, Any] | None = None  # what the checker computed (never compiled)


@dataclass
class CheckedLesson:
    """A lesson file, read and checked: its mistakes, and (when there are none) everything compile.py writes."""

    id: str
    file: LessonFile
    source: str | None = None
    summary: str | None = None
    steps: list[CheckedStep] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def slug(title: str) -> str:
    """A step's default id: its title in lower case, letters and digits joined by hyphens."""
    words = re.findall(r"[a-z0-9]+", title.lower().replace("√", " root ").replace("÷", " divided by "))
    return "-".join(words)[:64].strip("-") or "step"


class _StepChecker:
    """Checks one step; its problems carry the step's number and id and the line of the key at fault."""

    def __init__(self, lesson: CheckedLesson, step: Step, previous: CheckedStep | None, files: SceneFiles | None):
        self.lesson, self.step, self.previous, self.files = lesson, step, previous, files
        self.block: Block = step.block
        self.data: dict[str, Any] = step.block.data or {}
        self.id = step.title and slug(step.title)

    def problem(self, field: str | None, message: str) -> None:
        self.lesson.problems.append(Problem(self.block.line_of(field), message, field, self.step.number, self.id))

    def run(self) -> CheckedStep | None:
        data = self.data
        for key in data:
            if key not in STEP_KEYS:
                self.problem(key, f"a step has no key {quote(str(key))}; it may have {', '.join(STEP_KEYS)}")
        if "id" in data:
            if isinstance(data["id"], str) and ID.match(data["id"]):
                self.id = data["id"]
            else:
                self.problem("id", f"an id is lower-case letters, digits and hyphens; got {describe_value(data['id'])}")
        if self.id in [checked.id for checked in self.lesson.steps]:
            self.problem("id" if "id" in data else None, f"two steps have the id {quote(self.id)}: give this one its "
                                                         "own (id = \"…\")")
        scene, reference = self.scene()
        if scene is None:
            return None
        checked = CheckedStep(self.step, self.id, scene, reference)
        at = SceneAtHand(scene)
        self.settings(checked, at)
        if "question" in data:
            self.question(checked, at)
        return checked

    def scene(self) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        if "scene" not in self.data:
            if self.previous is None:
                self.problem(None, "the first step needs a scene: an example's id, a link, or a [scene] table")
                return None, None
            return self.previous.scene, None
        try:
            source: Source = resolve_scene(self.data["scene"], self.files)
        except LessonInputError as error:
            self.problem(error.field or "scene", error.message)
            return None, None
        return source.scene, source.reference

    def settings(self, checked: CheckedStep, at: SceneAtHand) -> None:
        data, settings = self.data, checked.settings
        if "panels" in data:
            panels = data["panels"]
            if not isinstance(panels, list) or not panels or any(p not in PANELS for p in panels) \
                    or len(set(panels)) != len(panels):
                self.problem("panels", f"panels lists the panels to show, each once, among {', '.join(PANELS)}; got "
                                       f"{describe_value(panels)}")
            else:
                settings["panels"] = list(panels)
        if "focus" in data:
            try:
                index = find_word(data["focus"], at.tokens, "focus")
                settings["focus"] = {"word": data["focus"], "index": index}
            except LessonInputError as error:
                self.problem("focus", error.message)
        if "head" in data:
            head = data["head"]
            if whole_number(head) and 0 <= head < len(at.computed.heads):
                settings["head"] = int(head)
            else:
                self.problem("head", f"head is the scene's head to show, counted from 0 (this scene has "
                                     f"{len(at.computed.heads)}); the trained model's head goes in model.head")
        for key, known in (("experiment", EXPERIMENTS), ("exercise", _exercise_ids()), ("claim", _claim_ids())):
            if key in data:
                if data[key] in known:
                    settings[key] = data[key]
                else:
                    self.problem(key, f"{key} is one of {', '.join(known)}; got {describe_value(data[key])}")
        if "model" in data:
            self.model(data["model"], settings)

    def model(self, value: Any, settings: dict[str, Any]) -> None:
        if not isinstance(value, Mapping):
            self.problem("model", "model is a table {name, words, head, knocked_out} for the trained model's panel")
            return
        for key in value:
            if key not in MODEL_KEYS:
                self.problem(f"model.{key}", f"model has no key {quote(str(key))}; it takes {', '.join(MODEL_KEYS)}")
                return
        name = value.get("name", "shipped")
        if name not in MODEL_NAMES:
            self.problem("model.name", f"model.name is {' or '.join(map(quote, MODEL_NAMES))}; got {describe_value(name)}")
            return
        config, read = _config_and_reader(name)
        shown = {} if name == "shipped" else {"name": name}
        for key in ("head", "knocked_out"):
            if key not in value:
                continue
            heads = value[key] if key == "knocked_out" else [value[key]]
            if not isinstance(heads, list) or not all(isinstance(h, str) for h in heads):
                self.problem(f"model.{key}", f"model.{key} names heads as \"L1H2\" (layer 1, head 2)")
                return
            for name in heads:
                found = _MODEL_HEAD.match(name)
                if not found or int(found[1]) >= config.n_layers or int(found[2]) >= config.n_heads:
                    self.problem(f"model.{key}", f"{quote(name)} is not a head of the trained model: L0H0 to "
                                                 f"L{config.n_layers - 1}H{config.n_heads - 1}")
                    return
            shown[key] = value[key]
        if "words" in value:
            try:
                if not isinstance(value["words"], str):
                    raise ValueError("model.words is the sentence, as text")
                tokens = read(value["words"])
            except (ValueError, SceneError) as error:
                self.problem("model.words", getattr(error, "message", str(error)))
                return
            shown["words"] = value["words"]
            if "focus" in value:
                try:  # the position the panel's predictions and bars show, as a word of the model's reading
                    shown["focus"] = find_word(value["focus"], tokens, "model.focus")
                except LessonInputError as error:
                    self.problem("model.focus", error.message)
                    return
        elif "focus" in value:
            self.problem("model.focus", "model.focus names a word of model.words: give the words too")
            return
        settings["model"] = shown

    def question(self, checked: CheckedStep, at: SceneAtHand) -> None:
        table = self.data["question"]
        if not isinstance(table, Mapping):
            self.problem("question", "question is a table: [question] with its kind and what the kind needs")
            return
        public = {key: value for key, value in table.items() if key not in AUTHOR_KEYS}
        try:
            public = read_question(public)
        except LessonInputError as error:
            self.problem(f"question.{error.field}" if error.field else "question", error.message)
            return
        kind = public["kind"]
        if "ask" not in table:
            self.problem("question", "a question needs its ask: the question as the learner reads it")
            return
        for key in PRESENTATION_KEYS:
            if key in table:
                self.presentation(checked, key, table[key])
        if "solution" in table and kind != "build":
            self.problem("question.solution", "only a build has a solution (the edits that reach its target)")
        checked.question = public
        try:
            checked.expected = expected(public, at.plain)
        except LessonInputError as error:
            if error.field and error.field.startswith("evidence") and public.get("measure", {}).get(
                    "of") in NEEDS_EVIDENCE:
                return  # decided by the claim's test in the page: read_question checked its options cover it
            self.problem(f"question.{error.field}" if error.field else "question", error.message)
            return
        getattr(self, f"expect_{kind}")(checked, at, table)

    def presentation(self, checked: CheckedStep, key: str, value: Any) -> None:
        texts = value if key == "hints" else [value]
        if key == "hints" and (not isinstance(value, list) or not value):
            self.problem("question.hints", "hints is a list of texts, given one at a time")
            return
        trees = []
        for i, text in enumerate(texts):
            field = f"question.{key}[{i}]" if key == "hints" else f"question.{key}"
            if not isinstance(text, str) or not text.strip():
                self.problem(field, f"{key} is Markdown text; got {describe_value(text)}")
                return
            problems: list[Problem] = []
            tree = prose(text, problems, self.block.line_of(field))
            for found in problems:
                self.lesson.problems.append(found._replace(field=field, step=self.step.number, step_id=self.id))
            trees.append(tree)
        checked.presentation[key] = trees if key == "hints" else trees[0]

    def expect_pick(self, checked, at, table) -> None:
        tied = checked.expected["tied"]
        if len(tied) > 1:
            self.problem("question.row", f"{quote(at.tokens[checked.expected['row']])} has no one answer here: "
                                         f"{' and '.join(quote(at.tokens[i]) for i in tied)} tie")

    def expect_estimate(self, checked, at, table) -> None:
        self._finite(checked.expected["value"], "question")

    def expect_compute(self, checked, at, table) -> None:
        self._finite(checked.expected["value"], "question.row")

    def expect_sketch(self, checked, at, table) -> None:
        pass  # a row that is not numbers was refused when it was computed

    def _finite(self, value: float, field: str) -> None:
        if value != value or value in (float("inf"), float("-inf")):
            self.problem(field, "the answer is not a number in this scene: ask about another cell")

    def expect_choose(self, checked, at, table) -> None:
        found = checked.expected
        if "options" in found:
            shown: dict[str, str] = {}
            for i, option in enumerate(found["options"]):
                if option["text"] in ("not a number", "infinity", "minus infinity"):
                    self.problem(f"question.options[{i}]", f"{quote(option['id'])} gives no number here")
                elif option["text"] in shown:
                    self.problem(f"question.options[{i}]", f"{quote(option['id'])} and {quote(shown[option['text']])} "
                                                           f"both give {option['text']} here: the learner could not "
                                                           "tell them apart")
                shown.setdefault(option["text"], option["id"])
            return
        right = found["right"]
        if len(right) != 1:
            said = f"{len(right)} options name it" if right else "no option names it"
            self.problem("question.options", f"exactly one option must name what the measure gives ("
                                             f"{describe_value(found['measured'])}); {said}. {found['sentence']}")

    def expect_build(self, checked, at, table) -> None:
        conditions = checked.expected["conditions"]
        if all(condition["met"] for condition in conditions):
            self.problem("question.conditions", "the step's scene already meets this target: "
                         + "; ".join(condition["sentence"] for condition in conditions))
        if "solution" not in table:
            self.problem("question", "a build needs its solution: the edits that reach the target (never sent to "
                                     "the page)")
            return
        try:
            solved = apply_edits(at.plain, table["solution"], "question.solution")
            solved_at = SceneAtHand(solved)
            edits = changed_cells(at.computed.scene, solved_at.computed.scene)
        except LessonInputError as error:
            self.problem(error.field or "question.solution", error.message)
            return
        except SceneError as error:
            self.problem("question.solution", f"the solution makes a scene the module refuses: {error.message}")
            return
        reached = expected(checked.question, solved)["conditions"]
        unmet = [condition["sentence"] for condition in reached if not condition["met"]]
        if unmet:
            self.problem("question.solution", "the solution does not reach the target: " + "; ".join(unmet))
        total = sum(edits.values())
        if total > checked.question.get("max_edits", total):
            self.problem("question.solution", f"the solution changes {total} cells; the target allows "
                                              f"{checked.question['max_edits']}")
        outside = [name for name in edits if name not in checked.question.get("fields", list(edits))]
        if outside:
            self.problem("question.solution", f"the solution changes {', '.join(outside)}, which fields does not "
                                              "allow")


def _exercise_ids() -> tuple[str, ...]:
    from ..exercises.catalogue import EXERCISES  # noqa: PLC0415

    return tuple(EXERCISES)


def _claim_ids() -> tuple[str, ...]:
    from ..model.claims import CLAIMS  # noqa: PLC0415

    return tuple(CLAIMS)


def _check_meta(lesson: CheckedLesson) -> None:
    meta = lesson.file.meta
    if meta is None or meta.data is None:
        return
    for key, value in meta.data.items():
        if key not in LESSON_KEYS:
            lesson.problems.append(Problem(meta.line_of(key), f"the lesson block has no key {quote(str(key))}; it "
                                                              f"may have {', '.join(LESSON_KEYS)}", key))
        elif not isinstance(value, str) or not value.strip() or len(value) > 1000:
            lesson.problems.append(Problem(meta.line_of(key), f"{key} is text of 1 to 1000 characters", key))
        else:
            setattr(lesson, key, value.strip())


def check_lesson(text: str, name: str, files: SceneFiles | None = None) -> CheckedLesson:
    """Read and check a lesson file's text; `name` is its file name (its stem is the lesson's id), `files` the scene
    files beside it (sources.py; without them a step that names one is a mistake)."""
    stem = re.sub(r"\.md$", "", name.replace("\\", "/").rsplit("/", 1)[-1])
    file = read_lesson(text, name)
    lesson = CheckedLesson(stem, file, problems=list(file.problems))
    if not ID.match(stem):
        lesson.problems.append(Problem(1, f"the file's name is the lesson's id: lower-case letters, digits and "
                                          f"hyphens, then .md; got {quote(name)}"))
    _check_meta(lesson)
    previous = None
    for step in file.steps:
        if step.block is None or step.block.data is None:
            continue  # its problem is already noted (no block, or TOML that could not be read)
        checked = _StepChecker(lesson, step, previous, files).run()
        if checked is not None:
            lesson.steps.append(checked)
            previous = checked
    lesson.problems.extend(answers_given_away(lesson.steps))
    ids = {step.number: slug(step.title) for step in file.steps} | {c.step.number: c.id for c in lesson.steps}
    lesson.problems = [problem if problem.step is None or problem.step_id else problem._replace(
        step_id=ids.get(problem.step)) for problem in lesson.problems]
    return lesson


def describe(problem: Problem, file: str) -> str:
    """One line for one mistake: FILE:LINE: step N (id): field: message."""
    where = f"{file}:{problem.line}: "
    if problem.step is not None:
        where += f"step {problem.step}" + (f" ({problem.step_id})" if problem.step_id else "") + ": "
    if problem.field:
        where += f"{problem.field}: "
    return where + problem.message


__all__ = ["EXPERIMENTS", "PANELS", "CheckedLesson", "CheckedStep", "check_lesson", "describe", "slug"]
