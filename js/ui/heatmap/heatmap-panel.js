/**
 * The panel around the heatmap: the scene's title, the "preview" badge until Python is live, a note
 * when the draft has an error (the last good heatmap stays, dimmed), the module's notes on a surprising
 * result (such as nan from the overflow trap), one small heatmap per head when there are several (click one
 * to edit that head; head-strip.js), the big heatmap of the head being edited, and the colour legend.
 */

import { createLegend } from "./colour-scale.js";
import { make, markShown, withTestId } from "../shared/dom.js";
import { createHeadStrip } from "./head-strip.js";
import { createHeatmap } from "./heatmap.js";
import { quoted } from "../shared/format.js";

/**
 * The rows of `head` whose query is all zeros: every key scores 0 against such a query, so the row spreads its
 * weight evenly over what it may read (in the default example, every word but "it").
 */
function zeroQueryRows(head) {
  const Q = head.stages?.Q ?? [];
  return Q.map((row, i) => (row.length > 0 && row.every((value) => value === 0) ? i : -1)).filter((i) => i >= 0);
}

/** One line on the rows that ask with a zero query, or "" when there are none. */
function zeroQueryNote(tokens, head) {
  const rows = zeroQueryRows(head);
  if (!rows.length) return "";
  const one = rows.length === 1;
  const who = rows.length === tokens.length ? "Every word asks" : one ? `${quoted(tokens[rows[0]])} asks` : `${rows.length} of ${tokens.length} words ask`;
  return `${who} with a query of all zeros (none of ${one ? "its" : "their"} features has a Wq row set): every key scores 0 ` +
    `against such a query, so ${one ? "its row spreads" : "their rows spread"} evenly over the words ${one ? "it" : "they"} may read.`;
}

/**
 * The hint under the heatmap: what the weights' problems are, or what a click does. A fact about the weights it
 * states is marked (`states-answer`), so that it is hidden while a lesson asks about the weights (lessons.css).
 * @returns {(string|HTMLElement)[]}
 */
function heatmapHint(problems, maskEditable) {
  if (problems.length) return [`${problems[0]} Click a row to see where that token looks.`];
  if (maskEditable) return ["Custom mask: click a cell to forbid that read (×), click again to allow it. Click a row label to focus that token."];
  return [make("span", "states-answer", "Each row adds up to 1. "), "Click a row to see where that token looks; hover or tap a cell for its score."];
}

/** A note that says what the page is doing (a status for screen readers), hidden until there is something to say. */
function statusNote(className) {
  const note = withTestId(make("p", className), className);
  note.setAttribute("role", "status");
  note.hidden = true;
  return note;
}

/**
 * The scene's title, and the "preview" badge while the heatmap shows what was computed in advance.
 * @returns {{element: HTMLElement, update: (state: object) => void}}
 */
function createSceneHeader() {
  const header = make("div", "panel-head");
  const title = withTestId(make("h2", "scene-title"), "scene-title");
  const badge = withTestId(make("span", "badge", "preview — Python is starting"), "preview-badge");
  badge.title = "Computed in advance with the same Python module; it becomes live as soon as Python has started in your browser.";
  header.append(title, badge);

  function update(state) {
    badge.hidden = !state.resultIsPreview;
    if (state.boot.failed) badge.textContent = "preview — Python could not start";
    else badge.textContent = "preview — Python is starting";
    // The draft's title first: a sentence the learner typed retitles the scene before Python has answered.
    if (state.result) title.textContent = state.draft?.title ?? state.result.title ?? "";
    else if (state.draft) title.textContent = state.draft.title ?? "";
  }

  return { element: header, update };
}

/**
 * What is said under the heatmap: the colour legend and the hint (what a click does, or what is wrong with the
 * weights).
 * @returns {{element: HTMLElement, update: (state: object, maskEditable: boolean) => void,
 *   pending: () => void}} `pending`: said while the weights are being computed
 */
function createLegendRow() {
  const footer = make("div", "legend-row");
  const hint = make("p", "panel-note heatmap-hint");
  footer.append(createLegend("legend"), hint);

  function update({ result }, maskEditable) {
    const problems = result.drawn_with_problems ?? [];
    hint.classList.toggle("problem", problems.length > 0);
    hint.replaceChildren(...heatmapHint(problems, maskEditable));
  }

  function pending() {
    hint.textContent = "The weights appear as soon as Python has computed them.";
  }

  return { element: footer, update, pending };
}

/**
 * The note on rows that ask with a zero query, over the grid: the first example's even rows look like a page that
 * does not work until it is read, so it is read with them, not under them.
 * @returns {{element: HTMLElement, update: (tokens: string[], head: object) => void}}
 */
