/**
 * Sharing and saving, put together: which scene the page opens with (a link in the URL, else the
 * learner's saved edits, else the default example), saving every edit in this browser, the link a
 * learner copies, and opening a scene file.
 *
 * The promise to the learner: nothing they made is ever silently thrown away. Their edits of each
 * example are saved under that example's id; when a link, a file or "reset to example" replaces
 * saved edits, those edits are first put aside ("kept") and the page says so, with a button that
 * brings them back (a swap, so the version that replaced them is kept in turn).
 *
 * State it adds to the store (see state.js):
 *   notice      {text, tone: "info" | "error", action: {label, run} | null} | null   (part "notice")
 *   saveStatus  {saved: boolean, problem: string | null, kept: boolean}          (part "saved")
 */

import { PANEL_NAMES, cleanView } from "../page/view.js";
import { PermalinkError, decodePermalinkHash, encodePermalinkHash, makePayload } from "./permalink.js";
import { canonicalJson, createDraftStore, sceneIdentity } from "./saved-drafts.js";
import { sceneShapeProblem } from "../scene/shape.js";
import { draftFromScene, sceneFromDraft } from "../scene/draft.js";

// Saving waits for a pause in typing; anything pending is written at once before the scene changes
// and when the page is hidden or closed.
const SAVE_DELAY_MS = 300;
const MAX_FILE_BYTES = 8_000_000;
// Changes that mean the learner edited the draft.
const EDIT_PARTS = ["values", "labels", "shape", "mode"];

