"""The question on screen, and focus on it, after the learner moves to another step: at 390 × 844 px in both themes
(one lesson in each), after every Next of both lessons, with the page scrolled down to the weights before each, the
new step's title and question start on screen and the focus is on the step's title; Back, a step picked from the
map, a link to a step and a lesson picked from the list do the same, and at 1366 × 900 px too; a lesson a script
opens leaves the focus where it was. The step map is one Tab stop that the arrow keys move in, and the first
answer is at most 12 Tabs from the top of the page."""

import pytest
from playwright.sync_api import expect

from lesson_helpers import lesson_steps, wait_for_progress
from page_helpers import sel

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1366, "height": 900}
#: The most Tabs from the top of the page to a step's first answer (the map of the steps is one of them).
MOST_TABS_TO_THE_ANSWER = 12

# Where the step on show is, once its question is drawn: its title's and its question's tops against the window,
# and whether the focus is on the title.
WHERE_THE_STEP_IS = """() => {
  const title = document.querySelector('[data-testid="lesson-step-title"]');
  const question = document.querySelector('[data-testid="lesson-question"]');
  return { title: title.getBoundingClientRect().top, question: question.getBoundingClientRect().top,
           height: window.innerHeight, focused: document.activeElement === title, text: title.textContent };
}"""


def open_lesson(page, lesson, step=None):
    page.evaluate("([lesson, step]) => window.attentionPlayground.lessons.open(lesson, step ? { step } : {})", [lesson, step])
    wait_for_progress(page, lambda p: p["id"] == lesson and p["status"] == "ready", what=f"{lesson} open")


def scroll_down_to_the_weights(page):
    page.locator(sel("heatmap-panel")).evaluate("(panel) => panel.scrollIntoView({ block: 'end' })")


def assert_the_step_is_brought_to_the_learner(page, number, what):
    wait_for_progress(page, lambda p: p["number"] == number and p["status"] == "ready", what=f"step {number}")
    where = page.evaluate(WHERE_THE_STEP_IS)
    on_screen = lambda top: 0 <= top < where["height"]  # noqa: E731
    assert on_screen(where["title"]) and on_screen(where["question"]), f"{what}: step {number} is off screen: {where}"
    assert where["focused"], f"{what}: the focus is not on step {number}'s title"


@pytest.mark.parametrize(("lesson", "scheme"), [("attention-from-scratch", "light"), ("self-attention-lab", "dark")])
def test_after_every_next_on_a_phone_the_question_is_on_screen_and_focused(live_page, lesson, scheme):
    live_page.set_viewport_size(PHONE)
    live_page.emulate_media(color_scheme=scheme)
    open_lesson(live_page, lesson)
    for number in range(2, len(lesson_steps(lesson)) + 1):
        scroll_down_to_the_weights(live_page)
        live_page.locator(sel("lesson-next")).click()
        assert_the_step_is_brought_to_the_learner(live_page, number, "Next")


@pytest.mark.parametrize("size", [PHONE, WIDE], ids=["390", "1366"])
def test_back_and_a_step_from_the_map_bring_the_question_too(live_page, size):
    live_page.set_viewport_size(size)
    open_lesson(live_page, "self-attention-lab", lesson_steps("self-attention-lab")[5]["id"])
    scroll_down_to_the_weights(live_page)
    live_page.locator(sel("lesson-back")).click()
    assert_the_step_is_brought_to_the_learner(live_page, 5, "Back")
    scroll_down_to_the_weights(live_page)
    live_page.locator(sel("lesson-map-step")).nth(9).click()
    assert_the_step_is_brought_to_the_learner(live_page, 10, "the map")


def test_the_map_is_one_tab_stop_and_the_first_answer_is_a_few_tabs_from_the_top(live_page):
    steps = lesson_steps("attention-from-scratch")
    asking = next(index for index, step in enumerate(steps) if (step.get("question") or {}).get("kind") == "compute")
    open_lesson(live_page, "attention-from-scratch", steps[asking]["id"])
    live_page.evaluate("() => { document.activeElement?.blur(); window.scrollTo(0, 0); }")
    answer = live_page.locator(sel("lesson-number"))
    expect(answer).to_be_visible()
    tabs = 0
    while not answer.evaluate("(input) => input === document.activeElement"):
        tabs += 1
        assert tabs <= MOST_TABS_TO_THE_ANSWER, f"the answer is more than {MOST_TABS_TO_THE_ANSWER} Tabs from the top"
        live_page.keyboard.press("Tab")
    # The map: one stop, on the step on show; the arrow keys move in it, Enter opens the step the focus is on.
    on_show = live_page.locator(f'{sel("lesson-map-step")}[aria-current="step"]')
    on_show.focus()
    live_page.keyboard.press("ArrowRight")
    following = live_page.locator(sel("lesson-map-step")).nth(asking + 1)
    expect(following).to_be_focused()
    expect(live_page.locator(f'{sel("lesson-map-step")}[tabindex="0"]')).to_have_count(1)
    live_page.keyboard.press("Enter")
    assert_the_step_is_brought_to_the_learner(live_page, asking + 2, "the map by keyboard")


def test_a_lesson_opened_by_a_link_or_from_the_list_comes_to_the_learner_too(live_page):
    live_page.set_viewport_size(PHONE)
    steps = lesson_steps("self-attention-lab")
    scroll_down_to_the_weights(live_page)
    live_page.evaluate("(hash) => { location.hash = hash; }", f"#lesson=self-attention-lab&step={steps[4]['id']}")
    assert_the_step_is_brought_to_the_learner(live_page, 5, "a link")
    live_page.evaluate("window.attentionPlayground.lessons.close()")
    scroll_down_to_the_weights(live_page)
    live_page.locator(f'{sel("lesson-start-button")}[data-lesson="attention-from-scratch"]').click()
    assert_the_step_is_brought_to_the_learner(live_page, 1, "the list of lessons")


def test_a_lesson_a_script_opens_leaves_the_focus_where_it_was(live_page):
    live_page.locator(".theme-toggle").focus()  # in the toolbar, which every step keeps
    open_lesson(live_page, "self-attention-lab")
    assert live_page.evaluate("document.activeElement.className") == "theme-toggle"
