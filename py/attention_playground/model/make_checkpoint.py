"""Train the shipped model and write its checkpoint (checkpoint.json, beside this file).

    cd py && python3 -m attention_playground.model.make_checkpoint            # the shipped config
    python3 -m attention_playground.model.make_checkpoint --seed 3 --out model.json

It trains with `TrainConfig()` (or the seed and steps given), rounds the parameters as the checkpoint
stores them, measures that rounded model (`describe`) and writes both. Training needs nothing but NumPy.
This file is a script: run it with -m. In code, `attention_playground.model.train(config)` (training.py) trains
a model.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from .analysis import describe
from .checkpoint import CHECKPOINT_NAME, rounded, save_model
from .config import TrainConfig
from .training import train


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m attention_playground.model.make_checkpoint", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=TrainConfig.seed)
    parser.add_argument("--steps", type=int, default=TrainConfig.steps)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name(CHECKPOINT_NAME))
    args = parser.parse_args(argv)
    config = replace(TrainConfig(), seed=args.seed, steps=args.steps)

    def on_step(step: int, loss: float, elapsed: float) -> None:
        if step % 250 == 0 or step == config.steps:
            print(f"step {step:4d}  loss {loss:.3f}  {elapsed:5.1f} s", flush=True)

    model = rounded(train(config, on_step))
    summary = describe(model)
    size = save_model(model, summary, args.out)
    print(f"wrote {args.out} ({size} bytes)")
    metrics = summary["metrics"]
    print(f"repeated-part accuracy {metrics['repeat_accuracy']:.3f}, loss {metrics['loss']:.3f}")
    for head in summary["heads"]:
        print(f"  {head['label']}: {head['role']}")
    pronoun = summary["pronoun"]
    print(f"pronoun head {pronoun['label']}: {pronoun['tutorial']['cat']:.2f} on \"cat\", "
          f"{pronoun['tutorial']['mat']:.2f} on \"mat\"")
    for entry in pronoun["knock_outs"]:
        print(f"  {entry['label']} knocked out: the animal's word after \"it\" {entry['intact']:.2f} -> "
              f"{entry['knocked']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
