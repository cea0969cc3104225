/**
 * The plugin's schema, the SDKs and the dynamic provider's classes and types are generated, never
 * edited: regenerated from the resources' declarations into a scratch folder (codegen/sdks.ts),
 * they are byte for byte what sdk/ and provider/dynamic/resources/ hold, so a field declared
 * without `npm run sdk` fails here. The schema passes the CLI's own check, and the Node.js SDK
 * type-checks against @pulumi/pulumi.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT, requirePulumiCli } from "../../harness/pulumi-cli.js";
import { loadDist } from "../support/dist.js";

const run = promisify(execFile);
const SDK = join(REPO_ROOT, "sdk");
const { writeDynamic, writeSdks } = loadDist<typeof import("../../codegen/sdks.js")>("codegen/sdks.js");
const scratch = mkdtempSync(join(tmpdir(), "runpod-sdk-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every file under `dir`, relative to it, with its content. */
function tree(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => {
        const file = join(e.parentPath, e.name);
        return [relative(dir, file), readFileSync(file, "latin1")];
      })
      .sort((x, y) => (String(x[0]) < String(y[0]) ? -1 : 1)),
  );
}

describe("the plugin's schema and SDKs", { timeout: 120_000 }, () => {
  it.each([
    ["sdk/", SDK, writeSdks],
    ["provider/dynamic/resources/", join(REPO_ROOT, "provider", "dynamic", "resources"), writeDynamic],
  ])("%s is what the generators make of the declarations now", (name, committedDir, write) => {
    const out = join(scratch, name);
    write(out);
    const [generated, committed] = [tree(out), tree(committedDir)];
    expect(Object.keys(committed)).toEqual(Object.keys(generated));
    const differing = Object.keys(generated).filter((f) => generated[f] !== committed[f]);
    expect(differing, `run \`npm run sdk\` and commit ${name}`).toEqual([]);
  });

  it("passes `pulumi schema check`", async () => {
    const { stdout, stderr } = await run(requirePulumiCli().bin, [
      "schema",
      "check",
      join(SDK, "schema.json"),
    ]);
    expect(`${stdout}${stderr}`).toBe("");
  });

  it("names every resource and function with the package's tokens and marks secrets", () => {
    const schema = JSON.parse(readFileSync(join(SDK, "schema.json"), "utf8")) as {
      resources: Record<
        string,
        { properties: Record<string, { secret?: boolean }>; inputProperties: object }
      >;
      functions: Record<string, unknown>;
    };
    const pod = schema.resources["runpod-dynamic:index:Pod"];
    expect({
      resources: Object.keys(schema.resources).sort(),
      functions: Object.keys(schema.functions).sort(),
      podSecrets: Object.entries(pod?.properties ?? {})
        .filter(([, p]) => p.secret)
        .map(([k]) => k),
    }).toEqual({
      resources: [
        "Cluster",
        "NetworkVolume",
        "Pod",
        "Registry",
        "Secret",
        "ServerlessEndpoint",
        "ServerlessJob",
        "SshKey",
        "Template",
      ].map((n) => `runpod-dynamic:index:${n}`),
      functions: [
        "getCpuFlavors",
        "getDataCenters",
        "getGpuTypes",
        "getJobStatus",
        "getPublicTemplates",
        "placementCandidates",
      ].map((n) => `runpod-dynamic:index:${n}`),
      podSecrets: ["env", "jupyterPassword"],
    });
  });

  it("the Node.js SDK type-checks", async () => {
    const copy = join(scratch, "nodejs");
    await run("cp", ["-r", join(SDK, "nodejs"), copy]);
    symlinkSync(join(REPO_ROOT, "node_modules"), join(copy, "node_modules"));
    await run(process.execPath, [
      join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc"),
      "--noEmit",
      "-p",
      copy,
    ]);
  });
});
