/**
 * The page's first scene, and links: the link in the address (a course page's frame's address is its author's),
 * else the learner's saved work, else the default example as they left it, else the shipped preview of it. A link
 * pasted into an open page's address is opened too. Each ends in the scene loader (loading/scene-loader.js).
 */

import { MODULE_FACTS } from "../../generated/module-facts.js";
import { draftFromScene } from "../scene/draft.js";
import { clearHash, quotedName, readLink } from "../sharing/links.js";
import { OPEN_AT_PANELS, PANEL_NAMES } from "../layout/panels.js";

const DEFAULT_PRESET = MODULE_FACTS.defaultPresetId;

/**
 * A link to a lesson's step: the lesson opens there, over the scene its step shows; {opened, problem}.
 * @param {{id?: string, src?: string, step: string|null, preview?: boolean}} link
 * @param {(lesson: {id?: string, src?: string, step: string|null, preview?: boolean}) => Promise<object>} openLesson
 */
async function openLessonLink({ id, src, step, preview }, openLesson) {
  try {
    await openLesson({ id, src, step, preview });
    return { opened: true, problem: null };
  } catch (error) {
    return { opened: false, problem: `This link names a lesson that cannot be opened: ${error.message}.` };
  }
}

/**
 * Open each link pasted into the address of an open page. Whatever happens, the link leaves the address (left there,
 * it would be opened again on the next reload) and the learner hears why it did not open. Links open one after
 * another, in the order they were pasted: one pasted while another is opening waits for it, so the last one shown is
 * the last one pasted (a preset that Python draws would otherwise land after a link drawn at once from its preview).
 * @param {(hash: string, options: {by: string}) => Promise<{problem: string|null}>} openLink
 * @param {(text: string, options?: object) => void} notify
 */
function followPastedLinks(openLink, notify) {
  async function openPasted(hash) {
    let problem;
    try {
      ({ problem } = await openLink(hash, { by: "learner" }));
    } catch (error) {
      problem = `This link could not be opened: ${error instanceof Error ? error.message : String(error)}.`;
    }
    if (problem) notify(`${problem} The page is as it was.`, { tone: "error" });
  }
  let opening = Promise.resolve();
  window.addEventListener("hashchange", () => {
    const { hash } = location;
    if (!hash || hash === "#") return;
    clearHash(); // read once, before it opens: what it opens may write an address of its own (a lesson's step)
    opening = opening.then(() => openPasted(hash));
    return opening; // the browser ignores it; settled once this link has had its turn
  });
}

/**
 * @param {object} options
 * @param {ReturnType<import("../state/session.js").createSceneSession>} options.session
 * @param {ReturnType<import("./scene-loader.js").createSceneLoader>} options.loader
 * @param {ReturnType<import("../sharing/saved-work.js").createSavedWork>} options.savedWork
 * @param {Promise<{preset: string, scene: object, result: object}>} options.preview the shipped first-paint result
 * @param {(text: string, options?: object) => void} options.notify
 * @param {(place: string) => void} options.reveal take the learner to a place (controller.js)
 * @param {() => void} options.showAllPanels show every panel (a link showed only some), and close the notice
 * @param {(claim: {id: string, steps: number|null, seed: number|null, start: boolean}) => void} options.openClaim
 *   a link chose a claim to test (and may ask for its pair to start): claims.js takes it from there
 * @param {(lesson: {id?: string, src?: string, step: string|null, preview?: boolean}) => Promise<object>} options.openLesson a link to a
 *   lesson's step (a built lesson's id, or a course's own lesson file's address)
 */
