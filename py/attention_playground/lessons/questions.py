"""A lesson's questions: read (the page's copy is untrusted), asked, answered and judged, every expected answer
computed from the step's scene when it is asked for, never typed into the lesson.

    read_question(question)                          the question checked (LessonInputError naming the key)
    ask(question, scene)                             what the page shows before the learner answers
    answer(question, scene, value, evidence=None)    {correct, score, expected, feedback, ...}
    check_build(question, scene, start)              {correct, score, feedback, conditions, edits}
    expected(question, scene, evidence=None)         the expected answer alone (the checker asks for it)

The kinds (docs/lessons.md shows each with an example):

- pick: the word `row` reads most (weights of `head`), or, `by = "effect"`, whose knock-out moves its output most;
  `besides` leaves one word out of the running (`<bos>`, where a trained head parks what it has no use for);
  answered with a word or its 0-based column;
- estimate: a cell (`row`, `column`, `stage`) or a `measure` (a number: `cell` or `scaling`), answered with a
  number in `unit` ("percent" or "weight" for a weight, else "number"); the score falls from 1 at the truth to 0
  at `reach`, and the answer is right within `tolerance`;
- sketch: a whole row of weights, answered with one number per column (normalised to add up to 1); the score is 1
  minus the total variation distance between the two rows, right within `tolerance`;
- choose: options, answered with an option's id. Either `of` names a cell and the options are ways of computing
  it (misconceptions.MISCONCEPTIONS: "right", "no-scale", …), each option's number computed; or `measure` names a
  measure with outcomes (measures.OUTCOMES), a word or a shape, and each option {id, text, value, misconception}
  is right when its value is what the measure gives;
- compute: a number worked by hand (`stage` scores, scaled, exp, total, weights, output, …), right within
  `tolerance`; an answer that is another way of computing it (÷√d forgotten, …) is named;
- build: `conditions` the learner's scene must meet by editing (builds.py), in at most `max_edits` cells of the
  `fields` allowed; judged by `check_build`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..scene import SceneError
from .builds import CONDITION_KINDS, MAX_CONDITIONS, evaluate_condition, read_condition
from .measures import (
    NEEDS_EVIDENCE,
    OUTCOMES,
    VALUE_KINDS,
    WITHOUT_SCENE,
    Measured,
    SceneAtHand,
    cell_phrase,
    column_index,
    keys,
    measure,
    measure_kind,
    read_cell,
    stage_name,
    upper_first,
)
from .misconceptions import MISCONCEPTIONS
from .mistakes import LessonInputError
from .variants import EDIT_FIELDS, changed_cells
from .words import (
    answered_column,
    counted,
    describe_value,
    end_sentence,
    find_word,
    name_word,
    number,
    percent,
    quote,
    real_number,
    whole_number,
)

#: Every kind of question, in the order docs/lessons.md presents them.
KINDS = ("pick", "estimate", "sketch", "choose", "compute", "build")

#: The keys each kind takes besides "kind": (required, optional).
QUESTION_KEYS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "pick": (("row",), ("head", "by", "variant", "besides")),
    "estimate": ((), ("row", "column", "stage", "head", "variant", "measure", "unit", "tolerance", "reach")),
    "sketch": (("row",), ("head", "tolerance")),
    "choose": (("options",), ("of", "measure")),
    "compute": (("stage", "row"), ("column", "head", "tolerance")),
    "build": (("conditions",), ("max_edits", "fields")),
}

#: How an estimate is answered: a weight as a percentage (0-100) or as a weight (0-1), anything else as a number.
UNITS = ("percent", "weight", "number")
#: An estimate's default tolerance (right within it) and reach (its score falls to 0 there), by unit. A number's
#: are relative: 5% of the truth (at least 0.05) and five times that.
ESTIMATE_TOLERANCE = {"percent": 5.0, "weight": 0.05}
ESTIMATE_REACH = {"percent": 25.0, "weight": 0.25}
NUMBER_TOLERANCE = 0.05
#: A sketch is right when its total variation distance from the true row is at most this (a tenth of the weight
#: would have to move).
SKETCH_TOLERANCE = 0.1
#: A computed answer is right within this of the truth, or within COMPUTE_RELATIVE of it, whichever is larger:
#: half a unit of the fourth decimal, as the tutorials print.
COMPUTE_TOLERANCE = 0.0005
COMPUTE_RELATIVE = 1e-4
#: How many options a choice may have, and how long a text in a question may be.
MIN_OPTIONS, MAX_OPTIONS = 2, 8
MAX_TEXT = 500
#: An option's id: what the page sends back as the answer.
OPTION_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")


# ------------------------------------------------------------------------------------------------------------
# Reading a question


def _positive(question: Mapping[str, Any], key: str, most: float | None = None) -> None:
    if key in question:
        value = question[key]
        if not real_number(value) or value <= 0 or (most is not None and value > most):
            limit = f" and at most {most:g}" if most is not None else ""
            raise LessonInputError(f"{key} is a number above 0{limit}; got {describe_value(value)}", key)


def _text(value: Any, field: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
        raise LessonInputError(f"{field} is text of 1 to {MAX_TEXT} characters; got {describe_value(value)}", field)
    return value


def _read_options_of(question: Mapping[str, Any]) -> None:
    of = question["of"]
    if not isinstance(of, Mapping):
        raise LessonInputError(f"of names a cell, {{stage, row, column}}; got {describe_value(of)}", "of")
    try:
        keys(of, ("stage", "row"), ("column", "head", "variant"), "of")
        stage_name(of["stage"])
    except LessonInputError as error:
        raise error.within("of") from None
    options = question["options"]
    if not isinstance(options, list) or not MIN_OPTIONS <= len(options) <= MAX_OPTIONS:
        raise LessonInputError(f"options is a list of {MIN_OPTIONS} to {MAX_OPTIONS} ways of computing the cell, "
                               f"such as [\"right\", \"no-scale\"]; got {describe_value(options)}", "options")
    for i, option in enumerate(options):
        if not isinstance(option, str) or option not in MISCONCEPTIONS:
            raise LessonInputError(f"{describe_value(option)} is not a way of computing the module knows; they are "
                                   f"{', '.join(MISCONCEPTIONS)}", f"options[{i}]")
        if options.index(option) != i:
            raise LessonInputError(f"{quote(option)} is offered twice", f"options[{i}]")
    if "right" not in options:
        raise LessonInputError("the options must include \"right\": the cell computed as the module computes it",
                               "options")
    if of["stage"] == "output" and "rows-and-columns-swapped" in options:
        raise LessonInputError("rows-and-columns-swapped swaps the words of a word × word table; an output's columns "
                               "are not words", f"options[{options.index('rows-and-columns-swapped')}]")


def _read_option_value(value: Any, of: str, field: str) -> None:
    kind = VALUE_KINDS[of]
    if kind == "outcome" and value not in OUTCOMES[of]:
        raise LessonInputError(f"{describe_value(value)} is not an outcome of {quote(of)}; it gives "
                               f"{', '.join(OUTCOMES[of])}", field)
    if kind == "shape" and not (isinstance(value, list) and 1 <= len(value) <= 2
                                and all(whole_number(n) and n >= 1 for n in value)):
        raise LessonInputError(f"a shape is [rows, columns]; got {describe_value(value)}", field)
    if kind == "word" and not (isinstance(value, str) or whole_number(value)):
        raise LessonInputError(f"this measure gives a word: name it as the scene does; got {describe_value(value)}",
                               field)


def _read_options_measured(question: Mapping[str, Any]) -> None:
    of = measure_kind(question["measure"])
    if VALUE_KINDS[of] == "number":
        raise LessonInputError(f"the measure {quote(of)} gives a number: ask for it with estimate or compute, or "
                               "offer its ways of computing with `of`", "measure.of")
    options = question["options"]
    if not isinstance(options, list) or not MIN_OPTIONS <= len(options) <= MAX_OPTIONS:
        raise LessonInputError(f"options is a list of {MIN_OPTIONS} to {MAX_OPTIONS} tables {{id, text, value, "
                               f"misconception}}; got {describe_value(options)}", "options")
    seen = set()
    for i, option in enumerate(options):
        field = f"options[{i}]"
        if not isinstance(option, Mapping):
            raise LessonInputError(f"an option is a table {{id, text, value, misconception}}; got "
                                   f"{describe_value(option)}", field)
        try:
            keys(option, ("id", "text", "value"), ("misconception",), "an option")
        except LessonInputError as error:
            raise error.within(field) from None
        if not isinstance(option["id"], str) or not OPTION_ID.match(option["id"]):
            raise LessonInputError(f"an option's id is lower-case letters, digits and hyphens; got "
                                   f"{describe_value(option['id'])}", f"{field}.id")
        if option["id"] in seen:
            raise LessonInputError(f"two options have the id {quote(option['id'])}", f"{field}.id")
        seen.add(option["id"])
        _text(option["text"], f"{field}.text")
        if "misconception" in option:
            _text(option["misconception"], f"{field}.misconception")
        _read_option_value(option["value"], of, f"{field}.value")
    if of in NEEDS_EVIDENCE:
        # Nothing can be computed before the test has run: whatever it gives, exactly one option must name it.
        named = [option["value"] for option in options]
        for outcome in OUTCOMES[of]:
            if named.count(outcome) != 1:
                raise LessonInputError(f"a claim's test may give any of {', '.join(OUTCOMES[of])}, so each must be "
                                       f"the value of exactly one option; {quote(outcome)} is the value of "
                                       f"{named.count(outcome)}", "options")


def _read_estimate(question: Mapping[str, Any]) -> None:
    if "measure" in question:
        for key in ("row", "column", "stage", "head", "variant"):
            if key in question:
                raise LessonInputError(f"an estimate names its cell (row, column, stage) or a measure, not both; "
                                       f"{quote(key)} belongs in the measure", key)
        of = measure_kind(question["measure"])
        if VALUE_KINDS[of] != "number":
            raise LessonInputError(f"an estimate asks for a number; the measure {quote(of)} gives "
                                   f"{VALUE_KINDS[of] if VALUE_KINDS[of] != 'outcome' else 'an outcome'}", "measure.of")
    else:
        for key in ("row", "column"):
            if key not in question:
                raise LessonInputError(f"an estimate of a cell needs its {key} (or name a measure instead)", key)
        stage_name(question.get("stage", "weights"))
    if "unit" in question and question["unit"] not in UNITS:
        raise LessonInputError(f"unit is one of {', '.join(UNITS)}; got {describe_value(question['unit'])}", "unit")
    unit = estimate_unit(question)
    if unit != "number" and not _estimates_a_weight(question):
        raise LessonInputError(f"unit {quote(unit)} is for a weight; this estimate asks for a number", "unit")
    _positive(question, "tolerance")
    _positive(question, "reach")
    if "tolerance" in question and "reach" in question and question["reach"] <= question["tolerance"]:
        raise LessonInputError("reach (where the score falls to 0) must be larger than the tolerance", "reach")


def _estimates_a_weight(question: Mapping[str, Any]) -> bool:
    if "measure" in question:
        spec = question["measure"]
        return spec.get("of") == "scaling" or (spec.get("of") == "cell" and spec.get("stage", "weights") == "weights")
    return question.get("stage", "weights") == "weights"


def estimate_unit(question: Mapping[str, Any]) -> str:
    """The unit an estimate is answered in: its own, else percent for a weight and number for anything else."""
    return question.get("unit", "percent" if _estimates_a_weight(question) else "number")


def read_question(question: Any) -> dict[str, Any]:
    """Check a question's form: its kind, its keys and every value that does not depend on the scene. Raises
    LessonInputError naming the key at fault; returns the question as a dict."""
    if not isinstance(question, Mapping):
        raise LessonInputError(f"a question is a table with a kind; got {describe_value(question)}", None)
    kind = question.get("kind")
    if kind not in KINDS:
        raise LessonInputError(f"kind is one of {', '.join(KINDS)}; got {describe_value(kind)}", "kind")
    required, optional = QUESTION_KEYS[kind]
    keys({k: v for k, v in question.items() if k != "kind"}, required, optional, f"a {kind} question")
    if "head" in question and not (whole_number(question["head"]) or isinstance(question["head"], str)):
        raise LessonInputError(f"head is a head's number counted from 0 or its name; got "
                               f"{describe_value(question['head'])}", "head")
    if kind == "pick":
        if question.get("by", "weight") not in ("weight", "effect"):
            raise LessonInputError(f"by is \"weight\" or \"effect\"; got {describe_value(question['by'])}", "by")
        if question.get("by") == "effect" and "head" in question:
            raise LessonInputError("a knock-out moves every head's output: a pick by effect has no head", "head")
        if "besides" in question and not isinstance(question["besides"], str):
            raise LessonInputError(f"besides is the word left out of the running, as text (\"<bos>\"); got "
                                   f"{describe_value(question['besides'])}", "besides")
    elif kind == "estimate":
        _read_estimate(question)
    elif kind == "sketch":
        _positive(question, "tolerance", most=1)
    elif kind == "choose":
        if ("of" in question) == ("measure" in question):
            raise LessonInputError("a choice has either `of` (a cell, with ways of computing it as options) or "
                                   "`measure` (with options that name its value)", "of" if "of" in question else None)
        if "of" in question:
            _read_options_of(question)
        else:
            _read_options_measured(question)
    elif kind == "compute":
        stage = stage_name(question["stage"])
        if stage == "total" and "column" in question:
            raise LessonInputError("a row's total is one number: it has no column", "column")
        if stage != "total" and "column" not in question:
            raise LessonInputError(f"a cell of {stage} needs its column", "column")
        _positive(question, "tolerance")
    elif kind == "build":
        _read_build(question)
    return dict(question)


def _read_build(question: Mapping[str, Any]) -> None:
    conditions = question["conditions"]
    if not isinstance(conditions, list) or not 1 <= len(conditions) <= MAX_CONDITIONS:
        raise LessonInputError(f"conditions is a list of 1 to {MAX_CONDITIONS} conditions ({', '.join(CONDITION_KINDS)}"
                               f"); got {describe_value(conditions)}", "conditions")
    for i, condition in enumerate(conditions):
        read_condition(condition, f"conditions[{i}]")
    if "max_edits" in question and not (whole_number(question["max_edits"]) and question["max_edits"] >= 1):
        raise LessonInputError(f"max_edits is a whole number of at least 1; got "
                               f"{describe_value(question['max_edits'])}", "max_edits")
    if "fields" in question:
        fields = question["fields"]
        if not isinstance(fields, list) or not fields or any(field not in EDIT_FIELDS for field in fields) \
                or len(set(fields)) != len(fields):
            raise LessonInputError(f"fields lists what the learner may change, each once, among "
                                   f"{', '.join(EDIT_FIELDS)}; got {describe_value(fields)}", "fields")


# ------------------------------------------------------------------------------------------------------------
# What each kind expects, computed from the scene


def _scene_at(scene: Any) -> SceneAtHand:
    return SceneAtHand(scene)  # SceneError for a scene the module refuses: the page's own message


def _pick_measured(question: Mapping[str, Any], at: SceneAtHand) -> Measured:
    spec = {"of": "effect" if question.get("by") == "effect" else "top", "row": question["row"]}
    for key in ("head", "variant", "besides"):
        if key in question:
            spec[key] = question[key]
    return _unwrap(lambda: measure(spec, at))


def _unwrap(compute):
    """Run a measure built from the question's own keys: its mistakes name those keys, not `measure.…`."""
    try:
        return compute()
    except LessonInputError as error:
        if error.field and error.field.startswith("measure."):
            raise LessonInputError(error.message, error.field[len("measure."):]) from None
        raise


