"""A choice's options are Markdown, like the rest of a lesson: the self-attention lab's question on the attention
sink offers "None: `<bos>` carries no meaning.", and the learner sees <bos> as code, in the form and in the reveal
beside the page's answer, never its backticks. The feedback is plain text: it gives the words without them."""

import pytest
from playwright.sync_api import expect

from page_helpers import sel

pytestmark = pytest.mark.browser

LESSON, STEP = "self-attention-lab", "the-attention-sink"


def test_an_options_code_span_is_drawn_as_code_in_the_form_and_in_the_reveal(live_page):
    page = live_page
    page.evaluate("([lesson, step]) => window.attentionPlayground.lessons.open(lesson, { step })", [LESSON, STEP])
    try:
        question = page.locator(sel("lesson-question"))
        with_code = question.locator("label.lesson-option", has=page.locator("code"))
        expect(with_code).to_have_count(1)
        expect(with_code.locator("code")).to_have_text("<bos>")
        expect(with_code).to_have_text("None: <bos> carries no meaning.")
        assert "`" not in question.inner_text()
        with_code.locator("input").check()
        question.locator(sel("lesson-submit")).click()
        expect(page.locator(sel("lesson-verdict"))).to_be_visible()
        expect(page.locator(sel("lesson-your-answer")).locator("code")).to_have_text("<bos>")
        reveal = page.locator(sel("lesson-reveal")).inner_text()
        assert "`" not in reveal and "None: <bos> carries no meaning" in reveal, reveal
    finally:
        page.evaluate("window.attentionPlayground.lessons.close()")
