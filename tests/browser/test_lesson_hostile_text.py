"""A lesson whose text is hostile changes nothing on the page: its HTML shows as the letters typed, its script never
runs, and a link to javascript: or data: is drawn as text. The lesson is compiled by the build's own compiler, and
then tampered with as an attacker who can write the compiled file would (node types and addresses the compiler
refuses), so the page's renderer is tried on its own."""

import json

import pytest
from playwright.sync_api import expect

from attention_playground.lessons.compile import compile_lesson
from lesson_helpers import wait_for_verdict
from page_helpers import sel, wait_live

pytestmark = pytest.mark.browser

SCRIPT = '<script>window.ran = "script"</script>'
IMAGE = '<img src=x onerror="window.ran = \'image\'">'

LESSON = f"""# Hostile {SCRIPT}

{SCRIPT}

## A step with {IMAGE}

<div onclick="window.ran = 'click'">raw block</div>

A [safe link](https://example.org/) and a [relative one](?embed&lesson=a&step=b).

```step
scene = "dog-bites-man"
[question]
kind = "pick"
row = "man"
ask = 'Which word does {SCRIPT} read most?'
```
"""

TAMPERED_NODES = [
    {"type": "link", "href": "javascript:window.ran = 'link'", "children": [{"type": "text", "text": "javascript link"}]},
    {"type": "link", "href": "data:text/html,<script>parent.ran = 'data'</script>", "children": [{"type": "text", "text": "data link"}]},
    {"type": "html", "text": f"{IMAGE} an unknown node"},
    {"type": "paragraph", "children": [{"type": "text", "text": IMAGE}], "onclick": "window.ran = 'attribute'"},
]


def hostile_lesson():
    entry, lesson = compile_lesson(LESSON, "lessons/hostile.md")
    lesson["steps"][0]["prose"] = lesson["steps"][0]["prose"] + TAMPERED_NODES
    return {**entry, "id": "hostile"}, {**lesson, "id": "hostile"}


def test_a_hostile_lesson_shows_its_text_and_runs_nothing(page, site_url):
    entry, lesson = hostile_lesson()
    page.route("**/generated/lessons/index.json", lambda route: route.fulfill(json=[entry]))
    page.route("**/generated/lessons/hostile.json", lambda route: route.fulfill(json=lesson))
    page.goto(f"{site_url}/#lesson=hostile")
    wait_live(page)
    player = page.locator(sel("lesson-panel"))
    expect(page.locator(sel("lesson-step-title"))).to_have_text(f"A step with {IMAGE}", timeout=60_000)
    expect(page.locator(sel("lesson-pick-word")).first).to_be_visible()
    for text in ("raw block", "javascript link", "data link", "an unknown node", "Which word does"):
        expect(player).to_contain_text(text)
    for link in ("javascript link", "data link"):
        page.locator(sel("lesson-panel")).get_by_text(link).click()  # a learner clicks what looks like a link
    page.locator(sel("lesson-panel")).get_by_text("raw block").click()
    found = page.evaluate("""() => {
        const player = document.querySelector('[data-testid="lesson-panel"]');
        return {
          ran: window.ran ?? null,
          scripts: player.querySelectorAll("script, img, iframe, object, embed, div[onclick]").length,
          handlers: [...player.querySelectorAll("*")].filter((el) => [...el.attributes].some((a) => a.name.startsWith("on"))).length,
          hrefs: [...player.querySelectorAll("a")].map((a) => a.getAttribute("href")),
          text: player.textContent,
        };
    }""")
    assert found["ran"] is None, f"lesson text ran: {found['ran']}"
    assert found["scripts"] == 0 and found["handlers"] == 0
    assert found["hrefs"] == ["https://example.org/", "?embed&lesson=a&step=b"], found["hrefs"]
    assert SCRIPT in found["text"] and IMAGE in found["text"]  # shown as the letters the file holds
    # The page goes on working: the lesson's question is answered and judged as any other.
    page.locator(sel("lesson-pick-word")).nth(1).click()
    wait_for_verdict(page, lesson["steps"][0]["id"], 1)
    assert page.evaluate("window.ran ?? null") is None
    assert json.dumps(page.evaluate("window.attentionPlayground.getScene()")["tokens"]) == json.dumps(["dog", "bites", "man"])


def test_a_hostile_lesson_file_fetched_and_compiled_in_the_page_stays_inert(page, site_url):
    """The same file kept in a course's site (`#lesson-src=`), compiled by the page's own Python; then sent with a
    mistake that quotes its HTML (lessonsLoad's way): the mistake's words show as letters too."""
    page.route("**/course/hostile.md", lambda route: route.fulfill(body=LESSON, content_type="text/markdown; charset=utf-8"))
    page.goto(f"{site_url}/#lesson-src=course%2Fhostile.md")
    wait_live(page)
    player = page.locator(sel("lesson-panel"))
    expect(page.locator(sel("lesson-step-title"))).to_have_text(f"A step with {IMAGE}", timeout=60_000)
    expect(player).to_contain_text("raw block")
    broken = LESSON.replace('row = "man"', f"row = {json.dumps(IMAGE)}")  # a TOML string, as JSON writes it
    reply = page.evaluate("(markdown) => window.attentionPlayground.lessons.load({markdown, name: 'hostile.md'})", broken)
    assert [problem["field"] for problem in reply["problems"]] == ["question.row"]
    expect(page.locator(sel("lesson-file-problems"))).to_contain_text(IMAGE[:30])  # the word quoted, cut short
    found = page.evaluate("""() => {
        const player = document.querySelector('[data-testid="lesson-panel"]');
        return {ran: window.ran ?? null, elements: player.querySelectorAll("script, img, iframe, object, embed, div[onclick]").length};
    }""")
    assert found == {"ran": None, "elements": 0}
