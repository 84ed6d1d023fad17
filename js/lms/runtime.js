/**
 * One set of calls over the two versions of SCORM's runtime, so the tracking (tracking.js) says what it reports
 * once: the element names, the vocabularies and the time formats differ between SCORM 1.2 and 2004.
 *
 *   SCORM 1.2    LMSInitialize, LMSGetValue, LMSSetValue, LMSCommit, LMSFinish; cmi.core.*; suspend_data up to
 *                4,096 characters; no scaled score, no progress measure
 *   SCORM 2004   Initialize, GetValue, SetValue, Commit, Terminate; cmi.*; suspend_data up to 64,000 characters
 */

/** What each version calls each thing the tracking reports. */
const VERSIONS = Object.freeze({
  "1.2": {
    calls: { initialize: "LMSInitialize", get: "LMSGetValue", set: "LMSSetValue", commit: "LMSCommit", terminate: "LMSFinish" },
    elements: {
      status: "cmi.core.lesson_status", location: "cmi.core.lesson_location", exit: "cmi.core.exit", entry: "cmi.core.entry",
      raw: "cmi.core.score.raw", min: "cmi.core.score.min", max: "cmi.core.score.max", scaled: null, progress: null,
      sessionTime: "cmi.core.session_time", suspendData: "cmi.suspend_data", interactionCount: "cmi.interactions._count",
    },
    interaction: { response: "student_response", time: "time", description: null, wrong: "wrong" },
    suspendLimit: 4096,
    locationLimit: 255,
  },
  2004: {
    calls: { initialize: "Initialize", get: "GetValue", set: "SetValue", commit: "Commit", terminate: "Terminate" },
    elements: {
      status: "cmi.completion_status", location: "cmi.location", exit: "cmi.exit", entry: "cmi.entry",
      raw: "cmi.score.raw", min: "cmi.score.min", max: "cmi.score.max", scaled: "cmi.score.scaled", progress: "cmi.progress_measure",
      sessionTime: "cmi.session_time", suspendData: "cmi.suspend_data", interactionCount: "cmi.interactions._count",
    },
    interaction: { response: "learner_response", time: "timestamp", description: "description", wrong: "incorrect" },
    suspendLimit: 64000,
    locationLimit: 1000,
  },
});

/**
 * The score as each version's elements carry it, so that every LMS grades it the same: the raw score on 0-100 (the
 * share of the points, to two decimals) with min 0 and max 100, and in 2004 also scaled, the same share on 0-1. Open
 * edX's SCORM block grades raw ÷ 100 and ignores max in 1.2, and in 2004 takes raw ÷ 100 or scaled, whichever was
 * set last; many 1.2 LMSs read raw as a percentage. The lesson's own points are in suspend_data, with the answers.
 * @param {"1.2"|"2004"} version
 * @param {number} points questions right at the first try and exercises passed
 * @param {number} most how many there are
 * @returns {{raw: string, min: string, max: string, scaled: string|null}}
 */
export function scoreElements(version, points, most) {
  const ratio = most > 0 ? points / most : 0;
  const raw = String(Math.round(ratio * 10000) / 100);
  return { raw, min: "0", max: "100", scaled: version === "2004" ? ratio.toFixed(4) : null };
}

/** Two digits. */
const two = (number) => String(number).padStart(2, "0");

/** `seconds` as SCORM 1.2's CMITimespan (HHHH:MM:SS.SS) or 2004's duration (PT#H#M#S). */
export function sessionTime(version, seconds) {
  // Rounded to hundredths first, then split: 59.999 s is a whole minute, never "00:00:60.00" (which 1.2 refuses).
  const total = Math.round(seconds * 100);
  const hours = Math.floor(total / 360_000);
  const minutes = Math.floor((total % 360_000) / 6000);
  const rest = (total % 6000) / 100;
  if (version === "2004") return `PT${hours}H${minutes}M${rest}S`;
  const [whole, hundredths = "0"] = rest.toFixed(2).split(".");
  return `${String(Math.min(hours, 9999)).padStart(4, "0")}:${two(minutes)}:${two(whole)}.${hundredths}`;
}

/** A time of day as 1.2's CMITime (HH:MM:SS), or the moment as 2004's timestamp (YYYY-MM-DDThh:mm:ss). */
function timestamp(version, date) {
  const time = `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
  return version === "2004" ? `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${time}` : time;
}

/** The index the next interaction goes at: the count the LMS reports, or where it reports none (wagtail-lms answers
 * "" to `_count`), the count this content has journaled itself, whichever is further. */
export function nextInteractionIndex(reported, journaled) {
  const count = /^\d+$/.test(String(reported).trim()) ? Number.parseInt(reported, 10) : null;
  return count === null ? journaled : Math.max(count, journaled);
}

/**
 * The LMS's runtime `api` of `version`, with one name per call and per element. Every call returns what the LMS
 * said ("true"/"false", a value); a runtime that throws counts as a refusal.
 * @param {"1.2"|"2004"} version
 * @param {object} api the runtime found by find-api.js
 */
export function createRuntime(version, api) {
  let interactions = 0;
  const { calls, elements, interaction, suspendLimit, locationLimit } = VERSIONS[version];
  const call = (name, ...args) => {
    try {
      return String(api[calls[name]](...args));
    } catch {
      return "false";
    }
  };
  const set = (element, value) => (element ? call("set", element, String(value)) === "true" : false);
  return {
    version,
    suspendLimit,
    initialize: () => call("initialize", "") === "true",
    get: (name) => call("get", elements[name]),
    set: (name, value) => set(elements[name], value),
    /** Whether this version has element `name` (2004 alone has a scaled score and a progress measure). */
    has: (name) => Boolean(elements[name]),
    location: (text) => set(elements.location, String(text).slice(0, locationLimit)),
    commit: () => call("commit", "") === "true",
    terminate: () => call("terminate", "") === "true",
    sessionTime: (seconds) => set(elements.sessionTime, sessionTime(version, seconds)),
    /** How many interactions this learner's launches have journaled, this one included. */
    journaled: () => interactions,
    /** Go on from the `count` interactions earlier launches journaled (kept in suspend_data). */
    journalFrom: (count) => {
      interactions = Math.max(interactions, count);
    },
    /**
     * Journal one interaction: {id, type ("choice", "numeric", "performance", "fill-in", "other"), response,
     * correct, description}. SCORM 1.2 has no type "other" and no description; its interactions are often
     * write-only, so the next index is the count the LMS reports, or the content's own where it reports none.
     */
    interaction({ id, type, response, correct, description }) {
      const index = nextInteractionIndex(call("get", elements.interactionCount), interactions);
      const at = (key) => `cmi.interactions.${index}.${key}`;
      if (!set(at("id"), id)) return false;
      interactions = index + 1;
      set(at("type"), version === "1.2" && type === "other" ? "fill-in" : type);
      set(at(interaction.response), String(response).slice(0, version === "1.2" ? 255 : 4000));
      set(at("result"), correct ? "correct" : interaction.wrong);
      set(at(interaction.time), timestamp(version, new Date()));
      if (interaction.description && description) set(at(interaction.description), description.slice(0, 250));
      return true;
    },
  };
}
