"""The notebook widget in a real JupyterLab: the example notebook opened in Chromium, its cells run, the page's
views drawn by the kernel's results, an edit recomputed by the kernel, and nothing asked of any other host:
JupyterLab is served with a Content-Security-Policy that lets the page reach 127.0.0.1 only, and whatever
it refuses fails the test.

JupyterLab (pinned in pyproject's test extra) is started on 127.0.0.1 in a folder of its own, with the
project's py/ on the kernel's path, so the kernel imports the module (and the widget's view the build
bundled into it) as a clone has them.
"""

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from attention_playground import compute, load_preset
from conftest import PageProblems, assert_no_problems, guarded_page
from page_helpers import sel, type_into

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "playground.ipynb"
SERVER_START_SECONDS = 60
# In "the cat sat on the mat because it was tired": the tokens, and Wq's pronoun row and noun column.
IT, CAT = 7, 1
PRONOUN, NOUN_DIM = 2, 1

pytestmark = [pytest.mark.notebook, pytest.mark.long]  # a real JupyterLab starts: a minute


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def notebook_policy(port):
    """A Content-Security-Policy for JupyterLab that lets the page reach 127.0.0.1:`port` and nothing else.
    JupyterLab itself needs inline and evaluated scripts and inline styles; the widget needs only `blob:`
    scripts (anywidget loads its module from one) and `blob:` images (the PNG export draws the SVG)."""
    return ("default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval' blob:; style-src 'self' 'unsafe-inline'; "
            f"img-src 'self' data: blob:; connect-src 'self' ws://127.0.0.1:{port}; font-src 'self' data:; "
            "worker-src 'self' blob:; object-src 'none'; base-uri 'self'; form-action 'self'")


@pytest.fixture(scope="module")
def jupyter_lab(built_site, tmp_path_factory):
    """JupyterLab on 127.0.0.1 serving a folder holding the example notebook; yields (url, token)."""
    home = tmp_path_factory.mktemp("jupyter")
    work = home / "work"
    work.mkdir()
    shutil.copy(EXAMPLE, work / EXAMPLE.name)
    # The news and update checks are switched off, so the server asks no other host either.
    settings = home / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    token = secrets.token_hex(16)
    port = free_port()
    environment = {
        **os.environ,
        "PYTHONPATH": str(ROOT / "py"),
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
        "IPYTHONDIR": str(home / "ipython"),
    }
    command = [
        sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
        f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={work}",
        "--LabApp.expose_app_in_browser=True",  # window.jupyterapp: the test runs JupyterLab's own commands
        f"--ServerApp.tornado_settings={{'headers': {{'Content-Security-Policy': {notebook_policy(port)!r}}}}}",
        *(["--allow-root"] if os.geteuid() == 0 else []),
    ]
    log = open(home / "server.log", "w")
    server = subprocess.Popen(command, env=environment, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + SERVER_START_SECONDS
    while True:
        try:
            urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2).read()
            break
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                pytest.fail(f"JupyterLab did not start: {(home / 'server.log').read_text()[-2000:]}")
            time.sleep(0.3)
    yield url, token
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
    log.close()


def in_kernel(page, code):
    """Run `code` in the notebook's kernel (not in a cell) and return what it printed; fail on an exception."""
    printed, failure = page.evaluate(
        """async (code) => {
          const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
          const future = kernel.requestExecute({ code, store_history: false });
          let printed = "";
          let failure = null;
          future.onIOPub = (message) => {
            if (message.header.msg_type === "stream") printed += message.content.text;
            if (message.header.msg_type === "error") failure = `${message.content.ename}: ${message.content.evalue}`;
          };
          await future.done;
          return [printed, failure];
        }""",
        code,
    )
    assert failure is None, f"the kernel raised {failure} running {code!r}"
    return printed


def kernel_json(page, expression):
    printed = in_kernel(page, f"import json; print(json.dumps({expression}))")
    return json.loads(printed)


def wait_for_picture(page, seconds=10):
    """The widget's picture as the kernel has it, once the view has written one: the SVG's start, its number of
    weight cells, and the PNG's first bytes."""
    deadline = time.monotonic() + seconds
    while True:
        picture = kernel_json(page, "{'svg': w.picture_svg[:200], 'cells': w.picture_svg.count(' class=\"cell\"'),"
                                    " 'png': list(w.picture_png[:8])}")
        if picture["png"] or time.monotonic() > deadline:
            return picture
        time.sleep(0.2)


def assert_same_weights(kernel_result, native_result):
    for kernel_head, native_head in zip(kernel_result["heads"], native_result["heads"], strict=True):
        for kernel_row, native_row in zip(kernel_head["weights"], native_head["weights"], strict=True):
            assert kernel_row == pytest.approx(native_row, abs=1e-12)


