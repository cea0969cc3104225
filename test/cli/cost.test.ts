/**
 * `runpod-dynamic cost` against the emulator's catalog, on previews and state exports written the
 * way the Pulumi CLI writes them (the real CLI's own documents are in test/e2e/cost.test.ts), and
 * `catalog snapshot` feeding `cost --prices` with no API call.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { errorText } from "../support/cli.js";
import { cliHarnessForAllTests } from "../support/cli-in-process.js";

const h = cliHarnessForAllTests({ clockScale: 0 });
const dir = mkdtempSync(join(tmpdir(), "runpod-cost-"));
const T = "pulumi-nodejs:dynamic/runpod:";
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const urn = (type: string, name: string) => `urn:pulumi:dev::demo::${type}::${name}`;
const storage = (gb: number, usdPerGbMonth: number) => (gb * usdPerGbMonth) / 720;
const r = (n: number) => Math.round(n * 1e8) / 1e8;

/** A `pulumi preview --json` document of these steps (the stack's own step first, as the CLI writes). */
function preview(steps: object[], same = 1): string {
  return JSON.stringify({
    config: {},
    steps: [{ op: same > 0 ? "same" : "create", urn: urn("pulumi:pulumi:Stack", "demo-dev") }, ...steps],
    changeSummary: { create: steps.length, same },
  });
}

const create = (type: string, name: string, inputs: object) => ({
  op: "create",
  urn: urn(type, name),
  newState: { urn: urn(type, name), type, custom: true, inputs },
});

const H100 = "NVIDIA H100 80GB HBM3";
const trainer = create(`${T}Pod`, "trainer", { name: "t", image: "i", gpu: { id: H100 }, disk: 40 });
const endpoint = create(`${T}ServerlessEndpoint`, "sdxl", {
  name: "s",
  image: "i",
  gpu: { pools: ["ADA_24", "ADA_48_PRO"] },
  workers: { min: 0, max: 2 },
});
const bucket = create("aws:s3/bucket:Bucket", "logs", { bucket: "logs" });
const later = create(`${T}Pod`, "later", { name: "l", image: "i", gpu: { id: UNKNOWN } });
const TRAINER_HOURLY = 2.99 + storage(40, 0.1);

interface CostJson {
  kind: string;
  unlisted: number;
  prices: { source: string; takenAt: string };
  resources: {
    name: string;
    op: string;
    before: { kind: string; hourly?: { low: number; high: number } } | null;
    after: {
      kind: string;
      hourly?: { low: number; high: number };
      reason?: string;
      billedHourly?: number;
    } | null;
  }[];
  totals: {
    before: { hourly: { low: number; high: number } };
    after: { hourly: { low: number; high: number }; monthly: { low: number; high: number } };
    unknown: string[];
    notPriced: string[];
  };
}

const rounded = (x: { low: number; high: number }) => ({ low: r(x.low), high: r(x.high) });

