"""A lesson's questions judged on known scenes: every kind's expected answer against an independent reference
(`reference`, plain loops and `math`, or NumPy written out here), the tutorials' printed numbers at their printed
precision, and feedback sentences made from those numbers.

These run in the page's Python too (the in-Pyodide run of tests/native): the judging side is what the page runs.
"""

import json
import math

import numpy as np
import pytest

import reference
from attention_playground import load_preset
from attention_playground.entry import handle
from attention_playground.lessons import LessonInputError, answer, ask, check_build, expected, read_question
from attention_playground.lessons.measures import SceneAtHand, final_loss, measure
from attention_playground.lessons.words import counted
from attention_playground.parts import kind_parts

DOG_BITES_MAN = load_preset("dog-bites-man")
IT = load_preset("it-animal-noun")
TRAINED = load_preset("trained-repeated-noun")

# --- Independent references ----------------------------------------------------------------------------------


def reference_weights(scene, head=0):
    """Weights of a one-head scene from `reference` (plain loops)."""
    h = scene["heads"][head]
    _, weights = reference.self_attention(scene["X"], h["Wq"], h["Wk"], h["Wv"], scale=scene["scale"],
                                          causal=scene["mask"] == "causal")
    return weights


def it_looks_at_cat(strength=4.0, noun=True):
    """Part 6's design written out again: the weight "it" puts on "cat"."""
    features = {"the": [0, 0, 0, 0, 0, 0], "cat": [1, 1, 0, 0, 0, 0], "sat": [0, 0, 0, 1, 0, 0],
                "on": [0] * 6, "mat": [1, 0, 0, 0, 0, 0], "because": [0] * 6, "it": [0, 0, 1, 0, 0, 0],
                "was": [0, 0, 0, 1, 0, 0], "tired": [0, 0, 0, 0, 0, 1]}
    words = "the cat sat on the mat because it was tired".split()
    X = [features[w] for w in words]
    Wq = [[0.0, 0.0] for _ in range(6)]
    Wq[2] = [strength, strength if noun else 0.0]
    Wk = [[0.0, 0.0] for _ in range(6)]
    Wk[0], Wk[1] = [0.0, 1.0], [1.0, 0.0]
    _, weights = reference.self_attention(X, Wq, Wk, None)
    return weights[7][1]


def numpy_layer(scene, blocked_column=None):
    """A scene's heads' outputs side by side, in NumPy written here (causal mask, ÷√d, Wv given): (n, sum d_v)."""
    X = np.array(scene["X"], dtype=float)
    n = len(X)
    blocked = np.triu(np.ones((n, n), dtype=bool), 1) if scene["mask"] == "causal" else np.zeros((n, n), bool)
    if blocked_column is not None:
        blocked[:, blocked_column] = True
    outputs = []
    for head in scene["heads"]:
        Q, K, V = X @ np.array(head["Wq"]), X @ np.array(head["Wk"]), X @ np.array(head["Wv"])
        scores = np.where(blocked, -np.inf, Q @ K.T / math.sqrt(Q.shape[1]))
        with np.errstate(invalid="ignore"):  # a row that may read nothing is nan here; only other rows are compared
            exps = np.exp(scores - scores.max(axis=1, keepdims=True))
            outputs.append(exps / exps.sum(axis=1, keepdims=True) @ V)
    return np.concatenate(outputs, axis=1)


# --- pick ------------------------------------------------------------------------------------------------------


def test_a_pick_expects_the_word_the_row_reads_most_and_says_so_from_the_numbers():
    question = {"kind": "pick", "row": "it"}
    assert expected(question, IT)["value"] == 1  # "cat"
    assert round(it_looks_at_cat(), 3) == 0.920  # Part 6 prints 0.920 (92%) and 0.054 for "mat"
    wrong = answer(question, IT, "mat")
    assert wrong["correct"] is False
    assert wrong["feedback"] == "You picked “mat”: “it” gives it 5.4%. It reads “cat” most, 92.0%."
    assert wrong["score"] == pytest.approx(expected(question, IT)["values"][5] / it_looks_at_cat(), abs=1e-6)
    right = answer(question, IT, 1)  # a column index, as the page sends it
    assert right["correct"] and right["score"] == 1.0
    assert right["expected"]["word"] == "cat" and round(right["expected"]["value"] * 100, 1) == 92.0


def test_a_pick_of_a_repeated_word_names_its_occurrence_and_reads_a_variant():
    # The second "fox" of the trained model's layer 1, head 0 (L1H0): the induction route, the word after the first.
    truth = expected({"kind": "pick", "row": "fox#2", "head": 0}, TRAINED)
    assert truth["row"] == 8 and TRAINED["tokens"][truth["value"]] == "met"
    X = np.array(TRAINED["X"])
    head = TRAINED["heads"][0]
    Q, K = X @ np.array(head["Wq"]), X @ np.array(head["Wk"])
    scores = np.where(np.triu(np.ones((10, 10), bool), 1), -np.inf, Q @ K.T / math.sqrt(Q.shape[1]))
    assert int(np.argmax(scores[8])) == truth["value"]
    # One matrix for queries and keys (Wk a copy of Wq): "it" finds itself.
    tied = expected({"kind": "pick", "row": "it", "variant": {"Wk": "Wq"}}, IT)
    assert IT["tokens"][tied["value"]] == "it"


