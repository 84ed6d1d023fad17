/**
 * The heatmap's words: the same weights as a data table (for screen readers, and on request for anyone),
 * and a spoken one-line summary of what changed ("“it” now attends 65% to “cat”").
 *
 * The table is hidden visually until "show as table" is pressed, but always present for assistive technology.
 * It is redrawn when the page is idle (while hidden, once the weights stay still), not on every keystroke: a
 * 64 × 64 table is 4,096 cells, and the heatmap is what must keep up with typing.
 */

import { make, makeButton, markShown, withTestId } from "../shared/dom.js";
import { formatPercent, quoted } from "../shared/format.js";
import { makeTableGrid } from "../shared/table-grid.js";

/** How long the weights must stay still before the summary is spoken (typing "0.75" is one change, not four). */
const ANNOUNCE_AFTER_MS = 600;

/** The sentence for the focused token's row: where most of its attention goes, or why nothing can. */
function attentionSummary(result, headIndex, focusRow) {
  if (!result || focusRow === null || focusRow === undefined || focusRow >= result.tokens.length) return "";
  const head = result.heads[Math.min(headIndex, result.heads.length - 1)];
  const weights = head.weights[focusRow];
  const token = quoted(result.tokens[focusRow]);
  const readable = weights.map((weight, j) => ({ weight, j })).filter(({ weight, j }) => weight !== null && !result.mask?.[focusRow]?.[j]);
  if (readable.length === 0) {
    return weights.some((weight) => weight === null)
      ? `${token}: its weights are not numbers (nan); see the note above the grid.`
      : `${token} may not read any token, so it reads nothing.`;
  }
  const top = readable.reduce((best, entry) => (entry.weight > best.weight ? entry : best));
  const headName = result.heads.length > 1 ? ` in ${head.name}` : "";
  return `${token} now attends ${formatPercent(top.weight)} to ${quoted(result.tokens[top.j])}${headName}.`;
}

/** The table's header cells and body for `n` tokens, after its `caption`: {cells[i][j], headerCells, rowHeaders}. */
function buildTable(table, caption, n) {
  const corner = make("th", "", "asks \\ answers");
  corner.scope = "col";
  const header = () => make("th");
  const grid = makeTableGrid({ rows: n, columns: n, corner, columnHead: header, rowHead: header, cell: (i) => {
    const td = make("td");
    td.dataset.row = String(i); // a lesson may hold a row back (ui/lessons/held-parts.js)
    return td;
  } });
  table.replaceChildren(caption, grid.head, grid.body);
  return { cells: grid.cells, headerCells: grid.columnHeads, rowHeaders: grid.rowHeads };
}

/**
 * Run `draw` at most once per burst of updates: when the page is idle if the table is shown; if it is there only
 * for screen readers, once the weights have stayed still as long as the spoken summary waits. A stream of
 * updates (typing, a course page's script) then lays out its cells (4,096 at 64 tokens, some 20 ms) once at
 * its end, not at every pause.
 * @returns {(tableShown: boolean) => void} asks for a draw
 */
function drawOncePerBurst(draw) {
  const idle = window.requestIdleCallback ?? ((callback) => setTimeout(callback, 100));
  let drawPending = false;
  let stillTimer = null;
  function drawWhenIdle() {
    if (drawPending) return;
    drawPending = true;
    idle(() => {
      drawPending = false;
      draw();
    }, { timeout: 1000 });
  }
  return (tableShown) => {
    clearTimeout(stillTimer);
    if (tableShown) drawWhenIdle();
    else stillTimer = setTimeout(drawWhenIdle, ANNOUNCE_AFTER_MS);
  };
}

/**
 * Say the focused token's summary in `summary` (a live region) once the weights have stayed still, and only
 * when it changed; nothing while the page shows its first, precomputed result.
 * @returns {() => void} asks for the summary of the store's state once it is still
 */
function announceWhenStill(summary, store) {
  let lastSpoken = "";
  let announceTimer = null;
  return () => {
    clearTimeout(announceTimer);
    if (store.state.resultIsPreview) {
      // The page just opened: nothing has changed yet, so nothing is said, nor when Python's own result replaces
      // the precomputed one with the same weights (at once, not after the wait: Python may be live sooner).
      const { result, activeHead, focusToken } = store.state;
      lastSpoken = attentionSummary(result, activeHead, focusToken);
      return;
    }
    announceTimer = setTimeout(() => {
      const { result, activeHead, focusToken } = store.state;
      const text = attentionSummary(result, activeHead, focusToken);
      if (text && text !== lastSpoken) {
        lastSpoken = text;
        summary.textContent = text;
        // What it speaks of, for a lesson that holds a row back (ui/lessons/held-parts.js).
        markShown(summary, { head: Math.min(activeHead, result.heads.length - 1), focusRow: focusToken });
      }
    }, ANNOUNCE_AFTER_MS);
  };
}

