/**
 * "Where it pays attention": the focused token's row of weights as a bar chart, largest first,
 * with percentages (92.0%). Masked tokens are listed last as "may not read". Each bar names its word and the
 * word's position as shared/positions.js counts it, the same number the rest of the page uses.
 */

import { make, setText } from "../shared/dom.js";
import { formatPercent } from "../shared/format.js";
import { namedToken, positionMark, wordAt } from "../shared/positions.js";

/** How far from 100% a row of the learner's weights may add up and still be called 100% (rounding). */
const ROW_SUM_TOLERANCE = 1e-6;

/** The most rows whose bars glide to a new share; longer lists jump there. */
const GLIDING_ROWS_AT_MOST = 16;
/** Numbers the lists' headings, so that each list can be named by its own (a page may hold several). */
let listsMade = 0;

/**
 * Where a bar's fill sits for a share in [0, 1]: the fill is as wide as its track and slides in from the left
 * (the track cuts off the rest). A transform, not a width, so that the compositor animates the glide on its
 * own: a width transition lays out and paints the whole page in every frame of it, which at 64 tokens was
 * the main thread's largest cost of an update.
 */
const fillTransform = (share) => {
  const shown = Number.isFinite(share) ? Math.max(0, Math.min(1, share)) : 0;
  return `translateX(${((shown - 1) * 100).toFixed(3)}%)`;
};

/** Slide a row's fill to `share`, writing only when it moves (each write starts a transition). */
function showShare(row, share) {
  const transform = fillTransform(share);
  if (row.shown === transform) return;
  row.fill.style.transform = transform;
  row.shown = transform;
}

/**
 * Draw token j's bar in the focused row's list: its word, position, share and title (who reads whom, how
 * much); `top` marks the largest share. Only what changed is written.
 */
function drawBar(row, j, { tokens, focusRow, weight, masked, top }) {
  setText(row.label, tokens[j]);
  setText(row.position, positionMark(tokens, j));
  row.item.classList.toggle("masked", masked);
  row.item.classList.toggle("self", j === focusRow);
  row.item.classList.toggle("top", top);
  showShare(row, masked || weight === null ? 0 : weight);
  setText(row.value, masked ? "may not read" : formatPercent(weight));
  const title = masked
    ? `${namedToken(tokens, focusRow)} may not read ${wordAt(tokens, j)} (masked)`
    : `${namedToken(tokens, focusRow)} spends ${formatPercent(weight)} of its attention on ${wordAt(tokens, j)}`;
  if (row.item.title !== title) row.item.title = title;
}

/** One bar's row of the list: its word, the word's position, the bar (a track the fill slides in) and the share. */
function createBarRow(testPrefix, j) {
  const item = make("li", "bar-row");
  item.dataset.testid = `${testPrefix}bar-row`;
  item.dataset.tokenIndex = String(j);
  const label = make("span", "bar-label");
  const position = make("span", "bar-position");
  const track = make("span", "bar-track");
  const fill = make("span", "bar-fill sliding");
  track.append(fill);
  const value = make("span", "bar-value");
  value.dataset.testid = `${testPrefix}bar-value`;
  item.append(label, position, track, value);
  return { item, label, position, fill, value, shown: null };
}

/** The tokens in the order their bars are listed: the largest share first, the masked last, ties in order. */
function barOrder(count, weights, masked) {
  return Array.from({ length: count }, (_, j) => j).sort((a, b) => {
    if (masked(a) !== masked(b)) return masked(a) ? 1 : -1;
    const wa = weights[a] ?? -1;
    const wb = weights[b] ?? -1;
    return wb - wa || a - b;
  });
}

/**
 * The line under the heading: where the row is, and what its shares add up to, or why it reads nothing. The
 * learner's function (`drawnWith`) may make weights that do not add up to 100%: then it says what they add up to.
 */
function sharesSentence({ tokens, head, focusRow, headCount, drawnWith }, masked) {
  const weights = head.weights[focusRow];
  const where = `${wordAt(tokens, focusRow)}${headCount > 1 ? `, ${head.name}` : ""}.`;
  const total = tokens.reduce((sum, _, j) => sum + (masked(j) ? 0 : weights[j] ?? Number.NaN), 0);
  if (tokens.every((_, j) => masked(j))) {
    return `${namedToken(tokens, focusRow)} may not read any token, so it reads nothing: all its weights are 0.`;
  }
  if (drawnWith && !(Math.abs(total - 1) <= ROW_SUM_TOLERANCE)) {
    return `${where} These shares add up to ${Number.isNaN(total) ? "nan" : formatPercent(total)}, not 100%: they come from your ${drawnWith}().`;
  }
  return `${where} The shares add up to 100%.`;
}