def test_the_example_notebook_draws_edits_and_recomputes_in_the_kernel(browser, jupyter_lab, artifacts):
    url, token = jupyter_lab
    problems = PageProblems()
    context, page = guarded_page(browser, problems)
    # Whatever the policy refuses is recorded: nothing may be.
    context.add_init_script("""document.addEventListener("securitypolicyviolation", (event) => {
      (window.policyViolations ??= []).push(`${event.violatedDirective} ${event.blockedURI}`);
    });""")
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(f"{url}/lab/tree/{EXAMPLE.name}?token={token}")
    page.wait_for_function(
        "() => window.jupyterapp?.shell.currentWidget?.sessionContext?.session?.kernel?.connectionStatus === 'connected'"
        " && window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status === 'idle'"
    )
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")

    # Both widgets drawn: the scene's heatmap, one cell per (row, column), from the kernel's result.
    widgets = page.locator(sel("notebook-playground"))
    expect(widgets).to_have_count(2)
    first = widgets.nth(0)
    expect(first.locator(sel("heatmap-cell"))).to_have_count(100)
    expect(first.locator(f'{sel("bar-row", token_index=CAT)} {sel("bar-value")}')).to_have_text("92.0%")
    # The trained head, with only the panels its cell asked for.
    induction = widgets.nth(1)
    expect(induction.locator(sel("heatmap-cell")).first).to_be_visible()
    expect(induction.locator(sel("weight-editor"))).to_be_hidden()
    assert kernel_json(page, "induction.result['tokens']")[0] == "<bos>"

    # An edit of Wq, typed in the widget: the kernel recomputes, the bars move, w.scene and w.result follow.
    type_into(page, first.locator(sel("wq-cell", row=PRONOUN, column=NOUN_DIM)), "0")
    expect(first.locator(f'{sel("bar-row", token_index=CAT)} {sel("bar-value")}')).to_have_text("65.3%")
    state = kernel_json(page, "{'scene': w.scene, 'result': w.result, 'error': w.error, 'focused_row': w.focused_row}")
    assert state["error"] is None
    assert state["scene"]["heads"][0]["Wq"][PRONOUN][NOUN_DIM] == 0
    edited = load_preset("it-animal-noun")
    edited["heads"][0]["Wq"][PRONOUN][NOUN_DIM] = 0
    assert_same_weights(state["result"], compute(edited))
    assert_same_weights(state["result"], compute(state["scene"]))
    assert state["focused_row"] == IT

    # A mistake: the page's message, naming the row and the column, and the last good result kept.
    x_cell = first.locator(sel("x-cell", row=CAT, column=0))
    type_into(page, x_cell, "abc")
    expect(first.locator(sel("stale-note"))).to_contain_text("abc")
    error = kernel_json(page, "w.error")
    assert (error["field"], error["row"], error["column"]) == ("X", "cat", edited["features"][0])
    assert_same_weights(kernel_json(page, "w.result"), compute(edited))
    type_into(page, x_cell, "1")
    expect(first.locator(sel("stale-note"))).to_be_hidden()

    # Focus from Python moves the bars; the picture the view drew comes back as SVG and PNG.
    in_kernel(page, f"w.focused_row = {CAT}")
    expect(first.locator(sel("bars-heading"))).to_have_text("Where “cat” pays attention")
    picture = wait_for_picture(page)
    assert "<svg" in picture["svg"] and picture["cells"] == 100
    assert bytes(picture["png"]) == b"\x89PNG\r\n\x1a\n"

    # Light and dark follow JupyterLab's theme (pictured with "it" focused again: its bars show the edit).
    in_kernel(page, f"w.focused_row = {IT}")
    expect(first.locator(sel("bars-heading"))).to_have_text("Where “it” pays attention")
    first.locator(sel("heatmap-panel")).scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "notebook-widget-light.png"))
    light_panel = first.locator(sel("heatmap-panel")).evaluate("(node) => getComputedStyle(node).backgroundColor")
    expect(first).to_have_attribute("data-theme", "light")
    page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Dark'})")
    expect(first).to_have_attribute("data-theme", "dark")
    dark_panel = first.locator(sel("heatmap-panel")).evaluate("(node) => getComputedStyle(node).backgroundColor")
    assert dark_panel != light_panel
    page.wait_for_timeout(300)  # JupyterLab's own colours finish changing
    page.screenshot(path=str(artifacts / "notebook-widget-dark.png"))

    # A scene set from Python redraws the widget.
    in_kernel(page, "w.scene = 'dog-bites-man'")
    expect(first.locator(sel("heatmap-cell"))).to_have_count(9)
    # So does a scene read, changed in place and assigned back: "man" loses its second feature.
    in_kernel(page, "w.focused_row = 2")
    man_reads_man = first.locator(f'{sel("bar-row", token_index=2)} {sel("bar-value")}')
    expect(man_reads_man).to_have_text("50.3%")
    in_kernel(page, "s = w.scene; s['X'][2][1] = 0; w.scene = s")
    expect(man_reads_man).to_have_text("40.1%")
    assert page.evaluate("window.policyViolations ?? []") == []
    context.close()
    assert_no_problems(problems)  # no console error, no uncaught error, no request off 127.0.0.1
