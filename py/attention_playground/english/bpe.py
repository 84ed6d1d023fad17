"""Learning the tokenizer's merges from a corpus: byte-pair encoding (Sennrich et al., 2016).

Every pre-token of the corpus (tokenizer.pre_tokens) starts as its characters. Again and again the pair of
neighbouring symbols seen most often (counting each pre-token as often as it occurs) becomes one symbol, until the
vocabulary has its size. Ties go to the pair that sorts first, so the same corpus gives the same merges.

The pair counts are kept up to date as merges happen, touching only the pre-tokens that hold the merged pair
(an index from each pair to them): on the Brown corpus's 42,000 distinct pre-tokens, 3,800 merges take about a
minute in plain Python.
"""

from __future__ import annotations

import heapq
from collections import Counter, defaultdict
from collections.abc import Iterable

from .tokenizer import Tokenizer, byte_token, pre_tokens


def learn_tokenizer(texts: Iterable[str], vocabulary_size: int) -> Tokenizer:
    """A tokenizer whose vocabulary (<bos>, the alphabet, 256 bytes, the merges) has `vocabulary_size` tokens."""
    counts = Counter(piece for text in texts for piece in pre_tokens(text))
    alphabet = tuple(sorted({character for word in counts for character in word}
                            - {byte_token(value) for value in range(256)}))
    words = [list(word) for word in counts]  # each distinct pre-token as its symbols, merged as we go
    frequency = list(counts.values())
    pair_counts: Counter = Counter()
    holders: defaultdict = defaultdict(set)  # pair -> the words that hold it
    for index, symbols in enumerate(words):
        for pair in zip(symbols, symbols[1:]):
            pair_counts[pair] += frequency[index]
            holders[pair].add(index)

    # The most frequent pair comes off a heap of (-count, pair): ties go to the pair that sorts first. A count
    # that changed is pushed again; an entry whose count is no longer the pair's own is passed over.
    heap = [(-count, pair) for pair, count in pair_counts.items()]
    heapq.heapify(heap)
    merges = []
    wanted = vocabulary_size - 1 - len(alphabet) - 256
    while len(merges) < wanted and heap:
        negative, best = heapq.heappop(heap)
        if pair_counts.get(best) != -negative:
            continue
        merges.append(best)
        joined = best[0] + best[1]
        changed = set()
        for index in holders.pop(best, ()):
            symbols = words[index]
            for pair in zip(symbols, symbols[1:]):  # forget this word's pairs ...
                pair_counts[pair] -= frequency[index]
                changed.add(pair)
            words[index] = symbols = _merge(symbols, best, joined)
            for pair in zip(symbols, symbols[1:]):  # ... and count them again, merged
                pair_counts[pair] += frequency[index]
                holders[pair].add(index)
                changed.add(pair)
        changed.discard(best)
        del pair_counts[best]
        for pair in changed:
            if pair_counts[pair] > 0:
                heapq.heappush(heap, (-pair_counts[pair], pair))
            else:
                del pair_counts[pair]
    return Tokenizer(alphabet, tuple(merges))


def _merge(symbols: list[str], pair: tuple[str, str], joined: str) -> list[str]:
    """The symbols with every occurrence of `pair`, left to right, made one."""
    merged, at = [], 0
    while at < len(symbols):
        if at + 1 < len(symbols) and symbols[at] == pair[0] and symbols[at + 1] == pair[1]:
            merged.append(joined)
            at += 2
        else:
            merged.append(symbols[at])
            at += 1
    return merged
