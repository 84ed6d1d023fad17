/**
 * Puts the playground together: one state object, the views that draw it, the edits that change it,
 * and the loop that keeps the result computed. Python is already booting when this runs (main.js
 * starts it first); the shipped preview is drawn as soon as it arrives.
 */

import * as edits from "../scene/edits.js";
import { bootFailureMessage, createRecompute } from "./recompute.js";
import { MODULE_FACTS } from "../../generated/module-facts.js";
import { defaultValueDims, draftFromScene, sceneFromDraft, shapeKey } from "../scene/draft.js";
import { lockedSceneMessage } from "../embed/embed-mode.js";
import { quoted } from "../ui/shared/format.js";
import { PANEL_SELECTORS } from "./view.js";
import { createSharing } from "../sharing/sharing.js";
import { createStore } from "./state.js";
import { deferredStore, unlessResult, viewChanges } from "./deferred-views.js";
import { createAttentionBars } from "../ui/heatmap/attention-bars.js";
import { createBootStatus } from "../ui/toolbar/boot-status.js";
import { mountFeatureTable } from "../ui/grids/feature-table.js";
import { mountHeatmapPanel } from "../ui/heatmap/heatmap-panel.js";
import { mountMaskControls } from "../ui/toolbar/mask-controls.js";
import { mountExportImport } from "../ui/toolbar/export-import.js";
import { mountNoticeBar } from "../ui/toolbar/notice-bar.js";
import { mountPresetPicker } from "../ui/toolbar/preset-picker.js";
import { mountSaveStatus } from "../ui/toolbar/save-status.js";
import { mountShareMenu } from "../ui/toolbar/share-menu.js";
import { mountWeightMatrices } from "../ui/grids/weight-matrices.js";
import { installGridKeyboard } from "../ui/grids/grid-keyboard.js";
import { installHeatmapKeyboard } from "../ui/heatmap/heatmap-keyboard.js";
import { mountThemeToggle } from "../ui/toolbar/theme-toggle.js";
import { mountWeightsTable } from "../ui/heatmap/weights-table.js";
import { mountTeachingNotes } from "../ui/teaching/teaching-notes.js";

const PRESETS_URL = "generated/presets/";
const DEFAULT_PRESET = MODULE_FACTS.defaultPresetId;

/** The token to focus when a scene appears: "it" if there is one (the tutorial's question), else the last. */
export function defaultFocus(tokens) {
  const it = tokens.indexOf("it");
  return it >= 0 ? it : tokens.length ? tokens.length - 1 : null;
}

