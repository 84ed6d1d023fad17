/**
 * A scene file dropped anywhere on the page opens, as "Open scene file…" (export-import.js) does. From the first
 * view: a file dropped on a page that did not take it would be opened by the browser in the page's place.
 */

/**
 * Make the whole document the drop target for scene files.
 * @param {{openFile: (file: File) => Promise<boolean>}} actions
 */
export function installSceneFileDrop(actions) {
  let depth = 0;
  const carriesFiles = (event) => Array.from(event.dataTransfer?.types ?? []).includes("Files");
  document.addEventListener("dragenter", (event) => {
    if (!carriesFiles(event)) return;
    depth += 1;
    document.body.classList.add("dropping-file");
  });
  document.addEventListener("dragleave", (event) => {
    if (!carriesFiles(event)) return;
    depth = Math.max(0, depth - 1);
    if (depth === 0) document.body.classList.remove("dropping-file");
  });
  document.addEventListener("dragover", (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
  });
  document.addEventListener("drop", (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    depth = 0;
    document.body.classList.remove("dropping-file");
    const [file] = event.dataTransfer.files;
    if (file) actions.openFile(file);
  });
}
