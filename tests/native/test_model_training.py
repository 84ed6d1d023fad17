"""Training: deterministic for a seed, stoppable from the callback, and it reproduces the shipped model.

The across-seeds test trains 5 models with early stopping at 90% (a few seconds natively).
"""

from dataclasses import replace

import numpy as np
import pytest

from attention_playground.model import StopTraining, TrainConfig, evaluate, head_roles, train
from attention_playground.model.checkpoint import shipped_checkpoint
from training_cost import RETRAIN_STEPS_IN_PYODIDE, steps_to_retrain

SHORT = TrainConfig(steps=30)

#: How far the retrained model's evaluation loss may be from the shipped one's (nats). Retraining on the
#: same NumPy gives the same model bit for bit; on another NumPy (Pyodide's, without BLAS) the sums round
#: differently and the run drifts a little.
RETRAIN_LOSS_TOLERANCE = 0.15
#: The checkpoint keeps each step's loss to 4 significant digits (5e-4 apart at most for losses under 10).
#: Retrained inside Pyodide, whose NumPy sums in another order, the first 400 steps stayed within that rounding.
CURVE_TOLERANCE = 1e-3
#: Seeds for the across-seeds test, and the most steps each may take to reach 90% repeated-part accuracy.
SEEDS = (1, 2, 3, 4, 5)
MOST_STEPS = 600
#: The shape the page trained live before the story world (2 heads per layer, mostly repeated runs): copying
#: forms in it within MOST_STEPS; the shipped shape takes longer (see docs/model.md).
SMALL_SHAPE = TrainConfig(n_heads=2, d_head=16, repeat_fraction=0.75)


def test_the_defaults_are_the_documented_ones():
    c = TrainConfig()
    assert (c.n_layers, c.n_heads, c.d_model, c.d_head, c.max_words, c.n_ctx) == (2, 4, 32, 8, 32, 33)
    assert (c.lr, c.batch_size, c.repeat_fraction, c.steps) == (0.02, 16, 0.5, 1500)
    assert TrainConfig.from_dict(c.to_dict()) == c


def test_two_runs_with_one_seed_are_identical_bit_for_bit():
    first, second = train(SHORT), train(SHORT)
    for name in first.params:
        assert np.array_equal(first.params[name], second.params[name]), name
    assert first.loss_curve == second.loss_curve and len(first.loss_curve) == SHORT.steps
    other = train(replace(SHORT, seed=1))
    assert not np.array_equal(other.params["W_E"], first.params["W_E"])


def test_on_step_sees_every_step_and_can_stop_the_run():
    seen = []

    def on_step(step, loss, elapsed):
        seen.append((step, loss, elapsed))
        return step < 5

    model = train(SHORT, on_step)
    assert [step for step, _, _ in seen] == [1, 2, 3, 4, 5]
    assert model.steps == 5 and list(model.loss_curve) == [loss for _, loss, _ in seen]
    assert all(b >= a for (_, _, a), (_, _, b) in zip(seen, seen[1:], strict=False))
    # Stopping changes nothing about the steps taken: they are the first 5 steps of a full run.
    assert list(train(SHORT).loss_curve[:5]) == list(model.loss_curve)


def test_raising_stop_training_ends_the_run_too():
    def on_step(step, loss, elapsed):
        if step == 3:
            raise StopTraining

    assert train(SHORT, on_step).steps == 3


def test_training_lowers_the_loss():
    model = train(replace(SHORT, steps=60))
    assert np.mean(model.loss_curve[-10:]) < np.mean(model.loss_curve[:10]) - 0.3


def test_retraining_with_the_shipped_config_gives_the_shipped_model(shipped_model, retrained_model):
    shipped = shipped_checkpoint()
    assert replace(retrained_model.config, steps=shipped["steps"]) == shipped_model.config
    assert retrained_model.steps == steps_to_retrain(shipped["steps"])
    # Step by step, its first steps are the shipped run's (to the curve's rounding), on any NumPy.
    first = slice(0, RETRAIN_STEPS_IN_PYODIDE)
    assert list(retrained_model.loss_curve[first]) == pytest.approx(shipped["loss_curve"][first], abs=CURVE_TOLERANCE)
    if retrained_model.steps == shipped["steps"]:  # the whole run (natively; training_cost.py says why not in Pyodide)
        assert head_roles(retrained_model) == head_roles(shipped_model)
        assert evaluate(retrained_model).loss == pytest.approx(evaluate(shipped_model).loss, abs=RETRAIN_LOSS_TOLERANCE)


# A fact about training, run natively only: inside Pyodide a step's arithmetic is checked by the retraining above,
# step by step against the shipped curve, and one seed's run alone took a third of the suite's time there.
@pytest.mark.trains_long
def test_five_seeds_all_learn_to_copy_within_600_steps():
    for seed in SEEDS:
        config = replace(SMALL_SHAPE, seed=seed, steps=MOST_STEPS, stop_at_accuracy=0.9)
        model = train(config)
        accuracy = evaluate(model, repeated_only=True).repeat_accuracy
        assert accuracy >= 0.9, f"seed {seed}: {accuracy:.3f} after {model.steps} steps"
