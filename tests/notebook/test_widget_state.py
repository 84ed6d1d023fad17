"""The notebook widget's kernel half (attention_playground/widget.py) without a browser: what a view's request
does to the widget's state, answered by the same entry point the page's worker calls.

The view's half is tested in a real JupyterLab (tests/browser/test_notebook_widget.py). These tests need
anywidget (the test extra pins it), which is why they are not in tests/native/: that suite runs in Pyodide
too, where there is no notebook.
"""

import copy

import numpy as np
import pytest

from attention_playground import compute, load_preset
from attention_playground.model import head_scene, load_model
from attention_playground.widget import PANELS, Playground

# In "the cat sat on the mat because it was tired": a token's row, Wq's pronoun row and noun column.
IT, CAT = 7, 1
PRONOUN, NOUN_DIM = 2, 1


class ViewStandIn:
    """What a view sends and hears: its requests go to the widget's handler, the widget's answers are kept."""

    def __init__(self, widget):
        self.widget = widget
        self.answers = []
        widget.send = lambda content, buffers=None: self.answers.append(content)

    def compute(self, scene, request_id=1):
        self.widget._on_view_message(self.widget, {"kind": "compute", "id": request_id, "scene": scene}, [])
        return self.answers[-1]


def weights(result):
    return [head["weights"] for head in result["heads"]]


def assert_same_weights(widget_result, native_result):
    for widget_head, native_head in zip(weights(widget_result), weights(native_result), strict=True):
        for widget_row, native_row in zip(widget_head, native_head, strict=True):
            assert widget_row == pytest.approx(native_row, abs=1e-12)


@pytest.fixture
def widget():
    return Playground("it-animal-noun")


def test_a_preset_id_a_scene_dict_and_a_trained_head_each_give_their_native_result():
    scene = load_preset("dog-bites-man")
    assert_same_weights(Playground("dog-bites-man").result, compute(scene))
    assert_same_weights(Playground(scene).result, compute(scene))
    as_arrays = {**scene, "X": np.array(scene["X"])}
    assert Playground(as_arrays).scene["X"] == scene["X"], "NumPy arrays arrive as lists"
    head = head_scene(load_model(), "the fox met a crow and the fox smiled", 1, 0)
    shown = Playground(head)
    assert shown.result["tokens"][0] == "<bos>"
    assert_same_weights(shown.result, compute(head))


def test_an_edit_from_the_view_is_computed_by_the_kernel_and_kept_as_the_scene(widget):
    view = ViewStandIn(widget)
    edited = copy.deepcopy(widget.scene)
    edited["heads"][0]["Wq"][PRONOUN][NOUN_DIM] = 0
    assert view.compute(edited, request_id=7) == {"kind": "computed", "id": 7, "ok": True}
    assert widget.scene == edited and widget.error is None
    assert_same_weights(widget.result, compute(edited))
    assert widget.result["heads"][0]["weights"][IT][CAT] == pytest.approx(0.653, abs=5e-4)  # the tutorial's 65.3%


def test_a_bad_edit_is_named_as_the_page_names_it_and_the_last_good_result_stays(widget):
    view = ViewStandIn(widget)
    good = copy.deepcopy(widget.result)
    bad = copy.deepcopy(widget.scene)
    bad["X"][CAT][0] = "abc"
    assert view.compute(bad)["ok"] is False
    assert widget.scene == bad, "w.scene holds what the learner typed, mistake included"
    assert widget.result == good
    assert (widget.error["type"], widget.error["field"], widget.error["row"], widget.error["column"]) == (
        "SceneError", "X", "cat", bad["features"][0])
    assert (widget.error["row_index"], widget.error["column_index"]) == (CAT, 0)
    # Put right, the error goes.
    bad["X"][CAT][0] = 1
    assert view.compute(bad)["ok"] is True
    assert widget.error is None


def test_a_scene_set_from_python_is_computed_before_the_view_hears_of_it(widget):
    heard = []
    widget.observe(lambda change: heard.append(weights(widget.result)), names="scene")
    widget.scene = "dog-bites-man"
    assert heard == [weights(compute(load_preset("dog-bites-man")))]


def test_panels_are_known_names_in_the_page_order(widget):
    widget.panels = ["bars", "heatmap"]
    assert widget.panels == ["heatmap", "bars"]
    with pytest.raises(Exception, match="unknown panel 'steps'"):
        widget.panels = ["steps"]
    assert set(widget.panels) <= set(PANELS)


def test_a_picture_is_asked_of_a_widget_that_was_never_drawn(widget):
    with pytest.raises(RuntimeError, match="not been drawn"):
        widget.export_svg()
    with pytest.raises(RuntimeError, match="not been drawn"):
        widget.export_png()


def test_a_scene_changed_in_place_and_assigned_back_is_computed_and_reaches_the_view(widget):
    """`s = w.scene; s[...] = 1; w.scene = s`: the view is told of the new scene (ipywidgets sends a trait's
    state when traitlets reports a change), with its result already computed."""
    heard = []
    widget.observe(lambda change: heard.append((change["new"], weights(widget.result))), names="scene")
    scene = widget.scene
    scene["heads"][0]["Wq"][PRONOUN][NOUN_DIM] = 0
    widget.scene = scene
    assert heard == [(scene, weights(compute(scene)))]
    assert widget.result["heads"][0]["weights"][IT][CAT] == pytest.approx(0.653, abs=5e-4)  # the tutorial's 65.3%
    # What w.scene gives is the learner's to change: the widget's scene changes only when it is assigned.
    widget.scene["X"][CAT][0] = 5
    assert widget.scene == scene and widget.scene is not widget.scene
