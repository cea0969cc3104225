/**
 * The chaos scenario: 50 pods, 2 serverless endpoints and 3 SSH keys through create,
 * an in-place update, a replace, refresh and destroy, on the real Pulumi runtime and provider host,
 * against an emulator injecting seeded faults: 20% 5xx, connection resets (also after a create was
 * accepted), 429 storms with Retry-After, latency past the client deadline, pods ending in ERROR,
 * capacity that the catalog reports but that is gone, and 402 in the middle of a run. After every
 * phase the emulator's own state is audited against the stack's state; after the faults are
 * cleared, the next run converges.
 *
 * Figures (operations, faults by kind, retries, leaks/duplicates/losses) are written as JSON to the
 * file named by CHAOS_REPORT when it is set; the console stays quiet.
 */
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoggedRequest } from "../../emulator/index.js";
import { type Fleet, initialFleet, provision, replacedFleet, updatedFleet } from "../support/chaos/fleet.js";
import {
  type Audit,
  audit,
  type ChaosRun,
  chaosRun,
  ENDPOINT,
  faultsByKind,
  HF_TOKEN,
  known,
  type PhaseResult,
  POD,
  retriesIn,
  SSH_KEY,
  TIME_SCALE,
} from "../support/chaos/run.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";

/** The client gives up on a request after this long; injected spikes last 1.5 times as long. */
const DEADLINE_MS = 1500;

let emu: RunningEmulator;
let run: ChaosRun;
let fleet: Fleet = initialFleet();
const figures: Record<string, unknown>[] = [];
let requestsBefore = 0;

