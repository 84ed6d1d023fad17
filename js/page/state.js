/**
 * The page's one state object, and the subscribers that redraw from it.
 *
 * Views never talk to each other: they read the state, and they change it through `update`, which
 * tells every subscriber which parts changed so that each redraws only what it shows.
 *
 * Parts (the change names passed to subscribers):
 *   "scene"   the draft changed other than by typing into one input (a preset, setScene, the preview,
 *             a typed sentence): editors put the whole draft back on screen
 *   "shape"   tokens, features, heads or dims were added or removed: grids rebuild
 *   "labels"  a token, feature or dim was renamed
 *   "values"  a number cell changed
 *   "mode"    mask, scaling or shift changed
 *   "result"  a new good result arrived
 *   "error"   the current error changed
 *   "focus"   the focused token changed
 *   "hover"   the heatmap cell under the pointer changed
 *   "head"    the head being edited changed
 *   "boot"    Python's boot progressed
 *   "presets" the preset list arrived, the chosen preset changed, or the draft was first edited
 *   "notice"  a message about the learner's work (a link, a file, kept edits) appeared or went (controller.js)
 *   "saved"   whether the edits are saved in this browser changed (sharing/saved-work.js)
 *   "view"    which panels show or are open, or which tab is chosen, changed (view.js)
 *   "learner" drawing the heatmap with the learner's own function started, stopped or said something
 *             (learner-drawing.js)
 *   "reveal"  the page should take the learner to a place (`state.reveal`): what just changed is there, or a
 *             link opens there (playground.js scrolls)
 *   "model"   the trained model's panel changed (`state.model`, page/model.js); "training" a training run
 *             progressed (`state.training`); "claim" "Test a claim" changed (`state.claim`, page/claims.js)
 *   "experiments" an experiment on the scene (the shuffle, the knock-out) started, ended or was cleared
 *             (`state.experiments`, page/experiments.js)
 */

import { DEFAULT_VIEW } from "./view.js";

/**
 * @typedef {object} PlaygroundState
 * @property {object|null} draft       the scene as typed (see scene/draft.js); null until the first scene arrives
 * @property {object|null} result      the last good result, exactly as compute() returned it
 * @property {boolean} resultIsPreview true while `result` is the shipped preview, not a live computation
 * @property {object|null} error       the module's error for the current draft: {type, message, field, row, column, row_index, column_index}
 * @property {number|null} focusToken  the token whose row is focused (its "where it pays attention" bars show)
 * @property {{row: number, column: number}|null} hover the heatmap cell under the pointer
 * @property {number} activeHead       the head whose weights the editors show
 * @property {{stage: string, detail: string, live: boolean, failed: boolean, message: string}} boot
 * @property {Array<{id: string, title: string, description: string}>|null} presets
 * @property {string|null} presetId    the preset the draft started from (null for a scene set by the API)
 * @property {boolean} edited          the learner has changed the draft since it was loaded
 * @property {typeof DEFAULT_VIEW} view which panels show, which are open, which tabs are chosen (view.js)
 * @property {{drawing: boolean, message: string}} [learnerDrawing] set by learner-drawing.js
 * @property {{text: string, tone: string, action: {label: string, run: Function}|null}|null} [notice] set by controller.js
 * @property {{saved: boolean, problem: string|null, kept: boolean}} [saveStatus] set by sharing/saved-work.js
 * @property {{place: string, count: number}|null} reveal the place to take the learner to: "playground" (the
 *   scene at the top), "top" (the top of the page), "model-head" (the head shown large in the model's panel) or
 *   a panel name; `count` tells one request from the next
 */

/**
 * Create the state object.
 * @returns {{state: PlaygroundState, update: (patch: object, ...changes: string[]) => void,
 *            subscribe: (listener: (state: PlaygroundState, changes: Set<string>) => void) => () => void}}
 */
export function createStore() {
  /** @type {PlaygroundState} */
  const state = {
    draft: null,
    result: null,
    resultIsPreview: false,
    error: null,
    focusToken: null,
    hover: null,
    activeHead: 0,
    boot: { stage: "downloading", detail: "", live: false, failed: false, message: "" },
    presets: null,
    presetId: null,
    edited: false,
    view: { ...DEFAULT_VIEW, panels: [...DEFAULT_VIEW.panels] },
    reveal: null,
  };
  const listeners = new Set();

  return {
    state,
    /** Merge `patch` into the state (the draft may also have been changed in place) and notify. */
    update(patch, ...changes) {
      Object.assign(state, patch);
      const changed = new Set(changes);
      for (const listener of listeners) listener(state, changed);
    },
    /** Call `listener(state, changes)` after every update; returns a function that unsubscribes. */
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
