/**
 * Every head of the trained model as a card: its weights on the sentence as a small heatmap, its role and
 * scores as the analysis measured them, and a switch that knocks it out. Layer by layer, one row each.
 * Cards given no handlers only show (a claim's two models, say): no switch, and the heatmap is not a button.
 */

import { createHeatmap } from "../heatmap/heatmap.js";
import { formatWeight } from "../shared/format.js";
import { make, setPropertyIfChanged } from "../shared/dom.js";
import { START_TOKEN } from "../shared/positions.js";

/** How the page names each role (model/analysis.py decides which a head has): on the cards and in the big view. */
const ROLE_NAMES = {
  "previous-token": "previous-token head",
  induction: "induction head",
  pronoun: "pronoun head",
  "duplicate-token": "duplicate-token head",
  // The lab's own name for a head that parks its weight on the first token (model-legend.js says why).
  "first-token": "attention sink",
  diffuse: "diffuse",
};

/** The short words the page writes for each score of model_info (the legend says what each measures). */
export const SCORE_WORDS = Object.freeze({
  previous_token: "prev",
  induction: "induction",
  first_token: START_TOKEN,
  pronoun: "pronoun",
});

/** The scores shown on a card, in this order. */
const SCORES = ["previous_token", "induction", "first_token"];

/** The page's one name for a role as model_info gives it ("first-token" reads "attention sink"). */
export function roleName(role) {
  return ROLE_NAMES[role] ?? role ?? "";
}

/** A role's name as a sentence counts it: "an induction head", "a pronoun head". */
export function aRole(role) {
  const name = roleName(role);
  return `${/^[aeiou]/.test(name) ? "an" : "a"} ${name}`;
}

/**
 * A head's other jobs, past the role it is named by (model_info's `roles`), each with the score that gives it:
 * "also a pronoun head (pronoun 0.97)"; "" for a head with one job. The score and its name never part at a break.
 * @param {{role?: string, roles?: string[], scores?: object}|undefined} described a head of model_info
 * @param {object} [thresholds] model_info's `role_thresholds`: which score gives each role
 */
export function alsoText(described, thresholds = {}) {
  // Parking on the start is what a head does with nothing to find (the legend says so of induction heads), not
  // a second job: it is named only when it is a head's one role.
  const others = (described?.roles ?? []).filter((role) => role !== described.role && role !== "first-token");
  if (!others.length) return "";
  return `also ${others.map((role) => {
    const score = thresholds[role]?.score ?? role;
    const value = described.scores?.[score];
    const given = Number.isFinite(value) ? ` (${SCORE_WORDS[score] ?? score}\u00a0${formatWeight(value, 2)})` : "";
    return `${aRole(role)}${given}`;
  }).join(", ")}`;
}

/** The causal mask of n tokens: token i may read tokens 0..i. */
export function causalMask(n) {
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (__, j) => j > i));
}

function card({ layer, head, onChoose, onToggle }) {
  const element = make("div", "model-head-card");
  element.dataset.testid = "model-head-card";
  element.dataset.layer = String(layer);
  element.dataset.head = String(head);
  const heatmap = createHeatmap({ compact: true, testId: "model-thumb" });
  const name = make("span", "model-head-name");
  const role = make("span", "model-head-role");
  const also = make("span", "model-head-also");
  also.dataset.testid = "model-head-also";
  const scores = make("p", "model-head-scores");
  // A button only where choosing does something; otherwise the same face, for reading.
  const choose = make(onChoose ? "button" : "div", "model-head-choose");
  choose.append(heatmap.element, name, " ", role, " ", also); // spaces: the words read "L1H1 diffuse", not "L1H1diffuse"
  element.append(choose, scores);
  let box = null;
  if (onChoose) {
    choose.type = "button";
    choose.dataset.testid = "model-head-choose";
    choose.addEventListener("click", () => onChoose(layer, head));
  }
  if (onToggle) {
    const toggle = make("label", "choice model-knock-out");
    box = document.createElement("input");
    box.type = "checkbox";
    box.dataset.testid = "model-knock-out";
    box.addEventListener("change", () => onToggle(layer, head));
    toggle.append(box, document.createTextNode(" knock out"));
    element.append(toggle);
  }
  return { element, heatmap, name, role, also, scores, box, choose: onChoose ? choose : null };
}