/** What a failure under these faults may legitimately be, and nothing else. */
const LEGITIMATE: [string, RegExp][] = [
  ["402", /balance is exhausted \(402\)/],
  ["ERROR", /did not become ready \(pod \w+ went to ERROR/],
  ["retries exhausted", /(: 50[023] |network failure|no complete response within|Still rate limited)/],
];

function kindOf(message: string): string {
  return LEGITIMATE.find(([, re]) => re.test(message))?.[0] ?? `unexpected: ${message}`;
}

/**
 * Every fault kind of the issue. Probabilities draw from the emulator's seeded random source: the
 * same sequence of draws every run, though which request meets which draw depends on timing.
 */
function injectFaults(): void {
  const any = "^/";
  // A 429 storm: half the requests of the first burst are told to wait.
  emu.control.addFault({ path: any, status: 429, retryAfter: 1, probability: 0.5, times: 40 });
  // Resets after the create was accepted, and latency past the deadline, on pod creates: the
  // first ones for certain (so every run goes through both), then at random.
  emu.control.addFault({ method: "POST", path: "^/v2/pods$", reset: "after", times: 2 });
  emu.control.addFault({ method: "POST", path: "^/v2/pods$", latencyMs: DEADLINE_MS * 1.5, times: 1 });
  emu.control.addFault({ method: "POST", path: "^/v2/pods$", reset: "after", probability: 0.06 });
  emu.control.addFault({
    method: "POST",
    path: "^/v2/pods$",
    latencyMs: DEADLINE_MS * 1.5,
    probability: 0.06,
  });
  // Resets before anything happened, anywhere (with the above, about 5% of requests).
  emu.control.addFault({ path: any, reset: "before", probability: 0.04 });
  emu.control.addFault({ path: any, latencyMs: DEADLINE_MS * 1.5, probability: 0.01 });
  // About 20% 5xx.
  emu.control.addFault({ path: any, status: 500, probability: 0.1 });
  emu.control.addFault({ path: any, status: 502, probability: 0.06 });
  emu.control.addFault({ path: any, status: 503, probability: 0.05 });
}

function clearFaults(): void {
  emu.control.clearFaults();
  emu.control.setSettings({ errorShare: 0, balanceExhausted: false });
}

/**
 * 402 in the middle of the run: once `after` pods were created, the balance runs out; after
 * `answers` creates were refused, it is topped up again and another 429 storm begins. Returns how
 * to restore the log, and how many creates were refused (402) so far.
 */
function balanceRunsOutAfter(after: number, answers: number): { restore: () => void; refused: () => number } {
  const log = emu.state.log;
  const add = log.add.bind(log);
  let created = 0;
  let refused = 0;
  log.add = (entry: Omit<LoggedRequest, "seq">) => {
    add(entry);
    if (entry.route !== "POST /v2/pods") return;
    if (entry.status === 201 && ++created === after) emu.control.setSettings({ balanceExhausted: true });
    if (entry.status === 402 && ++refused === answers) {
      emu.control.setSettings({ balanceExhausted: false });
      emu.control.addFault({ path: "^/", status: 429, retryAfter: 2, probability: 0.5, times: 30 });
    }
  };
  return {
    restore: () => {
      log.add = add;
    },
    refused: () => refused,
  };
}

/** Faults the emulator injected so far, all kinds together. */
const faultTotal = () => Object.values(faultsByKind(emu)).reduce((a, b) => a + b, 0);

/** Runs a phase under injected faults, and checks that some really fired during it. */
async function underFaults(phase: () => Promise<PhaseResult>): Promise<PhaseResult> {
  const before = faultTotal();
  const result = await phase();
  expect(faultTotal() - before, `faults injected during "${result.phase}"`).toBeGreaterThan(0);
  return result;
}

/** Images of the seed's public templates that the fleet's template pods use (emulator/seed/default.ts). */
const TEMPLATE_IMAGES: Record<string, string> = {
  "runpod-torch-v240": "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
  "runpod-ubuntu-cpu": "runpod/base:0.6.2-cpu",
};

function record(phase: PhaseResult, found: Audit): void {
  const { entries } = emu.control.requests();
  const requests = entries.slice(requestsBefore);
  requestsBefore = entries.length;
  const row = {
    phase: phase.phase,
    exitCode: phase.code,
    operations: phase.ops.length,
    operationsByKind: countBy(phase.ops.map((o) => o.op)),
    apiRequests: requests.length,
    answeredByStatus: countBy(requests.map((r) => String(r.status))),
    faultsInjectedSoFar: faultsByKind(emu),
    retriesSoFar: retriesIn(run.log),
    failures: [...phase.failures.entries()].map(([name, message]) => `${name}: ${kindOf(message)}`),
    leaks: found.leaks.length,
    duplicates: found.duplicates.length,
    losses: found.losses.length,
    mismatches: found.mismatches.length,
    unclearFailures: found.unclearFailures.length,
  };
  figures.push(row);
}

function countBy(values: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

/**
 * Resources whose create failed after the pod was accepted and could not be terminated either: the
 * error says the pod "is recorded in state", and it stays there (in ERROR) until someone acts.
 */
const recordedFailures = new Set<string>();

/** Audits a phase: the invariants must hold whatever failed; every failure must be legitimate. */
function expectSound(phase: PhaseResult): Audit {
  const found = audit(emu, run.state, phase);
  record(phase, found);
  for (const [name, text] of phase.failures)
    if (/is recorded in state/.test(text)) recordedFailures.add(name);
  expect(found).toEqual({ leaks: [], duplicates: [], losses: [], mismatches: [], unclearFailures: [] });
  expect([...phase.failures.values()].map(kindOf).filter((k) => k.startsWith("unexpected"))).toEqual([]);
  return found;
}

/** After a clean run: exactly the fleet, each pod RUNNING with its recorded fields, nothing else. */
function expectConverged(phase: PhaseResult): void {
  expectSound(phase);
  expect([phase.code, [...phase.failures.keys()]]).toEqual([0, []]);
  const state = [...run.state.resources.values()];
  const names = (type: string) =>
    state
      .filter((r) => r.type === type)
      .map((r) => r.name)
      .sort();
  expect([names(POD), names(ENDPOINT), names(SSH_KEY), run.state.pendingDeletes]).toEqual([
    fleet.pods.map((p) => p.name).sort(),
    fleet.endpoints.map((e) => e.name).sort(),
    fleet.sshKeys.map((k) => k.name).sort(),
    [],
  ]);
  const desired = new Map(fleet.pods.map((p) => [p.name, p.args]));
  const pods = emu.control.snapshot().pods;
  for (const r of state.filter((x) => x.type === POD)) {
    const pod = pods.find((p) => p.id === r.id);
    const want = desired.get(r.name);
    expect([r.name, pod?.status, pod?.image]).toEqual([
      r.name,
      recordedFailures.has(r.name) ? pod?.status : "RUNNING",
      want?.image ?? TEMPLATE_IMAGES[String(want?.templateId)], // template pods take the template's image
    ]);
  }
}

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({
    clockScale: TIME_SCALE,
    randomSeed: 1010,
    seed: WITHOUT_HISTORY_RESOURCES,
    rateLimit: [{ name: "minute", quota: 600, seconds: 60 }],
    // Terminated pods stay readable for the phase, so a failure can be checked for the pod it made.
    settings: { terminatingMs: 3_600_000 },
  });
  provision(emu);
  run = chaosRun(emu, { deadlineMs: DEADLINE_MS });
});

