/**
 * The head and body of a table of labelled rows and columns, as the weights table and the labelled matrices
 * build theirs: a corner, a header cell per column, then per row its header cell and its cells. Each table
 * makes its own cells; this only puts them in place and gives the header cells their scope.
 */

import { make } from "./dom.js";

/**
 * @param {{rows: number, columns: number, corner: HTMLTableCellElement, columnHead: (j: number) => HTMLTableCellElement,
 *   rowHead: (i: number) => HTMLTableCellElement, cell: (i: number, j: number) => HTMLTableCellElement}} parts
 * @returns {{head: HTMLTableSectionElement, body: HTMLTableSectionElement, columnHeads: HTMLTableCellElement[],
 *   rowHeads: HTMLTableCellElement[], cells: HTMLTableCellElement[][]}} `cells[i][j]`: row i, column j
 */
export function makeTableGrid({ rows, columns, corner, columnHead, rowHead, cell }) {
  const head = make("thead");
  const headRow = make("tr");
  const columnHeads = Array.from({ length: columns }, (_, j) => {
    const th = columnHead(j);
    th.scope = "col";
    return th;
  });
  headRow.append(corner, ...columnHeads);
  head.append(headRow);
  const body = make("tbody");
  const rowHeads = [];
  const cells = Array.from({ length: rows }, (_, i) => {
    const tr = make("tr");
    const th = rowHead(i);
    th.scope = "row";
    rowHeads.push(th);
    const row = Array.from({ length: columns }, (__, j) => cell(i, j));
    tr.append(th, ...row);
    body.append(tr);
    return row;
  });
  return { head, body, columnHeads, rowHeads, cells };
}
