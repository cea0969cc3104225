/** The emulator's wiring: rate limits, faults, bad input, the request log and the HTTP control plane. */
import { afterEach, describe, expect, it } from "vitest";
import { clientLib } from "../support/dist.js";
import { apiFor, emulatorLib, frozenEmulator, type RunningEmulator, rejection } from "../support/emulator.js";
import { raw } from "../support/http.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";

const { ERROR_CODES } = clientLib;
let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

const gpuPod = { name: "p", image: "img:1", gpu: { id: "NVIDIA A40" } };

describe("rate limits per user", () => {
  const twoWindows = [
    { name: "minute", quota: 3, seconds: 60 },
    { name: "hour", quota: 100, seconds: 3600 },
  ];

  it("sends RateLimit and RateLimit-Policy on every authenticated response, and 429 past the quota", async () => {
    emu = await emulatorLib.startEmulator({ clockScale: 0, rateLimit: twoWindows });
    const url = `${emu.baseUrl}/v2/pods`;
    const first = await raw(url);
    const notFound = await raw(`${emu.baseUrl}/v2/pods/nope`);
    await raw(url);
    const limited = await raw(url);
    expect([first.status, first.headers.get("ratelimit"), first.headers.get("ratelimit-policy")]).toEqual([
      200,
      '"minute";r=2;t=60, "hour";r=99;t=3600',
      '"minute";q=3;w=60, "hour";q=100;w=3600',
    ]);
    expect([notFound.status, notFound.headers.get("ratelimit")]).toEqual([
      404,
      '"minute";r=1;t=60, "hour";r=98;t=3600',
    ]);
    expect([limited.status, limited.headers.get("retry-after"), limited.body.detail]).toEqual([
      429,
      "60",
      "Rate limit exceeded for the minute window (3 requests per 60 s). Retry after 60 s.",
    ]);
    emu.control.advance(45_000);
    expect((await raw(url)).headers.get("retry-after")).toBe("15");
    emu.control.advance(15_000);
    expect((await raw(url)).status).toBe(200);
  });

  it("counts every key of one user on the same windows: RateLimit goes down across keys, and 429 on the second key", async () => {
    emu = await emulatorLib.startEmulator({ clockScale: 0, control: true, rateLimit: twoWindows });
    // Keys added through the HTTP control plane, as a benchmark adds them.
    for (const key of ["rpa_ALICE_FIRST_KEY_0000000000", "rpa_ALICE_SECOND_KEY_000000000"]) {
      const added = await raw(`${emu.baseUrl}/__emulator/keys`, {
        method: "POST",
        body: JSON.stringify({ key, userId: "user_alice" }),
        key: null,
      });
      expect(added.status).toBe(200);
    }
    const url = `${emu.baseUrl}/v2/pods`;
    const answers = [];
    for (const key of ["FIRST_KEY_0000000000", "SECOND_KEY_000000000", "FIRST_KEY_0000000000"]) {
      answers.push(await raw(url, { key: `rpa_ALICE_${key}` }));
    }
    const second = await raw(url, { key: "rpa_ALICE_SECOND_KEY_000000000" });
    expect(answers.map((a) => [a.status, a.headers.get("ratelimit")])).toEqual([
      [200, '"minute";r=2;t=60, "hour";r=99;t=3600'],
      [200, '"minute";r=1;t=60, "hour";r=98;t=3600'],
      [200, '"minute";r=0;t=60, "hour";r=97;t=3600'],
    ]);
    expect([second.status, second.headers.get("retry-after"), second.headers.get("ratelimit")]).toEqual([
      429,
      "60",
      '"minute";r=0;t=60, "hour";r=97;t=3600',
    ]);
  });

  it("keeps two users apart: one user's used window leaves another's full", async () => {
    emu = await emulatorLib.startEmulator({ clockScale: 0, rateLimit: twoWindows });
    emu.control.addApiKey("rpa_BOB_KEY_000000000000000000", [], { userId: "user_bob" });
    const url = `${emu.baseUrl}/v2/pods`;
    // The seed's default and limited keys are both the default user's.
    for (const key of [
      emulatorLib.DEFAULT_API_KEY,
      emulatorLib.LIMITED_API_KEY,
      emulatorLib.DEFAULT_API_KEY,
    ]) {
      expect((await raw(url, { key })).status).toBe(200);
    }
    const limited = await raw(url, { key: emulatorLib.LIMITED_API_KEY });
    const bob = await raw(url, { key: "rpa_BOB_KEY_000000000000000000" });
    expect([limited.status, bob.status, bob.headers.get("ratelimit")]).toEqual([
      429,
      200,
      '"minute";r=2;t=60, "hour";r=99;t=3600',
    ]);
  });

  it("leaves a user's exempt key outside the windows: no headers, nothing counted", async () => {
    emu = await emulatorLib.startEmulator({ clockScale: 0, rateLimit: twoWindows });
    const url = `${emu.baseUrl}/v2/pods`;
    const exempt = [];
    for (let i = 0; i < 4; i += 1) exempt.push(await raw(url, { key: emulatorLib.EXEMPT_API_KEY }));
    const counted = await raw(url);
    expect(
      exempt.map((a) => [a.status, a.headers.get("ratelimit"), a.headers.get("ratelimit-policy")]),
    ).toEqual(Array(4).fill([200, null, null]));
    expect([counted.status, counted.headers.get("ratelimit")]).toEqual([
      200,
      '"minute";r=2;t=60, "hour";r=99;t=3600',
    ]);
  });

  it("keeps the real client inside the quota: it waits instead of collecting 429s", async () => {
    emu = await emulatorLib.startEmulator({
      clockScale: 60,
      rateLimit: [{ name: "minute", quota: 5, seconds: 60 }],
    });
    const scaled = clientLib.scaledClock(60, emu.control.now());
    const settings = clientLib.resolveSettings(() => undefined, emu.env());
    const api = new clientLib.RunpodApi(new clientLib.RunpodClient(settings, { clock: scaled }));
    for (let i = 0; i < 8; i += 1) await api.pods.list();
    const { byStatus } = emu.control.requests().summary;
    expect(byStatus).toEqual({ "200": 8 });
  });
});

