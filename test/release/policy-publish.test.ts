/**
 * The release's policy pack published as a team publishes it to Pulumi Cloud, from its own folder
 * with nothing else of runpod-dynamic installed: the real CLI's `pulumi policy publish <org>`
 * against a fake of the service's API (test/support/fake-pulumi-cloud.ts). The CLI starts the pack
 * to read its name, version and policies, and uploads `npm pack` of the folder; that tarball is
 * what a policy group hands every preview. Here it is unpacked and installed as the CLI installs a
 * required pack, then run on a YAML program's preview.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pathWith, quietEnv, REPO_ROOT, requirePulumiCli } from "../../harness/pulumi-cli.js";
import type { ProgramStack } from "../../harness/stack.js";
import { runpodPolicies } from "../../policy/pack.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { type FakePulumiCloud, startFakePulumiCloud } from "../support/fake-pulumi-cloud.js";
import { pluginAsset, pluginStackOnEmulator } from "../support/plugin.js";
import { PACK_IN_SUMMARY } from "../support/policy.js";
import { rehearsal, releasedPolicyPack } from "../support/release.js";
import { TIME_SCALE } from "../support/stack.js";

const run = promisify(execFile);

let cloud: FakePulumiCloud;
let pack: string;
let work: string;
let version: string;

beforeAll(async () => {
  pack = await releasedPolicyPack();
  version = (await rehearsal()).version;
  cloud = await startFakePulumiCloud("team-bot", "acme");
  work = mkdtempSync(join(tmpdir(), "runpod-policy-publish-"));
}, 600_000);
afterAll(async () => {
  await cloud?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the released policy pack on Pulumi Cloud", { timeout: 300_000 }, () => {
  it("`pulumi policy publish` from its folder: its name, version and every policy, and the folder as npm packs it", async () => {
    const cli = requirePulumiCli();
    const res = await run(cli.bin, ["policy", "publish", "acme"], {
      cwd: pack,
      env: quietEnv({
        PATH: pathWith(cli),
        PULUMI_HOME: join(work, "home"),
        PULUMI_BACKEND_URL: cloud.url,
        PULUMI_ACCESS_TOKEN: "pul-fake-token-for-tests",
      }),
    });
    const [publication] = cloud.published;
    const request = publication?.request as {
      name: string;
      versionTag: string;
      runtime: string;
      policies: { name: string; enforcementLevel: string }[];
    };
    const tarball = join(work, "published.tgz");
    writeFileSync(tarball, publication?.tarball ?? Buffer.alloc(0));
    const { stdout: listing } = await run("tar", ["-tzf", tarball]);
    expect({
      said: res.stdout.includes(`Publishing "runpod-policies" - version ${version} to "acme"`),
      auth: cloud.requests.every(
        (r) => r.path.startsWith("/upload/") || r.authorization === "token pul-fake-token-for-tests",
      ),
      count: cloud.published.length,
      name: request.name,
      version: request.versionTag,
      runtime: request.runtime,
      policies: request.policies.map((p) => p.name).sort(),
      files: listing.trim().split("\n").sort(),
      complete: publication?.complete,
    }).toEqual({
      said: true,
      auth: true,
      count: 1,
      name: "runpod-policies",
      version,
      runtime: "nodejs",
      policies: runpodPolicies({ secretsVisible: true })
        .map((p) => p.name)
        .sort(),
      files: ["PulumiPolicy.yaml", "README.md", "index.js", "npm-shrinkwrap.json", "package.json"].map(
        (f) => `package/${f}`,
      ),
      complete: true,
    });
  });

  it("the published tarball, unpacked and installed as a policy group's preview installs it, rejects what the API would", async () => {
    const installed = join(work, "installed");
    mkdirSync(installed);
    await run("tar", ["-xzf", join(work, "published.tgz"), "-C", installed]);
    // As Pulumi's Node language host installs a required pack's dependencies.
    await run("npm", ["install", "--loglevel=error"], { cwd: join(installed, "package") });
    let emu: RunningEmulator | undefined;
    let stack: ProgramStack | undefined;
    try {
      emu = await emulatorLib.startEmulator({ clockScale: TIME_SCALE, randomSeed: 151 });
      stack = await pluginStackOnEmulator(
        emu,
        await pluginAsset(),
        join(REPO_ROOT, "test", "plugin", "yaml-invalid"),
      );
      const pods = emu.control.snapshot().pods.length;
      const res = await stack.run(["preview", "--policy-pack", join(installed, "package")]);
      expect([res.code, emu.control.snapshot().pods.length]).toEqual([1, pods]);
      expect(res.stdout).toMatch(
        new RegExp(`❌ ${PACK_IN_SUMMARY}[\\s\\S]*\\[mandatory\\] +pod-persistent-with-network`),
      );
    } finally {
      stack?.dispose();
      await emu?.close();
    }
  });
});
