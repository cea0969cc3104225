/**
 * A provider host outlives a killed engine unless it notices: the real dynamic-provider host, driven
 * over gRPC as the engine drives it, exits once the stdin the engine held open ends, or once what it
 * writes to stderr can no longer be read (where Pulumi's own error handler would otherwise spin).
 */
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/dist.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import {
  hostResources,
  type ProviderHost,
  serializedProvider,
  startPlugin,
  startProviderHost,
} from "../support/host.js";

const SCALE = 50;

let emu: RunningEmulator;
let host: ProviderHost;
const texts: Record<string, string> = {};
const key = (n: number) =>
  `ssh-ed25519 ${Buffer.concat([Buffer.from([0, 0, 0, 11]), Buffer.from("ssh-ed25519"), Buffer.from([0, 0, 0, 32]), Buffer.alloc(32, n)]).toString("base64")} key${n}@engine-gone`;

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({ clockScale: SCALE });
  texts.SshKey = (await serializedProvider("SshKey")).text;
});
afterEach(() => host?.close());
afterAll(async () => {
  await emu?.close();
});

const resource = hostResources(() => host, texts);

/** An SshKey's create as the engine sends it: its inputs as check answered them. */
async function createKey(name: string, n: number) {
  const r = resource("SshKey", name);
  const checked = await r.check({ publicKey: key(n) });
  return r.create(checked.getInputs().toJavaScript());
}

/** How the process ended within `ms`, or "still running". */
function exitWithin(proc: ChildProcess, ms: number): Promise<number | string> {
  if (proc.exitCode !== null) return Promise.resolve(proc.exitCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve("still running"), ms);
    proc.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? String(signal));
    });
  });
}

/** A host that has served one create, so the runtime is loaded and configured in it. */
async function hostAfterOneCreate(): Promise<void> {
  host = await startProviderHost({
    config: emu.pulumiConfig(),
    env: { RUNPOD_DYNAMIC_TIME_SCALE: String(SCALE), RUNPOD_DYNAMIC_QUIET: "" },
  });
  await createKey("first", 1);
}

describe("a provider host whose engine is gone", { timeout: 60_000 }, () => {
  it("exits when the stdin the engine held open ends", async () => {
    await hostAfterOneCreate();
    host.proc.stdin.end();
    expect(await exitWithin(host.proc, 15_000)).toBe(0);
  });

  it("exits when its stderr can no longer be written, instead of spinning on the failed write", async () => {
    await hostAfterOneCreate();
    // The reading end goes, as when the engine is killed; the next progress line fails to write.
    host.proc.stderr.destroy();
    const second = createKey("second", 2).catch(() => undefined);
    expect(await exitWithin(host.proc, 15_000)).toBe(0);
    await second;
  });

  it("keeps serving while the engine holds it", async () => {
    await hostAfterOneCreate();
    const second = await createKey("second", 2);
    expect([second.getId().startsWith("SHA256:"), await exitWithin(host.proc, 1_000)]).toEqual([
      true,
      "still running",
    ]);
  });
});

describe("the provider plugin whose engine is gone", { timeout: 60_000 }, () => {
  it("exits when the stdin the engine held open ends", async () => {
    const plugin = startPlugin(join(REPO_ROOT, "dist", "provider", "plugin", "main.js"), ["127.0.0.1:1"], {
      cwd: REPO_ROOT,
    });
    try {
      await plugin.port;
      const served = await exitWithin(plugin.proc, 1_000);
      plugin.proc.stdin.end();
      expect([served, await exitWithin(plugin.proc, 15_000)]).toEqual(["still running", 0]);
    } finally {
      plugin.proc.kill();
    }
  });
});
