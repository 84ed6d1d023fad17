"""What the page asks of the trained model (model/requests.py through entry.handle): the same numbers as the
model's own functions, its mistakes as messages, and training in short runs that equals one long run."""

import json

import numpy as np
import pytest

from attention_playground.entry import handle
from attention_playground.model import TrainConfig, evaluate, run, train, with_head_weights
from attention_playground.model import requests as model_requests
from attention_playground.model.runs import TrainingRuns

SENTENCE = "the fox met a crow and the fox smiled"


def ask(kind, payload):
    return json.loads(handle(json.dumps({"kind": kind, "payload": payload})))


def result(kind, payload):
    reply = ask(kind, payload)
    assert reply["ok"], reply["error"]
    return reply["result"]


def error(kind, payload):
    reply = ask(kind, payload)
    assert not reply["ok"]
    return reply["error"]


def probabilities(logits):
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@pytest.fixture(autouse=True)
def no_training_run_left_over(monkeypatch):
    """Each test starts with no learner's run in the interpreter (the module keeps its runs in RUNS)."""
    monkeypatch.setattr(model_requests, "RUNS", TrainingRuns())


def test_a_run_gives_the_models_weights_predictions_and_metrics(shipped_model):
    answer = result("model_run", {"words": SENTENCE, "knocked_out": [[0, 1]]})
    native = run(shipped_model, SENTENCE, [(0, 1)])
    assert answer["tokens"] == native.tokens and answer["knocked_out"] == [[0, 1]] and answer["edited"] is False
    for layer, head in shipped_model.heads:
        assert np.array_equal(np.array(answer["weights"][layer][head]), native.weights[layer][head])
    p = native.probabilities
    for i, ranked in enumerate(answer["predictions"]):
        assert [word for word, _ in ranked] == [shipped_model.vocabulary[j] for j in np.argsort(-p[i], kind="stable")[:5]]
        assert [q for _, q in ranked] == sorted((q for _, q in ranked), reverse=True)
    assert answer["next_word"] == [float(p[i, native.ids[i + 1]]) for i in range(len(native.tokens) - 1)]
    assert answer["metrics"] == evaluate(shipped_model, frozenset({(0, 1)})).to_dict()


def test_effects_say_how_far_each_knock_out_moves_the_prediction(shipped_model):
    answer = result("model_run", {"words": SENTENCE, "knocked_out": [[0, 1]], "metrics": False})
    assert "metrics" not in answer
    intact = run(shipped_model, SENTENCE, [(0, 1)]).probabilities
    assert answer["effects"][0][1] == [0.0] * len(intact), "a head already knocked out moves nothing more"
    without = run(shipped_model, SENTENCE, [(0, 1), (1, 0)]).probabilities
    assert np.allclose(answer["effects"][1][0], 0.5 * np.abs(without - intact).sum(axis=-1), rtol=0, atol=1e-15)
    assert all(0 <= e <= 1 for layer in answer["effects"] for head in layer for e in head)


def test_an_edited_head_feeds_back_into_the_predictions(shipped_model):
    Wq = shipped_model.params["W_Q"][1, 0] * 0.0  # a query that asks for nothing: every earlier token alike
    edited = {"layer": 1, "head": 0, "Wq": Wq.tolist()}
    answer = result("model_run", {"words": SENTENCE, "edited_head": edited})
    native = run(with_head_weights(shipped_model, 1, 0, Wq=Wq), SENTENCE)
    assert answer["edited"] is True
    assert np.array_equal(np.array(answer["weights"][1][0]), native.weights[1][0])
    row = np.array(answer["weights"][1][0])[5]
    assert np.allclose(row[:6], 1 / 6, rtol=0, atol=1e-12)
    assert answer["next_word"] != result("model_run", {"words": SENTENCE})["next_word"]


def test_a_head_scene_comes_with_where_it_came_from():
    answer = result("model_head_scene", {"words": SENTENCE, "layer": 1, "head": 0, "knocked_out": [[0, 0]]})
    assert answer["source"] == {"model": "shipped", "layer": 1, "head": 0, "label": "L1H0"}
    computed = result("compute", {"scene": answer["scene"]})
    native = result("model_run", {"words": SENTENCE, "knocked_out": [[0, 0]], "metrics": False})
    assert np.allclose(computed["heads"][0]["weights"], native["weights"][1][0], rtol=0, atol=1e-12)