def test_a_pick_besides_bos_ranks_the_words_without_it_and_picking_bos_scores_nothing():
    # Layer 1's L1H3 of the trained model parks most rows on <bos>: asked besides <bos>, the largest of the rest.
    question = {"kind": "pick", "row": "fox#2", "head": 3}
    plain, besides = expected(question, TRAINED), expected({**question, "besides": "<bos>"}, TRAINED)
    values = np.array(besides["values"])
    assert besides["value"] == 1 + int(np.argmax(values[1:]))
    assert plain["values"] == besides["values"]  # the weights are what they are; only the ranking leaves <bos> out
    assert "“<bos>” aside" in besides["sentence"]
    picked_bos = answer({**question, "besides": "<bos>"}, TRAINED, 0)
    assert picked_bos["correct"] is False and picked_bos["score"] == 0.0
    assert "leaves “<bos>” aside" in picked_bos["feedback"]
    right = answer({**question, "besides": "<bos>"}, TRAINED, besides["value"])
    assert right["correct"] and "<bos>" not in right["feedback"].split(", more than")[1]
    with pytest.raises(LessonInputError, match="besides"):
        read_question({**question, "besides": 0})


def test_a_pick_by_effect_knocks_each_word_out_and_expects_the_largest_move():
    question = {"kind": "pick", "row": "fox#2", "by": "effect"}
    truth = expected(question, TRAINED)
    before = numpy_layer(TRAINED)
    moves = [float(np.linalg.norm(numpy_layer(TRAINED, column)[8] - before[8])) for column in range(10)]
    assert truth["value"] == int(np.argmax(moves))
    assert truth["values"] == pytest.approx(moves, abs=1e-9)
    # The weight and the effect disagree here: L1H2 reads <bos> most, the knock-out that matters is another word.
    by_weight = expected({"kind": "pick", "row": "fox#2", "head": 2}, TRAINED)["value"]
    assert TRAINED["tokens"][by_weight] == "<bos>" and by_weight != truth["value"]
    reply = answer(question, TRAINED, by_weight)
    assert not reply["correct"]
    assert reply["feedback"].startswith("You picked “<bos>”: knocking it out moves the output of “fox” (row 9) by ")
    assert f"moves it most, by {moves[truth['value']]:.4f}." in reply["feedback"]


# --- compute ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("stage", "column", "printed", "digits"), [
    ("scores", "man", 2, 4),  # man asks, man answers: [1, 1] · [1, 1]
    ("scaled", "dog", 0.7071, 4),
    ("exp", "dog", 2.0281, 4),  # e^0.7071 as Part 3 writes it
    ("exp", "man", 4.1133, 4),
    ("total", None, 8.1695, 4),
    ("weights", "dog", 0.2483, 4),
    ("weights", "man", 0.5035, 4),
    ("output", "v0", 0.7517, 4),  # "with every decimal kept, the weights give 0.7517"
])
def test_every_hand_worked_number_of_part_3_is_computed_as_the_tutorial_prints_it(stage, column, printed, digits):
    question = {"kind": "compute", "stage": stage, "row": "man", **({"column": column} if column else {})}
    value = expected(question, DOG_BITES_MAN)["value"]
    assert round(value, digits) == printed
    # Independently: the man row with plain math.
    scaled = [1 / math.sqrt(2), 1 / math.sqrt(2), 2 / math.sqrt(2)]
    exps = [math.exp(s) for s in scaled]
    ref = {"scores": 2, "scaled": scaled[0], "total": sum(exps), "output": (exps[0] + exps[2]) / sum(exps),
           "exp": exps[0] if column == "dog" else exps[2],
           "weights": (exps[0] if column == "dog" else exps[2]) / sum(exps)}[stage]
    assert value == pytest.approx(ref, abs=1e-12)
    assert answer(question, DOG_BITES_MAN, printed)["correct"]


def test_a_computed_answer_is_shown_its_working_and_a_known_slip_is_named():
    question = {"kind": "compute", "stage": "weights", "row": "man", "column": "dog"}
    right = answer(question, DOG_BITES_MAN, 0.2483)
    assert right["feedback"] == "Right: 2.0281 / 8.1695 = 0.2483."
    slip = answer(question, DOG_BITES_MAN, 0.2119)  # the tutorial's common mistake: ÷√d forgotten
    assert not slip["correct"]
    assert "÷√d forgotten" in slip["feedback"] and slip["feedback"].endswith("2.0281 / 8.1695 = 0.2483.")
    # The rounded hand-worked output (0.7518) is within the tolerance of the exact one (0.7517).
    assert answer({"kind": "compute", "stage": "output", "row": "man", "column": "v0"}, DOG_BITES_MAN, 0.7518)["correct"]
    assert expected({"kind": "compute", "stage": "scores", "row": "man", "column": "dog"},
                    DOG_BITES_MAN)["sentence"] == "query of “man” [1, 1] · key of “dog” [1, 0] = 1×1 + 1×0 = 1.0000"


