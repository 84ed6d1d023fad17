/**
 * Puts the playground together: the state, the controller (page/controller.js) and the views that draw the
 * state and act through the controller's `actions`. Python is already booting when this runs (boot.js starts
 * it first); the shipped preview is drawn as soon as it arrives.
 *
 * Each view is mounted into the element index.html marks for it (`data-panel`, `data-host`): views never look
 * for one another, and none of them knows of Python, workers, links or storage.
 */

import { createController } from "./controller.js";
import { BELOW_HEATMAP, SCENE_VIEW_TIMINGS, nearScreen } from "../state/redraw-schedule.js";
import { CHANGES } from "../state/state.js";
import { LATER_PARTS, liveAndIdle, loadOnce, loadPart } from "../loading/later-parts.js";
import { createStore } from "../state/session.js";
import { createTheme } from "./theme.js";
import { OPEN_AT_PANELS, PANEL_SELECTORS, host } from "../layout/panels.js";
import { mountSceneViews } from "../ui/scene-views.js";
import { mountTeachingNotes } from "../ui/teaching/teaching-notes.js";
import { createBootStatus } from "../ui/toolbar/boot-status.js";
import { mountNoticeBar } from "../ui/toolbar/notice-bar.js";
import { mountPresetPicker } from "../ui/toolbar/preset-picker.js";
import { mountSaveStatus } from "../ui/toolbar/save-status.js";
import { installSceneFileDrop } from "../ui/toolbar/scene-file-drop.js";
import { mountShareDisclosure } from "../ui/toolbar/share-disclosure.js";
import { mountThemeToggle } from "../ui/toolbar/theme-toggle.js";

/** The element index.html marks with data-panel="`name`". */
const panel = (name) => /** @type {HTMLElement} */ (document.querySelector(PANEL_SELECTORS[name]));

/**
 * Start the page.
 * @param {object} options
 * @param {ReturnType<import("../service/service.js").createPythonService>} options.python already booting
 * @param {Promise<{preset: string, scene: object, result: object, examples?: Array<{id: string, title: string}>}>} options.preview the shipped first-paint result
 * @param {Set<string>} [options.lockedFields] the scene fields a course page locked (embed/locks.js)
 * @param {(before: object, after: object) => string[]} [options.lockedChanges] see controller.js
 * @param {string} [options.storageMode] "page", or "embed" in a course page's frame (its own saved work)
 * @param {string[]|null} [options.panelsOnPage] the panels a course page's frame keeps (embed mode), or null for all
 * @param {{id?: string, src?: string, step: string|null}|null} [options.lesson] the lesson's step a course page's frame
 *   opens at: a built lesson's `id`, or the address of a course's own lesson file (`src`)
 * @param {string[]|null} [options.lessonOrigins] the other sites a course's own lesson file may come from (a frame's
 *   `origins=`), or null
 * @param {{panels: string[], defaultPanels: string[], lockable: string[]}|null} [options.embedCode] the choices
 *   "Copy embed code" offers under "Share and download" (embed/embed-mode.js knows them), or null for none
 * @returns {{store: object, controller: ReturnType<typeof createController>, theme: ReturnType<typeof createTheme>,
 *   firstScene: Promise<void>}} firstScene settles once the first scene (a link, saved work, the example) is shown
 */
/** @typedef {ReturnType<typeof startPlayground>} Playground the running page: its store, controller, theme, first scene */

export function startPlayground({ python, preview, lockedFields, lockedChanges, storageMode = "page", panelsOnPage = null, lesson = null, lessonOrigins = null,
  embedCode = null }) {
  const store = createStore();
  const controller = createController({
    store, python, preview, lockedFields, lockedChanges, storageMode, panelsOnPage, lessonOrigins,
  });
  const { actions } = controller;
  const theme = createTheme({
    remember: storageMode === "page",
    onNotKept: (picked) => actions.notify(`${picked === "dark" ? "Dark" : "Light"} mode is on for this visit only: this browser does not let the page remember it.`),
  });
  // What the first view does without loads once Python is live (or failed) and its first result is drawn, when the
  // page is idle, so that it neither competes with Python's download nor holds back the first live numbers: parsing
  // and mounting the later views while that result was on its way kept it from the page for up to 90 ms.
  const firstLive = firstLiveResult(store, python.ready);
  const onceLive = (work) => liveAndIdle(firstLive).then(work);
  mountViews({ store, actions, theme, onceLive, embedCode });
  const firstScene = controller.start({ lesson });

  followReveals(store);
  followLessons({ store, actions, onceLive });
  followSkipLinks(document.querySelector(".skip-links"));

  // The examples' titles come with the preview, so that the picker lists them all from the first view (it takes
  // the width of its longest title: the row must not wrap under the reader's eyes). Their descriptions come with
  // the whole list once Python is live, when another example can be picked.
  preview.then(({ examples }) => controller.listExampleTitles(examples)).catch(() => {});
  onceLive(() => controller.loadPresetList());
  // Nor are the teaching views below the playground, with their stylesheet.
  onceLive(() => mountLaterViews({ store, actions, panelsReady: controller.loadPanels }));
  return { store, controller, theme, firstScene };
}

