/**
 * One small heatmap per head, above the big one, when a result has two heads or more: each a button that
 * shows and edits that head; the head on screen is pressed.
 */

import { make, makeButton } from "../shared/dom.js";
import { createHeatmap } from "./heatmap.js";

/**
 * @param {{onSelect: (head: number) => void}} handlers
 * @returns {{element: HTMLElement, update: (state: object) => void}} `update` draws state.result's heads
 */
export function createHeadStrip({ onSelect }) {
  const strip = make("div", "head-strip");
  strip.dataset.testid = "head-strip";
  strip.hidden = true; // shown only for a result with two heads or more; empty, its margin would still push
  let thumbs = [];

  /** A thumbnail button for each of `count` heads, in the strip after its label. */
  function build(count) {
    thumbs = Array.from({ length: count }, (_, h) => {
      const button = makeButton("head-thumb", "", "head-thumb");
      button.dataset.head = String(h);
      const heatmap = createHeatmap({ compact: true });
      const name = make("span", "head-thumb-name");
      button.append(heatmap.element, name);
      button.addEventListener("click", () => onSelect(h));
      return { button, heatmap, name };
    });
    strip.replaceChildren(make("span", "strip-label", "Heads:"), ...thumbs.map((thumb) => thumb.button));
  }

  function update(state) {
    const heads = state.result.heads;
    if (heads.length < 2) {
      strip.replaceChildren();
      strip.hidden = true;
      thumbs = [];
      return;
    }
    strip.hidden = false;
    if (thumbs.length !== heads.length) build(heads.length);
    heads.forEach((head, h) => {
      const thumb = thumbs[h];
      thumb.name.textContent = head.name;
      thumb.button.setAttribute("aria-pressed", String(h === state.activeHead));
      thumb.button.setAttribute("aria-label", `Show and edit ${head.name}`);
      thumb.heatmap.update({ tokens: state.result.tokens, head, mask: state.result.mask, scale: state.result.scale, focusRow: null, hover: null });
    });
  }

  return { element: strip, update };
}