# --- choose: computed misconceptions, and statements decided by a measure --------------------------------------


def test_the_wrong_options_are_the_numbers_each_mistake_gives_on_this_scene():
    question = {"kind": "choose", "of": {"stage": "weights", "row": "man", "column": "dog"},
                "options": ["right", "no-scale", "scale-by-d", "softmax-over-columns"]}
    options = {option["id"]: float(option["text"]) for option in ask(question, DOG_BITES_MAN)["options"]}
    unscaled = [math.exp(s) for s in (1, 1, 2)]
    by_d = [math.exp(s / 2) for s in (1, 1, 2)]
    column_dog = [math.exp(s / math.sqrt(2)) for s in (1, 0, 1)]  # the "dog" column: dog, bites, man asking
    assert options == {"right": 0.2483, "no-scale": round(unscaled[0] / sum(unscaled), 4),
                       "scale-by-d": round(by_d[0] / sum(by_d), 4),
                       "softmax-over-columns": round(column_dog[2] / sum(column_dog), 4)}
    assert options["no-scale"] == 0.2119  # the tutorial's "common mistakes": 0.2119, 0.2119, 0.5761
    man_on_man = {"kind": "choose", "of": {"stage": "weights", "row": "man", "column": "man"},
                  "options": ["right", "no-scale"]}
    assert {o["id"]: o["text"] for o in ask(man_on_man, DOG_BITES_MAN)["options"]} == {"right": "0.5035",
                                                                                        "no-scale": "0.5761"}
    reply = answer(question, DOG_BITES_MAN, "no-scale")
    assert not reply["correct"] and "÷√d forgotten" in reply["feedback"]
    assert [o["correct"] for o in reply["options"]] == [True, False, False, False]
    assert "correct" not in json.dumps(ask(question, DOG_BITES_MAN)), "asking never says which is right"


def test_the_mask_flipped_and_the_table_transposed_are_computed_too():
    scene = {**DOG_BITES_MAN, "mask": "causal"}
    question = {"kind": "choose", "of": {"stage": "weights", "row": "dog", "column": "man"},
                "options": ["right", "mask-reversed", "rows-and-columns-swapped"]}
    values = {o["id"]: float(o["text"]) for o in ask(question, scene)["options"]}
    causal = reference_weights(scene)
    # Flipped, the mask blocks the earlier words instead: "dog", the first, may read every word.
    flipped = reference.softmax_row([1 / math.sqrt(2), 0, 1 / math.sqrt(2)])
    assert values == {"right": 0.0, "mask-reversed": round(flipped[2], 4),
                      "rows-and-columns-swapped": round(causal[2][0], 4)}


def change(scene, variant, row="it", column="cat"):
    return expected({"kind": "choose", "measure": {"of": "change", "row": row, "column": column, "variant": variant},
                     "options": [{"id": v, "text": v, "value": v} for v in ("rises", "falls", "stays")]}, scene)


def test_a_variant_decides_what_happens_when_wq_doubles_or_the_shift_goes():
    assert change(IT, {"Wq": "times 2"})["value"] == "rises"
    assert it_looks_at_cat(8.0) > it_looks_at_cat(4.0)  # doubling the design's 4 is strength 8
    assert change(IT, {"Wq": "times 0.25"})["value"] == "falls"
    assert change(DOG_BITES_MAN, {"shift": False}, "man", "man")["value"] == "stays"
    assert change(IT, {"edits": [{"field": "Wq", "row": "pronoun", "column": "noun", "value": 0}]})["value"] == "falls"


def test_the_five_variations_of_part_6_are_computed_as_printed():
    printed = {"it-animal-noun": 92.0, "it-no-noun-match": 65.3, "it-strength-1": 29.1, "it-strength-5": 96.5,
               "it-strength-8": 99.6}
    references = {"it-animal-noun": it_looks_at_cat(), "it-no-noun-match": it_looks_at_cat(noun=False),
                  "it-strength-1": it_looks_at_cat(1.0), "it-strength-5": it_looks_at_cat(5.0),
                  "it-strength-8": it_looks_at_cat(8.0)}
    for preset, percent in printed.items():
        question = {"kind": "estimate", "row": "it", "column": "cat"}
        truth = expected(question, load_preset(preset))["value"]
        assert round(truth * 100, 1) == percent == round(references[preset] * 100, 1), preset
        reply = answer(question, load_preset(preset), percent)  # the printed number: at most 0.05 points off
        assert reply["correct"] and reply["score"] >= 1 - 0.05 / 25


