// Parses every .js file under a folder with acorn and prints, as JSON, every function longer than a limit:
// node function_lengths.mjs <node_modules> <folder> <limit>. A function's length is its span in lines, from the
// line it starts on to the line it ends on, so the functions defined inside it count too. acorn and acorn-walk
// come with dependency-cruiser (sitebuild/cruiser.py installs them), so the check needs no package of its own.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";

const [nodeModules, folder, limitText] = process.argv.slice(2);
const entry = (name, file) => pathToFileURL(join(nodeModules, name, "dist", file)).href;
const { parse } = await import(entry("acorn", "acorn.mjs"));
const { ancestor } = await import(entry("acorn-walk", "walk.mjs"));
const limit = Number(limitText);

/** Every .js file under `root`, sorted, so the report reads the same on every machine. */
function jsFiles(root) {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((item) => item.isFile() && item.name.endsWith(".js"))
    .map((item) => join(item.parentPath ?? item.path, item.name))
    .sort();
}

/** The name a reader would look for: a declaration's own name, else the variable, property, method or class
 * field it is assigned to, else `<anonymous>@line`. */
function functionName(node, parent) {
  if (node.id) return node.id.name;
  if (parent?.type === "VariableDeclarator" && parent.init === node) return keyText(parent.id);
  if (parent?.type === "AssignmentExpression" && parent.right === node) return keyText(parent.left);
  if (["Property", "MethodDefinition", "PropertyDefinition"].includes(parent?.type) && parent.value === node) {
    return keyText(parent.key);
  }
  return `<anonymous>@${node.loc.start.line}`;
}

function keyText(key) {
  if (key.type === "Identifier" || key.type === "PrivateIdentifier") return key.name;
  if (key.type === "Literal") return String(key.value);
  if (key.type === "MemberExpression") return `${keyText(key.object)}.${keyText(key.property)}`;
  if (key.type === "ThisExpression") return "this";
  return `<computed>@${key.loc.start.line}`;
}

const tooLong = [];
let functions = 0;
/** Measure one function of `file` (acorn-walk hands it the walk's state, here the file, and its ancestors). */
const measure = (node, file, ancestors) => {
  functions += 1;
  const lines = node.loc.end.line - node.loc.start.line + 1;
  if (lines <= limit) return;
  const parent = ancestors[ancestors.length - 2];
  tooLong.push({ file, name: functionName(node, parent), line: node.loc.start.line, lines });
};
const visitors = { FunctionDeclaration: measure, FunctionExpression: measure, ArrowFunctionExpression: measure };
const files = jsFiles(folder);
for (const path of files) {
  const file = relative(process.cwd(), path).split("\\").join("/");
  let tree;
  try {
    tree = parse(readFileSync(path, "utf8"), { ecmaVersion: "latest", sourceType: "module", locations: true });
  } catch (error) {
    process.stderr.write(`${file}: ${error.message}`); // acorn's message ends with (line:column)
    process.exit(1);
  }
  ancestor(tree, visitors, undefined, file);
}
process.stdout.write(JSON.stringify({ files: files.length, functions, tooLong }));