def _estimate_measured(question: Mapping[str, Any], at: SceneAtHand | None) -> Measured:
    if "measure" in question:
        return measure(question["measure"], at)
    spec = {"of": "cell", **{key: question[key] for key in ("row", "column", "stage", "head", "variant")
                             if key in question}}
    return _unwrap(lambda: measure(spec, at))


def _in_unit(value: float, unit: str) -> float:
    return value * 100 if unit == "percent" else value


def _show_in_unit(value: float, unit: str) -> str:
    if unit == "percent":
        return f"{value:.1f}%"
    if unit == "weight":
        return f"{value:.3f}"
    return number(value)


def _estimate_bounds(question: Mapping[str, Any], truth: float) -> tuple[float, float]:
    unit = estimate_unit(question)
    tolerance = question.get("tolerance", ESTIMATE_TOLERANCE.get(unit, max(NUMBER_TOLERANCE, 0.05 * abs(truth))))
    reach = question.get("reach", ESTIMATE_REACH.get(unit, 5 * tolerance))
    return float(tolerance), float(max(reach, tolerance * 1.0000001))


def _sketch_row(question: Mapping[str, Any], at: SceneAtHand) -> tuple[int, int, np.ndarray]:
    head = at.head(question.get("head"))
    row = at.row(question["row"])
    weights = at.stages(head)["weights"][row]  # (n,)
    if not np.isfinite(weights).all():
        raise LessonInputError(f"the weights of {name_word(at.tokens, row)} are not numbers here", "row")
    return head, row, weights


