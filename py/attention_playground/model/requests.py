"""What the page asks of the trained model, answered as dicts of arrays and numbers (entry.py serves these;
wire.py writes them out).

Two models can be asked for by name:

- "shipped": the checkpoint that comes with the module (loaded on first use);
- "trained": the model a learner is training in this interpreter, as far as it has got (see `train_start`);
- "claim-with", "claim-without": the two models of the claim's test running here (see `claim_start`; when
  the page trains them side by side, each interpreter holds one of them).

The runs live between requests in one object, `RUNS` (runs.py: `TrainingRuns`).

The page keeps the two apart: the shipped model is asked in the page's worker, training and the model it
makes live in a worker of their own (so the page's worker stays free while a model trains).

Every function takes the request's payload (a dict) and raises ModelInputError (a SceneError, shown by the
page like a scene's mistakes) for input the model cannot take.
"""

from __future__ import annotations

import time
from functools import cache
from typing import Any

import numpy as np

from .analysis import TUTORIAL_SENTENCE, describe, designed_reads, head_label, roles_reached, second_mention
from .checkpoint import load_model, shipped_checkpoint
from .config import TrainConfig
from .corpus import BOS
from .errors import ModelInputError, check_head, check_knocked_out, split_words
from .evaluation import evaluate
from .scenes import head_scene
from .loss_drop import find_loss_drop
from .runs import CLAIM_SIDES, RUN_NAMES, TrainingRuns
from .stage_rows import designed_row, learned_row
from .transformer import Model, encode, forward, with_head_weights

#: How many next words the page lists at each position.
TOP_K = 5

#: Sentences the page offers, each chosen to show something the model does (what is shown is measured).
EXAMPLES = (
    {"id": "repeated-run", "label": "a repeated random run",
     "words": "king frog red hill sang owl then king frog red hill sang owl then king frog red"},
    {"id": "repeated-noun", "label": "a sentence with a repeated noun",
     "words": "the fox met a crow and the fox smiled"},
    {"id": "tutorial-it", "label": "the tutorial's sentence: does \"it\" find the cat?",
     "words": "the cat sat on the mat because it was tired"},
    {"id": "place-first", "label": "another word order: the place first",
     "words": "on the mat sat the dog and it barked"},
    {"id": "second-mention", "label": "a noun mentioned again (does the second read the first?)",
     "words": "the fox came . the owl came . the fox left ."},
)

#: What a learner may change when training in the page, with the range each may take. Other settings stay
#: the shipped model's (TrainConfig's defaults).
TRAINABLE = {
    "seed": (0, 2**31 - 1),
    "steps": (1, 3000),
    "n_heads": (1, 4),
    "repeat_fraction": (0.0, 1.0),
    "stop_at_accuracy": (0.0, 1.0),  # stop once repeated-part accuracy reaches it (measured every 25 steps)
}

#: "Quick run" in the page: the settings it changes (the learner's seed and heads stay). With repeated runs only
#: there is nothing but copying to learn, so the induction head forms within a few hundred steps (the shipped
#: shape natively: at step 250-300 on seeds 0-5; bench/model_page.py measures it in the page) where the story
#: world needs about 800; the pronoun head needs the sentences and does not form.
QUICK_RUN = {"repeat_fraction": 1.0, "steps": 400}

#: The training runs this interpreter holds: the learner's, and a claim's test.
RUNS = TrainingRuns()


@cache
def _shipped() -> Model:
    return load_model()


def _model(payload: dict) -> Model:
    name = payload.get("model", "shipped")
    if name == "shipped":
        return _shipped()
    if name in RUN_NAMES:
        return RUNS.model(name)
    raise ModelInputError(f'model must be "shipped" or "trained" (or "claim-with" or "claim-without" for the two '
                          f"models of a claim's test), not {name!r}", "model")


def _edited(model: Model, edit: dict | None) -> Model:
    """The model with one head's Wq, Wk, Wv as the learner edited them in the playground ({layer, head, Wq,
    Wk, Wv}), or the model as it is."""
    if not edit:
        return model
    if not isinstance(edit, dict):
        raise ModelInputError("edited_head must be {layer, head, Wq, Wk, Wv}", "edited_head")
    layer, head = check_head(edit.get("layer"), edit.get("head"), model.config.n_layers, model.config.n_heads)
    matrices = {}
    for name in ("Wq", "Wk", "Wv"):
        value = edit.get(name)
        try:
            matrices[name] = None if value is None else np.array(value, dtype=np.float64)
        except (TypeError, ValueError):
            raise ModelInputError(f"{name} of the edited head must be a matrix of numbers", name) from None
    return with_head_weights(model, layer, head, **matrices)


#: Examples whose row to look at is not the last one, and how to find it: the panel focuses that position
#: (counting `<bos>` as 0) when the example is chosen. The lab's second exercise asks about the second mention.
FOCUSED_EXAMPLES = {"second-mention": second_mention}


