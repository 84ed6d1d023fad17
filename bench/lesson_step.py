#!/usr/bin/env python3
"""A lesson step's question, from opening the step until it is drawn, once Python is live (the target: 100 ms).

    python3 bench/lesson_step.py                  # 3 runs over every question step of both lessons, on dist/
    python3 bench/lesson_step.py --runs 5 --site source

Each run is a fresh page that boots Python and opens each lesson once untimed (the lesson's file is fetched and the
module's lessons part is unpacked then, as when a learner opens a lesson). Then every step that asks a question is
opened with `lessons.open(id, {step})`, and timed inside the page from the call until the question's form is put in
the player's DOM and the next frame is painted: the step's scene shown, the question asked of Python (`lesson_ask`)
and the player drawn (the page draws the question before the grids the scene rebuilds and the views below it).
Timed too: until the call resolves, the step's panels drawn as well, and the next frame is painted. After each step
the bench waits 1.5 s, as a learner reads it, so what the step opened below the playground (the trained model's
run) is not counted against the next. Printed: each lesson's median and slowest step per run, and over the runs,
for the question and for the whole step.

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

#: Times one step inside the page: from the call until the question's form is drawn and its frame painted, and until
#: the call resolves (the step's panels drawn too) and that frame is painted. The form is seen as it is put in the
#: player's DOM (a mutation observer), not when the call resolves: the page draws the question first.
TIME_STEP = """async ({lesson, step}) => {
  const FORM = '.lesson-question form, .lesson-question .lesson-pick, [data-testid="lesson-build-status"]';
  const area = document.querySelector('[data-testid="lesson-question"]');
  const painted = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const started = performance.now();
  let drawn = null;
  const formDrawn = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (!area.querySelector(FORM)) return;
      observer.disconnect();
      drawn = performance.now() - started;
      painted().then(() => resolve(performance.now() - started));
    });
    observer.observe(area, {childList: true, subtree: true});
  });
  await window.attentionPlayground.lessons.open(lesson, {step});
  const opened = performance.now() - started;
  await painted();
  const whole = performance.now() - started;
  if (drawn === null) throw new Error(`step ${step} resolved with no question drawn`);
  return {drawn, painted: await formDrawn, opened, whole};
}"""


def question_steps(page):
    """Each lesson's id and the ids of its steps that ask a question (lessons.list())."""
    lessons = page.evaluate("window.attentionPlayground.lessons.list()")
    return {lesson["id"]: [step["id"] for step in lesson["steps"] if step["kind"]] for lesson in lessons}


def one_run(browser, url):
    """A fresh page: boot, open each lesson once untimed, then time every question step; {lesson: {step: times}}
    with each step's times {"painted": the question, "whole": the step's panels} in ms."""
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
                times = page.evaluate(TIME_STEP, {"lesson": lesson, "step": step})
                timed[lesson][step] = {"painted": times["painted"], "whole": times["whole"]}
                page.wait_for_timeout(READING_MS)
    finally:
        context.close()
    return timed


def summary(times):
    """A lesson's figures for one kind of time: median, slowest (and which step), how many within TARGET_MS."""
    values = list(times.values())
    slowest = max(times, key=times.get)
    within = sum(value <= TARGET_MS for value in values)
    return statistics.median(values), times[slowest], slowest, within


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh pages (default 3)")
    parser.add_argument("--site", choices=sorted(SITE_PATHS), default="dist")
    arguments = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    every = {}
    for index, timed in enumerate(fresh_page_runs(SITE_PATHS[arguments.site], arguments.runs, one_run)):
        for lesson, by_step in timed.items():
            for kind in ("painted", "whole"):
                every.setdefault(lesson, {}).setdefault(kind, {}).update(
                    {(index, step): times[kind] for step, times in by_step.items()})
            median, slowest, step, _ = summary({step: times["painted"] for step, times in by_step.items()})
            whole_median, whole_slowest, _, _ = summary({step: times["whole"] for step, times in by_step.items()})
            print(f"  run {index + 1}, {lesson}: {len(by_step)} question steps, question median {median:.0f} ms, "
                  f"slowest {slowest:.0f} ms ({step}); whole step median {whole_median:.0f} ms, slowest "
                  f"{whole_slowest:.0f} ms", flush=True)
    for lesson, kinds in every.items():
        median, slowest, (_, step), within = summary(kinds["painted"])
        count = len(kinds["painted"])
        print(f"{lesson}: a question drawn in {median:.0f} ms (median of {count}), slowest {slowest:.0f} ms ({step}); "
              f"{within} of {count} within {TARGET_MS} ms")
        median, slowest, (_, step), within = summary(kinds["whole"])
        print(f"{lesson}: the whole step (its panels drawn too) in {median:.0f} ms, slowest {slowest:.0f} ms "
              f"({step}); {within} of {count} within {TARGET_MS} ms")
    print(load_line(load_before))
    return 0


if __name__ == "__main__":
    sys.exit(main())