def _options_of(question: Mapping[str, Any], at: SceneAtHand) -> tuple[Mapping[str, Any], SceneAtHand, list[dict]]:
    """Each way of computing the choice's cell: [{id, value, text, label, meaning}], in the options' order."""
    of = question["of"]
    cell_at = at.variant(of["variant"], "of.variant") if "variant" in of else at
    try:
        stage, head, row, column, _ = read_cell(of, cell_at)
    except LessonInputError as error:
        raise error.within("of") from None
    computed = []
    for option in question["options"]:
        stages = cell_at.stages(head, option)
        value = float(stages[stage][row] if column is None else stages[stage][row, column])
        misconception = MISCONCEPTIONS[option]
        computed.append({"id": option, "value": value, "text": number(value), "label": misconception.label,
                         "meaning": misconception.meaning})
    return {"stage": stage, "head": head, "row": row, "column": column}, cell_at, computed


def _matches(option_value: Any, measured: Measured, of: str, at: SceneAtHand | None, field: str) -> bool:
    kind = VALUE_KINDS[of]
    if kind == "word":
        return find_word(option_value, at.tokens, field) in measured.details.get("tied", [measured.value])
    return option_value == measured.value


def expected(question: Any, scene: Any, evidence: Any = None) -> dict[str, Any]:
    """The expected answer of a question on a scene, computed: {value, sentence, ...} by kind (build: its
    conditions, each {met, sentence})."""
    question = read_question(question)
    kind = question["kind"]
    at = None if scene is None else _scene_at(scene)
    if kind == "pick":
        measured = _pick_measured(question, at)
        return {"value": measured.value, "tied": measured.details["tied"], "sentence": measured.sentence,
                "values": measured.details["values"], "row": measured.details["row"],
                "besides": measured.details.get("besides")}
    if kind == "estimate":
        measured = _estimate_measured(question, at)
        return {"value": measured.value, "sentence": measured.sentence, "unit": estimate_unit(question)}
    if kind == "sketch":
        head, row, weights = _sketch_row(question, at)
        return {"value": weights.tolist(), "row": row, "sentence": _row_sentence(at, row, weights)}
    if kind == "compute":
        stage, head, row, column, value = _unwrap(lambda: read_cell(question, at))
        return {"value": value, "sentence": worked(at, stage, head, row, column)}
    if kind == "choose":
        if "of" in question:
            cell, _, options = _options_of(question, at)
            return {"value": "right", "options": options, "stage": cell["stage"]}
        measured = measure(question["measure"], at, evidence)
        of = question["measure"]["of"]
        right = [option["id"] for i, option in enumerate(question["options"])
                 if _matches(option["value"], measured, of, at, f"options[{i}].value")]
        return {"value": right[0] if len(right) == 1 else None, "right": right, "measured": measured.value,
                "sentence": measured.sentence}
    conditions = [evaluate_condition(condition, at, f"conditions[{i}]")
                  for i, condition in enumerate(question["conditions"])]
    return {"conditions": [condition._asdict() for condition in conditions]}


