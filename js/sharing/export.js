/**
 * Files a learner or an author can take away: the heatmap as a picture (SVG, PNG), the weights as a
 * table (CSV), the scene itself (JSON, the scene format of docs/reference.md, which the page opens again).
 *
 * Each function makes the file's contents; `downloadBlob` hands a file to the browser.
 */

// Properties the page's stylesheet sets on the heatmap. They are copied onto each element of the
// exported SVG so that it looks the same with no stylesheet at all (an image viewer, a slide).
const INLINED_PROPERTIES = [
  "fill", "fill-opacity", "stroke", "stroke-width", "stroke-opacity", "opacity", "visibility",
  "font-family", "font-size", "font-weight", "font-style",
];
// Fonts a reader may not have are replaced by a stack every system can resolve.
const PORTABLE_FONTS = {
  sans: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  mono: 'ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", "Courier New", monospace',
};

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * A copy of an SVG element as drawn now, with the page's styles written onto every element, so that it looks
 * the same with no stylesheet at all (an image viewer, a slide). Not copied: what only the pointer or the
 * keyboard put there (the hover and focus outlines, a focused row's highlight, tab stops).
 * @param {SVGSVGElement} svg
 * @returns {SVGSVGElement}
 */
function styledCopy(svg) {
  const copy = /** @type {SVGSVGElement} */ (svg.cloneNode(true));
  const originals = [svg, ...svg.querySelectorAll("*")];
  const copies = [copy, ...copy.querySelectorAll("*")];
  const computedOf = new Map(originals.map((node) => [node, getComputedStyle(node)]));
  // A focused row's label is drawn like any other in the picture: take the colour of one that is not.
  const plainLabel = svg.querySelector(".row-label:not(.focused) text");
  const plainFill = plainLabel ? getComputedStyle(plainLabel).fill : null;
  originals.forEach((original, index) => {
    const target = copies[index];
    const computed = computedOf.get(original);
    const parent = original === svg ? null : computedOf.get(/** @type {Element} */ (original.parentNode));
    const inFocusedRow = Boolean(original.closest?.(".row-label.focused"));
    // Written as presentation attributes rather than a style attribute: the page's content security
    // policy forbids inline styles, and every viewer reads these just the same. A value the parent
    // already passes down is left out, which keeps the file small.
    for (const property of INLINED_PROPERTIES) {
      let value = computed.getPropertyValue(property);
      if (inFocusedRow && property === "fill" && plainFill && original.tagName === "text") value = plainFill;
      if (inFocusedRow && property === "font-weight") value = parent?.getPropertyValue(property) ?? value;
      if (!value) continue;
      if (property === "opacity" ? value === "1" : parent && parent.getPropertyValue(property) === value) continue;
      const written = property === "font-family" ? (/mono|consolas|menlo/i.test(value) ? PORTABLE_FONTS.mono : PORTABLE_FONTS.sans) : value;
      target.setAttribute(property, written);
    }
    target.removeAttribute("tabindex");
  });
  copy.querySelectorAll(".hover-outline, .focus-outline").forEach((node) => node.remove());
  // A big heatmap's weight cells are painted on a canvas under its SVG (ui/heatmap/cell-canvas.js), and hidden
  // in the SVG; a picture has no canvas, so there the SVG draws them.
  copy.querySelectorAll("rect.cell[visibility]").forEach((node) => node.removeAttribute("visibility"));
  copy.removeAttribute("class");
  return copy;
}

/**
 * A standalone SVG document of the heatmap as drawn now, to read on its own: a title line, the heatmap and
 * its colour legend under it, on the panel's own background (light or dark theme). Styles are inlined and
 * fonts generic; the pointer's and the keyboard's outlines are left out.
 * @param {object} picture
 * @param {SVGSVGElement} picture.heatmap the heatmap on the page
 * @param {SVGSVGElement|null} [picture.legend] its colour legend on the page
 * @param {string} picture.title written above the heatmap and into the SVG's <title>
 * @returns {{text: string, width: number, height: number}} the SVG file's text and its size in pixels
 */
export function heatmapPicture({ heatmap, legend = null, title }) {
  const margin = 12;
  const titleHeight = 30;
  const heatmapWidth = Number(heatmap.getAttribute("width"));
  const heatmapHeight = Number(heatmap.getAttribute("height"));
  const map = styledCopy(heatmap);
  map.setAttribute("x", String(margin));
  map.setAttribute("y", String(margin + titleHeight));
  const parts = [map];
  let legendHeight = 0;
  let width = heatmapWidth;
  if (legend) {
    const [, , boxWidth, boxHeight] = (legend.getAttribute("viewBox") ?? "0 0 360 46").split(/\s+/).map(Number);
    const drawnWidth = Math.min(boxWidth, 300);
    legendHeight = (boxHeight * drawnWidth) / boxWidth;
    const key = styledCopy(legend);
    for (const [name, value] of Object.entries({ x: margin, y: margin + titleHeight + heatmapHeight + 10, width: drawnWidth, height: legendHeight })) {
      key.setAttribute(name, String(value));
    }
    key.setAttribute("overflow", "visible"); // its caption's descenders reach just past its box
    parts.push(key);
    width = Math.max(width, drawnWidth);
  }
  const totalWidth = Math.ceil(width + 2 * margin);
  const totalHeight = Math.ceil(margin + titleHeight + heatmapHeight + (legend ? 10 + legendHeight : 0) + margin);

  const root = document.createElementNS(SVG_NS, "svg");
  root.setAttribute("xmlns", SVG_NS);
  for (const [name, value] of Object.entries({ width: totalWidth, height: totalHeight, viewBox: `0 0 ${totalWidth} ${totalHeight}` })) {
    root.setAttribute(name, String(value));
  }
  const panel = heatmap.closest(".panel") ?? document.body;
  const panelStyle = getComputedStyle(panel);
  const paper = panelStyle.backgroundColor;
  const fill = paper && !/rgba\(0, 0, 0, 0\)|transparent/.test(paper) ? paper : "#ffffff";
  root.setAttribute("font-family", PORTABLE_FONTS.sans);
  const titleNode = document.createElementNS(SVG_NS, "title");
  titleNode.textContent = title;
  const background = document.createElementNS(SVG_NS, "rect");
  for (const [name, value] of Object.entries({ x: 0, y: 0, width: totalWidth, height: totalHeight, fill })) background.setAttribute(name, String(value));
  const heading = document.createElementNS(SVG_NS, "text");
  for (const [name, value] of Object.entries({ x: margin, y: margin + 18, "font-size": 16, "font-weight": 600, fill: panelStyle.color })) {
    heading.setAttribute(name, String(value));
  }
  heading.textContent = title;
  root.append(titleNode, background, heading, ...parts);
  return { text: `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(root)}\n`, width: totalWidth, height: totalHeight };
}

/**
 * Draw an SVG onto a canvas and encode it as PNG.
 * @param {string} svgText a standalone SVG (see heatmapPicture)
 * @param {number} width
 * @param {number} height
 * @param {number} [scale] pixels per SVG unit: 2 gives a sharp picture on a slide
 * @returns {Promise<Blob>}
 */
export async function pngFromSvg(svgText, width, height, scale = 2) {
  const url = URL.createObjectURL(new Blob([svgText], { type: "image/svg+xml" }));
  try {
    const image = new Image();
    image.decoding = "sync";
    await new Promise((resolve, reject) => {
      image.onload = resolve;
      image.onerror = () => reject(new Error("the heatmap could not be drawn as a picture"));
      image.src = url;
    });
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    const context = canvas.getContext("2d");
    context.fillStyle = "#ffffff";
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    return await new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("PNG encoding failed"))), "image/png"));
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. */
function csvField(value) {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

// A text field a spreadsheet would read as a formula ("=1+1", "+cmd", "-2+3", "@SUM(…)", or one starting with a
// tab or a carriage return) and might run.
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A CSV field for text someone typed (a token): as csvField, but one that starts like a formula is written
 * with a single quote in front, and quoted, so a spreadsheet shows it as the text it is (OWASP's rule against
 * CSV injection). The weights are numbers the page wrote, and are written as they are.
 */
function csvText(value) {
  const text = String(value);
  return FORMULA_START.test(text) ? `"'${text.replace(/"/g, '""')}"` : csvField(text);
}

/**
 * One head's weights as CSV: a header row naming the answering tokens, then one row per asking
 * token. Numbers are written at full precision (the shortest text that reads back to the same
 * double); a nan from the overflow trap is written "nan". A token that starts like a formula is escaped
 * (see csvText).
 * @param {string[]} tokens
 * @param {Array<Array<number|null>>} weights
 * @returns {string}
 */
export function weightsCsv(tokens, weights) {
  const lines = [["asks \\ answers", ...tokens].map(csvText).join(",")];
  weights.forEach((row, i) => {
    lines.push([csvText(tokens[i]), ...row.map((weight) => (weight === null ? "nan" : String(weight)))].join(","));
  });
  return `${lines.join("\r\n")}\r\n`;
}

/** The columns of "My answers" (answersCsv), in order. */
const ANSWER_COLUMNS = ["lesson", "step", "number", "kind", "answer", "expected", "correct", "score", "attempts", "first_correct", "first_score"];

/**
 * A lesson's answers as CSV, one row per step answered: what the learner answered and what the page measured (as
 * JSON text where they are not plain numbers), the verdict, the attempts, and the first answer's verdict.
 * @param {{id: string, steps: Array<{id: string}>, answers: object}} lesson
 */
export function answersCsv(lesson) {
  const plain = (value) => (typeof value === "number" || typeof value === "boolean" ? String(value) : csvText(JSON.stringify(value ?? null)));
  const lines = [ANSWER_COLUMNS.join(",")];
  lesson.steps.forEach((step, index) => {
    const answer = lesson.answers[step.id];
    if (!answer) return;
    lines.push([csvText(lesson.id), csvText(step.id), String(index + 1), csvText(answer.kind), plain(answer.answer), plain(answer.expected),
      String(answer.correct), String(answer.score), String(answer.attempts), String(answer.first?.correct ?? ""), String(answer.first?.score ?? "")].join(","));
  });
  return `${lines.join("\r\n")}\r\n`;
}

/** The scene as a JSON file a person can read and edit. */
export function sceneJson(scene) {
  return `${JSON.stringify(scene, null, 2)}\n`;
}

/** A file name made from a title: lower case, words joined by "-", nothing a file system dislikes. */
export function fileStem(title) {
  const stem = String(title ?? "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return stem || "attention";
}

/** Give the browser a file to save. */
export function downloadBlob(blob, fileName) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by the time the click returns; the URL can go once it has been read.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