/**
 * Mount the table, its toggle and the live summary at the end of `host` (the heatmap panel).
 * @param {HTMLElement} host
 * @param {{store: import("../../state/session.js").StoreView, when?: import("../../state/redraw-schedule.js").RedrawTiming, actions: {setView: Function}}} context
 *   whether the table is shown is the view's `table` (layout/panels.js)
 */
export function mountWeightsTable(host, { store, actions, when }) {
  const toggle = makeButton("link-button table-toggle", "show as table", "weights-table-toggle");
  toggle.setAttribute("aria-expanded", "false");
  const wrap = withTestId(make("div", "weights-table-wrap visually-hidden"), "weights-table-wrap");
  wrap.setAttribute("role", "region");
  wrap.setAttribute("aria-label", "Attention weights as a table");
  const table = withTestId(make("table", "weights-table"), "weights-table");
  const caption = make("caption");
  table.append(caption);
  wrap.append(table);
  const summary = withTestId(make("p", "visually-hidden"), "attention-summary");
  summary.setAttribute("aria-live", "polite");
  summary.setAttribute("aria-atomic", "true");
  host.append(toggle, wrap, summary);
  toggle.id = "weights-table-toggle";
  wrap.id = "weights-table";
  toggle.setAttribute("aria-controls", wrap.id);

  toggle.addEventListener("click", () => actions.setView({ table: toggle.getAttribute("aria-expanded") !== "true" }));

  function showTable(shown) {
    if (toggle.getAttribute("aria-expanded") === String(shown)) return;
    toggle.setAttribute("aria-expanded", String(shown));
    toggle.textContent = shown ? "hide the table" : "show as table";
    wrap.classList.toggle("visually-hidden", !shown);
    // Shown, it may scroll sideways, so it takes focus for the arrow keys; hidden, it is no tab stop.
    if (shown) wrap.tabIndex = 0;
    else wrap.removeAttribute("tabindex");
    if (shown) drawTable(store.state);
  }

  let builtFor = -1;
  let parts = { cells: [], headerCells: [], rowHeaders: [] };

  function drawTable(state) {
    const { result } = state;
    if (!result) return;
    const n = result.tokens.length;
    const shownHead = Math.min(state.activeHead, result.heads.length - 1);
    const head = result.heads[shownHead];
    markShown(table, { head: shownHead }); // the head its rows are, for a lesson that holds one back (held-parts.js)
    if (builtFor !== n) {
      parts = buildTable(table, caption, n);
      builtFor = n;
    }
    // Weights drawn with the learner's own function may break the rule: then the caption says how.
    const problem = result.drawn_with_problems?.[0];
    caption.textContent = `Attention weights of ${head.name}: each row is a token asking, each column a token answering${problem ? `. ${problem}` : "; each row adds up to 100%."}`;
    const { cells, headerCells, rowHeaders } = parts;
    result.tokens.forEach((token, j) => {
      if (headerCells[j].textContent !== token) headerCells[j].textContent = token;
      if (rowHeaders[j].textContent !== token) rowHeaders[j].textContent = token;
    });
    for (let i = 0; i < n; i += 1) {
      for (let j = 0; j < n; j += 1) {
        const text = result.mask?.[i]?.[j] ? "× masked" : formatPercent(head.weights[i][j]);
        if (cells[i][j].textContent !== text) cells[i][j].textContent = text;
      }
    }
  }

  const scheduleDraw = drawOncePerBurst(() => drawTable(store.state));
  const scheduleSummary = announceWhenStill(summary, store);
  store.subscribe((state, changes) => {
    if (changes.has("view")) showTable(state.view.table);
    if (!state.result) return;
    if (["result", "head", "scene"].some((part) => changes.has(part))) scheduleDraw(store.state.view.table);
    if (["result", "focus", "head"].some((part) => changes.has(part))) scheduleSummary();
  }, when);
  showTable(store.state.view.table);
}
