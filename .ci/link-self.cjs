// Makes `require("runpod-dynamic/runtime")` resolve inside this repository.
// The serialized provider loads its implementation by package name, and the Pulumi provider host
// resolves that name from the program's directory (docs/decisions.md, "A thin provider in state").
// Self-reference does not apply to code loaded from a string, so the examples, tests and benchmarks
// in this repository need node_modules/runpod-dynamic to point at the package root, exactly as it
// would for a user who installed the package.
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const link = path.join(root, "node_modules", "runpod-dynamic");
fs.mkdirSync(path.dirname(link), { recursive: true });
try {
  if (fs.realpathSync(link) === root) process.exit(0);
  fs.rmSync(link, { recursive: true, force: true });
} catch {
  // absent: create it below
}
fs.symlinkSync(path.relative(path.dirname(link), root), link, "dir");