def test_the_model_is_introduced_with_its_heads_examples_and_what_may_be_trained(shipped_model):
    info = result("model_info", {})
    assert info["model"] == "shipped" and info["vocabulary"] == list(shipped_model.vocabulary)
    assert [head["label"] for head in info["heads"]] == [f"L{layer}H{head}" for layer, head in shipped_model.heads]
    assert {"tutorial-it", "repeated-run", "repeated-noun", "second-mention"} <= {
        example["id"] for example in info["examples"]}
    for example in info["examples"]:
        result("model_run", {"words": example["words"], "metrics": False})  # every example is readable
    assert info["trainable"]["seed"] == {"min": 0, "max": 2**31 - 1, "default": TrainConfig().seed}
    assert info["quick_run"] == model_requests.QUICK_RUN and set(info["quick_run"]) <= set(info["trainable"])


def test_every_role_a_head_reaches_is_given_and_the_pronoun_head_is_an_induction_head_too(shipped_model):
    """A head may do two jobs: `roles` lists every threshold its scores reach, in ROLE_THRESHOLDS' order, the first
    of them its `role`. The shipped model's pronoun head reads the animal at "it" and copies on repeated runs."""
    from attention_playground.model.analysis import ROLE_THRESHOLDS

    info = result("model_info", {})
    for head in info["heads"]:
        reached = [name for name, (score, at_least) in ROLE_THRESHOLDS.items() if head["scores"][score] >= at_least]
        assert head["roles"] == reached
        assert head["role"] == (reached[0] if reached else "diffuse")
    layer, head = info["pronoun"]["head"]
    (pronoun,) = [entry for entry in info["heads"] if (entry["layer"], entry["head"]) == (layer, head)]
    assert {"induction", "pronoun"} <= set(pronoun["roles"])


def test_the_second_mention_example_focuses_the_second_mention_of_its_noun():
    (example,) = [entry for entry in result("model_info", {})["examples"] if entry["id"] == "second-mention"]
    tokens = ["<bos>", *example["words"].split()]
    focus = example["focus"]
    assert tokens[focus] in tokens[1:focus] and tokens[focus] not in ("the", ".")  # a noun named before
    assert tokens.count(tokens[focus]) == 2 and focus < len(tokens) - 1
    assert all("focus" not in entry for entry in result("model_info", {})["examples"] if entry["id"] != "second-mention")


@pytest.mark.trains_long
def test_the_quick_run_grows_an_induction_head_and_its_loss_drop_with_the_shipped_seed():
    """The panel's quick run (repeated runs only), as a learner starts it: the settings' defaults, QUICK_RUN's."""
    from attention_playground.model import head_roles
    from attention_playground.model.loss_drop import find_loss_drop

    model = train(TrainConfig(**model_requests.QUICK_RUN))
    roles = head_roles(model)
    assert any(roles[(1, head)] == "induction" for head in range(model.config.n_heads)), roles
    assert find_loss_drop(model.loss_curve) is not None


def test_the_hand_set_part_6_head_comes_with_the_model_to_compare_with(shipped_model):
    from attention_playground import compute, load_preset

    info = result("model_info", {})
    scene = load_preset("it-animal-noun")
    weights = np.array(compute(scene)["heads"][0]["weights"])
    it = scene["tokens"].index("it")
    assert info["designed"]["words"] == " ".join(scene["tokens"])
    assert info["designed"]["cat"] == weights[it, scene["tokens"].index("cat")]
    assert info["designed"]["mat"] == weights[it, scene["tokens"].index("mat")]
    layer, head = info["pronoun"]["head"]
    learned = run(shipped_model, info["designed"]["words"]).weights[layer][head][it + 1]  # <bos> comes first
    assert info["pronoun"]["tutorial"]["cat"] == pytest.approx(learned[scene["tokens"].index("cat") + 1], abs=1e-12)



def test_both_heads_stages_at_it_are_the_ones_each_head_computed(shipped_model):
    """The designed-against-learned view's stages: the hand-set head's as compute() gives them, the learned head's
    as the model's run gives them, each cut to the words "it" may read, through the page's JSON."""
    from attention_playground import compute, load_preset

    hand, learned = result("model_info", {})["designed"]["stages"]
    scene = load_preset("it-animal-noun")
    computed = compute(scene)["heads"][0]
    it = scene["tokens"].index("it")
    assert hand["keys"] == scene["tokens"]  # no mask: "it" may read every word
    assert hand["dims"] == computed["dims"]
    for name, want in (("query", computed["stages"]["Q"][it]), ("K", computed["stages"]["K"]),
                       ("scores", computed["stages"]["scores"][it]), ("scaled", computed["stages"]["scaled"][it]),
                       ("weights", computed["stages"]["weights"][it])):
        assert hand[name] == want, name

    layer, head = model_requests.model_info({})["pronoun"]["head"]
    assert learned["label"] == f"L{layer}H{head}"
    native = run(shipped_model, learned["words"])
    stages = native.stages[layer][head]
    row = native.tokens.index("it")
    assert learned["keys"] == native.tokens[: row + 1]  # causal: the words up to "it", <bos> first
    np.testing.assert_allclose(learned["query"], stages.Q[row], rtol=0, atol=1e-12)
    np.testing.assert_allclose(learned["K"], stages.K[: row + 1], rtol=0, atol=1e-12)
    np.testing.assert_allclose(learned["scores"], stages.scores[row, : row + 1], rtol=0, atol=1e-12)
    np.testing.assert_allclose(np.array(learned["scaled"]) * np.sqrt(learned["d_k"]), learned["scores"], atol=1e-9)
    np.testing.assert_allclose(learned["weights"], native.weights[layer][head][row, : row + 1], rtol=0, atol=1e-12)
    assert sum(learned["weights"]) == pytest.approx(1.0, abs=1e-12)  # nothing it may read was cut off

