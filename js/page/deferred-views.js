/**
 * Views that may redraw just after the heatmap rather than with it.
 *
 * When a new result arrives, the learner is looking at the heatmap: it should hold the new weights as soon
 * as possible. The other views (the bars, the worked steps, the heads side by side, the editors after a
 * whole new scene) can redraw in the task after, so a big scene's heatmap is not held back behind tens of
 * thousands of editor cells. They still end up showing the same state: a deferred view is called once,
 * in the next task, with every part that changed in between, and reads the state as it is then.
 *
 * Every deferred view of the page redraws in that same one task, in the order they were first owed a redraw.
 * A task of its own for each would let the browser lay out and paint the page between them: at 64 tokens
 * one such extra frame costs 15-30 ms, for views that are all drawn a moment later anyway.
 */

/** Redraws owed, in the order they were first owed; all of them run in one task. */
const owed = new Set();
let owedTaskQueued = false;

function redrawOwed() {
  owedTaskQueued = false;
  const redraws = [...owed];
  owed.clear();
  for (const redraw of redraws) {
    try {
      redraw();
    } catch (error) {
      // One view failing must not keep the others from drawing; the error is still reported, as it was
      // when each view had a task of its own.
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}

/** Run `redraw` in the next task, with every other redraw owed by then. */
function owe(redraw) {
  owed.add(redraw);
  if (!owedTaskQueued) {
    owedTaskQueued = true;
    setTimeout(redrawOwed, 0);
  }
}

/**
 * A stand-in for the store (same `state` and `update`) whose subscribers may be called a task late.
 * @param {{state: object, update: Function, subscribe: Function}} store the page's store (state.js)
 * @param {object} [options]
 * @param {(changes: Set<string>) => boolean} [options.urgent] true for changes the view must draw at once
 *   (an edit the learner is typing, say); by default every change waits for the next task
 * @returns {{state: object, update: Function, subscribe: Function}}
 */
export function deferredStore(store, { urgent = () => false } = {}) {
  return {
    state: store.state,
    update: store.update,
    subscribe(listener) {
      let pending = null; // the parts changed since the view last drew, or null if it is up to date
      let subscribed = true;
      const flush = () => {
        const changes = pending;
        pending = null;
        if (subscribed && changes) listener(store.state, changes);
      };
      const unsubscribe = store.subscribe((state, changes) => {
        if (urgent(changes)) {
          flush(); // what was waiting first, so the view sees changes in their order
          listener(state, changes);
        } else if (pending) {
          for (const part of changes) pending.add(part);
        } else {
          pending = new Set(changes);
          owe(flush);
        }
      });
      return () => {
        subscribed = false;
        unsubscribe();
      };
    },
  };
}

/** For the editors: a new result (or a new scene with its result) waits; the learner's own edits do not. */
export const unlessResult = (changes) => !changes.has("result");

/** For views below the heatmap: the learner opening or closing a panel, or choosing a tab, shows at once. */
export const viewChanges = (changes) => changes.has("view");