describe("cost of a preview", () => {
  const doc = preview([trainer, endpoint, bucket, later]);

  it("prices every resource from the catalog, names what it cannot price, and totals the rest", async () => {
    const res = await h.run(["cost", "--json"], {}, doc);
    expect([res.code, h.routes().sort()]).toEqual([
      0,
      ["base GET /v2/catalog/cpus", "base GET /v2/catalog/datacenters", "base GET /v2/catalog/gpus"],
    ]);
    const json = JSON.parse(res.stdout) as CostJson;
    expect(
      json.resources.map((x) => [
        x.name,
        x.op,
        x.before,
        x.after?.kind,
        x.after?.hourly && rounded(x.after.hourly),
      ]),
    ).toEqual([
      ["trainer", "create", null, "priced", rounded({ low: TRAINER_HOURLY, high: TRAINER_HOURLY })],
      ["sdxl", "create", null, "priced", { low: 0, high: 2.76 }],
      ["logs", "create", null, "not-priced", undefined],
      ["later", "create", null, "unknown", undefined],
    ]);
    expect([
      json.kind,
      json.unlisted,
      rounded(json.totals.after.hourly),
      rounded(json.totals.after.monthly),
    ]).toEqual([
      "preview",
      0,
      rounded({ low: TRAINER_HOURLY, high: TRAINER_HOURLY + 2.76 }),
      rounded({ low: TRAINER_HOURLY * 720, high: (TRAINER_HOURLY + 2.76) * 720 }),
    ]);
    expect([json.totals.unknown, json.totals.notPriced]).toEqual([
      ['Pod "later": gpu.id is not known until the change is applied'],
      ['aws:s3/bucket:Bucket "logs": not a RunPod resource'],
    ]);
  });

  it("a table for a terminal: one row per resource, the totals, what is left out and why", async () => {
    const res = await h.run(["cost", "-"], {}, doc);
    const lines = res.stdout.split("\n");
    expect([res.code, lines[0]?.split(/\s{2,}/)]).toEqual([
      0,
      ["RESOURCE", "TYPE", "OP", "BEFORE/H", "AFTER/H", "CHANGE/H", "AFTER/MONTH"],
    ]);
    expect(lines.slice(1, 5).map((l) => l.trim().split(/\s{2,}/))).toEqual([
      ["trainer", "Pod", "create", "$2.9956", "+$2.9956", "$2,156.80"],
      ["sdxl", "ServerlessEndpoint", "create", "$0.0000-$2.7600", "$0.0000 to +$2.7600", "$0.00-$1,987.20"],
      ["logs", "aws:s3/bucket:Bucket", "create", "not priced", "not priced", "not priced"],
      ["later", "Pod", "create", "unknown", "unknown", "unknown"],
    ]);
    expect(lines).toEqual(
      expect.arrayContaining([
        "Per hour: $0.0000 before, $2.9956-$5.7556 after this change (+$2.9956 to +$5.7556).",
        "Per 30-day month: $0.00 before, $2,156.80-$4,144.00 after (+$2,156.80 to +$4,144.00).",
        'Not in the totals, unknown: Pod "later": gpu.id is not known until the change is applied.',
        'Not in the totals, not priced: aws:s3/bucket:Bucket "logs": not a RunPod resource.',
      ]),
    );
  });

  it("markdown for a pull-request comment", async () => {
    const res = await h.run(["cost", "-o", "markdown"], {}, doc);
    const lines = res.stdout.split("\n");
    expect([res.code, lines.slice(0, 6)]).toEqual([
      0,
      [
        "### RunPod: what this change costs",
        "",
        "| Resource | Type | Op | Before /h | After /h | Change /h | After /month |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: |",
        "| `trainer` | Pod | create |  | $2.9956 | +$2.9956 | $2,156.80 |",
        "| `sdxl` | ServerlessEndpoint | create |  | $0.0000-$2.7600 | $0.0000 to +$2.7600 | $0.00-$1,987.20 |",
      ],
    ]);
    expect(lines).toContain(
      "**Per hour: $0.0000 before, $2.9956-$5.7556 after this change (+$2.9956 to +$5.7556).**  ",
    );
  });

  it("an update keeps where a pod runs; a replacement may land on any candidate; a delete removes its rate", async () => {
    const placed = {
      urn: urn(`${T}Pod`, "trainer"),
      type: `${T}Pod`,
      id: "p1",
      inputs: {
        name: "t",
        image: "i",
        gpu: { id: H100 },
        disk: 40,
        placement: { gpuTypeIds: ["NVIDIA A40"] },
      },
      outputs: {
        status: "RUNNING",
        gpu: { id: "NVIDIA A40", count: 1 },
        cloud: "SECURE",
        disk: 40,
        cost: 0.44,
      },
    };
    const volume = {
      urn: urn(`${T}NetworkVolume`, "data"),
      type: `${T}NetworkVolume`,
      id: "v1",
      inputs: { name: "d", size: 100, dataCenterId: "US-TX-3" },
      outputs: { volumeId: "v1", size: 100, dataCenterId: "US-TX-3", type: "STANDARD" },
    };
    const doc2 = JSON.stringify({
      steps: [
        {
          op: "update",
          urn: placed.urn,
          oldState: placed,
          newState: { ...placed, inputs: { ...placed.inputs, disk: 100 }, outputs: undefined },
        },
        {
          op: "replace",
          urn: urn(`${T}Pod`, "other"),
          oldState: { ...placed, urn: urn(`${T}Pod`, "other") },
          newState: { urn: urn(`${T}Pod`, "other"), type: `${T}Pod`, inputs: placed.inputs },
        },
        { op: "delete", urn: volume.urn, oldState: volume },
      ],
      changeSummary: { update: 1, replace: 1, delete: 1, same: 3 },
    });
    const json = JSON.parse((await h.run(["cost", "--json"], {}, doc2)).stdout) as CostJson;
    const rate = (x: { hourly?: { low: number; high: number } } | null) =>
      x?.hourly ? rounded(x.hourly) : null;
    expect(json.resources.map((x) => [x.name, x.op, rate(x.before), rate(x.after)])).toEqual([
      [
        "trainer",
        "update",
        rounded({ low: 0.44 + storage(40, 0.1), high: 0.44 + storage(40, 0.1) }),
        rounded({ low: 0.44 + storage(100, 0.1), high: 0.44 + storage(100, 0.1) }),
      ],
      [
        "other",
        "replace",
        rounded({ low: 0.44 + storage(40, 0.1), high: 0.44 + storage(40, 0.1) }),
        rounded({ low: 0.44 + storage(40, 0.1), high: 2.99 + storage(40, 0.1) }),
      ],
      ["data", "delete", rounded({ low: storage(100, 0.07), high: storage(100, 0.07) }), null],
    ]);
    // Two unchanged resources besides the stack were left out of the preview.
    expect(json.unlisted).toBe(2);
    const table = await h.run(["cost"], {}, doc2);
    expect(table.stdout).toContain(
      "The totals leave out 2 unchanged resources the preview does not list: run `pulumi preview --json --show-sames` for the whole stack.",
    );
    expect(table.stdout).toContain("$0.4456 (billed $0.4400)");
  });
});

