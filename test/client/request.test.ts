import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../harness/pulumi-cli.js";
import type { RunpodApiError } from "../../provider/client/errors.js";
import { clientLib } from "../support/dist.js";
import { rejection } from "../support/emulator.js";
import { RecordingClock } from "../support/fake-clock.js";
import {
  hang,
  json,
  problem,
  raw,
  reset,
  type ScriptedServer,
  type Step,
  startScriptedServer,
} from "../support/scripted-server.js";
import { jsonBytes, POD_REQUEST_LIMIT, paddedTo } from "../support/seed-facts.js";

const { RunpodClient, RunpodApi, resolveSettings, RateLimitBudget, ERROR_CODES } = clientLib;

const TOKEN = "rpa_TESTTOKEN_never_print_me_123456";
const POD = {
  id: "pod-1",
  name: "trainer",
  status: "PROVISIONING",
  actions: ["stop", "terminate"],
  image: "img:1",
  args: "",
  disk: 20,
  mounts: {},
  ports: [],
  env: {},
  registry: null,
  gpu: { id: "NVIDIA A40", count: 1, vcpuCount: 8, memory: 48 },
  cloud: "SECURE",
  dataCenterId: null,
  cudaVersion: null,
  ssh: { proxy: null, direct: null },
  template: null,
  cost: 0.4,
  locked: false,
  globalNetworking: { enabled: false },
  runtime: null,
  createdAt: "2026-11-21T00:00:00Z",
  startedAt: null,
};

let server: ScriptedServer | undefined;
const errorsSeen: string[] = [];

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(
  script: readonly Step[],
  extra: { teamId?: string; deadlineMs?: number; retries?: number } = {},
) {
  server = await startScriptedServer(script);
  const clock = new RecordingClock();
  const settings = resolveSettings(
    (k) =>
      ({
        "runpod:apiKey": TOKEN,
        "runpod:baseUrl": server?.url,
        "runpod:restUrl": server?.url,
        "runpod:serverlessUrl": server?.url,
        "runpod:teamId": extra.teamId,
      })[k],
    {},
  );
  const client = new RunpodClient(settings, {
    clock,
    budget: new RateLimitBudget(clock),
    retry: {
      minTimeoutMs: 1,
      maxTimeoutMs: 2,
      randomize: false,
      ...(extra.retries === undefined ? {} : { retries: extra.retries }),
    },
    ...(extra.deadlineMs ? { deadlineMs: extra.deadlineMs } : {}),
  });
  return { api: new RunpodApi(client), clock, server };
}

/** The RunpodApiError `p` rejects with, kept for the scan of every error for the token. */
async function failure(p: Promise<unknown>): Promise<RunpodApiError> {
  const err = await rejection(p);
  errorsSeen.push(err.message, JSON.stringify(err), String(err.stack));
  return err;
}