export function createFirstScene({ session, loader, savedWork, preview, notify, reveal, showAllPanels, openClaim, openLesson }) {
  /** Show what a link holds; resolves to {opened, problem}. A link in the page's own address is the author's. */
  async function openLink(hash, { by }) {
    const { link, problem } = await readLink(hash);
    if (!link) return { opened: false, problem };
    if (link.kind === "lesson") return openLessonLink(link, openLesson);
    if (link.kind === "preset") {
      try {
        await loader.openPreset(link.id, { by });
        return { opened: true, problem: null };
      } catch {
        return { opened: false, problem: `This link names an example, ${quotedName(link.id)}, that this page does not have.` };
      }
    }
    const { payload } = link;
    // Where the link opens, and whether it starts a claim's test, are said once, here; the page's view keeps neither.
    const { at = null, ...view } = payload.view;
    const { start = false, ...claim } = view.claim ?? {};
    if (view.claim) view.claim = claim;
    // A link to an example as shipped is drawn at once, as the example would be.
    const preview = payload.edited ? {} : await loader.shippedPreview(payload.preset, payload.scene);
    try {
      await loader.showScene({
        draft: draftFromScene(payload.scene, preview.result), presetId: payload.preset, edited: payload.edited || !payload.preset,
        focus: view.focus, head: view.head, view, by, what: "this link", ...preview,
      });
    } catch (error) {
      return { opened: false, problem: error.message };
    }
    if (payload.view.panels.length < PANEL_NAMES.length) {
      notify("This link shows only some of the panels.", { action: { label: "show all panels", run: showAllPanels } });
    } else {
      tellWhereTheLinkOpens({ ...view, at });
    }
    if (view.claim) openClaim({ ...claim, start });
    return { opened: true, problem: null };
  }

  /**
   * A link that opens at a panel below the playground goes there, with the way up; one that sets up the trained
   * model's panel without saying where to open says what waits below, with the way there.
   */
  function tellWhereTheLinkOpens(view) {
    const { at } = view;
    if (at && view.panels.includes(at)) {
      reveal(at);
      notify(`This link opens at ${OPEN_AT_PANELS[at]}, below the playground.`, { action: { label: "go to the top", run: () => reveal("top") } });
    } else if (view.model?.open) {
      notify(`This link also set up ${OPEN_AT_PANELS.model}, further down the page.`, { action: { label: "go there", run: () => reveal("model") } });
    }
  }

  /** The example the learner had open last, if it is not the default one (null when it is gone). */
  async function openLastExample(id) {
    if (!id || id === DEFAULT_PRESET || id.startsWith("scene-")) return false;
    try {
      await loader.openPreset(id, { by: "author" });
      return true;
    } catch {
      return false; // that example is gone: the default one
    }
  }

  /** The default example: the learner's saved edits of it, else the shipped preview, else as Python draws it. */
  async function openDefault() {
    const saved = savedWork.record(DEFAULT_PRESET);
    if (saved) {
      await loader.showRecord(saved, { by: "author" });
      return "your saved work";
    }
    try {
      const { preset, scene, result } = await preview;
      if (!session.state.draft) await loader.showScene({ scene, presetId: preset, result, isPreview: true, by: "author" });
    } catch {
      // No preview shipped: the default example, which Python draws as soon as it is live.
      if (!session.state.draft) await loader.openPreset(DEFAULT_PRESET, { by: "author" }).catch(() => {});
    }
    return "the first example";
  }

  /** The page's first scene (see the file's header). A broken link falls back, and says what it shows instead. */
  async function openFirstScene() {
    let problem = null;
    const { hash } = location;
    if (hash && hash !== "#") {
      clearHash(); // read once, before it opens: what it opens may write an address of its own (a lesson's step)
      const opened = await openLink(hash, { by: "author" }); // the address of a course page's frame is the author's
      if (opened.opened) return;
      problem = opened.problem;
    }
    const fellBack = (what) => problem && notify(`${problem} Showing ${what} instead.`, { tone: "error" });
    const { id, record } = savedWork.current();
    if (record) {
      await loader.showRecord(record, { by: "author" });
      fellBack("your saved work");
    } else if (await openLastExample(id)) {
      fellBack("the example you had open");
    } else {
      // Said before the default example is shown, as the preview may take a moment.
      fellBack(savedWork.record(DEFAULT_PRESET) ? "your saved work" : "the first example");
      await openDefault();
    }
  }

  followPastedLinks(openLink, notify);

  return { openFirstScene, openLink };
}
