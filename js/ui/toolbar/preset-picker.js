/**
 * The example picker: every preset the module ships (their titles from the first view, the whole list with
 * descriptions once Python is live, each scene when it is picked), and a button that restores the chosen example
 * after edits.
 */

import { make, setPropertyIfChanged } from "../shared/dom.js";

const OWN_SCENE = "";

/**
 * Mount the picker in `host`.
 * @param {HTMLElement} host
 * @param {{store: import("../../state/session.js").StoreView, actions: object}} context
 */
export function mountPresetPicker(host, { store, actions }) {
  const label = make("label", "picker-label", "Example");
  label.htmlFor = "preset-picker";
  const select = make("select", "preset-picker");
  select.id = "preset-picker";
  select.dataset.testid = "preset-picker";
  const reset = make("button", "link-button", "reset to example");
  reset.type = "button";
  reset.dataset.testid = "preset-reset";
  reset.title = "Put the example back as it was";
  const description = make("p", "preset-description");
  description.dataset.testid = "preset-description";
  const row = make("div", "picker-row");
  row.append(label, select, reset);
  host.append(row, description);

  select.addEventListener("change", () => {
    // Whether it opens or not, the picker then shows the example on the page (the one before, if it failed).
    if (select.value !== OWN_SCENE) actions.pickPreset(select.value).finally(() => render(store.state));
  });
  reset.addEventListener("click", () => {
    if (store.state.presetId) actions.resetToPreset(store.state.presetId); // the edits are kept aside, not lost
  });

  /** The options as [value, title] pairs, as JSON: what is on screen, so that it is rebuilt only when it changes. */
  let optionsShown = null;

  function render(state) {
    const presets = state.presets ?? [];
    const known = presets.some((preset) => preset.id === state.presetId);
    const choices = presets.map((preset) => [preset.id, preset.title]);
    if (state.presetId && !known) {
      // The list has not arrived yet: show the example on screen by its scene's title.
      choices.unshift([state.presetId, state.draft?.title ?? state.presetId]);
    }
    if (!state.presetId) choices.unshift([OWN_SCENE, "— your own scene —"]);
    // Every scene a course page's script shows comes here: a stream of them must not rebuild the list each time.
    const key = JSON.stringify(choices);
    if (key !== optionsShown) {
      select.replaceChildren(...choices.map(([value, title]) => {
        const option = make("option", "", title);
        option.value = value;
        return option;
      }));
      optionsShown = key;
    }
    setPropertyIfChanged(select, "value", state.presetId ?? OWN_SCENE);
    // Another example can only be drawn by Python: until it is live the preview stays the only one.
    setPropertyIfChanged(select, "disabled", !state.boot.live);
    select.title = state.boot.live ? "" : "The other examples become available as soon as Python is live.";
    reset.hidden = !state.presetId || !state.edited;
    // The example's own description until the list arrives, so the line is there from the first view. Once the
    // scene has a title of its own (the learner typed their own sentence), the example's description speaks of
    // other words: the line says where the scene came from instead.
    const listed = presets.find((preset) => preset.id === state.presetId);
    const retitled = Boolean(listed && state.draft && state.draft.title !== listed.title);
    description.dataset.own = String(retitled);
    // A title that brings its own quotes ("it" looks for …) is not quoted again.
    const named = /["“”]/.test(listed?.title ?? "") ? listed.title : `“${listed?.title}”`;
    if (retitled) description.textContent = `Started from the example ${named}; its description was about its own words.`;
    // (Until the whole list comes, an example listed by its title alone has its scene's description.)
    else description.textContent = (listed?.description ?? (state.presetId && state.draft?.extra?.description)) || "";
  }

  store.subscribe((state, changes) => {
    if (["presets", "example", "boot", "scene"].some((part) => changes.has(part))) render(state);
  });
}
