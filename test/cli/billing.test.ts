/**
 * `runpod-dynamic billing ...` against the emulator's seed: 20 days of hourly usage from
 * 2026-11-01T00:00Z. Pods: pod-hist-trainer (H100, $2.99/h, all day), pod-hist-notebook (RTX 4090,
 * $0.69/h, 10 h a day), pod-hist-cpu (cpu3c from day 11). Endpoints ep-hist-sdxl and ep-hist-vllm.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { pathOf, queryOf } from "../support/cli.js";
import { type CliHarness, errorText, startCliHarness } from "./harness.js";

const H100 = "NVIDIA H100 80GB HBM3";
const RTX4090 = "NVIDIA GeForce RTX 4090";

let h: CliHarness;
beforeAll(async () => {
  h = await startCliHarness();
});
afterAll(async () => {
  await h.close();
});

/** The one request a billing command sent: its path and its query parameters in order. */
function sent() {
  expect(h.recorder.requests).toHaveLength(1);
  const [req] = h.recorder.requests;
  return {
    base: req?.base,
    method: req?.method,
    path: pathOf(req?.url ?? ""),
    query: queryOf(req?.url ?? ""),
  };
}

describe("flag defaults", () => {
  it("billing pods sends bucketSize=day and grouping=gpuTypeId, and prints every record with stable fields", async () => {
    const records = await h.json<Record<string, unknown>[]>(["billing", "pods"]);
    expect(sent()).toEqual({
      base: "rest",
      method: "GET",
      path: "/v1/billing/pods",
      query: [
        ["bucketSize", "day"],
        ["grouping", "gpuTypeId"],
      ],
    });
    // 20 days x (H100 + RTX 4090) + 10 days of cpu3c
    expect(records).toHaveLength(50);
    expect(records.slice(0, 2)).toEqual([
      {
        time: "2026-11-01T00:00:00Z",
        amount: 6.9,
        timeBilledMs: 36_000_000,
        diskSpaceBilledGb: 20,
        podId: null,
        gpuTypeId: RTX4090,
      },
      {
        time: "2026-11-01T00:00:00Z",
        amount: 71.76,
        timeBilledMs: 86_400_000,
        diskSpaceBilledGb: 80,
        podId: null,
        gpuTypeId: H100,
      },
    ]);
    for (const r of records) {
      expect(Object.keys(r)).toEqual([
        "time",
        "amount",
        "timeBilledMs",
        "diskSpaceBilledGb",
        "podId",
        "gpuTypeId",
      ]);
    }
  });

  it("billing serverless sends bucketSize=day and grouping=endpointId", async () => {
    const records = await h.json<Record<string, unknown>[]>([
      "billing",
      "serverless",
      "--bucket-size",
      "month",
    ]);
    expect(sent()).toMatchObject({
      path: "/v1/billing/endpoints",
      query: [
        ["bucketSize", "month"],
        ["grouping", "endpointId"],
      ],
    });
    expect(records).toEqual([
      {
        time: "2026-11-01T00:00:00Z",
        amount: 63.756,
        timeBilledMs: 212_520_000,
        diskSpaceBilledGb: 0,
        endpointId: "ep-hist-sdxl",
        podId: null,
        gpuTypeId: null,
      },
      {
        time: "2026-11-01T00:00:00Z",
        amount: 107.9808,
        timeBilledMs: 142_080_000,
        diskSpaceBilledGb: 0,
        endpointId: "ep-hist-vllm",
        podId: null,
        gpuTypeId: null,
      },
    ]);
    const byDay = await h.json<unknown[]>(["billing", "serverless"]);
    expect([sent().query, byDay.length]).toEqual([
      [
        ["bucketSize", "day"],
        ["grouping", "endpointId"],
      ],
      40,
    ]);
  });

  it("billing network-volume sends bucketSize=day only", async () => {
    const records = await h.json<Record<string, unknown>[]>(["billing", "network-volume"]);
    expect(sent()).toMatchObject({ path: "/v1/billing/networkvolumes", query: [["bucketSize", "day"]] });
    expect([records.length, records[0]]).toEqual([
      20,
      {
        time: "2026-11-01T00:00:00Z",
        amount: 0.3504,
        diskSpaceBilledGb: 150,
        highPerformanceStorageAmount: 0,
        highPerformanceStorageDiskSpaceBilledGb: 0,
      },
    ]);
  });
});