@pytest.mark.parametrize(("kind", "payload", "field", "says"), [
    ("model_run", {"words": "the fox mett a crw"}, "words", "'mett' (word 3) (did you mean 'met'?); 'crw' (word 5)"),
    ("model_run", {"words": ""}, "words", "words is empty"),
    ("model_run", {"words": "the " * 33}, "words", "the sentence has 33 words, but the model reads at most 32"),
    ("model_run", {"words": "the fox", "knocked_out": [[2, 0]]}, "layer", "layer 2 does not exist; the model has 2 layers"),
    ("model_run", {"words": "the fox", "edited_head": {"layer": 0, "head": 1, "Wq": [[1, 2]]}}, "Wq",
     "W_Q of layer 0, head 1 must be 32 × 8 finite numbers"),
    ("model_run", {"words": "the fox", "model": "trained"}, "model", "no model has been trained here yet"),
    ("model_run", {"words": "the fox", "model": "gpt"}, "model", 'model must be "shipped" or "trained"'),
    ("model_head_scene", {"words": "the fox", "layer": 0, "head": 5}, "head", "head 5 does not exist"),
    ("model_train_start", {"config": {"steps": 0}}, "steps", "steps must be a whole number from 1 to 3000; got 0"),
    ("model_train_start", {"config": {"n_heads": 2.5}}, "n_heads", "n_heads must be a whole number from 1 to 4"),
    ("model_train_start", {"config": {"lr": 1}}, "lr", "'lr' cannot be changed here"),
    ("model_train_steps", {"steps": 5}, "model", "no training run has been started"),
])
def test_mistakes_come_back_as_messages_naming_the_field(kind, payload, field, says):
    problem = error(kind, payload)
    assert problem["type"] == "SceneError" and problem["field"] == field
    assert says in problem["message"]


def test_a_payload_key_the_request_does_not_take_is_named():
    problem = error("model_run", {"words": "the fox", "sentence": "the fox"})
    assert problem["type"] == "RequestError" and '"model_run" has no option "sentence"' in problem["message"]


def test_training_in_short_runs_gives_the_model_one_long_run_gives():
    config = {"seed": 4, "steps": 30, "n_heads": 1, "repeat_fraction": 0.5}
    assert result("model_train_start", {"config": config})["config"]["n_heads"] == 1
    reports = []
    while not (reports and reports[-1]["done"]):
        reports.append(result("model_train_steps", {"steps": 7, "words": "the cat sat"}))
    assert [report["step"] for report in reports] == [7, 14, 21, 28, 30]
    assert all(len(report["weights"]) == 2 and len(report["weights"][0]) == 1 for report in reports)
    whole = train(TrainConfig(**config))
    losses = [loss for report in reports for loss in report["losses"]]
    assert losses == list(whole.loss_curve), "bit for bit"
    trained = result("model_run", {"words": "the cat sat", "model": "trained", "metrics": False})
    assert np.array_equal(np.array(trained["weights"][1][0]), run(whole, "the cat sat").weights[1][0])
    assert result("model_info", {"model": "trained"})["steps"] == 30


def test_a_batch_of_steps_stops_at_its_time_limit():
    result("model_train_start", {"config": {"steps": 100}})
    report = result("model_train_steps", {"steps": 100, "max_seconds": 0})
    assert report["step"] == 1 and not report["done"], "at least one step, then the time is up"


def test_the_runs_live_in_one_registry_and_in_no_other_global():
    from attention_playground.model.training import Trainer

    assert model_requests.RUNS.learner is None
    result("model_train_start", {"config": {"steps": 2, "seed": 4}})
    assert model_requests.RUNS.learner.config.steps == 2 and model_requests.RUNS.learner.config.seed == 4
    result("model_claim_start", {"claim": "positions", "steps": 2, "side": "with"})
    assert list(model_requests.RUNS.claim_runs) == ["with"] and model_requests.RUNS.claim.id == "positions"
    assert [name for name, value in vars(model_requests).items() if isinstance(value, Trainer)] == []
