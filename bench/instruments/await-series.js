/**
 * Evaluated in the playground page by bench/author_series.py: `await setScene(...)` timed as a course page's
 * script waits for it, calls one after another with nothing in between (no pause, no frame), cycling through
 * `scenes`. Returns each call's milliseconds, from the call until its promise resolves.
 */
async ({ scenes, count }) => {
  const api = window.attentionPlayground;
  const waited = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    await api.setScene(scenes[i % scenes.length]);
    waited.push(performance.now() - started);
  }
  return waited;
}
