/**
 * `runpod-dynamic jobs run|status` on a serverless endpoint (the emulator's echo worker) and on the
 * seeded hosted models. Emulator jobs queue for 500 ms and run for 1500 ms of emulator time; the
 * clock runs 100 times faster than real time unless a test freezes it.
 */
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { errorText } from "../support/cli.js";
import { cliHarnessForAllTests } from "../support/cli-in-process.js";

const JOB_FIELDS = [
  "id",
  "endpointId",
  "status",
  "delayTime",
  "executionTime",
  "workerId",
  "output",
  "error",
];
const EXPIRY_NOTE =
  "Note: output URLs expire 7 days after the job finished; download anything you want to keep.";

const h = cliHarnessForAllTests();
let endpointId: string;
beforeAll(async () => {
  endpointId = (
    await h.api.endpoints.create({
      name: "echo",
      type: "QUEUE",
      scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
      image: "example/echo:1",
      gpu: { pools: ["ADA_24"], excludedTypes: ["NVIDIA GeForce RTX 4090"] },
    })
  ).id;
});
// Tests that freeze the emulator's clock (setScale(0)) leave it running again for the next.
afterEach(() => {
  h.emu.state.clock.setScale(100);
});

/** `jobs run` of `input` on `endpoint`, then `flags`. */
function jobsRun(endpoint: string, input: string, ...flags: string[]): string[] {
  return ["jobs", "run", "--endpoint-id", endpoint, "--input", input, ...flags];
}
/** `jobs status` of `jobId` on `endpoint`, then `flags`. */
function jobsStatus(endpoint: string, jobId: string, ...flags: string[]): string[] {
  return ["jobs", "status", "--endpoint-id", endpoint, "--job-id", jobId, ...flags];
}

type JobView = Record<string, unknown> & { id: string; status: string };

