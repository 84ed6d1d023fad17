/**
 * The notebook's Python service: the same `compute(scene)` call as the page's (service/service.js), answered by
 * the notebook's kernel through the widget's model instead of by Pyodide in a worker.
 *
 * The view sends {kind: "compute", id, scene}; the kernel (attention_playground/widget.py) computes it with
 * the module's entry point, writes `result` and `error` into the model, then answers {kind: "computed", id,
 * ok}. The model's update travels on the same channel before the answer, so the result is in the model when
 * the answer arrives: it crosses once, not twice.
 */

/**
 * @param {{send: Function, on: Function, off: Function, get: Function}} model the widget's model (anywidget)
 * @returns {{compute: (scene: object) => Promise<object>, dispose: () => void}}
 */
export function createKernelService(model) {
  let nextId = 1;
  /** Requests sent and not answered yet, by id. */
  const waiting = new Map();

  function onMessage(message) {
    if (message?.kind !== "computed" || !waiting.has(message.id)) return;
    const { resolve, reject } = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.ok) resolve(model.get("result"));
    else reject(Object.assign(new Error(model.get("error")?.message ?? "the kernel could not compute this scene"), { detail: model.get("error") }));
  }
  model.on("msg:custom", onMessage);

  return {
    /** compute(scene) in the kernel: the result, or an Error whose `.detail` is the module's error. */
    compute(scene) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        model.send({ kind: "compute", id, scene });
      });
    },
    /** Stop listening (the view was removed); requests still waiting are left unanswered. */
    dispose() {
      model.off("msg:custom", onMessage);
      waiting.clear();
    },
  };
}
