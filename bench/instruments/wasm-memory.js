/**
 * Evaluated in each Web Worker of the benchmark while it waits for the debugger, before any of its own code:
 * keeps every WebAssembly.Memory the worker creates, or receives from a module it instantiates, so that
 * bench/page.py can read their sizes later through globalThis[Symbol.for("bench.wasmMemoryBytes")]().
 *
 * The runtime's memory is neither in the JS heap figures nor reachable from the worker's global scope, and
 * Runtime.queryObjects (which could find it) crashes a worker's renderer on Chromium 156.
 */
(() => {
  const memories = new Set();

  WebAssembly.Memory = new Proxy(WebAssembly.Memory, {
    construct(target, args, newTarget) {
      const memory = Reflect.construct(target, args, newTarget);
      memories.add(memory);
      return memory;
    },
  });

  // Only the exports are read: Pyodide's imports include lazy proxies that must not be enumerated.
  const noteExports = (exports) => {
    try {
      for (const value of Object.values(exports)) if (value instanceof WebAssembly.Memory) memories.add(value);
    } catch {
      // an exotic exports object: nothing to note
    }
  };
  for (const name of ["instantiate", "instantiateStreaming"]) {
    const original = WebAssembly[name];
    WebAssembly[name] = function instantiateAndNote(...args) {
      return original.apply(this, args).then((result) => {
        noteExports((result instanceof WebAssembly.Instance ? result : result.instance).exports);
        return result;
      });
    };
  }

  Object.defineProperty(globalThis, Symbol.for("bench.wasmMemoryBytes"), {
    value: () => [...memories].map((memory) => memory.buffer.byteLength),
  });
})();
