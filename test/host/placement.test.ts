/**
 * Placement over a real HTTP server: a failure the client has already retried is not retried
 * again by placement (docs/retries.md), and the failure says which answer decided it by code.
 */
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { PlacementError } from "../../provider/host/placement.js";
import { clientLib, loadDist } from "../support/dist.js";
import { rejection } from "../support/emulator.js";
import { RecordingClock } from "../support/fake-clock.js";
import {
  json,
  podBody,
  problem,
  type ScriptedServer,
  startScriptedServer,
} from "../support/scripted-server.js";

const { RunpodClient, RunpodApi, resolveSettings, RateLimitBudget, ERROR_CODES } = clientLib;
const { placePod, isPlacementError } = loadDist<typeof import("../../provider/host/placement.js")>(
  "provider/host/placement.js",
);

const RETRIES = 2;
const CREATE_KEY = "0123456789abcdef0123456789abcdef";
const BODY = { name: "trainer", image: "img:1", gpu: { id: "NVIDIA A40", count: 1 } };
const CANDIDATES = [
  { dataCenterId: "US-TX-3", gpuTypeId: "NVIDIA A40" },
  { dataCenterId: "EU-RO-1", gpuTypeId: "NVIDIA A40" },
];

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function placementContext(url: string) {
  const clock = new RecordingClock();
  const settings = resolveSettings(
    (k) =>
      ({
        "runpod:apiKey": "rpa_PLACEMENT_TEST_KEY_123456",
        "runpod:baseUrl": url,
        "runpod:serverlessUrl": url,
      })[k],
    {},
  );
  const client = new RunpodClient(settings, {
    clock,
    budget: new RateLimitBudget(clock),
    retry: { retries: RETRIES, minTimeoutMs: 1, maxTimeoutMs: 2, randomize: false },
  });
  // The pods a scripted server answers carry no create key: none is this create's.
  return {
    api: new RunpodApi(client),
    clock,
    claimed: new Set<string>(),
    isOwnPod: (pod: { env: Record<string, string> }) => pod.env.RUNPOD_DYNAMIC_CREATE_KEY === CREATE_KEY,
  };
}

/** An address nothing listens on: a connection to it is refused, so no request ever leaves. */
async function closedPort(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe("placement retries nothing the client retried", () => {
  it("a create that could not be sent stops placement: no resend, no next candidate", async () => {
    const ctx = placementContext(await closedPort());
    const err = (await rejection(placePod(ctx, BODY, CANDIDATES))) as PlacementError;
    expect([
      isPlacementError(err),
      err.code,
      err.answerCode,
      err.attempts,
      err.tried.map((a) => [a.candidate.dataCenterId, a.status, a.next]),
      ctx.clock.sleeps,
    ]).toEqual([
      true,
      ERROR_CODES.PLACEMENT_FAILED,
      ERROR_CODES.NETWORK,
      // The client's own attempts: the first and its retries.
      RETRIES + 1,
      [["US-TX-3", "network", "stopping: the request could not be sent, after the client's retries"]],
      // Placement waited for nothing: no resend.
      [],
    ]);
  });

  it("a look-up after an unanswered create is the client's to retry: it fails after the client's attempts", async () => {
    // The create answers 503 (a POST, never retried by the client; it may have landed), then every
    // list of the account's pods answers 503 too.
    server = await startScriptedServer([problem(503, "Unavailable", "down")]);
    const ctx = placementContext(server.url);
    const err = (await rejection(placePod(ctx, BODY, CANDIDATES))) as PlacementError;
    expect([
      err.code,
      err.answerCode,
      server.requests.map((r) => `${r.method} ${r.url.split("?")[0]}`),
      err.message.includes("looking for the pod it may have made failed too"),
    ]).toEqual([
      ERROR_CODES.PLACEMENT_FAILED,
      ERROR_CODES.SERVER_ERROR,
      ["POST /v2/pods", ...Array.from({ length: RETRIES + 1 }, () => "GET /v2/pods")],
      true,
    ]);
  });

  it("a 503 on a create whose look-up finds nothing sends the same candidate again", async () => {
    server = await startScriptedServer((n) =>
      n === 0
        ? problem(503, "Unavailable", "down")
        : n === 1
          ? json(200, { pods: [] })
          : json(201, podBody("pod-1", { status: "PROVISIONING", dataCenterId: "US-TX-3" })),
    );
    const ctx = placementContext(server.url);
    const placed = await placePod(ctx, BODY, CANDIDATES);
    expect([
      placed.pod.id,
      placed.candidate.dataCenterId,
      server.requests.map((r) => `${r.method} ${r.url.split("?")[0]}`),
      JSON.parse(server.requests[2]?.body ?? "{}").dataCenterIds,
    ]).toEqual(["pod-1", "US-TX-3", ["POST /v2/pods", "GET /v2/pods", "POST /v2/pods"], ["US-TX-3"]]);
  });
});
