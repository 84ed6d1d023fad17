"""axe-core for the browser tests: a pinned copy, fetched once into the download cache, checked, and run in a page.

    from axe import run_axe
    violations = run_axe(page)          # [] when the page passes every WCAG 2.2 A/AA rule axe checks

The page's Content-Security-Policy refuses inline scripts, so axe is not added as a <script>: its source is
evaluated through the DevTools protocol (page.evaluate), which a page's policy does not govern.
"""

from npm_tarballs import package_file

AXE_VERSION = "4.14.1"
AXE_INTEGRITY = "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="

#: The bar: every rule axe has for WCAG 2.0, 2.1 and 2.2 at levels A and AA (the experimental ones too: run_axe).
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
#: Beyond the bar: axe's best practices as well.
WITH_BEST_PRACTICE = WCAG_AA + ["best-practice"]


def axe_source():
    """The text of axe.min.js, from the pinned tarball (npm_tarballs.py: fetched once, checked on every use)."""
    return package_file("axe-core", AXE_VERSION, AXE_INTEGRITY, "axe.min.js").decode("utf-8")


def run_axe(page, include=None, tags=WCAG_AA):
    """Run axe's rules with `tags` on the page (or on the elements matching the CSS selector `include`); return
    its violations as short dicts {id, impact, help, targets, count}.

    Every rule axe has for a WCAG level in `tags` runs, the experimental ones too (axe leaves those out of a run by
    tag unless each is named): a rule still experimental is one that may become the bar at the next release, as
    label-content-name-mismatch (WCAG 2.5.3) did in 4.11."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    results = page.evaluate(
        """async ([include, tags, wcag]) => {
          const context = include ? { include: [include] } : document;
          const experimental = axe.getRules(tags.filter((tag) => wcag.includes(tag)))
            .filter((rule) => rule.tags.includes("experimental")).map((rule) => [rule.ruleId, { enabled: true }]);
          return axe.run(context, { runOnly: { type: "tag", values: tags }, rules: Object.fromEntries(experimental),
                                    resultTypes: ["violations"] });
        }""",
        [include, tags, WCAG_AA],
    )
    return [
        {"id": v["id"], "impact": v["impact"], "help": v["help"],
         "targets": [node["target"] for node in v["nodes"]][:5], "count": len(v["nodes"])}
        for v in results["violations"]
    ]


def run_contrast(page, checked=True, include=None):
    """axe's colour-contrast rule (WCAG 1.4.3, AA) on the whole page (or on the elements matching the CSS
    selector `include`), open shadow roots included.

    Returns {"violations": [...], "incomplete": [...], "checked": [targets]}: `checked` lists every element
    axe measured and passed, each as its target path (a list of selectors, one per shadow root crossed), so a
    test can tell that axe really looked at a given part of the page, such as the code editor's shadow root.

    With `checked=False` axe measures the same elements but reports only the violations, each without its
    target path (its html and measured colours say where it is): naming every element it passed, a unique
    selector for each of a thousand texts, took about half of axe's time. "incomplete" and "checked" are None.
    """
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    results = page.evaluate(
        """async ([checked, include]) => {
          const found = await axe.run(include ? { include: [include] } : document, { runOnly: { type: "rule", values: ["color-contrast"] },
                                                  resultTypes: checked ? ["violations", "incomplete", "passes"] : ["violations"],
                                                  selectors: checked });
          const nodes = (items) => items.flatMap((item) => item.nodes.map((node) => ({
            target: node.target ?? null, html: node.html.slice(0, 120),
            data: node.any.map((check) => check.data).filter(Boolean)[0] ?? null })));
          return { violations: nodes(found.violations), incomplete: checked ? nodes(found.incomplete) : null,
                   passes: checked ? nodes(found.passes) : null };
        }""",
        [checked, include],
    )
    return {
        "violations": results["violations"],
        "incomplete": results["incomplete"],
        "checked": [node["target"] for node in results["passes"]] if checked else None,
    }