/** A title or file name in quotes, unless it brings its own. */
const quoted = (text) => (/["“”]/.test(text) ? text : `“${text}”`);

/**
 * @param {object} options
 * @param {ReturnType<import("../page/state.js").createStore>} options.store
 * @param {{requestDraft: () => void, computeScene: (scene: object) => Promise<object>}} options.recompute
 * @param {(scene: object, options: {presetId: string}) => void} options.loadScene shows a preset's scene as shipped
 * @param {(tokens: string[]) => number|null} options.defaultFocus
 * @param {string} options.presetsUrl where presets/<id>.json live
 * @param {string} options.defaultPreset the example shown when there is nothing else
 * @param {string} [options.mode] the storage mode ("page"; an embedded playground passes its own)
 * @param {(scene: object, what: string) => string|null} [options.lockedBy] why a course page's locks forbid
 *   replacing what is on screen with `scene` (described as `what`), or null when they allow it
 */
export function createSharing({ store, recompute, loadScene, defaultFocus, presetsUrl, defaultPreset, mode = "page", lockedBy = () => null }) {
  const drafts = createDraftStore({
    mode,
    onProblem: (problem) => setSaveStatus({ problem }),
  });
  /** Drafts that are saved edits being brought back, with the id they are saved under. */
  const restoring = new WeakMap();
  /** What is on screen, as saving sees it. */
  let shown = { draft: null, sceneId: null, presetId: null, title: "", view: null };
  let saveTimer = null;

  store.update({ notice: null, saveStatus: { saved: false, problem: null, kept: false } }, "notice", "saved");

  function setSaveStatus(patch) {
    store.update({ saveStatus: { ...store.state.saveStatus, ...patch } }, "saved");
  }

  /** Show a message (replacing any before it); `action` adds one button. */
  function notify(text, { tone = "info", action = null } = {}) {
    store.update({ notice: { text, tone, action } }, "notice");
  }

  // ---- saving ---------------------------------------------------------------------------------

  function saveNow() {
    clearTimeout(saveTimer);
    saveTimer = null;
    if (!shown.draft) return;
    const ok = drafts.save(shown.sceneId, { presetId: shown.presetId, title: shown.title, draft: shown.draft, view: shown.view });
    if (ok) setSaveStatus({ saved: true, problem: null });
  }

  /** What is saved and linked besides the scene: the focused token, the head, and the page's view. */
  function viewOf(state) {
    return { focus: state.focusToken, head: state.activeHead, ...state.view };
  }

  function scheduleSave(state) {
    shown.view = viewOf(state);
    shown.title = state.draft.title ?? "";
    clearTimeout(saveTimer);
    saveTimer = setTimeout(saveNow, SAVE_DELAY_MS);
  }

  store.subscribe((state, changes) => {
    if (!state.draft) return;
    if (state.draft !== shown.draft) {
      // A whole new draft: first write what the old one still owes, then follow the new one.
      if (saveTimer) saveNow();
      const restoredId = restoring.get(state.draft);
      const sceneId = restoredId ?? sceneIdentity(sceneFromDraft(state.draft), state.presetId);
      let kept = false;
      if (!restoredId) {
        const saved = drafts.load(sceneId);
        if (saved && canonicalJson(saved.draft) !== canonicalJson(state.draft)) kept = drafts.keep(sceneId);
      }
      shown = { draft: state.draft, sceneId, presetId: state.presetId, title: state.draft.title ?? "", view: viewOf(state) };
      drafts.setCurrent(sceneId);
      setSaveStatus({ saved: Boolean(restoredId) || Boolean(drafts.load(sceneId)), kept: Boolean(drafts.loadKept(sceneId)) });
      // A scene of one's own (a file, a link, the API) is saved at once: there is no example to go back to.
      if (!state.presetId || state.edited) scheduleSave(state);
      if (kept) {
        const name = state.draft.title ? quoted(state.draft.title) : "this scene";
        notify(`This replaced your saved edits of ${name}. They are kept in this browser.`, { action: { label: "bring my edits back", run: () => restoreKept() } });
      }
      return;
    }
    const edited = EDIT_PARTS.some((part) => changes.has(part)) && state.edited;
    const looked = ["focus", "head", "view"].some((part) => changes.has(part)) && (state.edited || !state.presetId);
    if (edited || looked) scheduleSave(state);
  });

  // Write anything pending before the page goes away (a reload, a closed tab, a hidden tab).
  window.addEventListener("pagehide", () => saveTimer && saveNow());
  document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && saveTimer && saveNow());

  // ---- showing scenes -------------------------------------------------------------------------

  /**
   * Put a draft on the page as a whole (not an edit) and have Python compute it. `view`, when given (a link,
   * saved work), is how the page looked around it: the panels shown and open, the tabs chosen.
   */
  function showDraft(draft, { presetId = null, edited = true, focus = null, head = 0, view = null, restoredAs = null }) {
    if (restoredAs) restoring.set(draft, restoredAs);
    const tokens = draft.tokens.length;
    store.update(
      {
        draft,
        presetId,
        edited,
        activeHead: Math.min(Math.max(0, head), Math.max(0, draft.heads.length - 1)),
        focusToken: Number.isInteger(focus) && focus >= 0 && focus < tokens ? focus : defaultFocus(draft.tokens),
        hover: null,
        error: null,
        ...(view ? { view: cleanView(view) } : {}),
      },
      "scene", "shape", "labels", "values", "mode", "presets", "focus", "head", "hover", "error", ...(view ? ["view"] : []),
    );
    recompute.requestDraft();
  }

  /** A saved record, checked: its draft must make a scene the page can draw. */
  function usable(record) {
    if (!record) return null;
    try {
      return sceneShapeProblem(sceneFromDraft(record.draft)) ? null : record;
    } catch {
      return null;
    }
  }

  function showRecord(record) {
    showDraft(record.draft, { presetId: record.presetId ?? null, edited: true, focus: record.view?.focus, head: record.view?.head, view: record.view ?? null, restoredAs: record.sceneId });
  }

  /**
   * If there are saved edits of example `id`, show them (and say so); returns whether it did.
   * @param {string} id
   */
  function showSavedEdits(id) {
    const record = usable(drafts.load(id));
    if (!record) return false;
    showRecord(record);
    return true;
  }

  let presetIds = null;
  /** The ids of the shipped examples (fetched once), so that an unknown id is never requested. */
  function knownPresets() {
    presetIds ??= fetch(`${presetsUrl}index.json`)
      .then((response) => (response.ok ? response.json() : []))
      .then((list) => new Set(list.map((preset) => preset.id)))
      .catch(() => new Set());
    return presetIds;
  }

  async function fetchPreset(id) {
    if (!(await knownPresets()).has(id)) throw new Error("there is no such example");
    const response = await fetch(`${presetsUrl}${encodeURIComponent(id)}.json`);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return response.json();
  }

  /** Show example `id`: the learner's saved edits of it if any, else as shipped. Returns success. */
  async function openPreset(id) {
    let scene;
    try {
      scene = await fetchPreset(id);
    } catch {
      return false;
    }
    if (!showSavedEdits(id)) {
      loadScene(scene, { presetId: id });
      recompute.requestDraft();
    }
    return true;
  }

  /** Refuse, and say why, a scene that would change what a course page locked; true when refused. */
  function refusedByLocks(scene, what) {
    const reason = lockedBy(scene, what);
    if (reason) notify(reason, { tone: "error" });
    return Boolean(reason);
  }

  /** Swap the kept edits of the scene on screen with what is saved, and show them. */
  function restoreKept() {
    if (saveTimer) saveNow();
    const kept = usable(drafts.loadKept(shown.sceneId));
    if (kept && refusedByLocks(sceneFromDraft(kept.draft), "your kept edits")) return;
    const record = usable(drafts.swapKept(shown.sceneId));
    if (!record) {
      notify("There are no kept edits to bring back.", { tone: "error" });
      return;
    }
    showRecord(record);
    notify("Your edits are back. What was showing before is kept in their place.", { action: { label: "swap again", run: () => restoreKept() } });
  }

  /** "Reset to example": the example as shipped; the edits are kept, not deleted. */
  async function resetToPreset(id) {
    if (saveTimer) saveNow();
    let scene;
    try {
      scene = await fetchPreset(id);
    } catch (error) {
      notify(`Could not load the example ${quoted(id)}: ${error.message}`, { tone: "error" });
      return;
    }
    if (refusedByLocks(scene, "the example as shipped")) return;
    const had = drafts.keep(id);
    loadScene(scene, { presetId: id });
    recompute.requestDraft();
    if (had) notify("The example is back as it was. Your edits are kept in this browser.", { action: { label: "bring my edits back", run: () => restoreKept() } });
  }

  /**
   * Open what the URL's hash says; never throws.
   * @returns {Promise<{opened: boolean, problem: string|null}>} problem: why a link could not be opened
   */
  async function openHash(hash) {
    let link;
    try {
      link = await decodePermalinkHash(hash);
    } catch (error) {
      return { opened: false, problem: error instanceof PermalinkError ? error.message : "This link cannot be read." };
    }
    if (!link) return { opened: false, problem: null };
    if (link.kind === "preset") {
      if (await openPreset(link.id)) return { opened: true, problem: null };
      return { opened: false, problem: `This link names an example, ${quoted(link.id)}, that this page does not have.` };
    }
    const { payload } = link;
    showDraft(draftFromScene(payload.scene), {
      presetId: payload.preset,
      edited: payload.edited || !payload.preset,
      focus: payload.view.focus,
      head: payload.view.head,
      view: payload.view,
    });
    if (payload.view.panels.length < PANEL_NAMES.length) {
      const showAll = () => store.update({ view: { ...store.state.view, panels: [...PANEL_NAMES] }, notice: null }, "view", "notice");
      notify("This link shows only some of the panels.", { action: { label: "show all panels", run: showAll } });
    }
    return { opened: true, problem: null };
  }

  /** The link is read once; then the address is the page's own, so a reload opens the saved work. */
  function clearHash() {
    history.replaceState(history.state, "", `${location.pathname}${location.search}`);
  }

  window.addEventListener("hashchange", async () => {
    const { hash } = location;
    if (!hash || hash === "#") return;
    if (saveTimer) saveNow();
    const { problem } = await openHash(hash);
    clearHash();
    if (problem) notify(`${problem} The page is as it was.`, { tone: "error" });
  });

  return {
    showSavedEdits,
    resetToPreset,
    refusedByLocks,
    restoreKept,
    notify,
    dismissNotice: () => store.update({ notice: null }, "notice"),

    /**
     * Open the page's first scene: the link in the hash, else the saved work, else the default
     * example as saved. Resolves to whether a scene was put on screen (if not, the shipped preview
     * of the default example is what to show).
     */
    async start() {
      const hash = location.hash;
      let problem = null;
      if (hash && hash !== "#") {
        const opened = await openHash(hash);
        clearHash();
        if (opened.opened) return true;
        problem = opened.problem;
      }
      const fellBack = (what) => problem && notify(`${problem} Showing ${what} instead.`, { tone: "error" });
      const current = drafts.current();
      const record = current ? usable(drafts.load(current)) : null;
      if (record) {
        showRecord(record);
        fellBack("your saved work");
        return true;
      }
      if (current && current !== defaultPreset && !current.startsWith("scene-") && (await openPreset(current))) {
        fellBack("the example you had open");
        return true;
      }
      const saved = showSavedEdits(defaultPreset);
      fellBack(saved ? "your saved work" : "the first example");
      return saved;
    },

    /** The link to what is on screen now: the scene, the example it came from, the view. */
    async link() {
      const { state } = store;
      if (!state.draft) throw new Error("there is no scene yet");
      const payload = makePayload({ scene: sceneFromDraft(state.draft), preset: state.presetId, edited: state.edited, view: viewOf(state) });
      return `${location.origin}${location.pathname}${location.search}${await encodePermalinkHash(payload)}`;
    },

    /**
     * Open a scene file the learner chose or dropped: it goes through Python like any scene, so a
     * bad one gets the module's own message and the page stays as it was.
     * @param {File} file
     */
    async openFile(file) {
      const name = quoted(file.name);
      if (file.size > MAX_FILE_BYTES) {
        notify(`${name} is too large to be a scene file (${Math.round(file.size / 1e6)} MB).`, { tone: "error" });
        return false;
      }
      let scene;
      try {
        scene = JSON.parse(await file.text());
      } catch (error) {
        notify(`${name} is not a scene file: it is not JSON (${error.message}).`, { tone: "error" });
        return false;
      }
      if (scene === null || typeof scene !== "object" || Array.isArray(scene)) {
        notify(`${name} is JSON but not a scene: a scene is an object with tokens, features, X and heads.`, { tone: "error" });
        return false;
      }
      if (refusedByLocks(scene, name)) return false;
      notify(store.state.boot.live ? `Opening ${name}…` : `Opening ${name} as soon as Python is live…`);
      try {
        await recompute.computeScene(scene);
      } catch (error) {
        notify(`${name} cannot be shown: ${error.message}`, { tone: "error" });
        return false;
      }
      if (store.state.notice?.text?.startsWith("Opening")) notify(`Opened ${name}.`);
      return true;
    },
  };
}
