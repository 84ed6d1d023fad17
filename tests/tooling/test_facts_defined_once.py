"""Facts the page and the module share are defined once: the page's list of request kinds is written by the build
from the kinds' one declaration (kinds.py), only the Python service names them, and the page preloads its modules
from the build's list, not by hand."""

import re
from pathlib import Path

from attention_playground.kinds import KINDS
from sitebuild import generated

ROOT = Path(__file__).resolve().parents[2]


def written_request_kinds(tmp_path, monkeypatch):
    """The kinds in generated/module-facts.js as the build writes it: [(constant, name, doc comment)]."""
    monkeypatch.setattr(generated, "FACTS_MODULE", tmp_path / "module-facts.js")
    generated.write_facts_module()
    block = re.search(r"export const REQUEST_KINDS = deepFreeze\(\{(.*?)\}\);", (tmp_path / "module-facts.js").read_text(),
                      re.S).group(1)
    return re.findall(r'^  /\*\* (.+) \*/\n  ([A-Z_]+): "([a-z_]+)",$', block, re.M)


def test_the_page_gets_every_kind_the_entry_point_answers_with_its_documentation(tmp_path, monkeypatch):
    written = written_request_kinds(tmp_path, monkeypatch)
    assert [(constant, name) for _, constant, name in written] == [(name.upper(), name) for name in KINDS]
    assert [doc for doc, _, _ in written] == [kind.doc for kind in KINDS.values()]


def test_no_hand_typed_list_of_kinds_is_left_in_the_page():
    assert "REQUEST_KINDS = " not in (ROOT / "js" / "runtime" / "protocol.js").read_text()


def test_no_module_spells_a_request_kind():
    """A kind is REQUEST_KINDS.X, and only the Python service (js/python/: service.js and the
    runners it starts, such as model-training.js) uses them.
    ("compute", "presets", "preset" and "exercises" are ordinary words too, so the spelled-out check takes the
    others; no module calls request() with a kind written out, either.)"""
    unmistakable = [kind for kind in KINDS if "_" in kind]
    spelled, literal_requests = {}, []
    for path in sorted((ROOT / "js").rglob("*.js")):
        name = path.relative_to(ROOT).as_posix()
        text = path.read_text()
        found = [kind for kind in unmistakable if re.search(rf"""["']{kind}["']""", text)]
        if found:
            spelled[name] = found
        if "REQUEST_KINDS" in text:
            assert name.startswith("js/python/"), f"{name} makes requests itself"
        if re.search(r"""\.request\(\s*["']""", text):
            literal_requests.append(name)
    assert spelled == {}
    assert literal_requests == []


def test_index_html_types_no_policy_and_no_preload_by_hand():
    html = (ROOT / "index.html").read_text()
    assert 'rel="modulepreload"' not in html
    assert "Content-Security-Policy\" content" not in html
