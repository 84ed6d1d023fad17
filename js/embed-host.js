/**
 * For the page that embeds the playground (a course page, an LMS lesson): sizes every playground
 * <iframe> to fit its content, so the learner never scrolls inside the frame.
 *
 *     <script src="https://your-host/attention-playground/js/embed-host.js" async></script>
 *
 * A playground in embed mode posts {type: "attention-playground:resize", height} whenever its height
 * changes; this script sets the height of the <iframe> that sent it, and of no other element. It is a
 * plain script (not a module) and leaves no names behind, so it can go on any page, once or more.
 */
(() => {
  const RESIZE_MESSAGE = "attention-playground:resize";
  const MAX_HEIGHT = 20000; // a sanity bound: a frame cannot make the page absurdly tall

  window.addEventListener("message", (event) => {
    const data = event.data;
    if (!data || data.type !== RESIZE_MESSAGE || !Number.isFinite(data.height)) return;
    for (const frame of document.querySelectorAll("iframe")) {
      if (frame.contentWindow === event.source) {
        frame.height = String(Math.max(0, Math.min(MAX_HEIGHT, Math.ceil(data.height))));
        frame.dataset.resized = "true";
      }
    }
  });
})();
