/**
 * `runpod-dynamic serverless workers|releases <endpoint-id>` against the emulator
 * (`GET /v2/serverless/{id}/workers`, `GET /v2/serverless/{id}/releases`). Emulator time is frozen.
 * The scene: an endpoint of acme/app:1 with one always-on worker, moved to acme/app:2 (release 2,
 * with a new env) 10 s after its create, then given a job that starts a second worker: the first
 * runs release 1 (stale), the second release 2, the rollout is half done.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { errorText } from "../support/cli.js";
import { cliHarnessForAllTests } from "../support/cli-in-process.js";
import { START } from "../support/emulator.js";
import { appEndpoint } from "../support/seed-facts.js";

const h = cliHarnessForAllTests({ clockScale: 0, startTime: START });
let t0 = START;
beforeEach(() => {
  h.emu.control.reset();
  t0 = h.emu.control.now();
});

const SECRETS = ["hf_first_secret_value", "hf_second_secret_value"];
const RTX4090 = "NVIDIA GeForce RTX 4090";
const at = (ms: number) => new Date(t0 + ms).toISOString();
/** `at(ms)` as the tables print it, in UTC (the harness's TZ). */
const shown = (ms: number) => `${at(ms).slice(0, 10)} ${at(ms).slice(11, 16)} UTC`;

async function rolloutHalfDone() {
  const endpoint = await h.api.endpoints.create(
    appEndpoint("rolling", {
      workers: { min: 1, max: 2, idleTimeout: 60 },
      env: { HF_TOKEN: SECRETS[0] ?? "" },
    }),
  );
  h.emu.control.advance(10_000);
  await h.api.endpoints.update(endpoint.id, {
    image: "acme/app:2",
    env: { HF_TOKEN: SECRETS[1] ?? "", MODEL: "qwen" },
  });
  h.emu.control.advance(1_000);
  await h.api.jobs.run(endpoint.id, { n: 1 });
  await h.api.jobs.run(endpoint.id, { n: 2 });
  h.emu.control.advance(1_000);
  const { workers } = await h.api.endpoints.workers(endpoint.id);
  const { releases } = await h.api.endpoints.releases(endpoint.id);
  return { id: endpoint.id, workers: workers.map((w) => w.id), releases: releases.map((r) => r.id) };
}

const neverSecret = (text: string) => {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
};

describe("serverless workers", () => {
  it("prints each active worker: status, release version (stale or not), GPU, data center, uptime", async () => {
    const ep = await rolloutHalfDone();
    const json = await h.json<unknown>(["serverless", "workers", ep.id]);
    expect(h.routes()).toEqual([`base GET /v2/serverless/${ep.id}/workers`]);
    expect(json).toEqual({
      endpointId: ep.id,
      endpointVersion: 2,
      summary: { running: 2, idle: 0, initializing: 0, throttled: 0, unhealthy: 0, total: 2 },
      workers: [
        {
          id: ep.workers[0],
          status: "RUNNING",
          isStale: true,
          version: 1,
          gpuTypeId: RTX4090,
          gpuCount: 1,
          dataCenterId: "US-TX-3",
          image: "acme/app:1",
          uptimeSeconds: 7,
          startedAt: at(5_000),
        },
        {
          id: ep.workers[1],
          status: "RUNNING",
          isStale: false,
          version: 2,
          gpuTypeId: RTX4090,
          gpuCount: 1,
          dataCenterId: "US-TX-3",
          image: "acme/app:2",
          uptimeSeconds: 0,
          startedAt: at(11_500),
        },
      ],
    });
    const table = await h.run(["serverless", "workers", ep.id]);
    expect([table.code, table.stderr]).toEqual([0, ""]);
    expect(table.stdout).toBe(
      [
        "ID              STATUS   VERSION    COMPUTE                     DATA CENTER  UPTIME  STARTED",
        `${ep.workers[0]}  RUNNING  1 (stale)  1x ${RTX4090}  US-TX-3       7.0 s  ${shown(5_000)}`,
        `${ep.workers[1]}  RUNNING  2          1x ${RTX4090}  US-TX-3       0.0 s  ${shown(11_500)}`,
        "",
        "2 workers: 2 running, 0 idle, 0 initializing, 0 throttled, 0 unhealthy. The endpoint is at version 2.",
        "",
      ].join("\n"),
    );
  });

  it("says when the endpoint is scaled to zero", async () => {
    const endpoint = await h.api.endpoints.create(appEndpoint("idle"));
    const table = await h.run(["serverless", "workers", endpoint.id]);
    const json = await h.json<{ workers: unknown[]; summary: { total: number } }>([
      "serverless",
      "workers",
      endpoint.id,
    ]);
    expect([table.stdout, json.workers, json.summary.total]).toEqual([
      `No active workers: endpoint ${endpoint.id} is scaled to zero. The endpoint is at version 1.\n`,
      [],
      0,
    ]);
  });

  it("an unknown endpoint is the API's 404, exit 1", async () => {
    const res = await h.run(["serverless", "workers", "nope"]);
    expect([res.code, res.stdout, errorText(res)]).toEqual([
      1,
      "",
      expect.stringMatching(/^Error: GET \/v2\/serverless\/nope\/workers: 404 Not Found: /),
    ]);
  });
});

