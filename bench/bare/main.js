/**
 * The baseline page's only script: start the worker, and when it reports the softmax, write the time it
 * took into the status element as data attributes that bench/page.py reads (no globals, no inline script).
 */

const status = document.getElementById("status");
const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });

worker.addEventListener("message", (event) => {
  // Read the clock first, so the figure is "live" exactly as the playground's ready promise would see it.
  const liveMs = performance.now();
  const { kind, softmax, message, bootMs, wasmMemoryBytes } = event.data;
  if (kind === "live") {
    status.dataset.liveMs = String(liveMs);
    status.dataset.workerBootMs = String(bootMs);
    status.dataset.wasmMemoryBytes = String(wasmMemoryBytes);
    status.dataset.softmax = JSON.stringify(softmax);
    status.dataset.state = "live";
    const shown = softmax.map((p) => p.toFixed(4)).join(", ");
    status.textContent = `live after ${Math.round(liveMs)} ms; softmax([1, 2, 3]) = ${shown}`;
  } else {
    status.dataset.state = "error";
    status.textContent = `error: ${message}`;
  }
});