def examples() -> list[dict[str, Any]]:
    """The examples, each with the position to focus (`focus`) where FOCUSED_EXAMPLES finds one."""
    listed = []
    for example in EXAMPLES:
        entry: dict[str, Any] = dict(example)
        find = FOCUSED_EXAMPLES.get(example["id"])
        if find:
            entry["focus"] = find([BOS, *split_words(example["words"])])
        listed.append(entry)
    return listed


@cache
def _shipped_description() -> dict[str, Any]:
    # The checkpoint stores describe()'s summary of itself (a test checks they agree): no need to measure again.
    return shipped_checkpoint()["summary"]


def model_info(payload: dict) -> dict[str, Any]:
    """The model as the panel introduces it: config, vocabulary, metrics, every head's scores, role and every
    role it reaches (`roles`), the knock-out table, the example sentences, the hand-set Part 6 head to compare with, and its training loss
    curve with the sudden drop in it (loss_drop.py).

    With `heads_only` true, a claim's model is described as its head cards need it (analysis.head_summary:
    config, vocabulary, steps, every head's scores and role; no metrics, knock-outs or facts on sentences,
    which took two thirds of the time); the shipped and the trained model are always described whole.
    """
    name = payload.get("model", "shipped")
    heads_only = payload.get("heads_only", False)
    if not isinstance(heads_only, bool):
        raise ModelInputError(f"heads_only must be true or false; got {heads_only!r}", "heads_only")
    _model(payload)  # refuses an unknown name, or "trained" before training
    if name == "shipped":
        summary = _shipped_description()
    elif name == "trained":
        summary = RUNS.learner_summary()
    else:  # one of a claim's pair, described once its test is done (the view asks once)
        summary = describe(_model(payload), heads_only=heads_only)
    designed = designed_reads()
    compared = {"words": TUTORIAL_SENTENCE, "cat": designed["cat"], "mat": designed["mat"]}
    if "pronoun" in summary:
        # Both heads' stages at "it", as the step view shows them: the hand-set head's, then the learned one's.
        compared["stages"] = [designed_row(), learned_row(_model(payload), *summary["pronoun"]["head"])]
    # Every role a head reaches, not only the first it is named by (a head may do two jobs).
    heads = [{**head, "roles": roles_reached(head["scores"])} for head in summary["heads"]]
    answer = {**summary, "heads": heads, "model": name, "examples": examples(), "trainable": _trainable_ranges(),
              "quick_run": dict(QUICK_RUN), "designed": compared}
    # The training curve, and the sudden drop in it (where the induction head forms), found by code.
    curve = list(_model(payload).loss_curve)
    answer["loss_curve"], answer["loss_drop"] = curve, find_loss_drop(curve)
    return answer


def _trainable_ranges() -> dict[str, dict[str, Any]]:
    defaults = TrainConfig()
    return {name: {"min": low, "max": high, "default": getattr(defaults, name)} for name, (low, high) in TRAINABLE.items()}


def model_run(payload: dict) -> dict[str, Any]:
    """The model on one sentence, with heads knocked out and one head edited, as the panel shows it.

    Payload: {words, knocked_out?: [[layer, head], ...], edited_head?: {layer, head, Wq, Wk, Wv},
    model?: "shipped" | "trained", metrics?: bool}. The result:

    - `tokens` (`<bos>` first) and `weights[layer][head]`, each (n, n): row i is where token i read from;
    - `predictions[i]`: the TOP_K likeliest words after token i, as [word, probability];
    - `next_word[i]`: the probability given to the sentence's actual word after token i (n - 1 entries);
    - `effects[layer][head][i]`: how much the prediction after token i moves if that head is knocked out as
      well (total variation distance between the two distributions: 0 for the same guess, 1 for a
      completely different one; 0 for a head already knocked out): the weight shows where a head read, this
      shows whether it mattered;
    - `metrics`: repeated-part accuracy and the losses on the fixed evaluation set (`evaluate`), unless
      `metrics` is false.
    """
    model = _edited(_model(payload), payload.get("edited_head"))
    ids = encode(model, payload.get("words", ""))
    knocked = check_knocked_out(payload.get("knocked_out", []), model.config.n_layers, model.config.n_heads)
    result = forward(model, ids, knocked)
    probabilities = result.probabilities  # (n, d_vocab)
    n = len(ids)
    effects = []
    for layer in range(model.config.n_layers):
        per_head = []
        for head in range(model.config.n_heads):
            if (layer, head) in knocked:
                per_head.append([0.0] * n)
                continue
            without = forward(model, ids, knocked | {(layer, head)}).probabilities  # (n, d_vocab)
            per_head.append(0.5 * np.abs(without - probabilities).sum(axis=-1))  # (n,)
        effects.append(per_head)
    best = np.argsort(-probabilities, axis=-1, kind="stable")[:, :TOP_K]  # (n, TOP_K)
    answer = {
        "model": payload.get("model", "shipped"),
        "tokens": result.tokens,
        "knocked_out": sorted([list(pair) for pair in knocked]),
        "edited": bool(payload.get("edited_head")),
        "weights": result.weights,  # [layer][head]: (n, n) each
        "predictions": [[[model.vocabulary[j], float(probabilities[i, j])] for j in best[i]] for i in range(n)],
        "next_word": [float(probabilities[i, ids[i + 1]]) for i in range(n - 1)],
        "effects": effects,
    }
    if payload.get("metrics", True):
        answer["metrics"] = evaluate(model, knocked).to_dict()
    return answer


