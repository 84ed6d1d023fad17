/**
 * Files a learner or an author can take away: the heatmap as a picture (SVG, PNG), the weights as a
 * table (CSV), the scene itself (JSON, the README's scene format, which the page opens again).
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

/**
 * A standalone SVG document of a heatmap as it is drawn now: styles inlined, fonts generic, a white
 * background and a title; the pointer's hover outline left out.
 * @param {SVGSVGElement} svg the heatmap on the page
 * @param {string} title written into the SVG's <title>
 * @returns {string} the SVG file's text
 */
export function standaloneSvg(svg, title) {
  const copy = svg.cloneNode(true);
  const originals = [svg, ...svg.querySelectorAll("*")];
  const copies = [copy, ...copy.querySelectorAll("*")];
  const computedOf = new Map(originals.map((node) => [node, getComputedStyle(node)]));
  originals.forEach((original, index) => {
    const target = copies[index];
    const computed = computedOf.get(original);
    const parent = original === svg ? null : computedOf.get(original.parentNode);
    // Written as presentation attributes rather than a style attribute: the page's content security
    // policy forbids inline styles, and every viewer reads these just the same. A value the parent
    // already passes down is left out, which keeps the file small.
    for (const property of INLINED_PROPERTIES) {
      const value = computed.getPropertyValue(property);
      if (!value) continue;
      if (property === "opacity" ? value === "1" : parent && parent.getPropertyValue(property) === value) continue;
      const written = property === "font-family" ? (/mono|consolas|menlo/i.test(value) ? PORTABLE_FONTS.mono : PORTABLE_FONTS.sans) : value;
      target.setAttribute(property, written);
    }
    target.removeAttribute("tabindex");
  });
  copy.querySelectorAll(".hover-outline").forEach((node) => node.remove());
  copy.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  copy.removeAttribute("class");
  const width = copy.getAttribute("width");
  const height = copy.getAttribute("height");
  const ns = "http://www.w3.org/2000/svg";
  const background = document.createElementNS(ns, "rect");
  // The panel's own background (light or dark theme), so that the labels keep their contrast.
  const paper = getComputedStyle(svg.closest(".panel") ?? document.body).backgroundColor;
  const fill = paper && !/rgba\(0, 0, 0, 0\)|transparent/.test(paper) ? paper : "#ffffff";
  for (const [key, value] of Object.entries({ x: 0, y: 0, width, height, fill })) background.setAttribute(key, String(value));
  const titleNode = document.createElementNS(ns, "title");
  titleNode.textContent = title;
  copy.prepend(titleNode, background);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`;
}

/**
 * Draw an SVG onto a canvas and encode it as PNG.
 * @param {string} svgText a standalone SVG (see standaloneSvg)
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

/**
 * One head's weights as CSV: a header row naming the answering tokens, then one row per asking
 * token. Numbers are written at full precision (the shortest text that reads back to the same
 * double); a nan from the overflow trap is written "nan".
 * @param {string[]} tokens
 * @param {Array<Array<number|null>>} weights
 * @returns {string}
 */
export function weightsCsv(tokens, weights) {
  const lines = [["asks \\ answers", ...tokens].map(csvField).join(",")];
  weights.forEach((row, i) => {
    lines.push([csvField(tokens[i]), ...row.map((weight) => (weight === null ? "nan" : String(weight)))].join(","));
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
