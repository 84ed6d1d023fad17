"""One word's row through a head's stages, as the step view shows them: the query of that word, the keys of
the words it may read, their scores (query · key), the scores ÷ √d_k and the softmax weights.

The page's designed-against-learned view sets two such rows side by side, both at "it" of the tutorial's
sentence: the Part 6 head a learner set by hand (the preset designed_reads reads) and the head the model
learned (analysis.pronoun_head). The numbers are the ones each head computed (attention_stages, run by
compute_scene for the preset and by the model's forward pass), cut to one row; nothing is worked out again.

The arrays stay NumPy arrays: wire.py writes them out for the page.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..attention_maths import AttentionStages
from .analysis import DESIGNED_PRESET, TUTORIAL_SENTENCE, head_label
from .transformer import Model, run

#: The word whose row is shown.
PRONOUN = "it"


class StageRow(NamedTuple):
    """One head's stages at one word. `keys` lists only the tokens the word may read (a causal head cannot
    read the words after it), so every array's columns are those tokens."""

    label: str  # the head, as the page names it ("the Part 6 head", "L1H2")
    words: str  # the sentence
    word: str  # the word whose row this is
    keys: list[str]  # the tokens it may read, in order
    dims: list[str]  # the names of Q's and K's columns: a hand-set head's own, a learned head's 1 to d_k
    d_k: int
    scale: bool  # scores ÷ √d_k (False: the scores unchanged)
    query: np.ndarray  # (d_k,)  Q of the word
    K: np.ndarray  # (n_keys, d_k)  K of each token it may read
    scores: np.ndarray  # (n_keys,)  query · key
    scaled: np.ndarray  # (n_keys,)  scores ÷ √d_k, or the scores unchanged
    weights: np.ndarray  # (n_keys,)  softmax of scaled: adds up to 1


def stage_row(stages: AttentionStages, tokens: list[str], word: str, *, label: str, words: str, scale: bool,
              dims: list[str] | None = None) -> StageRow:
    """The row of the last `word` in `tokens` through `stages`, its columns cut to the tokens it may read
    (where the masked stage is finite). Unnamed dims are numbered from 1: nobody named what a learned head's
    dims mean."""
    row = len(tokens) - 1 - tokens[::-1].index(word)
    readable = np.isfinite(stages.masked[row])  # (n,)
    columns = np.flatnonzero(readable)  # (n_keys,)
    return StageRow(
        label=label, words=words, word=word, keys=[tokens[j] for j in columns],
        dims=list(dims) if dims else [str(k + 1) for k in range(stages.Q.shape[1])], d_k=stages.Q.shape[1], scale=scale,
        query=stages.Q[row],  # (d_k,)
        K=stages.K[columns],  # (n_keys, d_k)
        scores=stages.scores[row, columns],  # (n_keys,)
        scaled=stages.scaled[row, columns],  # (n_keys,)
        weights=stages.weights[row, columns],  # (n_keys,)
    )


def designed_row() -> StageRow:
    """The hand-set Part 6 head (preset DESIGNED_PRESET) at "it"."""
    from ..scene_stages import compute_scene
    from ..presets import load_preset

    scene = load_preset(DESIGNED_PRESET)
    computed = compute_scene(scene)
    return stage_row(computed.heads[0].stages, list(scene["tokens"]), PRONOUN, label="the Part 6 head, set by hand",
                     words=" ".join(scene["tokens"]), scale=computed.scene.scale, dims=computed.heads[0].head.dims)


def learned_row(model: Model, layer: int, head: int, words: str = TUTORIAL_SENTENCE) -> StageRow:
    """Head (layer, head) of the model at the last "it" of `words`."""
    result = run(model, words)
    return stage_row(result.stages[layer][head], result.tokens, PRONOUN, label=head_label(layer, head), words=words,
                     scale=model.config.scale)