describe("flags become the v1 query parameters", () => {
  it.each([
    {
      args: [
        "billing",
        "pods",
        "--grouping",
        "podId",
        "--pod-id",
        "pod-hist-trainer",
        "--gpu-id",
        H100,
        "--bucket-size",
        "week",
        "--start-time",
        "2026-11-02T00:00:00Z",
        "--end-time",
        "2026-11-09T00:00:00+00:00",
      ],
      path: "/v1/billing/pods",
      query: [
        ["startTime", "2026-11-02T00:00:00Z"],
        ["endTime", "2026-11-09T00:00:00+00:00"],
        ["bucketSize", "week"],
        ["grouping", "podId"],
        ["podId", "pod-hist-trainer"],
        ["gpuTypeId", H100],
      ],
      // one Monday-started week, one pod: 7 days x 24 h x $2.99
      records: [{ time: "2026-11-02T00:00:00Z", amount: 502.32, podId: "pod-hist-trainer" }],
    },
    {
      args: ["billing", "pods", "--grouping", "gpuId", "--gpu-id", "cpu3c", "--bucket-size", "year"],
      path: "/v1/billing/pods",
      query: [
        ["bucketSize", "year"],
        ["grouping", "gpuTypeId"],
        ["gpuTypeId", "cpu3c"],
      ],
      records: [{ time: "2026-01-01T00:00:00Z", amount: 28.8, gpuTypeId: "cpu3c" }],
    },
    {
      args: [
        "billing",
        "serverless",
        "--grouping",
        "gpuId",
        "--endpoint-id",
        "ep-hist-vllm",
        "--gpu-id",
        "NVIDIA A100 80GB PCIe",
        "--bucket-size",
        "month",
      ],
      path: "/v1/billing/endpoints",
      query: [
        ["bucketSize", "month"],
        ["grouping", "gpuTypeId"],
        ["endpointId", "ep-hist-vllm"],
        ["gpuTypeId", "NVIDIA A100 80GB PCIe"],
      ],
      records: [{ time: "2026-11-01T00:00:00Z", amount: 107.9808, gpuTypeId: "NVIDIA A100 80GB PCIe" }],
    },
    {
      args: [
        "billing",
        "sls",
        "--grouping",
        "podid",
        "--endpoint-id",
        "ep-hist-vllm",
        "--bucket-size",
        "month",
        "--start-time",
        "2026-11-01T00:00:00Z",
        "--end-time",
        "2026-11-01T02:00:00Z",
      ],
      path: "/v1/billing/endpoints",
      query: [
        ["startTime", "2026-11-01T00:00:00Z"],
        ["endTime", "2026-11-01T02:00:00Z"],
        ["bucketSize", "month"],
        ["grouping", "podId"],
        ["endpointId", "ep-hist-vllm"],
      ],
      // hour 0 only (ep-hist-vllm runs on even hours): 0 s billed
      records: [{ time: "2026-11-01T00:00:00Z", amount: 0, podId: "worker-9" }],
    },
    {
      args: [
        "billing",
        "nv",
        "--bucket-size",
        "hour",
        "--start-time",
        "2026-11-05T10:00:00Z",
        "--end-time",
        "2026-11-05T11:00:00Z",
      ],
      path: "/v1/billing/networkvolumes",
      query: [
        ["startTime", "2026-11-05T10:00:00Z"],
        ["endTime", "2026-11-05T11:00:00Z"],
        ["bucketSize", "hour"],
      ],
      records: [{ time: "2026-11-05T10:00:00Z", amount: 0.0146 }],
    },
  ])("$args.1 $args.2 $args.3 ...", async ({ args, path, query, records }) => {
    const out = await h.json<Record<string, unknown>[]>(args);
    expect(sent()).toEqual({ base: "rest", method: "GET", path, query });
    expect(out).toEqual(records.map((r) => expect.objectContaining(r)));
  });
});

/** What a time flag that is not an RFC 3339 date-time is told. */
function badTime(flag: string, value: string): string {
  return `error: option '${flag} <time>' argument '${value}' is invalid. ${flag} must be an RFC 3339 date-time such as 2026-11-01T00:00:00Z or 2026-11-01T00:00:00+02:00.`;
}

