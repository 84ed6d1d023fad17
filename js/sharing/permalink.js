/**
 * Permalinks: the whole scene and what the learner was looking at, packed into the URL's hash.
 *
 * Three forms:
 *   #preset=<id>          one of the shipped examples, by id (what a course author writes by hand)
 *   #lesson=<id>&step=<s> a lesson, at a step (its id, or its number from 1; without it, where the learner was)
 *   #lesson-src=<url>&step=<s>  a course's own lesson file (its address relative to the page; same site only);
 *                         `&preview` reloads it whenever it is saved (lessons/lesson-preview.js)
 *   #s=<version>.<data>   a scene and its view; <data> is the JSON below, compressed with the
 *                         browser's own deflate (CompressionStream "deflate-raw") and written in
 *                         base64url, so the link holds only the characters A–Z a–z 0–9 - _
 *
 * The JSON of the current version (4):
 *   { "scene": <the scene, in the scene format (docs/reference.md); cells the learner typed that are not numbers stay text>,
 *     "preset": <the example it started from, or null>,
 *     "edited": <true if it was changed since>,
 *     "view": { "focus": <focused token index or null>, "head": <head being edited>,
 *               "panels": <names of the panels shown, from PANEL_NAMES (layout/panels.js)>,
 *               "steps", "table", "exercises": <whether every step, the weights table, the exercises are open>,
 *               "exercise", "experiment": <the exercise and experiment tab chosen, or null>,
 *               "model": <the trained model's panel, or null: {open, words, knocked_out, head, focus, opened}>,
 *               "claim": <optional: the claim chosen in "Test a claim", or null: {id, steps, seed, start}; steps and
 *                         seed null for the claim's own, `start: true` trains its pair as the link opens; a link
 *                         without it chooses none, so it needs no new version>,
 *               "at": <optional: the panel the link opens at (OPEN_AT_PANELS in layout/panels.js), or null for the
 *                      top; a link without it opens at the top, so it needs no new version> } }
 *
 * Old links keep working: a link carries its version, and MIGRATIONS turns each older payload into
 * the next version's until it is current. When the format grows, bump LINK_VERSION and add one step.
 * Nothing is ever trusted: a damaged, truncated or hostile link gives a PermalinkError whose message
 * a learner can read, never an exception from deep inside.
 */

import { PANEL_NAMES, cleanView } from "../layout/panels.js";
import { sceneShapeProblem } from "../scene/shape.js";

/** The version links are written in. */
export const LINK_VERSION = 4;

/** The panels a version-2 link could show or hide; every other panel was always shown. */
const V2_PANELS = ["heatmap", "bars", "features", "weights"];

// Refuse anything larger before doing work on it: a scene at the module's limits compresses to far
// less than this, and the decompressed size is capped so that a tiny hostile link cannot expand
// into gigabytes (a "zip bomb").
const MAX_HASH_LENGTH = 4_000_000;
const MAX_JSON_BYTES = 16_000_000;

/** A link that cannot be opened; `message` says why in words a learner can act on. */
export class PermalinkError extends Error {
  constructor(message) {
    super(message);
    this.name = "PermalinkError";
  }
}

/**
 * Each step turns a payload of version `from` into one of version `from + 1`.
 * v1 (the first format) held only the scene and the view's two numbers: {scene, focus, head}.
 * v2 adds where the scene came from (preset, edited) and which of four panels are shown, under `view`.
 * v3 names every panel, and adds which are open (every step, the table, the exercises) and the tabs chosen.
 * v4 adds the trained model's panel: its name among the panels (shown, as every panel was) and its state.
 */
