/**
 * "Test a claim": the learner picks one of the tutorials' claims about why attention is built as it is, and
 * two models train side by side from one seed on the same data, one with the design choice and one without.
 * Both losses on one chart, what each model scores where the claim is measured, each model's heads as
 * cards, and the verdict, a sentence Python writes from the two measurements (model/claims.py). The form is
 * claim-form.js, what the two models show claim-results.js; this module puts them together under the store.
 *
 * Mounted under the trained model's panel (js/page/playground.js); the claims are asked for once that panel
 * is opened, so a page that never opens it never loads the model.
 */

import { make, makeButton, setText, withTestId } from "../shared/dom.js";
import { createClaimForm } from "./claim-form.js";
import { createClaimResults } from "./claim-results.js";
import { createRunStatus, seconds } from "../model/run-status.js";

/** What the status line says of a claim's test, which trains two models. */
const CLAIM_WORDS = {
  training: (claim, perStep) => `Step ${claim.step} of ${claim.steps} for each model · ` +
    `${seconds(perStep * (claim.steps - claim.step))} left`,
  finished: (claim) => `${claim.status === "done" ? "Both trained" : "Stopped at"} step ${claim.step} of ${claim.steps} in ` +
    `${seconds(claim.seconds)}${Number.isInteger(claim.seed) ? `, from seed ${claim.seed}` : ""}.`,
  failed: "The test could not run",
};

/**
 * The claim's statement and the way back to where the page makes it (panels/claims.js CLAIM_PLACES).
 * @returns {{elements: HTMLElement[], update: (claim: object|undefined) => void}} `claim`: the one the picker shows
 */
function createClaimStatement({ actions, picked }) {
  const statement = withTestId(make("p", "panel-note claim-statement"), "claim-statement");
  const place = make("p", "panel-note claim-place");
  const placeLink = makeButton("link-button", "", "claim-place");
  placeLink.addEventListener("click", () => actions.showClaimPlace(picked()));
  place.append(make("span", "", "Where the page shows it: "), placeLink);

  function update(claim) {
    setText(statement, claim ? `${claim.statement} (${claim.source})` : "");
    const placeWords = claim ? actions.claimPlace(claim.id) : null;
    place.hidden = !placeWords;
    setText(placeLink, placeWords ?? "");
  }

  return { elements: [statement, place], update };
}

/**
 * @param {HTMLElement} host
 * @param {{store: import("../../state/session.js").StoreView, when?: import("../../state/redraw-schedule.js").RedrawTiming, actions: {loadClaims: () => Promise<object[]>, testClaim: (id: string, options?: {steps?: number, seed?: number}) => Promise<object>,
 *   stopClaim: () => void, chooseClaim: (id: string, options?: {steps?: number|null}) => void,
 *   claimPlace: (id: string) => string|null, showClaimPlace: (id: string) => void}}} context
 */
export function mountClaimTest(host, { store, actions, when }) {
  const element = withTestId(make("section", "model-training claim-test"), "claim-test");
  element.setAttribute("aria-labelledby", "claim-test-title");
  element.hidden = true;
  const heading = make("h3", "", "Test a claim");
  heading.id = "claim-test-title";
  const note = make("p", "panel-note", "The tutorials say why attention is built as it is. Put a claim to the test: two models train here from the same seed on the same data, one with the design choice and one without, and both are measured on the repeated part of the same runs.");
  const form = createClaimForm({ store, actions });
  const statement = createClaimStatement({ actions, picked: form.picked });
  const runStatus = createRunStatus({ statusTestId: "claim-status" });
  const results = createClaimResults();
  // One run is one seed: the same claim from the next seed, one click away, says whether the verdict holds.
  const anotherSeed = makeButton("small-button", "", "claim-another-seed");
  anotherSeed.addEventListener("click", () => {
    const { claim } = store.state;
    actions.testClaim(claim.claim.id, { steps: claim.steps, seed: claim.seed + 1 }).catch(() => {}); // said in the status line
  });
  element.append(heading, note, form.form, ...statement.elements, runStatus.progress, runStatus.status, anotherSeed, ...results.elements);
  host.append(element);

  let asked = false;

  function render(state) {
    const { claim, model } = state;
    if (model?.open && !asked) {
      asked = true;
      actions.loadClaims().catch(() => {
        asked = false; // the next change tries again
      });
    }
    element.hidden = !claim.claims;
    if (!claim.claims) return;
    form.update(claim);
    const picked = claim.claims.find((entry) => entry.id === form.picked());
    statement.update(picked);
    runStatus.show(claim, CLAIM_WORDS);
    anotherSeed.hidden = !(claim.claim && Number.isInteger(claim.seed) && ["done", "stopped"].includes(claim.status));
    if (!anotherSeed.hidden) setText(anotherSeed, `Try another seed (${claim.seed + 1})`);
    results.update(claim, claim.claim ?? picked); // the results are the tested claim's
  }

  store.subscribe((state, changes) => {
    if (changes.has("claim") || changes.has("model") || changes.has("view")) render(state);
  }, when);
  render(store.state);
}
