#!/usr/bin/env python3
"""What a change of style would save a 64-token edit, measured untraced: style variants of the page side by side,
taking turns in one page over several rounds (each round starting with the next), so that the machine's drift falls on all of them alike (a
measurement, not a test).

    .venv/bin/python bench/edit_ab.py                          # the built-in variants, 6 rounds
    .venv/bin/python bench/edit_ab.py --rounds 10 --css "bars off=.bars { display: none; }"

The page is set up as bench/page.py's large_edit series sets it up (`python3 build.py serve`'s sources, the step
view open, a random 64 tokens x 64 features x 64 dims scene, Wq's first cell typed back and forth by
bench/instruments/update-latency.js). Each round gives every variant its own style sheet in turn (the page's
Content-Security-Policy is bypassed for it) and times `--edits` edits after 3 untimed ones. Printed for each: when
the new weight is in the heatmap's DOM, when the next frame starts and when it has been painted (p50 and p95),
and, over all variants, how long the worker took from the request posted to its reply heard.

Built in, beside the page as shipped:
- "no relayout boundary": the cell being typed in without `contain: size layout` (static/style.css says why it
  has it), to see what it buys;
- "24 rows a grid": every grid's rows after its 24th not rendered at all. A grid that renders only the rows near
  the screen would render at least as many (a 900 px window shows some 26 rows of a grid, and such grids draw a
  margin beyond it), so this is the most that design could save an edit, with none of its own costs.
"""

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "py"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from await_trace import MESSAGE_LOG  # noqa: E402
from edit_trace import STYLE_SHEET_ID, large_edit_page  # noqa: E402
from page_probes import LARGE_SIZE, UPDATE_LATENCY_FUNCTION, percentile  # noqa: E402

VARIANTS = {
    "as shipped": "",
    "no relayout boundary": ".grid td input.cell-input { contain: none; }",
    "24 rows a grid": ".grid tbody tr:nth-child(n+25) { display: none !important; }",
}
WARMUP = 3
TIMES = (("domMs", "in the DOM"), ("frameMs", "next frame"), ("paintedMs", "painted"))


def request_gaps(messages):
    """Milliseconds from each request posted to Python until its reply is heard."""
    gaps, posted = [], None
    for what, at in messages:
        if what == "posted":
            posted = at
        elif posted is not None:
            gaps.append(at - posted)
            posted = None
    return gaps


def measure(variants, rounds, edits):
    """Per variant, every timed edit's sample; and the request-to-reply gaps of all of them."""
    samples = {name: [] for name in variants}
    gaps = []
    with large_edit_page(init_script=MESSAGE_LOG) as (_, page, options):
        names = list(variants)
        for turn in range(rounds):
            # Each round starts with the next variant, so that none always follows the same one.
            for name in names[turn % len(names):] + names[:turn % len(names)]:
                page.evaluate("([id, css]) => { document.getElementById(id).textContent = css; }",
                              [STYLE_SHEET_ID, variants[name]])
                page.evaluate("window.__messages = []")
                run = page.evaluate(UPDATE_LATENCY_FUNCTION, {**options, "count": edits, "warmup": WARMUP})
                samples[name] += run["samples"]
                gaps += request_gaps(page.evaluate("window.__messages"))
    return samples, gaps


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=6, help="turns each variant takes (default 6)")
    parser.add_argument("--edits", type=int, default=15, help="timed edits a turn (default 15)")
    parser.add_argument("--css", action="append", default=[], metavar="NAME=CSS", help="another variant")
    args = parser.parse_args(argv)
    variants = dict(VARIANTS)
    for item in args.css:
        name, _, css = item.partition("=")
        variants[name.strip()] = css
    samples, gaps = measure(variants, args.rounds, args.edits)
    print(f"{LARGE_SIZE}x{LARGE_SIZE}x{LARGE_SIZE} edits typed into Wq, step view open, {args.rounds} rounds of "
          f"{args.edits} a variant, untraced (ms, p50 / p95)\n")
    print("| variant | edits | " + " | ".join(label for _, label in TIMES) + " |")
    print("|---|---|" + "---|" * len(TIMES))
    for name, runs in samples.items():
        cells = []
        for key, _ in TIMES:
            values = [sample[key] for sample in runs]
            cells.append(f"{percentile(values, 0.5):.1f} / {percentile(values, 0.95):.1f}")
        print(f"| {name} | {len(runs)} | " + " | ".join(cells) + " |")
    print(f"\nrequest posted to Python until its reply is heard, all variants: p50 {percentile(gaps, 0.5):.1f} ms, "
          f"p95 {percentile(gaps, 0.95):.1f} ms ({len(gaps)} requests)")


if __name__ == "__main__":
    main()
