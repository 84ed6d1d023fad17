/**
 * Views that may redraw later than the heatmap: just after it (deferredStore), or, far from the screen, once
 * the updates pause (nearScreenStore).
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
 *
 * While something more pressing is on its way (a lesson step's question: `hold`), every deferred view waits, urgent
 * changes too, and redraws once it has been drawn and painted.
 *
 * The views of one page (or one notebook widget) share one queue of owed redraws: createDeferredViews() makes it,
 * once per page, and hands out its stores and its hold; nothing is shared between two pages.
 */

/** Call each of `redraws`: one view failing must not keep the others from drawing; its error is still reported. */
function redrawEach(redraws) {
  for (const redraw of redraws) {
    try {
      redraw();
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}

/** How long a released hold waits for the next frame before it lets the views redraw anyway. */
const FRAME_WAIT_MS = 100;

/**
 * Resolves once the next frame is painted: in the task after its animation frame. A page the browser does not draw
 * (a course page's frame out of sight) has no frames; it resolves after FRAME_WAIT_MS then.
 */
function afterNextPaint() {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, FRAME_WAIT_MS);
    requestAnimationFrame(() => setTimeout(() => {
      clearTimeout(timer);
      resolve();
    }, 0));
  });
}

/**
 * A stand-in for the store (same `state` and `update`) whose subscribers may hear of a change late. Unless
 * `held()`, a subscriber hears an urgent change, or any change while `waits()` is false, at once (after what it
 * was owed, so it sees changes in their order); any other is added to what it is owed, and `owe(flush)` is told
 * that it owes a redraw. `flush()` then calls it once, with every part that changed, and `forget(flush)` is told
 * it owes nothing any more. `catchUp()` tells this store's subscribers now what they are owed: one that must act
 * before the page goes away (saving the learner's work) cannot wait for a task that may never run.
 */
function storeThatWaits(store, { urgent, waits, held = () => false, owe, forget }) {
  const flushes = new Set(); // one for each subscriber
  return {
    state: store.state,
    update: store.update,
    catchUp: () => redrawEach([...flushes]),
    subscribe(listener) {
      let pending = null; // the parts changed since the view last drew, or null if it is up to date
      let subscribed = true;
      const flush = () => {
        const changes = pending;
        pending = null;
        forget(flush);
        if (subscribed && changes) listener(store.state, changes);
      };
      flushes.add(flush);
      const unsubscribe = store.subscribe((state, changes) => {
        if (!held() && (urgent(changes) || !waits())) {
          flush();
          listener(state, changes);
          return;
        }
        if (pending) for (const part of changes) pending.add(part);
        else pending = new Set(changes);
        owe(flush);
      });
      return () => {
        subscribed = false;
        flushes.delete(flush);
        forget(flush);
        unsubscribe();
      };
    },
  };
}

/**
 * The deferred views of one page: the stores its views subscribe to, and the hold. Every deferred view of the page
 * redraws in the same one task, in the order they were first owed a redraw.
 */
