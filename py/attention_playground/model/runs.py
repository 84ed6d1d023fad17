"""The training runs an interpreter holds between requests, in one object, by the names requests give them.

A page trains in a worker that must answer between steps, so a run outlives the request that started it: the
next request takes more steps, or asks about the model as it is now. The runs a request may name:

- "trained": the learner's run (one at a time; starting another replaces it);
- "claim-with", "claim-without": the two runs of a claim's test (claims.py). The page may train them in two
  workers, one each, so an interpreter holds both or only one of them: its `sides`.

requests.py holds the one `TrainingRuns` of the interpreter; the tests give each test a fresh one.
"""

from __future__ import annotations

from typing import Any

from .analysis import describe
from .config import TrainConfig
from .errors import ModelInputError
from .training import Trainer
from .transformer import Model

#: The two models of a claim's test, in the order they are named everywhere.
CLAIM_SIDES = ("with", "without")

#: The name a request gives each of a claim's models, and its side.
CLAIM_MODELS = {f"claim-{side}": side for side in CLAIM_SIDES}

#: The name a request gives the learner's run.
LEARNER_MODEL = "trained"

#: Every name `TrainingRuns.model` answers to.
RUN_NAMES = (LEARNER_MODEL, *CLAIM_MODELS)


class TrainingRuns:
    """The learner's run and a claim's test, as far as each has got; `model(name)` finds either by name."""

    def __init__(self) -> None:
        self.learner: Trainer | None = None  # the learner's run, once started
        self._learner_summary: dict[str, Any] | None = None  # describe() of it, at the step it was measured
        self.claim: Any = None  # the claim under test (claims.Claim), once started
        self.claim_runs: dict[str, Trainer] = {}  # its runs held here, by side

    def start_learner_run(self, config: TrainConfig) -> Trainer:
        """A new learner's run with `config`, in place of any earlier one."""
        self.learner, self._learner_summary = Trainer(config), None
        return self.learner

    def learner_summary(self) -> dict[str, Any]:
        """describe() of the learner's model as it is now, measured once per step reached."""
        if self._learner_summary is None or self._learner_summary["steps"] != self.learner.steps:
            self._learner_summary = describe(self.learner.model)
        return self._learner_summary

    def start_claim(self, claim: Any, configs: dict[str, TrainConfig], sides: tuple[str, ...]) -> dict[str, Trainer]:
        """A new test of `claim`, in place of any earlier one: a run for each of `sides`, with its config."""
        self.claim = claim
        self.claim_runs = {side: Trainer(configs[side]) for side in sides}
        return self.claim_runs

    def held_sides(self) -> str:
        """The sides of the claim's test held here, as a message names them: '"with" and "without"'."""
        return " and ".join(f'"{side}"' for side in CLAIM_SIDES if side in self.claim_runs)

    def model(self, name: str) -> Model:
        """The model of run `name` as trained so far; ModelInputError if that run is not held here."""
        if name == LEARNER_MODEL:
            if self.learner is None:
                raise ModelInputError("no model has been trained here yet: train one first", "model")
            return self.learner.model
        if self.claim is None:
            raise ModelInputError("no claim's test has been started here yet: start one first", "model")
        side = CLAIM_MODELS[name]
        if side not in self.claim_runs:
            raise ModelInputError(f"the claim's model {side!r} is not trained here: this interpreter trains only "
                                  f"{self.held_sides()}", "model")
        return self.claim_runs[side].model
