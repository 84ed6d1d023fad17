/**
 * The downloads the toolbar offers: the heatmap as SVG or PNG, the weights of the head on screen as CSV, the
 * scene as JSON. What each file holds and what it is called is decided in download-files.js, and sharing/export.js
 * makes the files: that code loads on the first download, so it is no part of the first view.
 */

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
 * The controller's download actions.
 * @param {object} options
 * @param {ReturnType<import("../state/session.js").createStore>} options.store
 * @param {(text: string, options?: object) => void} options.notify says a failure on the notice bar
 */
export function downloadActions({ store, notify }) {
  return {
    /** Whether the toolbar's download of `kind` ("svg", "png", "csv", "json") can be made now. */
    canDownload: (kind) => canDownload(store.state, kind),
    /** Download what is on screen as a file of `kind`; `picture` gives the heatmap and its legend as drawn now. */
    async download(kind, picture) {
      try {
        await (await import("./download-files.js")).downloadFile(store.state, kind, picture);
      } catch (error) {
        notify(`The download could not be made: ${error.message}`, { tone: "error" });
      }
    },
  };
}