/** How long after Python is live the later parts wait, at most, for its first result. */
const FIRST_RESULT_AT_MOST_MS = 2000;

/**
 * Resolves once the page shows a result Python computed (or the module's error for the scene), once Python has
 * failed, or FIRST_RESULT_AT_MOST_MS after it is live, whichever comes first.
 * @param {ReturnType<typeof createStore>} store
 * @param {Promise<unknown>} ready Python's boot
 * @returns {Promise<void>}
 */
function firstLiveResult(store, ready) {
  return new Promise((resolve) => {
    const computed = (state) => state.boot.failed || (state.boot.live && ((state.result && !state.resultIsPreview) || state.error));
    if (computed(store.state)) return resolve();
    const stop = store.subscribe((state) => {
      if (!computed(state)) return;
      stop();
      resolve();
    });
    ready.then(() => new Promise((wait) => setTimeout(wait, FIRST_RESULT_AT_MOST_MS)), () => {}).then(() => {
      stop();
      resolve();
    });
  });
}

/** The first view's views, each in its place. */
function mountViews({ store, actions, theme, onceLive, embedCode }) {
  const root = host("playground");
  const bootStatus = createBootStatus(host("boot-status"), { onRetry: () => actions.retryBoot() });
  const { heatmap } = mountSceneViews(panel, { root, store, actions, when: SCENE_VIEW_TIMINGS });
  mountPresetPicker(panel("presets"), { store, actions });
  mountSaveStatus(panel("presets"), { store, actions });
  followUnsavedWork({ scene: [panel("controls"), panel("features"), panel("weights")], code: [panel("exercise")] }, { store, actions });
  const shareButton = /** @type {HTMLButtonElement} */ (document.querySelector('[aria-controls="share-area"]'));
  const fillShareArea = shareAreaFiller({ store, actions, picture: heatmap.picture, embedCode });
  mountShareDisclosure(shareButton, host("share-area"), { onOpen: fillShareArea });
  onceLive(fillShareArea);
  installSceneFileDrop(actions);
  mountNoticeBar(host("notice-area"), { store, actions });
  mountTeachingNotes(panel("notes"), { store, when: BELOW_HEATMAP });
  const themeToggle = mountThemeToggle(host("masthead-controls"), { onToggle: () => theme.toggle(), before: shareButton });
  theme.subscribe((now) => themeToggle.update(now));

  store.subscribe((state, changes) => {
    if (changes.has("boot")) bootStatus.update(state.boot);
    if (changes.has("view")) showPanels(state.view.panels);
    const status = state.boot.failed ? "failed" : state.resultIsPreview || !state.boot.live ? "preview" : "live";
    if (root.dataset.status !== status) root.dataset.status = status;
  });
  // The page is shown once its first scene is on screen with every view drawn (this subscriber is the last
  // deferred one, so it runs after the others): before, the panels fill in one after another, and each would
  // push the next one down under the reader's eyes.
  const shown = store.subscribe((state) => {
    if (!state.draft) return;
    root.dataset.drawn = "true";
    shown();
  }, BELOW_HEATMAP);
  bootStatus.update(store.state.boot);
}

/**
 * What fills "Share and download" (the link, the downloads and "Open scene file…", the embed code): called
 * once Python is live and the page idle, or when the area is opened before that. Their code is no part of what
 * the first view downloads; folded away until opened, the area moves nothing when it is filled.
 */
function shareAreaFiller({ store, actions, picture, embedCode }) {
  return loadOnce(() => loadPart(LATER_PARTS.shareArea).then(({ mountShareArea }) => mountShareArea(host("share-area"), {
    store, actions, places: OPEN_AT_PANELS, picture,
    embedCode: embedCode && { ...embedCode, panelElement: (name) => document.querySelector(PANEL_SELECTORS[name]) },
  })));
}

/**
 * "Not saved" where the learner edits (ui/toolbar/unsaved-work.js): its code loads once the browser first refuses to
 * keep the learner's work, and then draws the lines for the state as it is.
 */
