/**
 * What `npm publish` would publish, checked with the tools the ecosystem checks packages with:
 * publint (package.json against what the tarball holds), @arethetypeswrong/cli (every export
 * resolves to JavaScript and declarations for CommonJS and ESM consumers, under every module
 * resolution TypeScript has), the exact file list, and a size budget.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../harness/pulumi-cli.js";
import { packTarball } from "./installed.js";

const run = promisify(execFile);

/** The budget for the tarball npm uploads and for what it unpacks to (`npm pack --dry-run` prints
 * today's sizes). Well above today's, so that only a real mistake (a stray folder, source maps, a
 * vendored dependency) crosses it. */
const TARBALL_BUDGET = 640 * 1024;
const UNPACKED_BUDGET = 2.5 * 1024 * 1024;

let scratch: string;
let tarball: string;
/** path -> size in bytes, as the tarball lists them (without npm's `package/` prefix). */
let entries: Map<string, number>;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "runpod-publish-"));
  tarball = await packTarball();
  const { stdout } = await run("tar", ["-tvzf", tarball], { maxBuffer: 16 * 1024 * 1024 });
  entries = new Map(
    stdout
      .trim()
      .split("\n")
      .map((line) => {
        const fields = line.trim().split(/\s+/);
        return [String(fields[5]).replace(/^package\//, ""), Number(fields[2])] as const;
      }),
  );
}, 120_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every file under `dir` (relative to the repository), recursively. */
function walk(dir: string): string[] {
  return readdirSync(join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe("the package npm publish would upload", { timeout: 120_000 }, () => {
  it("holds exactly the built modules with their declarations, the policy pack, and the docs npm shows", () => {
    // What a user needs and nothing else: each source module of the provider, the emulator and the
    // CLI as JavaScript plus declarations; the policy pack as sources (Pulumi compiles a pack
    // itself); the provider plugin's schema, which it answers GetSchema with; package.json,
    // README, CHANGELOG and LICENSE.
    const modules = ["provider", "emulator", "cli"]
      .flatMap(walk)
      .filter((f) => f.endsWith(".ts"))
      .flatMap((f) => [`dist/${f.replace(/\.ts$/, ".js")}`, `dist/${f.replace(/\.ts$/, ".d.ts")}`]);
    const pack = walk("policy").filter(
      (f) =>
        (f.endsWith(".ts") && !f.includes("node_modules")) ||
        ["PulumiPolicy.yaml", "package.json", "tsconfig.json", "README.md"].includes(relative("policy", f)),
    );
    const expected = [
      ...modules,
      ...pack,
      "sdk/schema.json",
      "package.json",
      "README.md",
      "CHANGELOG.md",
      "LICENSE",
    ];
    const shipped = [...entries.keys()];
    expect({
      missing: expected.filter((f) => !entries.has(f)).sort(),
      extra: shipped.filter((f) => !expected.includes(f)).sort(),
    }).toEqual({ missing: [], extra: [] });
  });

  it("stays within its size budget", () => {
    const unpacked = [...entries.values()].reduce((a, b) => a + b, 0);
    const packed = statSync(tarball).size;
    expect(packed, `tarball bytes (budget ${TARBALL_BUDGET})`).toBeLessThanOrEqual(TARBALL_BUDGET);
    expect(unpacked, `unpacked bytes (budget ${UNPACKED_BUDGET})`).toBeLessThanOrEqual(UNPACKED_BUDGET);
  });

  it("passes publint with no error, warning or suggestion", async () => {
    const data = readFileSync(tarball);
    const tar = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
    const { messages, pkg } = await publint({ pack: { tarball: tar }, level: "suggestion", strict: true });
    expect(messages.map((m) => `${m.type}: ${formatMessage(m, pkg, { color: false })}`)).toEqual([]);
  });

  it("resolves every export for CommonJS and ESM consumers under every module resolution (attw)", async () => {
    // --format json exits 1 when it finds a problem; the problems are what the test reports.
    const out = await run(join(REPO_ROOT, "node_modules", ".bin", "attw"), [tarball, "--format", "json"], {
      maxBuffer: 64 * 1024 * 1024,
    }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? "" }));
    const { analysis } = JSON.parse(out.stdout) as {
      analysis: { entrypoints: Record<string, unknown>; problems: { kind: string; entrypoint?: string }[] };
    };
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
      exports: Record<string, unknown>;
    };
    expect({
      entrypoints: Object.keys(analysis.entrypoints),
      problems: analysis.problems.map((p) => `${p.kind} ${p.entrypoint ?? ""}`.trim()),
    }).toEqual({ entrypoints: Object.keys(pkg.exports), problems: [] });
  });
});