const MIGRATIONS = {
  1: (old) => ({
    scene: old.scene,
    preset: null,
    edited: true,
    view: { focus: old.focus ?? null, head: old.head ?? 0, panels: [...V2_PANELS] },
  }),
  2: (old) => {
    const view = old.view && typeof old.view === "object" ? old.view : {};
    const shown = Array.isArray(view.panels) ? view.panels : V2_PANELS;
    // A v2 link could hide only its four panels; the others were on the page whatever it said, closed.
    const panels = PANEL_NAMES.filter((name) => !V2_PANELS.includes(name) || shown.includes(name));
    return { ...old, view: { focus: view.focus ?? null, head: view.head ?? 0, panels } };
  },
  3: (old) => {
    const view = old.view && typeof old.view === "object" ? old.view : {};
    const panels = Array.isArray(view.panels) ? view.panels : PANEL_NAMES;
    // The model's panel did not exist: a v3 link showed it, closed, like every panel the page had then.
    return { ...old, view: { ...view, panels: [...panels.filter((name) => name !== "model"), "model"], model: null } };
  },
};

// ---- base64url ------------------------------------------------------------------------------

/** Bytes as base64url without padding (RFC 4648 §5). */
function toBase64Url(bytes) {
  let binary = "";
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** base64url (padding optional) to bytes; throws PermalinkError on anything else. */
function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text)) {
    throw new PermalinkError("This link is damaged: it contains characters a playground link never has. Copy it again in full.");
  }
  if (text.replace(/=+$/, "").length % 4 === 1) {
    throw new PermalinkError("This link is incomplete: part of it is missing, perhaps cut off when it was copied. Copy it again in full.");
  }
  const binary = atob(text.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

// ---- compression ----------------------------------------------------------------------------

async function readAll(stream, limit) {
  const reader = stream.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel();
      throw new PermalinkError("This link is too large to open.");
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

async function deflate(text) {
  const stream = new Blob([new TextEncoder().encode(text)]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return readAll(stream, Infinity);
}

async function inflate(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(await readAll(stream, MAX_JSON_BYTES));
  } catch (error) {
    if (error instanceof PermalinkError) throw error;
    throw new PermalinkError("This link is incomplete: part of it is missing, perhaps cut off when it was copied. Copy it again in full.");
  }
}

// ---- the payload ----------------------------------------------------------------------------

/**
 * The current-version payload for a scene and its view.
 * @param {object} options
 * @param {object} options.scene the scene as shown (api getScene())
 * @param {string|null} [options.preset] the example it started from
 * @param {boolean} [options.edited]
 * @param {{focus?: number|null, head?: number}} [options.view] and the rest of the view (layout/panels.js); what is
 *   left out takes its default (every panel shown, none open)
 */
export function makePayload({ scene, preset = null, edited = false, view = {} }) {
  return {
    scene,
    preset,
    edited: Boolean(edited),
    view: { focus: view.focus ?? null, head: view.head ?? 0, ...cleanView(view) },
  };
}

/** Bring a payload of `version` up to LINK_VERSION, one step at a time. */
function migrate(payload, version) {
  let current = payload;
  for (let from = version; from < LINK_VERSION; from += 1) current = MIGRATIONS[from](current);
  return current;
}

/** Check a current-version payload; return it cleaned (unknown view values dropped to defaults). */
function checkPayload(payload) {
  if (payload === null || typeof payload !== "object" || Array.isArray(payload)) {
    throw new PermalinkError("This link does not hold a scene.");
  }
  const problem = sceneShapeProblem(payload.scene);
  if (problem) throw new PermalinkError(`This link's scene cannot be shown: ${problem}.`);
  const tokens = payload.scene.tokens.length;
  const heads = payload.scene.heads.length;
  const view = payload.view && typeof payload.view === "object" ? payload.view : {};
  const focus = Number.isInteger(view.focus) && view.focus >= 0 && view.focus < tokens ? view.focus : null;
  const head = Number.isInteger(view.head) && view.head >= 0 && view.head < heads ? view.head : 0;
  return {
    scene: payload.scene,
    preset: typeof payload.preset === "string" && payload.preset ? payload.preset : null,
    edited: payload.edited !== false,
    view: { focus, head, ...cleanView(view) },
  };
}

// ---- links ----------------------------------------------------------------------------------

/**
 * The hash (with its leading "#") for a payload, in the current version.
 * @param {object} payload see makePayload
 * @returns {Promise<string>}
 */
export async function encodePermalinkHash(payload) {
  const bytes = await deflate(JSON.stringify(payload));
  return `#s=${LINK_VERSION}.${toBase64Url(bytes)}`;
}

/** The hash that names a preset by id. */
export function presetHash(id) {
  return `#preset=${encodeURIComponent(id)}`;
}

/**
 * A link to a lesson's step, `lesson=<id>&step=<step>` (the step is its id or its number from 1, and may be left
 * out), or `lesson-src=<url>&step=<step>` (a course's own lesson file): {kind: "lesson", id, step} or {kind: "lesson",
 * src, step}, step null for the lesson's own first (or the learner's last).
 * @param {string} text
 * @returns {{kind: "lesson", id?: string, src?: string, step: string|null, preview?: boolean}}
 */
function lessonLink(text) {
  const fields = new URLSearchParams(text);
  const step = fields.get("step");
  if (step !== null && !/^([1-9][0-9]{0,3}|[a-z0-9][a-z0-9-]{0,99})$/.test(step)) {
    throw new PermalinkError(`This link names a step, “${step.slice(0, 64)}”, that is not a step's id or number.`);
  }
  if (fields.has("lesson-src")) {
    const src = fields.get("lesson-src") ?? "";
    if (!src || src.length > 2000) throw new PermalinkError("This link names a lesson file without an address it can fetch.");
    return { kind: "lesson", src, step, preview: fields.has("preview") };
  }
  const id = fields.get("lesson") ?? "";
  if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(id)) throw new PermalinkError(`This link names a lesson, “${id.slice(0, 64)}”, that is not a valid lesson id.`);
  return { kind: "lesson", id, step };
}

/**
 * Read a URL hash.
 * @param {string} hash location.hash (with or without "#")
 * @returns {Promise<null | {kind: "preset", id: string} | {kind: "lesson", id?: string, src?: string, step: string|null, preview?: boolean}
 *   | {kind: "scene", version: number, payload: object}>} null for an empty hash or one that is not ours; rejects
 *   with PermalinkError for a broken link
 */
export async function decodePermalinkHash(hash) {
  const text = hash.startsWith("#") ? hash.slice(1) : hash;
  if (text.length > MAX_HASH_LENGTH) throw new PermalinkError("This link is too large to open.");
  if (text.startsWith("lesson=") || text.startsWith("lesson-src=")) return lessonLink(text);
  if (text.startsWith("preset=")) {
    let id;
    try {
      id = decodeURIComponent(text.slice("preset=".length));
    } catch {
      throw new PermalinkError("This link names an example in a way that cannot be read.");
    }
    if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(id)) throw new PermalinkError(`This link names an example, “${id.slice(0, 64)}”, that is not a valid example id.`);
    return { kind: "preset", id };
  }
  if (!text.startsWith("s=")) return null;
  const match = /^s=(\d{1,4})\.(.*)$/s.exec(text);
  if (!match) throw new PermalinkError("This link is damaged: its version is missing. Copy it again in full.");
  const version = Number(match[1]);
  if (version > LINK_VERSION) {
    throw new PermalinkError(`This link was made by a newer playground (link format ${version}; this page reads formats 1 to ${LINK_VERSION}). Open it where it was made.`);
  }
  if (version < 1 || !(version === LINK_VERSION || MIGRATIONS[version])) throw new PermalinkError(`This link has an unknown format (${version}).`);
  if (!match[2]) throw new PermalinkError("This link is empty after its version: it was cut off. Copy it again in full.");
  const json = await inflate(fromBase64Url(match[2]));
  let parsed;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new PermalinkError("This link is damaged: its data cannot be read. Copy it again in full.");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new PermalinkError("This link does not hold a scene.");
  let payload;
  try {
    payload = migrate(parsed, version);
  } catch {
    throw new PermalinkError(`This link (format ${version}) could not be brought up to date.`);
  }
  return { kind: "scene", version, payload: checkPayload(payload) };
}