describe("jobs run", () => {
  it("submits to /run and prints the queued job with every field", async () => {
    const job = await h.json<JobView>(jobsRun(endpointId, '{"prompt":"a cat"}'));
    expect(h.routes()).toEqual([`serverless POST /v2/${endpointId}/run`]);
    expect(h.recorder.requests[0]?.body).toEqual({ input: { prompt: "a cat" } });
    expect(Object.keys(job)).toEqual(JOB_FIELDS);
    expect(job).toEqual({
      id: expect.stringMatching(/-u1$/),
      endpointId,
      status: "IN_QUEUE",
      delayTime: null,
      executionTime: null,
      workerId: null,
      output: null,
      error: null,
    });
  });

  it("--wait polls /status until the job completes", async () => {
    const job = await h.json<JobView>(jobsRun(endpointId, '{"n":1}', "--wait", "--poll-interval", "50"));
    const [run, ...polls] = h.routes();
    expect([run, new Set(polls)]).toEqual([
      `serverless POST /v2/${endpointId}/run`,
      new Set([`serverless GET /v2/${endpointId}/status/${job.id}`]),
    ]);
    expect(job).toMatchObject({
      status: "COMPLETED",
      delayTime: 500,
      executionTime: 1500,
      output: { echo: { n: 1 } },
    });
  });

  it("--wait follows the job on the emulator's clock: it ends only once time moves", async () => {
    h.emu.state.clock.setScale(0);
    const run = h.run(jobsRun(endpointId, "{}", "--wait", "--poll-interval", "50", "--json"));
    await vi.waitFor(
      () => expect(h.routes().filter((r) => r.includes("/status/")).length).toBeGreaterThan(1),
      { timeout: 10_000, interval: 20 },
    );
    h.emu.control.advance(2000);
    const res = await run;
    expect([res.code, JSON.parse(res.stdout).status]).toEqual([0, "COMPLETED"]);
  });

  it("--wait gives up after --timeout with exit 1 and says how to check later", async () => {
    h.emu.state.clock.setScale(0);
    const res = await h.run(jobsRun(endpointId, "{}", "--wait", "--timeout", "1", "--poll-interval", "100"));
    const id = /job (\S+) is still/.exec(res.stderr)?.[1];
    expect([res.code, res.stdout, errorText(res)]).toEqual([
      1,
      "",
      `Error: job ${id} is still IN_QUEUE after 1 s; check on it later with \`runpod-dynamic jobs status --endpoint-id ${endpointId} --job-id ${id}\`.`,
    ]);
  });

  it("--sync uses /runsync and prints the output; a hosted model's URL comes with its 7-day expiry", async () => {
    const flux = "black-forest-labs-flux-1-schnell";
    const res = await h.run(jobsRun(flux, '{"prompt":"a cat","width":512,"height":512}', "--sync", "--json"));
    const job = JSON.parse(res.stdout) as JobView;
    expect(h.routes()).toEqual(["serverless POST /v2/black-forest-labs-flux-1-schnell/runsync"]);
    expect([res.code, res.stderr, job.status, job.output]).toEqual([
      0,
      `${EXPIRY_NOTE}\n`,
      "COMPLETED",
      { image_url: `https://image.runpod.ai/black-forest-labs-flux-1-schnell/${job.id}.png`, cost: 0.0007 },
    ]);
  });

  it("in the table, the expiry note follows the output on stdout", async () => {
    const res = await h.run(jobsRun("minimax-speech-02-hd", '{"text":"hello"}', "--sync"));
    const id = /^Job\s+(\S+)$/m.exec(res.stdout)?.[1];
    expect([res.code, res.stderr]).toEqual([0, ""]);
    expect(res.stdout).toBe(
      [
        `Job         ${id}`,
        "Endpoint    minimax-speech-02-hd",
        "Status      COMPLETED",
        "Queued for  0.5 s",
        "Ran for     1.5 s",
        "Output:",
        "  {",
        `    "audio_url": "https://audio.runpod.ai/minimax-speech-02-hd/${id}.mp3",`,
        '    "cost": 0.0003',
        "  }",
        EXPIRY_NOTE,
        "",
      ].join("\n"),
    );
  });

  it("a job that ends FAILED is printed and exits 1", async () => {
    const res = await h.run(jobsRun(endpointId, '{"fail":true}', "--sync", "--json"));
    const job = JSON.parse(res.stdout) as JobView;
    expect([res.code, job.status, job.error, JSON.parse(res.stderr)]).toEqual([
      1,
      "FAILED",
      "Emulated failure: the job input set fail to true.",
      {
        error: `job ${job.id} ended FAILED.`,
        code: "JOB_NOT_COMPLETED",
        status: null,
        detail: null,
        errors: [],
      },
    ]);
  });

  it("reads --input from a file and from standard input", async () => {
    const file = join(tmpdir(), `rp-input-${process.pid}.json`);
    writeFileSync(file, '{"from":"file"}');
    await h.json(jobsRun(endpointId, `@${file}`));
    const fromFile = h.recorder.requests[0]?.body;
    const res = await h.run(jobsRun(endpointId, "@-", "--json"), {}, '{"from":"stdin"}');
    expect([fromFile, res.code, h.recorder.requests[0]?.body]).toEqual([
      { input: { from: "file" } },
      0,
      { input: { from: "stdin" } },
    ]);
  });

  it("an unknown endpoint exits 1 with the API's problem detail", async () => {
    const res = await h.run(jobsRun("ep-nope", "{}"));
    expect([res.code, errorText(res)]).toEqual([
      1,
      expect.stringMatching(
        /^Error: POST \/v2\/ep-nope\/run: 404 Not Found: Endpoint 'ep-nope' was not found\./,
      ),
    ]);
  });

  it.each([
    [["--input", "{}"], "error: required option '--endpoint-id <id>' not specified"],
    [["--endpoint-id", "e"], "error: required option '--input <json|@file>' not specified"],
    [
      ["--endpoint-id", "e", "--input", "[1,2]"],
      `error: option '--input <json|@file>' argument '[1,2]' is invalid. --input must be a JSON object, such as {"prompt": "a cat"}.`,
    ],
    [
      ["--endpoint-id", "e", "--input", "{prompt}"],
      expect.stringMatching(
        /^error: option '--input <json\|@file>' argument '\{prompt\}' is invalid\. --input must be a JSON object or @file holding one; the JSON does not parse/,
      ),
    ],
    [
      ["--endpoint-id", "e", "--input", "@/nonexistent/input.json"],
      expect.stringMatching(/--input @\/nonexistent\/input\.json: cannot read the file \(ENOENT/),
    ],
    [
      ["--endpoint-id", "e", "--input", "{}", "--poll-interval", "10"],
      "error: option '--poll-interval <ms>' argument '10' is invalid. --poll-interval must be between 50 and 60000.",
    ],
    [
      ["--endpoint-id", "e", "--input", "{}", "--timeout", "0"],
      "error: option '--timeout <s>' argument '0' is invalid. --timeout must be between 1 and 86400.",
    ],
    [
      ["--endpoint-id", "e", "--input", "{}", "--async"],
      "error: unknown option '--async'\n(Did you mean --sync?)",
    ],
  ])("jobs run %j exits 2 and sends nothing", async (args, message) => {
    const res = await h.run(["jobs", "run", ...args]);
    expect([res.code, errorText(res), h.recorder.requests]).toEqual([2, message, []]);
  });
});

describe("jobs status", () => {
  it("reads /status and prints the job", async () => {
    const { id } = await h.json<JobView>(jobsRun(endpointId, '{"x":2}', "--sync"));
    const job = await h.json<JobView>(jobsStatus(endpointId, id));
    expect(h.routes()).toEqual([`serverless GET /v2/${endpointId}/status/${id}`]);
    expect(job).toEqual({
      id,
      endpointId,
      status: "COMPLETED",
      delayTime: 500,
      executionTime: 1500,
      workerId: expect.any(String),
      output: { echo: { x: 2 } },
      error: null,
    });
  });

  it("a queued job's table says how to check again", async () => {
    h.emu.state.clock.setScale(0);
    const { id } = await h.json<JobView>(jobsRun(endpointId, "{}"));
    const res = await h.run(jobsStatus(endpointId, id));
    expect(res.stdout).toBe(
      [
        `Job       ${id}`,
        `Endpoint  ${endpointId}`,
        "Status    IN_QUEUE",
        "",
        `Check on it with: runpod-dynamic jobs status --endpoint-id ${endpointId} --job-id ${id}`,
        "",
      ].join("\n"),
    );
  });

  it("an unknown job exits 1 with the problem detail, as JSON on stderr under --json", async () => {
    const res = await h.run(jobsStatus(endpointId, "job-nope", "--json"));
    expect([res.code, res.stdout, JSON.parse(res.stderr)]).toEqual([
      1,
      "",
      {
        error: expect.stringMatching(/^GET \/v2\/\w+\/status\/job-nope: 404 Not Found: /),
        code: "RUNPOD_NOT_FOUND",
        status: 404,
        detail: `Job 'job-nope' was not found on endpoint '${endpointId}'.`,
        errors: [],
      },
    ]);
  });

  it.each([
    [["--endpoint-id", "e"], "error: required option '--job-id <id>' not specified"],
    [["--job-id", "j"], "error: required option '--endpoint-id <id>' not specified"],
    [["--endpoint-id", "e", "--job-id", "j", "--wait"], "error: unknown option '--wait'"],
  ])("jobs status %j exits 2 and sends nothing", async (args, message) => {
    const res = await h.run(["jobs", "status", ...args]);
    expect([res.code, errorText(res)]).toEqual([2, message]);
    expect(h.recorder.requests).toEqual([]);
  });
});
