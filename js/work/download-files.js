/**
 * What each download holds and what it is called (downloads.js offers them): the heatmap as SVG or PNG, the
 * weights of the head on screen as CSV, the scene as JSON; sharing/export.js makes the files. Loaded on the first
 * download.
 */

import { sceneFromDraft } from "../scene/draft.js";
import { downloadBlob, fileStem, heatmapPicture, pngFromSvg, sceneJson, weightsCsv } from "../sharing/export.js";

/** The head whose weights and heatmap are on screen, or null before the first result. */
function headOnScreen(state) {
  const { result } = state;
  return result ? result.heads[Math.min(state.activeHead, result.heads.length - 1)] : null;
}

/** The file's name without its extension: the scene's title, and the head's name when there are several. */
function stem(state, withHead) {
  const title = fileStem(state.result?.title ?? state.draft?.title);
  const heads = state.result?.heads ?? [];
  return withHead && heads.length > 1 ? `${title}-${fileStem(headOnScreen(state).name)}` : title;
}

/**
 * Make the file of `kind` from the state and hand it to the browser.
 * @param {object} state the store's state
 * @param {string} kind "svg", "png", "csv" or "json"
 * @param {() => {heatmap: SVGSVGElement, legend: SVGSVGElement}} picture the heatmap and its legend as drawn now
 *   (read for "svg" and "png" only)
 */
export async function downloadFile(state, kind, picture) {
  if (kind === "json") {
    downloadBlob(new Blob([sceneJson(sceneFromDraft(state.draft))], { type: "application/json" }), `${stem(state, false)}.json`);
    return;
  }
  const head = headOnScreen(state);
  if (kind === "csv") {
    downloadBlob(new Blob([weightsCsv(state.result.tokens, head.weights)], { type: "text/csv" }), `${stem(state, true)}-weights.csv`);
    return;
  }
  const title = `Attention weights: ${state.result.title ?? ""}${state.result.heads.length > 1 ? ` (${head.name})` : ""}`;
  const { text, width, height } = heatmapPicture({ ...picture(), title });
  if (kind === "svg") {
    downloadBlob(new Blob([text], { type: "image/svg+xml" }), `${stem(state, true)}-heatmap.svg`);
    return;
  }
  const png = await pngFromSvg(text, width, height);
  downloadBlob(png, `${stem(state, true)}-heatmap.png`);
}
