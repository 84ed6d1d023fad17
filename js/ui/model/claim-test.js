/**
 * "Test a claim": the learner picks one of the tutorials' claims about why attention is built as it is, and
 * two models train side by side from one seed on the same data, one with the design choice and one without.
 * Both losses on one chart, what each model scores where the claim is measured, each model's heads as
 * cards, and the verdict, a sentence Python writes from the two measurements (model/claims.py).
 *
 * Mounted under the trained model's panel (js/page/playground.js); the claims are asked for once that panel
 * is opened, so a page that never opens it never loads the model.
 */

import { make, setText } from "../shared/dom.js";
import { createClaimCurves } from "./claim-curves.js";
import { createHeadCards } from "./head-cards.js";

const seconds = (value) => (value < 10 ? `${value.toFixed(1)} s` : `${Math.round(value)} s`);
const percent = (value) => `${(value * 100).toFixed(0)}%`;

/**
 * @param {HTMLElement} host
 * @param {{store: object, actions: {loadClaims: () => Promise<object[]>, testClaim: (id: string) => Promise<object>,
 *   stopClaim: () => void, chooseClaim: (id: string, options?: {steps?: number|null}) => void,
 *   claimPlace: (id: string) => string|null, showClaimPlace: (id: string) => void}}} context
 */
