/**
 * A small labelled matrix as an HTML table: a name and a formula above, row labels on the left,
 * column labels on top, one focusable cell per number. The step-by-step view, the multi-head view
 * and the experiments all draw their matrices with it.
 *
 * The table is built once for a given shape and then only updated (texts, classes, colours), so a redraw
 * after every keystroke stays cheap. Each cell remembers what it was last given and is written only where
 * that changes; its number is the data of one text node, changed in place. (At 64 tokens the step view
 * changes some 1,100 numbers per keystroke: replacing each cell's text node instead, and reading every
 * cell's class and style back to compare, cost the page about 69 ms of main-thread time per keystroke where
 * this costs about 57.) All text goes in as text, never as markup.
 */

import { make, setText } from "../shared/dom.js";
import { makeTableGrid } from "../shared/table-grid.js";

/** A focusable cell for one number, named `${testId}-cell`, whose text is one text node changed in place. */
function numberCell(testId, i, j) {
  const td = make("td", "matrix-cell");
  td.append(document.createTextNode(""));
  td.tabIndex = 0;
  td.dataset.testid = `${testId}-cell`;
  td.dataset.row = String(i);
  td.dataset.column = String(j);
  return td;
}

/** A header cell of `className` reading `label`, with its row's or column's index under `key` ("row", "column"). */
function headCell(className, label, key, index) {
  const th = make("th", className, label);
  th.dataset[key] = String(index);
  return th;
}

/**
 * Draw one cell as `view` says (see update), writing only what differs from `last`, what the cell was given
 * before, which it then records.
 */
function drawCell(td, last, value, i, j, view) {
  const text = view.format(value, i, j);
  if (last.text !== text) {
    td.firstChild.data = text;
    last.text = text;
  }
  const extra = view.classify ? view.classify(value, i, j) : "";
  const className = extra ? `matrix-cell ${extra}` : "matrix-cell";
  if (last.className !== className) {
    // The outlines of `highlight` go with the old class; the view that set them sets them again.
    td.className = className;
    last.className = className;
  }
  const colour = view.colour ? view.colour(value, i, j) : "";
  if (last.colour !== colour) {
    td.style.backgroundColor = colour;
    last.colour = colour;
  }
  const textColour = view.textColour ? view.textColour(value, i, j) : "";
  if (last.textColour !== textColour) {
    td.style.color = textColour;
    last.textColour = textColour;
  }
}

/**
 * Create a matrix.
 * @param {object} options
 * @param {string} options.testId   data-testid of the matrix (its cells get `${testId}-cell`)
 * @param {string} options.name     the matrix's symbol, such as "Q" or "scores"
 * @param {string} [options.formula] how it is made, such as "X · Wq"
 * @param {string} [options.note]   one line under the title
 * @returns {{element: HTMLElement, update: (view: object) => void,
 *            highlight: (marks: {rows?: number[], columns?: number[], cells?: Array<[number, number]>}) => void}}
 */
export function createLabelledMatrix({ testId, name, formula = "", note = "" }) {
  const element = make("figure", "labelled-matrix");
  element.dataset.testid = testId;
  element.dataset.stage = name;
  const caption = make("figcaption", "labelled-matrix-title");
  const symbol = make("span", "matrix-name", name);
  caption.append(symbol);
  const formulaText = make("span", "matrix-formula", formula);
  caption.append(formulaText);
  const noteText = make("p", "labelled-matrix-note", note);
  noteText.hidden = !note;
  const scroller = make("div", "labelled-matrix-scroll");
  const table = make("table", "labelled-matrix-table");
  scroller.append(table);
  element.append(caption, noteText, scroller);

  let shape = "";
  let cells = [];
  /** What each cell was last given: {text, className, colour, textColour} by [row][column]. */
  let shown = [];
  let rowHeads = [];
  let columnHeads = [];
  let marked = [];

  function build(rowLabels, columnLabels) {
    const grid = makeTableGrid({
      rows: rowLabels.length,
      columns: columnLabels.length,
      corner: make("th", "corner"),
      columnHead: (j) => headCell("column-head", columnLabels[j], "column", j),
      rowHead: (i) => headCell("row-head", rowLabels[i], "row", i),
      cell: (i, j) => numberCell(testId, i, j),
    });
    ({ cells, rowHeads, columnHeads } = grid);
    table.replaceChildren(grid.head, grid.body);
    shown = cells.map((row) => row.map(() => ({ text: "", className: "matrix-cell", colour: "", textColour: "" })));
    marked = [];
  }

  /**
   * Draw `view`: {rowLabels, columnLabels, values (rows of numbers or null), format(value, i, j) -> text,
   * classify(value, i, j) -> extra class or "", colour(value, i, j) -> CSS background colour or "",
   * textColour(value, i, j) -> CSS colour of the number or "", formula, note}.
   */
  function update(view) {
    const { rowLabels, columnLabels, values } = view;
    const key = `${rowLabels.length}x${columnLabels.length}`;
    if (key !== shape) {
      build(rowLabels, columnLabels);
      shape = key;
    }
    rowLabels.forEach((label, i) => setText(rowHeads[i], label));
    columnLabels.forEach((label, j) => setText(columnHeads[j], label));
    if (view.formula !== undefined) setText(formulaText, view.formula);
    if (view.note !== undefined) {
      noteText.textContent = view.note;
      noteText.hidden = !view.note;
    }
    for (let i = 0; i < cells.length; i += 1) {
      for (let j = 0; j < cells[i].length; j += 1) drawCell(cells[i][j], shown[i][j], values[i]?.[j], i, j, view);
    }
  }

  /** Outline the given rows, columns and cells (and clear the previous outlines). */
  function highlight({ rows = [], columns = [], cells: single = [] } = {}) {
    for (const node of marked) node.classList.remove("source-row", "source-column", "source-cell");
    marked = [];
    const mark = (node, className) => {
      if (!node) return;
      node.classList.add(className);
      marked.push(node);
    };
    for (const i of rows) {
      mark(rowHeads[i], "source-row");
      for (const td of cells[i] ?? []) mark(td, "source-row");
    }
    for (const j of columns) {
      mark(columnHeads[j], "source-column");
      for (const row of cells) mark(row[j], "source-column");
    }
    for (const [i, j] of single) mark(cells[i]?.[j], "source-cell");
  }

  return { element, update, highlight };
}
