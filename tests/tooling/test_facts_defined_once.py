"""Facts the page and the module share are defined once: the page's list of request kinds is the entry point's,
and only the Python service names them; the page preloads its modules from the build's list, not by hand."""

import re
from pathlib import Path

from attention_playground.entry import KINDS

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = ROOT / "js" / "runtime" / "protocol.js"


def protocol_kinds():
    block = re.search(r"export const REQUEST_KINDS = Object\.freeze\(\{(.*?)\}\);", PROTOCOL.read_text(), re.S).group(1)
    return re.findall(r'^\s*[A-Z_]+: "([a-z_]+)",?$', block, re.M)


def test_the_protocol_lists_exactly_the_kinds_the_entry_point_answers():
    assert protocol_kinds() == list(KINDS)


def test_no_module_but_the_protocol_spells_a_request_kind():
    """Everywhere else a kind is REQUEST_KINDS.X, and only the Python service (js/python/: service.js and the
    runners it starts, such as model-training.js) uses them.
    ("compute", "presets", "preset" and "exercises" are ordinary words too, so the spelled-out check takes the
    others; no module calls request() with a kind written out, either.)"""
    unmistakable = [kind for kind in KINDS if "_" in kind]
    spelled, literal_requests = {}, []
    for path in sorted((ROOT / "js").rglob("*.js")):
        name = path.relative_to(ROOT).as_posix()
        text = path.read_text()
        if path != PROTOCOL:
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
