"""The glue some request kinds need between their payload and the function that serves them; each returns a
value (arrays allowed).

The table that names the kinds, their payloads and the parts they need is kinds.py; the text that comes in
and goes out is wire.py's. A handler is called with the payload's keys as keyword arguments, so a kind whose
function takes exactly those has that function as its handler (kinds.py: "compute" is `compute_scene`) and
nothing here. Here each handler only turns a payload into a call, and the module's own mistakes into the
request's (`RequestError`, with the payload key at fault).

The experiments, the exercises and the trained model ship in parts of their own (parts.py) and are imported by
their first request, never at boot: the page's worker answers its first heatmap without them.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

from .presets import UnknownPresetError, load_preset
from .scene import SceneError
from .wire import RequestError


def keyword_names(function: Callable[..., Any]) -> tuple[str, ...]:
    """The keyword arguments of `function`: the payload keys of a kind that passes its payload on as they are."""
    return tuple(inspect.signature(function).parameters)


def preset(id: str) -> Any:  # noqa: A002  (the payload's key)
    try:
        return load_preset(id)
    except UnknownPresetError as error:
        raise RequestError(str(error), "id") from None


def experiment_named(name: str) -> Callable[..., Any]:
    """Function `name` of experiments.py, imported on the first request that runs an experiment (a part of its own:
    the first heatmap needs none of them)."""
    return getattr(importlib.import_module(f"{__package__}.experiments"), name)


def _experiment(name: str) -> Callable[..., Any]:
    """Serve an experiment whose payload is its keyword arguments; it refuses bad ones with ValueError."""

    def run(**payload: Any) -> Any:
        try:
            return experiment_named(name)(**payload)
        except ValueError as error:
            raise RequestError(str(error)) from None

    run.__name__ = name
    return run


scaling = _experiment("scaling_experiment")
shuffle = _experiment("shuffle_check")


def _scene_experiment(name: str, *fields: str) -> Callable[..., Any]:
    """Serve an experiment on the page's scene: the scene's mistakes are SceneErrors (field, row and column), and
    a bad choice of `fields` (its message starts with the field's name) the request's."""

    def run(**payload: Any) -> Any:
        try:
            return experiment_named(name)(**payload)
        except SceneError:
            raise
        except ValueError as error:
            field = next((field for field in fields if str(error).startswith(field)), None)
            raise RequestError(str(error), field) from None

    run.__name__ = name
    return run


shuffle_words = _scene_experiment("shuffle_scene", "order")
knock_out = _scene_experiment("knock_out_word", "column", "head")


def exercises() -> Any:
    from .exercises import list_exercises  # noqa: PLC0415  (a part of its own: see the module's docstring)

    return list_exercises()


def _learner_code(kind: str, module: str, function: str) -> Callable[..., Any]:
    """Serve a request that runs the learner's code: `function` of `module`, imported on the first such request
    (only the learner's worker makes them). An unknown exercise id is the request's mistake."""

    def run(**payload: Any) -> Any:
        if not isinstance(payload["code"], str):
            raise RequestError(f'"{kind}" needs "code" as text', "code")
        from .exercises import UnknownExerciseError  # noqa: PLC0415

        target = getattr(importlib.import_module(f".{module}", __package__), function)
        try:
            return target(**payload)
        except UnknownExerciseError as error:
            raise RequestError(str(error), "exercise_id") from None

    run.__name__ = function
    return run


run_exercise = _learner_code("run_exercise", "exercises", "run_exercise")
learner_compute = _learner_code("learner_compute", "learner_drawing", "compute_with_learner")


def _requests_of(package: str, function: str) -> Callable[..., Any]:
    """Serve one of a model's requests: `function` of <package>/requests.py ("model": the story-world model's,
    "english": the English model's), imported on the first such request (a page that never opens a model does
    not import it). Its mistakes are ModelInputErrors."""

    def run(**payload: Any) -> Any:
        requests = importlib.import_module(f"{__package__}.{package}.requests")
        return getattr(requests, function)(payload)

    run.__name__ = function
    return run


def _model(function: str) -> Callable[..., Any]:
    return _requests_of("model", function)


english_info = _requests_of("english", "english_info")
english_run = _requests_of("english", "english_run")
model_info = _model("model_info")
model_run = _model("model_run")
model_head_scene = _model("model_head_scene")
model_train_start = _model("train_start")
model_train_steps = _model("train_steps")
model_claims = _model("claims_list")
model_claim_start = _model("claim_start")
model_claim_steps = _model("claim_steps")
model_claim_verdict = _model("claim_verdict")


def _lessons(function: str) -> Callable[..., Any]:
    """Serve one of a lesson's requests: `function` of lessons/handlers.py, imported on the first such request (from
    the "lessons" part: a page that opens no lesson never fetches it)."""

    def run(**payload: Any) -> Any:
        return getattr(importlib.import_module(".lessons.handlers", __package__), function)(**payload)

    run.__name__ = function
    return run


lesson_ask = _lessons("lesson_ask")
lesson_answer = _lessons("lesson_answer")
lesson_check = _lessons("lesson_check")


def lesson_compile(**payload: Any) -> Any:
    """Check and compile a lesson file (lessons/authoring.py), imported on the first such request (from the
    "authoring" part, with markdown-it beside it)."""
    return importlib.import_module(".lessons.authoring", __package__).lesson_compile(**payload)