#: A Markdown code span in an option's text (`<bos>`).
CODE_SPAN = re.compile(r"`([^`]+)`")


def quote_option(text: str) -> str:
    """An option's text quoted inside a sentence: without its own full stop (the sentence has one), and in
    single quotes when it quotes words itself, so quotes never nest in quotes of their own kind."""
    text = CODE_SPAN.sub(r"\1", text).rstrip(".")  # the feedback is plain text: a code span's words, no backticks
    return f"‘{text}’" if "“" in text else f"“{text}”"


def _row_sentence(at: SceneAtHand, row: int, weights: np.ndarray) -> str:
    """The row of weights in words: its largest shares, and what the rest gets."""
    order = [int(i) for i in np.argsort(-weights, kind="stable")]
    shown = [f"{name_word(at.tokens, i)} {percent(float(weights[i]))}" for i in order[:4] if weights[i] >= 0.0005]
    rest = len(weights) - len(shown)
    tail = f"; the other {rest} {'word gets' if rest == 1 else 'words get'} {percent(float(sum(weights[i] for i in order[len(shown):])))}" if rest else ""
    return f"The row of {name_word(at.tokens, row)}: {', '.join(shown)}{tail}"


def _vector(values: np.ndarray) -> str:
    return "[" + ", ".join(f"{v:g}" if float(v).is_integer() else number(float(v)) for v in values) + "]"


