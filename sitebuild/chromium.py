"""The Chromium that the browser tests and the benchmarks drive: Debian's, started the same way by both.

Playwright starts Chromium with a `--disable-features` list of its own (what gets in an automated browser's way,
third-party storage partitioning among it), and Chromium keeps only the last `--disable-features` it is given: a
second one would undo Playwright's. So the features turned off here are added to Playwright's list, as Chromium
reports it from a browser Playwright started (`Browser.getBrowserCommandLine`), and given as one switch.
"""

import functools

CHROMIUM = "/usr/bin/chromium"

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

#: Turned off besides Playwright's: the address bar's suggestions, a page of Chromium's own (a WebUI) that it loads
#: for every new window into a renderer of its own, headless too, where no one can open it. Each new page in a
#: context of its own paid some 0.3 s of CPU for it (0.03 s in a profile that keeps one), and on two cores a cold
#: load of the playground beside it drew its first heatmap 40 to 120 ms later (bench/page.py, three runs each way).
FEATURES_OFF = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")

DISABLE_FEATURES = "--disable-features="


def features_turned_off(arguments):
    """The features a Chromium started with the command line `arguments` turns off: its last `--disable-features`."""
    switches = [argument.removeprefix(DISABLE_FEATURES) for argument in arguments if argument.startswith(DISABLE_FEATURES)]
    return [feature for features in switches[-1:] for feature in features.split(",") if feature]


def playwrights_features_off(playwright):
    """The features Playwright turns off, read from a Chromium it starts (and closes) for the purpose."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=[*FLAGS, "--enable-automation"])
    try:
        return features_turned_off(browser.new_browser_cdp_session().send("Browser.getBrowserCommandLine")["arguments"])
    finally:
        browser.close()


@functools.cache
def flags(playwright):
    """FLAGS, and Playwright's features turned off with FEATURES_OFF, as one `--disable-features` (worked out once for
    each Playwright)."""
    features = dict.fromkeys([*playwrights_features_off(playwright), *FEATURES_OFF])
    return (*FLAGS, DISABLE_FEATURES + ",".join(features))