describe("fault rules", () => {
  it("answers a status for the next N matching requests, with Retry-After", async () => {
    ({ emu } = await frozenEmulator());
    emu.control.addFault({ method: "GET", path: "^/v2/pods$", status: 503, times: 2 });
    emu.control.addFault({ method: "GET", path: "^/v2/catalog", status: 429, retryAfter: 7, times: 1 });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await raw(`${emu.baseUrl}/v2/pods`)).status);
    const limited = await raw(`${emu.baseUrl}/v2/catalog/gpus`);
    expect([statuses, limited.status, limited.headers.get("retry-after")]).toEqual([
      [503, 503, 200],
      429,
      "7",
    ]);
  });

  it("drops the connection before a create (nothing happens) or after it (the pod exists)", async () => {
    let api: ReturnType<typeof apiFor>;
    ({ emu, api } = await frozenEmulator({ seed: WITHOUT_HISTORY_RESOURCES }));
    emu.control.addFault({ method: "POST", path: "^/v2/pods$", reset: "before", times: 1 });
    const before = await rejection(api.pods.create(gpuPod));
    const afterBefore = (await api.pods.list()).length;
    emu.control.addFault({ method: "POST", path: "^/v2/pods$", reset: "after", times: 1 });
    const after = await rejection(api.pods.create(gpuPod));
    const pods = await api.pods.list();
    expect([before.code, before.outcome, afterBefore, after.code, pods.length]).toEqual([
      ERROR_CODES.NETWORK,
      "unknown",
      0,
      ERROR_CODES.NETWORK,
      1,
    ]);
  });

  it("applies probabilistic rules repeatably for one random seed", async () => {
    const run = async () => {
      const e = await emulatorLib.startEmulator({
        clockScale: 0,
        randomSeed: 42,
        rateLimit: [{ name: "m", quota: 1000, seconds: 60 }],
      });
      e.control.addFault({ path: "^/v2/pods$", status: 500, probability: 0.3 });
      const out: number[] = [];
      for (let i = 0; i < 30; i += 1) out.push((await raw(`${e.baseUrl}/v2/pods`)).status);
      await e.close();
      return out;
    };
    const [a, b] = [await run(), await run()];
    const failures = a.filter((s) => s === 500).length;
    expect(a).toEqual(b);
    expect(failures).toBeGreaterThan(3);
    expect(failures).toBeLessThan(20);
  });

  it("forgets rules and counts on reset; clearing the rules keeps the counts", async () => {
    ({ emu } = await frozenEmulator({ control: true }));
    emu.control.addFault({ method: "GET", path: "^/v2/pods$", status: 503 });
    await raw(`${emu.baseUrl}/v2/pods`);
    emu.control.clearFaults();
    const cleared = emu.control.snapshot().faultsApplied;
    const served = (await raw(`${emu.baseUrl}/v2/pods`)).status;
    emu.control.addFault({ method: "GET", path: "^/v2/pods$", status: 502 });
    await raw(`${emu.baseUrl}/v2/pods`);
    emu.control.reset();
    const faults = await raw(`${emu.baseUrl}/__emulator/faults`, { key: null });
    expect([cleared, served, emu.control.snapshot().faultsApplied, faults.body]).toEqual([
      { "status-503": 1 },
      200,
      {},
      { rules: [], applied: {} },
    ]);
    expect((await raw(`${emu.baseUrl}/v2/pods`)).status).toBe(200);
  });

  it("adds latency past a client's deadline", async () => {
    ({ emu } = await frozenEmulator());
    emu.control.addFault({ method: "GET", path: "^/v2/pods/", latencyMs: 400, times: 1 });
    const settings = clientLib.resolveSettings(() => undefined, emu.env());
    const api = new clientLib.RunpodApi(
      new clientLib.RunpodClient(settings, {
        deadlineMs: 100,
        retry: { retries: 0, minTimeoutMs: 1, randomize: false },
      }),
    );
    const err = await rejection(api.pods.get("x"));
    expect(err.code).toBe(ERROR_CODES.TIMEOUT);
  });
});

