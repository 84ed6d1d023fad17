"""The sudden drop in a training loss curve: the loss sits on a plateau, then falls fast. In these models it
comes when the induction head forms (copying the repeated runs starts to pay); the training view marks it.

Each step's loss is one batch's, so it is noisy: the curve is read through means over windows of W steps
(`window_for`). At window k the fall is from the window before it to the window after it (the means of steps
k - W .. k - 1 and k + W .. k + 2W - 1). It counts as a drop when it is

- large: at least MIN_DROP, and at least NOISE_SIGMAS standard deviations of the difference of two means of
  noise (the steps' noise measured on the curve itself, from the step-to-step changes);
- sudden: at least STEEPER times the fall over the two windows before it (a plateau, not the steady fall of
  the first steps).

Of those, the largest is the drop; it is then followed back and on while the loss falls fast (half the
threshold a window), so `before` is the plateau and `after` where the loss settles.

A pure function of the losses: the same for the shipped checkpoint's curve and for a run in progress.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

#: The least fall, in nats, that counts as a drop.
MIN_DROP = 0.3
#: How far above the noise a fall must be, in standard deviations of the difference of two windows' means.
NOISE_SIGMAS = 4.0
#: How much faster than just before the loss must fall: the drop ends a plateau.
STEEPER = 2.0
#: The smallest window of steps a mean is taken over; longer runs use a thirtieth of their steps.
MIN_WINDOW = 20


class LossDrop(NamedTuple):
    """Where the loss fell suddenly. Steps count from 1, as the page counts them."""

    start: int  # the first step of the fall
    end: int  # the last step of the fall
    before: float  # the mean loss over the `window` steps before `start`
    after: float  # the mean loss over the `window` steps after `end`
    window: int  # steps per mean


def window_for(n_steps: int) -> int:
    """The window of steps each mean is taken over, for a curve of n_steps."""
    return max(MIN_WINDOW, n_steps // 30)


def find_loss_drop(losses: Sequence[float], window: int | None = None) -> LossDrop | None:
    """The sudden drop in `losses` (one per step), or None if there is none (or too few steps to tell)."""
    values = np.asarray(losses, dtype=np.float64)  # (n,)
    w = window_for(len(values)) if window is None else window
    if len(values) < 4 * w or not np.isfinite(values).all():
        return None
    means = np.convolve(values, np.ones(w) / w, mode="valid")  # (n - w + 1,): means[k] = mean of steps k .. k+w-1
    k = np.arange(3 * w, len(means) - w)  # windows with two plateau windows before and a window after
    if len(k) == 0:
        return None
    threshold = max(MIN_DROP, NOISE_SIGMAS * step_noise(values) * np.sqrt(2 / w))
    fall = means[k - w] - means[k + w]  # (len(k),) across the window k
    fall_before = means[k - 3 * w] - means[k - w]  # (len(k),) over the two windows before it
    counts = (fall >= threshold) & (fall >= STEEPER * np.maximum(fall_before, 0.0))
    if not counts.any():
        return None
    best = int(k[np.argmax(np.where(counts, fall, -np.inf))])
    start, end = best, best + w  # the fall's first step, and the first window after it
    # Followed back and on while the loss falls fast, so `before` is the plateau and `after` where it settles.
    while start - 2 * w >= 0 and means[start - 2 * w] - means[start - w] >= threshold / 2:
        start -= w
    while end + w < len(means) and means[end] - means[end + w] >= threshold / 2:
        end += w
    return LossDrop(start=start + 1, end=end, before=float(means[start - w]), after=float(means[end]), window=w)


def step_noise(values: np.ndarray) -> float:
    """The standard deviation of one step's loss about the curve, from the changes between steps (robust to
    the curve's own falls: the median absolute change, as a normal's standard deviation, over √2)."""
    changes = np.abs(np.diff(values))  # (n - 1,)
    return float(1.4826 * np.median(changes) / np.sqrt(2))
