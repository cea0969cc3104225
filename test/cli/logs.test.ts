/**
 * `runpod-dynamic pods logs` and `serverless logs` against the emulator's log streams
 * (`GET /v2/pods/{id}/logs`, `GET /v2/serverless/{id}/workers/{workerId}/logs`). Emulator time is
 * frozen: a followed log gets a new line only when a test moves the clock, so every line printed is
 * known. A pod of acme/app:1 on one A40 in US-KS-2 logs 8 lines through its first start, the last
 * 5.002 s after its create.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { errorText, pathOf, queryOf } from "../support/cli.js";
import { cliHarnessForAllTests } from "../support/cli-in-process.js";
import { START } from "../support/emulator.js";
import { APP_POD, appEndpoint } from "../support/seed-facts.js";

const h = cliHarnessForAllTests({ clockScale: 0, startTime: START });
/** Emulator time when the test began (a reset keeps the clock where it is). */
let t0 = START;
beforeEach(() => {
  h.emu.control.reset();
  t0 = h.emu.control.now();
});

const at = (ms: number) => new Date(t0 + ms).toISOString();
const DIGEST = "sha256:e5b64e036a824541aba96b8cf05cf4e4f4b7f8bba99078880c35140b07977841";
/** acme/app:1's first start, as [ms after the create, source, line]. */
const STARTED: [number, "system" | "container", string][] = [
  [0, "system", "create pod: 1x NVIDIA A40 in US-KS-2"],
  [2000, "system", "create container acme/app:1"],
  [2001, "system", "1: Pulling from acme/app"],
  [2002, "system", `Digest: ${DIGEST}`],
  [2003, "system", "Status: Downloaded newer image for acme/app:1"],
  [5000, "system", "start container"],
  [5001, "container", "Starting acme/app:1"],
  [5002, "container", "Ready"],
];
/** A restart 60 s after the first start: its lines, 70 s after the create. */
const RESTARTED: [number, "system" | "container", string][] = [
  [70_000, "system", "restart container"],
  [70_001, "system", "create container acme/app:1"],
  [70_002, "system", "Status: Image is up to date for acme/app:1"],
  [73_000, "system", "start container"],
  [73_001, "container", "Starting acme/app:1"],
  [73_002, "container", "Ready"],
];
const tableLine = ([ms, source, line]: [number, string, string]) => `${at(ms)}  ${source.padEnd(9)}  ${line}`;
const jsonLine = ([ms, source, line]: [number, string, string]) =>
  JSON.stringify({ ts: at(ms), source, line });
const lines = (rows: string[]) => rows.map((r) => `${r}\n`).join("");

/**
 * Resolves once the emulator has opened the log stream at `path` (it logs a stream's request when
 * its headers and backfill are sent), so what a test does next is live for the CLI.
 */
