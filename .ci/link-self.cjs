// Makes `require("runpod-dynamic/runtime")` and `npx runpod-dynamic` resolve inside this repository.
// The serialized provider loads its implementation by package name, and the Pulumi provider host
// resolves that name from the program's directory (docs/decisions.md, "A thin provider in state").
// Self-reference does not apply to code loaded from a string, so the examples, tests and benchmarks
// in this repository need node_modules/runpod-dynamic to point at the package root, and
// node_modules/.bin/runpod-dynamic at its CLI, exactly as they would for a user who installed the
// package (the gitops workflow runs `npx runpod-dynamic`).
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");

/** A relative symlink at `link` to `target`, replacing whatever is there unless it already is one. */
function linkTo(link, target, type) {
  fs.mkdirSync(path.dirname(link), { recursive: true });
  const relative = path.relative(path.dirname(link), target);
  try {
    if (fs.readlinkSync(link) === relative) return;
  } catch {
    // absent, or not a link: replaced below
  }
  fs.rmSync(link, { recursive: true, force: true });
  fs.symlinkSync(relative, link, type);
}

linkTo(path.join(root, "node_modules", "runpod-dynamic"), root, "dir");
linkTo(
  path.join(root, "node_modules", ".bin", "runpod-dynamic"),
  path.join(root, "node_modules", "runpod-dynamic", "dist", "cli", "main.js"),
  "file",
);