def model_head_scene(payload: dict) -> dict[str, Any]:
    """One head on one sentence as a scene for the playground's editors (head_scene), with what the page
    needs to feed edits back: the model, layer, head and knock-outs it came from."""
    model = _model(payload)
    layer, head = payload.get("layer"), payload.get("head")
    scene = head_scene(model, payload.get("words", ""), layer, head, knocked_out=payload.get("knocked_out", []))
    return {"scene": scene, "source": {"model": payload.get("model", "shipped"), "layer": layer, "head": head,
                                       "label": head_label(layer, head)}}


def _train_config(settings: dict) -> TrainConfig:
    if not isinstance(settings, dict):
        raise ModelInputError("the training settings must be an object such as {\"seed\": 3}", "config")
    values = {}
    for name, value in settings.items():
        if name not in TRAINABLE:
            raise ModelInputError(f"{name!r} cannot be changed here; these can: {', '.join(TRAINABLE)}", name)
        low, high = TRAINABLE[name]
        kind = float if isinstance(low, float) else int
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (kind is int and value != int(value)) \
                or not low <= value <= high:
            what = "a whole number" if kind is int else "a number"
            raise ModelInputError(f"{name} must be {what} from {low} to {high}; got {value!r}", name)
        values[name] = kind(value)
    return TrainConfig(**values)


def train_start(payload: dict) -> dict[str, Any]:
    """Start a training run from scratch ({config: {seed?, steps?, n_heads?, repeat_fraction?}}), replacing
    any earlier one. Returns the run's config."""
    config = _train_config(payload.get("config", {}))
    RUNS.start_learner_run(config)
    return {"config": config.to_dict()}


def train_steps(payload: dict) -> dict[str, Any]:
    """Take up to `steps` more steps of the run; report them, and the heads on `words` as they are now.

    Payload: {steps, words?, max_seconds?}: `max_seconds` (default 60) ends the batch of steps early, so that
    the page hears back in time whatever the machine's speed. The result: {step, steps (the run's total),
    losses (one per step taken now), seconds (time spent training so far), done, loss_drop (the sudden drop
    in the whole curve so far, loss_drop.py, or None), weights (of every head on `words`, when given)}.
    """
    trainer = RUNS.learner
    if trainer is None:
        raise ModelInputError("no training run has been started", "model")
    count, deadline = _steps_asked(payload)
    started = len(trainer.losses)
    while not trainer.done and len(trainer.losses) - started < count:
        trainer.step()
        trainer.check_accuracy()
        if time.perf_counter() >= deadline:
            break  # at least one step is always taken, so a run moves on however slow the machine
    report = {
        "step": trainer.steps,
        "steps": trainer.config.steps,
        "losses": trainer.losses[started:],
        "seconds": trainer.seconds,
        "done": trainer.done,
        "loss_drop": find_loss_drop(trainer.losses),  # on every step so far: None until there is one
    }
    if payload.get("words"):
        model = trainer.model
        report["weights"] = forward(model, encode(model, payload["words"])).weights  # [layer][head]: (n, n) each
    return report


def _steps_asked(payload: dict) -> tuple[int, float]:
    """How many steps a request asks for ("steps", a whole number of at least 1), and the time by which to stop
    taking them ("max_seconds" from now, 60 unless given), as time.perf_counter() tells it."""
    count = payload.get("steps")
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ModelInputError(f"steps must be a whole number of at least 1; got {count!r}", "steps")
    return count, time.perf_counter() + float(payload.get("max_seconds", 60))


def _claim_asked(payload: dict):
    """The claim a request names (claims.Claim); ModelInputError naming the known ones otherwise."""
    from .claims import claim_named  # noqa: PLC0415

    try:
        return claim_named(payload.get("claim"))
    except KeyError as error:
        raise ModelInputError(error.args[0], "claim") from None


