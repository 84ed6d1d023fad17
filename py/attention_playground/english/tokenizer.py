"""The English model's tokenizer: byte-pair encoding learned from the Brown corpus, lowercase.

    tokenizer = load_tokenizer()
    tokenizer.tokens("Mary went to the store.")   # ['▁mary', '▁went', '▁to', '▁the', '▁store', '.']
    tokenizer.encode("the cat chased it")         # ids, <bos> not included

Text is lowercased (accents dropped, curly quotes made straight), then cut into pre-tokens: runs of letters and digits (a word, marked with "▁" in front, so
that a word's first piece differs from the same letters inside a word) and single other characters (punctuation,
never marked). Each pre-token starts as its characters and the learned merges join neighbours, lowest rank first,
until none applies: common words end whole ("▁the", "▁mary"), rare ones in pieces ("▁ch" + "ased").

No text is refused. A character the corpus never had (an accent, an emoji) is spelt as its UTF-8 bytes, one
token each ("<0xC3>", "<0xA9>"), so every printable sentence has tokens; the model has seen none of those bytes,
so it guesses around them.

The tokenizer is one JSON file beside this one (tokenizer.json): the alphabet and the merges in the order they
were learned (english/bpe.py learns them; make_english.py writes the file). A token's id is its place in
`vocabulary`: `<bos>`, the alphabet, the 256 bytes, then each merge's result.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib.resources import files

BOS = "<bos>"
#: Marks a piece that starts a word.
WORD_START = "▁"
FORMAT = "attention-playground-tokenizer"
VERSION = 1
TOKENIZER_NAME = "tokenizer.json"

#: A word (letters and digits) or any one other character that is not white space.
PRE_TOKEN = re.compile(r"([a-z0-9]+)|([^\sa-z0-9])")

#: Typographic punctuation a phone's keyboard types, as the corpus prints it.
PLAIN_PUNCTUATION = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "–": "-", "—": "-", "…": "..."})


def byte_token(value: int) -> str:
    """The token that spells one UTF-8 byte of a character outside the alphabet."""
    return f"<0x{value:02X}>"


def plain(text: str) -> str:
    """The text as the corpus spells it: lowercase, accents dropped (café -> cafe), curly quotes and dashes plain."""
    if text.isascii():  # nearly every line of the corpus: nothing to fold, and folding is a loop over every character
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.lower().translate(PLAIN_PUNCTUATION))
    return "".join(character for character in decomposed if not unicodedata.combining(character))


def pre_tokens(text: str) -> list[str]:
    """The text made plain and cut into words ("▁" in front) and single other characters (never marked)."""
    return [WORD_START + word if word else other for word, other in PRE_TOKEN.findall(plain(text))]


@dataclass(frozen=True, eq=False)
class Tokenizer:
    """The alphabet and the merges, in the order they were learned; see the module docstring."""

    alphabet: tuple[str, ...]
    merges: tuple[tuple[str, str], ...]
    vocabulary: tuple[str, ...] = field(init=False)
    _ids: dict[str, int] = field(init=False, repr=False)
    _ranks: dict[tuple[str, str], int] = field(init=False, repr=False)

    def __post_init__(self):
        vocabulary = (BOS, *self.alphabet, *(byte_token(value) for value in range(256)),
                      *(left + right for left, right in self.merges))
        object.__setattr__(self, "vocabulary", vocabulary)
        object.__setattr__(self, "_ids", {token: index for index, token in enumerate(vocabulary)})
        object.__setattr__(self, "_ranks", {pair: rank for rank, pair in enumerate(self.merges)})
        if len(self._ids) != len(vocabulary):
            raise ValueError("the tokenizer's vocabulary has a token twice")

    def id_of(self, token: str) -> int:
        return self._ids[token]

    def spell(self, pre_token: str) -> list[str]:
        """A pre-token as the symbols merging starts from: its characters, bytes for those outside the alphabet.
        ("▁" stays one symbol with the letter after it only if a merge says so; it is in the alphabet.)"""
        symbols = []
        for character in pre_token:
            if character in self._ids:
                symbols.append(character)
            else:
                symbols.extend(byte_token(value) for value in character.encode("utf-8"))
        return symbols

    def pieces(self, pre_token: str) -> tuple[str, ...]:
        """One pre-token's tokens: its symbols, merged lowest rank first until no merge applies."""
        return _merged(self, pre_token)

    def tokens(self, text: str) -> list[str]:
        """The text's tokens, in order (<bos> not included)."""
        return [piece for pre_token in pre_tokens(text) for piece in self.pieces(pre_token)]

    def encode(self, text: str) -> list[int]:
        """The text's token ids (<bos> not included)."""
        return [self._ids[token] for token in self.tokens(text)]

    def to_dict(self) -> dict:
        return {"format": FORMAT, "version": VERSION, "alphabet": list(self.alphabet),
                "merges": [list(pair) for pair in self.merges]}

    @classmethod
    def from_dict(cls, data: dict) -> Tokenizer:
        if data.get("format") != FORMAT or data.get("version") != VERSION:
            raise ValueError(f"not a {FORMAT} file of version {VERSION}")
        return cls(tuple(data["alphabet"]), tuple((left, right) for left, right in data["merges"]))


@lru_cache(maxsize=1 << 16)  # a text repeats its words: each is merged once
def _merged(tokenizer: Tokenizer, pre_token: str) -> tuple[str, ...]:
    symbols = tokenizer.spell(pre_token)
    ranks = tokenizer._ranks
    while len(symbols) > 1:
        pairs = [(ranks.get((left, right)), at) for at, (left, right) in enumerate(zip(symbols, symbols[1:]))]
        ranked = [(rank, at) for rank, at in pairs if rank is not None]
        if not ranked:
            break
        _, at = min(ranked)  # the earliest-learned merge, leftmost where it applies twice
        symbols[at:at + 2] = [symbols[at] + symbols[at + 1]]
    return tuple(symbols)


@cache
def load_tokenizer() -> Tokenizer:
    """The English model's tokenizer, as shipped."""
    return Tokenizer.from_dict(json.loads((files(__package__) / TOKENIZER_NAME).read_text(encoding="utf-8")))


def tokenizer_text(tokenizer: Tokenizer) -> str:
    """tokenizer.json's text: the alphabet on one line, a merge per line (diffs stay readable)."""
    data = tokenizer.to_dict()
    merges = ",\n".join(json.dumps(pair, ensure_ascii=False) for pair in data["merges"])
    return (f'{{"format": {json.dumps(FORMAT)}, "version": {VERSION},\n'
            f'"alphabet": {json.dumps(data["alphabet"], ensure_ascii=False)},\n'
            f'"merges": [\n{merges}\n]}}\n')
