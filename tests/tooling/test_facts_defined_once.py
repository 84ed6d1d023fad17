"""Facts the page and the module share are defined once: the page's list of request kinds is written by the build
from the kinds' one declaration (kinds.py), only the Python service names them, every request it sends names its
kind by that list, the model's start token reaches the page through the build's facts, and the page preloads its
modules from the build's list, not by hand.

The JavaScript is read as tokens (js_tokens, below), so that a comment is told from code and a string or a regular
expression is read whole."""

import json
import re
from pathlib import Path

import pytest

from attention_playground.kinds import KINDS
from sitebuild import generated

ROOT = Path(__file__).resolve().parents[2]


def written_request_kinds(tmp_path, monkeypatch):
    """The kinds in generated/module-facts.js as the build writes it: [(constant, name, doc comment)]."""
    monkeypatch.setattr(generated, "FACTS_MODULE", tmp_path / "module-facts.js")
    generated.write_facts_module()
    block = re.search(r"export const REQUEST_KINDS = /\* @__PURE__ \*/ deepFreeze\(\{(.*?)\}\);",
                      (tmp_path / "module-facts.js").read_text(), re.S).group(1)
    return re.findall(r'^  /\*\* (.+) \*/\n  ([A-Z_]+): "([a-z_]+)",$', block, re.M)


def test_the_page_gets_every_kind_the_entry_point_answers_with_its_documentation(tmp_path, monkeypatch):
    written = written_request_kinds(tmp_path, monkeypatch)
    assert [(constant, name) for _, constant, name in written] == [(name.upper(), name) for name in KINDS]
    assert [doc for doc, _, _ in written] == [kind.doc for kind in KINDS.values()]


def test_no_hand_typed_list_of_kinds_is_left_in_the_page():
    assert "REQUEST_KINDS = " not in (ROOT / "js" / "runtime" / "protocol.js").read_text()


# --- JavaScript read as tokens: comments apart from code, strings and regular expressions whole ----------------

#: Tokens after which a "/" divides; after anything else it starts a regular expression.
_DIVIDES_AFTER = {"ident", "number", "string", "template", "regex"}
_KEYWORDS_BEFORE_AN_EXPRESSION = {"return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void",
                                  "throw", "yield", "await"}


def _string_end(text, start):
    """The index just past the quoted string or template literal that starts at `start`."""
    quote, i = text[start], start + 1
    while i < len(text):
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if char == quote:
            return i + 1
        if quote == "`" and text.startswith("${", i):
            depth, i = 1, i + 2
            while depth:
                if text[i] in "'\"`":
                    i = _string_end(text, i)
                    continue
                depth += {"{": 1, "}": -1}.get(text[i], 0)
                i += 1
            continue
        i += 1
    raise ValueError(f"a string that never ends, from offset {start}")


def js_tokens(text):
    """A JavaScript source as [(type, text)], comments left out: type is "ident", "number", "string" (quoted),
    "template" (a template literal, whole), "regex" or "punct" (one character)."""
    tokens, i = [], 0
    while i < len(text):
        char = text[i]
        if char.isspace():
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
        elif text.startswith("/*", i):
            i = text.index("*/", i + 2) + 2
        elif char in "'\"`":
            end = _string_end(text, i)
            tokens.append(("template" if char == "`" else "string", text[i:end]))
            i = end
        elif char == "/" and not (tokens and (tokens[-1][0] in _DIVIDES_AFTER or tokens[-1][1] in ")]}")
                                  and tokens[-1][1] not in _KEYWORDS_BEFORE_AN_EXPRESSION):
            j, in_class = i + 1, False
            while text[j] != "/" or in_class:
                if text[j] == "\\":
                    j += 1
                elif text[j] in "[]":
                    in_class = text[j] == "["
                j += 1
            match = re.compile(r"[a-z]*").match(text, j + 1)
            tokens.append(("regex", text[i:match.end()]))
            i = match.end()
        elif char.isalpha() or char in "_$":
            match = re.compile(r"[\w$]+").match(text, i)
            tokens.append(("ident", match.group()))
            i = match.end()
        elif char.isdigit():
            match = re.compile(r"[\w.]+").match(text, i)
            tokens.append(("number", match.group()))
            i = match.end()
        else:
            tokens.append(("punct", char))
            i += 1
    return tokens


def _closing(tokens, opening):
    """The index of the bracket that closes the one at `opening`."""
    depth = 0
    for index in range(opening, len(tokens)):
        if tokens[index][0] == "punct" and tokens[index][1] in "([{":
            depth += 1
        elif tokens[index][0] == "punct" and tokens[index][1] in ")]}":
            depth -= 1
            if depth == 0:
                return index
    raise ValueError("a bracket that never closes")