describe("cost of a state export: what the stack runs now", () => {
  it("the list rate of each resource next to what RunPod bills", async () => {
    const state = JSON.stringify({
      version: 3,
      deployment: {
        resources: [
          { urn: urn("pulumi:pulumi:Stack", "demo-dev"), type: "pulumi:pulumi:Stack", outputs: {} },
          {
            urn: urn("pulumi:providers:pulumi-nodejs", "default"),
            type: "pulumi:providers:pulumi-nodejs",
            inputs: {},
            outputs: {},
          },
          {
            urn: urn(`${T}Pod`, "trainer"),
            type: `${T}Pod`,
            id: "p1",
            inputs: { name: "t", image: "i", gpu: { id: H100 }, disk: 40, env: { K: "v" } },
            outputs: {
              status: "RUNNING",
              gpu: { id: H100, count: 1 },
              cloud: "SECURE",
              disk: 40,
              cost: 2.99,
              env: {
                "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
                ciphertext: "v1:x",
              },
            },
          },
        ],
      },
    });
    const json = JSON.parse((await h.run(["cost", "--json"], {}, state)).stdout) as CostJson;
    expect([json.kind, json.resources.map((x) => [x.name, x.op, x.after?.billedHourly])]).toEqual([
      "state",
      [["trainer", "same", 2.99]],
    ]);
    const table = await h.run(["cost"], {}, state);
    expect(
      table.stdout
        .split("\n")
        .slice(0, 2)
        .map((l) => l.trim().split(/\s{2,}/)),
    ).toEqual([
      ["RESOURCE", "TYPE", "LIST/H", "LIST/MONTH"],
      ["trainer", "Pod", "$2.9956 (billed $2.9900)", "$2,156.80 (billed $2,152.80)"],
    ]);
    expect(table.stdout).toContain("List rate: $2.9956 per hour, $2,156.80 per 30-day month.");
  });
});

