"""Our own text-contrast measurement, for what axe leaves undecided.

axe's colour-contrast rule passes or fails most text, but it leaves some "incomplete": text inside SVG (the
heatmap's labels and numbers, the legend, the plots), cells scrolled out of view inside a scroll box, and
symbols such as ✓ and ✗. This measures every visible text on the page, open shadow roots included, the way
WCAG 1.4.3 asks:

- the text colour (`color`, or `fill` for SVG text), made see-through by any opacity on the way up;
- on the colour behind it: for SVG text, the shape it is drawn on (a heatmap cell, or the hatch of a masked
  cell) if there is one, else the first opaque background of its ancestors; for HTML, the first opaque
  background of its ancestors (half-transparent ones blended in on the way);
- at least 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold). Disabled controls are exempt, as WCAG says.

    from contrast import low_contrast_text
    assert low_contrast_text(page) == []    # each failure: {text, ratio, needed, fg, bg, where}
"""

MEASURE = r"""() => {
  const parse = (colour) => {
    const m = colour && colour.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const parts = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
    return { r: parts[0], g: parts[1], b: parts[2], a: parts.length > 3 ? parts[3] : 1 };
  };
  const over = (top, below) => ({
    r: top.r * top.a + below.r * (1 - top.a), g: top.g * top.a + below.g * (1 - top.a),
    b: top.b * top.a + below.b * (1 - top.a), a: 1,
  });
  const luminance = ({ r, g, b }) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const parentOf = (node) => node.parentElement ?? (node.parentNode instanceof ShadowRoot ? node.parentNode.host : null);
  const canvas = parse(getComputedStyle(document.documentElement).backgroundColor);
  const pageBackground = canvas && canvas.a > 0 ? canvas : { r: 255, g: 255, b: 255, a: 1 };

  /** The colour behind `element`: its own and its ancestors' backgrounds, nearest first, blended. */
  function backgroundOf(element) {
    const layers = [];
    for (let node = element; node; node = parentOf(node)) {
      if (node instanceof SVGElement && !(node instanceof SVGSVGElement)) continue;
      const colour = parse(getComputedStyle(node).backgroundColor);
      if (colour && colour.a > 0) {
        layers.push(colour);
        if (colour.a >= 1) break;
      }
    }
    let result = pageBackground;
    for (const layer of layers.reverse()) result = over(layer, result);
    return result;
  }

  /** For SVG text: the fill of the shape it sits on (a cell's rect drawn before it, containing its centre). */
  function svgShapeBehind(text) {
    const box = text.getBBox();
    const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
    for (let node = text.previousElementSibling; node; node = node.previousElementSibling) {
      if (!(node instanceof SVGRectElement)) continue;
      const x = node.x.baseVal.value, y = node.y.baseVal.value, w = node.width.baseVal.value, h = node.height.baseVal.value;
      if (cx < x || cx > x + w || cy < y || cy > y + h) continue;
      const fill = getComputedStyle(node).fill;
      const pattern = /url\(["']?#([^"')]+)/.exec(fill);
      if (pattern) {
        const back = document.getElementById(pattern[1])?.querySelector("rect");
        return back ? parse(getComputedStyle(back).fill) : null;
      }
      const colour = parse(fill);
      if (colour && colour.a > 0) return colour; // a see-through shape (a hit area) is not what the text sits on
    }
    return null;
  }

  function opacityOf(element) {
    let opacity = 1;
    for (let node = element; node; node = parentOf(node)) opacity *= Number(getComputedStyle(node).opacity);
    return opacity;
  }

  function visible(element) {
    if (!element.getClientRects().length) return false;
    const style = getComputedStyle(element);
    return style.visibility !== "hidden" && style.display !== "none";
  }

  const hasText = (element) => [...element.childNodes].some((child) => child.nodeType === Node.TEXT_NODE && child.textContent.trim());
  const elements = [];
  const collect = (root) => {
    for (const element of root.querySelectorAll("*")) {
      if (element.shadowRoot) collect(element.shadowRoot);
      if (hasText(element)) elements.push(element);
    }
  };
  collect(document);

  const failures = [];
  let measured = 0;
  for (const element of elements) {
    if (["SCRIPT", "STYLE", "TITLE", "OPTION"].includes(element.tagName) || element.closest("title, defs")) continue;
    if (!visible(element) || element.closest(":disabled, [aria-disabled='true']")) continue;
    if (element.closest(".visually-hidden")) continue;
    const style = getComputedStyle(element);
    const isSvg = element instanceof SVGElement;
    let fg = parse(isSvg ? style.fill : style.color);
    if (!fg) continue;
    const behind = (isSvg && svgShapeBehind(element)) || backgroundOf(element);
    fg = { ...fg, a: fg.a * opacityOf(element) };
    const shown = over(fg, behind);
    const size = parseFloat(style.fontSize);
    const bold = Number(style.fontWeight) >= 700;
    const needed = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    const got = ratio(shown, behind);
    measured += 1;
    if (got + 1e-9 < needed) {
      const where = [];
      for (let node = element; node && where.length < 4; node = parentOf(node)) {
        where.push(node.dataset?.testid ? `[data-testid=${node.dataset.testid}]` : node.className?.baseVal ?? node.className ?? node.tagName);
      }
      const hex = (c) => `rgb(${Math.round(c.r)}, ${Math.round(c.g)}, ${Math.round(c.b)})`;
      failures.push({ text: element.textContent.trim().slice(0, 40), ratio: Math.round(got * 100) / 100, needed,
                      fg: hex(shown), bg: hex(behind), where: where.join(" < ") });
    }
  }
  return { failures, measured };
}"""


def measure_text_contrast(page):
    """{"failures": [...], "measured": n}: every visible text on the page measured against WCAG AA."""
    return page.evaluate(MEASURE)


def low_contrast_text(page):
    """The visible texts below WCAG AA contrast, each {text, ratio, needed, fg, bg, where}; [] when all pass."""
    return measure_text_contrast(page)["failures"]
