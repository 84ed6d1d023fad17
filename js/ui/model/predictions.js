/**
 * What the model predicts after the focused word: its top next words with their probabilities, and the
 * probability it gave the word that actually comes next in the sentence.
 */

import { formatPercent, quoted } from "../shared/format.js";
import { make } from "../shared/dom.js";

/** @returns {{element: HTMLElement, update: (view: object) => void}} */
export function createPredictions() {
  const element = make("div", "model-predictions");
  element.dataset.testid = "model-predictions";
  const heading = make("h3", "", "Next word");
  const list = make("ol", "bars");
  list.dataset.testid = "model-prediction-list";
  const actual = make("p", "panel-note");
  actual.dataset.testid = "model-next-word";
  element.append(heading, list, actual);

  /**
   * view = {tokens, predictions (model_run), nextWord (model_run next_word), focus}. The English model's answers to
   * the panel hold the guesses at their focus alone: at a newly focused word they are on their way (null), "…".
   */
  function update({ tokens, predictions, nextWord, focus }) {
    heading.textContent = `After ${quoted(tokens[focus])}, the model expects`;
    const ranked = predictions[focus];
    element.setAttribute("aria-busy", String(!ranked));
    if (!ranked) {
      list.replaceChildren(make("li", "bar-row", "…"));
      actual.textContent = "";
      return;
    }
    const top = ranked[0][1];
    list.replaceChildren(...ranked.map(([word, probability], rank) => {
      const item = make("li", rank === 0 ? "bar-row top" : "bar-row");
      item.dataset.testid = "model-prediction";
      item.dataset.word = word;
      item.dataset.probability = String(probability); // the exact number, for a reader who wants more digits
      const track = make("span", "bar-track");
      const fill = make("span", "bar-fill");
      fill.style.width = `${Math.max(0, Math.min(1, probability / Math.max(top, 1e-9))) * 100}%`;
      track.append(fill);
      const value = make("span", "bar-value", formatPercent(probability));
      item.append(make("span", "bar-label", word), make("span", "bar-position", `#${rank + 1}`), track, value);
      return item;
    }));
    if (focus < tokens.length - 1) {
      const word = tokens[focus + 1];
      actual.textContent = `The sentence goes on with ${quoted(word)}: the model gave it ${formatPercent(nextWord[focus])}.`;
    } else {
      actual.textContent = "This is the end of the sentence: these are the model's guesses for the word after it.";
    }
  }

  return { element, update };
}
