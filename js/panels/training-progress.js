/**
 * A training run's progress as a course page's script hears it (the JS API's `onProgress`): a listener that throws
 * never stops the learner's run, for a model's run and a claim's pair alike.
 */

/**
 * Tell `listener` of `report`, whatever the listener does with it.
 * @param {(report: object) => void} listener
 * @param {object} report
 */
export function reportProgress(listener, report) {
  try {
    listener(report);
  } catch {
    // a course page's listener that throws does not stop the learner's run
  }
}
