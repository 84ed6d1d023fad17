"""The Content-Security-Policy: the page boots and works under it with no violation, the worker gets the same
policy from its response header, and a script injected into the page is refused."""

import re
import sys
from pathlib import Path
from urllib.request import urlopen

from page_helpers import await_ready

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from sitebuild import csp, paths  # noqa: E402

# Every violation the page (or the worker, which reports to the console) sees, recorded from the first moment.
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


def meta_policy(html):
    match = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', html)
    assert match, "the page has no CSP <meta>"
    return match.group(1)


def test_the_meta_policy_is_the_one_the_server_sends(site_url):
    """The page as served and as built carries the one policy (sitebuild/csp.py), the same the server sends."""
    with urlopen(f"{site_url}/") as response:
        served = response.read().decode("utf-8")
    built = (paths.DIST_DIR / "index.html").read_text(encoding="utf-8")
    for html in (served, built):
        assert meta_policy(html) == csp.page_policy()
        assert "'unsafe-inline'" not in meta_policy(html) and "'unsafe-eval'" not in meta_policy(html)
    # The page's source names the policy nowhere: it is written in, never typed.
    assert "Content-Security-Policy\" content" not in (ROOT / "index.html").read_text(encoding="utf-8")


def test_a_cdn_host_is_added_only_where_asked():
    policy = csp.content_security_policy(runtime_hosts=["https://cdn.example"])
    assert "script-src 'self' 'wasm-unsafe-eval' https://cdn.example" in policy
    assert "connect-src 'self' https://cdn.example;" in policy
    assert "cdn.example" not in csp.content_security_policy()


def test_the_worker_script_is_served_with_the_policy(site_url):
    """The page's workers (the training worker is the same script) get the page's policy, which lets them fetch
    nothing but the site: they install nothing. Only the in-Pyodide test run's worker may fetch data: URLs
    (micropip's one-link indexes), and it is served by the development server alone."""
    with urlopen(f"{site_url}/js/runtime/worker.js?for=training") as response:
        assert response.headers["Content-Security-Policy"] == csp.content_security_policy()
    connect_src = lambda policy: next(part.split()[1:] for part in policy.split(";") if part.split()[0] == "connect-src")  # noqa: E731
    assert connect_src(csp.content_security_policy()) == ["'self'"]
    with urlopen(f"{site_url}/tests/in_pyodide/worker.js") as response:
        assert connect_src(response.headers["Content-Security-Policy"]) == ["'self'", "data:"]
    assert csp.in_pyodide_tests_policy() != csp.content_security_policy()
    assert "data:" not in connect_src(meta_policy((paths.DIST_DIR / "index.html").read_text(encoding="utf-8")))


# Whether what a click opened shows as open: its button no longer says closed (or is gone), its details open.
OPENED = """(opener) => !opener.isConnected || !opener.checkVisibility()
  || (opener.tagName === "SUMMARY" ? opener.parentElement.open : opener.getAttribute("aria-expanded") !== "false")"""


def test_the_page_boots_and_works_without_a_violation(page, site_url):
    page.add_init_script(RECORD_VIOLATIONS)
    page.goto(f"{site_url}/")
    await_ready(page)
    page.locator('[data-testid="playground"][data-status="live"]').wait_for()
    # Use it: edit a cell, switch the mask, pick an example, look at a cell.
    page.locator('[data-testid="x-cell"]').first.click()
    page.keyboard.type("2")
    page.locator('[data-testid="mask-causal"]').check()
    page.locator('[data-testid="heatmap-cell"]').nth(1).hover()
    page.wait_for_function("() => window.attentionPlayground.result().mask[0][1] === true")
    # Open whatever opens (the exercises with their code editor, among others) and show the weights as a table.
    page.locator('[data-testid="weights-table-toggle"]').click()
    for _ in range(10):
        closed = page.locator('button[aria-expanded="false"]:visible, details:not([open]) > summary:visible')
        if closed.count() == 0:
            break
        opener = closed.first.element_handle()
        opener.click()
        # A panel far below the screen redraws when the page is idle: until then its button still reads as
        # closed, and the next round must not click it again (the redraw would hide it under that click).
        page.wait_for_function(OPENED, arg=opener)
    page.wait_for_timeout(1000)
    assert page.evaluate("window.__cspViolations") == []


def test_an_injected_inline_script_is_blocked(page, site_url, page_problems):
    page.add_init_script(RECORD_VIOLATIONS)
    page.goto(f"{site_url}/")
    page.locator('[data-testid="heatmap"]').wait_for()
    ran = page.evaluate("""() => new Promise((resolve) => {
      window.__injectedRan = false;
      const script = document.createElement("script");
      script.textContent = "window.__injectedRan = true";
      document.body.append(script);
      const image = document.createElement("img");
      image.setAttribute("onerror", "window.__injectedRan = true");
      // Settled once the image has failed to load (its 404 is on the console by then), and a moment more.
      image.addEventListener("error", () => setTimeout(() => resolve(window.__injectedRan), 300));
      image.src = "x";
      document.body.append(image);
    })""")
    assert ran is False
    violations = page.evaluate("window.__cspViolations")
    assert any(v.startswith("script-src") for v in violations), violations
    page_problems.clear()  # the browser logs each refusal as a console error: that is the point here
