/**
 * Starts Python. This module is main.js's first import, so creating the worker is the first code the
 * page runs: Python's seconds-long download and boot overlap everything else the page does.
 */

import { createPythonService } from "./python/service.js";

/** The Python service, its worker booting from the moment the page's code starts to run. */
export const python = createPythonService();

/**
 * The shipped preview (the default example, computed in advance by the same module). index.html
 * preloads it; this fetch picks up that response.
 */
export const preview = fetch("generated/preview.json").then((response) => {
  if (!response.ok) throw new Error(`preview: HTTP ${response.status}`);
  return response.json();
});
preview.catch(() => {}); // a missing preview is handled by the controller, which falls back to Python