function createZeroQueryNote() {
  const note = withTestId(make("p", "panel-note zero-query-note"), "zero-query-note");
  note.hidden = true;
  function update(tokens, head) {
    const text = zeroQueryNote(tokens, head);
    if (note.textContent !== text) note.textContent = text;
    note.hidden = !text;
  }
  return { element: note, update };
}

/**
 * Mount the panel in `host`.
 * @param {HTMLElement} host
 * @param {{store: import("../../state/session.js").StoreView, actions: object}} context
 * @returns {{area: HTMLElement, picture: () => {heatmap: SVGSVGElement, legend: SVGSVGElement}}}
 */
export function mountHeatmapPanel(host, { store, actions }) {
  const header = createSceneHeader();
  const staleNote = statusNote("stale-note");
  const warnings = withTestId(make("ul", "result-warnings"), "result-warnings");
  warnings.hidden = true;
  const strip = createHeadStrip({ onSelect: (head) => actions.selectHead(head) });
  const main = createHeatmap({
    onCell(row, column) {
      if (Array.isArray(store.state.draft?.mask) && maskMatchesResult()) actions.edit({ kind: "toggle-mask", row, column });
      else actions.focusToken(row);
    },
    onRowLabel: (row) => actions.focusToken(row),
    onHover: (cell) => actions.hover(cell),
  });
  main.element.dataset.testid = "heatmap-area";
  // Edits typed before Python is live wait for it: said beside the grid, which still shows the example as shipped.
  const waitingNote = statusNote("waiting-note");
  const footer = createLegendRow();
  const zeroQuery = createZeroQueryNote();
  host.append(header.element, staleNote, waitingNote, warnings, strip.element, zeroQuery.element, main.element, footer.element);

  /** A custom mask can be edited on the grid only when the grid shows the draft's tokens. */
  function maskMatchesResult() {
    const { draft, result } = store.state;
    return Boolean(result && draft && result.tokens.length === draft.tokens.length);
  }

  function render(state) {
    const { result } = state;
    if (!result) markShown(host, { head: null, focusRow: null });
    header.update(state);
    staleNote.hidden = !state.error;
    host.classList.toggle("stale", Boolean(state.error));
    if (state.error) staleNote.textContent = `⚠ ${state.error.message} — showing the last good result.`;
    if (!result) {
      // A scene with nothing computed yet (Python is starting): its grid at its size, blank until it is.
      if (state.draft) {
        main.update({ tokens: state.draft.tokens, pending: true, focusRow: state.focusToken, hover: null });
        footer.pending();
      }
      return;
    }
    const shownHead = Math.min(state.activeHead, result.heads.length - 1);
    const head = result.heads[shownHead];
    markShown(host, { head: shownHead, focusRow: state.focusToken }); // for a lesson's held rows
    const maskEditable = Array.isArray(state.draft?.mask) && maskMatchesResult();
    main.update({
      tokens: result.tokens,
      head,
      mask: result.mask,
      scale: result.scale,
      focusRow: state.focusToken,
      hover: state.hover,
      maskEditable,
    });
    strip.update(state);
    // The module's plain-language notes on surprising results (nan from the overflow trap, rows that read nothing).
    const notes = Array.isArray(result.warnings) ? result.warnings : [];
    warnings.hidden = notes.length === 0;
    warnings.replaceChildren(...notes.map((note) => make("li", "", note)));
    footer.update(state, maskEditable);
    zeroQuery.update(result.tokens, head);
  }

  /** The learner edited the scene while the grid still shows the shipped preview: say the edit is waiting. */
  function renderWaiting(state) {
    const waiting = Boolean(state.resultIsPreview && state.edited && !state.boot.failed);
    if (waiting === !waitingNote.hidden) return;
    waitingNote.hidden = !waiting;
    waitingNote.textContent = waiting ? "Your edit is waiting for Python, which is still starting: the grid shows the example as shipped until then, and catches up on its own." : "";
    host.classList.toggle("waiting", waiting);
  }

  store.subscribe((state, changes) => {
    if (["result", "error", "focus", "hover", "head", "boot", "mode", "scene", "shape"].some((part) => changes.has(part))) render(state);
    renderWaiting(state);
  });

  return {
    /** The big heatmap's wrapper (the keyboard's grid; it stays when the SVG inside is rebuilt). */
    area: main.element,
    /** The heatmap and its legend as drawn now, for a picture of them. */
    picture: () => ({ heatmap: main.element.querySelector("svg.heatmap"), legend: footer.element.querySelector("svg.legend") }),
  };
}
