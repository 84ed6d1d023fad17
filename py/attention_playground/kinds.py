"""Every request kind the entry point answers, each declared once: its name, what it runs, its payload, the part
of the module it needs, and one line saying what it gives back.

Everything else reads this table: entry.py checks a request against it and runs the handler; parts.py tells
the worker which zip a kind needs; the build writes the page's list of kinds (generated/module-facts.js,
`REQUEST_KINDS`, one doc comment per kind) from it. A new kind is one line here and its handler.

A handler is called with the payload's keys as its keyword arguments. Where a function of the module takes
exactly those and its mistakes are already the request's (a SceneError), it is the handler itself: "compute" is
`compute_scene`, so a keystroke's request goes entry → wire → kinds → scene_stages → scene → positions →
attention_maths and back out through wire. handlers.py holds the glue the other kinds need (a payload key turned
into a parameter, a mistake into a RequestError, a part imported on first use).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from . import handlers
from .presets import list_presets
from .scene_stages import compute_scene


class RequestKind(NamedTuple):
    """One kind of request: {"kind": name, "payload": {...}}."""

    name: str
    handler: Callable[..., Any]  # the payload as keyword arguments in, a value out (wire.py writes it out)
    required: tuple[str, ...]  # payload keys it must have
    optional: tuple[str, ...]  # payload keys it may have
    part: str | None  # the part of the module it needs unpacked first (parts.py); None: the core
    doc: str  # what it gives back, in one line
    also_needs: tuple[str, ...] = ()  # more parts it needs beside `part`


#: "model" in a model request's payload: "shipped" (the default) or "trained" (the run this interpreter trains).
_MODEL = ("model",)

KINDS: dict[str, RequestKind] = {kind.name: kind for kind in (
    RequestKind("compute", compute_scene, ("scene",), (), None,
                "compute(scene): every stage of every head (docs/reference.md: What compute(scene) returns)"),
    RequestKind("presets", list_presets, (), (), "presets",
                "the examples: [{id, title, description}, ...] (the build asks; the page reads generated/)"),
    RequestKind("preset", handlers.preset, ("id",), (), "presets",
                "one example's scene (the build asks; the page reads generated/presets/)"),
    # The experiments (experiments.py): a part of their own. The first two pass their payload on as the functions'
    # keyword arguments, named here (a test holds them to the functions' signatures).
    RequestKind("scaling_experiment", handlers.scaling, (), ("ds", "n_keys", "trials", "seed"), "experiments",
                "the Part 7 table: average top weight with and without the division by sqrt(d), per d"),
    RequestKind("shuffle_check", handlers.shuffle, (), ("seed", "order"), "experiments",
                "the Part 8 check on random numbers: shuffled tokens' outputs are the outputs reordered"),
    RequestKind("shuffle_scene", handlers.shuffle_words, ("scene", "order"), (), "experiments",
                "the scene with its words in another order, and whether each output just moved with its word"),
    RequestKind("knock_out_word", handlers.knock_out, ("scene", "column"), ("head",), "experiments",
                "how far each word's output moves when no word may read word `column`, beside its weight there"),
    RequestKind("exercises", handlers.exercises, (), (), "exercises",
                "the exercises: text, starter code, hints, solution, checks"),
    RequestKind("run_exercise", handlers.run_exercise, ("exercise_id", "code"), ("scene",), "exercises",
                "the learner's code run against the exercise's checks"),
    RequestKind("learner_compute", handlers.learner_compute, ("exercise_id", "code", "scene"), (), "exercises",
                "{result, error}: the scene drawn with the learner's function"),
    RequestKind("model_info", handlers.model_info, (), (*_MODEL, "heads_only"), "model",
                "the trained model: config, vocabulary, heads and their roles, examples, the hand-set Part 6 head",
                also_needs=("presets",)),  # the hand-set head it is compared with is a preset
    RequestKind("model_run", handlers.model_run, ("words",), (*_MODEL, "knocked_out", "edited_head", "metrics"),
                "model", "weights, predictions, knock-out effects and metrics on one sentence"),
    RequestKind("model_head_scene", handlers.model_head_scene, ("words", "layer", "head"),
                (*_MODEL, "knocked_out"), "model", "{scene, source}: one head on one sentence as a scene"),
    RequestKind("model_train_start", handlers.model_train_start, (), (*_MODEL, "config"), "model",
                "{config}: a training run started"),
    RequestKind("model_train_steps", handlers.model_train_steps, ("steps",), (*_MODEL, "words", "max_seconds"),
                "model", "the steps taken, their losses, the heads now"),
    RequestKind("model_claims", handlers.model_claims, (), (), "model",
                "the claims a pair of training runs can test (model/claims.py)"),
    RequestKind("model_claim_start", handlers.model_claim_start, ("claim",), ("seed", "steps", "side"), "model",
                "{claim, configs, sides}: a claim's two runs started (or one of them, `side`)"),
    RequestKind("model_claim_steps", handlers.model_claim_steps, ("steps",), ("max_seconds",), "model",
                "the runs' losses; once done, their metrics and (both runs here) the verdict"),
    RequestKind("model_claim_verdict", handlers.model_claim_verdict, ("claim", "metrics"), (), "model",
                "the verdict from both runs' metrics, for a pair trained in two workers"),
    # The English model (english/): its own part, fetched once a learner chooses it.
    RequestKind("english_info", handlers.english_info, (), (), "english",
                "the English model: its shape, heads and their roles, held-out loss beside a bigram's, examples",
                also_needs=("english-weights", "model")),
    RequestKind("english_run", handlers.english_run, ("words",), ("knocked_out", "focus", "focus_only"), "english",
                "tokens, weights, the five likeliest next tokens and knock-out effects on the learner's text",
                also_needs=("english-weights", "model")),
    # A lesson's questions (lessons/handlers.py): imported by the first such request, from the "lessons" part, with
    # the experiments its measures run.
    RequestKind("lesson_ask", handlers.lesson_ask, ("question",), ("scene",), "lessons",
                "a lesson's question as the learner meets it: its places on the scene, a choice's options computed",
                also_needs=("experiments",)),
    RequestKind("lesson_answer", handlers.lesson_answer, ("question", "answer"), ("scene", "evidence"), "lessons",
                "{correct, score, expected, feedback}: the learner's answer judged against the truth computed now",
                also_needs=("experiments",)),
    RequestKind("lesson_check", handlers.lesson_check, ("question", "scene", "start"), (), "lessons",
                "{correct, score, feedback, conditions, edits}: the learner's scene against a build's target",
                also_needs=("experiments",)),
    # A lesson file the page compiles itself (lessons/authoring.py): the Markdown side and markdown-it, fetched then;
    # the examples, the exercises and the model too, whose ids a step may name.
    RequestKind("lesson_compile", handlers.lesson_compile, ("markdown", "name"), ("files",), "authoring",
                "{lesson, entry}, {problems} or {needs}: a lesson file checked and compiled as the build does it",
                also_needs=("lessons", "experiments", "presets", "exercises", "model", "english", "markdown")),
)}