def claim_start(payload: dict) -> dict[str, Any]:
    """Start a claim's test ({claim, seed?, steps?, side?}): two training runs from one seed, one with the design
    choice and one without (claims.py), replacing any earlier test. Returns the claim, the two runs' configs and
    the sides trained here ({claim, configs: {with, without}, sides}).

    `side` ("with" or "without") trains only that model here: the page trains the other in a second worker,
    so that on two cores the pair takes the time of one model. Without it, both train here, a step of each in
    turn. The two runs are the same either way (each has its own seed-made start and data).
    """
    from .claims import pair_configs  # noqa: PLC0415

    claim = _claim_asked(payload)
    side = payload.get("side")
    if side is not None and side not in CLAIM_SIDES:
        raise ModelInputError(f'side must be "with" or "without" (or left out for both); got {side!r}', "side")
    overrides = {}
    for name in ("seed", "steps"):
        if name in payload:
            overrides[name] = _train_config({name: payload[name]}).to_dict()[name]  # checked as train_start does
    seed = overrides.pop("seed", 1)
    configs = dict(zip(CLAIM_SIDES, pair_configs(claim, seed=seed, **overrides), strict=True))
    sides = CLAIM_SIDES if side is None else (side,)
    RUNS.start_claim(claim, configs, sides)
    return {"claim": claim.to_dict(), "configs": {name: config.to_dict() for name, config in configs.items()},
            "sides": list(sides)}


def claim_steps(payload: dict) -> dict[str, Any]:
    """Take up to `steps` more steps of the claim's runs held here, one step of each in turn.

    Payload: {steps, max_seconds?} (as train_steps). The result: {step (steps every run here has taken), steps,
    losses: {side: the losses of the steps taken now} for each side held here, seconds (their training time so
    far, added), done}; once done, also `metrics` ({side: repeated-part accuracy and loss, measured as the claim
    says}) and, when both models train here, the `verdict` (claims.judge; otherwise `claim_verdict` gives it).
    """
    from .claims import judge, measure  # noqa: PLC0415

    if RUNS.claim is None:
        raise ModelInputError("no claim's test has been started", "claim")
    count, deadline = _steps_asked(payload)
    runs = {side: RUNS.claim_runs[side] for side in CLAIM_SIDES if side in RUNS.claim_runs}
    started = {side: run.steps for side, run in runs.items()}
    first = next(iter(runs))
    while not all(run.done for run in runs.values()) and runs[first].steps - started[first] < count:
        for run in runs.values():
            if not run.done:
                run.step()
        if time.perf_counter() >= deadline:
            break
    done = all(run.done for run in runs.values())
    report = {
        "step": min(run.steps for run in runs.values()),
        "steps": runs[first].config.steps,
        "losses": {side: run.losses[started[side]:] for side, run in runs.items()},
        "seconds": sum(run.seconds for run in runs.values()),
        "done": done,
    }
    if done:
        claim = RUNS.claim
        measured = {side: measure(claim, run.model) for side, run in runs.items()}
        report["metrics"] = {side: {"repeat_accuracy": metrics.repeat_accuracy, "repeat_loss": metrics.repeat_loss}
                             for side, metrics in measured.items()}  # the sentences' losses are not measured
        if len(measured) == len(CLAIM_SIDES):
            report["verdict"] = judge(claim, measured["with"], measured["without"]).to_dict()
    return report


def claim_verdict(payload: dict) -> dict[str, Any]:
    """The verdict on claim `claim` from both models' metrics ({with, without}: each {repeat_accuracy, ...}, as
    claim_steps reports them), for a pair whose two models trained in different interpreters."""
    from .claims import verdict_from_accuracies  # noqa: PLC0415

    claim = _claim_asked(payload)
    metrics = payload.get("metrics")
    if not isinstance(metrics, dict):
        raise ModelInputError("metrics must be {with: {repeat_accuracy}, without: {repeat_accuracy}}", "metrics")
    accuracies = []
    for side in CLAIM_SIDES:
        measured = metrics.get(side)
        accuracy = measured.get("repeat_accuracy") if isinstance(measured, dict) else None
        if isinstance(accuracy, bool) or not isinstance(accuracy, (int, float)) or not 0 <= accuracy <= 1:
            raise ModelInputError(f"metrics.{side}.repeat_accuracy must be a number from 0 to 1; got {accuracy!r}",
                                  "metrics")
        accuracies.append(float(accuracy))
    return verdict_from_accuracies(claim, *accuracies).to_dict()


def claims_list(payload: dict) -> list[dict[str, Any]]:
    """Every claim the page can test, as claims.Claim.to_dict gives it."""
    from .claims import CLAIMS  # noqa: PLC0415

    return [claim.to_dict() for claim in CLAIMS.values()]


__all__ = ["EXAMPLES", "QUICK_RUN", "TOP_K", "TRAINABLE", "examples", "model_head_scene", "model_info", "model_run",
           "claim_start", "claim_steps", "claim_verdict", "claims_list", "train_start", "train_steps"]
