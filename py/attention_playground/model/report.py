"""What the shipped model learned, measured and written out: the README's "The trained model" section.

    cd py && python3 -m attention_playground.model.report     # prints the section's markdown

Every number in the section is computed here from the shipped checkpoint; a test checks the README holds
exactly this output, so nothing in it is typed by hand. The preset script (presets/
make_trained_repeated_noun.py) uses the same sentence facts.
"""

from __future__ import annotations

import random
import textwrap

import numpy as np

from .analysis import (
    ROLE_THRESHOLDS,
    READS_ANIMAL,
    TUTORIAL_SENTENCE,
    designed_reads,
    heads_reading_the_animal,
    pronoun_head,
    pronoun_knock_outs,
    pronoun_scores,
    second_mention_scores,
    sound_probability,
    tutorial_reads,
    head_label,
    head_roles,
    head_scores,
    heads_with_role,
    knock_out_table,
    next_word_change,
    top_predictions,
)
from .checkpoint import SIGNIFICANT_DIGITS, shipped_text
from .corpus import PRONOUN_ORDERS, RUN_LENGTHS, SENTENCE_KIND_PURPOSES, SENTENCE_KINDS, VOCABULARY, pronoun_sentence
from .loss_drop import find_loss_drop
from .evaluation import (
    EVAL_PRONOUN_PER_ORDER,
    EVAL_REPEATED,
    EVAL_SENTENCES,
    EVAL_STORIES,
    evaluate,
    model_evaluation_set,
    second_mention_set,
)
from .transformer import Model, forward, run

#: The tutorial's sentence with a repeated noun.
SENTENCE = "the fox met a crow and the fox smiled"


def percent(x: float) -> str:
    return f"{100 * x:.0f}%"


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


def strongest_read(weights: np.ndarray, tokens: list[str], position: int) -> tuple[int, str, float]:
    """(key position, key token, weight) of the largest weight in row `position`."""
    key = int(np.argmax(weights[position]))
    return key, tokens[key], float(weights[position, key])


def describe_token(tokens: list[str], position: int) -> str:
    """`"fox"`, or `the first "fox"` / `the second "fox"` when the token repeats, or `<bos>`."""
    token = tokens[position]
    if token == tokens[0] and position == 0:
        return "`<bos>`"
    occurrences = [i for i, other in enumerate(tokens) if other == token]
    if len(occurrences) == 1:
        return f'"{token}"'
    ordinal = ("first", "second", "third", "fourth")[occurrences.index(position)]
    return f'the {ordinal} "{token}"'


def sentence_facts(model: Model, words: str = SENTENCE) -> dict:
    """What the model does on `words` at the second occurrence of its repeated noun and the word before it.

    For each of those two positions: where each induction head reads most, the model's top three guesses
    for the next word, and the probability of the actual next word, intact and with every induction head
    knocked out.
    """
    result = run(model, words)
    tokens = result.tokens
    roles = head_roles(model)
    induction = heads_with_role(roles, "induction")
    seen, repeat = {}, None
    for i, token in enumerate(tokens[1:], start=1):
        if token in seen and repeat is None and token not in ("the", "a"):
            repeat = i
        seen.setdefault(token, i)
    positions = [repeat - 1, repeat]
    change = next_word_change(model, words, induction)
    first = tokens.index(tokens[repeat])
    copy_word = model.vocabulary.index(tokens[first + 1])
    facts = {"tokens": tokens, "induction_heads": induction, "positions": [],
             # what copying would predict at the repeat: the word after the first occurrence
             "p_copy": float(result.probabilities[repeat, copy_word])}
    for position in positions:
        reads = []
        for layer, head in induction:
            key, _, weight = strongest_read(result.weights[layer][head], tokens, position)
            reads.append({"head": head_label(layer, head), "key": key, "weight": weight})
        facts["positions"].append({
            "position": position,
            "token": describe_token(tokens, position),
            "next": tokens[position + 1] if position + 1 < len(tokens) else None,
            "reads": reads,
            "top": top_predictions(model, words, position, 3),
            "p_next": float(change.intact[position]) if position + 1 < len(tokens) else None,
            "p_next_knocked": float(change.knocked[position]) if position + 1 < len(tokens) else None,
        })
    return facts


