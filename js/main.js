/**
 * The page's entry point: start Python first (boot.js), then the page, then the API.
 */

import { python } from "./boot.js";
import { PREVIEW } from "../generated/preview.js";
import { installApi } from "./page/api.js";
import { startPlayground } from "./page/playground.js";
import { LATER_PARTS, liveAndIdle, loadPart } from "./loading/later-parts.js";
import { DEFAULT_PANELS, PANELS, followHostTheme, readEmbedOptions, startEmbedMode } from "./embed/embed-mode.js";
import { LOCKABLE_FIELDS, lockedFieldsChangedBy } from "./embed/locks.js";
import { lmsAsked } from "./lms/launch.js";

// Embed mode first, so the views mount into the compact layout (and locked fields are refused from the start). The
// rest of a frame's part (its locked controls marked, its height told to its parent) loads beside the page.
const embed = readEmbedOptions(window.location);
if (embed.embedded) {
  startEmbedMode(embed);
  loadPart(LATER_PARTS.frameControls).then(({ startFrame }) => startFrame(embed));
}
// A SCORM package's launch (`?lms=1.2` or `?lms=2004`): the LMS's record is read before the page starts, so the
// learner's work resumes from it (js/lms/tracking.js), at the step it was on. With no LMS around, the page is the
// plain site, and says that the progress is not recorded.
const lmsVersion = lmsAsked(window.location);
const lms = lmsVersion ? loadPart(LATER_PARTS.lmsTracking).then(({ connectLms }) => connectLms(window, lmsVersion, "page")).catch(() => null) : null;
/** The lesson's step the page opens at: a frame's or a lesson package's own, else where the LMS's record left off. */
const lessonToOpen = (connected) => {
  if (!embed.embedded && !lmsVersion) return null;
  const at = connected?.resumeAt;
  return embed.lesson ?? (at ? { id: at.lesson, step: at.step } : null);
};
const start = (connected = null) => startPlayground({
  python,
  // The shipped preview (the default example, computed in advance by the same module) comes with this code,
  // so the first heatmap is drawn as it runs. Fetched beside it, the preview resolved a task later: the first
  // heatmap came 75-85 ms later (medians of 10 cold loads, two runs).
  preview: Promise.resolve(PREVIEW),
  lockedFields: embed.locks,
  lockedChanges: (before, after) => lockedFieldsChangedBy(before, after, embed.locks),
  storageMode: embed.embedded ? "embed" : "page",
  // A course page's frame leaves out the panels its author did not choose, whatever a link shows.
  panelsOnPage: embed.embedded ? embed.panels : null,
  // A course page's frame of a lesson's step (`?embed&lesson=ID&step=STEP`), or a lesson's package, opens there.
  lesson: lessonToOpen(connected),
  // A course's own lesson file (`lesson-src=`) may come from these sites besides the page's own.
  lessonOrigins: embed.embedded ? embed.origins : null,
  // "Copy embed code", under "Share and download" with the other sharing controls (a frame has none).
  embedCode: embed.embedded ? null : { panels: Object.keys(PANELS), defaultPanels: [...DEFAULT_PANELS], lockable: [...LOCKABLE_FIELDS] },
});
const playground = Promise.resolve(lms ? lms.then(start) : start());
lms?.then((connected) => connected && playground.then((page) => connected.track(page, embed.lesson?.id ? [embed.lesson.id] : null))).catch(() => {});
if (embed.embedded) playground.then(({ theme }) => followHostTheme(theme, embed.theme));
const api = installApi({ python, playground });
// The API by postMessage: the messages that come before its code has loaded are kept, and answered once it has. A
// page in a frame loads it at once (its course page may ask from the start); a page of its own, whom only a window
// it opened or that opened it can ask, once Python is live.
const earlyMessages = [];
const keepMessage = (event) => earlyMessages.push(event);
window.addEventListener("message", keepMessage);
(window.parent !== window ? Promise.resolve() : liveAndIdle(python.ready)).then(() => loadPart(LATER_PARTS.postMessageApi)).then(({ installPostMessageApi }) => {
  window.removeEventListener("message", keepMessage);
  installPostMessageApi({ api, playground, origins: embed.origins, earlyMessages });
});
// The offline cache only matters once Python is live; its module loads once the page is idle after that, and it
// waits for the page to be quiet.
liveAndIdle(python.ready).then(() => loadPart(LATER_PARTS.offlineCache)).then(({ installOfflineCache }) => installOfflineCache(python.ready, { playground }), () => {});
