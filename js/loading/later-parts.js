/**
 * The parts of the page that load after its first view, in one list: for each, its module, its stylesheet, the
 * actions it brings and when it loads. The first heatmap waits for none of them: tests/tooling/test_bundler.py reads
 * this list and checks that no part's module is in the first view's files, and docs/architecture.md's "What loads
 * when" gives the same list (tests/js/later-parts.test.mjs checks both against it).
 *
 * A part loads through `loadPart` alone: its module and its stylesheet together, once (later calls share the first
 * one's promise; after a failure, the network gone, the next call tries again). "Once Python is live and the page is
 * idle" is `liveAndIdle`, the one way the page waits for that.
 *
 * Modules a part loads for itself on first use (the link format for a link, a download's writer, the learner's and
 * the training workers' clients, CodeMirror) are its own business and not listed: they sit below the page, which
 * they may not import (the import rules), so they cannot read this list.
 */

import { CLAIM_ACTIONS, EXERCISE_WORK_ACTIONS, EXPERIMENT_ACTIONS, LESSON_ACTIONS, MODEL_ACTIONS } from "../panels/panel-actions.js";
import { loadStylesheet } from "./stylesheets.js";

/** When a part loads, by the names LATER_PARTS uses, in the words of docs/architecture.md's "What loads when". */
export const WHEN = Object.freeze({
  live: "once Python is live and the page is idle",
  firstUse: "on first use",
  frame: "at once, beside the page, in a course page's frame",
  lms: "at once, in a package a course platform launched",
});

/**
 * @typedef {object} LaterPart
 * @property {string} module the module, relative to js/
 * @property {string|null} stylesheet its own rules, relative to the site's root, added as it loads; or null
 * @property {readonly string[]} actions the actions it brings, which the page hands the views from the start
 *   (page/actions.js lazyActions stands in for them until it has loaded)
 * @property {readonly (keyof typeof WHEN)[]} when when it loads: the first of these that comes
 * @property {string} what what it is, in a few words
 * @property {() => Promise<any>} importModule the module's import(), written out so that the bundler finds it
 */

/** @type {Readonly<Record<string, LaterPart>>} */
export const LATER_PARTS = Object.freeze({
  shareArea: {
    what: "\"Share and download\"'s controls, folded away", module: "ui/toolbar/share-area.js", stylesheet: null, actions: [],
    when: ["live", "firstUse"], importModule: () => import("../ui/toolbar/share-area.js"),
  },
  laterViews: {
    what: "the views below the playground", module: "ui/later-views.js", stylesheet: "static/teaching.css", actions: [],
    when: ["live"], importModule: () => import("../ui/later-views.js"),
  },
  panelControllers: {
    what: "the controllers of the panels below the playground", module: "panels/panel-controllers.js", stylesheet: null,
    actions: [...MODEL_ACTIONS, ...CLAIM_ACTIONS, ...EXPERIMENT_ACTIONS, ...EXERCISE_WORK_ACTIONS],
    when: ["live", "firstUse"], importModule: () => import("../panels/panel-controllers.js"),
  },
  lessonStart: {
    what: "the lessons named at the page's start", module: "ui/lessons/lesson-start.js", stylesheet: "static/lessons.css", actions: [],
    when: ["live"], importModule: () => import("../ui/lessons/lesson-start.js"),
  },
  lessonController: {
    what: "the lessons' controller", module: "lessons/lessons.js", stylesheet: "static/lessons.css",
    // The list of lessons comes from the lesson files alone, without the controller.
    actions: LESSON_ACTIONS.filter((name) => name !== "lessonsList"),
    when: ["firstUse"], importModule: () => import("../lessons/lessons.js"),
  },
  lessonPlayer: {
    what: "the lesson's player", module: "ui/lessons/lesson-panel.js", stylesheet: "static/lessons.css", actions: [],
    when: ["firstUse"], importModule: () => import("../ui/lessons/lesson-panel.js"),
  },
  unsavedWork: {
    what: "\"Not saved\", once the browser refuses to keep the work", module: "ui/toolbar/unsaved-work.js", stylesheet: null,
    actions: [], when: ["firstUse"], importModule: () => import("../ui/toolbar/unsaved-work.js"),
  },
  embedSnippet: {
    what: "the embed code", module: "sharing/embed-snippet.js", stylesheet: null, actions: [],
    when: ["firstUse"], importModule: () => import("../sharing/embed-snippet.js"),
  },
  postMessageApi: {
    what: "the postMessage API (it answers what came before it)", module: "embed/post-message-api.js", stylesheet: null, actions: [],
    when: ["frame", "live"], importModule: () => import("../embed/post-message-api.js"),
  },
  offlineCache: {
    what: "the offline cache", module: "loading/offline.js", stylesheet: null, actions: [],
    when: ["live"], importModule: () => import("./offline.js"),
  },
  frameControls: {
    what: "a frame's locked controls and height reports", module: "embed/embed-frame.js", stylesheet: "static/embed-frame.css",
    actions: [], when: ["frame"], importModule: () => import("../embed/embed-frame.js"),
  },
  lmsTracking: {
    what: "the course platform's record of the learner", module: "lms/tracking.js", stylesheet: null, actions: [],
    when: ["lms"], importModule: () => import("../lms/tracking.js"),
  },
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