def test_statement_options_are_right_when_their_value_is_what_the_measure_gives():
    question = {"kind": "choose", "measure": {"of": "shape", "stage": "scores"},
                "options": [{"id": "square", "text": "10 × 10", "value": [10, 10]},
                            {"id": "q", "text": "10 × 2", "value": [10, 2], "misconception": "the shape of Q"}]}
    assert expected(question, IT)["right"] == ["square"]  # "Check yourself" 3: 10 words give 10 × 10
    wrong = answer(question, IT, "q")
    assert wrong["feedback"].startswith("You chose “10 × 2”. It stands for this mistake: the shape of Q.")
    rows = {"kind": "choose", "measure": {"of": "sums"},
            "options": [{"id": v, "text": v, "value": v} for v in ("rows", "columns", "both", "neither")]}
    assert expected(rows, DOG_BITES_MAN)["value"] == "rows"
    weights = np.array(reference_weights(DOG_BITES_MAN))
    assert np.allclose(weights.sum(axis=1), 1) and not np.allclose(weights.sum(axis=0), 1)


def test_an_option_that_quotes_words_is_quoted_without_nesting_or_doubled_stops():
    question = {"kind": "choose", "measure": {"of": "change", "row": "it", "column": "cat", "variant": {"Wq": "times 2"}},
                "options": [{"id": "rises", "text": "It rises: “cat” takes even more.", "value": "rises"},
                            {"id": "falls", "text": "It falls.", "value": "falls", "misconception": "the wrong way."}]}
    wrong = answer(question, IT, "falls")["feedback"]
    assert wrong.startswith("You chose “It falls”. It stands for this mistake: the wrong way. With Wq")
    assert wrong.endswith("it rises. ‘It rises: “cat” takes even more’ is what happens.")
    right = answer(question, IT, "rises")["feedback"]
    assert right.startswith("Right: ‘It rises: “cat” takes even more’. With Wq")
    for feedback in (wrong, right):
        assert ".." not in feedback and ".”." not in feedback and "“It rises: “" not in feedback


def test_an_option_in_markdown_is_quoted_in_the_feedback_without_its_backticks():
    question = {"kind": "choose", "measure": {"of": "change", "row": "it", "column": "cat", "variant": {"Wq": "times 2"}},
                "options": [{"id": "rises", "text": "It rises.", "value": "rises"},
                            {"id": "stays", "text": "None: `it` reads `cat` as before.", "value": "stays"}]}
    feedback = answer(question, IT, "stays")["feedback"]
    assert feedback.startswith("You chose “None: it reads cat as before”.") and "`" not in feedback


def test_the_causal_masks_zeros_are_exact_and_the_overflow_trap_gives_nan():
    blocked = {"kind": "choose", "measure": {"of": "blocked"},
               "options": [{"id": v, "text": v, "value": v} for v in ("zero", "positive", "none")]}
    assert expected(blocked, load_preset("causal-exercise"))["value"] == "zero"
    assert expected(blocked, load_preset("repeated-noun"))["value"] == "zero"
    assert expected(blocked, DOG_BITES_MAN)["value"] == "none"
    weights = np.array(reference_weights(load_preset("repeated-noun")))
    assert np.all(np.triu(weights, 1) == 0)  # the lab's check: exact zeros above the diagonal
    trap = {"kind": "choose", "measure": {"of": "row-state", "row": "high"},
            "options": [{"id": v, "text": v, "value": v} for v in ("numbers", "nan", "zeros")]}
    assert expected(trap, load_preset("softmax-trap"))["value"] == "nan"
    with np.errstate(all="ignore"):
        big = np.exp(np.array([1000.0, 1001.0, 1002.0]))
        assert np.isnan(big / big.sum()).all()  # what the tutorial says comes out without the shift
    shifted = expected({"kind": "estimate", "row": "high", "column": "high"}, {**load_preset("softmax-trap"),
                                                                              "shift": True})["value"]
    assert round(shifted, 4) == 0.6652 == round(reference.softmax_row([0, 1, 2])[2], 4)


def test_word_order_moves_an_output_only_until_positions_are_added():
    spec = {"of": "output-moves", "word": "dog", "variant": {"order": ["man", "bites", "dog"]}}
    options = [{"id": "same", "text": "same", "value": "same"}, {"id": "other", "text": "other", "value": "different"}]
    assert expected({"kind": "choose", "measure": spec, "options": options}, DOG_BITES_MAN)["value"] == "same"
    output, _ = reference.self_attention([[1, 0], [0, 1], [1, 1]], [[1, 0], [0, 1]], [[1, 0], [0, 1]], [[1, 0], [0, 1]])
    shuffled, _ = reference.self_attention([[1, 1], [0, 1], [1, 0]], [[1, 0], [0, 1]], [[1, 0], [0, 1]],
                                           [[1, 0], [0, 1]])
    assert shuffled[2] == pytest.approx(output[0], abs=1e-12)
    moved = {**spec, "variant": {**spec["variant"], "positions": "sinusoidal"}}
    assert expected({"kind": "choose", "measure": moved, "options": options}, DOG_BITES_MAN)["value"] == "other"


