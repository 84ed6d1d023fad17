/**
 * The heatmap's words: the same weights as a data table (for screen readers, and on request for anyone),
 * and a spoken one-line summary of what changed ("“it” now attends 65% to “cat”").
 *
 * The table is hidden visually until "show as table" is pressed, but always present for assistive technology.
 * It is redrawn when the page is idle (while hidden, once the weights stay still), not on every keystroke: a
 * 64 × 64 table is 4,096 cells, and the heatmap is what must keep up with typing.
 */

import { make } from "../shared/dom.js";
import { formatPercent, quoted } from "../shared/format.js";

/** How long the weights must stay still before the summary is spoken (typing "0.75" is one change, not four). */
const ANNOUNCE_AFTER_MS = 600;

/** The sentence for the focused token's row: where most of its attention goes, or why nothing can. */
export function attentionSummary(result, headIndex, focusRow) {
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

/**
 * Mount the table, its toggle and the live summary at the end of `host` (the heatmap panel).
 * @param {HTMLElement} host
 * @param {{store: ReturnType<import("../../page/state.js").createStore>, actions: {setView: Function}}} context
 *   whether the table is shown is the view's `table` (page/view.js)
 */
export function mountWeightsTable(host, { store, actions }) {
  const toggle = make("button", "link-button table-toggle", "show as table");
  toggle.type = "button";
  toggle.dataset.testid = "weights-table-toggle";
  toggle.setAttribute("aria-expanded", "false");
  const wrap = make("div", "weights-table-wrap visually-hidden");
  wrap.setAttribute("role", "region");
  wrap.setAttribute("aria-label", "Attention weights as a table");
  wrap.dataset.testid = "weights-table-wrap";
  const table = make("table", "weights-table");
  table.dataset.testid = "weights-table";
  const caption = make("caption");
  table.append(caption);
  wrap.append(table);
  const summary = make("p", "visually-hidden");
  summary.dataset.testid = "attention-summary";
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

  let builtKey = "";
  let cells = [];
  let headerCells = [];
  let rowHeaders = [];

  function build(n) {
    const head = make("thead");
    const headRow = make("tr");
    const corner = make("th", "", "asks \\ answers");
    corner.scope = "col";
    headerCells = Array.from({ length: n }, () => {
      const th = make("th");
      th.scope = "col";
      return th;
    });
    headRow.append(corner, ...headerCells);
    head.append(headRow);
    const body = make("tbody");
    rowHeaders = [];
    cells = Array.from({ length: n }, () => {
      const tr = make("tr");
      const th = make("th");
      th.scope = "row";
      rowHeaders.push(th);
      const row = Array.from({ length: n }, () => make("td"));
      tr.append(th, ...row);
      body.append(tr);
      return row;
    });
    table.replaceChildren(caption, head, body);
  }

  function drawTable(state) {
    const { result } = state;
    if (!result) return;
    const n = result.tokens.length;
    const headIndex = Math.min(state.activeHead, result.heads.length - 1);
    const head = result.heads[headIndex];
    if (builtKey !== String(n)) {
      build(n);
      builtKey = String(n);
    }
    // Weights drawn with the learner's own function may break the rule: then the caption says how.
    const problem = result.drawn_with_problems?.[0];
    caption.textContent = `Attention weights of ${head.name}: each row is a token asking, each column a token answering${problem ? `. ${problem}` : "; each row adds up to 100%."}`;
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

  // Redraw at most once per burst of updates: when the page is idle if the table is shown; if it is there only
  // for screen readers, once the weights have stayed still as long as the spoken summary waits. A stream of
  // updates (typing, a course page's script) then lays out its cells (4,096 at 64 tokens, some 20 ms) once at
  // its end, not at every pause.
  const idle = window.requestIdleCallback ?? ((callback) => setTimeout(callback, 100));
  let drawPending = false;
  let stillTimer = null;
  function drawWhenIdle() {
    if (drawPending) return;
    drawPending = true;
    idle(() => {
      drawPending = false;
      drawTable(store.state);
    }, { timeout: 1000 });
  }
  function scheduleDraw() {
    clearTimeout(stillTimer);
    if (store.state.view.table) drawWhenIdle();
    else stillTimer = setTimeout(drawWhenIdle, ANNOUNCE_AFTER_MS);
  }

  let lastSpoken = "";
  let announceTimer = null;
  function scheduleSummary() {
    clearTimeout(announceTimer);
    announceTimer = setTimeout(() => {
      const { result, resultIsPreview, activeHead, focusToken } = store.state;
      const text = attentionSummary(result, activeHead, focusToken);
      if (resultIsPreview) {
        lastSpoken = text; // the page just opened: nothing has changed yet, so nothing is said
        return;
      }
      if (text && text !== lastSpoken) {
        lastSpoken = text;
        summary.textContent = text;
      }
    }, ANNOUNCE_AFTER_MS);
  }

  store.subscribe((state, changes) => {
    if (changes.has("view")) showTable(state.view.table);
    if (!state.result) return;
    if (["result", "head", "scene"].some((part) => changes.has(part))) scheduleDraw();
    if (["result", "focus", "head"].some((part) => changes.has(part))) scheduleSummary();
  });
  showTable(store.state.view.table);
}
