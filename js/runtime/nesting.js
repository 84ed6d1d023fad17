/**
 * How deeply a value nests, checked without recursion: a scene is six levels deep at most (scene → heads →
 * head → Wq → row → number), but a hostile one can be thousands of levels deep, which overflows the stack of
 * structuredClone, postMessage, JSON.stringify and Python's own JSON reader (inside the worker that hangs
 * Python rather than failing). The client refuses such a value before it is cloned into a message, the worker
 * one posted to it another way, and Python one read as text (wire.read_request): one limit and one message, the
 * module's.
 */

import { MODULE_FACTS } from "../../generated/module-facts.js";

/**
 * Deeper than any request needs (scenes nest six levels; a request adds two), far shallower than any stack.
 * The Python entry point refuses the same depth (entry.MAX_NESTING): it is the module's number, written into
 * generated/module-facts.js by the build.
 */
export const MAX_NESTING = MODULE_FACTS.maxNesting;

/**
 * True if `value` has arrays or objects nested more than `limit` levels deep. Visits each value once, with
 * an explicit stack, so it is safe on any input (shared or cyclic parts are visited once).
 * @param {unknown} value
 * @param {number} [limit]
 */
export function nestedTooDeeply(value, limit = MAX_NESTING) {
  const seen = new Set();
  /** @type {Array<[unknown, number]>} [value, its depth] */
  const stack = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop();
    if (item === null || typeof item !== "object" || seen.has(item)) continue;
    if (depth >= limit) return true;
    seen.add(item);
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** The message for a value refused by nestedTooDeeply: the module's own (wire.TOO_DEEP_MESSAGE). */
export const TOO_DEEP_MESSAGE = MODULE_FACTS.tooDeepMessage;
