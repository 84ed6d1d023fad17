// Runs dependency-cruiser's API on a folder with a set of rules and prints, as JSON, every import that breaks
// one: node cruise.mjs <node_modules> <rules.json> <folder>. (sitebuild/cruiser.py says why not its CLI.)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [nodeModules, rulesPath, folder] = process.argv.slice(2);
const { cruise } = await import(pathToFileURL(join(nodeModules, "dependency-cruiser", "src", "main", "index.mjs")).href);
const { forbidden, options = {} } = JSON.parse(readFileSync(rulesPath, "utf8"));
const { output } = await cruise([folder], { ...options, validate: true, ruleSet: { forbidden } });
const violations = output.summary.violations.map((violation) => ({
  from: violation.from,
  to: violation.cycle ? violation.cycle.map((step) => step.name ?? step).join(" -> ") : violation.to,
  rule: violation.rule.name,
}));
process.stdout.write(JSON.stringify({ modules: output.summary.totalCruised, violations }));
