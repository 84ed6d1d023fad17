/**
 * Runs in every page of the benchmark before the page's own scripts (an init script): notes, on the page's
 * clock (0 = navigation start), when the first heatmap cell enters the DOM and when
 * `attentionPlayground.ready` resolves. bench/page.py reads the marks from window[Symbol.for("bench.marks")]
 * (a symbol, so the page's own globals stay as they are).
 */
(() => {
  const marks = {
    firstHeatmapMs: null,
    firstHeatmapFrameMs: null,
    liveAtFirstHeatmap: null,
    liveMs: null,
    readyError: null,
  };
  Object.defineProperty(window, Symbol.for("bench.marks"), { value: marks });

  const CELL = '[data-testid="heatmap-cell"]';
  const cellWatcher = new MutationObserver(() => {
    if (!document.querySelector(CELL)) return;
    marks.firstHeatmapMs = performance.now();
    marks.liveAtFirstHeatmap = marks.liveMs !== null;
    cellWatcher.disconnect();
    requestAnimationFrame(() => {
      marks.firstHeatmapFrameMs = performance.now();
    });
  });
  cellWatcher.observe(document, { childList: true, subtree: true });

  // The API object appears when the page's module scripts run, long before Python is live, so polling for
  // it costs no precision: the time noted is that of `ready` resolving.
  const POLL_LIMIT = 60000;
  let polls = 0;
  const watchReady = () => {
    const api = window.attentionPlayground;
    if (!api) {
      polls += 1;
      if (polls < POLL_LIMIT) setTimeout(watchReady, 1);
      return;
    }
    api.ready.then(
      () => {
        marks.liveMs = performance.now();
      },
      (error) => {
        marks.readyError = String(error && error.message ? error.message : error);
      },
    );
  };
  watchReady();
})();
