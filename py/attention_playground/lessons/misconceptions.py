"""Every stage of one head computed right, and computed as a common mistake would compute it.

A lesson's multiple choice can offer the numbers a learner gets from a mistake beside the right one; the module
works each out from the step's scene, so the wrong options are the wrong numbers this scene really gives. A
computed answer that matches one of them is named too ("that is what you get without ÷√d").

The stages here are the module's (scores, scaled, masked, weights, output) and two more that the tutorial works by
hand on the way to the weights: `exp`, e raised to each scaled score without the shift (as the tutorial writes it;
a blocked cell gives e^−∞ = 0), and `total`, each row's sum of those (one number per row).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..attention_maths import softmax
from ..scene_stages import ComputedScene


class Misconception(NamedTuple):
    """A way of computing attention, right or wrong, as a lesson names it."""

    id: str
    label: str  # a few words, shown beside the option's number once revealed
    meaning: str  # what the mistake is, in a sentence's clause: "the scores went into the softmax without ÷√d"


#: Every way a lesson can compute, the right one first.
MISCONCEPTIONS: dict[str, Misconception] = {m.id: m for m in (
    Misconception("right", "right", "every step done as the module does it"),
    Misconception("no-scale", "÷√d forgotten", "the scores went into the softmax without the division by √d"),
    Misconception("scale-by-d", "÷d instead of ÷√d", "the scores were divided by d instead of by √d"),
    Misconception("softmax-over-columns", "softmax down the columns",
                  "each column was made to add up to 1 instead of each row"),
    Misconception("rows-and-columns-swapped", "rows and columns swapped",
                  "the cell read is the one where the other word asks: the table transposed"),
    Misconception("mask-reversed", "the mask flipped", "the mask blocks the earlier words instead of the later ones"),
    Misconception("no-shift", "no shift before e^",
                  "e was raised to the scores without subtracting each row's largest first"),
    Misconception("no-exp", "no e^", "each score was divided by its row's total without raising e to it first"),
)}

#: The stages a lesson can ask about, in the order a head computes them.
LESSON_STAGES = ("Q", "K", "V", "scores", "scaled", "masked", "exp", "total", "weights", "output")
#: Stages whose columns are the words (the rest: dims, value dims, or one number per row).
WORD_COLUMN_STAGES = ("scores", "scaled", "masked", "exp", "weights")


def stages_as(computed: ComputedScene, head: int, misconception: str = "right") -> dict[str, np.ndarray]:
    """Every lesson stage of head `head` of a computed scene, computed as `misconception` does (MISCONCEPTIONS).

    Returns {stage: array}: Q, K (n, d_k); V, output (n, d_v); scores, scaled, masked, exp, weights (n, n); total
    (n,). "rows-and-columns-swapped" transposes every (n, n) stage and has no output of its own: its output is the
    right one."""
    scene = computed.scene
    stages = computed.heads[head].stages
    d_k = stages.Q.shape[1]
    scaled = stages.scaled  # (n, n)
    blocked = scene.mask  # (n, n), True = may not read
    if misconception == "no-scale":
        scaled = stages.scores
    elif misconception == "scale-by-d":
        scaled = stages.scores / d_k
    if misconception == "mask-reversed":
        blocked = scene.mask.T
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        masked = np.where(blocked, -np.inf, scaled)  # (n, n)
        exp = np.exp(masked)  # (n, n): e^score as the tutorial writes it, no shift
        total = exp.sum(axis=1)  # (n,)
        if misconception == "softmax-over-columns":
            weights = softmax(masked, axis=0, shift=scene.shift)  # (n, n): each column sums to 1
        elif misconception == "no-shift":
            weights = softmax(masked, axis=-1, shift=False)  # (n, n)
        elif misconception == "no-exp":
            plain_scores = np.where(blocked, 0.0, scaled)  # (n, n)
            weights = plain_scores / plain_scores.sum(axis=1, keepdims=True)  # (n, n)
        else:
            weights = softmax(masked, axis=-1, shift=scene.shift)  # (n, n)
        output = weights @ stages.V  # (n, d_v)
    result = {"Q": stages.Q, "K": stages.K, "V": stages.V, "scores": stages.scores, "scaled": scaled,
              "masked": masked, "exp": exp, "total": total, "weights": weights, "output": output}
    if misconception == "rows-and-columns-swapped":
        for name in WORD_COLUMN_STAGES:
            result[name] = result[name].T
        result["output"] = stages.output
    return result
