/**
 * The form of "Test a claim": which claim, how many steps each model trains, Train both and Stop. The claims
 * are listed as Python sends them (state.claim.claims, from model/claims.py); the steps follow the claim chosen,
 * and the steps a link or saved work kept for it.
 */

import { make, makeButton, withTestId } from "../shared/dom.js";
import { isRunning } from "../model/run-status.js";

/**
 * @param {{store: object, actions: {testClaim: Function, stopClaim: Function, chooseClaim: Function}}} context
 * @returns {{form: HTMLFormElement, picked: () => string, update: (claim: object) => void}} `picked`: the id of
 *   the claim the picker shows
 */
export function createClaimForm({ store, actions }) {
  const form = make("form", "model-training-form");
  const field = make("label", "model-setting");
  const picker = withTestId(document.createElement("select"), "claim-picker");
  field.append(make("span", "", "claim"), picker);
  // Each claim comes with the steps that show it (model/claims.py); fewer make a quicker, weaker test.
  const stepsField = make("label", "model-setting");
  const stepsInput = withTestId(document.createElement("input"), "claim-steps");
  Object.assign(stepsInput, { type: "number", min: "1", step: "1" });
  stepsField.append(make("span", "", "steps for each model"), stepsInput);
  const claimShown = () => store.state.claim.claims?.find((entry) => entry.id === picker.value);
  // The steps the learner chose for this claim (a link and saved work keep them), else the claim's own.
  const fillSteps = () => {
    const chosen = claimShown();
    const { id, chosenSteps } = store.state.claim;
    if (chosen) stepsInput.value = String(id === chosen.id && chosenSteps ? chosenSteps : chosen.settings.steps);
  };
  const chosenSteps = () => {
    const steps = Number(stepsInput.value);
    return Number.isInteger(steps) && steps >= 1 && steps !== claimShown()?.settings.steps ? steps : null;
  };
  picker.addEventListener("change", () => actions.chooseClaim(picker.value)); // the claim's statement and steps follow
  stepsInput.addEventListener("change", () => actions.chooseClaim(picker.value, { steps: chosenSteps() }));
  const run = makeButton("primary-button", "Train both", "claim-run", "submit");
  const stop = makeButton("small-button", "Stop", "claim-stop");
  stop.addEventListener("click", () => actions.stopClaim());
  form.append(field, stepsField, run, stop);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const steps = stepsInput.value === "" ? undefined : Number(stepsInput.value);
    actions.testClaim(picker.value, { steps }).catch(() => {}); // a failure is shown in the status line
  });

  let listed = "";
  let filledFor = ""; // the claim (and kept steps) the steps field was last filled for

  /** List the claims (again only when they change), show the one chosen and its steps; a run locks all but Stop. */
  function update(claim) {
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
    const stepsFor = `${picker.value} ${claim.id === picker.value ? claim.chosenSteps ?? "" : ""}`;
    if (stepsFor !== filledFor) {
      fillSteps();
      filledFor = stepsFor;
    }
    const running = isRunning(claim);
    run.disabled = running;
    picker.disabled = running;
    stepsInput.disabled = running;
    stop.disabled = !running;
  }

  return { form, picked: () => picker.value, update };
}
