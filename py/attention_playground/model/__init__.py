"""A tiny transformer that learned its own attention, small enough to train in a browser in seconds.

Two layers of four attention heads, no MLP, trained on repeated random runs and simple sentences. It grows
the heads the interpretability literature describes: a previous-token head in layer 0, induction heads in
layer 1, and attention parked on the first token when there is nothing to find.

    from attention_playground.model import load_model, run, head_scene
    model = load_model()                                  # the shipped checkpoint
    result = run(model, "the fox met a crow and the fox smiled")
    result.weights[1][0]                                  # layer 1, head 0: (10, 10), <bos> first
    scene = head_scene(model, "the fox met a crow and the fox smiled", 1, 0)   # for compute()

One file per concept: `corpus` (the data), `config` (`TrainConfig`), `transformer` (parameters and the
forward pass), `gradients` (the training pass and its gradient, written out), `training` (Adam, the runs),
`evaluation` (the fixed evaluation set), `analysis` (head scores, roles, knock-outs), `scenes` (a head or a
layer as a scene: `head_scene`, `layer_scene`), `stage_rows` (one word's row through a head's stages), `loss_drop`
(the sudden drop in a loss curve), `checkpoint` (reading and writing it), `errors`, `requests` (what the page
asks), `repeated_noun` (what the model does on the tutorial's sentence with a repeated noun, for the preset's
description), and `make_checkpoint` (the script: `python3 -m attention_playground.model.make_checkpoint` trains
the shipped model and writes its checkpoint).

Everything, training included, needs nothing but NumPy.
"""

from .analysis import (
    ROLE_THRESHOLDS,
    HeadScores,
    KnockOut,
    NextWordChange,
    PronounScores,
    SecondMentionScores,
    SoundProbability,
    describe,
    designed_reads,
    head_roles,
    head_scores,
    knock_out,
    knock_out_table,
    next_word_change,
    pronoun_head,
    pronoun_knock_outs,
    pronoun_scores,
    role,
    second_mention_scores,
    sound_probability,
    top_predictions,
)
from .checkpoint import load_model
from .config import TrainConfig
from .corpus import BOS, VOCABULARY
from .errors import ModelInputError
from .evaluation import Metrics, evaluate
from .scenes import head_scene, layer_scene
from .training import StopTraining, Trainer, train
from .transformer import Model, Run, run, vocabulary, with_head_weights

__all__ = [
    "BOS",
    "VOCABULARY",
    "ROLE_THRESHOLDS",
    "HeadScores",
    "KnockOut",
    "Metrics",
    "Model",
    "ModelInputError",
    "NextWordChange",
    "PronounScores",
    "SecondMentionScores",
    "SoundProbability",
    "Run",
    "StopTraining",
    "TrainConfig",
    "Trainer",
    "describe",
    "designed_reads",
    "evaluate",
    "head_roles",
    "head_scene",
    "head_scores",
    "knock_out",
    "knock_out_table",
    "layer_scene",
    "load_model",
    "next_word_change",
    "pronoun_head",
    "pronoun_knock_outs",
    "pronoun_scores",
    "role",
    "run",
    "second_mention_scores",
    "sound_probability",
    "top_predictions",
    "train",
    "vocabulary",
    "with_head_weights",
]
