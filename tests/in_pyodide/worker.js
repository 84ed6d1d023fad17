/**
 * A module worker that runs the native test suite inside Pyodide, booted as the page's worker boots it.
 *
 * It loads the runtime from vendor/pyodide/ with NumPy, and the module from generated/attention_playground.zip,
 * the very files the page uses (js/runtime/worker.js). It then lays the repository out in Pyodide's file
 * system (the module unpacked into py/, the test files it is sent into their own paths) and runs
 * tests/in_pyodide/runner.py there.
 *
 * Message in:  {files: {"tests/native/test_entry.py": "<source>", ...}}  (paths relative to the repository)
 * Message out: {ok: true, report, timings} where report is runner.py's report and timings are milliseconds
 *              {boot, layout, run}; or {ok: false, message} if the runtime or the runner could not start.
 */

const RUNTIME_URL = new URL("../../vendor/pyodide/", import.meta.url);
const MODULE_ZIP_URL = new URL("../../generated/attention_playground.zip", import.meta.url);
/** Where the repository is rebuilt in Pyodide's file system. */
const ROOT = "/home/pyodide/attention-playground";

/** Python run once everything is in place: the runner's JSON report. */
const RUN_SUITE = `
import sys
sys.path.insert(0, ${JSON.stringify(`${ROOT}/tests/in_pyodide`)})
import runner
runner.run_suite(${JSON.stringify(ROOT)})
`;

async function fetchModuleZip() {
  const response = await fetch(MODULE_ZIP_URL);
  if (!response.ok) {
    throw new Error(`could not load ${MODULE_ZIP_URL.pathname} (HTTP ${response.status}); run python3 build.py`);
  }
  return response.arrayBuffer();
}

/** Write each file at ROOT/<path>, making its folders first. */
function writeFiles(pyodide, files) {
  for (const [path, source] of Object.entries(files)) {
    const target = `${ROOT}/${path}`;
    pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    pyodide.FS.writeFile(target, source, { encoding: "utf8" });
  }
}

async function runSuite(files) {
  const stray = [];
  const started = performance.now();
  const moduleZip = fetchModuleZip();
  moduleZip.catch(() => {}); // awaited below; only stops an "unhandled rejection" while the runtime loads
  const { loadPyodide } = await import(new URL("pyodide.mjs", RUNTIME_URL).href);
  const pyodide = await loadPyodide({
    indexURL: RUNTIME_URL.href,
    packages: ["numpy"],
    // Output outside a test (the runner captures each test's own) is kept for the report, not the console.
    stdout: (line) => stray.push(line),
    stderr: (line) => stray.push(line),
  });
  const booted = performance.now();
  pyodide.FS.mkdirTree(`${ROOT}/py`);
  pyodide.unpackArchive(await moduleZip, "zip", { extractDir: `${ROOT}/py` });
  writeFiles(pyodide, files);
  const laidOut = performance.now();
  const reportJson = pyodide.runPython(RUN_SUITE); // a Python str arrives as a JS string: no proxy to destroy
  const finished = performance.now();
  const report = JSON.parse(reportJson);
  report.stray_output = stray;
  return { ok: true, report, timings: { boot: booted - started, layout: laidOut - booted, run: finished - laidOut } };
}

addEventListener("message", async (event) => {
  let reply;
  try {
    reply = await runSuite(event.data.files);
  } catch (error) {
    reply = { ok: false, message: error instanceof Error ? `${error.message}\n${error.stack ?? ""}` : String(error) };
  }
  postMessage(reply);
});
