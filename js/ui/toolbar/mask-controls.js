/**
 * The switches that change how scores become weights: the mask (none, causal, or custom cells
 * clicked on the grid), dividing by √d_k, and subtracting each row's largest score before the
 * softmax (turn it off to see the overflow trap).
 */

import { make, setPropertyIfChanged } from "../shared/dom.js";
import { markEdit } from "../grids/grid-input.js";
import { mountClaimLink } from "../shared/claim-link.js";

const MASK_MODES = [
  ["none", "none", "every token reads every token"],
  ["causal", "causal", "no token reads a later one"],
  ["custom", "custom", "click cells of the grid to forbid them"],
];

/**
 * Mount the controls in `host`.
 * @param {HTMLElement} host
 * @param {{store: import("../../state/session.js").StoreView, actions: object}} context
 */
export function mountMaskControls(host, { store, actions }) {
  const maskGroup = make("fieldset", "control-group");
  maskGroup.append(make("legend", "", "Mask"));
  const radios = MASK_MODES.map(([value, label, hint]) => {
    const wrap = make("label", "choice");
    const radio = make("input");
    radio.type = "radio";
    radio.name = "mask-mode";
    radio.value = value;
    radio.dataset.testid = `mask-${value}`;
    markEdit(radio, "mask-mode");
    wrap.title = hint;
    wrap.append(radio, make("span", "", label));
    maskGroup.append(wrap);
    return radio;
  });
  maskGroup.addEventListener("change", (event) => {
    if (event.target.name === "mask-mode") actions.edit({ kind: "mask-mode", mode: event.target.value });
  });

  const toggles = make("fieldset", "control-group");
  toggles.append(make("legend", "", "Softmax"));
  const scale = toggle("scale-toggle", "scale", "divide scores by √d", "k");
  const shift = toggle("shift-toggle", "shift", "subtract each row’s max", "");
  scale.input.addEventListener("change", () => actions.edit({ kind: "scale", on: scale.input.checked }));
  shift.input.addEventListener("change", () => actions.edit({ kind: "shift", on: shift.input.checked }));
  toggles.append(scale.label, shift.label);
  host.append(maskGroup, toggles);
  // Each switch's claim, put to a causal test under the trained model (panels/claims.js).
  mountClaimLink(maskGroup, { store, actions, claim: "mask", text: "test by training",
    about: "the causal mask is what makes a model autoregressive" });
  mountClaimLink(toggles, { store, actions, claim: "scale", text: "test by training",
    about: "without ÷√d the softmax saturates and learning weakens" });

  function toggle(testId, edit, text, subscript) {
    const label = make("label", "choice");
    const input = make("input");
    input.type = "checkbox";
    input.dataset.testid = testId;
    markEdit(input, edit);
    const caption = make("span", "", text);
    if (subscript) caption.append(make("sub", "", subscript));
    label.append(input, caption);
    return { label, input };
  }

  store.subscribe((state, changes) => {
    if (!state.draft || !(changes.has("mode") || changes.has("scene"))) return;
    const mode = Array.isArray(state.draft.mask) ? "custom" : state.draft.mask ?? "none";
    for (const radio of radios) setPropertyIfChanged(radio, "checked", radio.value === mode);
    setPropertyIfChanged(scale.input, "checked", state.draft.scale !== false);
    setPropertyIfChanged(shift.input, "checked", state.draft.shift !== false);
  });
}
