/**
 * "Test a claim" as the controller runs it: which claim, its two training runs (one with the design choice,
 * one without, same seed and data) in the training worker, and what they measured.
 *
 * State: `state.claim` (change "claim"); see CLAIM_STATE in state.js. The claims, the runs, the measurements and the verdict
 * all come from Python (model/claims.py, model/requests.py): this module only decides what to ask and when.
 * The claim chosen (and the steps and seed, if other than the claim's own) is what a link and saved work keep of
 * it (layout/panels.js claimViewOf makes their part from this state); one that arrives comes back through
 * `restore`, and a link may ask for its pair to start as it opens (first-scene.js hands that over).
 *
 * Each claim is made somewhere in the page (CLAIM_PLACES): that place offers "Test this claim by training"
 * (`openClaim`), and the test offers the way back (`showClaimPlace`).
 */

import { CLAIM_STATE } from "../state/state.js";
import { reportProgress } from "./training-progress.js";

/**
 * Where the page makes each claim, by its id (model/claims.py): the words that name the place, the panel it is
 * in (the way back is offered only when that panel is shown), the view to set there (an experiment's tab) and
 * where to take the learner (a panel or a REVEAL_PLACES name, playground.js).
 */
export const CLAIM_PLACES = Object.freeze({
  scale: { words: "the experiment “Why ÷√d” (tutorial Part 7)", panel: "experiments", view: { experiment: "scaling" }, reveal: "experiments" },
  mask: { words: "the mask switches above the heatmap", panel: "controls", view: {}, reveal: "mask-switch" },
  positions: { words: "the shuffle experiment, “Word order” (tutorial Part 8)", panel: "experiments", view: { experiment: "order" }, reveal: "experiments" },
  "separate-qk": { words: "the “it” and “cat” experiment (tutorial Part 6)", panel: "experiments", view: { experiment: "one-thing" }, reveal: "experiments" },
});

/** The sentence both models' heads are shown on: the panel's repeated run, where copying is what matters. */
const HEADS_EXAMPLE = "repeated-run";

/**
 * @param {object} options
 * @param {ReturnType<import("../state/session.js").createStore>} options.store
 * @param {ReturnType<import("../service/service.js").createPythonService>} options.python
 * @param {(place: string) => void} options.reveal take the learner to a place (controller.js)
 * @param {(text: string, options?: object) => void} options.notify
 * @param {(panel: string) => boolean} options.panelShown the panel is on the page (controller.js)
 */
