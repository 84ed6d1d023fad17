/**
 * "Test a claim" as the controller runs it: which claim, its two training runs (one with the design choice,
 * one without, same seed and data) in the training worker, and what they measured.
 *
 * State: `state.claim` (part "claim"); see CLAIM_STATE. The claims, the runs, the measurements and the verdict
 * all come from Python (model/claims.py, model/requests.py): this module only decides what to ask and when.
 */

/** The state of a page that has not tested a claim. */
export const CLAIM_STATE = Object.freeze({
  claims: null, // the claims (model_claims), once asked for
  id: null, // the claim being (or last) tested
  status: "idle", // "starting" | "training" | "done" | "stopped" | "failed"
  detail: "",
  claim: null, // the claim tested (model_claims' entry)
  step: 0,
  steps: 0,
  losses: { with: [], without: [] },
  seconds: 0,
  metrics: null, // {with, without}: repeated-part accuracy and loss, as the claim measures them
  verdict: null, // {with_accuracy, without_accuracy, shown, sentence, shown_gap}
  heads: null, // {with, without}: each model's model_info and its heads' weights on `words`
  message: "",
});

/** The sentence both models' heads are shown on: the panel's repeated run, where copying is what matters. */
const HEADS_EXAMPLE = "repeated-run";

/**
 * @param {object} options
 * @param {ReturnType<import("./state.js").createStore>} options.store
 * @param {ReturnType<import("../python/service.js").createPythonService>} options.python
 */
export function createClaimController({ store, python }) {
  const update = (patch) => store.update({ claim: { ...store.state.claim, ...patch } }, "claim");
  store.update({ claim: { ...CLAIM_STATE } }, "claim");

  /** Each model's description and its heads on the example sentence (asked of the training worker). */
  async function headsOf(side) {
    const model = `claim-${side}`;
    const info = await python.modelInfo({ model });
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
    async testClaim(id, { seed, steps, onProgress: listener = () => {} } = {}) {
      update({ ...CLAIM_STATE, claims: store.state.claim.claims, id, status: "starting" });
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
            try {
              listener({ step: progress.step, steps: progress.steps, losses: progress.losses, seconds: progress.seconds });
            } catch {
              // a course page's listener that throws does not stop the learner's test
            }
          },
        });
        update({ status: outcome.status, claim: outcome.claim, step: outcome.step, steps: outcome.configs.with.steps,
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
  };

  return { actions };
}