def worked(at: SceneAtHand, stage: str, head: int, row: int, column: int | None) -> str:
    """One cell worked out with the scene's own numbers: how the module got it."""
    stages = at.stages(head)
    tokens = at.tokens
    value = float(stages[stage][row] if column is None else stages[stage][row, column])
    n = len(tokens)
    if stage == "scores":
        query, key = stages["Q"][row], stages["K"][column]  # (d_k,) each
        terms = (" = " + " + ".join(f"{number(float(q)) if not float(q).is_integer() else f'{q:g}'}×"
                                    f"{number(float(k)) if not float(k).is_integer() else f'{k:g}'}"
                                    for q, k in zip(query, key))) if len(query) <= 4 else ""
        return (f"query of {name_word(tokens, row)} {_vector(query) if len(query) <= 8 else ''} · key of "
                f"{name_word(tokens, column)} {_vector(key) if len(key) <= 8 else ''}{terms} = {number(value)}"
                ).replace("  ", " ")
    if stage in ("scaled", "masked"):
        if stage == "masked" and at.computed.scene.mask[row, column]:
            return f"{name_word(tokens, row)} may not read {name_word(tokens, column)}: the mask makes it −∞"
        score = float(stages["scores"][row, column])
        if not at.computed.scene.scale:
            return f"÷√d is off, so the score stays {number(score)}"
        d_k = stages["Q"].shape[1]
        return f"{number(score)} / √{d_k} = {number(value)}"
    if stage == "exp":
        return f"e^{number(float(stages['masked'][row, column]))} = {number(value)}"
    if stage == "total":
        exps = stages["exp"][row]  # (n,)
        terms = " + ".join(number(float(e)) for e in exps) if n <= 6 else f"the sum of the row's {n} exponentials"
        return f"{terms} = {number(value)}"
    if stage == "weights":
        exp, total = float(stages["exp"][row, column]), float(stages["total"][row])
        if math.isfinite(total) and total > 0:
            return f"{number(exp)} / {number(total)} = {number(value)}"
        return f"the softmax of the row gives {number(value)}"
    if stage == "output":
        weights, values = stages["weights"][row], stages["V"][:, column]  # (n,), (n,)
        if n <= 6:
            terms = " + ".join(f"{number(float(w))} × {float(v):g}" if float(v).is_integer()
                               else f"{number(float(w))} × {number(float(v))}" for w, v in zip(weights, values))
            return f"{terms} = {number(value)}"
        return f"the weights of {name_word(tokens, row)} times the values' column, added up: {number(value)}"
    return f"{cell_phrase(at, stage, head, row, column)} is {number(value)}"


