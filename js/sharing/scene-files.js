/**
 * A scene file the learner chose or dropped: read as JSON and checked to be an object, with a sentence for
 * each way it can fail. The module then checks it as a scene, like any other.
 */

import { quotedName } from "./links.js";

const MAX_FILE_BYTES = 8_000_000;

/**
 * @param {File} file
 * @returns {Promise<{scene: object|null, problem: string|null}>}
 */
export async function readSceneFile(file) {
  const name = quotedName(file.name);
  if (file.size > MAX_FILE_BYTES) {
    return { scene: null, problem: `${name} is too large to be a scene file (${Math.round(file.size / 1e6)} MB).` };
  }
  let scene;
  try {
    scene = JSON.parse(await file.text());
  } catch (error) {
    return { scene: null, problem: `${name} is not a scene file: it is not JSON (${error.message}).` };
  }
  if (scene === null || typeof scene !== "object" || Array.isArray(scene)) {
    return { scene: null, problem: `${name} is JSON but not a scene: a scene is an object with tokens, features, X and heads.` };
  }
  return { scene, problem: null };
}
