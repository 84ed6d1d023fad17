/**
 * For the page that embeds the playground (a course page, an LMS lesson): sizes every playground
 * <iframe> to fit its content, so the learner never scrolls inside the frame.
 *
 *     <script src="https://your-host/attention-playground/js/embed-host.js" async></script>
 *
 * A playground in embed mode posts {type: "attention-playground:resize", height} whenever its height
 * changes, visible or not; this script sets the height of the <iframe> that sent it, and of no other element.
 * When this page's window is resized (the frames' width, and so their height, may change while they are off
 * screen and not drawn), it asks every frame to measure again with {type: "attention-playground:measure"}.
 * It is a plain script (not a module) and leaves no names behind, so it can go on any page, once or more.
 */
(() => {
  const RESIZE_MESSAGE = "attention-playground:resize";
  const MEASURE_MESSAGE = "attention-playground:measure";
  const MAX_HEIGHT = 20000; // a sanity bound: a frame cannot make the page absurdly tall
  const sized = new WeakSet(); // the frames that are playgrounds: they have sent their height

  window.addEventListener("message", (event) => {
    const data = event.data;
    if (!data || data.type !== RESIZE_MESSAGE || !Number.isFinite(data.height)) return;
    for (const frame of document.querySelectorAll("iframe")) {
      if (frame.contentWindow === event.source) {
        frame.height = String(Math.max(0, Math.min(MAX_HEIGHT, Math.ceil(data.height))));
        frame.dataset.resized = "true";
        sized.add(frame);
      }
    }
  });

  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      for (const frame of document.querySelectorAll("iframe")) {
        if (sized.has(frame)) frame.contentWindow?.postMessage({ type: MEASURE_MESSAGE }, "*");
      }
    }, 100);
  });
})();
