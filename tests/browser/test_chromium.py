"""How the tests and the benchmarks start Chromium (sitebuild/chromium.py): the features it turns off are added to
Playwright's own, which stay off (a frame of another site must still be refused storage, for one)."""

from sitebuild import chromium


def test_the_features_turned_off_are_playwrights_and_ours(playwright_driver):
    flags = chromium.flags(playwright_driver)
    assert sum(flag.startswith(chromium.DISABLE_FEATURES) for flag in flags) == 1, flags

    browser = playwright_driver.chromium.launch(executable_path=chromium.CHROMIUM, args=[*flags, "--enable-automation"])
    try:
        arguments = browser.new_browser_cdp_session().send("Browser.getBrowserCommandLine")["arguments"]
    finally:
        browser.close()

    playwrights = set(chromium.playwrights_features_off(playwright_driver))
    assert "ThirdPartyStoragePartitioning" in playwrights  # what test_frame_that_cannot_save relies on
    assert playwrights | set(chromium.FEATURES_OFF) <= set(chromium.features_turned_off(arguments))