describe("bad input never crashes the emulator", () => {
  it.each([
    [
      "malformed JSON",
      { method: "POST", body: "{oops" },
      "/v2/pods",
      400,
      "The request body is not valid JSON.",
    ],
    [
      "wrong content type",
      { method: "POST", body: "name=x", headers: { "content-type": "text/plain" } },
      "/v2/pods",
      415,
      "Expected Content-Type application/json, got text/plain.",
    ],
    ["an unknown route", { method: "GET" }, "/v2/nothing-here", 404, "No route for GET /v2/nothing-here."],
    ["a wrong method", { method: "PUT" }, "/v2/pods", 405, "PUT is not allowed on /v2/pods."],
    [
      "a JSON array body",
      { method: "POST", body: "[1,2]" },
      "/v2/pods",
      422,
      "Request body does not match the contract.",
    ],
    [
      "a huge body elsewhere",
      { method: "PUT", body: JSON.stringify({ keys: ["x".repeat(2_000_000)] }) },
      "/v2/account/ssh-keys",
      413,
      "The request body is 2000013 bytes, over the 1048576-byte limit.",
    ],
  ])("%s", async (_name, init, path, status, detail) => {
    ({ emu } = await frozenEmulator());
    const res = await raw(`${emu.baseUrl}${path}`, init);
    expect([res.status, res.body.detail, res.headers.get("content-type")]).toEqual([
      status,
      detail,
      "application/problem+json",
    ]);
    expect((await raw(`${emu.baseUrl}/v2/pods`)).status).toBe(200);
  });

  it("treats a path parameter with malformed percent-encoding as no route: auth first, then 404, logged", async () => {
    ({ emu } = await frozenEmulator());
    const path = "/v2/pods/%E0%A4%A";
    const anonymous = await raw(`${emu.baseUrl}${path}`, { key: null });
    const get = await raw(`${emu.baseUrl}${path}`);
    const patch = await raw(`${emu.baseUrl}${path}`, { method: "PATCH", body: "{}" });
    expect([
      [anonymous.status, anonymous.body.detail],
      [get.status, get.body.detail, get.headers.get("ratelimit") !== null],
      [patch.status, patch.body.detail],
    ]).toEqual([
      [401, "Missing bearer token in the Authorization header."],
      [404, `No route for GET ${path}.`, true],
      [404, `No route for PATCH ${path}.`],
    ]);
    expect(emu.control.requests().entries.map((e) => [e.route, e.path, e.status])).toEqual([
      ["GET (unmatched)", path, 401],
      ["GET (unmatched)", path, 404],
      ["PATCH (unmatched)", path, 404],
    ]);
    expect((await raw(`${emu.baseUrl}/v2/pods/a%20b`)).body.detail).toBe("Pod 'a b' was not found.");
  });

  it("answers 405 with an Allow header", async () => {
    ({ emu } = await frozenEmulator());
    const res = await raw(`${emu.baseUrl}/v2/pods/abc`, { method: "POST", body: "{}" });
    expect([res.status, res.headers.get("allow")]).toEqual([405, "GET, PATCH, DELETE"]);
  });
});

