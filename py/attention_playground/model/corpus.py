"""What the model reads: the words of a small story world and a seeded generator of training sequences.

Every sequence starts with `<bos>` (the beginning-of-sequence token) and is one of two kinds:

- **a repeated run** (`repeat_fraction` of the sequences, 50% by default): a run of 5 to 15 distinct
  words drawn at random from the vocabulary, repeated until the sequence is full, e.g.

      <bos> owl red sat queen fox owl red sat queen fox owl red ...

  From the second copy on every word can be predicted by looking back at what followed the same word
  last time. That is the job of an *induction head* (and of the *previous-token head* it leans on).

- **stories**: sentences of the story world, one after another, each ending in ".". Each sentence kind
  exists to make one head pay for itself in the loss (`SENTENCE_KINDS` lists them with their shares):

  - *pronoun* (pays for a head that finds the animal): the word after "it" is the sound of the animal
    the sentence is about (cat → purred, dog → barked, ...), and every such sentence also names a place
    or a person, so "it" must find the animal, not the other noun. The animal stands at different
    distances from "it", in the word orders of `PRONOUN_ORDERS`, e.g.
    "the cat sat on the mat because it purred", "on the mat sat the dog and it barked".
  - *second mention* (offers a duplicate-token head a job): "the fox came . the owl came . the fox left ."
    A noun's second mention is followed by "left", its first by "came", so seeing that the noun occurred
    before predicts the next word.
  - *repeated noun* (pays for copying, induction): "the fox met a crow and the fox smiled"; after the
    second "the" the first mention's noun is the best guess.
  - *who did what* (pays for the previous word, and for copying a phrase): the tutorial's
    "the dog bites the man and the man bites the dog".
  - *scene* (teaches the rest of the vocabulary, so every word a learner types has a trained vector):
    "the girl found a red ball in the park".

  The first token to park on, the sink, is `<bos>`, which starts every sequence.

Every word of both tutorials' example sentences is in the vocabulary ("the cat sat on the mat because it
was tired", "dog bites man", "it was raining", "it compiles on my machine").

Words are drawn with Python's `random.Random(seed)`: one seed gives the same sequences on every machine,
and it is several times faster than NumPy's `choice` for many tiny draws.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

#: The beginning-of-sequence token, first in every sequence. Spelled here only: the page reads it from the
#: build's facts (facts.py, generated/module-facts.js).
BOS = "<bos>"

#: Each animal and the one sound it makes: after "it", the sound names the animal.
ANIMAL_SOUNDS: dict[str, str] = {
    "cat": "purred", "dog": "barked", "fox": "yelped", "crow": "cawed", "owl": "hooted", "wolf": "howled",
    "bird": "chirped", "frog": "croaked", "mouse": "squeaked", "horse": "neighed", "bear": "growled",
    "cow": "mooed", "duck": "quacked", "sheep": "bleated", "lion": "roared", "snake": "hissed",
}
ANIMALS = tuple(ANIMAL_SOUNDS)
SOUNDS = tuple(ANIMAL_SOUNDS.values())
PEOPLE = ("man", "woman", "girl", "boy", "king", "queen", "child", "farmer", "teacher", "doctor", "baker")
PLACES = ("mat", "hill", "tree", "log", "rock", "rug", "bed", "box", "wall", "roof", "sofa", "chair", "table",
          "fence", "bench", "grass", "road", "barn")
THINGS = ("ball", "book", "hat", "cup", "bone", "fish", "milk", "cheese", "apple", "bread", "food", "water",
          "sun", "machine", "door", "window", "house", "garden", "park", "river", "field", "forest", "home")
PREPOSITIONS = ("on", "in", "under", "near", "by")
RESTING = ("sat", "slept", "waited", "stood", "lay")  # what an animal does at a place
TRANSITIVE = ("met", "saw", "chased", "helped", "bites", "liked", "found", "fed", "watched", "called",
              "followed", "likes", "loves", "has", "had")
INTRANSITIVE = ("smiled", "ran", "sang", "laughed", "jumped", "walked", "cried", "danced", "played", "slept")
ADJECTIVES = ("tired", "old", "big", "small", "red", "happy", "hungry", "brown", "little", "young", "sleepy",
              "lazy", "black", "white", "wet", "cold", "quiet", "angry", "raining")
FUNCTION_WORDS = ("the", "a", "and", "because", "it", "was", "then", "so", "that", "to", "my", "his", "her",
                  "is", "came", "left", "sleep", "compiles", "day", "every", "with", ".", ",")

#: Every word the model knows, in a fixed order; index 0 is `<bos>`. The tutorials' words are all here.
VOCABULARY: tuple[str, ...] = tuple(dict.fromkeys(
    (BOS, *FUNCTION_WORDS, *PREPOSITIONS, *ANIMALS, *SOUNDS, *PEOPLE, *PLACES, *THINGS, *RESTING, *TRANSITIVE,
     *INTRANSITIVE, *ADJECTIVES)))
WORD_INDEX: dict[str, int] = {word: i for i, word in enumerate(VOCABULARY)}

#: Words the model does not know, each with known words close to it in meaning: what errors.py suggests
#: before words close in spelling. Each list names only words of VOCABULARY (a test checks it).
RELATED_WORDS: dict[str, tuple[str, ...]] = {
    "kitten": ("cat",), "kitty": ("cat",), "puppy": ("dog",), "hound": ("dog", "wolf"), "pup": ("dog",),
    "calf": ("cow",), "lamb": ("sheep",), "pony": ("horse",), "rat": ("mouse",), "toad": ("frog",),
    "raven": ("crow", "bird"), "chick": ("bird", "duck"), "tiger": ("lion", "cat"), "goat": ("sheep", "cow"),
    "pig": ("cow", "sheep"), "cub": ("bear", "lion"), "zebra": ("horse",), "puma": ("lion", "cat"),
    "mew": ("purred",), "meowed": ("purred",), "woofed": ("barked",),
    "lady": ("woman",), "gentleman": ("man",), "kid": ("child",), "son": ("boy",), "daughter": ("girl",),
    "mother": ("woman",), "father": ("man",), "mom": ("woman",), "dad": ("man",), "prince": ("king",),
    "princess": ("queen",), "cook": ("baker",),
    "carpet": ("rug", "mat"), "couch": ("sofa",), "stool": ("chair", "bench"), "desk": ("table",),
    "floor": ("mat", "rug"), "stone": ("rock",), "branch": ("tree", "log"), "mountain": ("hill",),
    "street": ("road",), "stable": ("barn",), "lawn": ("grass", "garden"), "lake": ("river", "water"),
    "sea": ("water", "river"), "woods": ("forest",), "yard": ("garden",),
    "sit": ("sat",), "sits": ("sat",), "sitting": ("sat",), "sleeps": ("slept", "sleep"), "sleeping": ("slept",),
    "stand": ("stood",), "lies": ("lay",), "lying": ("lay",), "run": ("ran",), "runs": ("ran",),
    "sees": ("saw",), "see": ("saw",), "bit": ("bites",), "bite": ("bites",), "like": ("likes", "liked"),
    "love": ("loves",), "loved": ("loves",), "chase": ("chased",), "chases": ("chased",), "help": ("helped",),
    "find": ("found",), "meet": ("met",), "walk": ("walked",), "jump": ("jumped",), "play": ("played",),
    "plays": ("played",), "eat": ("fed", "food"), "ate": ("fed", "food"), "went": ("left",), "go": ("left",),
    "come": ("came",), "comes": ("came",), "are": ("is", "was"), "were": ("was",),
    "be": ("is", "was"),
    "sad": ("angry", "quiet"), "large": ("big",), "huge": ("big",), "tiny": ("small", "little"),
    "glad": ("happy",), "weary": ("tired",), "starving": ("hungry",), "ancient": ("old",),
    "an": ("a",), "this": ("the",), "these": ("the",), "those": ("the",), "he": ("it",), "she": ("it",),
    "they": ("it",), "him": ("it",), "its": ("his", "her"), "their": ("his", "her"), "our": ("my",),
    "your": ("my",), "at": ("by", "near"), "beside": ("by", "near"), "into": ("in",), "onto": ("on",),
    "over": ("on",), "below": ("under",), "beneath": ("under",), "but": ("and",), "or": ("and",),
    "since": ("because",), "as": ("because",), "later": ("then",), "next": ("then",), "!": (".",),
    "?": (".",), ";": (",",), ":": (",",), "rain": ("raining",), "rainy": ("raining", "wet"),
    "computer": ("machine",), "works": ("compiles",),
}

#: Shortest and longest run of a repeated-run sequence.
RUN_LENGTHS = (5, 15)


def _maybe_adjective(rng: random.Random, noun: str) -> list[str]:
    """The noun, with an adjective before it a third of the time (so distances vary)."""
    return [rng.choice(ADJECTIVES), noun] if rng.random() < 1 / 3 else [noun]


def _animal_first(rng: random.Random, animal: str, place: str) -> list[str]:
    # the cat sat on the mat because it purred
    return ["the", *_maybe_adjective(rng, animal), rng.choice(RESTING), rng.choice(PREPOSITIONS), "the",
            *_maybe_adjective(rng, place), rng.choice(("because", "and", "so")), "it"]


def _place_first(rng: random.Random, animal: str, place: str) -> list[str]:
    # on the mat sat the dog and it barked
    return [rng.choice(PREPOSITIONS), "the", *_maybe_adjective(rng, place), rng.choice(RESTING), "the",
            *_maybe_adjective(rng, animal), rng.choice(("because", "and", "so")), "it"]


def _person_between(rng: random.Random, animal: str, place: str) -> list[str]:
    # the owl saw the farmer near the barn and then it hooted
    return ["the", *_maybe_adjective(rng, animal), rng.choice(TRANSITIVE), "the", rng.choice(PEOPLE),
            rng.choice(PREPOSITIONS), "the", place, "and", "then", "it"]


def _person_first(rng: random.Random, animal: str, place: str) -> list[str]:
    # the girl found the frog by the log and it croaked
    return ["the", rng.choice(PEOPLE), rng.choice(TRANSITIVE), "the", *_maybe_adjective(rng, animal),
            rng.choice(PREPOSITIONS), "the", place, "and", "it"]


#: The word orders of the pronoun sentences, by name: each gives the words up to and including "it".
PRONOUN_ORDERS: dict[str, Callable[[random.Random, str, str], list[str]]] = {
    "animal first": _animal_first,
    "place first": _place_first,
    "person between": _person_between,
    "person first": _person_first,
}


def pronoun_sentence(rng: random.Random, order: str | None = None) -> list[str]:
    """Pays for a pronoun head: the word after "it" is its animal's sound ("the cat ... it purred").

    `order` picks one of PRONOUN_ORDERS (by default one at random).
    """
    animal, place = rng.choice(ANIMALS), rng.choice(PLACES)
    order = rng.choice(tuple(PRONOUN_ORDERS)) if order is None else order
    return PRONOUN_ORDERS[order](rng, animal, place) + [ANIMAL_SOUNDS[animal], "."]


def second_mention_story(rng: random.Random) -> list[str]:
    """Offers a duplicate-token head a job: a noun's first mention "came", its second "left"."""
    pool = rng.sample(ANIMALS + PEOPLE, 3)
    nouns = [rng.choice(pool) for _ in range(rng.randint(3, 4))]
    words, seen = [], set()
    for noun in nouns:
        words += ["the", noun, "left" if noun in seen else "came", "."]
        seen.add(noun)
    return words