async function fetchJson(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

/**
 * Start the page.
 * @param {object} options
 * @param {ReturnType<typeof import("../runtime/client.js").createClient>} options.client the Python client, already booting
 * @param {Promise<{preset: string, scene: object, result: object}>} options.preview the shipped first-paint result
 * @param {(edit: object) => boolean} [options.canEdit] false for an edit the page must refuse (a field an
 *   embedding course page locked; see embed.js)
 * @param {(before: object, after: object) => string[]} [options.lockedChanges] the locked fields that showing
 *   scene `after` instead of `before` would change (see embed.js); a learner's way of replacing the whole
 *   scene (an example, a file, a shuffle) is refused when there are any
 * @param {string} [options.storageMode] where the learner's edits are saved: "page", or "embed" in a course
 *   page's frame, so a frame never shares or overwrites the full page's saved work
 * @returns {{store: object, recompute: object}} the state object and the recompute loop (for the API)
 */
export function startPlayground({ client, preview, canEdit = () => true, lockedChanges = () => [], storageMode = "page" }) {
  const store = createStore();
  const recompute = createRecompute({
    client,
    store,
    onSceneShown: () => showNewScene(),
    onRestart: () => {
      store.update({ boot: { stage: "downloading", detail: "", live: false, failed: false, message: "" } }, "boot");
      followBoot();
    },
  });

  /** After a whole new scene: focus its default token and keep the edited head in range. */
  function showNewScene() {
    const { draft } = store.state;
    store.update({ focusToken: defaultFocus(draft.tokens), activeHead: Math.min(store.state.activeHead, draft.heads.length - 1), hover: null }, "focus", "head", "hover");
  }

  function loadScene(scene, { presetId, result = null, isPreview = false }) {
    store.update(
      {
        draft: draftFromScene(scene, result),
        presetId,
        edited: false,
        activeHead: 0,
        focusToken: defaultFocus(scene.tokens ?? []),
        hover: null,
        error: null,
        ...(result ? { result, resultIsPreview: isPreview } : {}),
      },
      "scene", "shape", "labels", "values", "mode", "presets", "focus", "head", "hover", "error", ...(result ? ["result"] : []),
    );
  }

  const actions = {
    /** Apply one edit to the draft, redraw what it touches, and recompute. */
    edit(edit) {
      const { draft } = store.state;
      if (!draft || !canEdit(edit)) return;
      const before = shapeKey(draft);
      const changes = applyEdit(draft, edit, store.state);
      const patch = {};
      if (!store.state.edited) {
        patch.edited = true; // the picker offers to put the example back
        changes.add("presets");
      }
      if (shapeKey(draft) !== before) {
        changes.add("shape");
        patch.focusToken = clampFocus(store.state.focusToken, draft.tokens.length, edit);
        patch.activeHead = Math.max(0, Math.min(edit.kind === "add-head" ? draft.heads.length - 1 : store.state.activeHead, draft.heads.length - 1));
        patch.hover = null;
        changes.add("focus").add("head").add("hover");
      }
      recompute.requestDraft();
      store.update(patch, ...changes);
    },
    focusToken(row) {
      store.update({ focusToken: row }, "focus");
    },
    hover(cell) {
      store.update({ hover: cell }, "hover");
    },
    selectHead(index) {
      store.update({ activeHead: index, hover: null }, "head", "hover");
    },
    /** Change what the page shows around the scene: `patch` holds keys of the view (page-view.js). */
    setView(patch) {
      store.update({ view: { ...store.state.view, ...patch } }, "view");
    },
    async pickPreset(id) {
      try {
        const scene = await fetchJson(`${PRESETS_URL}${encodeURIComponent(id)}.json`);
        if (sharing.refusedByLocks(scene, `the example ${quoted(scene.title ?? id)}`)) {
          store.update({}, "presets"); // the picker goes back to the example on show
          return;
        }
        if (sharing.showSavedEdits(id)) return; // the learner's own edits of this example come back
        loadScene(scene, { presetId: id });
        recompute.requestDraft();
      } catch (error) {
        store.update({ error: { type: "Error", message: `Could not load the example “${id}”: ${error.message}`, field: null, row: null, column: null, row_index: null, column_index: null } }, "error");
      }
    },
    /** The example as shipped; the learner's edits of it are kept aside, not deleted. */
    resetToPreset(id) {
      return sharing.resetToPreset(id);
    },
    /**
     * Show a whole new scene the learner asked for (a shuffle); resolves to its result, or rejects leaving the
     * page as it was (the module refused it, or it would change what a course page locked).
     */
    showScene(scene) {
      const reason = lockedBy(scene, "this change");
      if (reason) return Promise.reject(new Error(reason));
      return recompute.computeScene(scene);
    },
    /** Ask Python for something without changing the page (an experiment, a scene to compare with). */
    async ask(kind, payload) {
      await client.ready;
      return client.request(kind, payload);
    },
  };

  /** Why showing `scene` (described as `what`) would break a course page's locks, or null when it would not. */
  function lockedBy(scene, what) {
    const { draft } = store.state;
    const fields = draft ? lockedChanges(sceneFromDraft(draft), scene) : [];
    return fields.length ? lockedSceneMessage(fields, what) : null;
  }

  // Saving a new scene (its identity is a canonical JSON of the whole scene) waits a task too, so it never
  // holds back the heatmap of a big scene; pagehide still writes anything pending.
  const sharing = createSharing({ store: deferredStore(store), recompute, loadScene, defaultFocus, presetsUrl: PRESETS_URL, defaultPreset: DEFAULT_PRESET, mode: storageMode, lockedBy });

  const bootStatus = createBootStatus(document.querySelector('[data-testid="boot-status"]'), {
    onRetry: () => recompute.retryBoot(), // a fresh worker; the scene on screen and any edits stay
  });
  const bars = createAttentionBars(document.querySelector('[data-testid="bars-panel"]'));
  mountHeatmapPanel(document.querySelector('[data-testid="heatmap-panel"]'), { store, actions });
  mountPresetPicker(document.querySelector('[data-testid="preset-area"]'), { store, actions });
  mountMaskControls(document.querySelector('[data-testid="mask-controls"]'), { store, actions });
  // The editors redraw a new result a task after the heatmap (deferred-views.js); the learner's edits at once.
  const editorStore = deferredStore(store, { urgent: unlessResult });
  mountFeatureTable(document.querySelector('[data-testid="feature-editor"]'), { store: editorStore, actions });
  mountWeightMatrices(document.querySelector('[data-testid="weight-editor"]'), { store: editorStore, actions });
  mountSaveStatus(document.querySelector('[data-testid="preset-area"]'), { store, sharing });
  mountShareMenu(document.querySelector('[data-testid="share-area"]'), { sharing });
  mountExportImport(document.querySelector('[data-testid="share-area"]'), {
    store,
    sharing,
    heatmapSvg: () => document.querySelector('[data-testid="heatmap-panel"] svg[data-testid="heatmap"]'),
    legendSvg: () => document.querySelector('[data-testid="heatmap-panel"] svg.legend'),
  });
  mountNoticeBar(document.querySelector('[data-testid="notice-area"]'), { store });
  // Views that may draw a task after the heatmap; what the learner opens or picks among them shows at once.
  const laterStore = deferredStore(store, { urgent: viewChanges });
  mountTeachingNotes(document.querySelector('[data-testid="teaching-notes"]'), { store: laterStore });
  const root = document.querySelector('[data-testid="playground"]');
  // Keyboard, screen readers and dark mode (see each module's header).
  installGridKeyboard(root);
  mountWeightsTable(document.querySelector('[data-testid="heatmap-panel"]'), { store: laterStore, actions });
  installHeatmapKeyboard(document.querySelector('[data-testid="heatmap-area"]'), { store, actions });
  mountThemeToggle(document.querySelector(".masthead"));

  store.subscribe((state, changes) => {
    if (changes.has("boot")) bootStatus.update(state.boot);
    if (changes.has("view")) showPanels(state.view.panels);
    const status = state.boot.failed ? "failed" : state.resultIsPreview || !state.boot.live ? "preview" : "live";
    if (root.dataset.status !== status) root.dataset.status = status;
  });
  laterStore.subscribe((state, changes) => {
    const { result, draft } = state;
    if (!["result", "focus", "head", "mode", "scene"].some((part) => changes.has(part))) return;
    if (result) {
      const head = result.heads[Math.min(state.activeHead, result.heads.length - 1)];
      bars.update({ tokens: result.tokens, head, mask: result.mask, focusRow: state.focusToken, headCount: result.heads.length, drawnWith: result.drawn_with ?? null });
    } else if (draft) {
      bars.update({ tokens: draft.tokens, pending: true, focusRow: state.focusToken });
    }
  });
  // The page is shown once its first scene is on screen with every view drawn (this subscriber is the last
  // deferred one, so it runs after the others): before, the panels fill in one after another, and each would
  // push the next one down under the reader's eyes.
  const shown = laterStore.subscribe((state) => {
    if (!state.draft) return;
    root.dataset.drawn = "true";
    shown();
  });

  client.onProgress(({ stage, detail }) => {
    store.update({ boot: { ...store.state.boot, stage, detail: typeof detail === "string" ? detail : "", live: stage === "ready" || store.state.boot.live } }, "boot");
  });
  /** Follow the current worker's boot; after a restart, client.ready is a new promise. */
  function followBoot() {
    const ready = client.ready;
    ready.then(
      () => {
        if (client.ready !== ready) return;
        store.update({ boot: { ...store.state.boot, stage: "ready", live: true } }, "boot");
        if (store.state.draft) recompute.requestDraft();
      },
      (error) => {
        if (client.ready !== ready) return;
        store.update({ boot: { ...store.state.boot, failed: true, message: bootFailureMessage(error) } }, "boot");
      },
    );
  }
  followBoot();
  store.update({}, "boot");

  // A link in the address, or the learner's saved work, comes first; otherwise the shipped preview.
  sharing.start().catch(() => false).then((opened) => {
    if (opened) return;
    preview
      .then(({ preset, scene, result }) => {
        if (!store.state.draft) loadScene(scene, { presetId: preset, result, isPreview: true });
      })
      .catch(async () => {
        // No preview shipped: show the default example as soon as its scene arrives; Python draws it.
        if (!store.state.draft) await actions.pickPreset(DEFAULT_PRESET);
      });
  });

  // The list of examples is not needed for the first paint: fetch it once the page is idle.
  const idle = window.requestIdleCallback ?? ((callback) => setTimeout(callback, 200));
  // Nor are export and the teaching views below the playground: their modules load once Python is live
  // (or failed), so they do not compete with its download.
  Promise.allSettled([client.ready]).then(() => idle(() => mountLaterViews({ store: laterStore, actions }), { timeout: 1000 }));
  idle(() => {
    fetchJson(`${PRESETS_URL}index.json`)
      .then((presets) => store.update({ presets }, "presets"))
      .catch(() => store.update({ presets: [] }, "presets"));
  });

  return { store, recompute };
}

/**
 * Mount the views the first screen does without (the worked steps, heads side by side, experiments,
 * exercises). Their modules load only now, so they stay out of the first load; each view is then told about
 * everything that already happened, as if it had been there from the start.
 */
async function mountLaterViews({ store, actions }) {
  const [stepView, multiHead, experiments, exercisePanel] = await Promise.all([
    import("../ui/teaching/step-view.js"),
    import("../ui/teaching/multi-head.js"),
    import("../ui/teaching/experiments.js"),
    import("../ui/exercises/exercise-panel.js"),
  ]);
  const listeners = [];
  const lateStore = {
    ...store,
    subscribe(listener) {
      listeners.push(listener);
      return store.subscribe(listener);
    },
  };
  const host = (testid) => document.querySelector(`[data-testid="${testid}"]`);
  stepView.mountStepView(host("step-view"), { store: lateStore, actions });
  multiHead.mountMultiHead(host("multi-head"), { store: lateStore, actions });
  experiments.mountExperiments(host("experiments"), { store: lateStore, actions });
  exercisePanel.mountExercisePanel(host("exercise-panel"), { store: lateStore, actions });
  if (!store.state.draft) return; // nothing shown yet: the views hear of the first scene as it comes
  const everything = new Set(["boot", "scene", "shape", "labels", "values", "mode", "presets", "focus", "head", "hover", "error", "result", "saved", "notice", "view"]);
  for (const listener of listeners) listener(store.state, everything);
}

/** Show the panels named in `names` and hide the others (a link may hide some; see page-view.js). */
function showPanels(names) {
  for (const [name, selector] of Object.entries(PANEL_SELECTORS)) {
    const element = document.querySelector(selector);
    if (element) element.hidden = !names.includes(name);
  }
}

/** Apply `edit` to the draft in place; returns the parts of the state it changed. */
function applyEdit(draft, edit, state) {
  const head = draft.heads[edit.head ?? state.activeHead];
  const shownValueNames = () => state.result?.heads?.[edit.head]?.value_dims ?? [];
  switch (edit.kind) {
    case "cell": {
      const grid = edit.matrix === "X" ? draft.X : head[edit.matrix];
      grid[edit.row][edit.column] = edit.text;
      return new Set(["values"]);
    }
    case "token-name":
      draft.tokens[edit.row] = edit.text;
      return new Set(["labels"]);
    case "feature-name":
      draft.features[edit.column] = edit.text;
      return new Set(["labels"]);
    case "dim-name":
      head.dims[edit.column] = edit.text;
      return new Set(["labels"]);
    case "value-dim-name":
      edits.renameValueDim(head, edit.column, edit.text, valueNamesFor(head, shownValueNames()));
      return new Set(["labels"]);
    case "sentence":
      edits.replaceTokens(draft, edit.words, edit.lexicon);
      return new Set(["labels", "scene"]);
    case "add-token":
      edits.addToken(draft, edits.freshName(draft.tokens, "word"));
      return new Set(["labels"]);
    case "remove-token":
      edits.removeToken(draft, edit.row);
      return new Set(["labels"]);
    case "add-feature":
      edits.addFeature(draft, edits.freshName(draft.features, "feature"));
      return new Set(["labels"]);
    case "remove-feature":
      edits.removeFeature(draft, edit.column);
      return new Set(["labels"]);
    case "add-dim":
      edits.addDim(head);
      return new Set(["labels"]);
    case "remove-dim":
      edits.removeDim(head, edit.column);
      return new Set(["labels"]);
    case "add-value-dim":
      edits.addValueDim(head, valueNamesFor(head, shownValueNames()));
      return new Set(["labels"]);
    case "remove-value-dim":
      edits.removeValueDim(head, edit.column, valueNamesFor(head, shownValueNames()));
      return new Set(["labels"]);
    case "one-hot":
      edits.setOneHotValues(draft, head, edit.oneHot);
      return new Set(["labels"]);
    case "add-head":
      edits.addHead(draft);
      return new Set(["labels"]);
    case "remove-head":
      if (draft.heads.length > 1) edits.removeHead(draft, edit.head);
      return new Set(["labels"]);
    case "mask-mode":
      edits.setMaskMode(draft, edit.mode, state.result?.mask);
      return new Set(["mode"]);
    case "toggle-mask":
      edits.toggleMaskCell(draft, edit.row, edit.column);
      return new Set(["mode"]);
    case "scale":
      draft.scale = edit.on;
      return new Set(["mode"]);
    case "shift":
      draft.shift = edit.on;
      return new Set(["mode"]);
    case "positions":
      // Not edited elsewhere on the page, so it travels with the scene's other extra keys.
      draft.extra = { ...draft.extra, positions: edit.mode };
      return new Set(["mode"]);
    default:
      throw new Error(`unknown edit ${edit.kind}`);
  }
}

/** The value-dim names a head shows now (used when an edit gives an unnamed Wv its names). */
function valueNamesFor(head, fromResult) {
  const count = head.Wv ? head.Wv[0]?.length ?? 0 : 0;
  if (head.valueDims) return head.valueDims;
  return fromResult.length === count ? fromResult : defaultValueDims(count);
}

/** Keep the focused token sensible after tokens were added or removed. */
function clampFocus(focus, count, edit) {
  if (edit.kind === "sentence") return defaultFocus(edit.words);
  if (focus === null || count === 0) return count ? count - 1 : null;
  if (edit.kind === "remove-token" && edit.row < focus) return focus - 1;
  return Math.min(focus, count - 1);
}