export function createDeferredViews() {
  /** Redraws owed, in the order they were first owed; all of them run in one task. */
  const owed = new Set();
  let owedTaskQueued = false;
  /** How many holds are on; while any is, the owed redraws wait. */
  let holds = 0;
  /** Called once the owed redraws have run (the promises of released holds). */
  let afterRedraws = [];

  function redrawOwed() {
    owedTaskQueued = false;
    if (holds > 0) return; // the release queues them again
    const redraws = [...owed];
    const done = afterRedraws;
    owed.clear();
    afterRedraws = [];
    redrawEach(redraws);
    for (const resolve of done) resolve();
  }

  function queueRedrawTask() {
    if (!owedTaskQueued) {
      owedTaskQueued = true;
      setTimeout(redrawOwed, 0);
    }
  }

  /** Run `redraw` in the next task, with every other redraw owed by then (once no hold is on). */
  function owe(redraw) {
    owed.add(redraw);
    if (holds === 0) queueRedrawTask();
  }

  return {
    /**
     * A stand-in for the store (same `state` and `update`) whose subscribers may be called a task late.
     * @param {import("./session.js").StoreView} store the page's store (state.js)
     * @param {object} [options]
     * @param {(changes: Set<string>) => boolean} [options.urgent] true for changes the view must draw at once
     *   (an edit the learner is typing, say); by default every change waits for the next task. While a hold is on,
     *   every change waits for its release
     * @returns {import("./session.js").StoreView & {catchUp: () => void}}
     */
    deferredStore(store, { urgent = () => false } = {}) {
      return storeThatWaits(store, { urgent, waits: () => true, held: () => holds > 0, owe, forget: (flush) => owed.delete(flush) });
    },

    /**
     * Hold every deferred view until what is drawn at once, without them, is painted: a lesson step's question is
     * drawn before the grids of its scene are built, not after (a step whose scene has three 32 × 32 matrices spent
     * more than the question's 100 ms building and laying them out first). The views owe what changed meanwhile,
     * urgent changes included.
     * @returns {() => Promise<void>} release: once the next frame is painted, the held views redraw (in one task, as
     *   ever); resolves once they have. Call it whatever happened in between; calling it again changes nothing.
     */
    hold() {
      holds += 1;
      let releasing = null;
      async function release() {
        await afterNextPaint();
        holds -= 1;
        if (holds > 0 || owed.size === 0) return;
        const redrawn = new Promise((resolve) => afterRedraws.push(resolve));
        queueRedrawTask();
        await redrawn;
      }
      return () => (releasing ??= release());
    },
  };
}

/** For the editors: a new result (or a new scene with its result) waits; the learner's own edits do not. */
export const unlessResult = (changes) => !changes.has("result");

/** For views below the heatmap: the learner opening or closing a panel, or choosing a tab, shows at once. */
export const viewChanges = (changes) => changes.has("view");

/** How far beyond the viewport, above and below, a view still counts as near the screen (a viewport's height). */
const NEAR_SCREEN_MARGIN = "100% 0px";

/** How long the updates must pause before a view far from the screen catches up with them. */
export const FAR_VIEW_STILL_MS = 250;

/**
 * A stand-in for the store (same `state` and `update`) for a view that is drawn out of sight most of the time.
 *
 * While `element` is near the screen, every change reaches the view as it comes. While it is farther away,
 * the changes wait until the updates have paused for FAR_VIEW_STILL_MS, and then reach the view all at
 * once; or until the element comes near the screen, or an urgent change arrives, whichever is first. At 64
 * tokens the worked steps change some 1,100 numbers per update, and laying them out took about 10 ms of every
 * frame of a stream of edits typed into a grid thousands of pixels above them. Nothing leaves the page: the
 * view is whole and in the accessibility tree, and it is at most one pause behind.
 * @param {import("./session.js").StoreView} store the page's store, or a deferred one
 * @param {Element} element the view's element
 * @param {object} [options]
 * @param {(changes: Set<string>) => boolean} [options.urgent] true for changes the view must draw at once
 * @returns {import("./session.js").StoreView}
 */
export function nearScreenStore(store, element, { urgent = () => false } = {}) {
  let near = true; // until the element has been measured
  /** The flushes of the subscribers that owe a redraw. */
  const waiting = new Set();
  let stillTimer = null;
  const catchUp = () => {
    clearTimeout(stillTimer);
    redrawEach([...waiting]);
  };
  if (typeof IntersectionObserver === "function") {
    new IntersectionObserver((entries) => {
      near = entries[entries.length - 1].isIntersecting;
      if (near) catchUp();
    }, { rootMargin: NEAR_SCREEN_MARGIN }).observe(element);
  }
  return storeThatWaits(store, {
    urgent,
    waits: () => !near,
    owe(flush) {
      waiting.add(flush);
      clearTimeout(stillTimer);
      stillTimer = setTimeout(catchUp, FAR_VIEW_STILL_MS);
    },
    forget: (flush) => waiting.delete(flush),
  });
}
