/**
 * A module worker that runs the native test suite inside Pyodide with the real pytest, booted as the page's
 * worker boots it.
 *
 * It loads the runtime from vendor/pyodide/ with NumPy, and the module from generated/ (its core and every part),
 * the very files the page uses (js/runtime/worker.js); installs with micropip pytest, hypothesis and their
 * dependencies from the test server (wheels.js: pinned, each checked against its sha256); lays the repository
 * out in Pyodide's file system and calls pytest.main once (suite.py). pytest's
 * output arrives through setStdout in whole chunks (the default handler would split it per line or, for its
 * progress dots, per character) and goes to the page as it comes, so a slow run shows where it is.
 *
 * Message in:  {files: {"tests/native/test_entry.py": "<source>", ...}, wheels: ["<url of a wheels.json>", ...]}
 * Messages out: {progress: "<text>"} while pytest prints; then {ok: true, report, output, timings} where
 *               report is suite.py's, installed lists the wheels installed with their sizes, and timings are
 *               milliseconds {boot, install, layout, run}; or
 *               {ok: false, message} if the runtime, the wheels or pytest could not start.
 */
import { MODULE_PARTS } from "../../generated/module-facts.js";
import { installWheels } from "./wheels.js";

const RUNTIME_URL = new URL("../../vendor/pyodide/", import.meta.url);
const GENERATED_URL = new URL("../../generated/", import.meta.url);
/** The module's core and every part (the page fetches parts when needed; the suite needs them all). */
const { core, zips } = MODULE_PARTS;
const MODULE_ZIP_URLS = [core, ...Object.values(zips)].map((name) => new URL(name, GENERATED_URL));
/** Where the repository is rebuilt in Pyodide's file system. */
const ROOT = "/home/pyodide/attention-playground";

const RUN_SUITE = `
import sys
sys.path.insert(0, ${JSON.stringify(`${ROOT}/tests/in_pyodide`)})
import suite
suite.run(${JSON.stringify(ROOT)})
`;

async function fetchModuleZip(url) {
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`could not load ${url.pathname} (HTTP ${response.status}); run python3 build.py`);
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

/** Python's stdout and stderr as text, decoded in whole chunks, kept and passed on as progress. */
function outputSink() {
  const decoder = new TextDecoder();
  let text = "";
  return {
    write(bytes) {
      const chunk = decoder.decode(bytes, { stream: true });
      text += chunk;
      postMessage({ progress: chunk });
      return bytes.length;
    },
    text: () => text,
  };
}

async function runSuite({ files, wheels }) {
  const started = performance.now();
  const moduleZips = Promise.all(MODULE_ZIP_URLS.map(fetchModuleZip));
  moduleZips.catch(() => {}); // awaited below; only stops an "unhandled rejection" while the runtime loads
  const { loadPyodide } = await import(new URL("pyodide.mjs", RUNTIME_URL).href);
  const pyodide = await loadPyodide({ indexURL: RUNTIME_URL.href, packages: ["numpy"] });
  const output = outputSink();
  pyodide.setStdout(output);
  pyodide.setStderr(output);
  const booted = performance.now();
  const installed = { wheels: [], bytes: 0 };
  for (const manifest of wheels) {
    const { wheels: some, bytes } = await installWheels(pyodide, new URL(manifest, import.meta.url).href);
    installed.wheels.push(...some);
    installed.bytes += bytes;
  }
  const ready = performance.now();
  pyodide.FS.mkdirTree(`${ROOT}/py`);
  for (const zip of await moduleZips) pyodide.unpackArchive(zip, "zip", { extractDir: `${ROOT}/py` });
  writeFiles(pyodide, files);
  const laidOut = performance.now();
  const reportJson = pyodide.runPython(RUN_SUITE); // a Python str arrives as a JS string: no proxy to destroy
  const finished = performance.now();
  return {
    ok: true,
    report: JSON.parse(reportJson),
    installed,
    output: output.text(),
    timings: { boot: booted - started, install: ready - booted, layout: laidOut - ready, run: finished - laidOut },
  };
}

addEventListener("message", async (event) => {
  let reply;
  try {
    reply = await runSuite(event.data);
  } catch (error) {
    reply = { ok: false, message: error instanceof Error ? `${error.message}\n${error.stack ?? ""}` : String(error) };
  }
  postMessage(reply);
});