def repeated_noun_sentence(rng: random.Random) -> list[str]:
    """Pays for copying (induction): "the fox met a crow and the fox smiled", the noun named again."""
    noun, other = rng.sample(ANIMALS + PEOPLE, 2)
    return ["the", noun, rng.choice(TRANSITIVE), "a", other, "and", "the", noun, rng.choice(INTRANSITIVE), "."]


def who_did_what(rng: random.Random) -> list[str]:
    """Pays for the previous word and copying: "the dog bites the man and the man bites the dog"."""
    noun, other = rng.sample(ANIMALS + PEOPLE, 2)
    verb = rng.choice(TRANSITIVE)
    return ["the", noun, verb, "the", other, "and", "the", other, verb, "the", noun, "."]


def scene_sentence(rng: random.Random) -> list[str]:
    """Teaches the rest of the vocabulary: "the girl found a red ball in the park" and the like."""
    kind = rng.randrange(4)
    if kind == 0:
        return ["the", rng.choice(PEOPLE), rng.choice(TRANSITIVE), "a", *_maybe_adjective(rng, rng.choice(THINGS)),
                rng.choice(PREPOSITIONS), "the", rng.choice(THINGS + PLACES), "."]
    if kind == 1:
        return [rng.choice(("my", "his", "her")), rng.choice(ANIMALS + PEOPLE), rng.choice(("likes", "loves")),
                "to", "sleep", rng.choice(PREPOSITIONS), "the",
                rng.choice(THINGS + PLACES), "."]
    if kind == 2:
        return ["it", "was", rng.choice(ADJECTIVES), "every", "day", ",", "so", "the", rng.choice(PEOPLE),
                rng.choice(INTRANSITIVE), "with", "the", rng.choice(ANIMALS), "."]
    return ["the", rng.choice(THINGS), "is", rng.choice(ADJECTIVES), "and", "it", "compiles", "on", "my",
            "machine", "."] if rng.random() < 0.2 else ["the", rng.choice(THINGS + PLACES), "was",
                                                         rng.choice(ADJECTIVES), "."]


