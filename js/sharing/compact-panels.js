/**
 * A short frame for each example: the panels that show the example's point and little else, which "Copy embed
 * code" offers beside its check boxes. A frame of the default panels is as tall as the scene's editors: the feature
 * and weight editors of a 32-wide scene are thousands of pixels tall, so an author who wants a short frame needs
 * to know which panels the example needs.
 */

/** What every example shows: the note that says what to look at, the weights, and the focused row as bars. */
const SHOWN_ALWAYS = Object.freeze(["notes", "heatmap", "bars"]);

/**
 * The panel each example's point lives in, beyond SHOWN_ALWAYS (by the example's id, or its id's start).
 * @type {ReadonlyArray<[string, string[]]>}
 */
const EXAMPLE_PANELS = Object.freeze([
  ["it-", ["weights"]], // the query strengths are cells of Wq
  ["dog-bites-man", ["features"]], // each word's vector is its query, key and value
  ["repeated-noun", ["controls"]], // the causal mask
  ["causal-exercise", ["controls"]], // the causal mask
  ["softmax-trap", ["controls"]], // the shift switch
  ["two-heads", ["heads"]], // the two heads side by side
  ["trained-repeated-noun", ["heads"]], // the layer's heads side by side
]);

/**
 * The compact panels for an example, in page order.
 * @param {string|null} presetId the example on show (an edited one: the example it came from), or null
 * @param {string[]} panelOrder every panel name, in page order (layout/panels.js PANEL_NAMES)
 * @returns {string[]}
 */
export function compactPanelsFor(presetId, panelOrder) {
  const match = EXAMPLE_PANELS.find(([start]) => presetId?.startsWith(start));
  const wanted = new Set([...SHOWN_ALWAYS, ...(match ? match[1] : [])]);
  return panelOrder.filter((name) => wanted.has(name));
}
