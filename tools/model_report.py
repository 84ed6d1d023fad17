"""What the shipped model learned, measured and written out: the generated part of docs/model.md.

    .venv/bin/python tools/model_report.py            # rewrites docs/model.md between its two markers
    .venv/bin/python tools/model_report.py --print    # prints the part instead

Every number in that part is computed here from the shipped checkpoint; tests/native/test_model_checkpoint.py
checks docs/model.md holds exactly this output, so nothing in it is typed by hand. Run it after retraining
(`cd py && python3 -m attention_playground.model.make_checkpoint`) and commit the page with the checkpoint.

Why it lives in tools/ and not in the package or in sitebuild/: it writes documentation. The package is what a
learner's page, a notebook or `pip install` runs, and none of them needs this. sitebuild/ is the build, which runs
at every `build.py` on the standard library alone, while this needs NumPy and the model and changes its output only
when the checkpoint does. A maintainer runs it by hand, as the training script.
"""

from __future__ import annotations

import argparse
import random
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "py") not in sys.path:  # the package, from a clone, without installing it
    sys.path.insert(0, str(ROOT / "py"))
if str(Path(__file__).parent) not in sys.path:  # the tools' shared module, however this one was loaded
    sys.path.insert(0, str(Path(__file__).parent))

from report_section import section_in, with_section  # noqa: E402

from attention_playground.model.analysis import (  # noqa: E402
    READS_ANIMAL,
    ROLE_THRESHOLDS,
    TUTORIAL_SENTENCE,
    HeadScores,
    PronounScores,
    SecondMentionScores,
    designed_reads,
    head_label,
    head_roles,
    head_scores,
    heads_reading_the_animal,
    heads_with_role,
    knock_out_table,
    pronoun_head,
    pronoun_knock_outs,
    pronoun_scores,
    second_mention_scores,
    sound_probability,
    tutorial_reads,
)
from attention_playground.model.checkpoint import SIGNIFICANT_DIGITS, load_model, shipped_text  # noqa: E402
from attention_playground.model.corpus import (  # noqa: E402
    PRONOUN_ORDERS,
    RUN_LENGTHS,
    SENTENCE_KIND_PURPOSES,
    SENTENCE_KINDS,
    VOCABULARY,
    pronoun_sentence,
)
from attention_playground.model.evaluation import (  # noqa: E402
    EVAL_PRONOUN_PER_ORDER,
    EVAL_REPEATED,
    EVAL_SENTENCES,
    EVAL_STORIES,
    Metrics,
    evaluate,
    model_evaluation_set,
    second_mention_set,
)
from attention_playground.model.loss_drop import find_loss_drop  # noqa: E402
from attention_playground.model.repeated_noun import SENTENCE, sentence_sentences  # noqa: E402
from attention_playground.model.transformer import Model, forward  # noqa: E402

#: The page the report is written into, and the two lines between which it stands there.
PAGE = ROOT / "docs" / "model.md"
START_MARKER = "<!-- model report: written by tools/model_report.py from the checkpoint; do not edit by hand -->"
END_MARKER = "<!-- end of the model report -->"
#: Prose is wrapped at this width, as the rest of the docs are.
WIDTH = 115


@dataclass
class Measured:
    """Everything the report quotes, measured once on one model."""

    scores: HeadScores
    roles: dict[tuple[int, int], str]
    metrics: Metrics
    pronoun: PronounScores
    sound_knock_outs: list
    mention: SecondMentionScores


def measure(model: Model) -> Measured:
    """Run every measurement the report needs on `model`."""
    scores = head_scores(model)
    return Measured(scores=scores, roles=head_roles(model, scores), metrics=evaluate(model),
                    pronoun=pronoun_scores(model), sound_knock_outs=pronoun_knock_outs(model),
                    mention=second_mention_scores(model))


def model_report(model: Model | None = None) -> str:
    """The generated part of docs/model.md, as markdown (without its markers)."""
    model = load_model() if model is None else model
    measured = measure(model)
    lines = [
        *overview_lines(model, measured),
        *data_lines(model),
        *training_lines(model),
        "## What it learned",
        "",
        *loss_drop_lines(model),
        *metrics_lines(measured),
        *head_score_lines(model, measured),
        *knock_out_lines(model, measured),
        *pronoun_lines(model, measured),
        *chance_lines(),
        *second_mention_lines(model, measured.mention),
        *repeated_noun_lines(model),
        *not_learned_lines(model, measured),
    ]
    while lines[-1] == "":
        lines.pop()
    return "\n".join(wrap(lines)) + "\n"


