/**
 * The conformance gate: realistic traffic from the real provider (in-process), the real CLI binary
 * and raw requests goes through the recording, validating proxy to the emulator, and every request
 * and every answer on a described route must match RunPod's v2 description with the contract
 * overlay (docs/api-differences.md). The flows are in test/support/conformance/flows.ts; set CONFORMANCE_REPORT=<file> to
 * get the counts per operation.
 *
 * The emulator's clock is frozen and moves only when the provider waits (its sleeps advance it) or
 * a flow advances it, so every run sends the same requests.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Clock } from "../../provider/client/clock.js";
import { runCli } from "../support/cli.js";
import { FLOWS, type FlowContext } from "../support/conformance/flows.js";
import { type ConformanceProxy, startConformanceProxy } from "../support/conformance/proxy.js";
import { formatViolations, keysOf, violationsOf, writeReportIfAsked } from "../support/conformance/report.js";
import { DescriptionValidator } from "../support/conformance/validator.js";
import { clientLib } from "../support/dist.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { raw } from "../support/http.js";
import { useRuntime } from "../support/provider.js";

/**
 * Routes the provider and the CLI still call on `{rest_url}/v1`, which the v2 description does not
 * describe: recorded, not validated. This list must stay empty: the provider's ServerlessEndpoint
 * and the CLI's billing moved to `/v2/serverless` and `/v2/billing/*`, and nothing may go back.
 */
const STILL_V1: readonly string[] = [];

/**
 * Routes the description does not have at all: the hub's GraphQL on base_url (the CLI's hub
 * commands) and every job route on serverless_url (the contract's run, runsync and status, and the
 * emulator's status-sync, stream, cancel, retry, purge-queue and health). Recorded, not validated.
 */
const NOT_IN_DESCRIPTION: readonly string[] = [
  "GET /v2/:endpointId/health",
  "GET /v2/:endpointId/status-sync/:jobId",
  "GET /v2/:endpointId/status/:jobId",
  "GET /v2/:endpointId/stream/:jobId",
  "POST /graphql",
  "POST /v2/:endpointId/cancel/:jobId",
  "POST /v2/:endpointId/purge-queue",
  "POST /v2/:endpointId/retry/:jobId",
  "POST /v2/:endpointId/run",
  "POST /v2/:endpointId/runsync",
];

/** A client clock on the emulator's frozen clock: a sleep moves emulator time instead of waiting. */
function emulatorTime(emu: RunningEmulator): Clock {
  return {
    now: () => emu.control.now(),
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      await new Promise((resolve) => setImmediate(resolve));
      emu.control.advance(Math.max(0, ms));
    },
  };
}

let emu: RunningEmulator;
let proxy: ConformanceProxy;
let ctx: FlowContext;
const savedEnv = { ...process.env };

beforeAll(async () => {
  const validator = DescriptionValidator.load();
  emu = await emulatorLib.startEmulator({
    clockScale: 0,
    randomSeed: 41,
    rateLimit: [{ name: "minute", quota: 100_000, seconds: 60 }],
  });
  proxy = await startConformanceProxy(emu, validator);
  const urls = { baseUrl: proxy.baseUrl, restUrl: proxy.restUrl, serverlessUrl: proxy.serverlessUrl };
  const { providers } = useRuntime({ apiKey: emu.apiKey, ...urls, clock: emulatorTime(emu) });
  const env = {
    RUNPOD_API_KEY: emu.apiKey,
    RUNPOD_BASE_URL: proxy.baseUrl,
    RUNPOD_REST_URL: proxy.restUrl,
    RUNPOD_SERVERLESS_URL: proxy.serverlessUrl,
  };
  // Outside a Pulumi program the catalog and job functions read RUNPOD_* variables.
  Object.assign(process.env, env);
  const clock = emulatorTime(emu);
  const api = new clientLib.RunpodApi(
    new clientLib.RunpodClient(
      clientLib.resolveSettings(() => undefined, env),
      { clock },
    ),
  );
  const addresses = { base: proxy.baseUrl, rest: proxy.restUrl, serverless: proxy.serverlessUrl };
  ctx = {
    emu,
    api,
    raw: async (surface, method, path, options = {}) => {
      const answer = await raw(`${addresses[surface]}${path}`, {
        method,
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        ...(options.contentType ? { headers: { "content-type": options.contentType } } : {}),
        ...(options.key === undefined ? {} : { key: options.key }),
      });
      return { status: answer.status, body: answer.body };
    },
    cli: (args) => runCli(args, env),
    providers,
  };
});

afterAll(async () => {
  process.env = savedEnv;
  if (proxy) writeReportIfAsked(proxy.exchanges);
  await proxy?.close();
  await emu?.close();
});

describe("every flow's requests and answers match the description", () => {
  it.each(FLOWS.map((flow) => [`${flow.via}: ${flow.name}`, flow] as const))("%s", async (_name, flow) => {
    const from = proxy.exchanges.length;
    await flow.run(ctx);
    const seen = proxy.exchanges.slice(from);
    const violations = violationsOf(seen);
    expect(
      violations.map(({ request: _request, ...v }) => v),
      formatViolations(violations),
    ).toEqual([...(flow.expectedViolations ?? []), ...(flow.knownViolations ?? [])]);
    expect(keysOf(seen, "validated")).toEqual([...flow.operations].sort());
  });
});

describe("what the flows cover", () => {
  it("every operation of the description, through one flow or another", () => {
    const exercised = new Set(keysOf(proxy.exchanges, "validated"));
    const missing = DescriptionValidator.load()
      .operations()
      .map((op) => op.operationId)
      .filter((id) => !exercised.has(id));
    expect(missing).toEqual([]);
  });
});

describe("what the description does not cover", () => {
  it("the routes still called on /v1 are exactly these (the list must become empty)", () => {
    expect(keysOf(proxy.exchanges, "legacy-v1")).toEqual(STILL_V1);
  });

  it("the routes with no path in the description are exactly these", () => {
    expect(keysOf(proxy.exchanges, "not-in-description")).toEqual(NOT_IN_DESCRIPTION);
  });
});