function followUnsavedWork(panels, { store, actions }) {
  let stop = () => {};
  const mountOnProblem = (state) => {
    if (!state.saveStatus.problem) return false;
    stop();
    loadPart(LATER_PARTS.unsavedWork).then(({ mountUnsavedWork }) => mountUnsavedWork(panels, { store, actions }));
    return true;
  };
  if (!mountOnProblem(store.state)) stop = store.subscribe(mountOnProblem);
}

/** Set (or, with null, remove) a data attribute of <body> that static/style.css lays the page out by. */
function setBodyFlag(name, value) {
  if ((document.body.dataset[name] ?? null) === value) return;
  if (value === null) delete document.body.dataset[name];
  else document.body.dataset[name] = value;
}

/** Whether a lesson's question waits for its answer and asks about numbers the page would show. */
function questionWaiting(lesson) {
  const step = lesson?.steps[lesson.step];
  return Boolean(step?.kind) && step.kind !== "build" && !lesson.answers[step.id];
}

/**
 * The stages the step on show holds back: numbers a later question asks about on this scene, until it is answered
 * (the compiled step's `holds`: py/attention_playground/lessons/holds.py). A hold of one head or one row of the
 * weights is the player's to hide (ui/lessons/held-parts.js); until the player is on the page, the whole stage is
 * held in its place.
 * @returns {string[]}
 */
function heldStages(lesson, { playerShown }) {
  const holds = lesson?.content?.holds ?? [];
  const whole = (hold) => !playerShown || (hold.head === undefined && hold.row === undefined);
  return [...new Set(holds.filter((hold) => !lesson.answers[hold.until] && whole(hold)).map((hold) => hold.stage))];
}

/**
 * Lessons on the page: the list to start one from (once Python is live: its list and code are no part of the
 * first view), the player (its code loaded when a lesson first opens), and, while a step's question waits for its
 * answer, the weights hidden everywhere they show (`data-lesson-hides` on <body>: static/lessons.css hides them), so
 * the learner commits before the page reveals; and what a later question asks about held back (`data-lesson-holds`).
 */
function followLessons({ store, actions, onceLive }) {
  onceLive(() => loadPart(LATER_PARTS.lessonStart).then(({ mountLessonStart }) => mountLessonStart(host("lesson-start"), { actions })));
  let playerShown = false;
  const flagLesson = (state) => {
    const hides = questionWaiting(state.lesson) ? "weights" : null;
    setBodyFlag("lessonHides", hides);
    const held = heldStages(state.lesson, { playerShown });
    setBodyFlag("lessonHolds", held.length ? held.join(" ") : null); // static/lessons.css hides what is held
    setBodyFlag("lessonOpen", state.lesson || state.lessonFile ? "true" : null);
  };
  const mountPlayer = loadOnce(() => loadPart(LATER_PARTS.lessonPlayer).then(({ mountLessonPanel }) => {
    mountLessonPanel(host("lesson"), { store, actions });
    playerShown = true;
    flagLesson(store.state);
  }));
  store.subscribe((state, changes) => {
    if (!changes.has("lesson")) return;
    flagLesson(state);
    if (state.lesson || state.lessonFile) mountPlayer(); // it draws the lesson (or its file's mistakes) as it is by then
  });
}

/** The places the controller may take the learner to that are not a whole panel (state.js "reveal"). */
const REVEAL_PLACES = {
  playground: PANEL_SELECTORS.heatmap,
  // The button that opened a head in the playground: where the learner was, in the model's panel.
  "model-head": `${PANEL_SELECTORS.model} [data-testid="model-open-head"]`,
  // "Test a claim", under the model's panel (claims.js), and the causal mask's switch (the mask's claim's place).
  claim: `${PANEL_SELECTORS.model} [data-testid="claim-test"]`,
  "mask-switch": `${PANEL_SELECTORS.controls} [data-testid="mask-causal"]`,
};

/** A control is brought to the middle of the screen and takes the focus; anything else is a section. */
const CONTROLS = "button, input, select";

/**
 * Take the learner where the controller says (`state.reveal`): the playground at the top after its scene was
 * replaced from far below, the button that did it (the way back), a claim's test or its place, or a panel a link
 * opens at. A panel below the playground fills in once Python is live and its view has loaded, and a claim's test
 * shows once the claims are known, so the page goes there once the place is drawn and shown (with its heading).
 * The heading (or the control) takes the focus, so a keyboard or screen reader continues there too.
 */
