/**
 * The page's entry point: start Python first (boot.js), then the page, then the API.
 */

import { client, preview } from "./boot.js";
import { installApi } from "./api.js";
import { startPlayground } from "./app.js";

const playground = Promise.resolve(startPlayground({ client, preview }));
installApi({ client, playground });
