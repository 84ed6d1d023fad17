"""Does "several heads specialise" show with a pair? One head a layer against several, natively (a measurement,
not a test; docs/model.md, "Test a claim", gives the figures).

    .venv/bin/python bench/heads_claim.py                      # seeds 1-3, the pairs' settings (claims.PAIR_SETTINGS)
    .venv/bin/python bench/heads_claim.py --steps 150
    .venv/bin/python bench/heads_claim.py --repeat-fraction 0.5   # sentences too: their loss is printed

Every shape has the same residual width (d_model 32): 1 head of d_head 32, 2 of 16, 4 of 8, trained from one seed
on the same data. Prints, per seed and shape, the repeated-part accuracy (the claims' measure, with the mask on),
the evaluation set's loss on sentences, and the seconds it took.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "py"))

from attention_playground.model import TrainConfig, evaluate, train  # noqa: E402
from attention_playground.model.claims import PAIR_SETTINGS  # noqa: E402

#: (heads a layer, d_head): the same width shared out among more heads.
SHAPES = ((1, 32), (2, 16), (4, 8))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--steps", type=int, default=PAIR_SETTINGS["steps"])
    parser.add_argument("--repeat-fraction", type=float, default=PAIR_SETTINGS["repeat_fraction"])
    args = parser.parse_args(argv)
    settings = {**PAIR_SETTINGS, "steps": args.steps, "repeat_fraction": args.repeat_fraction}
    for seed in args.seeds:
        for n_heads, d_head in SHAPES:
            config = replace(TrainConfig(), **{**settings, "n_heads": n_heads, "d_head": d_head, "seed": seed})
            started = time.perf_counter()
            model = train(config)
            repeated = evaluate(model, repeated_only=True)
            print(json.dumps({
                "seed": seed, "steps": args.steps, "repeat_fraction": args.repeat_fraction,
                "n_heads": n_heads, "d_head": d_head,
                "repeat_accuracy": round(repeated.repeat_accuracy, 3),
                "sentence_loss": round(evaluate(model).sentence_loss, 3) if args.repeat_fraction < 1 else None,
                "seconds": round(time.perf_counter() - started, 1),
            }), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
