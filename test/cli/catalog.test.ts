/**
 * `runpod-dynamic catalog gpus|cpus|datacenters` against the emulator's default seed: what can be
 * had, what it costs, cheapest first, and the filters a user picks candidates with.
 */
import { describe, expect, it } from "vitest";
import { errorText, queryOf } from "../support/cli.js";
import { cliHarnessForAllTests } from "../support/cli-in-process.js";

const h = cliHarnessForAllTests({ clockScale: 0 });

type Gpu = {
  id: string;
  memory: number;
  price: { secure: number | null; community: number | null; serverless: number | null };
};

describe("catalog gpus", () => {
  it("filters by memory and price, cheapest first, with the query the stock needs", async () => {
    const gpus = await h.json<Gpu[]>(["catalog", "gpus", "--min-memory", "48", "--max-price", "1"]);
    expect(gpus.map((g) => [g.id, g.memory, g.price])).toEqual([
      ["NVIDIA A40", 48, { secure: 0.44, community: 0.35, serverless: 0.7 }],
      ["NVIDIA L40S", 48, { secure: 0.86, community: 0.79, serverless: 1.38 }],
    ]);
    const [sent] = h.recorder.requests;
    expect(queryOf(sent?.url ?? "")).toEqual([
      ["include", "AVAILABILITY"],
      ["product", "POD"],
      ["cloud", "SECURE"],
    ]);
  });

  it.each<[string, string[], string[]]>([
    [
      "the Community cloud's prices",
      ["--cloud", "COMMUNITY", "--max-price", "0.4"],
      ["NVIDIA RTX A5000", "NVIDIA GeForce RTX 4090", "NVIDIA A40"],
    ],
    [
      "serverless: by the pool's rate; a type in no pool is left out",
      ["--product", "SERVERLESS", "--max-price", "1.2"],
      ["NVIDIA RTX A5000", "NVIDIA A40", "NVIDIA GeForce RTX 4090", "NVIDIA L4"],
    ],
    ["with stock in one data center", ["--data-center", "EU-SE-1"], ["NVIDIA L40S", "NVIDIA A100 80GB PCIe"]],
  ])("%s", async (_name, flags, ids) => {
    const gpus = await h.json<Gpu[]>(["catalog", "gpus", ...flags]);
    expect(gpus.map((g) => g.id)).toEqual(ids);
  });

  it("a table: GPU type, memory, each price, pool and stock", async () => {
    const res = await h.run(["catalog", "gpus", "--max-price", "0.3"]);
    const rows = res.stdout
      .trimEnd()
      .split("\n")
      .map((l) => l.trim().split(/\s{2,}/));
    expect([res.code, rows]).toEqual([
      0,
      [
        ["GPU TYPE", "MEMORY", "SECURE/H", "COMMUNITY/H", "SERVERLESS/H", "POOL", "STOCK", "DATA CENTERS"],
        [
          "NVIDIA RTX A5000",
          "24 GB",
          "$0.27",
          "$0.16",
          "$0.43",
          "AMPERE_24",
          "HIGH",
          "US-GA-1 HIGH, AP-JP-1 NONE",
        ],
      ],
    ]);
  });

  it("a data center the catalog does not have is a usage error that lists the ones it has", async () => {
    const res = await h.run(["catalog", "gpus", "--data-center", "MARS-1"]);
    expect([res.code, res.stdout, errorText(res)]).toEqual([
      2,
      "",
      'Error: --data-center: "MARS-1" is not a data center of the catalog (it lists US-TX-3, US-KS-2, US-GA-1, CA-MTL-1, EU-RO-1, EU-SE-1, EUR-IS-1, AP-JP-1, OC-AU-1).',
    ]);
  });

  it("a price that is not a number names the flag", async () => {
    const res = await h.run(["catalog", "gpus", "--max-price", "cheap"]);
    expect([res.code, errorText(res)]).toEqual([
      2,
      expect.stringContaining("--max-price must be a number between 0 and 1000000."),
    ]);
  });
});

describe("catalog cpus and datacenters", () => {
  it("CPU flavors at or under a price per vCPU-hour, cheapest first", async () => {
    const cpus = await h.json<{ id: string; price: { securePerVcpu: number } }[]>([
      "catalog",
      "cpus",
      "--max-price",
      "0.035",
    ]);
    expect(cpus.map((c) => [c.id, c.price.securePerVcpu])).toEqual([
      ["cpu3c", 0.03],
      ["cpu5c", 0.035],
    ]);
  });

  it("data centers of a region with stock of a GPU type", async () => {
    const dcs = await h.json<{ id: string; networkVolumeTypes: string[]; globalNetwork: boolean }[]>([
      "catalog",
      "datacenters",
      "--region",
      "EUROPE",
      "--gpu",
      "NVIDIA A40",
    ]);
    expect(dcs.map((d) => [d.id, d.networkVolumeTypes, d.globalNetwork])).toEqual([
      ["EU-RO-1", ["STANDARD"], true],
    ]);
    expect(queryOf(h.recorder.requests[0]?.url ?? "")).toEqual([
      ["include", "GPU_AVAILABILITY"],
      ["regions", "EUROPE"],
    ]);
  });
});
