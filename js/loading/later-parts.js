/**
 * The parts of the page that load after its first view, in one list: for each, its module, its stylesheet, the
 * actions it brings and when it loads. The first heatmap waits for none of them: tests/tooling/test_bundler.py reads
 * this list and checks that no part's module is in the first view's files, and docs/architecture.md's "What loads
 * when" gives the same list (tests/js/later-parts.test.mjs checks both against it).
 *
 * A part loads through `loadPart` alone: its module and its stylesheet together. What must happen once (a view mounted,
 * a controller made) goes through `loadOnce`: later calls share the first one's promise, and after a failure (the
 * network gone) the next call tries again. "Once Python is live and the page is idle" is `liveAndIdle`, the one way
 * the page waits for that.
 *
 * Modules a part loads for itself on first use (the link format for a link, a download's writer, the learner's and
 * the training workers' clients, CodeMirror) are its own business and not listed: they sit below the page, which
 * they may not import (the import rules), so they cannot read this list.
 */

import { CLAIM_ACTIONS, EXERCISE_WORK_ACTIONS, EXPERIMENT_ACTIONS, LESSON_ACTIONS, MODEL_ACTIONS } from "../panels/panel-actions.js";
import { loadStylesheet } from "./stylesheets.js";

/**
 * @typedef {object} LaterPart
 * @property {string} module the module, relative to js/
 * @property {string|null} stylesheet its own rules, relative to the site's root, added as it loads; or null
 * @property {readonly string[]} actions the actions it brings, which the page hands the views from the start
 *   (page/actions.js lazyActions stands in for them until it has loaded)
 * @property {readonly ("live"|"firstUse"|"frame"|"lms")[]} when when it loads, the first of these that comes: once
 *   Python is live and the page is idle (liveAndIdle), on first use, at once in a course page's frame, at once in a
 *   package a course platform launched
 * @property {() => Promise<any>} importModule the module's import(), written out so that the bundler finds it
 */

/**
 * A part with what it leaves out: no stylesheet, no actions.
 * @param {{module: string, stylesheet?: string, actions?: readonly string[], when: LaterPart["when"], importModule: LaterPart["importModule"]}} given
 * @returns {LaterPart}
 */
const part = ({ stylesheet = null, actions = [], ...given }) => ({ stylesheet, actions, ...given });

export const LATER_PARTS = Object.freeze({
  /** "Share and download"'s controls, folded away */
  shareArea: part({ module: "ui/toolbar/share-area.js", when: ["live", "firstUse"], importModule: () => import("../ui/toolbar/share-area.js") }),
  /** the views below the playground */
  laterViews: part({
    module: "ui/later-views.js", stylesheet: "static/teaching.css", when: ["live"],
    importModule: () => import("../ui/later-views.js"),
  }),
  /** the controllers of the panels below the playground */
  panelControllers: part({
    module: "panels/panel-controllers.js", actions: [...MODEL_ACTIONS, ...CLAIM_ACTIONS, ...EXPERIMENT_ACTIONS, ...EXERCISE_WORK_ACTIONS],
    when: ["live", "firstUse"], importModule: () => import("../panels/panel-controllers.js"),
  }),
  /** the lessons named at the page's start */
  lessonStart: part({
    module: "ui/lessons/lesson-start.js", stylesheet: "static/lessons.css", when: ["live"],
    importModule: () => import("../ui/lessons/lesson-start.js"),
  }),
  /** the lessons' controller (the list of lessons comes from the lesson files alone, without it) */
  lessonController: part({
    module: "lessons/lessons.js", stylesheet: "static/lessons.css", actions: LESSON_ACTIONS.filter((name) => name !== "lessonsList"),
    when: ["firstUse"], importModule: () => import("../lessons/lessons.js"),
  }),
  /** the lesson's player */
  lessonPlayer: part({
    module: "ui/lessons/lesson-panel.js", stylesheet: "static/lessons.css", when: ["firstUse"],
    importModule: () => import("../ui/lessons/lesson-panel.js"),
  }),
  /** "Not saved", once the browser refuses to keep the work */
  unsavedWork: part({ module: "ui/toolbar/unsaved-work.js", when: ["firstUse"], importModule: () => import("../ui/toolbar/unsaved-work.js") }),
  /** the embed code */
  embedSnippet: part({ module: "sharing/embed-snippet.js", when: ["firstUse"], importModule: () => import("../sharing/embed-snippet.js") }),
  /** the postMessage API (it answers what came before it) */
  postMessageApi: part({ module: "embed/post-message-api.js", when: ["frame", "live"], importModule: () => import("../embed/post-message-api.js") }),
  /** the offline cache */
  offlineCache: part({ module: "loading/offline.js", when: ["live"], importModule: () => import("./offline.js") }),
  /** a frame's locked controls and height reports */
  frameControls: part({
    module: "embed/embed-frame.js", stylesheet: "static/embed-frame.css", when: ["frame"],
    importModule: () => import("../embed/embed-frame.js"),
  }),
  /** the course platform's record of the learner */
  lmsTracking: part({ module: "lms/tracking.js", when: ["lms"], importModule: () => import("../lms/tracking.js") }),
});

/**
 * Load `part`: its module and its stylesheet together; resolves with the module once both are in (a stylesheet that
 * fails leaves the views plainer, not broken: stylesheets.js).
 * @param {LaterPart} part
 */
export function loadPart(part) {
  return Promise.all([part.importModule(), part.stylesheet ? loadStylesheet(part.stylesheet) : null]).then(([module]) => module);
}

/**
 * `load` called once: every call shares its promise; after a failure (the network went away) the next call tries again.
 * @template T
 * @param {() => Promise<T>} load
 * @returns {() => Promise<T>}
 */
export function loadOnce(load) {
  let loading = null;
  return () => (loading ??= load().catch((error) => {
    loading = null;
    throw error;
  }));
}

/** How long the page waits for an idle moment before it goes ahead anyway. */
const IDLE_AT_MOST_MS = 1000;

/** Resolves once the page is idle (or after IDLE_AT_MOST_MS); browsers without requestIdleCallback wait 200 ms. */
export function whenIdle() {
  return new Promise((resolve) => {
    if (typeof globalThis.requestIdleCallback === "function") globalThis.requestIdleCallback(() => resolve(), { timeout: IDLE_AT_MOST_MS });
    else setTimeout(resolve, 200);
  });
}

/**
 * Resolves once Python is live, or has failed (`ready` settled), and the page is idle after that: when the parts
 * marked "live" load, so that they neither compete with Python's download nor delay the first heatmap.
 * @param {Promise<unknown>} ready Python's boot
 */
export function liveAndIdle(ready) {
  return Promise.allSettled([ready]).then(whenIdle);
}