export function createClaimController({ store, python, reveal, notify, panelShown }) {
  const update = (patch) => store.update({ claim: { ...store.state.claim, ...patch } }, "claim");
  const running = () => ["starting", "training"].includes(store.state.claim.status);
  /** A claim was chosen: its pair's workers start booting while the learner reads what it claims. */
  const prepare = () => python.prepareClaimTest().catch(() => {}); // a worker that cannot start says so when asked
  /** The claim chosen, and the steps and seed chosen for it (null: the claim's own). */
  const choice = ({ id, steps = null, seed = null }) =>
    ({ id, chosenSteps: Number.isInteger(steps) ? steps : null, chosenSeed: Number.isInteger(seed) ? seed : null });

  /** Each model's description and its heads on the example sentence (asked of the training worker). */
  async function headsOf(side) {
    const model = `claim-${side}`;
    const info = await python.modelInfo({ model, headsOnly: true }); // what the cards show, and no more
    const words = info.examples.find((example) => example.id === HEADS_EXAMPLE)?.words ?? info.examples[0].words;
    const run = await python.modelRun({ model, words, metrics: false });
    return { info, tokens: run.tokens, weights: run.weights };
  }

  const actions = {
    /** The claims a pair can test (asked once). */
    async loadClaims() {
      if (!store.state.claim.claims) update({ claims: await python.claims() });
      return store.state.claim.claims;
    },
    /**
     * Test claim `id`: train its pair side by side; resolves with the outcome (model-training.js's ClaimOutcome).
     * `onProgress` hears every report as the view does (the JS API passes one on).
     */
    /**
     * @param {string} id
     * @param {{seed?: number, steps?: number, onProgress?: (progress: object) => void}} [options]
     */
    async testClaim(id, { seed, steps, onProgress: listener = () => {} } = {}) {
      update({ ...CLAIM_STATE, claims: store.state.claim.claims, ...choice({ id, steps, seed }), status: "starting" });
      const losses = { with: [], without: [] };
      try {
        const outcome = await python.compareClaim({
          claim: id, seed, steps,
          onProgress: (progress) => {
            if (progress.phase === "starting") {
              update({ status: "starting", detail: progress.detail });
              return;
            }
            losses.with.push(...progress.losses.with);
            losses.without.push(...progress.losses.without);
            update({ status: "training", step: progress.step, steps: progress.steps, seconds: progress.seconds,
              losses: { with: [...losses.with], without: [...losses.without] } });
            reportProgress(listener, { step: progress.step, steps: progress.steps, losses: progress.losses, seconds: progress.seconds });
          },
        });
        update({ status: outcome.status, claim: outcome.claim, seed: outcome.configs.with.seed, step: outcome.step, steps: outcome.configs.with.steps,
          losses: outcome.losses, seconds: outcome.seconds, metrics: outcome.metrics, verdict: outcome.verdict });
        if (outcome.status === "done") {
          // The heads follow the verdict (describing a model takes a moment): the outcome does not wait for them.
          Promise.all([headsOf("with"), headsOf("without")])
            .then(([withHeads, withoutHeads]) => {
              if (store.state.claim.claim === outcome.claim) update({ heads: { with: withHeads, without: withoutHeads } });
            })
            .catch(() => {}); // a newer test replaced these models: its own heads will come
        }
        return outcome;
      } catch (error) {
        update({ status: "failed", message: error.message });
        throw error;
      }
    },
    /** End the claim's test in progress (the same Stop as training's: one run trains at a time). */
    stopClaim: () => python.stopTraining(),
    /** Choose claim `id` in the test (the picker); `steps` when the learner chose other steps than the claim's. */
    chooseClaim(id, { steps = null } = {}) {
      if (running()) return;
      update(choice({ id, steps }));
      prepare();
    },
    /**
     * "Test this claim by training": choose claim `id`, bring its test into view (its panel loads the claims
     * first) and, with `start`, train its pair. Resolves with the claim (model_claims' entry), or with the
     * pair's outcome when it started; an id the module does not know is said in a notice.
     */
    async openClaim(id, { start = false, steps = null, seed = null, show = true } = {}) {
      const claims = await actions.loadClaims();
      const claim = claims.find((entry) => entry.id === id);
      if (!claim) {
        const known = claims.map((entry) => `“${entry.id}”`).join(", ");
        notify(`There is no claim “${id}” to test; the claims are ${known}.`, { tone: "error" });
        throw new Error(`no claim ${JSON.stringify(id)}; the claims are ${claims.map((entry) => entry.id).join(", ")}`);
      }
      if (!running()) update(choice({ id, steps, seed }));
      if (!start) prepare();
      if (show) reveal("claim");
      if (!start) return claim;
      return actions.testClaim(id, { steps: steps ?? undefined, seed: seed ?? undefined });
    },
    /** Where the page makes claim `id` (CLAIM_PLACES' words), or null when that place is not on the page. */
    claimPlace(id) {
      const place = CLAIM_PLACES[id];
      return place && panelShown(place.panel) ? place.words : null;
    },
    /** Take the learner back to where the page makes claim `id`. */
    showClaimPlace(id) {
      const place = CLAIM_PLACES[id];
      if (!place) return;
      store.update({ view: { ...store.state.view, ...place.view } }, "view");
      reveal(place.reveal);
    },
  };

  /** The claim a link or saved work chose (its view's `claim` part, cleaned by layout/panels.js); what starts
   * its pair is the link's alone (openClaim). A test in progress keeps its claim. */
  function restore(kept) {
    if (kept && !running()) update(choice(kept));
  }
  return { actions, restore };
}