def percent(x: float) -> str:
    return f"{100 * x:.0f}%"


def overview_lines(model: Model, measured: Measured) -> list[str]:
    """What the model is, how to run it from Python, and how it reads a sentence."""
    c = model.config
    layer, head = pronoun_head(model, measured.pronoun)
    return [
        "## What it is",
        "",
        "`py/attention_playground/model/` is a tiny transformer that learned its own attention: "
        f"{c.n_layers} layers × {c.n_heads} heads (d_model {c.d_model}, d_head {c.d_head}), attention only "
        "(no MLP, no LayerNorm), a learned positional embedding and an untied unembedding. It reads `<bos>` and "
        f"up to {c.max_words} words from a vocabulary of {len(VOCABULARY) - 1} words. Every head of its forward "
        "pass is the playground's own `attention_stages` (causal mask, ÷√d_k), so what the page shows is what the "
        "model computed. Training, too, needs nothing but NumPy: its gradient is written out "
        "(`model/gradients.py`).",
        "",
        "```python",
        "from attention_playground.model import load_model, run, head_scene, with_head_weights, describe",
        "model = load_model()",
        f'result = run(model, "{TUTORIAL_SENTENCE}")     # tokens, weights[layer][head], logits, stages',
        f'scene = head_scene(model, "{TUTORIAL_SENTENCE}", {layer}, {head})   # a scene for compute()',
        "```",
        "",
        "A sentence is read as a learner types it: capitals lowered and punctuation split off, so "
        '"The Cat sat on the mat." is the tutorial\'s sentence and a ".". A word the model does not know is '
        "refused with its position and known words close to it in meaning (`corpus.RELATED_WORDS`: \"kitten\" → "
        '"cat") or in spelling ("crwo" → "crow").',
        "",
    ]


def data_lines(model: Model) -> list[str]:
    """What the model was trained on: the share of repeated runs, each kind of sentence and what it is for."""
    c = model.config
    orders = ", ".join(f'{order}: "{" ".join(example)}"' for order, example in pronoun_examples().items())
    return [
        "## Data",
        "",
        f"`corpus.py` writes a small story world. {percent(c.repeat_fraction)} of the training sequences are "
        f"`<bos>` and a run of {RUN_LENGTHS[0]}–{RUN_LENGTHS[1]} distinct random words repeated to the end (they "
        "pay for copying: the previous-token and induction heads); the rest are sentences, each kind there to "
        "make one head pay for itself in the loss:",
        "",
        *(f"- {kind.__name__.replace('_', ' ')} ({percent(share)} of the sentences): "
          f"{SENTENCE_KIND_PURPOSES[kind.__name__]}" for kind, share in SENTENCE_KINDS),
        "",
        f"The pronoun sentences come in {len(PRONOUN_ORDERS)} word orders ({orders}). Every sequence starts with "
        "`<bos>`, the first token to park on.",
        "",
    ]


def pronoun_examples() -> dict[str, list[str]]:
    """One pronoun sentence per word order, drawn from a fixed seed, so the page quotes the same ones each time."""
    rng = random.Random(7)
    return {order: pronoun_sentence(rng, order) for order in PRONOUN_ORDERS}


def training_lines(model: Model) -> list[str]:
    """How the shipped checkpoint was trained and what its file holds."""
    c = model.config
    size = len(shipped_text().encode("utf-8"))
    return [
        "## Training",
        "",
        f"`training.py`: Adam (lr {c.lr}, batch {c.batch_size}), next-token cross-entropy, {model.steps} steps "
        f"from seed {c.seed}. `cd py && python3 -m attention_playground.model.make_checkpoint` writes the checkpoint (it "
        "prints how long it took: about two minutes natively on a busy 2-core machine), `checkpoint.json` "
        f"({size} bytes: the config, the vocabulary, the loss curve, the summary `describe` gives, and every "
        'parameter as `{"shape": [...], "data": [...]}` in row-major order, rounded to '
        f"{SIGNIFICANT_DIGITS} significant digits; the model is exactly those decimals). "
        "`python3 bench/model.py` measures training speed.",
        "",
    ]


