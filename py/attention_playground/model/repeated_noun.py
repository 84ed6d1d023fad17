"""What the shipped model does on the tutorial's sentence with a repeated noun, "the fox met a crow and the fox
smiled": where each induction head reads at the repeat and the word before it, the model's guesses there, and what
knocking the induction heads out changes, as facts and as plain sentences.

The preset script (presets/make_trained_repeated_noun.py) writes these sentences into the preset's description,
and tools/model_report.py into docs/model.md, so both say what this measures. No request needs it: it ships
with the command-line scripts (parts.py), not in the part the page fetches for the model.
"""

from __future__ import annotations

import numpy as np

from .analysis import head_label, head_roles, heads_with_role, next_word_change, top_predictions
from .transformer import Model, run

#: The tutorial's sentence with a repeated noun.
SENTENCE = "the fox met a crow and the fox smiled"


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
