/**
 * Part 8 side by side: each word's output in the order before a shuffle and in the order after it, one row per
 * word, and whether the word's output is equal (it only moved with its word) or changed, and by how much. The
 * numbers are Python's (experiments.py `shuffle_scene`, kept by panels/experiments.js); this only writes them out.
 */

import { formatScore, quoted } from "../shared/format.js";
import { make, withTestId } from "../shared/dom.js";
import { namedToken } from "../shared/positions.js";

/** The most numbers of an output row written out; the rest is "…". */
const SHOWN_NUMBERS = 4;

/** `row 3: [0.7517, 0.7517]`: an output row with its place (from 1). */
function rowText(place, values) {
  const shown = values.slice(0, SHOWN_NUMBERS).map(formatScore);
  if (values.length > SHOWN_NUMBERS) shown.push("…");
  return `row ${place + 1}: [${shown.join(", ")}]`;
}

/** "equal, moved from row 1 to row 3", "changed by 0.0812, same row", or "not a number" for a nan. */
function verdictText(difference, unchanged, was, now) {
  const where = was === now ? "same row" : `moved from row ${was + 1} to row ${now + 1}`;
  if (difference === null || difference === undefined) return `not a number (nan), ${where}`;
  return `${unchanged ? "equal" : `changed by ${formatScore(difference)}`}, ${where}`;
}

/** A table cell named `testId` for the tests, reading `text`. */
function cell(text, testId) {
  return withTestId(make("td", "", text), testId);
}

/**
 * @returns {{element: HTMLTableElement, update: (outcome: object|null) => void}} `update` takes the shuffle's
 *   outcome (panels/experiments.js); the table is empty until one has both orders' outputs
 */
export function createWordOrderTable() {
  const element = withTestId(make("table", "order-table"), "order-table");

  function update(outcome) {
    element.hidden = !outcome?.outputBefore;
    if (element.hidden) {
      element.replaceChildren();
      return;
    }
    const { before, tokens, order, outputBefore, outputAfter, differences, unchanged } = outcome;
    const header = make("tr");
    for (const text of ["word", `in ${quoted(before.join(" "))}`, `in ${quoted(tokens.join(" "))}`, "its output"]) header.append(make("th", "", text));
    const nowAt = new Map(order.map((was, now) => [was, now]));
    const rows = before.map((_, was) => {
      const now = nowAt.get(was);
      const row = withTestId(make("tr"), "order-row");
      row.append(make("th", "", namedToken(before, was)), cell(rowText(was, outputBefore[was]), "order-before"),
        cell(rowText(now, outputAfter[now]), "order-after"), cell(verdictText(differences[was], unchanged[was], was, now), "order-verdict"));
      return row;
    });
    element.replaceChildren(header, ...rows);
  }

  return { element, update };
}
