#!/usr/bin/env python3
"""A learner's own 30-word sentence on the English model: from typing it to every head drawn, in the page.

    .venv/bin/python bench/english_sentence.py                 # build, then 3 fresh pages of 15 sentences each
    .venv/bin/python bench/english_sentence.py --no-build --runs 1

Each run is a fresh page: it boots, opens the model's panel, chooses the English model (its part of the module is
fetched then) and waits for its first answer. Then, one after another, 30-word sentences are put in the sentence
box as typing puts them (an input event), each ending in another word; each is timed from the input event until the
word strip shows the sentence's last token and the head cards are redrawn for it, and until that frame is painted.
Beside it, the same request natively (english_run as the panel asks it, the median of the same sentences), so the
ratio says how much of the time is Python in the page. Target: the painted p95 within 100 ms.

Not a test: nothing here asserts. The machine is shared and noisy; the load average is printed beside.
"""

import os
import statistics
import sys
import time

from browser_bench import arguments_then_build, fresh_page_runs, live_page, load_line
from page import LIVE_TIMEOUT_MS, SITE_PATHS, VIEWPORT
from attention_playground.english.requests import english_run  # page.py put py/ on the path

TARGET_MS = 100
#: 29 words, then one that changes each time: 30 words, 34 tokens.
OPENING = ("the old farmer walked down to the river with his sons in the morning and they talked about the weather "
           "and the price of corn at the market in")
LAST_WORDS = ["town", "spring", "summer", "chicago", "may", "june", "winter", "march", "london", "church", "school",
              "morning", "evening", "city", "country", "house"]  # each one token, so the strip ends in it

#: Puts `text` in the box as typing does and resolves with {domMs, paintedMs}: until the strip's last token is
#: `last` and every head card's thumbnail is redrawn, and until the frame after that is painted.
TIME_ONE = """async ({ text, last }) => {
  const box = document.querySelector('[data-testid="model-words"]');
  const strip = () => [...document.querySelectorAll('[data-testid="model-token"]')].map((chip) => chip.textContent);
  const started = performance.now();
  box.value = text;
  box.dispatchEvent(new Event('input', { bubbles: true }));
  await new Promise((resolve) => {
    const check = () => {
      const tokens = strip();
      if (tokens[tokens.length - 1] === last && !document.querySelector('[data-testid="model-panel"] [aria-busy="true"]')) resolve();
      else requestAnimationFrame(check);
    };
    check();
  });
  const domMs = performance.now() - started;
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  return { domMs, paintedMs: performance.now() - started };
}"""


def sentences():
    return [f"{OPENING} {word}" for word in LAST_WORDS]


def one_run(browser, url):
    with live_page(browser, url, VIEWPORT, LIVE_TIMEOUT_MS) as page:
        page.locator('[data-testid="model-open"]').click()
        page.locator('[data-testid="model-head-card"]').first.wait_for(timeout=LIVE_TIMEOUT_MS)
        page.locator('[data-testid="model-choice-select"]').select_option("english")
        page.locator('[data-testid="model-token"]').first.wait_for(timeout=LIVE_TIMEOUT_MS)
        page.evaluate(TIME_ONE, {"text": sentences()[0], "last": LAST_WORDS[0]})  # warm-up
        return [page.evaluate(TIME_ONE, {"text": text, "last": last})
                for text, last in zip(sentences()[1:], LAST_WORDS[1:], strict=True)]


def p95(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main(argv=None):
    arguments = arguments_then_build(__doc__.splitlines()[0], argv)
    load_before = os.getloadavg()[0]
    native = []
    for text in sentences():
        started = time.perf_counter()
        english_run({"words": text, "focus_only": True})  # as the panel asks it
        native.append((time.perf_counter() - started) * 1000)
    samples = []
    for index, run in enumerate(fresh_page_runs(SITE_PATHS["dist"], arguments.runs, one_run)):
        samples.extend(run)
        print(f"run {index + 1}: painted median {statistics.median(s['paintedMs'] for s in run):.1f} ms, "
              f"p95 {p95([s['paintedMs'] for s in run]):.1f} ms", flush=True)
    painted = [sample["paintedMs"] for sample in samples]
    dom = [sample["domMs"] for sample in samples]
    tokens = len(english_run({"words": sentences()[0]})["tokens"])
    print(f"30 words ({tokens} tokens with <bos>), {len(samples)} sentences: in the DOM median {statistics.median(dom):.1f} ms, "
          f"painted median {statistics.median(painted):.1f} ms, p95 {p95(painted):.1f} ms (target {TARGET_MS} ms: "
          f"{'met' if p95(painted) <= TARGET_MS else 'not met'})")
    print(f"natively, english_run: median {statistics.median(native[1:]):.1f} ms")
    print(load_line(load_before))
    return 0


if __name__ == "__main__":
    sys.exit(main())