def sentence_sentences(model: Model, words: str = SENTENCE) -> list[str]:
    """The sentence facts as plain sentences (markdown), one per position looked at."""
    facts = sentence_facts(model, words)
    tokens = facts["tokens"]
    induction = " and ".join(head_label(*pair) for pair in facts["induction_heads"])
    lines = []
    for entry in facts["positions"]:
        reads = "; ".join(f"{read['head']} puts {read['weight']:.2f} on {describe_token(tokens, read['key'])}"
                          for read in entry["reads"])
        top = ", ".join(f'"{word}" {p:.2f}' for word, p in entry["top"])
        line = f"At {entry['token']} (row {entry['position'] + 1}): {reads}. The model's top guesses: {top}."
        if entry["next"] is not None:
            line += (f' The actual next word, "{entry["next"]}", gets {entry["p_next"]:.2f}; with {induction} '
                     f"knocked out, {entry['p_next_knocked']:.2f}.")
        lines.append(line)
    return lines + interpretation(facts)


def interpretation(facts: dict) -> list[str]:
    """What the two positions add up to, said only where the measurements show it."""
    tokens = facts["tokens"]
    before, at = facts["positions"]
    noun = tokens[at["position"]]
    first = tokens.index(noun)
    after_first = tokens[first + 1]
    lines = []
    if any(read["key"] == first for read in before["reads"]) and before["p_next"] - before["p_next_knocked"] > 0.5:
        lines.append(f'So the first "{noun}" is read one word early, from {before["token"]}, where copying it '
                     f'predicts "{noun}" (the knock-out shows that read is what decides it).')
    if any(read["key"] == first + 1 for read in at["reads"]):
        predicted = at["top"][0][0] == after_first
        lines.append(f'At {at["token"]} an induction head reads "{after_first}", the word after the first '
                     f'"{noun}"' + (f', and the model predicts "{after_first}".' if predicted else
                                     f', yet the model does not predict it: it gives "{after_first}" {facts["p_copy"]:.2f}.'))
    else:
        before_first = [read["head"] for read in at["reads"] if read["key"] == first - 1 and first > 1]
        looked_at = (f'{" and ".join(before_first)} reads {describe_token(tokens, first - 1)}, the word before the '
                     f'first "{noun}"; ' if before_first else "")
        expected = ("" if any(read["key"] == first for read in at["reads"]) else
                    f'The tutorial expects {at["token"]} to read the first "{noun}"; in this model it does not. ')
        lines.append(f'{expected}At {at["token"]} {looked_at}no induction head reads the word after the first "{noun}" '
                     f'("{after_first}"), where copying would look, and the model gives "{after_first}" '
                     f'{facts["p_copy"]:.2f}.')
    return lines