# ------------------------------------------------------------------------------------------------------------
# Asking


def ask(question: Any, scene: Any) -> dict[str, Any]:
    """What the page shows before the learner answers: the places the question names, resolved on this scene, and
    a choice's options with any number each shows (computed here; never which one is right)."""
    question = read_question(question)
    kind = question["kind"]
    shown: dict[str, Any] = {"kind": kind}
    at = None
    if scene is not None:
        at = _scene_at(scene)
        shown["columns"] = list(at.tokens)
    if kind in ("pick", "sketch", "compute") or (kind == "estimate" and "row" in question):
        if at is None:
            raise LessonInputError("this question needs the scene it asks about", "scene")
        shown["row"] = at.row(question["row"])
        shown["head"] = at.head(question.get("head"))
    if kind == "sketch":
        shown["readable"] = (~at.computed.scene.mask[shown["row"]]).tolist()
    if kind == "estimate":
        shown["unit"] = estimate_unit(question)
    if kind == "compute":
        stage = question["stage"]
        shown["stage"] = stage
        if stage != "total":
            shown["column"] = _unwrap(lambda: column_index(at, stage, shown["head"], question["column"]))
    if kind == "choose":
        if "of" in question:
            _, _, options = _options_of(question, at)
            shown["options"] = [{"id": option["id"], "text": option["text"]} for option in options]
        else:
            shown["options"] = [{"id": option["id"], "text": option["text"]} for option in question["options"]]
    if kind == "build":
        shown["fields"] = list(question.get("fields", EDIT_FIELDS))
        shown["max_edits"] = question.get("max_edits")
    return shown


# ------------------------------------------------------------------------------------------------------------
# Answering


def answer(question: Any, scene: Any, value: Any, evidence: Any = None) -> dict[str, Any]:
    """Judge the learner's answer on the scene: {correct, score (0 to 1), expected, feedback} and, for a choice,
    every option with its number or meaning. `evidence` is a claim's test result, for a question about a claim."""
    question = read_question(question)
    kind = question["kind"]
    if kind == "build":
        raise LessonInputError("a build is judged on the learner's scene (lesson_check), not by an answer", "kind")
    judge = {"pick": _answer_pick, "estimate": _answer_estimate, "sketch": _answer_sketch,
             "choose": _answer_choose, "compute": _answer_compute}[kind]
    return judge(question, scene, value, evidence)


def _answer_pick(question, scene, value, evidence) -> dict[str, Any]:
    at = _scene_at(scene)
    truth = expected(question, scene)
    picked = answered_column(value, at.tokens)
    values, top, tied = truth["values"], truth["value"], truth["tied"]
    tokens, row = at.tokens, truth["row"]
    correct = picked in tied
    best = values[top]
    left_out = picked == truth["besides"]
    score = 1.0 if correct else 0.0 if left_out else max(0.0, min(1.0, values[picked] / best)) if best > 0 else 0.0
    by_effect = question.get("by") == "effect"

    def amount(column: int) -> str:
        return f"by {number(values[column])}" if by_effect else percent(values[column])

    if by_effect:
        said = f"You picked {name_word(tokens, picked)}: knocking it out moves the output of {name_word(tokens, row)} {amount(picked)}."
    else:
        said = f"You picked {name_word(tokens, picked)}: {name_word(tokens, row)} gives it {amount(picked)}."
    if left_out:
        feedback = (f"{said} This question leaves {name_word(tokens, picked)} aside: among the other words, it reads "
                    f"{name_word(tokens, top)} most, {amount(top)}.")
    elif correct:
        others = [column for column in np.argsort(-np.asarray(values), kind="stable").tolist()
                  if column not in (picked, truth["besides"])]
        following = f" (next: {name_word(tokens, others[0])}, {amount(others[0])})" if others else ""
        feedback = said[:-1] + f", more than any other word{following}."
    elif by_effect:
        feedback = f"{said} Knocking out {name_word(tokens, top)} moves it most, {amount(top)}."
    else:
        feedback = f"{said} It reads {name_word(tokens, top)} most, {amount(top)}."
    return {"correct": correct, "score": round(score, 6),
            "expected": {"column": top, "word": tokens[top], "value": values[top], "by": question.get("by", "weight")},
            "feedback": feedback}


def _number_answer(value: Any) -> float:
    if not real_number(value):
        raise LessonInputError(f"the answer is a number; got {describe_value(value)}", "answer")
    return float(value)