describe("validation", () => {
  it.each([
    [
      ["billing", "pods", "--bucket-size", "fortnight"],
      "error: option '--bucket-size <size>' argument 'fortnight' is invalid. --bucket-size must be one of hour, day, week, month, year.",
    ],
    [
      ["billing", "pods", "--grouping", "endpointId"],
      "error: option '--grouping <field>' argument 'endpointId' is invalid. --grouping must be one of podId, gpuId.",
    ],
    [
      ["billing", "serverless", "--grouping", "gpuTypeId"],
      "error: option '--grouping <field>' argument 'gpuTypeId' is invalid. --grouping must be one of endpointId, podId, gpuId.",
    ],
    [["billing", "pods", "--start-time", "2026-11-01"], badTime("--start-time", "2026-11-01")],
    [
      ["billing", "serverless", "--end-time", "2026-02-30T00:00:00Z"],
      badTime("--end-time", "2026-02-30T00:00:00Z"),
    ],
    [
      ["billing", "network-volume", "--start-time", "2026-11-01T24:00:00Z"],
      badTime("--start-time", "2026-11-01T24:00:00Z"),
    ],
    [["billing", "pods", "--end-time", "2026-11-01T00:00:00"], badTime("--end-time", "2026-11-01T00:00:00")],
    [
      ["billing", "pods", "--start-time", "2026-11-02T00:00:00Z", "--end-time", "2026-11-01T00:00:00Z"],
      "Error: --start-time (2026-11-02T00:00:00Z) must not be after --end-time (2026-11-01T00:00:00Z).",
    ],
    [["billing", "pods", "--gpu-type-id", "x"], "error: unknown option '--gpu-type-id'"],
    [["billing", "network-volume", "--grouping", "podId"], "error: unknown option '--grouping'"],
    [["billing", "pods", "extra"], "error: too many arguments for 'pods'. Expected 0 arguments but got 1."],
    [["billing", "invoices"], "error: unknown command 'invoices'"],
  ])("%j exits 2 naming the flag, and sends nothing", async (args, message) => {
    const res = await h.run(args);
    expect([res.code, errorText(res), res.stdout, h.recorder.requests]).toEqual([2, message, "", []]);
  });

  it("accepts RFC 3339 offsets, fractions and lower-case separators", async () => {
    const res = await h.run([
      "billing",
      "pods",
      "--start-time",
      "2026-11-01t09:00:00.250+09:00",
      "--end-time",
      "2026-11-02T00:00:00z",
      "--json",
    ]);
    expect([res.code, sent().query.slice(0, 2)]).toEqual([
      0,
      [
        ["startTime", "2026-11-01t09:00:00.250+09:00"],
        ["endTime", "2026-11-02T00:00:00z"],
      ],
    ]);
  });
});

describe("output", () => {
  it("prints a table with dollar amounts and bucket times in the user's time zone", async () => {
    const res = await h.run(
      ["billing", "pods", "--start-time", "2026-11-01T00:00:00Z", "--end-time", "2026-11-02T00:00:00Z"],
      { TZ: "Asia/Tokyo" },
    );
    expect([res.code, res.stderr]).toEqual([0, ""]);
    expect(res.stdout).toBe(
      [
        "TIME                    GPU TYPE                   AMOUNT  BILLED TIME   DISK",
        "2026-11-01 09:00 GMT+9  NVIDIA GeForce RTX 4090   $6.9000      10.00 h  20 GB",
        "2026-11-01 09:00 GMT+9  NVIDIA H100 80GB HBM3    $71.7600      24.00 h  80 GB",
        "",
        "Total $78.6600 over 2 records.",
        "",
      ].join("\n"),
    );
  });

  it("names the grouping column after --grouping and says when the window is empty", async () => {
    const grouped = await h.run([
      "billing",
      "serverless",
      "--grouping",
      "podId",
      "--endpoint-id",
      "ep-hist-vllm",
      "--start-time",
      "2026-11-01T00:00:00Z",
      "--end-time",
      "2026-11-01T01:00:00Z",
    ]);
    const empty = await h.run(["billing", "network-volume", "--start-time", "2030-01-01T00:00:00Z"]);
    expect([grouped.code, empty.code]).toEqual([0, 0]);
    expect([grouped.stdout.split("\n")[0], empty.stdout]).toEqual([
      "TIME                  POD        AMOUNT  BILLED TIME  DISK",
      "No billing records in this window.\n",
    ]);
  });

  it("-o yaml carries the same records as --json, with times kept as strings", async () => {
    const args = ["billing", "network-volume", "--bucket-size", "week"];
    const asJson = await h.json(args);
    const res = await h.run([...args, "-o", "yaml"]);
    expect(res.stdout).toContain('- time: "2026-10-26T00:00:00Z"');
    expect(parseYaml(res.stdout)).toEqual(asJson);
  });

  it("--output json equals --json", async () => {
    const res = await h.run(["billing", "pods", "--output", "json", "--bucket-size", "year"]);
    expect(JSON.parse(res.stdout)).toEqual(await h.json(["billing", "pods", "--bucket-size", "year"]));
  });
});