def test_a_value_that_does_not_move_is_said_once_not_compared_with_itself():
    # Without the shift "man" reads itself exactly as before: the reveal says so, not "0.5035 instead of 0.5035".
    stays = change(DOG_BITES_MAN, {"shift": False}, "man", "man")
    man = DOG_BITES_MAN["tokens"].index("man")
    weight = reference_weights(DOG_BITES_MAN)[man][man]
    assert stays["value"] == "stays"
    assert f"is still {weight:.4f} ({weight * 100:.1f}%)" in stays["sentence"] and "instead of" not in stays["sentence"]
    # A word the new order leaves in its place is "still in row 2", not "in row 2 instead of row 2".
    spec = {"of": "output-moves", "word": "bites", "variant": {"order": ["man", "bites", "dog"]}}
    options = [{"id": "same", "text": "same", "value": "same"}, {"id": "other", "text": "other", "value": "different"}]
    kept = expected({"kind": "choose", "measure": spec, "options": options}, DOG_BITES_MAN)
    assert "still in row 2" in kept["sentence"] and "instead of" not in kept["sentence"]
    moved = expected({"kind": "choose", "measure": {**spec, "word": "dog"}, "options": options}, DOG_BITES_MAN)
    assert "now in row 3 instead of row 1" in moved["sentence"]


def test_the_attention_sink_counts_the_rows_that_park_on_the_first_token():
    question = {"kind": "choose", "measure": {"of": "reads-most", "column": "<bos>", "head": 3},
                "options": [{"id": v, "text": v, "value": v} for v in ("none", "some", "most", "all")]}
    found = expected(question, TRAINED)
    X = np.array(TRAINED["X"])
    head = TRAINED["heads"][3]
    Q, K = X @ np.array(head["Wq"]), X @ np.array(head["Wk"])
    scores = np.where(np.triu(np.ones((10, 10), bool), 1), -np.inf, Q @ K.T / math.sqrt(Q.shape[1]))
    parked = sum(int(np.argmax(scores[row])) == 0 for row in range(1, 10))  # row 0 may read only itself
    assert found["value"] == ("most" if 9 / 2 < parked < 9 else "all" if parked == 9 else "some")
    at = SceneAtHand(TRAINED)
    assert measure({"of": "reads-most", "column": "<bos>", "head": 3}, at).details["count"] == parked


# --- estimate, sketch -------------------------------------------------------------------------------------------


def scaling_reference(d, scale):
    """Part 7's experiment as the tutorial's script runs it: rng(3), d in (4, 64, 512), unscaled then scaled."""
    rng = np.random.default_rng(3)
    found = {}
    for length in (4, 64, 512):
        for scaled in (False, True):
            tops = []
            for _ in range(500):
                q, k = rng.normal(size=(1, length)), rng.normal(size=(10, length))
                s = q @ k.T / (math.sqrt(length) if scaled else 1)
                e = np.exp(s - s.max())
                tops.append((e / e.sum()).max())
            found[(length, scaled)] = float(np.mean(tops))
    return found[(d, scale)]


def test_the_part_7_estimate_is_the_experiment_the_page_runs():
    unscaled = {"kind": "estimate", "measure": {"of": "scaling", "d": 512, "scaled": False}}
    scaled = {"kind": "estimate", "measure": {"of": "scaling", "d": 512, "scaled": True}}
    assert round(expected(unscaled, None)["value"], 3) == 0.958 == round(scaling_reference(512, False), 3)
    assert round(expected(scaled, None)["value"], 3) == 0.318 == round(scaling_reference(512, True), 3)
    reply = answer(unscaled, None, 96)
    assert reply["correct"] and reply["expected"] == {"value": pytest.approx(95.8, abs=0.05), "unit": "percent"}


def test_an_estimate_scores_1_at_the_truth_falling_to_0_at_its_reach():
    question = {"kind": "estimate", "row": "it", "column": "cat", "tolerance": 5, "reach": 25}
    truth = expected(question, IT)["value"] * 100
    assert answer(question, IT, truth)["score"] == 1.0
    assert answer(question, IT, truth - 12.5)["score"] == pytest.approx(0.5, abs=1e-6)
    assert answer(question, IT, truth - 30)["score"] == 0.0
    assert answer(question, IT, truth + 4.9)["correct"] and not answer(question, IT, truth + 5.1)["correct"]
    as_weight = {"kind": "estimate", "row": "it", "column": "cat", "unit": "weight"}
    assert answer(as_weight, IT, 0.92)["correct"]


def test_a_sketch_is_scored_by_the_total_variation_distance_from_the_true_row():
    question = {"kind": "sketch", "row": "met"}
    scene = load_preset("repeated-noun")
    truth = reference_weights(scene)[2]
    drawn = [2, 1, 1, 0, 0, 0, 0, 0, 0]  # normalised to 0.5, 0.25, 0.25
    distance = 0.5 * sum(abs(a / 4 - t) for a, t in zip(drawn, truth))
    reply = answer(question, scene, drawn)
    assert reply["score"] == pytest.approx(1 - distance, abs=1e-6)
    assert reply["correct"] == (distance <= 0.1)
    assert answer(question, scene, [w * 3 for w in truth])["score"] == pytest.approx(1.0)
    assert ask(question, scene)["readable"] == [True, True, True] + [False] * 6


