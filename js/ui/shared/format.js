/**
 * How numbers read on the page. Weights are shown the way the tutorial prints them: 0.920 in a
 * cell, 92.0% in the bars; a share under 1% keeps two decimals (0.32%) so it does not read as zero.
 */

/**
 * A weight with three decimals (0.920), as in a heatmap cell; `digits` 4 gives the tutorial's own precision
 * (0.9199), for the worked steps beside scores written to four. `null` (a nan from the overflow trap) reads "nan".
 */
export function formatWeight(weight, digits = 3) {
  return weight === null || weight === undefined || Number.isNaN(weight) ? "nan" : weight.toFixed(digits);
}

/** A weight as a percentage: 92.0%, 5.4%, 0.32%, <0.01%, 0%. */
export function formatPercent(weight) {
  if (weight === null || weight === undefined || Number.isNaN(weight)) return "nan";
  const percent = weight * 100;
  if (percent === 0) return "0%";
  if (percent >= 1) return `${percent.toFixed(1)}%`;
  if (percent >= 0.01) return `${percent.toFixed(2)}%`;
  return "<0.01%";
}

/** A score (any real number) compactly: up to four significant decimals, no trailing zeros. */
export function formatScore(score) {
  if (score === null || score === undefined || Number.isNaN(score)) return "nan";
  if (!Number.isFinite(score)) return score > 0 ? "∞" : "−∞";
  const text = Math.abs(score) >= 1e5 || (score !== 0 && Math.abs(score) < 1e-4) ? score.toExponential(3) : String(Number(score.toFixed(4)));
  return text.replace("-", "−");
}

/** A token's text for labels: quoted, with a visible mark for an empty name (scene/quoting.js). */
export { quoted } from "../../scene/quoting.js";
