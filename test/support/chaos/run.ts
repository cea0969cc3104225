/**
 * Runs test/chaos/program through the stand-in engine (real `cmd/run`, real provider host) and
 * audits the emulator's own state against the stack's state after every phase.
 */
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import {
  type DeployOptions,
  deploy,
  destroy,
  type Operation,
  type ResourceState,
  refresh,
  StackState,
} from "../../../harness/engine.js";
import type { Pod } from "../../../provider/client/schemas/pods.js";
import type { RunningEmulator } from "../emulator.js";
import type { Fleet } from "./fleet.js";

export const PROGRAM_DIR = join(__dirname, "..", "..", "chaos", "program");
const PRELOAD = join(__dirname, "..", "..", "chaos", "host-preload.cjs");
export const PROJECT = "runpod-chaos";
export const POD = "pulumi-nodejs:dynamic/runpod:Pod";
export const ENDPOINT = "pulumi-nodejs:dynamic/runpod:ServerlessEndpoint";
export const SSH_KEY = "pulumi-nodejs:dynamic/runpod:SshKey";
/** Emulator and provider host clocks both run this much faster than the wall clock. */
export const TIME_SCALE = 50;
/** The secret every `secretEnv` entry gets as HF_TOKEN. */
export const HF_TOKEN = "hf_CHAOS_SECRET_TOKEN_5f0c2a";

export interface PhaseResult {
  readonly phase: string;
  readonly code: number | null;
  readonly ops: readonly Operation[];
  /** Failures the provider reported, by resource name (what registerResource answered). */
  readonly failures: ReadonlyMap<string, string>;
  /** Emulator time when the phase started. */
  readonly startedAt: number;
}

export interface ChaosRun {
  readonly state: StackState;
  /** Every line the program, the provider host and the engine printed. */
  readonly log: string[];
  up(phase: string, fleet: Fleet, env?: Record<string, string>): Promise<PhaseResult>;
  refresh(phase: string): Promise<PhaseResult>;
  destroy(phase: string): Promise<PhaseResult>;
}

export function chaosRun(
  emu: RunningEmulator,
  options: { stack?: string; deadlineMs?: number; apiKey?: string } = {},
): ChaosRun {
  const state = new StackState();
  const log: string[] = [];
  const write = (line: string) => {
    log.push(line);
    // CHAOS_LOG=file keeps every line with the time it arrived, for looking into a failed run.
    if (process.env.CHAOS_LOG) appendFileSync(process.env.CHAOS_LOG, `${new Date().toISOString()} ${line}\n`);
  };
  const base = (fleet: Fleet | undefined, env: Record<string, string> = {}): DeployOptions => ({
    programDir: PROGRAM_DIR,
    project: PROJECT,
    stack: options.stack ?? "chaos",
    config: {
      "runpod:apiKey": options.apiKey ?? emu.apiKey,
      "runpod:baseUrl": emu.baseUrl,
      "runpod:serverlessUrl": emu.serverlessUrl,
      [`${PROJECT}:hfToken`]: HF_TOKEN,
      ...(fleet ? { [`${PROJECT}:fleet`]: JSON.stringify(fleet) } : {}),
    },
    secretKeys: ["runpod:apiKey", `${PROJECT}:hfToken`],
    state,
    env: {
      // Nothing from the test process's environment: settings come from the stack config.
      RUNPOD_API_KEY: "",
      RUNPOD_BASE_URL: "",
      RUNPOD_DYNAMIC_TIME_SCALE: String(TIME_SCALE),
      NODE_OPTIONS: `--require ${PRELOAD}`,
      CHAOS_DEADLINE_MS: String(options.deadlineMs ?? 0),
      ...env,
    },
    log: write,
  });
  let fleetNow: Fleet | undefined;
  const failuresSince = (from: number) => {
    const failures = new Map<string, string>();
    for (const line of log.slice(from)) {
      const m = /^\[engine\] ([\w-]+): ([\s\S]*)$/.exec(line);
      if (m?.[1] && m[2] !== undefined) failures.set(m[1], m[2]);
    }
    return failures;
  };
  return {
    state,
    log,
    async up(phase, fleet, env = {}) {
      fleetNow = fleet;
      const from = log.length;
      const startedAt = emu.control.now();
      const res = await deploy(base(fleet, env));
      return { phase, code: res.code, ops: res.ops, failures: failuresSince(from), startedAt };
    },
    async refresh(phase) {
      const from = log.length;
      const startedAt = emu.control.now();
      let ops: Operation[] = [];
      let code = 0;
      try {
        ({ ops } = await refresh(base(fleetNow)));
      } catch (err) {
        code = 1;
        write(`[engine] refresh: ${(err as { details?: string }).details ?? String(err)}`);
      }
      return { phase, code, ops, failures: failuresSince(from), startedAt };
    },
    async destroy(phase) {
      const from = log.length;
      const startedAt = emu.control.now();
      let ops: Operation[] = [];
      let code = 0;
      try {
        ({ ops } = await destroy(base(fleetNow)));
      } catch (err) {
        code = 1;
        write(`[engine] destroy: ${(err as { details?: string }).details ?? String(err)}`);
      }
      return { phase, code, ops, failures: failuresSince(from), startedAt };
    },
  };
}