def _answer_estimate(question, scene, value, evidence) -> dict[str, Any]:
    said = _number_answer(value)
    truth = expected(question, scene)
    unit = truth["unit"]
    true_value = _in_unit(truth["value"], unit)
    tolerance, reach = _estimate_bounds(question, true_value)
    distance = abs(said - true_value)
    correct = distance <= tolerance
    score = max(0.0, 1.0 - distance / reach)
    off = _show_in_unit(distance, unit).rstrip("%") + (" points" if unit == "percent" else "")
    allowed = _show_in_unit(tolerance, unit).rstrip("%") + (" points" if unit == "percent" else "")
    verdict = f"within the {allowed} this question allows" if correct else f"more than the {allowed} this question allows"
    feedback = (f"You said {_show_in_unit(said, unit)}; the truth is {_show_in_unit(true_value, unit)}: {off} off, "
                f"{verdict}. {truth['sentence']}.")
    return {"correct": correct, "score": round(score, 6), "expected": {"value": true_value, "unit": unit},
            "feedback": feedback}


def _on_blocked(at: SceneAtHand, row: int, drawn: np.ndarray) -> str:
    """What a sketch gave the words its row may not read (the mask blocks them), if it gave them anything worth
    saying: the gap that matters most in a masked row."""
    blocked = np.flatnonzero(at.computed.scene.mask[row])
    given = float(drawn[blocked].sum()) if blocked.size else 0.0
    if given < 0.0005:
        return ""
    return (f" You gave {percent(given)} to {counted(int(blocked.size), 'word')} {name_word(at.tokens, row)} may not read "
            f"({', '.join(name_word(at.tokens, column) for column in blocked)}): the mask blocks "
            f"{'it' if blocked.size == 1 else 'them'}, so {'it gets' if blocked.size == 1 else 'they get'} exactly 0.")


def _answer_sketch(question, scene, value, evidence) -> dict[str, Any]:
    at = _scene_at(scene)
    head, row, weights = _sketch_row(question, at)
    if not isinstance(value, list) or len(value) != len(weights) or not all(real_number(v) and v >= 0 for v in value):
        raise LessonInputError(f"the answer is a row of {len(weights)} numbers of 0 or more, one per word", "answer")
    drawn = np.array(value, dtype=float)  # (n,)
    if drawn.sum() <= 0:
        raise LessonInputError("the row drawn is all 0: give some weight to at least one word", "answer")
    drawn = drawn / drawn.sum()
    distance = float(0.5 * np.abs(drawn - weights).sum())
    tolerance = float(question.get("tolerance", SKETCH_TOLERANCE))
    correct = distance <= tolerance
    gaps = drawn - weights  # (n,)
    widest = int(np.argmax(np.abs(gaps)))
    gap = (f" The widest gap: you gave {name_word(at.tokens, widest)} {percent(float(drawn[widest]))} where it gets "
           f"{percent(float(weights[widest]))}." if abs(gaps[widest]) >= 0.0005 else "")
    feedback = (f"Your row is {distance:.2f} away from the truth (the share of weight that would have to move), "
                f"{'within' if correct else 'more than'} the {tolerance:.2f} this question allows.{_on_blocked(at, row, drawn)}{gap} "
                f"{_row_sentence(at, row, weights)}.")
    return {"correct": correct, "score": round(max(0.0, 1 - distance), 6),
            "expected": {"weights": weights.tolist(), "row": row}, "answer": drawn.tolist(), "feedback": feedback}


def compute_tolerance(question: Mapping[str, Any], truth: float) -> float:
    return float(question.get("tolerance", max(COMPUTE_TOLERANCE, COMPUTE_RELATIVE * abs(truth))))


def _answer_compute(question, scene, value, evidence) -> dict[str, Any]:
    said = _number_answer(value)
    at = _scene_at(scene)
    stage, head, row, column, truth = _unwrap(lambda: read_cell(question, at))
    if not math.isfinite(truth):
        raise LessonInputError(f"{cell_phrase(at, stage, head, row, column)} is not a number in this scene", "row")
    tolerance = compute_tolerance(question, truth)
    correct = abs(said - truth) <= tolerance
    how = worked(at, stage, head, row, column)
    if correct:
        return {"correct": True, "score": 1.0, "expected": {"value": truth}, "feedback": f"Right: {how}."}
    slip = ""
    for misconception in MISCONCEPTIONS.values():
        if misconception.id == "right" or (stage == "output" and misconception.id == "rows-and-columns-swapped"):
            continue
        stages = at.stages(head, misconception.id)
        other = float(stages[stage][row] if column is None else stages[stage][row, column])
        if math.isfinite(other) and abs(said - other) <= tolerance < abs(other - truth):
            slip = f" That is what you get when {misconception.meaning} ({misconception.label})."
            break
    feedback = f"Not quite: you wrote {said:g}.{slip} Done as the module does it: {how}."
    return {"correct": False, "score": 0.0, "expected": {"value": truth}, "feedback": feedback}


