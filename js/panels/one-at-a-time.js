/**
 * A question asked one at a time, the newest wanted: the model's panel asks Python at every keystroke of the
 * sentence, and the answer it needs is the last text's, not every one before it queued up.
 */

/**
 * `ask` run one at a time: a call that comes while it runs makes it run once more afterwards, however many came, and
 * resolves then. So a question per keystroke never queues up behind the others: only the newest text is asked next.
 * `ask` is given `superseded()`, true once a call has come since it began: its answer is then to an older question,
 * and it should not show it (the next run shows the newest).
 * @param {(superseded: () => boolean) => Promise<void>} ask
 * @returns {() => Promise<void>}
 */
export function oneAtATime(ask) {
  let running = null;
  let again = false;
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await ask(() => again);
        } while (again);
      } finally {
        // At once, in the step that saw no call waiting: a call a moment later (another chain's next step) must
        // start a run of its own, not join this one as it ends.
        running = null;
      }
    })();
    return running;
  };
}
