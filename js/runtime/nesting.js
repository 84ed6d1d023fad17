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
 * True if `value` has arrays or objects nested more than `limit` levels deep, as JSON would write it out. Read
 * with an explicit stack, so it is safe on any input. A part shared by several places is read again only where
 * it sits deeper than before (JSON writes it out at each place: a part met first near the top may nest deepest
 * further down), so it is read at most `limit` times; a part that contains itself is not followed back into
 * itself (JSON refuses it with its own message).
 * @param {unknown} value
 * @param {number} [limit]
 */
export function nestedTooDeeply(value, limit = MAX_NESTING) {
  const deepest = new Map(); // each part read, and the greatest depth it was read at
  const above = new Set(); // the parts that hold the one being read
  /** @type {Array<[unknown, number, boolean]>} [part, its depth, whether its reading is done] */
  const stack = [[value, 0, false]];
  while (stack.length) {
    const [item, depth, done] = stack.pop();
    if (done) {
      above.delete(item);
      continue;
    }
    if (item === null || typeof item !== "object" || above.has(item) || (deepest.get(item) ?? -1) >= depth) continue;
    if (depth >= limit) return true;
    deepest.set(item, depth);
    above.add(item);
    stack.push([item, depth, true]);
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1, false]);
    }
  }
  return false;
}

/** The message for a value refused by nestedTooDeeply: the module's own (wire.TOO_DEEP_MESSAGE). */
export const TOO_DEEP_MESSAGE = MODULE_FACTS.tooDeepMessage;
