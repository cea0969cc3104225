/**
 * `npm install git+file://<this repository>`: npm clones the committed tree, installs its
 * devDependencies, runs `prepare` (the build) and packs the result. The installed package must
 * have its built code and a working CLI.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import { REPO_ROOT } from "../../harness/pulumi-cli.js";
import { npm } from "./installed.js";

const dir = mkdtempSync(join(tmpdir(), "runpod-git-install-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("builds on install from a git URL: dist and the CLI are there", { timeout: 600_000 }, async () => {
  writeFileSync(
    join(dir, "package.json"),
    `${JSON.stringify({ name: "from-git", private: true }, null, 2)}\n`,
  );
  await npm(dir, ["install", `git+file://${REPO_ROOT}`]);
  const pkg = join(dir, "node_modules", "runpod-dynamic");
  const { version } = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")) as { version: string };
  const cli = await promisify(execFile)(join(dir, "node_modules", ".bin", "runpod-dynamic"), ["--version"]);
  expect([
    existsSync(join(pkg, "dist", "provider", "index.js")),
    existsSync(join(pkg, "dist", "provider", "dynamic", "runtime.js")),
    cli.stdout.trim(),
  ]).toEqual([true, true, version]);
});
