/**
 * The big heatmap's tooltip: what the hovered cell holds (who asks, who answers, the weight, and for a scene's
 * head its score before and after scaling), above the cell or below it where there is no room.
 */

import { formatPercent, formatScore, formatWeight } from "../shared/format.js";
import { namedToken } from "../shared/positions.js";

/** What the tooltip says about the hovered cell: [text, class name] per line. */
function tooltipLines({ hover, tokens, head, mask, maskEditable, scale }) {
  const { row, column } = hover;
  const masked = Boolean(mask?.[row]?.[column]);
  const asker = namedToken(tokens, row);
  const answerer = namedToken(tokens, column);
  const lines = [[`${asker} asks, ${answerer} answers`, "tooltip-title"]];
  if (masked) {
    lines.push([`masked: ${asker} may not read ${answerer}`, ""], ["weight 0", ""]);
  } else {
    const weight = head.weights[row][column];
    lines.push([`weight ${formatWeight(weight)} (${formatPercent(weight)})`, "tooltip-weight"]);
    if (head.stages) {
      // A scene's head carries its stages; a trained model's head on the model panel only its weights.
      const score = head.stages.scores[row][column];
      const scaled = head.stages.masked[row][column];
      lines.push([
        scale ? `score q·k = ${formatScore(score)}, ÷ √${head.d_k} = ${formatScore(scaled)}` : `score q·k = ${formatScore(score)} (not scaled)`,
        "",
      ]);
    }
  }
  if (maskEditable) lines.push([masked ? "click to let it read again" : "click to forbid this read", "tooltip-hint"]);
  return lines;
}

/** The narrowest the tooltip is made to keep clear of the row labels; narrower than this it may cover them. */
const NARROWEST_BESIDE_LABELS = 160;

/**
 * Put the tooltip above the cell (below it where there is no room), inside the heatmap's width, and right of the
 * row labels (it explains them: on a narrow phone grid, clamped to the left edge, it covered them). In a grid
 * that scrolls sideways, its place counts the scroll.
 */
function placeTooltip(tooltip, wrapper, cellRect) {
  const cellBox = cellRect.getBoundingClientRect();
  const box = wrapper.getBoundingClientRect();
  const firstCell = wrapper.querySelector("svg .cell");
  const gridLeft = Math.max(0, (firstCell?.getBoundingClientRect().left ?? box.left) - box.left);
  const room = box.width - gridLeft;
  // Never wider than the heatmap (on a phone, a custom mask's hint is wider than the screen): longer lines wrap.
  tooltip.style.maxWidth = `${Math.floor(room >= NARROWEST_BESIDE_LABELS ? room : box.width)}px`;
  const tipBox = tooltip.getBoundingClientRect();
  let x = cellBox.left - box.left + cellBox.width / 2 - tipBox.width / 2;
  x = Math.max(tipBox.width <= room ? gridLeft : 0, Math.min(x, box.width - tipBox.width));
  let y = cellBox.top - box.top - tipBox.height - 8;
  if (y < 0) y = cellBox.bottom - box.top + 8;
  tooltip.style.left = `${Math.round(x + wrapper.scrollLeft)}px`;
  tooltip.style.top = `${Math.round(y + wrapper.scrollTop)}px`;
}

/**
 * Create the tooltip, named `testId` for the tests, to be placed in `wrapper` (the heatmap's, which it is placed
 * within).
 * @returns {{element: HTMLElement, show: (view: object, cellRect: Element|null) => void}}
 */
export function createHeatmapTooltip(wrapper, testId) {
  const tooltip = document.createElement("div");
  tooltip.className = "heatmap-tooltip";
  tooltip.setAttribute("role", "tooltip");
  tooltip.dataset.testid = testId;
  tooltip.hidden = true;

  /** Show what `view`'s hovered cell holds beside `cellRect`, its rect; hidden when no cell is (`cellRect` null). */
  function show(view, cellRect) {
    if (!cellRect) {
      tooltip.hidden = true;
      return;
    }
    tooltip.replaceChildren(...tooltipLines(view).map(([text, className]) => {
      const line = document.createElement("div");
      line.textContent = text;
      if (className) line.className = className;
      return line;
    }));
    tooltip.hidden = false;
    placeTooltip(tooltip, wrapper, cellRect);
  }

  return { element: tooltip, show };
}
