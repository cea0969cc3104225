/**
 * A Go program on the provider plugin through Pulumi's Go Automation API (test/plugin/go: an inline
 * program, so no Go language host is needed): the generated Go SDK (sdk/go) builds and vets, and
 * every Go example of the schema builds against it; then the program as a Go team builds it from a
 * release, `go get` of the SDK at the release's version from a module proxy (the rehearsal's,
 * served from 127.0.0.1, test/support/release.ts) with the Go SDK of Pulumi from the module proxy,
 * run with no Node.js on the machine, the engine fetching the plugin: it reads a pod's disk as the
 * `pulumi.IntOutput` the SDK types it as, brings the pod up and takes it down on the emulator.
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../harness/pulumi-cli.js";
import type { Rehearsal } from "../../harness/release-rehearse.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { pluginConfig } from "../support/plugin.js";
import {
  machineWithoutNodeEnv,
  rehearsal,
  runWithoutNode,
  type ServedFolder,
  servedArchive,
  serveFolder,
} from "../support/release.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";
import { livePodIds, TIME_SCALE } from "../support/stack.js";

const run = promisify(execFile);
const MODULE = join(__dirname, "go");
const SDK_PACKAGE = "github.com/runpod-dynamic/runpod-dynamic/sdk/go/runpoddynamic/...";

let emu: RunningEmulator;
let release: Rehearsal;
let served: ServedFolder;
let work: string;
let driver: string;
let env: Record<string, string>;

/** The module path of the Go SDK, as a release's tag gives it. */
const SDK_MODULE = "github.com/runpod-dynamic/runpod-dynamic/sdk/go";

/**
 * The test module, built as a user's module would be: the SDK required at the release's version
 * from `proxy`. The machine's module cache keeps a version once fetched: this run's build of it
 * replaces an earlier run's there first.
 */
async function buildFromRelease(version: string, proxy: string): Promise<void> {
  const module = join(work, "module");
  mkdirSync(module);
  for (const f of ["go.mod", "go.sum", "main.go"]) cpSync(join(MODULE, f), join(module, f));
  const { stdout } = await run("go", ["env", "GOMODCACHE"]);
  const cache = stdout.trim();
  for (const kept of [
    join(cache, `${SDK_MODULE}@v${version}`),
    join(cache, "cache", "download", SDK_MODULE, "@v"),
  ]) {
    if (existsSync(kept)) await run("chmod", ["-R", "u+w", kept]);
    rmSync(kept, { recursive: true, force: true });
  }
  const goEnv = {
    ...process.env,
    // The release's module from its proxy, the rest from the module proxy.
    GOPROXY: `${proxy},https://proxy.golang.org`,
    GONOSUMDB: SDK_MODULE,
  };
  await run("go", ["mod", "edit", `-dropreplace=${SDK_MODULE}`, `-droprequire=${SDK_MODULE}`], {
    cwd: module,
    env: goEnv,
  });
  await run("go", ["get", `${SDK_MODULE}@v${version}`], {
    cwd: module,
    env: goEnv,
    maxBuffer: 16 * 1024 * 1024,
  });
  await run("go", ["build", "-o", driver, "."], { cwd: module, env: goEnv, maxBuffer: 16 * 1024 * 1024 });
}

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({
    clockScale: TIME_SCALE,
    randomSeed: 37,
    seed: WITHOUT_HISTORY_RESOURCES,
  });
  work = mkdtempSync(join(tmpdir(), "runpod-go-"));
  driver = join(work, "driver");
  release = await rehearsal();
  served = await serveFolder(release.dir);
  mkdirSync(join(work, "backend"));
  mkdirSync(join(work, "project"));
  env = machineWithoutNodeEnv(served, work);
  await buildFromRelease(release.version, `${served.url}/goproxy`);
}, 600_000);
afterAll(async () => {
  await served?.close();
  await emu?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

async function drive(operation: "up" | "destroy") {
  const { plain, secret } = pluginConfig(emu);
  const { stdout } = await runWithoutNode(
    driver,
    [operation, join(work, "project"), JSON.stringify({ plain, secret })],
    {
      env,
    },
  );
  return JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as {
    changes: Record<string, number>;
    outputs: Record<string, unknown>;
  };
}

describe("a Go program on the provider plugin", { timeout: 300_000 }, () => {
  it("the generated SDK passes go vet", async () => {
    await run("go", ["vet", ".", SDK_PACKAGE], { cwd: MODULE });
  });

  it("every Go example of the schema builds and vets against the SDK", async () => {
    // A copy of this module, the SDK's path made absolute, with each example a package of its own.
    const module = join(work, "examples");
    mkdirSync(module);
    for (const f of ["go.mod", "go.sum"]) cpSync(join(MODULE, f), join(module, f));
    const mod = readFileSync(join(module, "go.mod"), "utf8").replace(
      "../../../sdk/go",
      join(REPO_ROOT, "sdk", "go"),
    );
    writeFileSync(join(module, "go.mod"), mod);
    const schema = JSON.parse(readFileSync(join(REPO_ROOT, "sdk", "schema.json"), "utf8")) as {
      resources: Record<string, { description: string }>;
    };
    const examples = Object.entries(schema.resources).flatMap(([token, r]) =>
      [...r.description.matchAll(/```go\n([\s\S]*?)```/g)].map((m, i) => {
        const dir = join(module, `${token.split(":").pop()?.toLowerCase()}${i}`);
        mkdirSync(dir);
        writeFileSync(join(dir, "main.go"), m[1] ?? "");
        return dir;
      }),
    );
    expect(examples.length).toBe(9);
    // -mod=mod: the examples import a package of the Go SDK (config) the driver does not.
    await run("go", ["vet", "-mod=mod", "./..."], { cwd: module, maxBuffer: 16 * 1024 * 1024 });
  });

  it("built from the release's module, fetches the plugin, brings a pod up and takes it down", async () => {
    const up = await drive("up");
    const podId = up.outputs.podId;
    expect([
      served.asked.includes(`/goproxy/${SDK_MODULE}/@v/v${release.version}.zip`),
      served.asked.includes(servedArchive(release)),
      up.changes,
      up.outputs.status,
      emu.control.snapshot().pods.find((p) => p.id === podId)?.status,
      up.outputs.diskGb,
    ]).toEqual([true, true, { create: 2 }, "RUNNING", "RUNNING", 20]);
    const down = await drive("destroy");
    expect([down.changes, livePodIds(emu)]).toEqual([{ delete: 2 }, []]);
  });
});
