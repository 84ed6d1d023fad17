/**
 * Starts Python. This module is main.js's first import, so creating the worker is the first code the
 * page runs: Python's seconds-long download and boot overlap everything else the page does.
 */

import { createPythonService } from "./service/service.js";
import { isEmbedded } from "./embed/embedded.js";

/**
 * The Python service, its worker booting from the moment the page's code starts to run. Embedded, the page
 * shares its Python with the other frames of the course page (one runtime for all of them, not one each).
 */
export const python = createPythonService({ sharePageWorker: isEmbedded(window.location.search) });