afterAll(async () => {
  await emu?.close();
  const path = process.env.CHAOS_REPORT;
  if (path) writeFileSync(path, JSON.stringify(figures, null, 2));
});

describe("a fleet under faults", { timeout: 240_000 }, () => {
  it("up under every fault: failures only where legitimate, never a leak or a duplicate", async () => {
    injectFaults();
    emu.control.setSettings({ errorShare: 0.1 });
    const balance = balanceRunsOutAfter(20, 4);
    let phase: PhaseResult;
    try {
      phase = await underFaults(() => run.up("up under faults", fleet));
      expectSound(phase);
    } finally {
      balance.restore();
    }
    // The 402s and the ERROR pods really happened, and failed their resources as they should.
    expect(balance.refused()).toBeGreaterThanOrEqual(4);
    const kinds = new Set([...phase.failures.values()].map(kindOf));
    expect([kinds.has("402"), kinds.has("ERROR")]).toEqual([true, true]);
    const faults = faultsByKind(emu);
    expect(Object.keys(faults).sort()).toEqual([
      "latency",
      "reset-after",
      "reset-before",
      "status-429",
      "status-500",
      "status-502",
      "status-503",
    ]);
  });

  it("up again with the faults cleared converges: everything created, nothing twice", async () => {
    clearFaults();
    expectConverged(await run.up("converge after create", fleet));
    // A state file of the whole fleet holds neither the API key nor the secret env value.
    const text = run.state.toJSON(Buffer.alloc(32, 7));
    expect([text.includes(emu.apiKey), text.includes(HF_TOKEN), text.includes("HF_TOKEN")]).toEqual([
      false,
      false,
      false,
    ]);
  });

  it("an in-place update under faults, then converged", async () => {
    fleet = updatedFleet(fleet);
    injectFaults();
    expectSound(await underFaults(() => run.up("update under faults", fleet)));
    clearFaults();
    const after = await run.up("converge after update", fleet);
    expectConverged(after);
    expect(after.ops.filter((o) => o.op === "replace" || o.op === "create")).toEqual([]);
  });

  it("a replace under faults, then converged", async () => {
    fleet = replacedFleet(fleet);
    injectFaults();
    expectSound(await underFaults(() => run.up("replace under faults", fleet)));
    clearFaults();
    expectConverged(await run.up("converge after replace", fleet));
  });

  it("refresh under faults changes nothing it should not", async () => {
    injectFaults();
    const r = await underFaults(() => run.refresh("refresh under faults"));
    expectSound(r);
    clearFaults();
    const again = await run.refresh("refresh");
    expectSound(again);
    expect(again.ops.filter((o) => o.op === "gone" || o.op === "drift")).toEqual([]);
  });

  it("destroy under faults, then a clean destroy: the emulator holds nothing", async () => {
    injectFaults();
    expectSound(await underFaults(() => run.destroy("destroy under faults")));
    clearFaults();
    expectSound(await run.destroy("destroy"));
    const s = emu.control.snapshot();
    expect([
      s.pods.filter((p) => !p.cluster && p.status !== "TERMINATED").map((p) => p.id),
      s.endpoints.map((e) => e.id),
      s.sshKeys,
      known(run.state),
    ]).toEqual([[], [], [], []]);
  });

  it("the API key and the secret env value appear nowhere in what the program, host and engine printed", () => {
    const text = run.log.join("\n");
    expect([text.includes(emu.apiKey), text.includes(HF_TOKEN)]).toEqual([false, false]);
    // The scan saw what the host printed: its progress lines are in the log.
    expect(text).toMatch(/^\[host\] runpod Pod chaos-\d\d-[a-z0-9]+: created \w+ in /m);
  });
});