export function mountClaimTest(host, { store, actions }) {
  const element = make("section", "model-training claim-test");
  element.dataset.testid = "claim-test";
  element.setAttribute("aria-labelledby", "claim-test-title");
  element.hidden = true;
  const heading = make("h3", "", "Test a claim");
  heading.id = "claim-test-title";
  const note = make("p", "panel-note", "The tutorials say why attention is built as it is. Put a claim to the test: two models train here from the same seed on the same data, one with the design choice and one without, and both are measured on the repeated part of the same runs.");
  const form = make("form", "model-training-form");
  const field = make("label", "model-setting");
  const picker = document.createElement("select");
  picker.dataset.testid = "claim-picker";
  field.append(make("span", "", "claim"), picker);
  // Each claim comes with the steps that show it (model/claims.py); fewer make a quicker, weaker test.
  const stepsField = make("label", "model-setting");
  const stepsInput = document.createElement("input");
  stepsInput.type = "number";
  stepsInput.min = "1";
  stepsInput.step = "1";
  stepsInput.dataset.testid = "claim-steps";
  stepsField.append(make("span", "", "steps for each model"), stepsInput);
  // The steps the learner chose for this claim (a link and saved work keep them), else the claim's own.
  const fillSteps = () => {
    const chosen = store.state.claim.claims?.find((entry) => entry.id === picker.value);
    const { id, chosenSteps } = store.state.claim;
    if (chosen) stepsInput.value = String(id === chosen.id && chosenSteps ? chosenSteps : chosen.settings.steps);
  };
  const chosenSteps = () => {
    const chosen = store.state.claim.claims?.find((entry) => entry.id === picker.value);
    const steps = Number(stepsInput.value);
    return Number.isInteger(steps) && steps >= 1 && steps !== chosen?.settings.steps ? steps : null;
  };
  picker.addEventListener("change", () => actions.chooseClaim(picker.value)); // the claim's statement and steps follow
  stepsInput.addEventListener("change", () => actions.chooseClaim(picker.value, { steps: chosenSteps() }));
  const run = make("button", "primary-button", "Train both");
  run.type = "submit";
  run.dataset.testid = "claim-run";
  const stop = make("button", "small-button", "Stop");
  stop.type = "button";
  stop.dataset.testid = "claim-stop";
  stop.addEventListener("click", () => actions.stopClaim());
  form.append(field, stepsField, run, stop);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const steps = stepsInput.value === "" ? undefined : Number(stepsInput.value);
    actions.testClaim(picker.value, { steps }).catch(() => {}); // a failure is shown in the status line
  });
  const statement = make("p", "panel-note claim-statement");
  statement.dataset.testid = "claim-statement";
  // The way back to where the page makes the claim (page/claims.js CLAIM_PLACES).
  const place = make("p", "panel-note claim-place");
  const placeLink = make("button", "link-button");
  placeLink.type = "button";
  placeLink.dataset.testid = "claim-place";
  placeLink.addEventListener("click", () => actions.showClaimPlace(picker.value));
  place.append(make("span", "", "Where the page shows it: "), placeLink);
  const progress = document.createElement("progress");
  progress.className = "model-progress";
  progress.max = 1;
  progress.value = 0;
  const status = make("p", "model-training-status");
  status.dataset.testid = "claim-status";
  status.setAttribute("aria-live", "polite");
  const curves = createClaimCurves();
  const scores = make("p", "model-metrics");
  scores.dataset.testid = "claim-scores";
  const verdict = make("p", "claim-verdict");
  verdict.dataset.testid = "claim-verdict";
  verdict.setAttribute("aria-live", "polite");
  const heads = make("div", "claim-heads");
  const sides = Object.fromEntries(["with", "without"].map((side) => {
    const box = make("div", "claim-side");
    box.dataset.testid = `claim-heads-${side}`;
    const title = make("h4", "");
    const cards = createHeadCards(); // to read: a claim's models are not the one the panel knocks heads out of
    box.append(title, cards.element);
    heads.append(box);
    return [side, { box, title, cards }];
  }));
  element.append(heading, note, form, statement, place, progress, status, curves.element, scores, verdict, heads);
  host.append(element);

  let asked = false;
  let listed = "";
  let filledFor = ""; // the claim (and kept steps) the steps field was last filled for

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
    const ids = claim.claims.map((entry) => entry.id).join(",");
    if (ids !== listed) {
      picker.replaceChildren(...claim.claims.map((entry) => {
        const option = document.createElement("option");
        option.value = entry.id;
        option.textContent = entry.title;
        return option;
      }));
      listed = ids;
      filledFor = "";
    }
    if (claim.id && picker.value !== claim.id && claim.claims.some((entry) => entry.id === claim.id)) {
      picker.value = claim.id; // chosen here, at the claim's place, by a link or by a course page's script
    }
    // The steps follow the claim chosen, and the steps a link or saved work kept for it.
    const stepsFor = `${picker.value} ${claim.id === picker.value ? claim.chosenSteps ?? "" : ""}`;
    if (stepsFor !== filledFor) {
      fillSteps();
      filledFor = stepsFor;
    }
    const picked = claim.claims.find((entry) => entry.id === picker.value);
    setText(statement, picked ? `${picked.statement} (${picked.source})` : "");
    const placeWords = picked ? actions.claimPlace(picked.id) : null;
    place.hidden = !placeWords;
    setText(placeLink, placeWords ?? "");
    const chosen = claim.claim ?? picked; // the results below are the tested claim's
    const running = claim.status === "starting" || claim.status === "training";
    run.disabled = running;
    picker.disabled = running;
    stepsInput.disabled = running;
    stop.disabled = !running;
    progress.hidden = claim.status === "idle";
    progress.value = claim.steps ? claim.step / claim.steps : 0;
    const perStep = claim.step ? claim.seconds / claim.step : 0;
    switch (claim.status) {
      case "starting":
        status.textContent = `Starting Python for training: ${claim.detail || "…"}`;
        break;
      case "training":
        status.textContent = `Step ${claim.step} of ${claim.steps} for each model · ` +
          `${seconds(perStep * (claim.steps - claim.step))} left`;
        break;
      case "done":
      case "stopped":
        status.textContent = `${claim.status === "done" ? "Both trained" : "Stopped at"} step ${claim.step} of ${claim.steps} in ${seconds(claim.seconds)}.`;
        break;
      case "failed":
        status.textContent = `The test could not run: ${claim.message}`;
        break;
      default:
        status.textContent = "";
    }
    status.classList.toggle("is-error", claim.status === "failed");
    const labels = chosen ? { with: chosen.with_label, without: chosen.without_label } : { with: "with", without: "without" };
    curves.element.toggleAttribute("hidden", claim.status === "idle"); // an SVG element has no .hidden
    curves.update({ losses: claim.losses, steps: claim.steps || 1, labels });
    const measured = claim.metrics && chosen;
    scores.hidden = !measured;
    if (measured) {
      const where = chosen.measured_with_mask ? "repeated part predicted, with the next word hidden" : "repeated part predicted";
      setText(scores, `${where}: ${labels.with} ${percent(claim.metrics.with.repeat_accuracy)} · ${labels.without} ${percent(claim.metrics.without.repeat_accuracy)}`);
    }
    verdict.hidden = !claim.verdict;
    setText(verdict, claim.verdict?.sentence ?? "");
    verdict.classList.toggle("shown", Boolean(claim.verdict?.shown));
    heads.hidden = !claim.heads;
    if (claim.heads) {
      for (const side of ["with", "without"]) {
        const { info, tokens, weights } = claim.heads[side];
        setText(sides[side].title, `The heads of the model ${labels[side]}`);
        sides[side].cards.update({ info, weights, tokens, knockedOut: [], chosen: { layer: -1, head: -1 }, training: false });
      }
    }
  }

  store.subscribe((state, changes) => {
    if (changes.has("claim") || changes.has("model") || changes.has("view")) render(state);
  });
  render(store.state);
}