def _first_argument(tokens, opening):
    """The tokens of the first argument of the call whose "(" is at `opening`, as text ("" for none)."""
    end, index = _closing(tokens, opening), opening + 1
    first = []
    while index < end and tokens[index] != ("punct", ","):
        if tokens[index][0] == "punct" and tokens[index][1] in "([{":
            first += tokens[index:_closing(tokens, index) + 1]
            index = _closing(tokens, index) + 1
        else:
            first.append(tokens[index])
            index += 1
    return "".join(text for _, text in first)


_A_KIND = re.compile(r"REQUEST_KINDS\.[A-Z_]+")


def senders_defined(tokens):
    """The functions a file defines whose first parameter is `kind`: they send a request of that kind."""
    names = set()
    for index, token in enumerate(tokens):
        if token != ("punct", "(") or index + 1 >= len(tokens) or tokens[index + 1] != ("ident", "kind"):
            continue
        after = tokens[_closing(tokens, index) + 1:_closing(tokens, index) + 3]
        before = [t for t in tokens[max(0, index - 4):index] if t != ("ident", "async")]
        if after[:1] == [("punct", "{")] and before and before[-1][0] == "ident":  # function f(kind) {, f(kind) {
            names.add(before[-1][1])
        elif after == [("punct", "="), ("punct", ">")] and len(before) >= 2 and before[-1][1] in "=:":
            names.add(before[-2][1])  # const f = (kind) =>, f: (kind) =>
    return names


def _top_level(literal):
    """The tokens of an object literal (or block) with everything inside its inner brackets left out, each inner
    pair of brackets kept as the two brackets: its own keys, and nothing nested."""
    kept, index = [literal[0]], 1
    while index < len(literal) - 1:
        if literal[index][0] == "punct" and literal[index][1] in "([{":
            kept += [literal[index], literal[_closing(literal, index)]]
            index = _closing(literal, index) + 1
        else:
            kept.append(literal[index])
            index += 1
    return [*kept, literal[-1]]


def _property(literal, key):
    """The value of `key` in the object literal `literal` (its tokens, braces included), as text; `key` itself
    for the shorthand {key}."""
    start = next(j for j in range(1, len(literal) - 1) if literal[j] == ("ident", key) and literal[j - 1][1] in "{,")
    if literal[start + 1][1] in ",}":
        return key
    value, index = [], start + 2
    while literal[index][1] not in ",}" or literal[index][0] != "punct":
        end = _closing(literal, index) if literal[index] in (("punct", "("), ("punct", "["), ("punct", "{")) else index
        value += literal[index:end + 1]
        index = end + 1
    return "".join(text for _, text in value)


def request_kind_violations(text, senders, kinds):
    """Where a JavaScript source sends a request whose kind is not REQUEST_KINDS.X: a call of `request` or of
    another of `senders` whose first argument is neither REQUEST_KINDS.X, nor a constant the file sets to one, nor
    the `kind` a sender passes on; and a message shaped like a request ({kind, payload}) or posted with a kind that
    is one of `kinds` spelled out, or any other name."""
    tokens = js_tokens(text)
    aliases = {tokens[i + 1][1] for i in range(len(tokens) - 4)
               if tokens[i] == ("ident", "const") and tokens[i + 2] == ("punct", "=")
               and _A_KIND.fullmatch("".join(t for _, t in tokens[i + 3:i + 6]))}
    allowed = lambda argument: bool(_A_KIND.fullmatch(argument)) or argument in aliases | {"kind"}  # noqa: E731
    found = []
    for index, (token_type, word) in enumerate(tokens[:-1]):
        if token_type == "ident" and word in senders | {"request"} and tokens[index + 1] == ("punct", "("):
            argument = _first_argument(tokens, index + 1)
            if not allowed(argument):
                found.append(f"{word}({argument}, ...)")
        if (token_type, word) == ("punct", "{"):
            literal = _top_level(tokens[index:_closing(tokens, index) + 1])
            keys = {literal[j][1] for j in range(1, len(literal) - 1)
                    if literal[j][0] == "ident" and literal[j - 1][1] in "{," and literal[j + 1][1] in ":,}"}
            posted = index >= 2 and tokens[index - 2] == ("ident", "postMessage")
            if "kind" in keys and ("payload" in keys or posted):
                value = _property(literal, "kind")
                spelled_kind = value[:1] in "'\"`" and value.strip("'\"`") in kinds
                if spelled_kind or not (allowed(value) or value[:1] in "'\"`"):
                    found.append(f"{{kind: {value}, ...}}")
    return found


def js_sources():
    """Every JavaScript file of the page, by its path in the repository."""
    return {path.relative_to(ROOT).as_posix(): path.read_text() for path in sorted((ROOT / "js").rglob("*.js"))}