describe("retry policy over a real server", () => {
  it("retries a 500 and returns the 200", async () => {
    const { api, server } = await setup([problem(500, "Internal", "boom"), json(200, POD)]);
    const pod = await api.pods.get("pod-1");
    expect([pod.id, server.requests.length]).toEqual(["pod-1", 2]);
  });

  it("gives up after five 503s with a typed error", async () => {
    const { api, server } = await setup([problem(503, "Unavailable", "try later")]);
    const err = await failure(api.pods.get("pod-1"));
    expect([err.code, err.status, err.attempts, server.requests.length]).toEqual([
      ERROR_CODES.SERVER_ERROR,
      503,
      5,
      5,
    ]);
  });

  it("does not retry a 422 and surfaces errors[]", async () => {
    const errors = ["$: additional properties 'bogus' not allowed", "$.disk: must be >= 1"];
    const { api, server } = await setup([problem(422, "Unprocessable Entity", "validation failed", errors)]);
    const err = await failure(api.pods.update("pod-1", { name: "x" }));
    expect([err.code, err.errors, server.requests.length]).toEqual([ERROR_CODES.UNPROCESSABLE, errors, 1]);
    expect(err.message).toContain("additional properties 'bogus' not allowed");
  });

  it.each([
    [401, ERROR_CODES.UNAUTHORIZED, /RUNPOD_API_KEY/],
    [402, ERROR_CODES.PAYMENT_REQUIRED, /add funds/],
    [403, ERROR_CODES.FORBIDDEN, /no access/],
    [404, ERROR_CODES.NOT_FOUND, /does not exist/],
    [409, ERROR_CODES.CONFLICT, /cluster member/],
    [400, ERROR_CODES.BAD_REQUEST, /rejected the request/],
  ])("never retries %i and says what to do", async (status, code, advice) => {
    const { api, server } = await setup([problem(status, "Nope", "detail text")]);
    const err = await failure(api.pods.get("pod-1"));
    expect([err.code, err.status, server.requests.length]).toEqual([code, status, 1]);
    expect(err.message).toMatch(advice);
  });

  it("waits Retry-After on 429, then succeeds", async () => {
    const { api, clock, server } = await setup([
      problem(429, "Too Many Requests", "minute window exceeded", undefined, { "retry-after": "1" }),
      json(200, POD),
    ]);
    await api.pods.get("pod-1");
    expect([server.requests.length, clock.sleeps]).toEqual([2, [1000]]);
  });

  it("retries a 429 on a creating POST too (it was not processed)", async () => {
    const { api, clock, server } = await setup([
      problem(429, "Too Many Requests", "minute window exceeded", undefined, { "retry-after": "3" }),
      json(201, POD),
    ]);
    await api.pods.create({ name: "trainer", image: "img:1", gpu: { id: "NVIDIA A40" } });
    expect([server.requests.length, clock.sleeps]).toEqual([2, [3000]]);
  });

  it("waits out a 429 that comes after every backoff retry was used", async () => {
    const { api, clock, server } = await setup([
      ...Array.from({ length: 4 }, () => problem(503, "Unavailable", "try later")),
      problem(429, "Too Many Requests", "minute window exceeded", undefined, { "retry-after": "2" }),
      json(200, POD),
    ]);
    const pod = await api.pods.get("pod-1");
    expect([pod.id, server.requests.length, clock.sleeps]).toEqual(["pod-1", 6, [2000]]);
  });

  it("fails clearly when Retry-After exceeds the cap", async () => {
    const { api, clock, server } = await setup([
      problem(429, "Too Many Requests", "hour window exceeded", undefined, { "retry-after": "3400" }),
    ]);
    const err = await failure(api.pods.get("pod-1"));
    expect([err.code, err.retryAfterSeconds, server.requests.length, clock.sleeps]).toEqual([
      ERROR_CODES.RATE_LIMITED,
      3400,
      1,
      [],
    ]);
    expect(err.message).toMatch(/asks to wait 3400 s, more than the 90 s/);
  });

  it("makes the next request wait when RateLimit says r=0", async () => {
    const headers = { ratelimit: '"minute";r=0;t=2', "ratelimit-policy": '"minute";q=60;w=60' };
    const { api, clock, server } = await setup([json(200, POD, headers), json(200, POD)]);
    await api.pods.get("pod-1");
    expect(clock.sleeps).toEqual([]);
    await api.pods.get("pod-1");
    expect([server.requests.length, clock.sleeps]).toEqual([2, [2000]]);
  });

  it("retries a connection reset on GET", async () => {
    const { api, server } = await setup([reset, json(200, POD)]);
    await api.pods.get("pod-1");
    expect(server.requests.length).toBe(2);
  });

  it("does not retry a connection reset on a creating POST, and says the outcome is unknown", async () => {
    const { api, server } = await setup([reset, json(201, POD)]);
    const err = await failure(
      api.pods.create({ name: "trainer", image: "img:1", gpu: { id: "NVIDIA A40" } }),
    );
    expect([err.code, err.outcome, server.requests.length]).toEqual([ERROR_CODES.NETWORK, "unknown", 1]);
  });

  it("fails a response that never finishes with a deadline error", async () => {
    const { api, server } = await setup([hang], { deadlineMs: 150, retries: 1 });
    const err = await failure(api.pods.get("pod-1"));
    expect([err.code, err.attempts, server.requests.length]).toEqual([ERROR_CODES.TIMEOUT, 2, 2]);
    expect(err.message).toContain("no complete response within 150 ms");
  });

  it("turns a 2xx with the wrong shape into a typed error", async () => {
    const { api, server } = await setup([json(200, { id: "pod-1", status: "RUNNING" })]);
    const err = await failure(api.pods.get("pod-1"));
    expect([err.code, server.requests.length]).toEqual([ERROR_CODES.INVALID_RESPONSE, 1]);
    expect(err.message).toMatch(/\$\.name: /);
  });

  it.each([
    ["invalid JSON", raw(200, "application/json", "{not json"), /not valid JSON/],
    ["a 200 with a problem body", problem(200, "Bad", "looks like an error"), /carried an error body/],
    ["HTML", raw(200, "text/html", "<html></html>"), /expected JSON, got text\/html/],
    ["a 201 without an id", json(201, { ...POD, id: undefined }), /\$\.id/],
    ["an unknown status value", json(200, { ...POD, status: "HIBERNATING" }), /\$\.status/],
  ])("reports %s as an invalid response", async (_name, step, message) => {
    const { api } = await setup([step]);
    const err = await failure(api.pods.get("pod-1"));
    expect(err.code).toBe(ERROR_CODES.INVALID_RESPONSE);
    expect(err.message).toMatch(message);
  });

  it("refuses a body over 102400 bytes before sending it", async () => {
    const { api, server } = await setup([json(201, POD)]);
    const env = { BIG: "x".repeat(110_000) };
    const err = await failure(
      api.pods.create({ name: "big", image: "img:1", gpu: { id: "NVIDIA A40" }, env }),
    );
    expect([err.code, err.outcome, server.requests.length]).toEqual([
      ERROR_CODES.PAYLOAD_TOO_LARGE,
      "not-sent",
      0,
    ]);
    expect(err.message).toMatch(/reduce the JSON body, environment variables or command values/);
    expect(err.message).not.toContain("xxxx");
  });

  it("sends a body of exactly 102400 bytes as compact UTF-8 JSON, and refuses 102401 naming its size", async () => {
    const { api, server } = await setup([json(201, POD)]);
    // "é" is two bytes: the limit counts bytes, not characters.
    const body = (bytes: number) =>
      paddedTo(bytes, (pad) => ({
        name: "p",
        image: "img:1",
        gpu: { id: "NVIDIA A40" },
        env: { A: "é", PAD: pad },
      }));
    await api.pods.create(body(POD_REQUEST_LIMIT));
    const err = await failure(api.pods.create(body(POD_REQUEST_LIMIT + 1)));
    expect([
      server.requests.map((r) => Buffer.byteLength(r.body)),
      jsonBytes(body(POD_REQUEST_LIMIT + 1)),
      err.code,
      err.outcome,
      err.message,
    ]).toEqual([
      [POD_REQUEST_LIMIT],
      POD_REQUEST_LIMIT + 1,
      ERROR_CODES.PAYLOAD_TOO_LARGE,
      "not-sent",
      "POST /v2/pods: the request body is 102401 bytes, over the 102400-byte limit; it was not sent. A pod create's body, and the request it expands to with its template, may each be 102400 bytes at most; reduce the JSON body, environment variables or command values in the request or the template.",
    ]);
  });

  it("sends a secret's value over 102400 bytes: the pods' limit is not the secrets routes'", async () => {
    const answer = { id: "s1", name: "big", createdAt: "2026-11-21T00:00:00Z", valueLastUpdatedAt: null };
    const { api, server } = await setup([json(201, answer)]);
    const value = "v".repeat(200_000);
    const created = await api.secrets.create({ name: "big", value });
    expect([created.id, server.requests.length, JSON.parse(server.requests[0]?.body ?? "{}").value]).toEqual([
      "s1",
      1,
      value,
    ]);
  });

  it("refuses a secret of 16 MiB of UTF-8 or more before sending it, without quoting it", async () => {
    const { api, server } = await setup([json(201, {})]);
    const err = await failure(api.secrets.create({ name: "big", value: "é".repeat(8 * 1024 * 1024) }));
    expect([err.code, err.outcome, server.requests.length, err.errors]).toEqual([
      ERROR_CODES.INVALID_REQUEST,
      "not-sent",
      0,
      ["$.value: must be smaller than 16 MiB of UTF-8"],
    ]);
    expect(err.message).not.toContain("éé");
  });

  it("refuses a body that breaks the strict schema before sending it, naming the field", async () => {
    const { api, server } = await setup([json(201, POD)]);
    const body = { name: "p", image: "img:1", gpu: { id: "NVIDIA A40", count: 0 } };
    const err = await failure(api.pods.create(body));
    expect([err.code, server.requests.length, err.errors]).toEqual([
      ERROR_CODES.INVALID_REQUEST,
      0,
      ["$.gpu.count: Too small: expected number to be >=1"],
    ]);
  });

  it("sends Authorization, User-Agent and X-Team-Id only when configured", async () => {
    const first = await setup([json(200, POD)]);
    await first.api.pods.get("pod-1");
    const plain = first.server.requests[0]?.headers;
    await server?.close();
    const withTeam = await setup([json(200, POD)], { teamId: "team-42" });
    await withTeam.api.pods.get("pod-1");
    const team = withTeam.server.requests[0]?.headers;
    expect([plain?.authorization, plain?.["x-team-id"], team?.["x-team-id"]]).toEqual([
      `Bearer ${TOKEN}`,
      undefined,
      "team-42",
    ]);
    // The package's own version and the Node that runs it (the suite runs under several).
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
      version: string;
    };
    expect(plain?.["user-agent"]).toBe(`runpod-dynamic/${version} (node ${process.version})`);
  });

  it("redacts the token when the service echoes it", async () => {
    const { api } = await setup([problem(401, "Unauthorized", `key ${TOKEN} is invalid`)]);
    const err = await failure(api.pods.get("pod-1"));
    expect(err.detail).toBe("key [redacted] is invalid");
  });

  it("redacts a secret's value when the service echoes it, on create and on rotation", async () => {
    const value = "hf_SECRET_VALUE_never_print_2f9c";
    const echo = problem(400, "Bad Request", `value ${value} refused`, [`$.value: ${value}`]);
    const { api } = await setup([echo]);
    const created = await failure(api.secrets.create({ name: "hf-token", value }));
    const rotated = await failure(api.secrets.update("s1", { value }));
    expect([created.detail, created.errors, rotated.detail, `${created.message}${rotated.message}`]).toEqual([
      "value [redacted] refused",
      ["$.value: [redacted]"],
      "value [redacted] refused",
      expect.not.stringContaining(value),
    ]);
  });

  it("never puts the token in any error it raised", () => {
    expect(errorsSeen.length).toBeGreaterThan(20);
    for (const text of errorsSeen) expect(text).not.toContain(TOKEN);
  });
});
