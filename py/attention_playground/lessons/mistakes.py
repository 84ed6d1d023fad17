"""The one error a lesson's question, variant, edit or answer raises when the module cannot take it.

A question reaches the module twice: from the author's lesson file, through the checker (which turns `field` into
the file's line), and from the page, which sends the compiled question back with the learner's answer. The page's
copy is untrusted, so both are read by the same code, and both get this error, naming the key at fault.
"""

from __future__ import annotations


class LessonInputError(ValueError):
    """A value a lesson's question (or the answer to it) cannot take.

    `field` is the key path inside the question ("row", "options[2].value", "conditions[0].weight.row"), or inside
    the answer ("answer"); None where no one key is at fault.
    """

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field

    def within(self, prefix: str) -> LessonInputError:
        """The same mistake, its field read from one level up ("row" inside "of" is "of.row")."""
        return LessonInputError(self.message, prefix if self.field is None else f"{prefix}.{self.field}")