def loss_drop_lines(model: Model) -> list[str]:
    """The sudden drop in the model's training loss (loss_drop.py), as the training view marks it."""
    drop = find_loss_drop(model.loss_curve)
    if drop is None:
        return ["### The loss curve", "", "It has no sudden drop (`loss_drop.py` finds none).", ""]
    return ["### The loss curve", "",
            f"The loss falls suddenly between steps {drop.start} and {drop.end}: from {drop.before:.2f} to "
            f"{drop.after:.2f} (means over the {drop.window} steps either side; `loss_drop.py` finds it, and the "
            "training view marks it). Such a drop after a plateau is the mark of an induction head forming: once a "
            "head copies what followed an earlier occurrence, the repeated runs can be predicted.", ""]


def metrics_lines(measured: Measured) -> list[str]:
    """The evaluation sets and the model's scores on them, as a table."""
    m, n_words = measured.metrics, len(VOCABULARY) - 1
    intact = measured.sound_knock_outs[0][1].intact
    return [
        "### Measured",
        "",
        f"On fixed evaluation sets (`evaluation.py`, their own seed): {EVAL_REPEATED} repeated runs and "
        f"{EVAL_SENTENCES} sequences of sentences; {EVAL_PRONOUN_PER_ORDER} pronoun sentences in each word order; "
        f"{EVAL_STORIES} stories with a second mention. Every sentence is read alone after `<bos>`, as a learner "
        "types it. The *repeated part* is every word that occurred before in its run; there the next word can be "
        "copied. In the first run the next word is random.",
        "",
        "| measure | value |",
        "|---|---|",
        f"| repeated-part accuracy | {m.repeat_accuracy:.3f} |",
        f"| first-run accuracy (chance is about 1/{n_words} = {1 / n_words:.3f}) | {m.first_run_accuracy:.3f} |",
        f"| loss (nats): all positions / repeated part / sentences | {m.loss:.3f} / {m.repeat_loss:.3f}"
        f" / {m.sentence_loss:.3f} |",
        f'| probability of the animal\'s word after "it" (cat → purred) | {intact:.3f} |',
        f'| second mention: accuracy of "left" / its probability | {measured.mention.accuracy:.3f} / '
        f"{measured.mention.p_next:.3f} |",
        "",
    ]


