/**
 * The rows and heads of the weights a lesson step holds back, hidden wherever the page shows them: the numbers a
 * later question asks about in one row of one head (or in every row of one head), until that question is answered
 * (the compiled step's `holds` that name a head or a row: py/attention_playground/lessons/holds.py).
 *
 * A hold of a whole stage is a flag on <body> (page/playground.js, static/lessons.css). A hold of a part cannot be:
 * which row and head are held depends on the lesson, so its rules are written here, into a style sheet of their own
 * (a constructed one: the page's Content Security Policy refuses style written into the page), on the marks each view
 * writes of what it shows: the heatmap panel's head (`data-head`), each cell's row (`data-row`), the weights table's
 * head and the spoken summary's head and row (each marked as it is drawn, a task after the heatmap), the bars' head
 * and row, the heads side by side (`data-head` on each), the worked steps' head.
 */

/**
 * The holds of the step on show that name a head or a row and wait for a question not yet answered.
 * @param {{content?: {holds?: Array<{stage: string, until: string, head?: number, row?: number}>},
 *   answers: Record<string, unknown>}|null} lesson the lesson's state (state.js `lesson`)
 * @returns {Array<{head: number|null, row: number|null}>}
 */
export function heldParts(lesson) {
  const holds = lesson?.content?.holds ?? [];
  return holds
    .filter((hold) => hold.stage === "weights" && (hold.head !== undefined || hold.row !== undefined) && !lesson.answers[hold.until])
    .map((hold) => ({ head: hold.head ?? null, row: hold.row ?? null }));
}

/** The selectors of the numbers of row `row` (any row if null) of head `head` (any head if null). */
function partSelectors({ head, row }) {
  const inHead = head === null ? "" : `[data-head="${Number(head)}"]`;
  const inRow = row === null ? "" : `[data-row="${Number(row)}"]`;
  const focused = row === null ? "" : `[data-focus-row="${Number(row)}"]`;
  const main = `.heatmap-panel${inHead} .heatmap-wrap:not(.compact)`; // the big heatmap, when it shows the head
  const thumb = `.head-thumb${inHead}`; // the head's thumbnail above it, whichever head the big one shows
  const held = `rect.cell${inRow}:not([data-masked="true"])`;
  return {
    fill: [`:is(${main}, ${thumb}) ${held}`],
    // A big scene's colours are painted on a canvas under its cells: a held row's cells cover it, grey; a whole
    // head held hides the canvas.
    show: row === null ? [] : [`:is(${main}, ${thumb}) .cells-on-canvas ${held}`],
    hide: [
      `${main} text.cell-value${inRow}:not(.masked-symbol)`,
      ...(row === null ? [`:is(${main}, ${thumb}) .heatmap-canvas`] : []),
      `.heatmap-panel${inHead} .heatmap-tooltip`,
      `.weights-table${inHead} td${inRow}`,
      `[data-testid="attention-summary"]${inHead}${focused}`,
      `.bars-panel${inHead}${inRow} .bars`,
      `.multi-head-panel .labelled-matrix${inHead} td${inRow}:not(.masked)`,
      `.step-panel${inHead} .labelled-matrix[data-stage="weights"] td${inRow}:not(.masked)`,
    ],
    said: `.bars-panel${inHead}${inRow}::after`,
  };
}

/**
 * The style rules that hide `parts`; none for none. The captions that state an example's answer (its description,
 * the teaching notes) are hidden while any part is held, as for a held stage.
 * @param {Array<{head: number|null, row: number|null}>} parts
 * @returns {string}
 */
export function heldPartsRules(parts) {
  if (!parts.length) return "";
  const selectors = parts.map(partSelectors);
  const shown = selectors.flatMap((part) => part.show);
  const rules = [
    `${selectors.flatMap((part) => part.fill).join(",\n")} { fill: var(--hidden-cell) !important; }`,
    ...(shown.length ? [`${shown.join(",\n")} { visibility: visible; }`] : []),
    `${selectors.flatMap((part) => part.hide).join(",\n")},\n.preset-description, .teaching-notes { visibility: hidden; }`,
    ".states-answer, .zero-query-note { display: none; }",
    `${selectors.map((part) => part.said).join(",\n")} { content: "A later step asks about these weights: they show once you have answered it."; color: var(--ink-soft); }`,
  ];
  return rules.join("\n");
}

/**
 * A style sheet of the page that hides what the step on show holds back of the weights: `draw(lesson)` keeps it so.
 * @param {Document} document
 * @returns {{draw: (lesson: Parameters<typeof heldParts>[0]) => void}}
 */
export function createHeldPartsSheet(document) {
  const sheet = new CSSStyleSheet();
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  let drawn = "";
  return {
    draw(lesson) {
      const rules = heldPartsRules(heldParts(lesson));
      if (rules === drawn) return;
      sheet.replaceSync(rules);
      drawn = rules;
    },
  };
}
