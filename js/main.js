/**
 * The page's entry point: start Python first (boot.js), then the page, then the API.
 */

import { client, preview } from "./boot.js";
import { installApi } from "./api.js";
import { startPlayground } from "./app.js";
import { isEditAllowed, lockedFieldsChangedBy, readEmbedOptions, startEmbedMode } from "./embed.js";
import { installPostMessageApi } from "./post-message-api.js";

// Embed mode first, so the views mount into the compact layout (and locked fields are refused from the start).
const embed = readEmbedOptions(window.location);
if (embed.embedded) startEmbedMode(embed);
const playground = Promise.resolve(startPlayground({
  client,
  preview,
  canEdit: (edit) => isEditAllowed(edit, embed.locks),
  lockedChanges: (before, after) => lockedFieldsChangedBy(before, after, embed.locks),
  storageMode: embed.embedded ? "embed" : "page",
}));
const api = installApi({ client, playground });
installPostMessageApi({ api, playground, origins: embed.origins });
if (!embed.embedded) {
  // The embed snippet is not needed for the first view: its module loads once Python is live (or failed).
  Promise.allSettled([client.ready])
    .then(() => Promise.all([playground, import("./ui/embed-code.js")]))
    .then(([{ store }, { mountEmbedCode }]) => mountEmbedCode(document.querySelector('[data-testid="share-area"]'), { store }));
}
// The offline cache only matters once Python is live; its module loads then.
client.ready.then(() => import("./offline.js")).then(({ installOfflineCache }) => installOfflineCache(client.ready), () => {});