def head_score_lines(model: Model, measured: Measured) -> list[str]:
    """How each head's scores and role are defined, and every head's, as a table."""
    thresholds = ", ".join(f"{name} ({score.replace('_', ' ')} ≥ {threshold})"
                           for name, (score, threshold) in ROLE_THRESHOLDS.items())
    lines = [
        "### Each head's role",
        "",
        "Each head's scores (`analysis.py` defines them): on the repeated runs, the mean weight on the previous "
        "token; on the token after an earlier occurrence of the current one (induction); on that earlier "
        "occurrence itself (duplicate); and on `<bos>` over the first run, where there is nothing to copy (first "
        'token). On sentences: the mean weight at "it" on its animal (pronoun), and at the second mention of a '
        f"noun on its first mention (duplicate on sentences). A head's role is the first of {thresholds} that it "
        "reaches, else diffuse.",
        "",
        "| head | role | previous token | induction | duplicate token | first token | pronoun | duplicate on "
        "sentences |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for layer, head in model.heads:
        s = measured.scores.of(layer, head)
        lines.append(f"| {head_label(layer, head)} | {measured.roles[(layer, head)]} | {s['previous_token']:.2f} | "
                     f"{s['induction']:.2f} | {s['duplicate_token']:.2f} | {s['first_token']:.2f} | "
                     f"{s['pronoun']:.2f} | {s['duplicate_token_sentences']:.2f} |")
    return [*lines, ""]


def knock_out_lines(model: Model, measured: Measured) -> list[str]:
    """What zeroing each head (and every induction head at once) changes, as a table."""
    lines = [
        "### Knocking a head out",
        "",
        "Knocking a head out (zeroing its output) shows whether what it reads matters. Changes from the intact "
        'model (the last column: the animal\'s word after "it", mean over the pronoun sentences):',
        "",
        '| knocked out | repeated-part accuracy | repeated-part loss | sentence loss | animal\'s word after "it" |',
        "|---|---|---|---|---|",
    ]
    for entry in knock_out_table(model, measured.roles):
        change = entry.change
        sound = sound_probability(model, entry.heads)
        lines.append(f"| {entry.label} | {change.repeat_accuracy:+.3f} (to {entry.metrics.repeat_accuracy:.3f}) | "
                     f"{change.repeat_loss:+.3f} | {change.sentence_loss:+.3f} | {-sound.drop:+.3f} (to "
                     f"{sound.knocked:.3f}) |")
    return [*lines, ""]


def pronoun_lines(model: Model, measured: Measured) -> list[str]:
    """The pronoun head: where it reads on the tutorial's sentence and in each word order, and its knock-out."""
    pronoun, sound_knock_outs = measured.pronoun, measured.sound_knock_outs
    layer, head = pronoun_head(model, pronoun)
    label = head_label(layer, head)
    reads = tutorial_reads(model, layer, head)
    designed = designed_reads()
    lines = [
        "### The pronoun head",
        "",
        f'On the tutorial\'s sentence "{TUTORIAL_SENTENCE}", {label} puts {reads["cat"]:.2f} on "cat" and '
        f'{reads["mat"]:.2f} on "mat" at "it" (the Part 6 head built by hand: {designed["cat"]:.3f} and '
        f'{designed["mat"]:.3f}). Nobody labelled "animal" for it: it learned to look for the word that decides '
        'what follows "it". Over the pronoun sentences, word order by word order:',
        "",
        f'| word order | {label} on the animal | {label} on the other nouns | animal\'s word after "it" | '
        f"with {label} knocked out |",
        "|---|---|---|---|---|",
    ]
    single = sound_knock_outs[0][1]
    for order, values in pronoun.by_order.items():
        other = pronoun.other_by_order[order][layer, head]
        lines.append(f"| {order} | {values[layer, head]:.2f} | {other:.2f} | {single.intact_by_order[order]:.2f} "
                     f"| {single.knocked_by_order[order]:.2f} |")
    readers = ", ".join(head_label(*pair) for pair in heads_reading_the_animal(model, pronoun))
    knock_outs = " ".join(f'Knocking out {name} lowers the probability of the animal\'s word after "it" from '
                          f"{entry.intact:.2f} to {entry.knocked:.2f} ({entry.drop:.2f} lower)."
                          for name, entry in sound_knock_outs)
    lines += ["", f"Overall {label} puts {pronoun.animal[layer, head]:.2f} on the animal and "
              f"{pronoun.other[layer, head]:.2f} on the other nouns. Heads that put at least {READS_ANIMAL} on "
              f"the animal: {readers}; of these, {label} is the one whose knock-out lowers the animal's word most "
              f"(its role in the table above: {measured.roles[(layer, head)]}). {knock_outs}", ""]
    return lines


def chance_lines() -> list[str]:
    """How the test checks that the pronoun head is not one seed's luck, and how the shipped seed was chosen."""
    return [
        "Does it form by chance? `tests/native/test_model_analysis.py` trains five other seeds briefly (sentences "
        "only, 16 words, stopped as soon as a head puts 0.8 on the animal) and checks that at least four of them "
        "grow such a head. The shipped seed was chosen among the first four for a model in which one head both "
        "reads the animal in every word order and carries the prediction (in the others several heads shared "
        "that work, or the head read the animal less in one word order).",
        "",
    ]


def second_mention_lines(model: Model, mention: SecondMentionScores) -> list[str]:
    """The second mention of a noun: how well the model predicts what follows, and which heads read what."""
    following = np.unravel_index(int(np.argmax(mention.following)), mention.following.shape)
    duplicate = np.unravel_index(int(np.argmax(mention.first_mention)), mention.first_mention.shape)
    parked = [head_label(layer, head) for layer, head in model.heads if mention.bos[layer, head] >= 0.5]
    example = " ".join(second_mention_set()[0].words)
    parking = (f"Heads that park more than half their weight on `<bos>` there: {', '.join(parked)}."
               if parked else "No head parks more than half its weight on `<bos>` there.")
    return [
        "### The second mention",
        "",
        f'In stories such as "{example}", the word after a noun\'s second mention is "left" and after its first '
        f'"came". The model predicts "left" at {percent(mention.accuracy)} of the second mentions (mean '
        f"probability {mention.p_next:.2f}). At the second mention, {head_label(*duplicate)} puts the most weight "
        f"of any head on the first mention, {mention.first_mention[duplicate]:.2f}; {head_label(*following)} puts "
        f'{mention.following[following]:.2f} on the word after the first mention ("came"): the induction route '
        f"finds the repeat by reading what followed the noun last time. {parking}",
        "",
    ]


def repeated_noun_lines(model: Model) -> list[str]:
    """The tutorial's sentence with a repeated noun, position by position (model/repeated_noun.py)."""
    return [f'### On "{SENTENCE}"', "", "The preset `trained-repeated-noun` shows layer 1 on it.", "",
            *(f"- {line}" for line in sentence_sentences(model)), ""]


def previous_token_by_half(model: Model, layer: int, head: int) -> tuple[float, float]:
    """The head's previous-token score over positions 1..n_ctx // 2 and over the positions after that."""
    half = model.config.n_ctx // 2
    early, late = [], []
    for sequence in model_evaluation_set(model):
        if not sequence.is_repeated:
            continue
        weights = forward(model, np.array(sequence.ids[:-1])).weights[layer][head]  # (n, n)
        t = np.arange(1, weights.shape[0])  # (n - 1,)
        reads_previous = weights[t, t - 1]  # (n - 1,)
        early.append(reads_previous[t <= half])
        late.append(reads_previous[t > half])
    return float(np.concatenate(early).mean()), float(np.concatenate(late).mean())


def not_learned_lines(model: Model, measured: Measured) -> list[str]:
    """The heads the literature describes that this model did not grow, or grew only in part."""
    lines = ["### What it did not learn", "", "Measured the same way:", ""]
    scores = measured.scores
    duplicate = float(scores.duplicate_token_sentences.max())
    if duplicate < ROLE_THRESHOLDS["duplicate-token"][1]:
        lines.append(f"- No duplicate-token head: at the second mention of a noun the largest weight any head puts "
                     f"on the first mention is {duplicate:.2f} (on the repeated runs, "
                     f"{float(scores.duplicate_token.max()):.2f}). See *The second mention* above for what it "
                     "reads instead.")
    half = model.config.n_ctx // 2
    for layer, head in heads_with_role(measured.roles, "previous-token"):
        early, late = previous_token_by_half(model, layer, head)
        if late < early - 0.2:
            lines.append(f"- {head_label(layer, head)} reads the previous token mostly early in the context: its "
                         f"previous-token score is {early:.2f} over positions 1–{half} and {late:.2f} after "
                         f"position {half}.")
    if not heads_with_role(measured.roles, "induction"):
        lines.append("- No induction head formed.")
    return lines if len(lines) > 4 else []


def wrap(lines: list[str], width: int = WIDTH) -> list[str]:
    """Prose and list items wrapped at `width`; tables, headings and code left alone."""
    wrapped, in_code = [], False
    for line in lines:
        if line.startswith("```"):
            in_code = not in_code
        if in_code or line.startswith(("|", "#", "```")) or len(line) <= width:
            wrapped.append(line)
            continue
        indent = "  " if line.startswith("- ") else ""
        wrapped += textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False,
                                 break_on_hyphens=False)
    return wrapped


def report_in_page(page_text: str) -> str:
    """The part of `page_text` between the markers (what the report wrote there last)."""
    return section_in(page_text, START_MARKER, END_MARKER)


def with_report(page_text: str, report: str) -> str:
    """`page_text` with `report` put between its markers in place of what was there."""
    return with_section(page_text, START_MARKER, END_MARKER, report)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Write what the shipped model learned into docs/model.md.")
    parser.add_argument("--print", action="store_true", help="print the report instead of writing the page")
    arguments = parser.parse_args(argv)
    report = model_report()
    if arguments.print:
        print(report, end="")
        return
    PAGE.write_text(with_report(PAGE.read_text(encoding="utf-8"), report), encoding="utf-8")
    print(f"wrote the model report into {PAGE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
