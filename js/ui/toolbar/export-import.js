/**
 * Download and open: the heatmap as SVG or PNG, the weights of the head on screen as CSV, the scene
 * as JSON; and "Open scene file…" (a scene file dropped anywhere on the page: scene-file-drop.js).
 *
 * The buttons fold away under "Share and download" (their code loads when it is first opened); the controller
 * makes the files (work/downloads.js), and this view only draws the buttons.
 */

import { make } from "../shared/dom.js";

/**
 * Mount the buttons in `host`.
 * @param {HTMLElement} host
 * @param {object} context
 * @param {import("../../state/session.js").StoreView} context.store
 * @param {{download: (kind: string, picture: Function) => Promise<void>, canDownload: (kind: string) => boolean,
 *          openFile: (file: File) => Promise<boolean>}} context.actions
 * @param {() => {heatmap: SVGSVGElement, legend: SVGSVGElement}} context.picture the heatmap and its legend as drawn now
 */
export function mountExportImport(host, { store, actions, picture }) {
  const group = make("div", "share-group");
  const label = make("span", "share-label", "Download");
  group.append(label);
  const buttons = {};
  for (const [kind, text, title] of [
    ["svg", "SVG", "The heatmap as a picture that scales (for slides and documents)"],
    ["png", "PNG", "The heatmap as an image"],
    ["csv", "CSV", "The weights of the head on screen, as a table"],
    ["json", "scene JSON", "The scene, to open here again or to edit by hand"],
  ]) {
    const button = make("button", "tool-button small", text);
    button.type = "button";
    button.title = title;
    button.dataset.testid = `download-${kind}`;
    button.addEventListener("click", () => actions.download(kind, picture));
    buttons[kind] = button;
    group.append(button);
  }

  const openButton = make("button", "tool-button", "Open scene file…");
  openButton.type = "button";
  openButton.dataset.testid = "open-scene-file";
  openButton.title = "Open a scene saved as JSON (or drop the file anywhere on the page)";
  const picker = make("input");
  picker.type = "file";
  picker.accept = ".json,application/json";
  picker.hidden = true;
  picker.dataset.testid = "scene-file-input";
  group.append(openButton, picker);
  host.append(group);

  openButton.addEventListener("click", () => picker.click());
  picker.addEventListener("change", () => {
    const [file] = picker.files;
    picker.value = ""; // the same file can be chosen again after fixing it
    if (file) actions.openFile(file);
  });

  function render() {
    for (const [kind, button] of Object.entries(buttons)) button.disabled = !actions.canDownload(kind);
  }
  store.subscribe((_state, changes) => {
    if (changes.has("result") || changes.has("scene")) render();
  });
  render();
}
