// Compile archives of Python sources to bytecode inside the runtime that will import them (sitebuild/bytecode.py
// runs this; sitebuild/pyc_archive.py does the work, in Pyodide's own CPython).
//
//     node bytecode.mjs <runtime folder> <pyc_archive.py> <jobs.json>
//
// jobs.json: [{"input": path, "output": path, "importRoot": folder inside Pyodide}, ...]. Prints one line per job.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [runtimeDir, compilerPath, jobsPath] = process.argv.slice(2);
const runtimeUrl = pathToFileURL(path.resolve(runtimeDir) + "/").href;
const { loadPyodide } = await import(new URL("pyodide.mjs", runtimeUrl).href);
const pyodide = await loadPyodide({ indexURL: path.resolve(runtimeDir) + "/" });
pyodide.runPython(readFileSync(compilerPath, "utf8"));
// Bytes in and out: the archive arrives as a Uint8Array, goes back as one.
const compileArchive = pyodide.runPython(
  "lambda data, root: (lambda out: (memoryview(out[0]), out[1]))(compile_archive(data.to_bytes(), root))");

for (const job of JSON.parse(readFileSync(jobsPath, "utf8"))) {
  const result = compileArchive(new Uint8Array(readFileSync(job.input)), job.importRoot);
  const [data, count] = result.toJs();
  writeFileSync(job.output, data);
  result.destroy();
  console.log(`${path.basename(job.output)}: ${count} modules compiled`);
}
