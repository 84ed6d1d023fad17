/**
 * The example course page's own script: it drives the first playground by postMessage, as a page on
 * another origin would (it never reaches into the frame), and says in words what the frame's result
 * events show.
 *
 * Requests go out as {type: "attention-playground:request", id, method, params}; each comes back as
 * {type: "attention-playground:reply", id, ok, result | error}. Result events arrive on their own as
 * {type: "attention-playground:result", result, preview}. (The frames' heights are handled by
 * js/embed-host.js.)
 */
(() => {
  const frame = document.querySelector('[data-testid="frame-dog"]');
  const readout = document.querySelector('[data-testid="readout"]');
  const pending = new Map();
  let nextId = 1;
  let original = null;

  /** Call a method of the playground in `target` (an iframe); resolves with its result. */
  function call(target, method, params = {}) {
    const id = `course-${nextId++}`;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      // The frame's origin: where the reply may come from, and the only origin the request is sent to.
      target.contentWindow.postMessage({ type: "attention-playground:request", id, method, params }, new URL(target.src).origin);
    });
  }

  /** One sentence about a result: where the last token looks most. */
  function describe(result) {
    const weights = result.heads[0].weights;
    const row = result.tokens.length - 1;
    let best = 0;
    weights[row].forEach((weight, column) => {
      if (weight > weights[row][best]) best = column;
    });
    const percent = Math.round(weights[row][best] * 100);
    return `“${result.tokens[row]}” pays most attention to “${result.tokens[best]}” (${percent}%).`;
  }

  window.addEventListener("message", (event) => {
    if (event.source !== frame.contentWindow) return;
    const data = event.data;
    if (data?.type === "attention-playground:reply" && pending.has(data.id)) {
      const { resolve, reject } = pending.get(data.id);
      pending.delete(data.id);
      if (data.ok) resolve(data.result);
      else reject(new Error(data.error.message));
    } else if (data?.type === "attention-playground:result") {
      readout.textContent = describe(data.result) + (data.preview ? " (preview)" : "");
      readout.dataset.lastToken = data.result.tokens.at(-1);
    }
  });

  document.querySelector('[data-testid="make-man-a-dog"]').addEventListener("click", async () => {
    try {
      const scene = await call(frame, "getScene");
      original ??= structuredClone(scene);
      const dog = scene.tokens.indexOf("dog");
      const man = scene.tokens.indexOf("man");
      scene.X[man] = [...scene.X[dog]];
      await call(frame, "setScene", { scene });
    } catch (error) {
      readout.textContent = `The playground said: ${error.message}`;
    }
  });

  document.querySelector('[data-testid="restore-scene"]').addEventListener("click", async () => {
    if (!original) return;
    try {
      await call(frame, "setScene", { scene: original });
    } catch (error) {
      readout.textContent = `The playground said: ${error.message}`;
    }
  });
})();
