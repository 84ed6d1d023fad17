"""The sudden drop in a loss curve (model/loss_drop.py): found on the shipped model's real curve, where the
training view marks it, and nowhere on curves that have none."""

import numpy as np
import pytest

from attention_playground.model.checkpoint import shipped_checkpoint
from attention_playground.model.loss_drop import MIN_DROP, find_loss_drop


@pytest.fixture(scope="module")
def shipped_curve():
    return shipped_checkpoint()["loss_curve"]


def test_the_shipped_curve_drops_after_its_plateau_not_in_its_first_fall(shipped_curve):
    drop = find_loss_drop(shipped_curve)
    assert drop is not None
    assert drop.before - drop.after >= MIN_DROP
    assert drop.start > 3 * drop.window  # two windows of plateau before it: not the first steps' fall
    assert drop.start <= drop.end < len(shipped_curve)
    # `before` and `after` are the curve's means over the windows either side of the drop (steps count from 1).
    assert drop.before == pytest.approx(np.mean(shipped_curve[drop.start - 1 - drop.window: drop.start - 1]))
    assert drop.after == pytest.approx(np.mean(shipped_curve[drop.end: drop.end + drop.window]))


def test_the_shipped_curve_up_to_its_drop_has_none(shipped_curve):
    drop = find_loss_drop(shipped_curve)
    assert find_loss_drop(shipped_curve[: drop.start - 1]) is None  # the first fall and the plateau are not drops


@pytest.mark.parametrize("seed", range(3))
def test_a_flat_noisy_curve_and_a_steady_fall_have_none(shipped_curve, seed):
    rng = np.random.default_rng(seed)
    noise = np.std(shipped_curve[-500:])  # as noisy as the shipped run's last steps
    steps = np.arange(1500)
    assert find_loss_drop(3.0 + noise * rng.standard_normal(1500)) is None
    assert find_loss_drop(3.0 + noise * rng.standard_normal(200)) is None
    assert find_loss_drop(2.0 + 3.0 * np.exp(-steps / 60) + noise * rng.standard_normal(1500)) is None


def test_a_plateau_then_a_fall_is_found_where_it_falls():
    rng = np.random.default_rng(0)
    steps = np.arange(1, 1201)
    curve = 2.0 + 1.0 / (1 + np.exp((steps - 700) / 15)) + 0.3 * rng.standard_normal(len(steps))  # 3 → 2 at step 700
    drop = find_loss_drop(curve)
    assert drop is not None
    assert drop.start - drop.window <= 700 <= drop.end + drop.window
    assert drop.before == pytest.approx(3.0, abs=0.15) and drop.after == pytest.approx(2.0, abs=0.15)
    assert find_loss_drop([3.0] * 30) is None  # too few steps to tell


def test_the_page_is_given_the_curve_and_its_drop(shipped_curve):
    from attention_playground.model import requests as model_requests
    from attention_playground.wire import plain

    info = plain(model_requests.model_info({}))
    assert info["loss_curve"] == shipped_curve
    assert info["loss_drop"] == plain(find_loss_drop(shipped_curve))
    assert set(info["loss_drop"]) == {"start", "end", "before", "after", "window"}