async function streamOpened(path: string): Promise<void> {
  while (!h.emu.control.requests().entries.some((e) => e.path === path && e.status === 200)) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A pod of acme/app:1 that has started (10 s after its create). */
async function startedPod(): Promise<string> {
  const pod = await h.api.pods.create(APP_POD);
  h.emu.control.advance(10_000);
  return pod.id;
}

describe("pods logs", () => {
  it("prints every line the log holds, then exits 0; the request leaves tail and source to the API", async () => {
    const id = await startedPod();
    const res = await h.run(["pods", "logs", id]);
    expect([res.code, res.stderr, res.stdout]).toEqual([0, "", lines(STARTED.map(tableLine))]);
    expect(h.recorder.requests.map((r) => [r.method, r.url, r.headers["last-event-id"]])).toEqual([
      ["GET", `/v2/pods/${id}/logs`, undefined],
    ]);
  });

  it("--json prints one object per line (JSON Lines); -o yaml one document per line", async () => {
    const id = await startedPod();
    const json = await h.run(["pods", "logs", id, "--json", "--tail", "2", "--source", "container"]);
    expect(queryOf(h.recorder.requests[0]?.url ?? "")).toEqual([
      ["source", "container"],
      ["tail", "2"],
    ]);
    expect([json.code, json.stdout]).toEqual([0, lines(STARTED.slice(6).map(jsonLine))]);
    const yaml = await h.run(["pods", "logs", id, "-o", "yaml", "--tail", "1"]);
    expect(parseAllDocuments(yaml.stdout).map((d) => d.toJS())).toEqual([
      { ts: at(5002), source: "container", line: "Ready" },
    ]);
  });

  it("--since takes an RFC 3339 time as given, or a duration back from now", async () => {
    const id = await startedPod();
    const exact = await h.run(["pods", "logs", id, "--since", at(5000), "--source", "system"]);
    expect([exact.code, exact.stdout, queryOf(h.recorder.requests[0]?.url ?? "")]).toEqual([
      0,
      lines([tableLine([5000, "system", "start container"])]),
      [
        ["source", "system"],
        ["since", at(5000)],
      ],
    ]);
    const before = Date.now();
    // Only the query matters here: --max-wait keeps the read short.
    await h.run(["pods", "logs", id, "--since", "1h30m", "--max-wait", "300ms"]);
    const after = Date.now();
    const since = Date.parse(
      new URL(h.recorder.requests[0]?.url ?? "", "http://x").searchParams.get("since") ?? "",
    );
    expect(since >= before - 5_400_000 && since <= after - 5_400_000).toBe(true);
  });

  it("without --follow stops after --max-wait when no line comes at all", async () => {
    const id = await startedPod();
    const res = await h.run(["pods", "logs", id, "--tail", "0", "--max-wait", "300ms"]);
    expect([res.code, res.stdout, res.stderr]).toEqual([0, "", ""]);
  });

  it("--follow prints each new line as the pod logs it, and Ctrl-C ends it with exit 0", async () => {
    const id = await startedPod();
    const cli = h.start(["pods", "logs", id, "--follow", "--tail", "1"]);
    await cli.waitFor(/Ready\n$/);
    expect(cli.stdout()).toBe(lines([tableLine(STARTED[7] as [number, string, string])]));
    h.emu.control.advance(60_000);
    await h.api.pods.action(id, "restart");
    h.emu.control.advance(10_000);
    await cli.waitFor(/Ready\n(.*\n){5}.*Ready\n$/);
    cli.interrupt();
    const res = await cli.exited;
    expect([res.code, res.stderr, res.stdout]).toEqual([
      0,
      "",
      lines([tableLine(STARTED[7] as [number, string, string]), ...RESTARTED.map(tableLine)]),
    ]);
  });

  it("--follow ends with exit 0 when the service ends the stream: the pod was terminated", async () => {
    const id = await startedPod();
    const cli = h.start(["pods", "logs", id, "-f", "--tail", "0", "--json"]);
    await streamOpened(`/v2/pods/${id}/logs`);
    await h.api.pods.action(id, "terminate");
    const res = await cli.exited;
    expect([res.code, res.stderr, res.stdout]).toEqual([
      0,
      "",
      lines([
        JSON.stringify({
          ts: at(10_000),
          source: "system",
          line: "terminate pod: container stopped and removed",
        }),
      ]),
    ]);
  });

  it("--follow reads on after the last line printed when the stream breaks, printing no line twice", async () => {
    const id = await startedPod();
    const cli = h.start(["pods", "logs", id, "--follow"]);
    await cli.waitFor(/Ready\n$/);
    h.recorder.breakStreams();
    h.emu.control.advance(60_000);
    await h.api.pods.action(id, "restart");
    h.emu.control.advance(10_000);
    await cli.waitFor(/Ready\n(.*\n){5}.*Ready\n$/);
    cli.interrupt();
    const res = await cli.exited;
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(lines([...STARTED, ...RESTARTED].map(tableLine)));
    expect(res.stderr).toMatch(
      new RegExp(
        `^GET /v2/pods/${id}/logs: the event stream broke \\(.*\\) talking to http://127\\.0\\.0\\.1:\\d+\\. Reading on after ${at(5002).replace(/\./g, "\\.")} in 0\\.5 s \\(1 of 5\\)\\.\n$`,
      ),
    );
    expect(h.recorder.requests.map((r) => [pathOf(r.url), r.headers["last-event-id"]])).toEqual([
      [`/v2/pods/${id}/logs`, undefined],
      [`/v2/pods/${id}/logs`, at(5002)],
    ]);
  });

  it("--follow waits and reads on when the service refuses for a while (503, then 200)", async () => {
    const id = await startedPod();
    h.emu.control.addFault({ method: "GET", path: "/logs$", status: 503, times: 1 });
    const cli = h.start(["pods", "logs", id, "--follow", "--tail", "1"]);
    await cli.waitFor(/Ready\n$/);
    cli.interrupt();
    const res = await cli.exited;
    expect([res.code, res.stdout, res.stderr.replace(/: 503 .*? in /, ": 503 ... in ")]).toEqual([
      0,
      lines([tableLine(STARTED[7] as [number, string, string])]),
      `GET /v2/pods/${id}/logs?tail=1: 503 ... in 0.5 s (1 of 5).\n`,
    ]);
  });

  it("--follow gives up after 5 refusals in a row, with the last error (exit 1)", async () => {
    const id = await startedPod();
    // Retry-After 0: the CLI waits what the service asks, here nothing.
    h.emu.control.addFault({ method: "GET", path: "/logs$", status: 429, retryAfter: 0 });
    const res = await h.run(["pods", "logs", id, "--follow"]);
    expect([res.code, res.stdout, h.recorder.requests.length]).toEqual([1, "", 6]);
    expect(
      res.stderr
        .split("\n")
        .filter(Boolean)
        .map((l) => l.replace(/: 429 .*? in /, ": 429 ... in ")),
    ).toEqual([
      `GET /v2/pods/${id}/logs: 429 ... in 0 s (1 of 5).`,
      `GET /v2/pods/${id}/logs: 429 ... in 0 s (2 of 5).`,
      `GET /v2/pods/${id}/logs: 429 ... in 0 s (3 of 5).`,
      `GET /v2/pods/${id}/logs: 429 ... in 0 s (4 of 5).`,
      `GET /v2/pods/${id}/logs: 429 ... in 0 s (5 of 5).`,
      expect.stringMatching(new RegExp(`^Error: GET /v2/pods/${id}/logs: 429 Too Many Requests: `)),
    ]);
  });

  it("a log line holding the API key prints it redacted, in every format", async () => {
    const key = h.recorder.env.RUNPOD_API_KEY ?? "";
    h.emu.control.setContainerBehaviour({ image: "acme/leaky:1", kind: "start", lines: [`key=${key}`] });
    const pod = await h.api.pods.create({ ...APP_POD, image: "acme/leaky:1" });
    h.emu.control.advance(10_000);
    const table = await h.run(["pods", "logs", pod.id, "--source", "container"]);
    const json = await h.run(["pods", "logs", pod.id, "--source", "container", "--json"]);
    expect([table.stdout, json.stdout]).toEqual([
      lines([`${at(5001)}  container  key=[redacted]`]),
      lines([JSON.stringify({ ts: at(5001), source: "container", line: "key=[redacted]" })]),
    ]);
  });

  it("an unknown pod is the API's 404, exit 1", async () => {
    const res = await h.run(["pods", "logs", "nope"]);
    expect([res.code, res.stdout, errorText(res)]).toEqual([
      1,
      "",
      "Error: GET /v2/pods/nope/logs: 404 Not Found: Pod 'nope' was not found. It does not exist or this API key cannot see it.",
    ]);
  });

  it.each([
    [
      ["--tail", "5001"],
      "error: option '--tail <n>' argument '5001' is invalid. --tail must be between 0 and 5000.",
    ],
    [
      ["--tail", "-1"],
      "error: option '--tail <n>' argument '-1' is invalid. --tail must be between 0 and 5000.",
    ],
    [
      ["--since", "2h", "--tail", "5"],
      "error: option '--since <time>' cannot be used with option '--tail <n>'",
    ],
    [
      ["--since", "yesterday"],
      "error: option '--since <time>' argument 'yesterday' is invalid. --since must be a duration back from now such as 30m, 2h or 7d, or an RFC 3339 date-time such as 2026-11-01T00:00:00Z.",
    ],
    [
      ["--source", "stdout"],
      "error: option '--source <source>' argument 'stdout' is invalid. --source must be one of container, system, both.",
    ],
    [
      ["--follow", "--max-wait", "2s"],
      "error: option '--max-wait <duration>' cannot be used with option '-f, --follow'",
    ],
    [
      ["--max-wait", "5"],
      "error: option '--max-wait <duration>' argument '5' is invalid. --max-wait must be a duration such as 500ms, 5s or 2m, between 100 ms and 3600 s.",
    ],
  ])("pods logs p %j exits 2 before any request", async (flags, message) => {
    const res = await h.run(["pods", "logs", "p", ...flags]);
    expect([res.code, errorText(res), h.recorder.requests]).toEqual([2, message, []]);
  });
});

describe("serverless logs", () => {
  /** An endpoint of acme/app:1 whose two workers each ran one job, 2.5 s ago and still up. */
  async function endpointWithTwoWorkers() {
    const endpoint = await h.api.endpoints.create(
      appEndpoint("logs", { workers: { min: 0, max: 2, idleTimeout: 60 } }),
    );
    const jobs = [await h.api.jobs.run(endpoint.id, { n: 1 }), await h.api.jobs.run(endpoint.id, { n: 2 })];
    h.emu.control.advance(2_500);
    const { workers } = await h.api.endpoints.workers(endpoint.id);
    return { id: endpoint.id, jobs: jobs.map((j) => j.id), workers: workers.map((w) => w.id) };
  }

  /** What a worker that ran `job` logs: its container starting, then the job. */
  const workerLines = (worker: string, job: string) => [
    { ts: at(0), source: "system", line: `worker ${worker}: create container acme/app:1`, workerId: worker },
    { ts: at(499), source: "system", line: "start container", workerId: worker },
    { ts: at(500), source: "container", line: `Started job ${job}`, workerId: worker },
    { ts: at(2000), source: "container", line: `Finished job ${job}`, workerId: worker },
  ];

  it("reads every active worker's log at once, each line stamped with its worker", async () => {
    const ep = await endpointWithTwoWorkers();
    const res = await h.run(["serverless", "logs", ep.id, "--json"]);
    expect([res.code, res.stderr]).toEqual([0, ""]);
    const printed = res.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { workerId: string });
    // Two streams print as they come: each worker's lines are in order, the two interleave.
    expect(ep.workers.map((w) => printed.filter((l) => l.workerId === w))).toEqual([
      workerLines(ep.workers[0] ?? "", ep.jobs[0] ?? ""),
      workerLines(ep.workers[1] ?? "", ep.jobs[1] ?? ""),
    ]);
    expect(h.recorder.requests.map((r) => pathOf(r.url)).sort()).toEqual(
      [
        `/v2/serverless/${ep.id}/workers`,
        ...ep.workers.map((w) => `/v2/serverless/${ep.id}/workers/${w}/logs`),
      ].sort(),
    );
  });

  it("--worker reads that worker's log only, without listing the workers; the table puts the worker first", async () => {
    const ep = await endpointWithTwoWorkers();
    const worker = ep.workers[1] ?? "";
    const res = await h.run(["serverless", "logs", ep.id, "--worker", worker, "--source", "container"]);
    expect([res.code, res.stderr, res.stdout]).toEqual([
      0,
      "",
      lines([
        `${worker}  ${at(500)}  container  Started job ${ep.jobs[1]}`,
        `${worker}  ${at(2000)}  container  Finished job ${ep.jobs[1]}`,
      ]),
    ]);
    expect(h.recorder.requests.map((r) => r.url)).toEqual([
      `/v2/serverless/${ep.id}/workers/${worker}/logs?source=container`,
    ]);
  });

  it("one worker's log failing is a note on stderr; the others are still printed (exit 0)", async () => {
    const ep = await endpointWithTwoWorkers();
    const [first, second] = ep.workers;
    h.emu.control.addFault({ method: "GET", path: `/workers/${first}/logs$`, status: 404 });
    const res = await h.run(["serverless", "logs", ep.id, "--json"]);
    expect(res.code).toBe(0);
    expect(
      res.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual(workerLines(second ?? "", ep.jobs[1] ?? ""));
    expect(res.stderr).toMatch(
      new RegExp(`^Worker ${first}: GET /v2/serverless/${ep.id}/workers/${first}/logs: 404 Not Found: `),
    );
  });

  it("an endpoint scaled to zero has no log to read: exit 1, saying why", async () => {
    const endpoint = await h.api.endpoints.create(appEndpoint("idle"));
    const res = await h.run(["serverless", "logs", endpoint.id]);
    expect([res.code, res.stdout, errorText(res)]).toEqual([
      1,
      "",
      `Error: endpoint ${endpoint.id} has no active workers, so no log to read: it is scaled to zero. A job starts a worker (\`runpod-dynamic jobs run --endpoint-id ${endpoint.id} ...\`); the id of one that ran earlier still works with --worker.`,
    ]);
    const json = await h.run(["serverless", "logs", endpoint.id, "--json"]);
    expect(JSON.parse(json.stderr)).toMatchObject({ code: "NO_WORKERS", status: null });
  });

  it("--follow prints a worker's next job as it runs, and Ctrl-C ends it with exit 0", async () => {
    const ep = await endpointWithTwoWorkers();
    const worker = ep.workers[0] ?? "";
    const cli = h.start(["serverless", "logs", ep.id, "--worker", worker, "-f", "--tail", "0", "--json"]);
    await streamOpened(`/v2/serverless/${ep.id}/workers/${worker}/logs`);
    const next = await h.api.jobs.run(ep.id, { n: 3 });
    h.emu.control.advance(5_000);
    await cli.waitFor(/Finished job/);
    cli.interrupt();
    const res = await cli.exited;
    const printed = res.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { line: string; workerId: string });
    expect([res.code, printed.map((l) => [l.workerId, l.line])]).toEqual([
      0,
      [
        [worker, `Started job ${next.id}`],
        [worker, `Finished job ${next.id}`],
      ],
    ]);
  });
});
