#!/usr/bin/env python3
"""A lesson step's question, from opening the step until it is drawn, once Python is live (the target: 100 ms).

    python3 bench/lesson_step.py                  # 3 runs over every question step of both lessons, on dist/
    python3 bench/lesson_step.py --runs 5 --site source

Each run is a fresh page that boots Python and opens each lesson once untimed (the lesson's file is fetched and the
module's lessons part is unpacked then, as when a learner opens a lesson). Then every step that asks a question is
opened with `lessons.open(id, {step})`, and timed inside the page from the call until the question's form is in the
player's DOM and the next frame is painted: the step's scene shown and computed, the question asked of Python
(`lesson_ask`) and the player drawn. After each step the bench waits 1.5 s, as a learner reads it, so what the
step opened below the playground (the trained model's run) is not counted against the next. Printed: each lesson's median and slowest step per run, and over the runs.

Not a test: nothing here asserts. The machine is shared and noisy; the load average is printed beside.
"""

import argparse
import os
import statistics
import sys

from browser_bench import fresh_page_runs, load_line
from page import LIVE_TIMEOUT_MS, SITE_PATHS, VIEWPORT

TARGET_MS = 100
#: The pause after each step, as a learner reads it: what the step opened below (the model's run) finishes then.
READING_MS = 1500

#: Times one step inside the page: from the call until the question's form is drawn and a frame painted.
TIME_STEP = """async ({lesson, step}) => {
  const panel = document.querySelector('[data-testid="lesson-panel"]');
  const started = performance.now();
  await window.attentionPlayground.lessons.open(lesson, {step});
  while (!panel.querySelector('.lesson-question form, .lesson-question .lesson-pick, [data-testid="lesson-build-status"]')) {
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  const drawn = performance.now();
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  return {drawn: drawn - started, painted: performance.now() - started};
}"""


def question_steps(page):
    """Each lesson's id and the ids of its steps that ask a question (lessons.list())."""
    lessons = page.evaluate("window.attentionPlayground.lessons.list()")
    return {lesson["id"]: [step["id"] for step in lesson["steps"] if step["kind"]] for lesson in lessons}


def one_run(browser, url):
    """A fresh page: boot, open each lesson once untimed, then time every question step; {lesson: {step: ms}}."""
    context = browser.new_context(viewport=VIEWPORT)
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_function("window.attentionPlayground !== undefined", timeout=LIVE_TIMEOUT_MS)
        page.evaluate("window.attentionPlayground.ready")
        timed = {}
        for lesson, steps in question_steps(page).items():
            page.evaluate("([lesson, step]) => window.attentionPlayground.lessons.open(lesson, {step})", [lesson, steps[0]])
            timed[lesson] = {}
            for step in steps:
                timed[lesson][step] = page.evaluate(TIME_STEP, {"lesson": lesson, "step": step})["painted"]
                page.wait_for_timeout(READING_MS)
    finally:
        context.close()
    return timed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh pages (default 3)")
    parser.add_argument("--site", choices=sorted(SITE_PATHS), default="dist")
    arguments = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    every = {}
    for index, timed in enumerate(fresh_page_runs(SITE_PATHS[arguments.site], arguments.runs, one_run)):
        for lesson, by_step in timed.items():
            times = list(by_step.values())
            every.setdefault(lesson, []).extend(times)
            slowest = max(by_step, key=by_step.get)
            print(f"  run {index + 1}, {lesson}: {len(times)} question steps, median {statistics.median(times):.0f} ms, "
                  f"slowest {by_step[slowest]:.0f} ms ({slowest})", flush=True)
    for lesson, times in every.items():
        within = sum(time <= TARGET_MS for time in times)
        print(f"{lesson}: a question drawn in {statistics.median(times):.0f} ms (median of {len(times)}), slowest "
              f"{max(times):.0f} ms; {within} of {len(times)} within {TARGET_MS} ms")
    print(load_line(load_before))
    return 0


if __name__ == "__main__":
    sys.exit(main())
