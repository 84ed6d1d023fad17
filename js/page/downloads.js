/**
 * The downloads the toolbar offers: the heatmap as SVG or PNG, the weights of the head on screen as CSV, the
 * scene as JSON. The page decides what each file holds and what it is called; sharing/export.js makes the
 * files. That code loads on the first download, so it does not compete with Python's download.
 */

import { sceneFromDraft } from "../scene/draft.js";

/** The head whose weights and heatmap are on screen, or null before the first result. */
function headOnScreen(state) {
  const { result } = state;
  return result ? result.heads[Math.min(state.activeHead, result.heads.length - 1)] : null;
}

/** The file's name without its extension: the scene's title, and the head's name when there are several. */
function stem(state, withHead, fileStem) {
  const title = fileStem(state.result?.title ?? state.draft?.title);
  const heads = state.result?.heads ?? [];
  return withHead && heads.length > 1 ? `${title}-${fileStem(headOnScreen(state).name)}` : title;
}

/**
 * Whether a file of `kind` can be made now: pictures and weights once there is a result, the scene as soon
 * as there is a draft.
 * @param {object} state the store's state
 * @param {string} kind "svg", "png", "csv" or "json"
 */
function canDownload(state, kind) {
  return kind === "json" ? Boolean(state.draft) : Boolean(state.result);
}

/**
 * Make the file of `kind` from the state and hand it to the browser.
 * @param {object} state the store's state
 * @param {string} kind "svg", "png", "csv" or "json"
 * @param {() => {heatmap: SVGSVGElement, legend: SVGSVGElement}} picture the heatmap and its legend as drawn now
 *   (read for "svg" and "png" only)
 */
async function downloadFile(state, kind, picture) {
  const { downloadBlob, fileStem, heatmapPicture, pngFromSvg, sceneJson, weightsCsv } = await import("../sharing/export.js");
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
}

/**
 * The controller's download actions.
 * @param {object} options
 * @param {ReturnType<import("./state.js").createStore>} options.store
 * @param {(text: string, options?: object) => void} options.notify says a failure on the notice bar
 */
export function downloadActions({ store, notify }) {
  return {
    /** Whether the toolbar's download of `kind` ("svg", "png", "csv", "json") can be made now. */
    canDownload: (kind) => canDownload(store.state, kind),
    /** Download what is on screen as a file of `kind`; `picture` gives the heatmap and its legend as drawn now. */
    async download(kind, picture) {
      try {
        await downloadFile(store.state, kind, picture);
      } catch (error) {
        notify(`The download could not be made: ${error.message}`, { tone: "error" });
      }
    },
  };
}
