/**
 * The module's zips: the core, fetched at boot, and the parts fetched just before the first request that needs
 * one (the exercises, the trained model, the examples' scenes). Which kind needs which part is declared with the
 * kind (py/attention_playground/kinds.py) and reaches here through the build's facts; parts.py says why.
 */
import { MODULE_PARTS } from "../../generated/module-facts.js";

const { core: CORE_ZIP, zips: PART_ZIPS, kindParts: KIND_PARTS } = MODULE_PARTS;
const GENERATED_URL = new URL("../../generated/", import.meta.url);

/** Where the module's zips are unpacked inside Pyodide's in-memory file system; put first on sys.path. */
export const MODULE_DIR = "/home/pyodide/playground";

/** Fetch one of the module's zips: the core's by default (started at once, in parallel with the runtime). */
export async function fetchModuleZip(url = new URL(CORE_ZIP, GENERATED_URL)) {
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`could not load ${url.pathname} (HTTP ${response.status}); run python3 build.py`);
  }
  return response.arrayBuffer();
}

/** The parts unpacked so far, by name: a promise each, so two requests never fetch one twice. */
const unpackedParts = new Map();

/** Whether request `kind` needs a part besides the core (most requests, compute included, do not). */
export const kindNeedsParts = (kind) => Object.hasOwn(KIND_PARTS, kind);

/** Make sure the parts request `kind` needs are unpacked; rejects with the reason if one cannot be fetched. */
export function unpackPartsFor(pyodide, kind) {
  const needed = Object.hasOwn(KIND_PARTS, kind) ? KIND_PARTS[kind] : [];
  return Promise.all(needed.map((part) => {
    if (!unpackedParts.has(part)) {
      const unpacking = fetchModuleZip(new URL(PART_ZIPS[part], GENERATED_URL)).then((bytes) => {
        pyodide.unpackArchive(bytes, "zip", { extractDir: MODULE_DIR });
        pyodide.runPython("import importlib; importlib.invalidate_caches()"); // new files under a known package
      });
      unpacking.catch(() => unpackedParts.delete(part)); // a later request tries again
      unpackedParts.set(part, unpacking);
    }
    return unpackedParts.get(part);
  }));
}
