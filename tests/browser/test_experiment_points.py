"""Two experiments make their point in one click, as a learner following the tutorials would click them.

- "Word order" (tutorial Part 8): "dog bites man" against "man bites dog", side by side: each word's output in each
  order, equal and moved; the heatmap's title says which order is shown, after a shuffle too.
- "Weights are not explanations" (the lab's standing warning): the example where a big weight has almost no
  effect, with its word knocked out.

Every number is the module's: the same experiments run natively (experiments.py)."""

import math

from playwright.sync_api import expect

from attention_playground import compute, load_preset
from attention_playground.experiments import knock_out_word, shuffle_scene
from page_helpers import sel

WIDE = {"width": 1366, "height": 900}


def four(value):
    """A number as the page writes a score: four decimals at most, no trailing zeros, a true minus sign."""
    return str(float(f"{value:.4f}")).removesuffix(".0").replace("-", "−")


def vector(values):
    return "[" + ", ".join(four(value) for value in values[:4]) + (", …" if len(values) > 4 else "") + "]"


def shown_title(page):
    return page.locator(sel("scene-title")).inner_text()


def test_dog_bites_man_against_man_bites_dog_side_by_side(live_page, artifacts):
    page = live_page
    page.set_viewport_size(WIDE)
    page.locator(sel("experiment-tab-order")).click()
    page.locator(sel("order-compare")).click()
    scene = load_preset("dog-bites-man")
    swapped = shuffle_scene(scene, [2, 1, 0])
    assert swapped.scene["tokens"] == ["man", "bites", "dog"]
    # The playground shows the order the table's second column is about, and its title says so.
    expect(page.locator(sel("scene-title"))).to_have_text("man bites dog")
    page.wait_for_function("() => window.attentionPlayground.result()?.tokens.join(' ') === 'man bites dog'")
    table = page.locator(sel("order-table"))
    expect(table.locator("th").nth(1)).to_have_text("in “dog bites man”")
    expect(table.locator("th").nth(2)).to_have_text("in “man bites dog”")
    rows = page.locator(sel("order-row"))
    expect(rows).to_have_count(3)
    for was, word in enumerate(scene["tokens"]):
        now = swapped.scene["tokens"].index(word)
        row = rows.nth(was)
        expect(row.locator("th")).to_have_text(f"“{word}”")
        expect(row.locator(sel("order-before"))).to_have_text(f"row {was + 1}: {vector(list(swapped.output_before[was]))}")
        expect(row.locator(sel("order-after"))).to_have_text(f"row {now + 1}: {vector(list(swapped.output_after[now]))}")
        assert swapped.unchanged[was]
        where = "same row" if now == was else f"moved from row {was + 1} to row {now + 1}"
        expect(row.locator(sel("order-verdict"))).to_have_text(f"equal, {where}")
    # The outputs the page computed for "man bites dog" are the ones in the table.
    result = page.evaluate("window.attentionPlayground.result()")
    for now, output in enumerate(result["output"]):
        assert vector(output) == vector(list(swapped.output_after[now]))
    page.locator(sel("experiments")).screenshot(path=str(artifacts / "word-order-side-by-side.png"))

    # A shuffle from here: the title follows the words it shows.
    page.locator(sel("shuffle-button")).click()
    page.wait_for_function("() => window.attentionPlayground.result()?.tokens.join(' ') !== 'man bites dog'")
    shuffled = page.evaluate("window.attentionPlayground.result().tokens")
    expect(page.locator(sel("shuffle-check"))).to_contain_text(f"Now: “{' '.join(shuffled)}”. ")
    expect(page.locator(sel("shuffle-check"))).to_contain_text("Every output row just moved with its word")
    expect(page.locator(sel("scene-title"))).to_have_text(" ".join(shuffled))


def test_with_positions_each_word_says_how_far_its_output_moved(live_page):
    page = live_page
    page.set_viewport_size(WIDE)
    page.locator(sel("experiment-tab-order")).click()
    page.locator(sel("order-compare")).click()
    expect(page.locator(sel("scene-title"))).to_have_text("man bites dog")
    page.locator(sel("positions-toggle")).check()
    page.wait_for_function("() => window.attentionPlayground.result().positions === 'sinusoidal'")
    scene = page.evaluate("window.attentionPlayground.getScene()")  # "man bites dog", positions on
    page.locator(sel("shuffle-button")).click()
    expect(page.locator(sel("shuffle-check"))).to_contain_text("the positions added to X changed with the places")
    after = page.evaluate("window.attentionPlayground.getScene()")
    order = [scene["tokens"].index(word) for word in after["tokens"]]  # three different words
    native = shuffle_scene(scene, order)
    rows = page.locator(sel("order-row"))
    for was, word in enumerate(scene["tokens"]):
        now = after["tokens"].index(word)
        where = "same row" if now == was else f"moved from row {was + 1} to row {now + 1}"
        expect(rows.nth(was).locator(sel("order-verdict"))).to_have_text(f"changed by {four(native.differences[was])}, {where}")