def readme_section(model: Model | None = None) -> str:
    """The README's "## The trained model" section, as markdown."""
    from .checkpoint import load_model

    model = load_model() if model is None else model
    c = model.config
    scores = head_scores(model)
    roles = head_roles(model, scores)
    metrics = evaluate(model)
    knock_outs = knock_out_table(model, roles)
    pronoun = pronoun_scores(model)
    chosen = pronoun_head(model, pronoun)
    sound_knock_outs = pronoun_knock_outs(model)
    mention = second_mention_scores(model)
    n_words = len(VOCABULARY) - 1
    size = len(shipped_text().encode("utf-8"))
    previous = heads_with_role(roles, "previous-token")
    induction = heads_with_role(roles, "induction")
    lines = [
        "## The trained model",
        "",
        "`py/attention_playground/model/` is a tiny transformer that learned its own attention: "
        f"{c.n_layers} layers × {c.n_heads} heads (d_model {c.d_model}, d_head {c.d_head}), attention only "
        "(no MLP, no LayerNorm), a learned positional embedding and an untied unembedding. It reads `<bos>` and "
        f"up to {c.max_words} words from a vocabulary of {n_words} words. Every head of its forward pass is the "
        "playground's own `attention_stages` (causal mask, ÷√d_k), so what the page shows is what the model "
        "computed. Training, too, needs nothing but NumPy: its gradient is written out (`model/gradients.py`).",
        "",
        "```python",
        "from attention_playground.model import load_model, run, head_scene, with_head_weights, describe",
        "model = load_model()",
        f'result = run(model, "{TUTORIAL_SENTENCE}")     # tokens, weights[layer][head], logits, stages',
        f'scene = head_scene(model, "{TUTORIAL_SENTENCE}", {chosen[0]}, {chosen[1]})   # a scene '
        "for compute()",
        "```",
        "",
        "A sentence is read as a learner types it: capitals lowered and punctuation split off, so "
        '"The Cat sat on the mat." is the tutorial\'s sentence and a ".". A word the model does not know is '
        "refused with its position and known words close to it in meaning (`corpus.RELATED_WORDS`: \"kitten\" → "
        '"cat") or in spelling ("crwo" → "crow").',
        "",
        f"**Data** (`corpus.py`, a small story world): {percent(c.repeat_fraction)} of the training sequences "
        f"are `<bos>` and a run of {RUN_LENGTHS[0]}–{RUN_LENGTHS[1]} distinct random words repeated to the end "
        "(they pay for copying: the previous-token and induction heads); the rest are sentences, each kind there "
        "to make one head pay for itself in the loss:",
        "",
    ]
    lines += [f"- {kind.__name__.replace('_', ' ')} ({percent(share)} of the sentences): "
              f"{SENTENCE_KIND_PURPOSES[kind.__name__]}" for kind, share in SENTENCE_KINDS]
    lines += [
        "",
        f"The pronoun sentences come in {len(PRONOUN_ORDERS)} word orders ("
        + ", ".join(f'{order}: "{" ".join(example)}"' for order, example in pronoun_examples().items())
        + "). Every sequence starts with `<bos>`, the first token to park on.",
        "",
        f"**Training** (`training.py`): Adam (lr {c.lr}, batch {c.batch_size}), next-token cross-entropy, "
        f"{model.steps} steps from seed {c.seed}: `cd py && python3 -m attention_playground.model.train` writes "
        "the checkpoint (it prints how long it took: about two minutes natively on a busy 2-core machine), "
        f"`checkpoint.json` ({size} bytes: the config, the vocabulary, the loss curve, the summary `describe` "
        f'gives, and every parameter as `{{"shape": [...], "data": [...]}}` in row-major order, rounded to '
        f"{SIGNIFICANT_DIGITS} significant digits; the model is exactly those decimals). "
        "`python3 bench/model.py` measures training speed.",
        "",
        *loss_drop_lines(model),
        f"**Measured** on fixed evaluation sets (`evaluation.py`, their own seed): {EVAL_REPEATED} repeated runs "
        f"and {EVAL_SENTENCES} sequences of sentences; {EVAL_PRONOUN_PER_ORDER} pronoun sentences in each word "
        f"order; {EVAL_STORIES} stories with a second mention. Every sentence is read alone after `<bos>`, as a "
        "learner types it. The *repeated part* is every word that occurred before in its run; there the next "
        "word can be copied. In the first run the next word is random.",
        "",
        "| measure | value |",
        "|---|---|",
        f"| repeated-part accuracy | {metrics.repeat_accuracy:.3f} |",
        f"| first-run accuracy (chance is about 1/{n_words} = {1 / n_words:.3f}) | {metrics.first_run_accuracy:.3f} |",
        f"| loss (nats): all positions / repeated part / sentences | {metrics.loss:.3f} / {metrics.repeat_loss:.3f}"
        f" / {metrics.sentence_loss:.3f} |",
        f'| probability of the animal\'s word after "it" (cat → purred) | {sound_knock_outs[0][1].intact:.3f} |',
        f'| second mention: accuracy of "left" / its probability | {mention.accuracy:.3f} / {mention.p_next:.3f} |',
        "",
        "Each head's scores (`analysis.py` defines them): on the repeated runs, the mean weight on the previous "
        "token; on the token after an earlier occurrence of the current one (induction); on that earlier "
        "occurrence itself (duplicate); and on `<bos>` over the first run, where there is nothing to copy (first "
        'token). On sentences: the mean weight at "it" on its animal (pronoun), and at the second mention of a '
        "noun on its first mention (duplicate on sentences). A head's role is the first of "
        + ", ".join(f"{name} ({score.replace('_', ' ')} ≥ {threshold})"
                    for name, (score, threshold) in ROLE_THRESHOLDS.items())
        + " that it reaches, else diffuse.",
        "",
        "| head | role | previous token | induction | duplicate token | first token | pronoun | duplicate on "
        "sentences |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for layer, head in model.heads:
        s = scores.of(layer, head)
        lines.append(f"| {head_label(layer, head)} | {roles[(layer, head)]} | {s['previous_token']:.2f} | "
                     f"{s['induction']:.2f} | {s['duplicate_token']:.2f} | {s['first_token']:.2f} | "
                     f"{s['pronoun']:.2f} | {s['duplicate_token_sentences']:.2f} |")
    lines += [
        "",
        "Knocking a head out (zeroing its output) shows whether what it reads matters. Changes from the intact "
        'model (the last column: the animal\'s word after "it", mean over the pronoun sentences):',
        "",
        '| knocked out | repeated-part accuracy | repeated-part loss | sentence loss | animal\'s word after "it" |',
        "|---|---|---|---|---|",
    ]
    for entry in knock_outs:
        ch = entry.change
        sound = sound_probability(model, entry.heads)
        lines.append(f"| {entry.label} | {ch.repeat_accuracy:+.3f} (to {entry.metrics.repeat_accuracy:.3f}) | "
                     f"{ch.repeat_loss:+.3f} | {ch.sentence_loss:+.3f} | {-sound.drop:+.3f} (to "
                     f"{sound.knocked:.3f}) |")
    lines += ["", *pronoun_lines(model, pronoun, sound_knock_outs)]
    lines += ["", "Does it form by chance? `tests/native/test_model_analysis.py` trains five other seeds briefly "
              "(sentences only, 16 words, stopped as soon as a head puts 0.8 on the animal) and checks that at "
              "least four of them grow such a head. The shipped seed was chosen among the first four for a model "
              "in which "
              "one head both reads the animal in every word order and carries the prediction (in the others several "
              "heads shared that work, or the head read the animal less in one word order)."]
    lines += ["", *second_mention_lines(model, mention)]
    lines += ["", f'**On "{SENTENCE}"** (the preset `trained-repeated-noun` shows layer 1 on it):', ""]
    lines += [f"- {line}" for line in sentence_sentences(model)]
    lines += ["", "**What it did not learn**, measured the same way:", ""]
    duplicate = float(scores.duplicate_token_sentences.max())
    if duplicate < ROLE_THRESHOLDS["duplicate-token"][1]:
        lines.append(f"- No duplicate-token head: at the second mention of a noun the largest weight any head puts "
                     f"on the first mention is {duplicate:.2f} (on the repeated runs, "
                     f"{float(scores.duplicate_token.max()):.2f}). See *The second mention* above for what it "
                     "reads instead.")
    for layer, head in previous:
        early, late = previous_token_by_half(model, layer, head)
        half = c.n_ctx // 2
        if late < early - 0.2:
            lines.append(
                f"- {head_label(layer, head)} reads the previous token mostly early in the context: its "
                f"previous-token score is {early:.2f} over positions 1–{half} and {late:.2f} after position {half}."
            )
    if not induction:
        lines.append("- No induction head formed.")
    if lines[-1] == "":
        lines.pop()
    return "\n".join(wrap(lines)) + "\n"


def pronoun_examples() -> dict[str, list[str]]:
    """One pronoun sentence per word order, drawn from a fixed seed, for the README."""
    rng = random.Random(7)
    return {order: pronoun_sentence(rng, order) for order in PRONOUN_ORDERS}


def pronoun_lines(model: Model, pronoun, sound_knock_outs) -> list[str]:
    """The README's paragraph on the pronoun head, from the measurements."""
    layer, head = pronoun_head(model, pronoun)
    label = head_label(layer, head)
    reads = tutorial_reads(model, layer, head)
    designed = designed_reads()
    lines = [
        f'**The pronoun head.** On the tutorial\'s sentence "{TUTORIAL_SENTENCE}", {label} puts '
        f'{reads["cat"]:.2f} on "cat" and {reads["mat"]:.2f} on "mat" at "it" (the Part 6 head built by hand: '
        f'{designed["cat"]:.3f} and {designed["mat"]:.3f}). Nobody labelled "animal" for it: '
        'it learned to look for the word that decides what follows "it". Over the pronoun sentences, word order '
        "by word order:",
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
    lines += ["", f"Overall {label} puts {pronoun.animal[layer, head]:.2f} on the animal and "
              f"{pronoun.other[layer, head]:.2f} on the other nouns. Heads that put at least {READS_ANIMAL} on "
              f"the animal: {readers}; of these, {label} is the one whose knock-out lowers the animal's word most "
              f"(its role in the table above: {head_roles(model)[(layer, head)]}). "
              + " ".join(f'Knocking out {name} lowers the probability of the animal\'s word after "it" from '
                         f"{entry.intact:.2f} to {entry.knocked:.2f} ({entry.drop:.2f} lower)."
                         for name, entry in sound_knock_outs)]
    return lines


def second_mention_lines(model: Model, mention) -> list[str]:
    """The README's paragraph on the second mention of a noun, from the measurements."""
    following = np.unravel_index(int(np.argmax(mention.following)), mention.following.shape)
    duplicate = np.unravel_index(int(np.argmax(mention.first_mention)), mention.first_mention.shape)
    parked = [head_label(layer, head) for layer, head in model.heads if mention.bos[layer, head] >= 0.5]
    example = " ".join(second_mention_set()[0].words)
    return [
        f'**The second mention.** In stories such as "{example}", the word after a noun\'s second mention is '
        f'"left" and after its first "came". The model predicts "left" at {percent(mention.accuracy)} of the '
        f"second mentions (mean probability {mention.p_next:.2f}). At the second mention, "
        f"{head_label(*duplicate)} puts the most weight of any head on the first mention, "
        f"{mention.first_mention[duplicate]:.2f}; "
        f"{head_label(*following)} puts {mention.following[following]:.2f} on the word after the first mention "
        "(\"came\"): the induction route finds the repeat by reading what followed the noun last time. "
        + (f"Heads that park more than half their weight on `<bos>` there: {', '.join(parked)}."
           if parked else "No head parks more than half its weight on `<bos>` there."),
    ]


def loss_drop_lines(model: Model) -> list[str]:
    """The sudden drop in the model's training loss (loss_drop.py), as the training view marks it."""
    drop = find_loss_drop(model.loss_curve)
    if drop is None:
        return ["**The loss curve** has no sudden drop (`loss_drop.py` finds none).", ""]
    return [f"**The loss curve** falls suddenly between steps {drop.start} and {drop.end}: from {drop.before:.2f} "
            f"to {drop.after:.2f} (means over the {drop.window} steps either side; `loss_drop.py` finds it, and "
            "the training view marks it). Such a drop after a plateau is the mark of an induction head forming: "
            "once a head copies what followed an earlier occurrence, the repeated runs can be predicted.", ""]


def wrap(lines: list[str], width: int = 115) -> list[str]:
    """Prose and list items wrapped at `width`, as the rest of the README is; tables and code left alone."""
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


def main() -> None:
    print(readme_section(), end="")


if __name__ == "__main__":
    main()