describe("request log", () => {
  it("counts per route and per status", async () => {
    let api: ReturnType<typeof apiFor>;
    ({ emu, api } = await frozenEmulator());
    const pod = await api.pods.create(gpuPod);
    await api.pods.get(pod.id);
    await api.pods.get(pod.id);
    await rejection(api.pods.get("missing"));
    expect(emu.control.requests().summary).toEqual({
      total: 4,
      byRoute: { "POST /v2/pods": 1, "GET /v2/pods/:id": 3 },
      byStatus: { "201": 1, "200": 2, "404": 1 },
    });
  });
});

describe("rate-limit policy changes", () => {
  it("start every key over and announce the new windows", async () => {
    ({ emu } = await frozenEmulator());
    const url = `${emu.baseUrl}/v2/pods`;
    await raw(url);
    emu.control.setRateLimitPolicy([
      { name: "burst", quota: 2, seconds: 10 },
      { name: "minute", quota: 5, seconds: 60 },
    ]);
    const first = await raw(url);
    await raw(url);
    const limited = await raw(url);
    expect([
      first.headers.get("ratelimit"),
      first.headers.get("ratelimit-policy"),
      limited.status,
      limited.headers.get("ratelimit-policy"),
    ]).toEqual([
      '"burst";r=1;t=10, "minute";r=4;t=60',
      '"burst";q=2;w=10, "minute";q=5;w=60',
      429,
      '"burst";q=2;w=10, "minute";q=5;w=60',
    ]);
  });
});

describe("control plane over HTTP", () => {
  it("is off unless enabled", async () => {
    ({ emu } = await frozenEmulator());
    expect((await raw(`${emu.baseUrl}/__emulator/state`, { key: null })).status).toBe(401);
    const withKey = await raw(`${emu.baseUrl}/__emulator/state`);
    expect([withKey.status, withKey.body.detail]).toEqual([404, "No route for GET /__emulator/state."]);
  });

  it("answers 404 for a pod id with malformed percent-encoding", async () => {
    ({ emu } = await frozenEmulator({ control: true }));
    const res = await raw(`${emu.baseUrl}/__emulator/pods/%E0%A4%A/status`, {
      method: "POST",
      key: null,
      body: JSON.stringify({ status: "ERROR" }),
    });
    expect([res.status, res.body.detail]).toEqual([404, "No control route POST /pods/%E0%A4%A/status."]);
  });

  it("moves the clock, sets capacity and settings, forces a status and reports state", async () => {
    ({ emu } = await frozenEmulator({ control: true, seed: WITHOUT_HISTORY_RESOURCES }));
    const api = apiFor(emu);
    const c = (method: string, path: string, body?: unknown) =>
      raw(`${emu?.baseUrl}/__emulator${path}`, {
        method,
        key: null,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const t0 = (await c("GET", "/clock")).body.now as number;
    await c("PUT", "/capacity", { dataCenterId: "US-KS-2", gpuTypeId: "NVIDIA A40", free: 0 });
    await c("PUT", "/capacity", { dataCenterId: "EU-RO-1", gpuTypeId: "NVIDIA A40", free: 0 });
    const full = await rejection(api.pods.create(gpuPod));
    await c("PUT", "/capacity", { dataCenterId: "US-KS-2", gpuTypeId: "NVIDIA A40", free: 3 });
    await c("PUT", "/settings", { provisioningMs: 10, startingMs: 10 });
    const pod = await api.pods.create(gpuPod);
    const moved = await c("POST", "/clock", { advanceMs: 25 });
    const running = await api.pods.get(pod.id);
    const forced = await c("POST", `/pods/${pod.id}/status`, { status: "ERROR" });
    const state = await c("GET", "/state");
    const bad = await c("PUT", "/settings", { errorShare: 2 });
    expect([full.status, moved.body.now, running.status, forced.body.status]).toEqual([
      400,
      t0 + 25,
      "RUNNING",
      "ERROR",
    ]);
    expect([(state.body.pods as unknown[]).length, bad.status]).toEqual([3, 400]);
  });
});
