/**
 * Download and open: the heatmap as SVG or PNG, the weights of the head on screen as CSV, the scene
 * as JSON; and "Open scene file…", or a scene file dropped anywhere on the page.
 *
 * The buttons are there from the first view; the code that makes the files (sharing/export.js) loads on the
 * first download, so it does not compete with Python's download.
 */

import { sceneFromDraft } from "../../scene/draft.js";
import { make } from "../shared/dom.js";

/**
 * Mount the buttons in `host`.
 * @param {HTMLElement} host
 * @param {object} context
 * @param {ReturnType<import("../../page/state.js").createStore>} context.store
 * @param {{openFile: (file: File) => Promise<boolean>, notify: Function}} context.actions
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
    button.addEventListener("click", () => download(kind));
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

  // A file dragged over the page: the whole page is the drop target.
  let depth = 0;
  const carriesFiles = (event) => Array.from(event.dataTransfer?.types ?? []).includes("Files");
  document.addEventListener("dragenter", (event) => {
    if (!carriesFiles(event)) return;
    depth += 1;
    document.body.classList.add("dropping-file");
  });
  document.addEventListener("dragleave", (event) => {
    if (!carriesFiles(event)) return;
    depth = Math.max(0, depth - 1);
    if (depth === 0) document.body.classList.remove("dropping-file");
  });
  document.addEventListener("dragover", (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
  });
  document.addEventListener("drop", (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    depth = 0;
    document.body.classList.remove("dropping-file");
    const [file] = event.dataTransfer.files;
    if (file) actions.openFile(file);
  });

  function headOnScreen(state) {
    const { result } = state;
    return result ? result.heads[Math.min(state.activeHead, result.heads.length - 1)] : null;
  }

  function stem(state, withHead, fileStem) {
    const title = fileStem(state.result?.title ?? state.draft?.title);
    const heads = state.result?.heads ?? [];
    return withHead && heads.length > 1 ? `${title}-${fileStem(headOnScreen(state).name)}` : title;
  }

  async function download(kind) {
    try {
      const { downloadBlob, fileStem, heatmapPicture, pngFromSvg, sceneJson, weightsCsv } = await import("../../sharing/export.js");
      const { state } = store;
      if (kind === "json") {
        downloadBlob(new Blob([sceneJson(sceneFromDraft(state.draft))], { type: "application/json" }), `${stem(state, false, fileStem)}.json`);
        return;
      }
      const head = headOnScreen(state);
      if (kind === "csv") {
        downloadBlob(new Blob([weightsCsv(state.result.tokens, head.weights)], { type: "text/csv" }), `${stem(state, true, fileStem)}-weights.csv`);
        return;
      }
      const title = `Attention weights: ${state.result.title ?? ""}${state.result.heads.length > 1 ? ` (${head.name})` : ""}`;
      const { text, width, height } = heatmapPicture({ ...picture(), title });
      if (kind === "svg") {
        downloadBlob(new Blob([text], { type: "image/svg+xml" }), `${stem(state, true, fileStem)}-heatmap.svg`);
        return;
      }
      const png = await pngFromSvg(text, width, height);
      downloadBlob(png, `${stem(state, true, fileStem)}-heatmap.png`);
    } catch (error) {
      actions.notify(`The download could not be made: ${error.message}`, { tone: "error" });
    }
  }

  function render(state) {
    // Pictures and weights exist once there is a result; the scene as soon as there is a draft.
    for (const kind of ["svg", "png", "csv"]) buttons[kind].disabled = !state.result;
    buttons.json.disabled = !state.draft;
  }
  store.subscribe((state, changes) => {
    if (changes.has("result") || changes.has("scene")) render(state);
  });
  render(store.state);
}
