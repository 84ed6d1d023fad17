/**
 * When each view of a page redraws: at once (the heatmap), a task after the heatmap (the views below it, the
 * editors after a new result), or, far from the screen, once the updates pause. The page's store
 * (session.js createStore) keeps one such schedule; a view gets the store and says, as it subscribes, when it
 * hears: `store.subscribe(listener, when)`, `when` one of the timings below (none: at once).
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
 * Each store makes its own schedule: nothing is shared between two pages (or a page and a notebook widget).
 */

/**
 * When a subscriber hears of a change, if not at once: in the task after the heatmap, with every part that changed.
 * @typedef {object} RedrawTiming
 * @property {(changes: Set<string>) => boolean} [urgent] true for changes it must hear at once (an edit the learner
 *   is typing, say); while a hold is on, these wait too
 * @property {Element} [nearScreen] its view's element: while that is far from the screen, it hears once the updates
 *   pause for FAR_VIEW_STILL_MS (or the element comes near, or an urgent change comes)
 * @property {Iterable<string>} [owed] the changes it is owed from the start: a view mounted after the page drew
 *   hears of them with the next redraws, as if it had been there all along
 */

/** For the editors: a new result (or a new scene with its result) waits; the learner's own edits do not. */
const unlessResult = (changes) => !changes.has("result");

/** For views below the heatmap: the learner opening or closing a panel, or choosing a tab, shows at once. */
const viewChanges = (changes) => changes.has("view");

/** @type {RedrawTiming} Saving: a task after the heatmap, nothing at once. */
export const AFTER_HEATMAP = Object.freeze({});

/** @type {RedrawTiming} An editor: the learner's own edits at once, a new result a task after the heatmap. */
export const EDITOR = Object.freeze({ urgent: unlessResult });

/** @type {RedrawTiming} A view below the heatmap: a task after it; what the learner opens or picks among them at once. */
export const BELOW_HEATMAP = Object.freeze({ urgent: viewChanges });

/** The timings of the views that draw a scene (ui/scene-views.js), the same on the page and in the notebook widget. */
export const SCENE_VIEW_TIMINGS = Object.freeze({ editors: EDITOR, belowHeatmap: BELOW_HEATMAP });

/**
 * A view below the heatmap that only shows each result and is out of sight most of the time (the worked steps, the
 * heads side by side). At 64 tokens the worked steps change some 1,100 numbers per update, and laying them out took
 * about 10 ms of every frame of a stream of edits typed into a grid thousands of pixels above them. Nothing leaves
 * the page: the view is whole and in the accessibility tree, and it is at most one pause behind.
 * @param {Element} element the view's element
 * @returns {RedrawTiming}
 */
export const nearScreen = (element) => ({ ...BELOW_HEATMAP, nearScreen: element });

/** How far beyond the viewport, above and below, a view still counts as near the screen (a viewport's height). */
const NEAR_SCREEN_MARGIN = "100% 0px";

/** How long the updates must pause before a view far from the screen catches up with them. */
export const FAR_VIEW_STILL_MS = 250;

/** How long a released hold waits for the next frame before it lets the views redraw anyway. */
const FRAME_WAIT_MS = 100;

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
 * Whether `element` is near the screen, kept up to date; `onNear()` is called each time it comes near. Near until
 * measured, and always where the browser cannot tell.
 */
function watchNearScreen(element, onNear) {
  const watch = { near: true, stop: () => {} };
  if (typeof IntersectionObserver !== "function") return watch;
  const observer = new IntersectionObserver((entries) => {
    watch.near = entries[entries.length - 1].isIntersecting;
    if (watch.near) onNear();
  }, { rootMargin: NEAR_SCREEN_MARGIN });
  observer.observe(element);
  watch.stop = () => observer.disconnect();
  return watch;
}

/**
 * The redraw schedule of one store. `listen(listener, when)` gives what the store calls at every update in place
 * of `listener` (`hear`), and `stop` for when it unsubscribes; `catchUp(listener)` tells a deferred listener now
 * what it is owed (one that must act before the page goes away, saving the learner's work, cannot wait for a task
 * that may never run); `hold()` holds every deferred listener.
 * @param {() => object} readState the store's state as it is now: a deferred listener reads it when it hears
 */
export function createRedrawSchedule(readState) {
  /** Deliveries owed, in the order they were first owed; all of them run in one task. */
  const owed = new Set();
  let owedTaskQueued = false;
  /** How many holds are on; while any is, the owed deliveries wait. */
  let holds = 0;
  /** Called once the owed deliveries have run (the promises of released holds). */
  let afterRedraws = [];
  /** Each deferred listener's flush, for catchUp. */
  const flushes = new Map();

  function redrawOwed() {
    owedTaskQueued = false;
    if (holds > 0) return; // the release queues them again
    const deliveries = [...owed];
    const done = afterRedraws;
    owed.clear();
    afterRedraws = [];
    redrawEach(deliveries);
    for (const resolve of done) resolve();
  }

  function queueRedrawTask() {
    if (!owedTaskQueued) {
      owedTaskQueued = true;
      setTimeout(redrawOwed, 0);
    }
  }

  /** Run `deliver` in the next task, with every other delivery owed by then (once no hold is on). */
  function owe(deliver) {
    owed.add(deliver);
    if (holds === 0) queueRedrawTask();
  }

  /**
   * @param {(state: any, changes: Set<string>) => void} listener
   * @param {RedrawTiming} when
   * @returns {{hear: (state: any, changes: Set<string>) => void, stop: () => void}}
   */
  function listen(listener, { urgent = () => false, nearScreen: element = null, owed: owedFromStart = [] }) {
    let pending = null; // the parts changed since it last heard, or null if it is up to date
    let subscribed = true;
    let stillTimer = null;
    const flush = () => {
      clearTimeout(stillTimer);
      owed.delete(deliver);
      const changes = pending;
      pending = null;
      if (subscribed && changes) listener(readState(), changes);
    };
    // Come near the screen: what it waits for at once (or with the others, when the hold is released).
    const watch = element && watchNearScreen(element, () => {
      if (pending && holds === 0) flush();
    });
    /** Its turn among the owed deliveries: it hears now or, far from the screen, once the updates pause. */
    function deliver() {
      if (!watch || watch.near) return flush();
      clearTimeout(stillTimer);
      stillTimer = setTimeout(flush, FAR_VIEW_STILL_MS);
    }
    function hear(state, changes) {
      if (holds === 0 && urgent(changes)) {
        flush(); // what it was owed first, so it hears of the changes in their order
        listener(state, changes);
        return;
      }
      if (pending) for (const part of changes) pending.add(part);
      else pending = new Set(changes);
      owe(deliver);
    }
    const fromStart = [...owedFromStart];
    if (fromStart.length) {
      pending = new Set(fromStart);
      owe(deliver);
    }
    flushes.set(listener, flush);
    return {
      hear,
      stop() {
        subscribed = false;
        clearTimeout(stillTimer);
        owed.delete(deliver);
        if (watch) watch.stop();
        flushes.delete(listener);
      },
    };
  }

  return {
    listen,

    /** Tell deferred `listener` now what it is owed (nothing if it is owed nothing or hears at once). */
    catchUp(listener) {
      flushes.get(listener)?.();
    },

    /**
     * Hold every deferred listener until what is drawn at once, without them, is painted: a lesson step's question
     * is drawn before the grids of its scene are built, not after (a step whose scene has three 32 × 32 matrices
     * spent more than the question's 100 ms building and laying them out first). They owe what changed meanwhile,
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