#: Each sentence kind and its share of the stories' sentences.
SENTENCE_KINDS: tuple[tuple[Callable[[random.Random], list[str]], float], ...] = (
    (pronoun_sentence, 0.45),
    (second_mention_story, 0.15),
    (repeated_noun_sentence, 0.15),
    (who_did_what, 0.1),
    (scene_sentence, 0.15),
)

#: What each sentence kind is there for, in one line (docs/model.md's list of kinds is written from it). Data, not
#: the functions' docstrings: the page's zips carry the module without its docstrings.
SENTENCE_KIND_PURPOSES: dict[str, str] = {
    "pronoun_sentence":
        'Pays for a pronoun head: the word after "it" is its animal\'s sound ("the cat ... it purred").',
    "second_mention_story": 'Offers a duplicate-token head a job: a noun\'s first mention "came", its second "left".',
    "repeated_noun_sentence":
        'Pays for copying (induction): "the fox met a crow and the fox smiled", the noun named again.',
    "who_did_what": 'Pays for the previous word and copying: "the dog bites the man and the man bites the dog".',
    "scene_sentence": 'Teaches the rest of the vocabulary: "the girl found a red ball in the park" and the like.',
}


def sentence(rng: random.Random) -> list[str]:
    """One sentence (or short story) of the story world, ending in "."."""
    pick, total = rng.random(), 0.0
    for kind, share in SENTENCE_KINDS:
        total += share
        if pick < total:
            return kind(rng)
    return SENTENCE_KINDS[-1][0](rng)


