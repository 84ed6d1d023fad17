"""The tutorials' claims about why attention is built as it is, each put to a causal test.

A claim says a design choice matters ("divide by √d", "add positions", ...). Its test trains the model twice
from the same seed on the same data, once with the choice and once without (one TrainConfig option
switched), and measures both the same way: repeated-part accuracy on the fixed evaluation set, the one
thing this model can only do by attending to the right token. A model trained without the causal mask is
measured with the mask on: a model that must predict the next word cannot see it, and that is how it
would be used.

    claim = CLAIMS["positions"]
    with_config, without_config = pair_configs(claim, seed=1)
    result = judge(claim, measure(claim, train(with_config)), measure(claim, train(without_config)))
    result.sentence     # "Shown: with positions, the model predicts 96% of the repeated part; without ..."

The verdict is written from the two measurements and one threshold (`SHOWN_GAP`), never typed in. The
settings each pair trains with (`Claim.settings`) are the cheapest found to show the claim on seeds 1-5
(tests/native/test_model_claims.py; the figures are in docs/model.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from .config import TrainConfig
from .evaluation import Metrics, evaluate
from .transformer import Model

#: A claim is shown when the model with the choice predicts at least this much more of the repeated part (in
#: accuracy, 0-1) than the model without it (the figures at each claim's settings are in docs/model.md,
#: "Test a claim"); two models that both fail differ by less than 0.2.
SHOWN_GAP = 0.3

#: Settings every pair trains with unless its claim says otherwise: only repeated runs (the copying task is
#: what every claim is measured on, so the sentences would only slow the pair down), a small shape of its own
#: (2 heads a layer of d_head 16: it learns to copy soonest), and as many steps as that takes on seeds 1-5 with
#: the story world's 160 words (seed 1: 0.65 at 200 steps, 0.97 at 300).
PAIR_SETTINGS: dict[str, Any] = {"repeat_fraction": 1.0, "steps": 300, "n_heads": 2, "d_head": 16}

#: The ÷√d claim's own shape and length: it shows only with a wide head (√64 = 8), and only once the unscaled
#: model has learned to copy and then unlearned it. One head a layer is enough for copying and costs half of two;
#: runs of at most 28 words (not 32) and 360 steps cost nearly a third less than 32 words and 450 steps, and the
#: unscaled loss still ended 1.12 to 1.30 nats above its best on seeds 1-5 (the test asks for 1); at 350 steps
#: only 0.97 on seed 3, at 24 to 27 words 0.86 to 0.87 on one seed, with a residual width of 24 0.54 on seed 4
#: (bench/scale_claim_settings.py; figures in docs/model.md).
SCALE_SETTINGS: dict[str, Any] = {"n_heads": 1, "d_head": 64, "max_words": 28, "steps": 360}


@dataclass(frozen=True)
class Claim:
    """One claim and its test: which TrainConfig option is switched, and the settings both models share.

    - `option`: the TrainConfig field; the model "with" the choice has its default value, the model
      "without" has `without`
    - `settings`: TrainConfig fields both models train with (PAIR_SETTINGS and the claim's own)
    - `with_label`, `without_label`: the two models as the verdict names them
    """

    id: str
    title: str
    statement: str
    source: str
    option: str
    without: Any
    with_label: str
    without_label: str
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def measured_with_mask(self) -> bool:
        """True when the model without the choice must be measured with the causal mask put back."""
        return self.option == "causal_mask"

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "statement": self.statement, "source": self.source,
                "option": self.option, "without": self.without, "with_label": self.with_label,
                "without_label": self.without_label, "settings": dict(self.settings),
                "measured_with_mask": self.measured_with_mask}


CLAIMS: dict[str, Claim] = {claim.id: claim for claim in (
    Claim("scale", "Divide by √d",
          "Scores are divided by √d before the softmax; without it the softmax saturates and learning weakens.",
          "tutorial Part 7; the lab's first detail", "scale", False,
          "with ÷√d", "without ÷√d", settings={**PAIR_SETTINGS, **SCALE_SETTINGS}),
    Claim("mask", "The causal mask",
          "The causal mask is what makes a model autoregressive: without it, it reads the word it should predict.",
          "the lab's second detail", "causal_mask", False,
          "with the mask", "without the mask", settings=dict(PAIR_SETTINGS)),
    Claim("positions", "Positions must be added",
          "Attention alone ignores word order, so each token's position must be added to its vector.",
          "tutorial Part 8", "positions", False,
          "with positions", "without positions", settings=dict(PAIR_SETTINGS)),
    Claim("separate-qk", "Separate queries and keys",
          "A word needs a separate query and key, because what it looks for is not what it is.",
          "tutorial Part 2", "tied_qk", True,
          "with separate W_Q and W_K", "with one matrix for both (W_K = W_Q)", settings=dict(PAIR_SETTINGS)),
)}


def claim_named(claim_id: str) -> Claim:
    """The claim with this id; KeyError naming the known ones otherwise."""
    try:
        return CLAIMS[claim_id]
    except KeyError:
        raise KeyError(f"no claim {claim_id!r}; the claims are {', '.join(CLAIMS)}") from None


def pair_configs(claim: Claim, seed: int = 1, base: TrainConfig = TrainConfig(), **overrides) -> tuple[TrainConfig, TrainConfig]:
    """The two configs of the claim's test: (with the choice, without it). Same seed, so same start and data.

    `overrides` (e.g. steps=20) apply to both, after the claim's settings.
    """
    shared = replace(base, **{**claim.settings, **overrides, "seed": seed})
    return shared, replace(shared, **{claim.option: claim.without})


def as_used(model: Model) -> Model:
    """The model as it must be used to predict: with the causal mask on, whatever it was trained with."""
    if model.config.causal_mask:
        return model
    return replace(model, config=replace(model.config, causal_mask=True))


def measure(claim: Claim, model: Model) -> Metrics:
    """The claim's measurement of one model: repeated-part metrics, with the mask on for the mask's claim."""
    return evaluate(as_used(model) if claim.measured_with_mask else model, repeated_only=True)


@dataclass(frozen=True)
class Verdict:
    """The outcome of one pair: both accuracies, whether the claim showed, and the sentence saying so."""

    claim: str
    with_accuracy: float
    without_accuracy: float
    shown: bool
    sentence: str

    def to_dict(self) -> dict[str, Any]:
        return {"claim": self.claim, "with_accuracy": self.with_accuracy, "without_accuracy": self.without_accuracy,
                "shown": self.shown, "sentence": self.sentence, "shown_gap": SHOWN_GAP}


def _percent(accuracy: float) -> str:
    return f"{accuracy * 100:.0f}%"


def judge(claim: Claim, with_metrics: Metrics, without_metrics: Metrics) -> Verdict:
    """The verdict on a claim from its two measurements, in words made from the numbers."""
    return verdict_from_accuracies(claim, with_metrics.repeat_accuracy, without_metrics.repeat_accuracy)


def verdict_from_accuracies(claim: Claim, with_accuracy: float, without_accuracy: float) -> Verdict:
    """The verdict on a claim from the two models' repeated-part accuracies (all `judge` reads of a
    measurement), for two models measured in different interpreters (the page trains them side by side)."""
    shown = with_accuracy - without_accuracy >= SHOWN_GAP
    hidden = " with the next word hidden" if claim.measured_with_mask else ""
    measured = (f"{claim.with_label}, the model predicts {_percent(with_accuracy)} of the repeated part{hidden}; "
                f"{claim.without_label}, {_percent(without_accuracy)}")
    if shown:
        sentence = f"Shown: {measured}."
    else:
        sentence = (f"Not shown by this run: {measured} (it shows when the first beats the second by "
                    f"{SHOWN_GAP * 100:.0f} points or more).")
    return Verdict(claim.id, with_accuracy, without_accuracy, shown, sentence)


__all__ = ["CLAIMS", "PAIR_SETTINGS", "SCALE_SETTINGS", "SHOWN_GAP", "Claim", "Verdict", "as_used", "claim_named",
           "judge", "measure", "pair_configs", "verdict_from_accuracies"]
