/**
 * The baseline worker: load Pyodide and NumPy from the vendored runtime, compute one softmax, report it.
 *
 * It loads the runtime the way the playground's worker does (same files, NumPy fetched alongside the core
 * through the `packages` option) and nothing else, so the time it takes is the floor the playground's
 * time to live is compared with.
 */
import { loadPyodide } from "../../vendor/pyodide/pyodide.mjs";

const started = performance.now();

/** Python that proves NumPy works: a numerically stable softmax of [1, 2, 3], returned as JSON text. */
const SOFTMAX_SOURCE = `
import json
import numpy as np
scores = np.array([1.0, 2.0, 3.0])           # (3,)
exps = np.exp(scores - scores.max())         # (3,)
json.dumps((exps / exps.sum()).tolist())
`;

try {
  const pyodide = await loadPyodide({
    indexURL: new URL("../../vendor/pyodide/", import.meta.url).href,
    packages: ["numpy"],
  });
  // A JSON string crosses the boundary as a plain JS string: no proxy to destroy.
  const softmax = JSON.parse(pyodide.runPython(SOFTMAX_SOURCE));
  // The size of the WebAssembly memory lets bench/page.py check its worker-memory figure against the truth.
  const wasmMemoryBytes = pyodide._module.HEAPU8.buffer.byteLength;
  postMessage({ kind: "live", softmax, bootMs: performance.now() - started, wasmMemoryBytes });
} catch (error) {
  postMessage({ kind: "error", message: String(error && error.message ? error.message : error) });
}