describe("serverless releases", () => {
  it("prints the releases newest first with what each changed, the env's keys but never its values", async () => {
    const ep = await rolloutHalfDone();
    const json = await h.run(["serverless", "releases", ep.id, "--json"]);
    expect(h.routes()).toEqual([`base GET /v2/serverless/${ep.id}/releases`]);
    neverSecret(json.stdout + json.stderr);
    const user = expect.stringMatching(/^user_/);
    expect(JSON.parse(json.stdout)).toEqual({
      endpointId: ep.id,
      endpointVersion: 2,
      rollout: { inProgress: true, workersOnLatest: 1, workersTotal: 2, percentOnLatest: 50 },
      releases: [
        {
          id: ep.releases[0],
          version: 2,
          source: "MANUAL",
          buildId: null,
          createdByUserId: user,
          workerCount: 1,
          createdAt: at(10_000),
          diff: [
            { field: "template.imageName", old: "acme/app:1", new: "acme/app:2" },
            {
              field: "template.env",
              old: { HF_TOKEN: "[redacted]" },
              new: { HF_TOKEN: "[redacted]", MODEL: "[redacted]" },
              changedKeys: ["HF_TOKEN", "MODEL"],
            },
          ],
        },
        {
          id: ep.releases[1],
          version: 1,
          source: "MANUAL",
          buildId: null,
          createdByUserId: user,
          workerCount: 1,
          createdAt: at(0),
          diff: [],
        },
      ],
    });
    const table = await h.run(["serverless", "releases", ep.id]);
    neverSecret(table.stdout + table.stderr);
    expect(table.stdout).toBe(
      [
        "VERSION  ID            SOURCE  WORKERS  CREATED               CHANGES",
        `      2  ${ep.releases[0]}  MANUAL        1  ${shown(10_000)}  template.imageName, template.env`,
        `      1  ${ep.releases[1]}  MANUAL        1  ${shown(0)}  (first release)`,
        "",
        "Rollout in progress: 1 of 2 workers on version 2 (50%).",
        "",
        "Version 2 changed:",
        '  template.imageName: "acme/app:1" -> "acme/app:2"',
        "  template.env: HF_TOKEN, MODEL changed (values not shown)",
        "",
      ].join("\n"),
    );
  });

  it("an endpoint without workers has nothing to roll out", async () => {
    const endpoint = await h.api.endpoints.create(appEndpoint("idle"));
    const res = await h.run(["serverless", "releases", endpoint.id]);
    expect(res.stdout.split("\n").slice(-2)).toEqual([
      "Rollout: no active workers; new workers start on version 1.",
      "",
    ]);
  });

  it.each([
    [["serverless", "releases"], "error: missing required argument 'endpoint-id'"],
    [
      ["serverless", "workers", " "],
      "error: command-argument value ' ' is invalid for argument 'endpoint-id'. <endpoint-id> must be between 1 and 191 characters.",
    ],
  ])("%j exits 2 before any request", async (args, message) => {
    const res = await h.run(args);
    expect([res.code, errorText(res), h.recorder.requests]).toEqual([2, message, []]);
  });
});
