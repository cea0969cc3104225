/**
 * Readiness and failing fast through the real CLI and the real dynamic-provider host: what a
 * user's `pulumi up` prints and leaves behind when a pod serves late, never serves, or cannot
 * start, and when the run is interrupted while a probe waits.
 */
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ProgramStack } from "../../harness/stack.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { livePodIds, podIdsIn, stackOnEmulator, TIME_SCALE, until } from "../support/stack.js";

const PROGRAM = join(__dirname, "program");

let emu: RunningEmulator;
let stack: ProgramStack;

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({ clockScale: TIME_SCALE, randomSeed: 97 });
});
afterAll(async () => {
  await emu.close();
});
afterEach(() => {
  stack?.dispose();
  emu.control.reset();
});

const livePods = () => livePodIds(emu);

async function podStack(pod: Record<string, unknown>) {
  stack = await stackOnEmulator(emu, PROGRAM);
  await stack.setConfig({ "engine-features:pods": JSON.stringify({ a: pod }) });
  return stack;
}

describe("readiness through the real CLI", { timeout: 180_000 }, () => {
  it("up waits through the 503s of a server warming up, printing its progress, and records the pod", async () => {
    emu.control.setContainerBehaviour({
      image: "warmup:1",
      kind: "start",
      serve: "late",
      serveAfterMs: 120_000,
    });
    await podStack({ image: "warmup:1", ports: ["8888/http"], readiness: { check: "HTTP", port: 8888 } });
    const up = await stack.expect(["up", "--yes", "--skip-preview"]);
    const { deployment } = await stack.exportState();
    expect(up.stdout).toMatch(/RUNNING, waiting for 8888\/http \/: 503 \(\d+ s\)/);
    expect(podIdsIn(deployment)).toEqual(livePods());
  });

  it("an image that cannot be pulled fails the up within seconds, quoting the log; nothing is left billing", async () => {
    emu.control.setContainerBehaviour({ image: "acme/typo:1", kind: "imageNotFound" });
    await podStack({ image: "acme/typo:1", failFast: { afterSeconds: 5 } });
    const up = await stack.run(["up", "--yes", "--skip-preview"]);
    const { deployment } = await stack.exportState();
    expect([up.code, podIdsIn(deployment), livePods()]).toEqual([1, [], []]);
    expect(up.stdout).toContain("cannot start: the image or tag does not exist: check `image`");
    expect(up.stdout).toContain("manifest for acme/typo:1 not found");
    // failFast decided it from the log, not the 600 s create timeout (whose message names
    // timeouts.create): no wall-clock bound needed to tell them apart.
    expect(up.stdout).not.toContain("timeouts.create");
  });

  it("a crash-looping image with the default readiness fails the up as a crash loop, quoting its log; nothing is left billing", async () => {
    emu.control.setContainerBehaviour({
      image: "acme/crashes:1",
      kind: "crashLoop",
      runMs: 8000,
      lines: ["Traceback (most recent call last):", "ModuleNotFoundError: No module named 'vllm'"],
    });
    await podStack({ image: "acme/crashes:1" });
    const up = await stack.run(["up", "--yes", "--skip-preview"]);
    const { deployment } = await stack.exportState();
    expect([up.code, podIdsIn(deployment), livePods()]).toEqual([1, [], []]);
    expect(up.stdout).toContain("its container exited while it was RUNNING and was restarted, a crash loop");
    expect(up.stdout).toContain("ModuleNotFoundError: No module named 'vllm'");
    expect(up.stdout).toMatch(/RUNNING; waiting 30 s to see it stay up \(readiness\.settle\)/);
  });

  it("SIGINT while a probe waits: the engine lets the create end at its readiness timeout, and nothing is left billing", async () => {
    emu.control.setContainerBehaviour({ image: "silent:1", kind: "start", serve: "never" });
    await podStack({
      image: "silent:1",
      ports: ["8888/http"],
      readiness: { check: "HTTP", port: 8888, timeout: 300 },
    });
    let printed = "";
    const up = stack.start(["up", "--yes", "--skip-preview"], {}, (chunk) => {
      printed += chunk;
    });
    await until(() => /waiting for 8888\/http/.test(printed));
    process.kill(up.cliPid() ?? 0, "SIGINT");
    const r = await up.done;
    const { deployment } = await stack.exportState();
    expect([r.code, podIdsIn(deployment), livePods(), deployment.pending_operations ?? []]).toEqual([
      1,
      [],
      [],
      [],
    ]);
    expect(r.stdout).toMatch(
      /did not pass its readiness check 8888\/http \/ \(last answer: 502\) within readiness\.timeout \(300 s\)/,
    );
  });
});