def _answer_choose(question, scene, value, evidence) -> dict[str, Any]:
    ids = [option if isinstance(option, str) else option["id"] for option in question["options"]]
    if value not in ids:
        raise LessonInputError(f"the answer is one of the options' ids, {', '.join(ids)}; got {describe_value(value)}",
                               "answer")
    if "of" in question:
        at = _scene_at(scene)
        cell, cell_at, options = _options_of(question, at)
        chosen = next(option for option in options if option["id"] == value)
        right = next(option for option in options if option["id"] == "right")
        phrase = cell_phrase(cell_at, cell["stage"], cell["head"], cell["row"], cell["column"])
        correct = value == "right"
        others = [f"{option['text']} is {option['label']}" for option in options if option["id"] != "right"]
        if correct:
            feedback = f"Right: {phrase} is {right['text']}. The others: {'; '.join(others)}."
        else:
            feedback = (f"You chose {chosen['text']}: that is {chosen['label']}: {chosen['meaning']}. "
                        f"{upper_first(phrase)} is {right['text']}.")
        shown = [{**option, "correct": option["id"] == "right"} for option in options]
        return {"correct": correct, "score": 1.0 if correct else 0.0, "expected": {"option": "right"},
                "options": shown, "feedback": feedback}
    of = question["measure"]["of"]
    at = None if of in WITHOUT_SCENE else _scene_at(scene)
    measured = measure(question["measure"], at, evidence)
    options, right = [], []
    for i, option in enumerate(question["options"]):
        is_right = _matches(option["value"], measured, of, at, f"options[{i}].value")
        options.append({"id": option["id"], "text": option["text"], "misconception": option.get("misconception"),
                        "correct": is_right})
        if is_right:
            right.append(option)
    chosen = next(option for option in question["options"] if option["id"] == value)
    correct = chosen in right
    if correct:
        feedback = f"Right: {quote_option(chosen['text'])}. {end_sentence(measured.sentence)}"
    else:
        stands = f" It stands for this mistake: {chosen['misconception']}" if chosen.get("misconception") else ""
        what = (f" {quote_option(right[0]['text'])} is what happens." if right else
                " None of the options is what happens in this scene.")
        feedback = (f"You chose {quote_option(chosen['text'])}.{end_sentence(stands) if stands else ''} "
                    f"{end_sentence(measured.sentence)}{what}")
    return {"correct": correct, "score": 1.0 if correct else 0.0,
            "expected": {"option": right[0]["id"] if right else None, "measured": measured.value},
            "options": options, "feedback": feedback}


# ------------------------------------------------------------------------------------------------------------
# A build: the learner's scene against the target


def check_build(question: Any, scene: Any, start: Any) -> dict[str, Any]:
    """Judge the learner's scene against a build question's target, and against the scene the step started from:
    {correct, score, feedback, conditions: [{met, sentence, value}], edits: {field: cells changed}}.

    The score is the share of conditions met; the answer is correct when every condition is met within the edits
    and fields the question allows."""
    question = read_question(question)
    if question["kind"] != "build":
        raise LessonInputError(f"lesson_check judges a build; this question is a {question['kind']} (lesson_answer)",
                               "kind")
    at = _scene_at(scene)
    try:
        start_at = _scene_at(start)
    except SceneError as error:  # not the learner's scene: the step's, as the page kept it
        raise LessonInputError(f"the step's starting scene: {error.message}", "start") from None
    conditions = [evaluate_condition(condition, at, f"conditions[{i}]")
                  for i, condition in enumerate(question["conditions"])]
    met = sum(condition.met for condition in conditions)
    problems = []
    try:
        edits = changed_cells(start_at.computed.scene, at.computed.scene)
    except LessonInputError as error:
        edits = {}
        problems.append(upper_first(error.message) + ".")
    total = sum(edits.values())
    allowed = question.get("fields")
    outside = [field for field in edits if allowed is not None and field not in allowed]
    if outside:
        problems.append(f"You changed {', '.join(outside)}, which this target leaves alone: change only "
                        f"{', '.join(allowed)}.")
    if "max_edits" in question and total > question["max_edits"]:
        problems.append(f"You changed {total} cells; this target allows {question['max_edits']}.")
    correct = met == len(conditions) and not problems
    unmet = [condition.sentence for condition in conditions if not condition.met]
    if correct:
        feedback = end_sentence(f"Done in {total} edit{'s' if total != 1 else ''}: "
                                + "; ".join(condition.sentence for condition in conditions))
    elif unmet:
        feedback = end_sentence("Not yet: " + "; ".join(unmet)) + (" " + " ".join(problems) if problems else "")
    else:
        feedback = "The target is met, but: " + " ".join(problems)
    return {"correct": correct, "score": round(met / len(conditions), 6), "feedback": feedback,
            "conditions": [condition._asdict() for condition in conditions], "edits": edits}


__all__ = ["KINDS", "LessonInputError", "answer", "ask", "check_build", "expected", "read_question"]
