/**
 * The release workflow's first step (.ci/release-notes.mjs): a tag that disagrees with the package
 * stops the release before anything is built or published, and the notes are the CHANGELOG's
 * section for that version. Run as the workflow runs it, a Node process in the package root.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../harness/pulumi-cli.js";

const SCRIPT = join(REPO_ROOT, ".ci", "release-notes.mjs");
const REPOSITORY = { type: "git", url: "git+https://github.com/runpod-dynamic/runpod-dynamic.git" };
const CHANGELOG = [
  "# Changelog",
  "",
  "## 1.3.0 - unreleased",
  "",
  "- not yet",
  "",
  "## 1.2.0 - 2027-01-05",
  "",
  "### Added",
  "",
  "- a feature",
  "",
  "## 1.1.0 - 2026-12-01",
  "",
  "- older",
  "",
].join("\n");

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A package root holding `pkg` and `changelog`; the script's exit code, stdout and stderr there. */
async function release(
  tag: string,
  pkg: Record<string, unknown>,
  changelog = CHANGELOG,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), "runpod-release-"));
  dirs.push(dir);
  writeFileSync(join(dir, "package.json"), JSON.stringify(pkg));
  writeFileSync(join(dir, "CHANGELOG.md"), changelog);
  const { GITHUB_REPOSITORY: _outer, ...outer } = process.env;
  try {
    const r = await promisify(execFile)(process.execPath, [SCRIPT, tag], {
      cwd: dir,
      env: { ...outer, ...env },
    });
    return { code: 0, ...r };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("the release check and notes", () => {
  it("prints the tag's CHANGELOG section, down to the next version", async () => {
    const r = await release("v1.2.0", { version: "1.2.0", repository: REPOSITORY }, CHANGELOG, {
      GITHUB_REPOSITORY: "runpod-dynamic/runpod-dynamic",
    });
    expect(r).toEqual({ code: 0, stdout: "### Added\n\n- a feature\n", stderr: "" });
  });

  it.each([
    ["the tag must look like v1.2.3", "v1.2", { version: "1.2.0", repository: REPOSITORY }, {}],
    [
      "tag v1.2.1 but package.json's version is 1.2.0",
      "v1.2.1",
      { version: "1.2.0", repository: REPOSITORY },
      {},
    ],
    ['heading "## 1.3.0 - unreleased" must be', "v1.3.0", { version: "1.3.0", repository: REPOSITORY }, {}],
    ['no "## 1.4.0 - <date>" section', "v1.4.0", { version: "1.4.0", repository: REPOSITORY }, {}],
    ["repository must be a GitHub URL", "v1.2.0", { version: "1.2.0" }, {}],
    [
      "repository is runpod-dynamic/runpod-dynamic but this workflow runs in someone/fork",
      "v1.2.0",
      { version: "1.2.0", repository: REPOSITORY },
      { GITHUB_REPOSITORY: "someone/fork" },
    ],
  ])("refuses: %s", async (message, tag, pkg, env) => {
    const r = await release(tag, pkg, CHANGELOG, env);
    expect([r.code, r.stdout, r.stderr]).toEqual([1, "", expect.stringContaining(message)]);
  });

  it("this repository: the CHANGELOG has a section for package.json's version and versions descend", () => {
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
      version: string;
    };
    const versions = [
      ...readFileSync(join(REPO_ROOT, "CHANGELOG.md"), "utf8").matchAll(/^## (\d+\.\d+\.\d+) - /gm),
    ].map((m) => String(m[1]));
    const numeric = (v: string) => v.split(".").map(Number) as [number, number, number];
    const descending = versions.every((v, i) => {
      const next = versions[i + 1];
      if (!next) return true;
      const [a, b] = [numeric(v), numeric(next)];
      return a[0] > b[0] || (a[0] === b[0] && (a[1] > b[1] || (a[1] === b[1] && a[2] > b[2])));
    });
    expect([versions[0], descending]).toEqual([version, true]);
  });
});