/**
 * Create the bar chart inside `host` (which holds a heading and a list).
 * @param {HTMLElement} host
 * @param {{testPrefix?: string}} [options] put before its test ids, when a page holds more than the playground's
 * @returns {{update: (view: object) => void}}
 */
export function createAttentionBars(host, { testPrefix = "" } = {}) {
  const heading = make("h2");
  heading.dataset.testid = `${testPrefix}bars-heading`;
  listsMade += 1;
  heading.id = `bars-heading-${listsMade}`;
  const subline = make("p", "panel-note");
  const list = make("ol", "bars");
  list.dataset.testid = `${testPrefix}attention-bars`;
  list.setAttribute("aria-labelledby", heading.id);
  const empty = make("p", "panel-note");
  host.append(heading, subline, list, empty);

  /** @type {Array<{item: HTMLLIElement, label: HTMLElement, position: HTMLElement, fill: HTMLElement, value: HTMLElement, shown: string|null}>} */
  let rows = [];

  /** A row for each of `tokens` (made again only when their number changes), under the focused token's heading. */
  function showRowsFor(tokens, focusRow) {
    if (rows.length !== tokens.length || !list.firstChild) {
      const count = tokens.length;
      // In a longer list, which re-sorts at every update anyway, the glide shows nothing an eye can follow, and
      // starting 64 animations still costs the main thread a compositing pass per update: there they jump.
      list.classList.toggle("many", count > GLIDING_ROWS_AT_MOST);
      // Such a list scrolls (its height is capped): a keyboard must be able to reach it to scroll it.
      if (count > GLIDING_ROWS_AT_MOST) list.tabIndex = 0;
      else list.removeAttribute("tabindex");
      rows = Array.from({ length: count }, (_, j) => createBarRow(testPrefix, j));
      list.replaceChildren(...rows.map((row) => row.item));
    }
    heading.textContent = `Where ${namedToken(tokens, focusRow)} pays attention`;
  }

  /** Nothing computed yet: one blank row per token, so the panel has its size before the numbers come. */
  function showPending(tokens, focusRow) {
    showRowsFor(tokens, focusRow);
    // About as long as the line that replaces it ("… The shares add up to 100%."), so that it takes as many
    // lines and the weight editor below stays where it is when Python goes live.
    subline.textContent = `${wordAt(tokens, focusRow)}. Python is computing the shares.`;
    empty.textContent = "";
    rows.forEach((row, j) => {
      row.label.textContent = tokens[j];
      row.position.textContent = positionMark(tokens, j);
      showShare(row, 0);
      row.value.textContent = "…";
      row.item.classList.remove("masked", "top", "self");
    });
  }

  /** No token is focused: say how to choose one. */
  function showNoRow() {
    heading.textContent = "Where a token pays attention";
    subline.textContent = "";
    list.replaceChildren();
    rows = [];
    empty.textContent = "Click a row of the grid to see where that token looks.";
  }

  /**
   * Draw the focused row: view = {tokens, head, mask, focusRow, headCount, drawnWith}. `drawnWith` names the
   * learner's function when the weights come from their code (then they need not add up to 100%, and the
   * caption says what they do add up to).
   */
  function update(view) {
    const { tokens, head, mask, focusRow, pending = false } = view;
    const focused = focusRow !== null && focusRow !== undefined && focusRow < tokens.length;
    if (pending && focused) {
      showPending(tokens, focusRow);
      return;
    }
    if (!focused) {
      showNoRow();
      return;
    }
    empty.textContent = "";
    showRowsFor(tokens, focusRow);
    const masked = (j) => Boolean(mask?.[focusRow]?.[j]);
    subline.textContent = sharesSentence(view, masked);
    const weights = head.weights[focusRow];
    const order = barOrder(tokens.length, weights, masked);
    const readable = order.filter((j) => !masked(j) && weights[j] !== null).map((j) => weights[j]);
    const largest = Math.max(0, ...readable);
    // Mark the winner only when there is one: a row of equal shares has no top.
    const hasWinner = readable.some((weight) => weight < largest);
    // Rows stay where they are when their place in the order has not changed: only the others are moved,
    // and only what changed is written (each write is laid out again; at 64 tokens moving every row each
    // time was the bars' largest cost).
    let next = list.firstChild;
    order.forEach((j) => {
      const row = rows[j];
      const weight = weights[j];
      drawBar(row, j, { tokens, focusRow, weight, masked: masked(j), top: hasWinner && !masked(j) && weight === largest });
      if (row.item === next) next = next.nextSibling;
      else list.insertBefore(row.item, next);
    });
  }

  return { update };
}
