/**
 * What a conformance flow is (one row of flows.ts), what it is given to run, and the few helpers
 * and fixtures the rows share.
 */
import { expect } from "vitest";
import type { CliResult } from "../cli.js";
import type { Api, RunningEmulator } from "../emulator.js";
import type { HostProviders } from "../provider.js";
import type { Surface } from "./emulator-routes.js";
import type { Violation } from "./validator.js";

export interface RawAnswer {
  readonly status: number;
  readonly body: unknown;
}

export interface RawOptions {
  /** A JSON value, sent as `application/json` unless `contentType` says otherwise. */
  readonly body?: unknown;
  readonly contentType?: string;
  /** The bearer key; null sends none. @default the emulator's key */
  readonly key?: string | null;
}

export interface FlowContext {
  /** The emulator behind the proxy: its control plane sets the scene and moves its clock. */
  readonly emu: RunningEmulator;
  /** A typed client through the proxy whose waits move the emulator's clock. */
  readonly api: Api;
  /** A request through the proxy to one of the three addresses. */
  raw(surface: Surface, method: string, path: string, options?: RawOptions): Promise<RawAnswer>;
  /** The built CLI, run with RUNPOD_* variables pointing at the proxy. */
  cli(args: readonly string[]): Promise<CliResult>;
  /** The providers of a host context pointed at the proxy. */
  readonly providers: HostProviders;
}

export interface Flow {
  readonly name: string;
  readonly via: "provider" | "cli" | "raw";
  /** The described operations this flow's requests are, exactly (operationIds, any order). */
  readonly operations: readonly string[];
  /**
   * Violations the flow provokes on purpose (a negative flow: a body the service must refuse),
   * exactly. Empty for every other flow.
   */
  readonly expectedViolations?: readonly Violation[];
  /**
   * Violations this flow finds in code outside the conformance gate (the provider, the CLI, the
   * emulator), exactly, so the gate stays green while they are fixed there. Each entry says where
   * it comes from and must be removed with its cause: the flow fails when what it sees differs.
   */
  readonly knownViolations?: readonly Violation[];
  run(ctx: FlowContext): Promise<void>;
}

export const A40 = "NVIDIA A40";
export const H100 = "NVIDIA H100 80GB HBM3";
export const L40S = "NVIDIA L40S";
export const L4 = "NVIDIA L4";
export const FLUX = "black-forest-labs-flux-1-schnell";
export const SSH_KEY =
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHhYd1pU2k7OtlGkG0XZ5Hdx0mVb9YwKq7m3cG1nD3Fe conformance@test";

/** The body of a raw answer, as an object. */
export function fields(answer: RawAnswer): Record<string, unknown> {
  return answer.body as Record<string, unknown>;
}

/** The id of a raw answer's object. */
export function idOf(answer: RawAnswer): string {
  return String(fields(answer).id);
}

/** Runs `args` with `--json` and expects exit 0 (stderr may carry notes) with JSON on stdout. */
export async function cliJson<T>(ctx: FlowContext, args: readonly string[]): Promise<T> {
  const res = await ctx.cli([...args, "--json"]);
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout) as T;
}
