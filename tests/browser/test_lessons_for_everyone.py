"""The lesson player for everyone: axe finds no WCAG 2.2 A/AA violation in it, for every kind of question and
after a reveal, in both themes; a question is answered from the keyboard and its reveal is announced; every answer
control, focused from the keyboard, shows a focus ring at least 2 px wide; at 390 px the player and its question
fit the screen's width."""

import pytest
from playwright.sync_api import expect

from axe import run_axe
from lesson_helpers import lesson_steps, wait_for_progress, wait_for_verdict
from page_helpers import open_live, sel

pytestmark = pytest.mark.browser

LESSON = "attention-from-scratch"
PLAYER = '[data-testid="lesson-panel"]'


def first_step_of_each_kind(steps):
    """{kind: the index of the first step asking that kind of question}."""
    found = {}
    for index, step in enumerate(steps):
        if step["question"]:
            found.setdefault(step["question"]["kind"], index)
    return found


def open_step(page, index):
    page.evaluate("([lesson, step]) => window.attentionPlayground.lessons.open(lesson, {step})", [LESSON, index + 1])
    return wait_for_progress(page, lambda p: p["number"] == index + 1 and p["status"] == "ready", what=f"step {index + 1}")


@pytest.mark.parametrize("color_scheme", ["light", "dark"])
def test_every_kind_of_question_and_its_reveal_pass_axe(live_page, color_scheme):
    page = live_page
    steps = lesson_steps(LESSON)
    kinds = first_step_of_each_kind(steps)
    assert {"pick", "estimate", "compute", "choose", "sketch", "build"} <= set(kinds), kinds
    page.emulate_media(color_scheme=color_scheme)
    page.wait_for_function("(scheme) => document.documentElement.dataset.theme === scheme", arg=color_scheme)
    for kind, index in sorted(kinds.items(), key=lambda item: item[1]):
        open_step(page, index)
        violations = run_axe(page, include=PLAYER)
        assert violations == [], f"axe, {kind} question ({color_scheme}): {violations}"
    open_step(page, kinds["pick"])
    page.locator(sel("lesson-pick-word")).first.click()
    wait_for_verdict(page, steps[kinds["pick"]]["id"], 1)
    violations = run_axe(page, include=PLAYER)
    assert violations == [], f"axe, after a reveal ({color_scheme}): {violations}"


def test_a_question_is_answered_from_the_keyboard_and_the_reveal_is_announced(live_page):
    page = live_page
    steps = lesson_steps(LESSON)
    kinds = first_step_of_each_kind(steps)
    open_step(page, kinds["choose"])
    page.locator(sel("lesson-step-title")).click()  # the learner's place: the step they read
    for _ in range(40):  # Tab to the first option, as a keyboard user does
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement?.dataset.testid") == "lesson-option":
            break
    else:
        raise AssertionError("no option of the question is reachable with Tab from the step's title")
    page.keyboard.press("Space")
    while page.evaluate("document.activeElement?.dataset.testid") != "lesson-submit":
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    wait_for_verdict(page, steps[kinds["choose"]]["id"], 1)
    # The reveal sits in a live region, so a screen reader reads the verdict out when it appears.
    live = page.locator(f'{PLAYER} [aria-live="polite"]')
    expect(live).to_contain_text("The page")
    expect(live.locator(sel("lesson-verdict"))).to_be_visible()


def test_at_390_px_the_player_and_its_question_fit_the_width(page, site_url):
    steps = lesson_steps(LESSON)
    kinds = first_step_of_each_kind(steps)
    # A fresh page at the phone's width: the page lays itself out for the width it opens at, as a phone's does.
    open_live(page, f"{site_url}/#lesson={LESSON}&step={kinds['sketch'] + 1}", viewport={"width": 390, "height": 844})
    for kind in ("sketch", "pick", "choose"):
        open_step(page, kinds[kind])
        widths = page.evaluate(f"""() => {{
            const player = document.querySelector('{PLAYER}').getBoundingClientRect();
            const question = document.querySelector('[data-testid="lesson-question"]').getBoundingClientRect();
            return {{page: document.documentElement.scrollWidth, left: player.left, right: player.right,
                     questionRight: question.right}};
        }}""")
        assert widths["page"] <= 390 and widths["left"] >= 0 and widths["right"] <= 390, (kind, widths)
        assert widths["questionRight"] <= 390, (kind, widths)


#: How wide a focused control's ring must be, in CSS pixels (buttons draw 3).
FOCUS_RING_PX = 2


def test_every_answer_control_shows_a_focus_ring_at_least_2_px_wide(live_page):
    page = live_page
    kinds = first_step_of_each_kind(lesson_steps(LESSON))
    rings = {}
    try:
        for kind in ("estimate", "compute", "choose", "sketch"):
            open_step(page, kinds[kind])
            controls = page.locator(f'{PLAYER} [data-testid="lesson-form"] input, {PLAYER} [data-testid="lesson-form"] button')
            for index in range(controls.count()):
                control = controls.nth(index)
                control.focus()
                page.keyboard.press("Shift+Tab")  # focus moved by the keyboard, as :focus-visible means it
                page.keyboard.press("Tab")
                rings[(kind, index, control.get_attribute("type"))] = control.evaluate(
                    "c => c === document.activeElement && getComputedStyle(c).outlineStyle !== 'none'"
                    " ? parseFloat(getComputedStyle(c).outlineWidth) : 0")
    finally:
        page.evaluate("window.attentionPlayground.lessons.close()")
    thin = {control: width for control, width in rings.items() if width < FOCUS_RING_PX}
    assert rings and not thin, thin
