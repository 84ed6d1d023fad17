"""Each claim is tied to its place in the page: the place links to the claim's test ("Test this claim by training")
and the test links back; a link, the JS API and postMessage can open a claim, and a link can start its pair."""

import base64
import json
import zlib

from playwright.sync_api import expect

from attention_playground.model import train
from attention_playground.model.claims import CLAIMS, judge, measure, pair_configs
from page_helpers import POLL_EVERY_MS, await_ready, copy_link, open_live, preset_scene, scene_link_hash, sel, type_into, wait_live

#: Steps of the pair a link starts here: a few, so the test is quick (the claims are shown at their own
#: settings in tests/native/test_model_claims.py).
STEPS = 4

#: Where each place's link is: what opens it first (a tab or a switch, or nothing for the controls on top).
PLACES = [
    ("mask", None),
    ("scale", None),
    ("scale", "step-toggle"),
    ("scale", "experiment-tab-scaling"),
    ("positions", "experiment-tab-order"),
    ("separate-qk", "experiment-tab-one-thing"),
]

IN_VIEW = "(element) => { const box = element.getBoundingClientRect(); return box.bottom > 0 && box.top < innerHeight; }"


def claim_link(page, claim, opener):
    """The place's link to `claim`'s test, once what holds it is open."""
    if opener == "step-toggle":
        page.locator(sel(opener)).check()
        return page.locator(f'{sel("step-view")} {sel("claim-link", claim=claim)}')
    if opener:
        page.locator(sel(opener)).click()
        return page.locator(f'{sel(opener.replace("experiment-tab-", "experiment-"))} {sel("claim-link", claim=claim)}')
    return page.locator(f'[data-panel="controls"] {sel("claim-link", claim=claim)}')


def test_every_claim_has_a_place_that_links_to_its_test_and_the_test_links_back(live_page):
    page = live_page
    page.locator(sel("step-toggle")).check()
    linked = set(page.locator(sel("claim-link")).evaluate_all("links => links.map((link) => link.dataset.claim)"))
    assert linked == set(CLAIMS)  # every claim has a place, and every place names a claim the module tests
    page.locator(sel("step-toggle")).uncheck()
    for claim, opener in PLACES:
        link = claim_link(page, claim, opener)
        expect(link).to_be_visible()
        link.click()
        test = page.locator(sel("claim-test"))
        expect(page.locator(sel("claim-picker"))).to_have_value(claim, timeout=60_000)
        page.wait_for_function("() => document.activeElement?.id === 'claim-test-title'", timeout=10_000)
        assert test.evaluate(IN_VIEW), claim
        expect(page.locator(sel("claim-statement"))).to_contain_text(CLAIMS[claim].statement)
        assert page.locator(sel("claim-steps")).input_value() == str(CLAIMS[claim].settings["steps"])
        # ...and back to where the page makes the claim.
        back = page.locator(sel("claim-place"))
        expect(back).to_be_visible()
        back.click()
        if claim == "mask":
            page.wait_for_function("() => document.activeElement?.dataset.testid === 'mask-causal'", timeout=10_000)
        else:
            tab = {"scale": "scaling", "positions": "order", "separate-qk": "one-thing"}[claim]
            expect(page.locator(sel(f"experiment-tab-{tab}"))).to_have_attribute("aria-selected", "true")
            expect(page.locator(sel(f"experiment-{tab}"))).to_be_visible()
            page.wait_for_function("() => document.activeElement?.closest('[data-panel=\"experiments\"]')", timeout=10_000)
            assert page.locator('[data-panel="experiments"] h2').evaluate(IN_VIEW), claim
        if opener == "step-toggle":
            page.locator(sel(opener)).uncheck()


def test_a_link_opens_a_claim_and_can_start_its_pair_with_the_native_numbers(live_page):
    page = live_page
    scene = preset_scene("it-animal-noun")
    home = {"scene": scene, "preset": "it-animal-noun", "edited": False, "view": {"focus": None, "head": 0}}
    # A link that only chooses a claim (with fewer steps) chooses it and trains nothing.
    chosen = {**home, "view": {**home["view"], "claim": {"id": "mask", "steps": 7}}}
    page.evaluate("(hash) => { location.hash = hash; }", scene_link_hash(chosen))
    expect(page.locator(sel("claim-picker"))).to_have_value("mask", timeout=60_000)
    expect(page.locator(sel("claim-steps"))).to_have_value("7")
    expect(page.locator(sel("claim-status"))).to_be_empty()
    # A link that starts its pair: the test comes into view and trains, and gives the native run's verdict.
    started = {**home, "view": {**home["view"], "claim": {"id": "positions", "steps": STEPS, "start": True}}}
    page.evaluate("(hash) => { location.hash = hash; }", scene_link_hash(started))
    expect(page.locator(sel("claim-picker"))).to_have_value("positions", timeout=60_000)
    verdict = page.locator(sel("claim-verdict"))
    expect(verdict).to_be_visible(timeout=120_000)
    claim = CLAIMS["positions"]
    with_config, without_config = pair_configs(claim, seed=1, steps=STEPS)
    native = judge(claim, measure(claim, train(with_config)), measure(claim, train(without_config)))
    expect(verdict).to_have_text(native.sentence)
    expect(page.locator(sel("claim-status"))).to_contain_text(f"Both trained step {STEPS} of {STEPS}")
    assert page.locator(sel("claim-test")).evaluate(IN_VIEW)
    # The page keeps the claim chosen, not the start: its own link starts nothing unless the author asks.
    kept = decoded_view(copy_link(page))
    assert kept["claim"] == {"id": "positions", "steps": STEPS, "seed": None}
    page.locator(sel("link-starts-claim")).check()
    asked = decoded_view(copy_link(page))
    assert asked["claim"] == {"id": "positions", "steps": STEPS, "seed": None, "start": True}
    page.locator(sel("link-starts-claim")).uncheck()


