/**
 * The panel around the heatmap: the scene's title, the "preview" badge until Python is live, a note
 * when the draft has an error (the last good heatmap stays, dimmed), the module's notes on a surprising
 * result (such as nan from the overflow trap), one small heatmap per head when
 * there are several (click one to edit that head), the big heatmap of the head being edited, and the
 * colour legend.
 */

import { createLegend } from "./colour-scale.js";
import { make } from "../shared/dom.js";
import { createHeatmap } from "./heatmap.js";
import { quoted } from "../shared/format.js";

/**
 * The rows of `head` whose query is all zeros: every key scores 0 against such a query, so the row spreads its
 * weight evenly over what it may read (in the default example, every word but "it").
 */
export function zeroQueryRows(head) {
  const Q = head.stages?.Q ?? [];
  return Q.map((row, i) => (row.length > 0 && row.every((value) => value === 0) ? i : -1)).filter((i) => i >= 0);
}

/** One line on the rows that ask with a zero query, or "" when there are none. */
export function zeroQueryNote(tokens, head) {
  const rows = zeroQueryRows(head);
  if (!rows.length) return "";
  const one = rows.length === 1;
  const who = rows.length === tokens.length ? "Every word asks" : one ? `${quoted(tokens[rows[0]])} asks` : `${rows.length} of ${tokens.length} words ask`;
  return `${who} with a query of all zeros (none of ${one ? "its" : "their"} features has a Wq row set): every key scores 0 ` +
    `against such a query, so ${one ? "its row spreads" : "their rows spread"} evenly over the words ${one ? "it" : "they"} may read.`;
}

/**
 * Mount the panel in `host`.
 * @param {HTMLElement} host
 * @param {{store: ReturnType<import("../../page/state.js").createStore>, actions: object}} context
 * @returns {{area: HTMLElement, picture: () => {heatmap: SVGSVGElement, legend: SVGSVGElement}}}
 */
export function mountHeatmapPanel(host, { store, actions }) {
  const header = make("div", "panel-head");
  const title = make("h2", "scene-title");
  title.dataset.testid = "scene-title";
  const badge = make("span", "badge", "preview — Python is starting");
  badge.dataset.testid = "preview-badge";
  badge.title = "Computed in advance with the same Python module; it becomes live as soon as Python has started in your browser.";
  header.append(title, badge);

  const staleNote = make("p", "stale-note");
  staleNote.dataset.testid = "stale-note";
  staleNote.setAttribute("role", "status");
  staleNote.hidden = true;

  const warnings = make("ul", "result-warnings");
  warnings.dataset.testid = "result-warnings";
  warnings.hidden = true;

  const strip = make("div", "head-strip");
  strip.dataset.testid = "head-strip";
  strip.hidden = true; // shown only for a result with two heads or more; empty, its margin would still push
  let thumbs = [];

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
  const waitingNote = make("p", "waiting-note");
  waitingNote.dataset.testid = "waiting-note";
  waitingNote.setAttribute("role", "status");
  waitingNote.hidden = true;

  const footer = make("div", "legend-row");
  const hint = make("p", "panel-note heatmap-hint");
  const zeroQuery = make("p", "panel-note zero-query-note");
  zeroQuery.dataset.testid = "zero-query-note";
  footer.append(createLegend("legend"), hint, zeroQuery);
  host.append(header, staleNote, waitingNote, warnings, strip, main.element, footer);

  /** A custom mask can be edited on the grid only when the grid shows the draft's tokens. */
  function maskMatchesResult() {
    const { draft, result } = store.state;
    return Boolean(result && draft && result.tokens.length === draft.tokens.length);
  }

  function renderStrip(state) {
    const heads = state.result.heads;
    if (heads.length < 2) {
      strip.replaceChildren();
      strip.hidden = true;
      thumbs = [];
      return;
    }
    strip.hidden = false;
    if (thumbs.length !== heads.length) {
      thumbs = heads.map((_, h) => {
        const button = make("button", "head-thumb");
        button.type = "button";
        button.dataset.testid = "head-thumb";
        button.dataset.head = String(h);
        const heatmap = createHeatmap({ compact: true });
        const name = make("span", "head-thumb-name");
        button.append(heatmap.element, name);
        button.addEventListener("click", () => actions.selectHead(h));
        return { button, heatmap, name };
      });
      strip.replaceChildren(make("span", "strip-label", "Heads:"), ...thumbs.map((thumb) => thumb.button));
    }
    heads.forEach((head, h) => {
      const thumb = thumbs[h];
      thumb.name.textContent = head.name;
      thumb.button.setAttribute("aria-pressed", String(h === state.activeHead));
      thumb.button.setAttribute("aria-label", `Show and edit ${head.name}`);
      thumb.heatmap.update({ tokens: state.result.tokens, head, mask: state.result.mask, scale: state.result.scale, focusRow: null, hover: null });
    });
  }

  function render(state) {
    const { result } = state;
    badge.hidden = !state.resultIsPreview;
    if (state.boot.failed) badge.textContent = "preview — Python could not start";
    else badge.textContent = "preview — Python is starting";
    staleNote.hidden = !state.error;
    host.classList.toggle("stale", Boolean(state.error));
    if (state.error) staleNote.textContent = `⚠ ${state.error.message} — showing the last good result.`;
    if (!result) {
      // A scene with nothing computed yet (Python is starting): its grid at its size, blank until it is.
      if (state.draft) {
        title.textContent = state.draft.title ?? "";
        main.update({ tokens: state.draft.tokens, pending: true, focusRow: state.focusToken, hover: null });
        hint.textContent = "The weights appear as soon as Python has computed them.";
      }
      return;
    }
    // The draft's title first: a sentence the learner typed retitles the scene before Python has answered.
    title.textContent = state.draft?.title ?? result.title ?? "";
    const headIndex = Math.min(state.activeHead, result.heads.length - 1);
    const head = result.heads[headIndex];
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
    renderStrip(state);
    // The module's plain-language notes on surprising results (nan from the overflow trap, rows that read nothing).
    const notes = Array.isArray(result.warnings) ? result.warnings : [];
    warnings.hidden = notes.length === 0;
    warnings.replaceChildren(...notes.map((note) => make("li", "", note)));
    const problems = result.drawn_with_problems ?? [];
    hint.classList.toggle("problem", problems.length > 0);
    if (problems.length) hint.textContent = `${problems[0]} Click a row to see where that token looks.`;
    else if (maskEditable) hint.textContent = "Custom mask: click a cell to forbid that read (×), click again to allow it. Click a row label to focus that token.";
    else hint.textContent = "Each row adds up to 1. Click a row to see where that token looks; hover or tap a cell for its score.";
    zeroQuery.textContent = zeroQueryNote(result.tokens, head);
    zeroQuery.hidden = !zeroQuery.textContent;
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
    picture: () => ({ heatmap: main.element.querySelector("svg.heatmap"), legend: footer.querySelector("svg.legend") }),
  };
}
