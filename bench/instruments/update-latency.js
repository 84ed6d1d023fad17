/**
 * Evaluated in the playground page by bench/page.py: time `count` updates (after `warmup` untimed ones),
 * alternating between two states of the scene, from just before the action until the heatmap's DOM holds
 * the new weights. Timing inside the page keeps the test driver's round trips out of the figures.
 *
 *   mode "edit"      type a value into one cell of a weight grid (the input event a keystroke makes)
 *   mode "setScene"  call window.attentionPlayground.setScene with one of two scenes
 *   mode "await"     the same calls, timed as a course page's script waits for them: from the call until its
 *                    promise resolves (each sample's awaitMs; the DOM is not watched)
 *
 * Each state is first shown once, untimed, until the heatmap stops changing, to learn what it draws; the
 * probe is then the last cell, in drawing order, that differs between the two. A cell is read by its
 * data-weight attribute where the heatmap writes one (exact), else by its fill colour. Per update it
 * returns domMs (the new weight is in the DOM), frameMs (the next animation frame starts) and paintedMs
 * (that frame has been rendered: a task queued from inside requestAnimationFrame runs after it).
 */
async ({ mode, count, warmup, edit, scenes }) => {
  const CELL = '[data-testid="heatmap-cell"]';
  const SETTLED_AFTER_MS = 400;
  const GIVE_UP_MS = 30000;
  const heatmap = () => document.querySelector('[data-testid="heatmap"]');
  const drawn = (cell) => cell.dataset.weight ?? cell.getAttribute("fill");
  const weights = () => Array.from(heatmap().querySelectorAll(CELL), drawn);
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const afterRendering = (callback) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => callback();
    channel.port2.postMessage(null);
  };
  const errors = [];

  let input = null;
  if (mode === "edit") {
    const selector = `[data-testid="${edit.matrix}"][data-row="${edit.row}"][data-column="${edit.column}"]`;
    const cell = document.querySelector(selector);
    if (!cell) throw new Error(`no cell ${selector} on the page`);
    // A grid may draw its cells as text and put an <input> in place of the one that takes focus.
    cell.focus();
    await sleep(0);
    input = document.querySelector(selector);
    if (!(input instanceof HTMLInputElement)) throw new Error(`${selector} did not become an input on focus`);
  }
  const apply = (state) => {
    if (mode === "edit") {
      input.value = edit.values[state];
      const typed = { bubbles: true, inputType: "insertText", data: edit.values[state] };
      input.dispatchEvent(new InputEvent("input", typed));
    } else {
      window.attentionPlayground.setScene(scenes[state]).catch((error) => errors.push(String(error.message)));
    }
  };

  const settle = async (state) => {
    apply(state);
    const started = performance.now();
    let last = JSON.stringify(weights());
    let stableSince = performance.now();
    while (performance.now() - stableSince < SETTLED_AFTER_MS) {
      await sleep(50);
      const now = JSON.stringify(weights());
      if (now !== last) {
        last = now;
        stableSince = performance.now();
      }
      if (performance.now() - started > GIVE_UP_MS) throw new Error("the heatmap never settled");
    }
    return JSON.parse(last);
  };
  const shown = [await settle(0), await settle(1)];
  if (errors.length) throw new Error(`setScene failed: ${errors[0]}`);
  const differing = shown[0].map((weight, i) => (weight !== shown[1][i] ? i : -1)).filter((i) => i >= 0);
  if (!differing.length) throw new Error("the two states draw the same weights: nothing to wait for");
  const probeIndex = differing[differing.length - 1];
  let probe = heatmap().querySelectorAll(CELL)[probeIndex];

  const timeOne = (state) =>
    new Promise((resolve, reject) => {
      const want = shown[state][probeIndex];
      let started = 0;
      const timer = setTimeout(() => {
        watcher.disconnect();
        reject(new Error(`the heatmap did not redraw within 10 s (update to state ${state})`));
      }, 10000);
      // The whole body is watched: a view may replace the heatmap's SVG rather than update it.
      const watcher = new MutationObserver(() => {
        if (!probe || !probe.isConnected) probe = heatmap()?.querySelectorAll(CELL)[probeIndex];
        if (!probe || drawn(probe) !== want) return;
        const domMs = performance.now() - started;
        watcher.disconnect();
        clearTimeout(timer);
        requestAnimationFrame(() => {
          const frameMs = performance.now() - started;
          afterRendering(() => resolve({ domMs, frameMs, paintedMs: performance.now() - started }));
        });
      });
      watcher.observe(document.body, {
        attributes: true, attributeFilter: ["data-weight", "fill"], childList: true, subtree: true,
      });
      started = performance.now();
      apply(state);
    });

  const awaitOne = async (state) => {
    const started = performance.now();
    await window.attentionPlayground.setScene(scenes[state]);
    return { awaitMs: performance.now() - started };
  };

  const samples = [];
  for (let i = 0; i < warmup + count; i += 1) {
    await sleep(0);
    // Settled in state 1, so the first update goes to state 0.
    const sample = mode === "await" ? await awaitOne(i % 2) : await timeOne(i % 2);
    if (i >= warmup) samples.push(sample);
  }
  await sleep(50);
  if (errors.length) throw new Error(`setScene failed: ${errors[0]}`);
  return {
    samples,
    probe: { index: probeIndex, cells: shown[0].length, differing: differing.length },
    finalMatches: JSON.stringify(weights()) === JSON.stringify(shown[(warmup + count - 1) % 2]),
  };
}