# --- build -----------------------------------------------------------------------------------------------------

BUILD = {"kind": "build", "conditions": [{"weight": {"row": "it", "column": "cat"}, "at_least": 0.9}],
         "max_edits": 1, "fields": ["Wq"]}


def edited(scene, *cells):
    changed = json.loads(json.dumps(scene))
    for field, row, column, value in cells:
        changed["heads"][0][field][row][column] = value
    return changed


def test_a_build_is_met_by_the_learners_scene_within_its_edits_and_fields():
    start = load_preset("it-no-noun-match")
    assert check_build(BUILD, start, start)["correct"] is False
    done = check_build(BUILD, edited(start, ("Wq", 2, 1, 4)), start)
    assert done["correct"] and done["edits"] == {"Wq": 1}
    assert done["feedback"] == "Done in 1 edit: “it” puts 92.0% on “cat” (the target: at least 90.0%)."
    too_many = check_build(BUILD, edited(start, ("Wq", 2, 1, 4), ("Wq", 3, 0, 1)), start)
    assert not too_many["correct"] and too_many["score"] == 1.0 and "allows 1" in too_many["feedback"]
    elsewhere = check_build(BUILD, edited(start, ("Wk", 1, 0, 9)), start)
    assert not elsewhere["correct"] and "You changed Wk, which this target leaves alone" in elsewhere["feedback"]
    renamed = {**start, "tokens": ["a", *start["tokens"][1:]]}
    reply = check_build(BUILD, renamed, start)
    assert not reply["correct"] and "keeps the step's tokens" in reply["feedback"]


def test_a_mask_built_by_hand_must_be_the_causal_pattern():
    question = {"kind": "build", "conditions": [{"mask": "blocks-future"}], "fields": ["mask"]}
    start = DOG_BITES_MAN
    drawn = [[False, True, True], [False, False, True], [False, False, False]]
    assert check_build(question, {**start, "mask": drawn}, start)["correct"]
    assert check_build(question, {**start, "mask": "causal"}, start)["correct"]
    too_much = [[True, True, True], [False, False, True], [False, False, False]]
    reply = check_build(question, {**start, "mask": too_much}, start)
    assert not reply["correct"] and "1 cell where a word reads itself or an earlier word is blocked" in reply["feedback"]
    assert reply["feedback"].lower().count("not yet") == 1, reply["feedback"]  # "Not yet: …", said once


def test_every_row_reads_the_previous_word_in_the_two_heads_preset():
    question = {"kind": "build", "conditions": [{"every_row_reads": "previous", "head": "previous"}]}
    scene = load_preset("two-heads")
    assert expected(question, scene)["conditions"][0]["met"] is True
    first = {"kind": "build", "conditions": [{"every_row_reads": "previous", "head": 0}]}
    result = expected(first, scene)["conditions"][0]
    assert result["met"] is False and result["sentence"].startswith("0 of 6 rows read the word before it most")
    unmet = check_build(first, scene, scene)["feedback"]
    assert unmet.startswith("Not yet: 0 of 6 rows") and unmet.lower().count("not yet") == 1, unmet
    assert unmet.endswith("…") and not unmet.endswith("….")  # the list goes on: an ellipsis, not "…."


# --- a claim, judged from the page's test ----------------------------------------------------------------------

CLAIM_QUESTION = {"kind": "choose", "measure": {"of": "claim", "claim": "mask", "quantity": "training-loss"},
                  "options": [{"id": v, "text": v, "value": v} for v in ("lower", "higher", "same")]}


def evidence(with_losses, without_losses, with_accuracy=0.9, without_accuracy=0.1):
    return {"claim": "mask", "losses": {"with": with_losses, "without": without_losses},
            "metrics": {"with": {"repeat_accuracy": with_accuracy}, "without": {"repeat_accuracy": without_accuracy}}}


def test_a_claim_is_judged_from_its_tests_losses_and_accuracies():
    falling = [3.0] * 90 + [1.0] * 10
    assert final_loss(falling) == 1.0  # the mean of the last tenth
    lower = answer(CLAIM_QUESTION, None, "lower", evidence([2.0] * 100, falling))
    assert lower["correct"] and "training loss ended at 1.00; with it, 2.00: lower" in lower["feedback"]
    assert answer(CLAIM_QUESTION, None, "same", evidence([2.0] * 100, [2.05] * 100))["correct"]
    accuracy = {**CLAIM_QUESTION, "measure": {**CLAIM_QUESTION["measure"], "quantity": "accuracy"}}
    assert answer(accuracy, None, "lower", evidence([1.0] * 20, [1.0] * 20, 0.97, 0.15))["correct"]
    with pytest.raises(LessonInputError) as missing:
        answer(CLAIM_QUESTION, None, "lower")
    assert missing.value.field == "evidence"
    with pytest.raises(LessonInputError) as other:
        answer(CLAIM_QUESTION, None, "lower", {**evidence([1.0], [1.0]), "claim": "positions"})
    assert other.value.field == "evidence.claim"