/** Everything the stack's state knows, including replaced resources still waiting for deletion. */
export function known(state: StackState): ResourceState[] {
  return [...state.resources.values(), ...state.pendingDeletes];
}

export interface Audit {
  /** Live pods and endpoints nobody's state knows (they bill, and nothing will delete them). */
  readonly leaks: string[];
  /** Resources with more than one live pod or endpoint. */
  readonly duplicates: string[];
  /** Resources in state whose object does not exist. */
  readonly losses: string[];
  /** Resources in state whose object differs from the recorded fields. */
  readonly mismatches: string[];
  /** Failures that do not name their resource, or that leave out the pod a failed create made. */
  readonly unclearFailures: string[];
}

const livePods = (emu: RunningEmulator) =>
  emu.control.snapshot().pods.filter((p) => !p.cluster && p.status !== "TERMINATED") as Pod[];

/**
 * The invariants, checked against the emulator's own state: no leak, no duplicate, no loss, every
 * recorded field true (for resources whose operation did not fail in this phase), and every
 * failure naming its resource and, when a pod was created for it in this phase, that pod's id.
 */
export function audit(emu: RunningEmulator, state: StackState, phase: PhaseResult): Audit {
  const snapshot = emu.control.snapshot();
  const pods = livePods(emu);
  const resources = known(state);
  const statePods = resources.filter((r) => r.type === POD);
  const stateEndpoints = resources.filter((r) => r.type === ENDPOINT);
  const podIds = new Set(statePods.map((r) => r.id));
  const endpointIds = new Set(stateEndpoints.map((r) => r.id));

  const byName = new Map<string, Pod[]>();
  for (const p of pods) byName.set(p.name, [...(byName.get(p.name) ?? []), p]);
  const duplicates = [...byName.entries()].filter(([, ps]) => ps.length > 1).map(([n]) => n);
  const endpointNames = new Map<string, number>();
  for (const e of snapshot.endpoints) {
    const name = String(e.name);
    endpointNames.set(name, (endpointNames.get(name) ?? 0) + 1);
  }
  for (const [name, n] of endpointNames) if (n > 1) duplicates.push(name);

  // A registered key line ends with the holders that declare it; each SshKey in state must be one.
  const stateKeys = resources.filter((r) => r.type === SSH_KEY);
  const holds = (r: (typeof stateKeys)[number], registered: string) => {
    const m = / runpod-dynamic-holders=([0-9a-z,]+)$/.exec(registered);
    const line = m ? registered.slice(0, m.index) : registered;
    const holder = r.outputs.__holder;
    return (
      line === r.outputs.publicKey &&
      (holder === undefined || (m?.[1] ?? "").split(",").includes(String(holder)))
    );
  };
  const leaks = [
    ...pods.filter((p) => !podIds.has(p.id)).map((p) => `pod ${p.id} (${p.name})`),
    ...snapshot.endpoints.filter((e) => !endpointIds.has(e.id)).map((e) => `endpoint ${e.id} (${e.name})`),
    ...snapshot.sshKeys.filter((k) => !stateKeys.some((r) => holds(r, k))).map((k) => `ssh key ${k}`),
  ];

  const live = new Map(pods.map((p) => [p.id, p]));
  const losses: string[] = [];
  const mismatches: string[] = [];
  for (const r of statePods) {
    const pod = live.get(r.id);
    if (!pod) {
      losses.push(`${r.name} (${r.id})`);
      continue;
    }
    if (phase.failures.has(r.name) || state.pendingDeletes.includes(r)) continue;
    const o = r.outputs as Record<string, { id?: string } | string | null>;
    const recorded = [o.name, o.image, o.dataCenterId, (o.gpu as { id?: string } | null)?.id ?? null];
    const actual = [pod.name, pod.image, pod.dataCenterId, pod.gpu?.id ?? null];
    if (JSON.stringify(recorded) !== JSON.stringify(actual)) {
      mismatches.push(`${r.name}: recorded ${JSON.stringify(recorded)}, is ${JSON.stringify(actual)}`);
    }
  }
  for (const r of stateEndpoints) {
    const e = snapshot.endpoints.find((x) => x.id === r.id);
    if (!e) losses.push(`${r.name} (${r.id})`);
    else {
      const recorded = (r.outputs.workers as { max?: number })?.max;
      const actual = (e.workers as { max: number }).max;
      if (!phase.failures.has(r.name) && actual !== recorded)
        mismatches.push(`${r.name}: workers.max recorded ${recorded}, is ${actual}`);
    }
  }
  for (const r of stateKeys) {
    // A key whose write of the set failed unverified in this phase may or may not be on the account
    // (its error says so, and it stays in state); the next run settles it, and converging checks.
    if (phase.failures.has(r.name)) continue;
    if (!snapshot.sshKeys.some((k) => holds(r, k))) losses.push(`${r.name} (${r.id})`);
  }

  // Pods created for a resource during this phase, live or terminated since.
  const madeInPhase = snapshot.pods.filter((p) => Date.parse(p.createdAt) >= phase.startedAt);
  const unclearFailures: string[] = [];
  for (const [name, message] of phase.failures) {
    // Pods are labelled with their name (= the resource name here), endpoints too, keys by comment.
    const named =
      name === "refresh" || name === "destroy"
        ? /^(Pod|ServerlessEndpoint|SshKey) [^\s:]+: /.test(message)
        : message.includes(name) || /^SshKey [^\s:]+: /.test(message);
    if (!named) unclearFailures.push(`${name}: ${message}`);
    for (const p of madeInPhase.filter((x) => x.name === name && !podIds.has(x.id))) {
      if (!message.includes(p.id)) unclearFailures.push(`${name} (pod ${p.id} not named): ${message}`);
    }
  }
  return { leaks, duplicates, losses, mismatches, unclearFailures };
}

/** Faults the emulator injected so far, by kind. */
export function faultsByKind(emu: RunningEmulator): Record<string, number> {
  return emu.control.snapshot().faultsApplied;
}

/**
 * Retries the client took (one `chaos-retry` line each); creates placement sent again after an
 * unanswered one whose pod was not found; unanswered creates whose pod was found instead.
 */
export function retriesIn(log: readonly string[]): { client: number; placement: number; found: number } {
  let client = 0;
  let placement = 0;
  let found = 0;
  for (const line of log) {
    client += line.match(/chaos-retry /g)?.length ?? 0;
    placement +=
      line.match(/answered (network|timeout|unreadable|5\d\d): .*; (no pod of it was found; )?trying /g)
        ?.length ?? 0;
    found += line.match(/went unanswered \([^)]*\); found the pod it made/g)?.length ?? 0;
  }
  return { client, placement, found };
}
