"""Words typed into a scene that has no features for them are asked for, not silently zeroed: the sentence box names
them and says what their all-zero rows do, their rows in the feature table are marked, and each leaves the list once
it has a feature. Known words keep their rows and are not named, even where those rows are zeros on purpose."""

import re

import pytest
from playwright.sync_api import expect

from page_helpers import preset_scene, sel, type_into

pytestmark = pytest.mark.browser

SENTENCE = "the cat saw a dog and the cat sat"


def open_example(page, preset):
    page.evaluate("(preset) => { location.hash = `#preset=${preset}`; }", preset)
    expect(page.locator(sel("preset-picker"))).to_have_value(preset)


def test_words_typed_with_no_features_are_named_and_their_rows_marked_until_filled(live_page):
    page = live_page
    open_example(page, "it-animal-noun")
    known = preset_scene("it-animal-noun")
    assert any(all(value == 0 for value in row) for row in known["X"]), "the example has rows of zeros on purpose"
    new = list(dict.fromkeys(word for word in SENTENCE.split() if word not in known["tokens"]))
    type_into(page, page.locator(sel("sentence-input")), SENTENCE)
    notice = page.locator(sel("new-words"))
    expect(notice).to_be_visible()
    expect(notice).to_have_text(re.compile(
        "^Still without features: " + re.escape(", ".join(f"“{word}”" for word in new)) + r" \(their rows are marked"))
    tokens = SENTENCE.split()
    rows = page.locator(f'{sel("feature-table")} tbody tr')
    for i, token in enumerate(tokens):
        expect(rows.nth(i)).to_have_class(re.compile(r"\bnew-word\b") if token in new else re.compile(r"^(?!.*\bnew-word\b)"))

    # A feature for the first new word: it leaves the list; the others stay.
    first = tokens.index(new[0])
    type_into(page, page.locator(sel("x-cell", row=first, column=0)), "1")
    expect(notice).not_to_contain_text(f"“{new[0]}”")
    expect(rows.nth(first)).not_to_have_class(re.compile(r"\bnew-word\b"))
    for word in new[1:]:
        type_into(page, page.locator(sel("x-cell", row=tokens.index(word), column=1)), "0.5")
    expect(notice).to_be_hidden()
    expect(page.locator(f'{sel("feature-table")} tr.new-word')).to_have_count(0)


def test_an_example_opened_after_typing_names_no_word(live_page):
    page = live_page
    open_example(page, "it-animal-noun")
    type_into(page, page.locator(sel("sentence-input")), SENTENCE)
    expect(page.locator(sel("new-words"))).to_be_visible()
    open_example(page, "dog-bites-man")
    expect(page.locator(sel("new-words"))).to_be_hidden()
    expect(page.locator(f'{sel("feature-table")} tr.new-word')).to_have_count(0)