def test_the_evidence_is_what_the_claims_test_reports():
    """A real (short) claim's test, as the page's worker runs it: its report is read as the evidence."""
    from attention_playground.model import requests

    requests.claim_start({"claim": "mask", "steps": 12, "seed": 1})
    losses = {"with": [], "without": []}
    while True:
        report = requests.claim_steps({"steps": 12})
        for side in losses:
            losses[side] += report["losses"][side]
        if report["done"]:
            break
    reply = answer(CLAIM_QUESTION, None, "lower", {"claim": report["verdict"]["claim"], "losses": losses,
                                                   "metrics": report["metrics"]})
    gap = final_loss(losses["without"]) - final_loss(losses["with"])
    assert reply["expected"]["measured"] == ("same" if abs(gap) < 0.1 else "higher" if gap > 0 else "lower")


# --- untrusted questions, through the entry point ---------------------------------------------------------------


def request(kind, **payload):
    return json.loads(handle(json.dumps({"kind": kind, "payload": payload})))


def test_the_lessons_kinds_answer_through_the_entry_point_and_fetch_their_part():
    assert kind_parts()["lesson_answer"] == kind_parts()["lesson_ask"] == kind_parts()["lesson_check"] == ["lessons", "experiments"]
    reply = request("lesson_answer", question={"kind": "pick", "row": "it"}, scene=IT, answer="mat")
    assert reply["ok"] and reply["result"]["feedback"].endswith("It reads “cat” most, 92.0%.")
    checked = request("lesson_check", question=BUILD, scene=IT, start=load_preset("it-no-noun-match"))
    assert checked["ok"] and checked["result"]["correct"] is True  # it-animal-noun is the one edit away


@pytest.mark.parametrize(("question", "field"), [
    ({"kind": "pick"}, "question.row"),
    ({"kind": "pik", "row": "it"}, "question.kind"),
    ({"kind": "pick", "row": "it", "html": "<b>"}, "question.html"),
    ({"kind": "pick", "row": "dragon"}, "question.row"),
    ({"kind": "pick", "row": "the#3"}, "question.row"),
    ({"kind": "pick", "row": 99}, "question.row"),
    ({"kind": "pick", "row": "it", "variant": {"Wq": "times banana"}}, "question.variant.Wq"),
    ({"kind": "choose", "measure": {"of": "top", "row": "it"}, "options": "x"}, "question.options"),
    ({"kind": "choose", "of": {"stage": "weights", "row": "it", "column": "cat"}, "options": ["right", "eval"]},
     "question.options[1]"),
    ({"kind": "build", "conditions": [{"weight": {"row": "it", "column": "cat"}, "at_least": 2}]},
     "question.conditions[0].at_least"),
    ("not a question", "question"),
])
def test_a_bad_question_from_the_page_is_refused_naming_its_key(question, field):
    reply = request("lesson_answer", question=question, scene=IT, answer="cat")
    assert reply["ok"] is False and reply["error"]["type"] == "RequestError"
    assert reply["error"]["field"] == field, reply["error"]["message"]


def test_a_bad_answer_or_scene_is_refused_as_the_page_expects():
    wrong_answer = request("lesson_answer", question={"kind": "estimate", "row": "it", "column": "cat"}, scene=IT,
                           answer="lots")
    assert wrong_answer["error"]["field"] == "answer"
    broken = request("lesson_answer", question={"kind": "pick", "row": "it"}, scene={**IT, "X": "no"}, answer=1)
    assert broken["error"]["type"] == "SceneError" and broken["error"]["field"] == "X"
    start = request("lesson_check", question=BUILD, scene=IT, start={"title": 1})
    assert start["error"]["field"] == "start"
    unknown = request("lesson_answer", question={"kind": "pick", "row": "it"}, scene=IT, answer=1, solution=[])
    assert unknown["error"]["field"] == "solution"


def test_reading_a_question_keeps_it_and_names_the_first_wrong_key():
    question = {"kind": "compute", "stage": "total", "row": "man"}
    assert read_question(question) == question
    with pytest.raises(LessonInputError) as column:
        read_question({**question, "column": "dog"})
    assert column.value.field == "column"
    with pytest.raises(LessonInputError) as claim:
        read_question({**CLAIM_QUESTION, "options": CLAIM_QUESTION["options"][:2]})
    assert "“same” is the value of 0" in claim.value.message


# --- whatever the page sends, an answer in words ----------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

KEYS = sorted({"kind", "row", "column", "stage", "head", "by", "variant", "measure", "unit", "tolerance", "reach",
               "options", "of", "conditions", "max_edits", "fields", "order", "edits", "Wq", "Wk", "scale", "word",
               "claim", "quantity", "d", "scaled", "id", "text", "value", "weight", "at_least", "mask", "field"})
