/**
 * The playground as a notebook widget (anywidget): the page's own views (the heatmap, the bars, the mask
 * controls, the feature table, the weight matrices) over the page's own state store, edits and recompute loop,
 * with the notebook's kernel in Python's place (kernel-service.js). attention_playground/widget.py is the other
 * half; sitebuild/notebook.py bundles this module and everything it imports into the wheel.
 *
 * The model's traits and the store are kept in step: `scene` (the learner's scene; a new one from Python is
 * put on screen), `result` and `error` (written by the kernel), `focused_row` (both ways), `panels` (from
 * Python), and `picture_svg` / `picture_png` (the heatmap as the page exports it, written here once the
 * updates pause, for `export_svg()` and `export_png()` in Python).
 */

import { BELOW_HEATMAP, SCENE_VIEW_TIMINGS } from "../state/redraw-schedule.js";
import { createSceneSession, createStore } from "../state/session.js";
import { heatmapPicture, pngFromSvg } from "../sharing/export.js";
import { mountSceneViews } from "../ui/scene-views.js";
import { createKernelService } from "./kernel-service.js";
import { followNotebookTheme } from "./notebook-theme.js";

/** How long the updates must pause before the picture for export_svg() is made again. */
const PICTURE_PAUSE_MS = 400;

let widgetCount = 0;

/**
 * Keys typed in the widget are the widget's. JupyterLab reads every key before the page does, and its shortcuts
 * skip an element marked `data-lm-suppress-shortcuts`: each element of the widget that takes the focus is
 * marked, so typing "0" in a cell does not restart the kernel and the arrow keys move in the heatmap, not
 * between notebook cells. A grid cell turns into an input as it takes the focus; the notebook, told that the
 * focus went to the cell that is gone from the page, would take it back: that news stops here.
 * @param {HTMLElement} root
 */
function keepKeysAndFocus(root) {
  root.addEventListener("focusin", (event) => {
    if (!/** @type {Element} */ (event.target).isConnected) {
      event.stopPropagation();
      return;
    }
    /** @type {Element} */ (event.target).setAttribute("data-lm-suppress-shortcuts", "true");
  });
}

/**
 * The widget's frame: the page's panels, named as the page names them (layout/panels.js), in the page's grid.
 * @param {HTMLElement} el
 */
function frame(el) {
  const n = ++widgetCount; // ids unique on a notebook page that shows several playgrounds
  const root = document.createElement("div");
  root.className = "attention-playground"; // what the widget's stylesheet is scoped to, and its theme
  root.dataset.testid = "notebook-playground";
  root.innerHTML = `
    <div class="playground" data-status="live">
      <section class="toolbar" aria-label="Settings"><div class="mask-controls" data-panel="controls" data-testid="mask-controls"></div></section>
      <section class="panel heatmap-panel" data-panel="heatmap" data-testid="heatmap-panel" aria-label="Attention weights"></section>
      <aside class="panel bars-panel" data-panel="bars" data-testid="bars-panel" aria-live="polite"></aside>
      <section class="panel feature-editor" data-panel="features" data-testid="feature-editor" aria-labelledby="ap-features-${n}">
        <h2 id="ap-features-${n}">Words and their features <span class="matrix-symbol">X</span></h2>
      </section>
      <section class="panel weight-editor" data-panel="weights" data-testid="weight-editor" aria-labelledby="ap-weights-${n}">
        <h2 id="ap-weights-${n}">Query, key and value weights</h2>
      </section>
    </div>`;
  keepKeysAndFocus(root);
  el.replaceChildren(root);
  const playground = /** @type {HTMLElement} */ (root.firstElementChild);
  /** @param {string} name */
  const panel = (name) => /** @type {HTMLElement} */ (root.querySelector(`[data-panel="${name}"]`));
  return { root, playground, panel };
}

/**
 * anywidget's render: draw the model's scene in `el` and keep it in step with the kernel.
 * @param {{model: object, el: HTMLElement}} context
 * @returns {() => void} the clean-up anywidget calls when the view is removed
 */
function render({ model, el }) {
  const { root, playground, panel } = frame(el);
  const stopTheme = followNotebookTheme(root);
  const store = createStore();
  const kernel = createKernelService(model);
  // The page's own scene session, computing in the kernel: the learner's edits, focus and hover are the page's.
  const session = createSceneSession({ store, compute: (scene) => kernel.compute(scene) });
  const actions = {
    ...session.viewActions,
    setView: (patch) => store.update({ view: { ...store.state.view, ...patch } }, "view"),
    notify: () => {},
  };

  const { heatmap } = mountSceneViews(panel, { root, store, actions, when: SCENE_VIEW_TIMINGS });
  // Drawn once the first scene is on screen with every view (this subscriber is the last deferred one).
  const shown = store.subscribe((state) => {
    if (!state.draft) return;
    playground.dataset.drawn = "true";
    shown();
  }, BELOW_HEATMAP);

  /** The model's scene, result and error on screen (a scene Python set, or the first one). */
  function showModelScene() {
    const scene = model.get("scene");
    if (!scene || !Array.isArray(scene.tokens)) return;
    // The kernel computed it already: its result (or its error, with the last good result) is shown as it is.
    session.show({ scene, result: model.get("result") ?? undefined, error: model.get("error") ?? null, focus: model.get("focused_row") });
  }

  function showPanels() {
    const shown = model.get("panels") ?? [];
    for (const element of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-panel]"))) element.hidden = !shown.includes(element.dataset.panel);
  }

  function followFocusFromKernel() {
    const row = model.get("focused_row");
    if (row !== store.state.focusToken && (row === null || (Number.isInteger(row) && row >= 0 && row < (store.state.draft?.tokens.length ?? 0)))) {
      session.focus(row);
    }
  }

  // The picture for export_svg() / export_png(), made again once the updates pause.
  let pictureTimer = null;
  async function writePicture() {
    const { result, activeHead } = store.state;
    const drawn = heatmap.picture();
    if (!result || !drawn.heatmap) return;
    const head = result.heads[Math.min(activeHead, result.heads.length - 1)];
    const title = `Attention weights: ${result.title ?? ""}${result.heads.length > 1 ? ` (${head.name})` : ""}`;
    const { text, width, height } = heatmapPicture({ ...drawn, title });
    model.set("picture_svg", text);
    try {
      const png = await pngFromSvg(text, width, height);
      model.set("picture_png", new DataView(await png.arrayBuffer()));
    } catch {
      // A notebook whose policy forbids drawing an SVG on a canvas still has the SVG.
    }
    model.save_changes();
  }
  store.subscribe((state, changes) => {
    if (changes.has("focus") && model.get("focused_row") !== state.focusToken) {
      model.set("focused_row", state.focusToken);
      model.save_changes();
    }
    if (["result", "head", "scene"].some((part) => changes.has(part))) {
      clearTimeout(pictureTimer);
      pictureTimer = setTimeout(() => writePicture().catch(() => {}), PICTURE_PAUSE_MS);
    }
  });

  model.on("change:scene", showModelScene);
  model.on("change:focused_row", followFocusFromKernel);
  model.on("change:panels", showPanels);
  showPanels();
  showModelScene();
  store.update({ boot: { stage: "ready", detail: "", live: true, failed: false, message: "" } }, "boot");
  session.setLive(true); // the kernel is there: edits compute from now on

  return () => {
    clearTimeout(pictureTimer);
    model.off("change:scene", showModelScene);
    model.off("change:focused_row", followFocusFromKernel);
    model.off("change:panels", showPanels);
    kernel.dispose();
    stopTheme();
  };
}

export default { render };