/**
 * @param {{onChoose?: (layer: number, head: number) => void, onToggle?: (layer: number, head: number) => void}} [handlers]
 *   without onChoose a card's heatmap is not a button; without onToggle it has no knock-out switch
 * @returns {{element: HTMLElement, update: (view: object) => void}}
 */
export function createHeadCards({ onChoose, onToggle } = {}) {
  const element = make("div", "model-head-cards");
  element.dataset.testid = "model-head-cards";
  let cards = [];
  let shape = "";

  function build(info) {
    cards = [];
    const rows = [];
    for (let layer = 0; layer < info.config.n_layers; layer += 1) {
      const row = make("div", "model-layer");
      row.append(make("span", "model-layer-name", `layer ${layer}`));
      for (let head = 0; head < info.config.n_heads; head += 1) {
        const made = card({ layer, head, onChoose, onToggle });
        cards.push(made);
        row.append(made.element);
      }
      rows.push(row);
    }
    element.replaceChildren(...rows.reverse()); // the last layer on top, as the model reads upward
  }

  /**
   * view = {info (model_info), weights ([layer][head] n × n, or null), tokens, knockedOut, chosen {layer, head},
   * training (true while weights come from a run in progress: roles are not measured yet)}
   */
  function update({ info, weights, tokens, knockedOut, chosen, training }) {
    const key = `${info.config.n_layers}x${info.config.n_heads}`;
    if (key !== shape) {
      build(info);
      shape = key;
    }
    const mask = causalMask(tokens.length);
    for (const made of cards) {
      const layer = Number(made.element.dataset.layer);
      const head = Number(made.element.dataset.head);
      const described = info.heads.find((entry) => entry.layer === layer && entry.head === head);
      const label = described?.label ?? `L${layer}H${head}`;
      const knocked = knockedOut.some(([l, h]) => l === layer && h === head);
      made.name.textContent = label;
      made.role.textContent = training ? "training…" : roleName(described?.role);
      made.also.textContent = training ? "" : alsoText(described, info.role_thresholds);
      made.also.hidden = !made.also.textContent;
      // A score's name and its number never part at a line break (a no-break space between them): "induction"
      // at the end of one line and 0.93 on the next read as two things.
      made.scores.textContent = training || !described ? "" :
        SCORES.map((key) => `${SCORE_WORDS[key]}\u00a0${formatWeight(described.scores[key], 2)}`).join(" · ");
      if (made.box) {
        setPropertyIfChanged(made.box, "checked", knocked);
        setPropertyIfChanged(made.box, "disabled", Boolean(training));
        made.box.setAttribute("aria-label", `Knock out ${label}`);
      }
      made.element.classList.toggle("knocked-out", knocked);
      const isChosen = chosen.layer === layer && chosen.head === head;
      made.element.classList.toggle("chosen", isChosen);
      if (made.choose) {
        made.choose.setAttribute("aria-pressed", String(isChosen));
        // The name starts with the words on the card ("L1H1 diffuse …"), as a learner speaking to a voice control says
        // them (WCAG 2.5.3).
        const shown = [label, made.role.textContent, made.also.hidden ? "" : made.also.textContent];
        made.choose.setAttribute("aria-label", `${shown.filter(Boolean).join(" ")}: show it large`);
      }
      if (weights?.[layer]?.[head]) {
        made.heatmap.update({ tokens, head: { name: label, weights: weights[layer][head] }, mask, focusRow: null, hover: null });
      }
    }
  }

  return { element, update };
}
