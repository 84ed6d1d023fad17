/**
 * The views that draw a scene and take its edits, mounted in one place for the page (page/playground.js) and the
 * notebook widget (notebook/widget.js), so that both draw alike: the heatmap with its keyboard and its weights
 * table, the attention bars under it, the mask controls, the feature table and the weight matrices.
 *
 * Each view gets the store and hears of its changes when the caller's timings say (state/redraw-schedule.js
 * SCENE_VIEW_TIMINGS): the heatmap and the controls at once; the editors a new result a task after the heatmap (the
 * learner's own edits at once); the weights table and the bars a task after the heatmap.
 */

import { createAttentionBars } from "./heatmap/attention-bars.js";
import { mountHeatmapPanel } from "./heatmap/heatmap-panel.js";
import { installHeatmapKeyboard } from "./heatmap/heatmap-keyboard.js";
import { mountWeightsTable } from "./heatmap/weights-table.js";
import { mountFeatureTable } from "./grids/feature-table.js";
import { installGridKeyboard } from "./grids/grid-keyboard.js";
import { mountWeightMatrices } from "./grids/weight-matrices.js";
import { mountMaskControls } from "./toolbar/mask-controls.js";
import { markShown } from "./shared/dom.js";

/** The changes the bars redraw for: what they show (the result, the focused row, the head) and how (the mode). */
const BARS_CHANGES = ["result", "focus", "head", "mode", "scene"];

/**
 * Mount the scene's views into their panels.
 * @param {(name: string) => HTMLElement} panel the element of the panel `name` (layout/panels.js's names)
 * @param {object} context
 * @param {HTMLElement} context.root the playground's element: its grids' arrow keys work inside it
 * @param {import("../state/session.js").StoreView} context.store the page's (or the widget's) store
 * @param {{editors: import("../state/redraw-schedule.js").RedrawTiming,
 *   belowHeatmap: import("../state/redraw-schedule.js").RedrawTiming}} context.when when the editors, and the views
 *   below the heatmap, hear of the store's changes
 * @param {object} context.actions the views' actions (edit, focus, hover, setView, …)
 * @returns {{heatmap: ReturnType<typeof mountHeatmapPanel>}} the heatmap (its picture is what the downloads draw)
 */
export function mountSceneViews(panel, { root, store, actions, when }) {
  const bars = createAttentionBars(panel("bars"));
  const heatmap = mountHeatmapPanel(panel("heatmap"), { store, actions });
  mountMaskControls(panel("controls"), { store, actions });
  mountFeatureTable(panel("features"), { store, actions, when: when.editors });
  mountWeightMatrices(panel("weights"), { store, actions, when: when.editors });
  mountWeightsTable(panel("heatmap"), { store, actions, when: when.belowHeatmap });
  installGridKeyboard(root);
  installHeatmapKeyboard(heatmap.area, { store, actions });
  store.subscribe((state, changes) => {
    if (!BARS_CHANGES.some((part) => changes.has(part))) return;
    const { result, draft } = state;
    if (result) {
      const shownHead = Math.min(state.activeHead, result.heads.length - 1);
      const head = result.heads[shownHead];
      markShown(panel("bars"), { head: shownHead, row: state.focusToken }); // for a lesson's held rows
      bars.update({ tokens: result.tokens, head, mask: result.mask, focusRow: state.focusToken, headCount: result.heads.length, drawnWith: result.drawn_with ?? null });
    } else if (draft) {
      bars.update({ tokens: draft.tokens, pending: true, focusRow: state.focusToken });
    }
  }, when.belowHeatmap);
  return { heatmap };
}
