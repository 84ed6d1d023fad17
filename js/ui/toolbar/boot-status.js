/**
 * Python's boot progress: which stage it is in (downloading, starting Python, loading NumPy, loading
 * the attention module, live), or, if it failed, a plain statement of that and a way to retry.
 */

const STAGES = [
  ["downloading", "Downloading Python"],
  ["starting", "Starting Python"],
  ["numpy", "Loading NumPy"],
  ["module", "Loading the attention module"],
];

/**
 * Create the status display inside `host`.
 * @param {HTMLElement} host
 * @param {{onRetry: () => void}} actions
 * @returns {{update: (boot: {stage: string, detail: string, live: boolean, failed: boolean, message: string}) => void}}
 */
export function createBootStatus(host, { onRetry }) {
  const label = document.createElement("span");
  label.className = "boot-label";
  label.dataset.testid = "boot-stage";
  const steps = document.createElement("span");
  steps.className = "boot-steps";
  steps.setAttribute("aria-hidden", "true");
  const dots = STAGES.map(() => {
    const dot = document.createElement("span");
    dot.className = "boot-step";
    steps.append(dot);
    return dot;
  });
  const retry = document.createElement("button");
  retry.type = "button";
  retry.className = "link-button";
  retry.textContent = "Retry";
  retry.dataset.testid = "boot-retry";
  retry.hidden = true;
  retry.addEventListener("click", onRetry);
  host.append(steps, label, retry);

  function update(boot) {
    const index = STAGES.findIndex(([stage]) => stage === boot.stage);
    host.dataset.stage = boot.failed ? "failed" : boot.live ? "ready" : boot.stage;
    dots.forEach((dot, k) => {
      dot.classList.toggle("done", boot.live || k < index);
      dot.classList.toggle("current", !boot.live && !boot.failed && k === index);
    });
    steps.hidden = boot.live || boot.failed;
    retry.hidden = !boot.failed;
    if (boot.failed) {
      label.textContent = `${boot.message}. The example on screen is a saved preview; editing needs Python.`;
    } else if (boot.live) {
      label.textContent = "Python is live: every edit recomputes";
    } else {
      // The worker's own words for the stage when it sends them, ours otherwise.
      const name = boot.detail || (index >= 0 ? STAGES[index][1] : "Starting Python");
      label.textContent = `${name}…`;
    }
  }

  return { update };
}