function followReveals(store) {
  let shown = 0;
  let waiting = null; // the observer waiting for the newest place to be drawn
  store.subscribe((state, changes) => {
    if (!changes.has("reveal") || !state.reveal || state.reveal.count === shown) return;
    shown = state.reveal.count;
    waiting?.disconnect();
    waiting = null;
    const { place } = state.reveal;
    if (place === "top") {
      window.scrollTo({ top: 0 });
      return;
    }
    const selector = REVEAL_PLACES[place];
    const count = shown;
    /** The place, once it is on the page, shown and drawn; else null. */
    const ready = () => {
      const target = selector ? document.querySelector(selector) : panel(place);
      if (!target || target.closest("[hidden]")) return null;
      return target.matches(CONTROLS) || target.querySelector("h2, h3") ? target : null;
    };
    const go = (target) => {
      // A control (the button the learner pressed) is brought to the middle of the screen and takes the focus
      // back; a panel is brought to the top, and its heading takes the focus.
      const control = target.matches(CONTROLS);
      target.scrollIntoView({ block: control ? "center" : "start" });
      const focusable = control ? target : target.querySelector("h2, h3");
      if (focusable) {
        if (!control) focusable.tabIndex = -1;
        focusable.focus({ preventScroll: true });
      }
      target.dataset.revealed = String(count);
    };
    const now = ready();
    if (now) {
      go(now);
      return;
    }
    // Not drawn or not shown yet: go once it is (the later views mount after Python is live).
    waiting = new MutationObserver(() => {
      const target = ready();
      if (!target) return;
      waiting.disconnect();
      waiting = null;
      requestAnimationFrame(() => go(target));
    });
    waiting.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["hidden"] });
  });
}

/**
 * Where each of index.html's skip links takes the focus, by its `data-skip`: the first number of Wq (the cell
 * turns into an input as it takes the focus), or a panel's heading.
 */
const SKIP_TARGETS = {
  wq: `${PANEL_SELECTORS.weights} [data-matrix="Wq"][data-edit="cell"]`,
  heatmap: `${PANEL_SELECTORS.heatmap} h2`,
  features: `${PANEL_SELECTORS.features} h2`,
  teaching: ".teaching > :not([hidden]) h2",
};

/**
 * The skip links move the focus themselves: followed as links they would put their target in the address,
 * where the page reads links to scenes (first-scene.js) and would say this one cannot be read.
 */
function followSkipLinks(list) {
  list?.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-skip]");
    if (!link) return;
    event.preventDefault();
    const target = document.querySelector(SKIP_TARGETS[link.dataset.skip]) ?? document.getElementById(link.hash.slice(1));
    if (!target) return;
    if (!target.matches(`${CONTROLS}, [tabindex]`)) target.tabIndex = -1;
    target.scrollIntoView({ block: "center" });
    target.focus({ preventScroll: true });
  });
}

/** Show the panels named in `names` and hide the others (a link may hide some; see layout/panels.js). */
function showPanels(names) {
  for (const [name, selector] of Object.entries(PANEL_SELECTORS)) {
    const element = /** @type {HTMLElement|null} */ (document.querySelector(selector));
    if (element) element.hidden = !names.includes(name);
  }
}

/**
 * Mount the views the first screen does without (the worked steps, heads side by side, experiments, the
 * trained model, exercises). Their modules and their stylesheet load only now, so they stay out of the first load; each view is then told about
 * everything that already happened, as if it had been there from the start.
 */
async function mountLaterViews({ store, actions, panelsReady }) {
  // The panels' controllers too (controller.js), so the views find their actions loaded (if they could not load,
  // each action tries again when called).
  const [views] = await Promise.all([loadPart(LATER_PARTS.laterViews), panelsReady().catch(() => {})]);
  // Each view hears of everything that already happened (once a scene is shown: before, they hear of the first
  // scene as it comes), with the next redraws. Only as they mount: what a view subscribes later (the exercises'
  // editor, built when the panel first opens) hears of the changes from then on.
  const owed = store.state.draft ? Object.keys(CHANGES) : [];
  const below = { ...BELOW_HEATMAP, owed };
  // The views that only show each result (no controls of their own that act on it) catch up once the updates
  // pause while they are far from the screen.
  const nearScreenOf = (name) => ({ ...nearScreen(panel(name)), owed });
  views.mountStepView(panel("steps"), { store, actions, when: nearScreenOf("steps") });
  views.mountMultiHead(panel("heads"), { store, actions, when: nearScreenOf("heads") });
  views.mountExperiments(panel("experiments"), { store, actions, when: below });
  views.mountModelPanel(panel("model"), { store, actions, when: below });
  views.mountClaimTest(panel("model"), { store, actions, when: below }); // "Test a claim", under the model
  views.mountExercisePanel(panel("exercise"), { store, actions, when: below });
  owed.length = 0;
}