@dataclass(frozen=True)
class Sequence:
    """One training or evaluation sequence: word indices, `<bos>` first, and where the repeats start.

    `run_length` is the length L of the repeated run (0 for sentences): the words at positions 1..L are the
    first copy, and a word at position t > L has occurred before, at t - L.
    """

    ids: tuple[int, ...]
    run_length: int

    @property
    def is_repeated(self) -> bool:
        return self.run_length > 0


def repeated_run(rng: random.Random, n_tokens: int) -> Sequence:
    """`<bos>` and a run of 5-15 distinct random words, repeated until there are n_tokens tokens."""
    length = rng.randint(*RUN_LENGTHS)
    run = rng.sample(range(1, len(VOCABULARY)), length)  # distinct word indices, never <bos>
    ids = [0] + [run[i % length] for i in range(n_tokens - 1)]
    return Sequence(tuple(ids), length)


def sentences(rng: random.Random, n_tokens: int) -> Sequence:
    """`<bos>` and sentences, one after another, cut off at n_tokens tokens."""
    words = [BOS]
    while len(words) < n_tokens:
        words += sentence(rng)
    return Sequence(tuple(WORD_INDEX[word] for word in words[:n_tokens]), 0)


def draw_sequence(rng: random.Random, n_tokens: int, repeat_fraction: float) -> Sequence:
    """A repeated run with probability `repeat_fraction`, otherwise sentences."""
    if rng.random() < repeat_fraction:
        return repeated_run(rng, n_tokens)
    return sentences(rng, n_tokens)


def draw_batch(rng: random.Random, batch_size: int, n_tokens: int, repeat_fraction: float) -> list[Sequence]:
    """`batch_size` sequences of n_tokens tokens each."""
    return [draw_sequence(rng, n_tokens, repeat_fraction) for _ in range(batch_size)]