WORDS = st.sampled_from(["it", "cat", "the#2", "fox#9", "", "weights", "total", "pick", "choose", "build", "change",
                         "rises", "right", "no-scale", "times 2", "Wq", "causal", "transposed", "blocks-future",
                         "top", "effect", "cell", "shape", "scaling", "sums", "<script>", "\u0000", "x" * 300])
LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.floats(allow_nan=False, allow_infinity=False,
                                                                             width=32), WORDS)
VALUES = st.recursive(LEAVES, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(st.sampled_from(KEYS), inner, max_size=4)),
                      max_leaves=12)
KIND_OF = st.sampled_from(["pick", "estimate", "sketch", "choose", "compute", "build"])


@settings(max_examples=150)
@given(kind=KIND_OF, question=st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=5), answer_value=VALUES)
def test_no_question_or_answer_the_page_sends_makes_an_internal_error(kind, question, answer_value):
    question = {**question, "kind": question.get("kind", kind)}
    for request_kind, payload in (("lesson_ask", {"question": question, "scene": IT}),
                                  ("lesson_answer", {"question": question, "scene": IT, "answer": answer_value}),
                                  ("lesson_check", {"question": question, "scene": IT, "start": IT})):
        reply = json.loads(handle(json.dumps({"kind": request_kind, "payload": payload})))
        assert reply["ok"] or reply["error"]["type"] in ("RequestError", "SceneError"), reply["error"]


VALID = [
    {"kind": "pick", "row": "it", "variant": {"Wq": "times 2"}},
    {"kind": "pick", "row": "it", "by": "effect"},
    {"kind": "estimate", "row": "it", "column": "cat", "unit": "weight"},
    {"kind": "estimate", "measure": {"of": "cell", "row": "it", "column": "cat", "variant": {"order": ["it"] * 10}}},
    {"kind": "sketch", "row": "it"},
    {"kind": "compute", "stage": "output", "row": "it", "column": "cat"},
    {"kind": "choose", "of": {"stage": "weights", "row": "it", "column": "cat"}, "options": ["right", "no-scale"]},
    {"kind": "choose", "measure": {"of": "change", "row": "it", "column": "cat", "variant": {"mask": "causal"}},
     "options": [{"id": "a", "text": "a", "value": "rises"}, {"id": "b", "text": "b", "value": "falls"}]},
    {"kind": "choose", "measure": {"of": "output-moves", "word": "it", "variant": {"order": []}},
     "options": [{"id": "a", "text": "a", "value": "same"}, {"id": "b", "text": "b", "value": "different"}]},
    {"kind": "build", "conditions": [{"weight": {"row": "it", "column": "cat"}, "at_least": 0.9}],
     "fields": ["Wq"], "max_edits": 1},
    {"kind": "build", "conditions": [{"every_row_reads": "previous"}, {"mask": "blocks-future"}]},
]


def mutated(question, path, value):
    """`question` with the value at `path` (a list of keys and indices into it) replaced."""
    copy = json.loads(json.dumps(question))
    target = copy
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return copy


def paths(value, prefix=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*prefix, key)
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield (*prefix, i)
            yield from paths(item, (*prefix, i))


@settings(max_examples=300)
@given(data=st.data())
def test_a_good_question_with_any_one_value_changed_is_answered_or_refused_in_words(data):
    question = data.draw(st.sampled_from(VALID))
    path = data.draw(st.sampled_from(list(paths(question))))
    question = mutated(question, path, data.draw(VALUES))
    answer_value = data.draw(st.one_of(VALUES, st.sampled_from(["cat", 1, 50.0, [1] * 10, "a", "right"])))
    for request_kind, payload in (("lesson_ask", {"question": question, "scene": IT}),
                                  ("lesson_answer", {"question": question, "scene": IT, "answer": answer_value}),
                                  ("lesson_check", {"question": question, "scene": IT, "start": IT})):
        reply = json.loads(handle(json.dumps({"kind": request_kind, "payload": payload})))
        assert reply["ok"] or reply["error"]["type"] in ("RequestError", "SceneError"), reply["error"]


def test_a_sketch_that_gives_weight_to_blocked_words_is_told_what_the_mask_does():
    scene = load_preset("repeated-noun")
    question = {"kind": "sketch", "row": "met"}
    at = SceneAtHand(scene)
    row = scene["tokens"].index("met")
    blocked = [column for column in range(len(scene["tokens"])) if at.computed.scene.mask[row][column]]
    assert blocked, "the row has words after it, behind the causal mask"
    even = answer(question, scene, [1] * len(scene["tokens"]))
    share = len(blocked) / len(scene["tokens"])
    assert f"You gave {share * 100:.1f}% to {counted(len(blocked), 'word')} “met” may not read" in even["feedback"]
    assert "the mask blocks them, so they get exactly 0." in even["feedback"]
    allowed_only = [0 if column in blocked else 1 for column in range(len(scene["tokens"]))]
    assert "may not read" not in answer(question, scene, allowed_only)["feedback"]