def all_senders(sources):
    """The functions that send a request, as the Python service and the runtime define them."""
    return set().union(*(senders_defined(js_tokens(text)) for name, text in sources.items()
                         if name.startswith(("js/service/", "js/runtime/"))))


def test_no_module_spells_a_request_kind():
    """A kind is REQUEST_KINDS.X, and only the Python service (js/service/: service.js and the runners it starts,
    such as model-training.js) uses them. Every request sent (a call of `request`, or of a function of the
    service or the runtime that passes its `kind` on, such as askModel) names its kind as REQUEST_KINDS.X, and so
    does every message shaped like a request; a kind with "_" is not spelled out anywhere, not even in a comment.
    ("compute", "presets", "preset" and "exercises" are ordinary words too, so only where a request is sent are
    they refused.)"""
    unmistakable = [kind for kind in KINDS if "_" in kind]
    sources = js_sources()
    senders = all_senders(sources)
    assert {"request", "askModel"} <= senders  # the check reads the service's own wrappers
    spelled, literal_requests, sent = {}, [], {}
    for name, text in sources.items():
        templates = {word for token, word in js_tokens(text) if token == "template"}
        found = [kind for kind in unmistakable if re.search(rf"""["']{kind}["']""", text) or f"`{kind}`" in templates]
        if found:
            spelled[name] = found
        if "REQUEST_KINDS" in text:
            assert name.startswith("js/service/"), f"{name} makes requests itself"
        if re.search(r"""\.request\(\s*["'`]""", text):
            literal_requests.append(name)
        if violations := request_kind_violations(text, senders, set(KINDS)):
            sent[name] = violations
    assert spelled == {}
    assert literal_requests == []
    assert sent == {}


@pytest.mark.parametrize("planted", [
    'client.request("exercises", {});',
    "client.request('compute', payload);",
    "await learner().request(`presets`, {});",
    'const WARM_UP = "exercises";\nentry.client.request(WARM_UP, {});',
    'askModel("model_info", { model });',
    'endpoint.postMessage({ id, kind: "compute", payload });',
    'const message = { id: 1, kind: "preset", payload: { id: "x" } };',
    "endpoint.postMessage({ id, kind: name, payload });",
])
def test_a_request_with_its_kind_spelled_out_is_found(planted):
    assert request_kind_violations(planted, {"askModel"}, set(KINDS)) != []


@pytest.mark.parametrize("fine", [
    "client.request(REQUEST_KINDS.EXERCISES, {});",
    "const WARM_UP_KIND = REQUEST_KINDS.EXERCISES;\nentry.client.request(WARM_UP_KIND, {});",
    "function askModel(kind, payload) { return page.request(kind, payload); }",
    "const message = matrices ? { id, kind, payload, matrices } : { id, kind, payload };",
    'return { kind: "scene", version, payload };  // a link, not a request',
    '// client.request("exercises") in a comment sends nothing',
])
def test_a_request_named_by_its_constant_is_not(fine):
    assert request_kind_violations(fine, {"askModel"}, set(KINDS)) == []


def test_the_tokens_keep_strings_and_regular_expressions_whole():
    tokens = js_tokens('const a = "x // y", b = /<bos>|[/]/gu; // gone\nlet c = `t ${f("}")} u` / 2; /* gone */')
    assert ("string", '"x // y"') in tokens and ("regex", "/<bos>|[/]/gu") in tokens
    assert ("template", '`t ${f("}")} u`') in tokens and ("punct", "/") in tokens
    assert not [text for _, text in tokens if "gone" in text]


# --- The model's start token ------------------------------------------------------------------------------------


def test_the_page_reads_the_start_token_from_the_module(tmp_path, monkeypatch):
    """`<bos>` is the model's (model/corpus.py: BOS): the build writes it into the facts, shared/positions.js exports
    it from there, and no JavaScript spells it in code, only in comments."""
    from attention_playground.model.corpus import BOS

    monkeypatch.setattr(generated, "FACTS_MODULE", tmp_path / "module-facts.js")
    assert generated.write_facts_module()["startToken"] == BOS
    assert f'"startToken": {json.dumps(BOS)}' in (tmp_path / "module-facts.js").read_text()
    positions = (ROOT / "js" / "ui" / "shared" / "positions.js").read_text()
    assert "export const START_TOKEN = MODULE_FACTS.startToken;" in positions
    spelled = {name: [text for _, text in js_tokens(source) if BOS in text]
               for name, source in js_sources().items()}
    assert {name: texts for name, texts in spelled.items() if texts} == {}
    assert any(BOS in source for source in js_sources().values())  # in comments, which the check leaves alone


def test_index_html_types_no_policy_and_no_preload_by_hand():
    html = (ROOT / "index.html").read_text()
    assert 'rel="modulepreload"' not in html
    assert "Content-Security-Policy\" content" not in html
