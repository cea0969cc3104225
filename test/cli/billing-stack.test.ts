/**
 * `runpod-dynamic billing stack` against the emulator's default seed, whose billing history holds
 * a pod (pod-hist-trainer: an H100 at $2.99 every hour), an endpoint (ep-hist-vllm) and a network
 * volume (nv-tx3-datasets: 100 GB at $0.0097 an hour) from 2026-11-01 on. The state is a stack
 * holding those ids, as `pulumi stack export` writes it; the real CLI's own state is priced in
 * test/e2e/cost.test.ts.
 */
import { describe, expect, it } from "vitest";
import { errorText, queryOf } from "../support/cli.js";
import { cliHarnessForAllTests } from "../support/cli-in-process.js";

const h = cliHarnessForAllTests({ clockScale: 0 });
const T = "pulumi-nodejs:dynamic/runpod:";
const urn = (type: string, name: string) => `urn:pulumi:prod::ml::${type}::${name}`;
const WEEK = ["--start-time", "2026-11-01T00:00:00Z", "--end-time", "2026-11-08T00:00:00Z"];
const storage = (gb: number, usdPerGbMonth: number) => (gb * usdPerGbMonth) / 720;

const STATE = JSON.stringify({
  version: 3,
  deployment: {
    resources: [
      { urn: urn("pulumi:pulumi:Stack", "ml-prod"), type: "pulumi:pulumi:Stack", outputs: {} },
      {
        urn: urn(`${T}Pod`, "trainer"),
        type: `${T}Pod`,
        id: "pod-hist-trainer",
        inputs: { name: "trainer", image: "i", gpu: { id: "NVIDIA H100 80GB HBM3" }, disk: 80 },
        outputs: {
          status: "RUNNING",
          gpu: { id: "NVIDIA H100 80GB HBM3", count: 1 },
          cloud: "SECURE",
          disk: 80,
          cost: 2.99,
        },
      },
      {
        urn: urn(`${T}ServerlessEndpoint`, "vllm"),
        type: `${T}ServerlessEndpoint`,
        id: "ep-hist-vllm",
        inputs: { name: "vllm", gpu: { pools: ["AMPERE_80"] }, workers: { min: 0, max: 1 } },
        outputs: {
          endpointId: "ep-hist-vllm",
          gpu: { pools: ["AMPERE_80"], count: 1 },
          workers: { min: 0, max: 1 },
        },
      },
      {
        urn: urn(`${T}NetworkVolume`, "datasets"),
        type: `${T}NetworkVolume`,
        id: "nv-tx3-datasets",
        inputs: { name: "datasets", size: 100, dataCenterId: "US-TX-3" },
        outputs: { volumeId: "nv-tx3-datasets", size: 100, dataCenterId: "US-TX-3", type: "STANDARD" },
      },
      {
        urn: urn(`${T}SshKey`, "me"),
        type: `${T}SshKey`,
        id: "k",
        inputs: { publicKey: "ssh-ed25519 AAAA" },
        outputs: {},
      },
    ],
  },
});

interface StackJson {
  query: { startTime: string; endTime: string; bucketSize: string };
  resources: {
    name: string;
    type: string;
    id: string;
    spent: number;
    records: number;
    listHourly: { low: number; high: number };
  }[];
  totals: { spent: number; listHourly: { low: number; high: number } };
}

describe("billing stack", () => {
  it("each resource's billed spend over the window, by its id in the state, next to its list rate", async () => {
    const res = await h.run(["billing", "stack", "--json", ...WEEK], {}, STATE);
    const json = JSON.parse(res.stdout) as StackJson;
    // The endpoint's spend as RunPod's own route answers it for that id.
    const vllm = await h.api.billing.serverless({
      startTime: "2026-11-01T00:00:00Z",
      endTime: "2026-11-08T00:00:00Z",
      serverlessId: "ep-hist-vllm",
    });
    const vllmSpent = Math.round(vllm.records.reduce((s, r) => s + r.totalAmount, 0) * 1e4) / 1e4;
    const r = (n: number) => Math.round(n * 1e8) / 1e8;
    expect([res.code, json.query]).toEqual([
      0,
      { startTime: "2026-11-01T00:00:00Z", endTime: "2026-11-08T00:00:00Z", bucketSize: "day", lastN: null },
    ]);
    expect(
      json.resources.map((x) => [
        x.name,
        x.type,
        x.id,
        x.spent,
        x.records,
        r(x.listHourly.low),
        r(x.listHourly.high),
      ]),
    ).toEqual([
      [
        "trainer",
        "Pod",
        "pod-hist-trainer",
        502.32,
        7,
        r(2.99 + storage(80, 0.1)),
        r(2.99 + storage(80, 0.1)),
      ],
      ["vllm", "ServerlessEndpoint", "ep-hist-vllm", vllmSpent, 7, 0, 2.62],
      [
        "datasets",
        "NetworkVolume",
        "nv-tx3-datasets",
        1.6296,
        7,
        r(storage(100, 0.07)),
        r(storage(100, 0.07)),
      ],
    ]);
    expect(json.totals.spent).toBe(Math.round((502.32 + vllmSpent + 1.6296) * 1e4) / 1e4);
    // One request per family the stack holds, each for the window, plus the catalog for the list rate.
    const billing = h.recorder.requests.filter((q) => q.url.includes("/billing/"));
    expect(billing.map((q) => [new URL(q.url, "http://x").pathname, queryOf(q.url)]).sort()).toEqual(
      ["/v2/billing/network-volumes", "/v2/billing/pods", "/v2/billing/serverless"].map((p) => [
        p,
        [
          ["startTime", "2026-11-01T00:00:00Z"],
          ["endTime", "2026-11-08T00:00:00Z"],
          ["bucketSize", "day"],
        ],
      ]),
    );
  });

  it("a table, and the one line: what the stack cost and its list rate", async () => {
    const res = await h.run(["billing", "stack", ...WEEK], {}, STATE);
    const lines = res.stdout.trimEnd().split("\n");
    expect(lines.slice(0, 2).map((l) => l.trim().split(/\s{2,}/))).toEqual([
      ["RESOURCE", "TYPE", "ID", "SPENT", "LIST/H"],
      ["trainer", "Pod", "pod-hist-trainer", "$502.32", "$3.0011"],
    ]);
    expect(lines.at(-2)).toMatch(
      /^This stack cost \$540\.37 from 2026-11-01 00:00 UTC to 2026-11-08 00:00 UTC; its list rate is \$3\.0108-\$5\.6308 per hour \(\$2,167\.80-\$4,054\.20 per 30-day month\)\.$/,
    );
  });

  it("a preview is not a stack's state", async () => {
    const res = await h.run(["billing", "stack"], {}, JSON.stringify({ steps: [] }));
    expect([res.code, errorText(res)]).toEqual([
      2,
      "Error: billing stack reads a stack's state (`pulumi stack export`); for a preview, use `runpod-dynamic cost`.",
    ]);
  });
});
