"""What the English model is and learned, from its shipped files: the generated part of docs/model.md's "The English
model".

    .venv/bin/python tools/english_report.py            # rewrites docs/model.md between its two markers
    .venv/bin/python tools/english_report.py --print    # prints the part instead

Every figure in that part is read from the shipped files (english/model.json: the settings, the training loss, and
the summary the analysis measured; tokenizer.json) or measured here on the checkpoint (the sentence with a name said
twice); tests/native/test_english_model.py checks docs/model.md holds exactly this output. Run it after
retraining (`cd py && python3 -m attention_playground.english.make_english`) and commit the page with the files.
It lives beside tools/model_report.py, for the same reasons.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "py") not in sys.path:  # the package, from a clone, without installing it
    sys.path.insert(0, str(ROOT / "py"))
if str(Path(__file__).parent) not in sys.path:  # the tools' shared module, however this one was loaded
    sys.path.insert(0, str(Path(__file__).parent))

from report_section import section_in, with_section  # noqa: E402

from attention_playground.english import load_tokenizer  # noqa: E402
from attention_playground.english.analysis import RANDOM_RUN_TOKENS, RANDOM_RUNS, ROLE_THRESHOLDS  # noqa: E402
from attention_playground.english.brown import HELD_OUT_EVERY, PACKAGE, VERSION  # noqa: E402
from attention_playground.english.checkpoint import shipped_settings  # noqa: E402
from attention_playground.english.requests import EXAMPLES, english_run, position_of  # noqa: E402
from attention_playground.english.training import FINAL_LR_SHARE, INIT_STD, WARMUP_STEPS  # noqa: E402
from attention_playground.english.windows import RANDOM_RUN_SHARE, SPAN_TOKENS  # noqa: E402

PAGE = ROOT / "docs" / "model.md"
START_MARKER = "<!-- English model report: written by tools/english_report.py from its files; do not edit by hand -->"
END_MARKER = "<!-- end of the English model report -->"
#: Prose is wrapped at this width, as the rest of the docs are.
WIDTH = 115


def table(heads: list[dict]) -> list[str]:
    lines = ["| head | previous-token | induction | on `<bos>` | role |", "|---|---|---|---|---|"]
    for head in heads:
        scores = head["scores"]
        lines.append(f"| {head['label']} | {scores['previous_token']:.2f} | {scores['induction']:.2f} | "
                     f"{scores['first_token']:.2f} | {head['role']} |")
    return lines


def best(heads: list[dict], score: str) -> dict:
    return max(heads, key=lambda head: head["scores"][score])


def name_said_twice() -> list[str]:
    """What the model does at the second "mary", measured on the checkpoint."""
    example = next(example for example in EXAMPLES if example["id"] == "mary-store")
    run = english_run({"words": example["words"]})
    second = position_of(run["pieces"], *example["focus"])
    follower = position_of(run["pieces"], example["focus"][0], 1) + 1
    weights = np.array(run["weights"])[:, :, second, :]  # (L, H, n)
    layer, head = np.unravel_index(int(np.argmax(weights[:, :, follower])), weights.shape[:2])
    row = weights[layer, head]
    others = max(value for position, value in enumerate(row) if position not in (0, follower))
    guess, share = run["predictions"][second][0]
    return [
        f"On “{example['words']}”, at the second “mary”, L{layer}H{head} puts {row[follower]:.2f} on "
        f"“{run['tokens'][follower]}”, the word after the first “mary”, {row[0]:.2f} on `<bos>`, and at most "
        f"{others:.2f} on any other word; the model's likeliest next token there is “{guess}” ({share:.2f}).",
    ]


def english_report() -> str:
    settings = shipped_settings()
    config, summary = settings["config"], settings["summary"]
    heads = summary["heads"]
    tokenizer = load_tokenizer()
    curve = settings["loss_curve"]
    thresholds = ", ".join(f"{name} ≥ {threshold}" for name, (_, threshold) in ROLE_THRESHOLDS.items())
    previous, induction, sink = best(heads, "previous_token"), best(heads, "induction"), best(heads, "first_token")
    lines = [
        f"- **Data**: npm `{PACKAGE}` {VERSION}, fetched by version and sha512; one sample in {HELD_OUT_EVERY} held "
        f"out (never trained on).",
        f"- **Tokenizer**: {len(tokenizer.vocabulary):,} tokens (`<bos>`, {len(tokenizer.alphabet)} characters, 256 "
        f"bytes, {len(tokenizer.merges):,} merges), learned from every sample.",
        f"- **Model**: {config['n_layers']} layers × {config['n_heads']} heads of {config['d_head']}, a "
        f"{config['d_model']}-wide stream, {config['max_words'] + 1} positions, {summary['parameters']:,} parameters, "
        f"stored in float16.",
        f"- **Training**: {settings['steps']:,} steps of {config['batch_size']} windows of {config['max_words'] + 1} "
        f"tokens ({settings['steps'] * config['batch_size'] * config['max_words'] / 1e6:.1f} M tokens), "
        f"{RANDOM_RUN_SHARE:.0%} of them a random run said again and again and {config['repeat_fraction']:.0%} of the "
        f"others carrying a copied span of {SPAN_TOKENS[0]}-{SPAN_TOKENS[1]} tokens; "
        f"Adam at {config['lr']} (warm-up {WARMUP_STEPS} steps, cosine to {FINAL_LR_SHARE:.0%}), weights started at "
        f"N(0, {INIT_STD}²), seed {config['seed']}; {summary['training_seconds'] / 60:.0f} minutes on two cores. "
        f"Training loss {curve[0]:.2f} at the start, {np.mean(curve[-10:]):.2f} over the last {10 * settings['loss_every']} "
        f"steps (with the copies, which it learns to predict).",
        f"- **Held-out loss**: {summary['held_out_loss']:.3f} nats a token (perplexity "
        f"{np.exp(summary['held_out_loss']):.0f}) on {summary['held_out_tokens']:,} tokens of the held-out samples, "
        f"against {summary['bigram_loss']:.3f} (perplexity {np.exp(summary['bigram_loss']):.0f}) for a bigram model "
        f"of the training samples, its smoothing chosen to do as well as it can there.",
        "",
        f"Each head's scores (previous-token and on `<bos>` on the held-out text, induction on {RANDOM_RUNS} runs of "
        f"{RANDOM_RUN_TOKENS} random word tokens said twice) and the role the first threshold it reaches gives it "
        f"({thresholds}):",
        "",
        *table(heads),
        "",
        f"The strongest of each: previous-token {previous['label']} ({previous['scores']['previous_token']:.2f}), "
        f"induction {induction['label']} ({induction['scores']['induction']:.2f}), on `<bos>` {sink['label']} "
        f"({sink['scores']['first_token']:.2f}).",
        "",
        *name_said_twice(),
    ]
    return "\n".join(wrapped(lines)) + "\n"


def wrapped(lines: list[str]) -> list[str]:
    """Prose wrapped at WIDTH as the rest of the docs are (a list item's lines indented under it); tables as they are."""
    out = []
    for line in lines:
        if not line or line.startswith("|"):
            out.append(line)
        elif line.startswith("- "):
            out.extend(textwrap.wrap(line, WIDTH, subsequent_indent="  ", break_on_hyphens=False))
        else:
            out.extend(textwrap.wrap(line, WIDTH, break_on_hyphens=False))
    return out


def report_in_page(page_text: str) -> str:
    """The part of `page_text` between the markers (what the report wrote there last)."""
    return section_in(page_text, START_MARKER, END_MARKER)


def with_report(page_text: str, report: str) -> str:
    """`page_text` with `report` put between its markers in place of what was there."""
    return with_section(page_text, START_MARKER, END_MARKER, report)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--print", action="store_true", help="print the report instead of writing it")
    arguments = parser.parse_args(argv)
    report = english_report()
    if arguments.print:
        print(report, end="")
        return
    PAGE.write_text(with_report(PAGE.read_text(encoding="utf-8"), report), encoding="utf-8")
    print("wrote the English model report into docs/model.md")


if __name__ == "__main__":
    main()
