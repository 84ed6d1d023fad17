/**
 * The learner's work as the LMS keeps it, in `cmi.suspend_data`: one line of text, compressed, that fits the
 * version's limit (4,096 characters in SCORM 1.2, 64,000 in 2004).
 *
 *   "ap1." + base64url(deflate-raw(JSON))
 *   JSON: {lessons: {[id]: {step, done, answers, edits: {[step id]: draft}}}, code: {[exercise id]: text},
 *          order: [edit keys, oldest first], passed: [exercise ids whose checks have all passed],
 *          at: {lesson, step} the step on screen when it was written (or null), journaled: interactions written}
 *
 * An edit is a lesson step's edited scene (key "lesson/<lesson>/<step>") or an exercise's code ("code/<exercise>").
 * When the work does not fit, the oldest edits are left out first, one at a time, then the answers' feedback
 * sentences; what was left out is returned, so the page can tell the learner.
 */

const PREFIX = "ap1.";

/** The key an edit has in `order`. */
export const editKeys = {
  lesson: (lesson, step) => `lesson/${lesson}/${step}`,
  code: (exercise) => `code/${exercise}`,
};

async function deflate(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function inflate(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Response(stream).text();
}

function toBase64Url(bytes) {
  let binary = "";
  for (let start = 0; start < bytes.length; start += 0x8000) binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}

/** `data` without the edit `key`. */
function withoutEdit(data, key) {
  const [kind, first, second] = key.split("/");
  const next = structuredClone(data);
  if (kind === "code") delete next.code[first];
  else if (next.lessons[first]) delete next.lessons[first].edits[second];
  next.order = next.order.filter((kept) => kept !== key);
  return next;
}

/** `data` with every answer's feedback sentence left out (the verdicts stay). */
function withoutFeedback(data) {
  const next = structuredClone(data);
  for (const lesson of Object.values(next.lessons)) {
    for (const answer of Object.values(lesson.answers ?? {})) delete answer.feedback;
  }
  return next;
}

/**
 * `data` as suspend_data within `limit` characters.
 * @param {{lessons: object, code: object, order: string[]}} data
 * @param {number} limit
 * @returns {Promise<{text: string, dropped: string[], feedbackDropped: boolean, fits: boolean}>} `dropped`: the edits
 *   left out, oldest first
 */
export async function packWork(data, limit) {
  const pack = async (value) => PREFIX + toBase64Url(await deflate(JSON.stringify(value)));
  let kept = data;
  let text = await pack(kept);
  const dropped = [];
  while (text.length > limit && kept.order.length > 0) {
    dropped.push(kept.order[0]);
    kept = withoutEdit(kept, kept.order[0]);
    text = await pack(kept);
  }
  let feedbackDropped = false;
  if (text.length > limit) {
    feedbackDropped = true;
    text = await pack(withoutFeedback(kept));
  }
  return { text, dropped, feedbackDropped, fits: text.length <= limit };
}

/** The work of a learner the LMS keeps nothing for yet, in the shape unpackWork gives. */
export function emptyWork() {
  return { lessons: {}, code: {}, order: [], passed: [], at: null, journaled: 0 };
}

/** The work in suspend_data `text`; null for anything else (empty, another content's, damaged). */
export async function unpackWork(text) {
  if (typeof text !== "string" || !text.startsWith(PREFIX)) return null;
  try {
    const data = JSON.parse(await inflate(fromBase64Url(text.slice(PREFIX.length))));
    const object = (value) => (value && typeof value === "object" && !Array.isArray(value) ? value : {});
    const strings = (value) => (Array.isArray(value) ? value.filter((item) => typeof item === "string") : []);
    const at = object(data.at);
    return {
      lessons: object(data.lessons), code: object(data.code), order: strings(data.order), passed: strings(data.passed),
      at: typeof at.lesson === "string" && typeof at.step === "string" ? { lesson: at.lesson, step: at.step } : null,
      journaled: Number.isInteger(data.journaled) && data.journaled >= 0 ? data.journaled : 0,
    };
  } catch {
    return null;
  }
}