def test_a_claim_chosen_last_with_its_steps_is_kept_by_saved_work_and_back_after_a_reload(page, site_url):
    """The test's one state is state.claim: saved work makes its part from it (no copy in the page's view)."""
    open_live(page, f"{site_url}/")
    type_into(page, page.locator(sel("wq-cell", row=2, column=1)), "3")  # the learner's own edits are saved
    claim_link(page, "mask", None).click()
    expect(page.locator(sel("claim-picker"))).to_have_value("mask", timeout=60_000)
    page.locator(sel("claim-picker")).select_option("separate-qk")
    steps = page.locator(sel("claim-steps"))
    steps.fill("9")
    steps.dispatch_event("change")
    expect(page.locator(sel("save-text"))).to_have_text("✓ Your edits, saved in this browser.")
    page.reload()
    wait_live(page)
    page.locator(sel("model-open")).click()  # the test is under the model's panel
    expect(page.locator(sel("claim-picker"))).to_have_value("separate-qk", timeout=60_000)
    expect(page.locator(sel("claim-steps"))).to_have_value("9")
    assert decoded_view(copy_link(page))["claim"] == {"id": "separate-qk", "steps": 9, "seed": None}


def test_a_course_page_opens_a_claim_by_the_api_and_an_unknown_one_is_refused(live_page):
    page = live_page
    entry = page.evaluate("window.attentionPlayground.model.openClaim('separate-qk')")
    assert entry["id"] == "separate-qk" and entry["statement"] == CLAIMS["separate-qk"].statement
    expect(page.locator(sel("claim-picker"))).to_have_value("separate-qk")
    page.wait_for_function("() => document.activeElement?.id === 'claim-test-title'", timeout=10_000)
    problem = page.evaluate("window.attentionPlayground.model.openClaim('magic').then(() => null, (error) => error.message)")
    assert "magic" in problem and "positions" in problem
    expect(page.locator(sel("notice"))).to_contain_text("magic")
    expect(page.locator(sel("claim-picker"))).to_have_value("separate-qk")


def decoded_view(link):
    """The view a `#s=4.<data>` link holds (raw deflate, base64url, as js/sharing/permalink.js writes it)."""
    data = link.split("#s=4.", 1)[1]
    raw = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    return json.loads(zlib.decompress(raw, -15))["view"]


# A course page's request to a frame, and the frame's reply (js/embed/post-message-api.js).
ASK_FRAME = """([frameId, message]) => new Promise((resolve) => {
  const frame = document.getElementById(frameId);
  const listener = (event) => {
    if (event.source !== frame.contentWindow || event.data?.type !== "attention-playground:reply" || event.data.id !== message.id) return;
    window.removeEventListener("message", listener);
    resolve(event.data);
  };
  window.addEventListener("message", listener);
  frame.contentWindow.postMessage(message, "*");
})"""


def test_a_course_pages_frame_opens_a_claim_by_post_message_and_a_frame_without_the_model_offers_none(page, site_url):
    page.goto(f"{site_url}/tests/browser/harness.html")
    page.evaluate("""() => {
      for (const [id, panels] of [["with-model", "heatmap,controls,model"], ["without-model", "heatmap,controls"]]) {
        const frame = document.createElement("iframe");
        frame.id = id;
        frame.width = "900";
        frame.height = "700";
        frame.src = `index.html?embed&panels=${panels}#preset=dog-bites-man`;
        document.body.append(frame);
      }
    }""")
    frames = {}
    for frame_id in ("with-model", "without-model"):
        frame = page.locator(f"#{frame_id}").element_handle().content_frame()
        frame.wait_for_function("() => window.attentionPlayground !== undefined", polling=POLL_EVERY_MS)
        await_ready(frame)
        frames[frame_id] = frame
    # The mask's and ÷√d's links show only where the model's panel (and so the test) is on the page.
    expect(frames["with-model"].locator(sel("claim-link", claim="mask"))).to_be_visible()
    # ÷√d's is offered in three places (the switch, the worked steps, the experiment): none of them shows.
    for claim in ("mask", "scale"):
        links = frames["without-model"].locator(sel("claim-link", claim=claim))
        expect(links.first).to_be_attached()
        for link in links.all():
            expect(link).to_be_hidden()
    reply = page.evaluate(ASK_FRAME, ["with-model", {"type": "attention-playground:request", "id": "open-1",
                                                     "method": "modelOpenClaim", "params": {"claim": "positions"}}])
    assert reply["ok"] is True and reply["result"]["id"] == "positions"
    assert reply["result"]["settings"]["steps"] == CLAIMS["positions"].settings["steps"]
    expect(frames["with-model"].locator(sel("claim-picker"))).to_have_value("positions")
    reply = page.evaluate(ASK_FRAME, ["with-model", {"type": "attention-playground:request", "id": "open-2",
                                                     "method": "modelOpenClaim", "params": {"claim": "magic"}}])
    assert reply["ok"] is False and "magic" in reply["error"]["message"] and "separate-qk" in reply["error"]["message"]