def test_the_pair_keeps_the_positions_the_learner_ticked(live_page):
    page = live_page
    page.set_viewport_size(WIDE)
    page.locator(sel("experiment-tab-order")).click()
    page.locator(sel("positions-toggle")).check()
    page.wait_for_function("() => window.attentionPlayground.result().positions === 'sinusoidal'")
    page.locator(sel("order-compare")).click()
    expect(page.locator(sel("scene-title"))).to_have_text("man bites dog")
    expect(page.locator(sel("shuffle-check"))).to_contain_text("Now: “man bites dog”.")
    expect(page.locator(sel("positions-toggle"))).to_be_checked()
    scene = {**load_preset("dog-bites-man"), "positions": "sinusoidal"}
    native = shuffle_scene(scene, [2, 1, 0])
    assert native.reason == "positions"
    expect(page.locator(sel("shuffle-check"))).to_contain_text(f"{four(native.largest_difference)}. The outputs changed: the positions")
    expect(page.locator(sel("positions-note"))).to_contain_text("Positions are on")


def test_weights_are_not_explanations_a_tiny_weight_a_large_change_in_one_click(live_page, artifacts):
    """The causal exercise with t1 knocked out: t3 gave t1 almost no weight, yet its output moved the most."""
    page = live_page
    page.set_viewport_size(WIDE)
    page.locator(sel("experiment-tab-knockout")).click()
    page.locator(sel("knockout-demo")).click()
    scene = load_preset("causal-exercise")
    expect(page.locator(sel("scene-title"))).to_have_text(scene["title"])
    tokens = scene["tokens"]
    t1 = tokens.index("t1")
    knocked = knock_out_word(scene, t1)
    rows = page.locator(sel("knockout-row"))
    expect(rows).to_have_count(len(tokens))
    expect(page.locator(sel("knockout-token"))).to_have_value(str(t1))
    # Measured natively: the output that moved most is of a row that gave t1 a tiny weight.
    most = knocked.most_changed
    assert knocked.weights[most] < 0.05 and knocked.changes[most] > 0.5
    expect(rows.nth(most).locator(sel("knockout-weight"))).to_have_text(f"{knocked.weights[most]:.3f}")
    expect(rows.nth(most).locator(sel("knockout-change"))).to_have_text(four(knocked.changes[most]))
    expect(page.locator(sel("knockout-summary"))).to_contain_text(
        f"“{tokens[most]}” gave “t1” a weight of only {knocked.weights[most]:.3f}, yet its output moved by "
        f"{four(knocked.changes[most])}: a tiny weight on a value far from the rest moves an output a lot.")
    page.locator(sel("experiments")).screenshot(path=str(artifacts / "weights-are-not-explanations-causal.png"))


def test_weights_are_not_explanations_in_one_click(live_page, artifacts):
    page = live_page
    page.set_viewport_size(WIDE)
    page.locator(sel("experiment-tab-knockout")).click()
    # In the first example the change follows the weight; the button goes where it does not.
    page.locator(sel("knockout-demo-animals")).click()
    scene = load_preset("two-animals")
    expect(page.locator(sel("scene-title"))).to_have_text(scene["title"])
    tokens = scene["tokens"]
    cat, it = tokens.index("cat"), tokens.index("it")
    knocked = knock_out_word(scene, cat)
    rows = page.locator(sel("knockout-row"))
    expect(rows).to_have_count(len(tokens))
    expect(page.locator(sel("knockout-token"))).to_have_value(str(cat))
    base = compute(scene)
    after = compute({**scene, "mask": [[j == cat for j in range(len(tokens))] for _ in tokens]})
    for i in range(len(tokens)):
        expect(rows.nth(i).locator(sel("knockout-weight"))).to_have_text(f"{knocked.weights[i]:.3f}")
        expect(rows.nth(i).locator(sel("knockout-change"))).to_have_text(four(math.dist(base["output"][i], after["output"][i])))
    # Measured natively: the row that gave "cat" the most weight moved least.
    assert knocked.most_weighted == it and knocked.most_changed != it
    most = knocked.most_changed
    named = f"“{tokens[most]}” (word {most + 1})" if tokens.count(tokens[most]) > 1 else f"“{tokens[most]}”"
    expect(page.locator(sel("knockout-summary"))).to_contain_text(
        f"With “cat” knocked out, the weight and the effect disagree: “it” gave “cat” the most weight "
        f"({knocked.weights[it]:.3f}), yet its output moved by only {four(knocked.changes[it])}; {named} gave it "
        f"{knocked.weights[most]:.3f} and moved the most (by {four(knocked.changes[most])})")
    page.locator(sel("experiments")).screenshot(path=str(artifacts / "weights-are-not-explanations.png"))
    assert page.evaluate("window.attentionPlayground.getScene().tokens") == tokens
