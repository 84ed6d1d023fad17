"""Experiments that are not one scene: many random trials at once, vectorized.

- `scaling_experiment`: why divide by sqrt(d)? Random queries against random keys: without the
  division the top weight creeps towards 1 as the vectors get longer; with it, it stays put.
- `shuffle_check`: attention without positions ignores word order. Shuffle the tokens and each
  token's output just moves with it.

And the page's two experiments on the scene a learner is editing (Part 8 and "weights are not explanations"):

- `shuffle_scene`: the scene with its words in another order (a random one, or "dog bites man" against "man
  bites dog"), each word's output in both orders, and how far each moved from where its word took it;
- `knock_out_word`: the scene computed again with one word that nobody may read, and how far each word's
  output moved against the weight it had put on that word.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from .attention_maths import self_attention, softmax
from .scene_stages import ComputedScene, compute_scene

#: The most random numbers one experiment may draw: keeps memory (8 bytes each) near 32 MB.
MAX_DRAWS = 1 << 22
#: The longest query/key length the scaling experiment accepts.
MAX_D = 4096


def _whole_number(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number from {low} to {high}; got {value!r}")
    return int(value)


def scaling_experiment(ds: Sequence[int] = (4, 64, 512), n_keys: int = 10, trials: int = 500,
                       seed: int = 3) -> dict[str, Any]:
    """Average top weight of one random query over `n_keys` random keys, unscaled and scaled, per d.

    For each d in `ds`, first unscaled then scaled, each trial draws a query (1, d) and then the keys
    (n_keys, d) from one `default_rng(seed)` stream. Drawing (trials, 1 + n_keys, d) at once takes
    the very same numbers in the very same order, so the result equals a trial-by-trial loop.
    With the defaults it prints 0.501/0.307, 0.855/0.317 and 0.958/0.318 at three decimals.
    """
    if isinstance(ds, (str, bytes)) or not isinstance(ds, Sequence) or not 1 <= len(ds) <= 8:
        raise ValueError(f"ds must be a list of 1 to 8 lengths; got {ds!r}")
    ds = [_whole_number(d, "each d", 1, MAX_D) for d in ds]
    n_keys = _whole_number(n_keys, "n_keys", 1, 1000)
    trials = _whole_number(trials, "trials", 1, 100_000)
    seed = _whole_number(seed, "seed", 0, 2**63 - 1)
    if trials * (1 + n_keys) * max(ds) > MAX_DRAWS:
        raise ValueError(f"trials × (1 + n_keys) × d is more than {MAX_DRAWS} random numbers; use fewer trials")

    rng = np.random.default_rng(seed)
    rows = []
    for d in ds:
        row: dict[str, Any] = {"d": d}
        for scale in (False, True):
            draws = rng.normal(size=(trials, 1 + n_keys, d))  # per trial: the query, then the keys
            query = draws[:, :1, :]  # (trials, 1, d)
            keys = draws[:, 1:, :]  # (trials, n_keys, d)
            scores = query @ keys.transpose(0, 2, 1)  # (trials, 1, n_keys)
            if scale:
                scores = scores / np.sqrt(d)
            top_weight = softmax(scores, axis=-1).max(axis=-1)  # (trials, 1)
            row["scaled" if scale else "unscaled"] = float(top_weight.mean())
        rows.append(row)
    return {"ds": ds, "n_keys": n_keys, "trials": trials, "seed": seed, "rows": rows}


def shuffle_check(seed: int = 2, order: Sequence[int] = (4, 2, 0, 3, 1)) -> dict[str, Any]:
    """Self-attention of random tokens, then of the same tokens in `order`: are the outputs just reordered?

    Draws X (n, 8) and then Wq, Wk, Wv (8, 4) from `default_rng(seed)`, where n = len(order).
    Returns `equal` (True when the shuffled outputs match the original outputs taken in `order`),
    the largest difference, and both outputs (arrays, (n, 4) each).
    """
    seed = _whole_number(seed, "seed", 0, 2**63 - 1)
    if isinstance(order, (str, bytes)) or not isinstance(order, Sequence) or not 1 <= len(order) <= 64:
        raise ValueError(f"order must be a list of 1 to 64 positions; got {order!r}")
    order = _order(order, len(order))

    rng = np.random.default_rng(seed)
    X = rng.normal(size=(len(order), 8))  # (n_tokens, n_features)
    Wq, Wk, Wv = rng.normal(size=(8, 4)), rng.normal(size=(8, 4)), rng.normal(size=(8, 4))  # (n_features, 4) each
    output, _ = self_attention(X, Wq, Wk, Wv)  # (n_tokens, 4)
    shuffled_output, _ = self_attention(X[order], Wq, Wk, Wv)  # (n_tokens, 4)
    reordered = output[order]  # (n_tokens, 4): the original outputs, moved with their tokens
    return {
        "seed": seed,
        "order": order,
        "equal": bool(np.allclose(shuffled_output, reordered)),
        "max_difference": float(np.abs(shuffled_output - reordered).max()),
        "output": output,  # arrays: wire.py writes them out for the page
        "shuffled_output": shuffled_output,
    }


#: Differences this small come from adding the same numbers in another order, not from the scene.
ROUNDING = 1e-12


class ShuffledScene(NamedTuple):
    """A scene with its words reordered, against the scene as it was."""

    scene: dict[str, Any]  # the scene with its words in `order` (each keeps its row of X and of the mask)
    order: list[int]  # order[i] = the old place of the word that now stands at place i
    largest_difference: float | None  # largest |output now - output before, moved with its word|; None: a nan
    reason: str  # why the outputs did not just move: "none" (they did), "positions", "mask" or "other"
    output_before: np.ndarray  # (n_tokens, d_out): the scene's output, row by row, in the old order
    output_after: np.ndarray  # (n_tokens, d_out): the same in the new order
    differences: np.ndarray  # (n_tokens,): each word's largest |difference|, by its old place (nan: a nan)
    unchanged: np.ndarray  # (n_tokens,) bool: the word's output only moved (differences within ROUNDING), by old place


class KnockedOutWord(NamedTuple):
    """What knocking word `column` out did, for each word, seen through head `head`."""

    column: int
    head: int
    changes: np.ndarray  # (n_tokens,): the length of each word's output change (nan where an output is nan)
    weights: np.ndarray  # (n_tokens,): head `head`'s weight on the word, row by row, before the knock-out
    masked: np.ndarray  # (n_tokens,) bool: the row could not read the word even before
    most_changed: int | None  # the row whose output moved most (None if no output could be compared)
    most_weighted: int | None  # the row that put the most weight on the word (None if every row was masked)


def _place(value: Any, name: str, count: int) -> int:
    return _whole_number(value, name, 0, count - 1)


def _order(order: Any, n_tokens: int) -> list[int]:
    if isinstance(order, (str, bytes)) or not isinstance(order, Sequence) or len(order) != n_tokens:
        raise ValueError(f"order must list the {n_tokens} places of the scene's words; got {order!r}")
    places = [_place(i, "each place in order", n_tokens) for i in order]
    if sorted(places) != list(range(n_tokens)):
        raise ValueError(f"order must list each place from 0 to {n_tokens - 1} once; got {places}")
    return places


def _rows_in(value: Any, order: list[int]) -> Any:
    """The rows of a matrix (nested lists, or an array unpacked from the page) in `order`."""
    return value[order] if isinstance(value, np.ndarray) else [value[i] for i in order]


def _reordered(scene: Mapping[str, Any], order: list[int]) -> dict[str, Any]:
    moved = dict(scene)
    moved["tokens"] = _rows_in(scene["tokens"], order)
    if scene.get("title") == " ".join(scene["tokens"]):  # a title that is the sentence ("dog bites man") follows it
        moved["title"] = " ".join(moved["tokens"])
    moved["X"] = _rows_in(scene["X"], order)
    if not isinstance(scene["mask"], str):  # a named mask ("causal") stays what it says; a drawn one moves
        moved["mask"] = [[scene["mask"][row][column] for column in order] for row in order]
    return moved


def _moved_row_differences(before: ComputedScene, after: ComputedScene, order: list[int]) -> np.ndarray:
    """Each word's largest |difference| between its output now and its output before, taken to its new place,
    by the word's old place (n_tokens,). A head with one-hot values (Wv null) hands over "where", so its output
    columns are places: they move too."""
    largest = np.zeros(len(order))  # (n_tokens,), by new place
    for was, now in zip(before.heads, after.heads, strict=True):
        expected = was.stages.output[order]  # (n_tokens, d_v): each word's output, at its new place
        if was.head.Wv is None:
            expected = expected[:, order]
        largest = np.maximum(largest, np.abs(now.stages.output - expected).max(axis=1))  # a nan stays a nan
    by_old_place = np.empty_like(largest)
    by_old_place[order] = largest
    return by_old_place


def shuffle_scene(scene: Mapping[str, Any], order: Sequence[int]) -> ShuffledScene:
    """`scene` with its words in `order`, and whether every word's output just moved with its word.

    Raises `SceneError` for a scene the module refuses, ValueError for an order that is not one of its places.
    """
    before = compute_scene(scene)
    places = _order(order, len(before.scene.tokens))
    moved = _reordered(scene, places)
    after = compute_scene(moved)
    differences = _moved_row_differences(before, after, places)
    largest = float(differences.max())  # nan if any word's is
    if np.isnan(largest):
        reason, largest_difference = "other", None
    else:
        largest_difference = largest
        reason = (
            "none" if largest <= ROUNDING
            else "positions" if after.scene.positions != "none"
            else "mask" if not np.array_equal(after.scene.mask, before.scene.mask[np.ix_(places, places)])
            else "other"
        )
    unchanged = differences <= ROUNDING  # (n_tokens,); a nan is not unchanged
    return ShuffledScene(moved, places, largest_difference, reason, before.output, after.output, differences, unchanged)


def knock_out_word(scene: Mapping[str, Any], column: int, head: int = 0) -> KnockedOutWord:
    """`scene` computed again with word `column` knocked out (no word may read it, on top of the scene's own
    mask), and how far each word's output moved, beside the weight head `head` had put on that word."""
    before = compute_scene(scene)
    column = _place(column, "column", len(before.scene.tokens))
    head = _place(head, "head", len(before.heads))
    knocked_mask = before.scene.mask.copy()  # (n_tokens, n_tokens), True = may not read
    knocked_mask[:, column] = True
    after = compute_scene({**scene, "mask": knocked_mask.tolist()})  # a scene's mask is nested lists
    changes = np.linalg.norm(before.output - after.output, axis=1)  # (n_tokens,); nan where an output is nan
    masked = before.scene.mask[:, column]  # (n_tokens,)
    weights = before.heads[head].stages.weights[:, column]  # (n_tokens,)
    finite = np.isfinite(changes)
    readable = ~masked & np.isfinite(weights)
    return KnockedOutWord(
        column=column,
        head=head,
        changes=changes,
        weights=weights,
        masked=masked,
        most_changed=int(np.argmax(np.where(finite, changes, -np.inf))) if finite.any() else None,
        most_weighted=int(np.argmax(np.where(readable, weights, -np.inf))) if readable.any() else None,
    )
