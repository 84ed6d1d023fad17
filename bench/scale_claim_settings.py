"""How cheaply does the ÷√d claim show? Its pair trained at smaller settings, natively (a measurement, not a test;
docs/model.md, "Test a claim", gives the figures).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/scale_claim_settings.py                # every candidate, seeds 1-3
    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/scale_claim_settings.py h1-d64-s400     # one candidate
    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/scale_claim_settings.py --custom 1,64,400,16
    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/scale_claim_settings.py --custom 1,64,300,16,lr=0.04 --seeds 1 2 3 4 5 --stop-on-fail
    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/scale_claim_settings.py --custom 1,64,450,16,max_words=24

A candidate is heads a layer, d_head, steps, batch size and (for some) the residual width d_model; the rest is
the claim's settings (claims.CLAIMS["scale"]). A --custom candidate may also set Adam's step size (`lr=0.03`,
TrainConfig's otherwise) and the sequence length (`max_words=24`: T = max_words + 1 positions, TrainConfig's
otherwise); --stop-on-fail moves on to the next candidate at a candidate's first failing seed.
Each pair is judged by tests/native/test_model_claims.py's own criteria for this claim: the scaled model's
repeated-part accuracy at least WITH_AT_LEAST and the verdict "Shown", the unscaled model's loss (means of 20 steps)
ending more than 1 nat above its best, the scaled one's less than 0.5. Prints one JSON line per candidate and seed
(accuracies, climbs, whether it passed, seconds) and, per candidate, the multiply-adds of a pair's forward passes
(`pair_multiply_adds`: what the cost is compared by, since the seconds depend on the machine's load).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "py"))
sys.path.insert(0, str(ROOT / "tests" / "native"))

from attention_playground.model import TrainConfig, train  # noqa: E402
from attention_playground.model.claims import CLAIMS, judge, measure, pair_configs  # noqa: E402
from attention_playground.model.corpus import VOCABULARY  # noqa: E402
from test_model_claims import WITH_AT_LEAST, climb_from_best  # noqa: E402

#: The unscaled model's loss must climb more than this from its best, the scaled one's less than the second
#: (the native test's bounds).
UNSCALED_CLIMB_ABOVE, SCALED_CLIMB_BELOW = 1.0, 0.5

#: name: (heads a layer, d_head, steps, batch size[, d_model, 32 unless given]), the claim's settings first.
CANDIDATES: dict[str, tuple[int, ...]] = {
    "h2-d64-s500": (2, 64, 500, 16),
    "h1-d64-s500": (1, 64, 500, 16),
    "h1-d64-s450": (1, 64, 450, 16),
    "h1-d64-s400": (1, 64, 400, 16),
    "h2-d64-s400": (2, 64, 400, 16),
    "h1-d64-s350": (1, 64, 350, 16),
    "h1-d64-s300": (1, 64, 300, 16),
    "h1-d48-s400": (1, 48, 400, 16),
    "h1-d64-s400-b8": (1, 64, 400, 8),
    "h1-d64-s450-b12": (1, 64, 450, 12),
    "h1-d64-s500-b8": (1, 64, 500, 8),
    "h1-d64-s400-m16": (1, 64, 400, 16, 16),
}


def multiply_adds_per_step(config: TrainConfig) -> int:
    """Multiply-adds of one forward pass over a batch: every head's projections and attention, and the unembedding.

    Every size is the config's own, the sequence length T (n_ctx = max_words + 1) included. The backward pass
    costs about twice as much again, in the same proportion, so this orders settings by cost.
    """
    T, d, H, dh = config.n_ctx, config.d_model, config.n_heads, config.d_head
    per_layer = 4 * T * d * H * dh + 2 * H * T * T * dh  # Q, K, V and W_O; scores and the weighted sum of values
    return config.batch_size * (config.n_layers * per_layer + T * d * len(VOCABULARY))


def run(name: str, n_heads: int, d_head: int, steps: int, batch_size: int, seed: int, d_model: int = 32,
        lr: float | None = None, max_words: int | None = None) -> dict:
    claim = CLAIMS["scale"]
    extra = {key: value for key, value in (("lr", lr), ("max_words", max_words)) if value is not None}
    with_config, without_config = pair_configs(claim, seed=seed, n_heads=n_heads, d_head=d_head, steps=steps,
                                               batch_size=batch_size, d_model=d_model, **extra)
    started = time.perf_counter()
    scaled, unscaled = train(with_config), train(without_config)
    seconds = time.perf_counter() - started
    verdict = judge(claim, measure(claim, scaled), measure(claim, unscaled))
    scaled_climb, unscaled_climb = climb_from_best(scaled.loss_curve), climb_from_best(unscaled.loss_curve)
    passed = (verdict.with_accuracy >= WITH_AT_LEAST and verdict.shown
              and unscaled_climb > UNSCALED_CLIMB_ABOVE and scaled_climb < SCALED_CLIMB_BELOW)
    return {
        "candidate": name, "seed": seed, "n_heads": n_heads, "d_head": d_head, "steps": steps,
        "batch_size": batch_size, "d_model": d_model, "lr": with_config.lr,
        "max_words": with_config.max_words,
        "pair_multiply_adds": 2 * steps * multiply_adds_per_step(with_config),
        "scaled_accuracy": round(verdict.with_accuracy, 3), "unscaled_accuracy": round(verdict.without_accuracy, 3),
        "scaled_climb": round(scaled_climb, 2), "unscaled_climb": round(unscaled_climb, 2),
        "passed": passed, "seconds": round(seconds, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("candidates", nargs="*", metavar="CANDIDATE",
                        help=f"any of {', '.join(CANDIDATES)} (default: all, unless --custom)")
    parser.add_argument("--custom", action="append", default=[],
                        metavar="HEADS,D_HEAD,STEPS,BATCH[,D_MODEL][,lr=LR][,max_words=N]")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--stop-on-fail", action="store_true",
                        help="skip a candidate's remaining seeds once one of its seeds fails")
    args = parser.parse_args(argv)
    unknown = [name for name in args.candidates if name not in CANDIDATES]
    if unknown:
        parser.error(f"unknown candidate {', '.join(unknown)}; the candidates are {', '.join(CANDIDATES)}")
    names = args.candidates or ([] if args.custom else list(CANDIDATES))
    chosen: dict[str, tuple[tuple[int, ...], dict[str, float | int]]] = {name: (CANDIDATES[name], {}) for name in names}
    for custom in args.custom:
        parts = custom.split(",")
        try:
            settings = tuple(int(part) for part in parts if "=" not in part)
            keywords = dict(part.split("=", 1) for part in parts if "=" in part)
            options: dict[str, float | int] = {}
            if "lr" in keywords:
                options["lr"] = float(keywords.pop("lr"))
            if "max_words" in keywords:
                options["max_words"] = int(keywords.pop("max_words"))
        except ValueError as error:
            parser.error(f"--custom {custom}: {error}")
        if keywords or not 4 <= len(settings) <= 5:
            parser.error(f"--custom {custom}: expected HEADS,D_HEAD,STEPS,BATCH[,D_MODEL][,lr=LR][,max_words=N]")
        name = "custom-" + "-".join(map(str, settings))
        name += "".join(f"-{'lr' if key == 'lr' else 'mw'}{value:g}" for key, value in options.items())
        chosen[name] = (settings, options)
    for name, (settings, options) in chosen.items():
        for seed in args.seeds:
            n_heads, d_head, steps, batch_size, *d_model = settings
            result = run(name, n_heads, d_head, steps, batch_size, seed, *d_model, **options)
            print(json.dumps(result), flush=True)
            if args.stop_on_fail and not result["passed"]:
                break
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
