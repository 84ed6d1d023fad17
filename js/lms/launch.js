/**
 * How a SCORM package launches the page: `index.html?lms=1.2` or `index.html?lms=2004`, and `&lesson=ID` for a
 * lesson's package (sitebuild/scorm.py writes these into each manifest). Small, so that an ordinary visit loads
 * nothing of the LMS's code.
 */

/** The launch address's parameter that names the SCORM version. */
export const LMS_PARAMETER = "lms";

/** The SCORM version a launch asks for, or null for an ordinary visit. */
export function lmsAsked(location) {
  const asked = new URLSearchParams(location.search).get(LMS_PARAMETER);
  return asked === "1.2" || asked === "2004" ? asked : null;
}
