"""How a lesson points at a word, a feature or a dim, and how a feedback sentence names one.

An author names a row or a column of a scene as the learner sees it:

- by its text: "cat"; a word that occurs more than once by its occurrence, "fox#2" for the second "fox";
- by its number, counted from 1 as the heatmap counts its rows: 3 is the third word.

An answer from the page names a column by its 0-based index, as every other request does (`knock_out_word`'s
`column`), or by its text.

Sentences quote a word with typographic quotes, “cat”, and add its row where the text alone would not say which
one is meant: “the” (row 5). Weights read as percentages with one decimal, as the page shows them; other numbers
with four decimals, as the tutorials print them.
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Sequence
from typing import Any

from .mistakes import LessonInputError

#: "fox#2": the text and which occurrence of it.
_OCCURRENCE = re.compile(r"^(?P<text>.+)#(?P<nth>[1-9][0-9]{0,2})$", re.S)

#: The longest text a name in a question may have (a scene's names are short; this only stops a flood).
MAX_NAME = 200


def whole_number(value: Any) -> bool:
    """True for an int that is not a bool (TOML and JSON both give ints for whole numbers)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def real_number(value: Any) -> bool:
    """True for a finite int or float that is not a bool."""
    return (isinstance(value, numbers.Real) and not isinstance(value, bool)
            and math.isfinite(float(value)))


def find_label(ref: Any, labels: Sequence[str], field: str, noun: str) -> int:
    """The 0-based position of `ref` among `labels`: a text ("cat", "fox#2") or a number counted from 1.

    Raises LessonInputError naming `field` and the labels there are."""
    if whole_number(ref):
        if not 1 <= ref <= len(labels):
            raise LessonInputError(f"{noun} {ref} does not exist: there are {len(labels)} {noun}s, counted from 1",
                                   field)
        return int(ref) - 1
    if not isinstance(ref, str) or not ref or len(ref) > MAX_NAME:
        raise LessonInputError(f"a {noun} is named by its text (\"cat\", \"fox#2\" for the second \"fox\") or its "
                               f"number counted from 1; got {describe_value(ref)}", field)
    if ref in labels:
        return labels.index(ref)  # the first: an occurrence is asked for with #n
    occurrence = _OCCURRENCE.match(ref)
    if occurrence:
        text, nth = occurrence["text"], int(occurrence["nth"])
        places = [i for i, label in enumerate(labels) if label == text]
        if len(places) >= nth:
            return places[nth - 1]
        if places:
            raise LessonInputError(f"{quote(text)} occurs {len(places)} time{'s' if len(places) > 1 else ''}, "
                                   f"so there is no {quote(ref)}", field)
    shown = ", ".join(quote(label) for label in list(dict.fromkeys(labels))[:12])
    raise LessonInputError(f"there is no {noun} {quote(ref)}; the {noun}s are {shown}"
                           f"{', …' if len(set(labels)) > 12 else ''}", field)


def find_word(ref: Any, tokens: Sequence[str], field: str) -> int:
    """The 0-based row of the word `ref` names (see the module docstring)."""
    return find_label(ref, tokens, field, "word")


def answered_column(value: Any, tokens: Sequence[str], field: str = "answer") -> int:
    """The 0-based column an answer names: its index (as the page sends it) or its text."""
    if whole_number(value):
        if not 0 <= value < len(tokens):
            raise LessonInputError(f"column {value} does not exist: the columns are 0 to {len(tokens) - 1}", field)
        return int(value)
    return find_word(value, tokens, field)


def end_sentence(text: str) -> str:
    """`text` with a full stop, unless it ends with one already, or with an ellipsis: never "…." or ".."."""
    return text if text.endswith((".", "…", "!", "?")) else text + "."


def quote(label: str) -> str:
    """A name in typographic quotes, shortened if long: “cat”."""
    text = str(label)
    return f"“{text if len(text) <= 40 else text[:38] + '…'}”"


def name_word(tokens: Sequence[str], index: int) -> str:
    """“cat”, or “the” (row 5) where the text alone would not say which one."""
    if list(tokens).count(tokens[index]) > 1:
        return f"{quote(tokens[index])} (row {index + 1})"
    return quote(tokens[index])


#: Counts written out in prose ("six words"); larger ones as digits.
COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def counted(count: int, noun: str) -> str:
    """“one word”, “six words”, “14 words”: a count of `noun` as a sentence says it."""
    amount = COUNT_WORDS[count] if 0 <= count < len(COUNT_WORDS) else str(count)
    return f"{amount} {noun}{'' if count == 1 else 's'}"


def percent(weight: float) -> str:
    """A weight as the page shows it: 92.0%."""
    if not math.isfinite(weight):
        return "not a number"
    return f"{weight * 100:.1f}%"


def number(value: float) -> str:
    """A number as the tutorials print them: four decimals (0.7071), or four significant digits when large."""
    if not math.isfinite(value):
        return "not a number" if math.isnan(value) else ("infinity" if value > 0 else "minus infinity")
    if abs(value) >= 10_000:
        return f"{value:.4g}"
    text = f"{value:.4f}"
    return "0.0000" if text == "-0.0000" else text


def describe_value(value: Any) -> str:
    """A value as a message shows it: short, and never more than a line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing"
    if isinstance(value, str):
        return quote(value.replace("\n", " "))
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, numbers.Real):
        return repr(value)[:24]
    return f"a {type(value).__name__}"