describe("prices from a snapshot", () => {
  it("`catalog snapshot` writes what `cost --prices` reads with no API call, to the same figures", async () => {
    const file = join(dir, "prices.json");
    const wrote = await h.run(["catalog", "snapshot", "--out", file]);
    expect([wrote.code, wrote.stdout]).toEqual([
      0,
      expect.stringMatching(new RegExp(`^Wrote the prices of 9 GPU types and 5 CPU flavors to ${file} \\(`)),
    ]);
    const snapshot = JSON.parse(readFileSync(file, "utf8")) as { format: string; gpus: { id: string }[] };
    expect([snapshot.format, snapshot.gpus.length]).toEqual(["runpod-dynamic/prices@1", 9]);
    const doc = preview([trainer, endpoint]);
    const live = JSON.parse((await h.run(["cost", "--json"], {}, doc)).stdout) as CostJson;
    const offline = await h.run(["cost", "--json", "--prices", file], { RUNPOD_API_KEY: "" }, doc);
    const fromFile = JSON.parse(offline.stdout) as CostJson;
    expect([offline.code, h.routes(), fromFile.resources, fromFile.totals]).toEqual([
      0,
      [],
      live.resources,
      live.totals,
    ]);
    expect(fromFile.prices.source).toBe(`${file} (from ${h.recorder.env.RUNPOD_BASE_URL})`);
  });

  it("without --out, the snapshot goes to standard output", async () => {
    const res = await h.run(["catalog", "snapshot"]);
    expect([res.code, (JSON.parse(res.stdout) as { format: string }).format]).toEqual([
      0,
      "runpod-dynamic/prices@1",
    ]);
  });
});

describe("bad input: a clear error that names it, and nothing printed as zero", () => {
  const notSnapshot = join(dir, "not-prices.json");
  writeFileSync(notSnapshot, JSON.stringify({ gpus: [] }));
  it.each<[string, string[], string, number, RegExp]>([
    [
      "not JSON",
      ["cost"],
      "{ nope",
      2,
      /^Error: standard input is not JSON \(.*\): give the output of `pulumi preview --json` or `pulumi stack export`\.$/,
    ],
    [
      "JSON, but neither a preview nor a state export",
      ["cost", "-"],
      JSON.stringify({ resources: [] }),
      2,
      /^Error: standard input is neither a preview \(`pulumi preview --json`, with "steps"\) nor a state export \(`pulumi stack export`, with "deployment"\)\.$/,
    ],
    [
      "a file that is not there",
      ["cost", join(dir, "missing.json")],
      "",
      2,
      /^Error: cost .*missing\.json: cannot read the file \(ENOENT/,
    ],
    [
      "a GPU type the catalog lacks",
      ["cost"],
      preview([create(`${T}Pod`, "odd", { name: "o", image: "i", gpu: { id: "NVIDIA B999" } })]),
      1,
      /^Error: cannot price this change:\n {2}Pod "odd", gpu\.id: GPU type "NVIDIA B999" is not in the catalog \(http:\/\/127\.0\.0\.1:\d+\)\.$/,
    ],
    [
      "a prices file that is not a snapshot",
      ["cost", "--prices", notSnapshot],
      preview([trainer]),
      2,
      /^Error: --prices: .*not-prices\.json is not a price snapshot: its "format" is missing, not "runpod-dynamic\/prices@1"\./,
    ],
  ])("%s", async (_name, args, stdin, code, message) => {
    const res = await h.run(args, {}, stdin);
    expect([res.code, res.stdout, errorText(res)]).toEqual([code, "", expect.stringMatching(message)]);
  });

  it("no key and no --prices: says how to get either, before any request", async () => {
    const res = await h.run(["cost"], { RUNPOD_API_KEY: "" }, preview([trainer]));
    expect([res.code, h.routes(), errorText(res)]).toEqual([
      1,
      [],
      expect.stringMatching(/^Error: No RunPod API key: set the RUNPOD_API_KEY environment variable/),
    ]);
  });
});
