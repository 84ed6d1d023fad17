"""The example notebook (examples/playground.ipynb) run as a kernel runs it, without a browser: what its cells print
is what a reader of the notebook sees. (tests/browser/test_notebook_widget.py runs it in JupyterLab, for the widgets.)
"""

import contextlib
import io
import json
from pathlib import Path

from attention_playground import compute, load_preset

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "playground.ipynb"


def run_cells():
    """Run the notebook's code cells in order in one namespace; returns what each printed."""
    cells = [cell for cell in json.loads(EXAMPLE.read_text(encoding="utf-8"))["cells"] if cell["cell_type"] == "code"]
    namespace, printed = {}, []
    for cell in cells:
        with contextlib.redirect_stdout(io.StringIO()) as out:
            exec("".join(cell["source"]), namespace)  # noqa: S102  (the project's own notebook)
        printed.append(out.getvalue())
    return printed


def test_where_it_looks_names_every_word_it_reads_the_two_thes_included():
    scene = load_preset("it-animal-noun")
    tokens = scene["tokens"]
    weights = compute(scene)["heads"][0]["weights"][tokens.index("it")]
    printed = [text for text in run_cells() if text]
    assert len(printed) == 1, "one cell prints where “it” looks"
    lines = printed[0].splitlines()
    assert [line.split()[:2] for line in lines] == [[str(position), token] for position, token in enumerate(tokens)]
    assert tokens.count("the") == 2
    assert [float(line.split()[2]) for line in lines] == [round(weight, 3) for weight in weights]
