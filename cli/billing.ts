/**
 * `runpod-dynamic billing pods|serverless|network-volume` (contract: "Command-line commands",
 * Billing; issue 7).
 *
 * These are the v1 billing routes runpodctl calls, `{rest_url}/v1/billing/pods|endpoints|
 * networkvolumes`: the v2 billing routes have no grouping, so they cannot serve `--grouping`. The
 * flags keep runpodctl's names and are translated to the v1 query parameters: `--grouping gpuId`
 * is sent as `grouping=gpuTypeId`, `--gpu-id` as `gpuTypeId`, `--endpoint-id` as `endpointId`,
 * `--pod-id` as `podId`.
 *
 * JSON/YAML output is an array with one object per record, every field always present (null when
 * the API left it out):
 * - pods: `time`, `amount` (USD), `timeBilledMs`, `diskSpaceBilledGb`, `podId`, `gpuTypeId`
 * - serverless: `time`, `amount` (USD), `timeBilledMs`, `diskSpaceBilledGb`, `endpointId`, `podId`,
 *   `gpuTypeId`
 * - network-volume: `time`, `amount` (USD), `diskSpaceBilledGb`, `highPerformanceStorageAmount`
 *   (USD), `highPerformanceStorageDiskSpaceBilledGb`
 * `time` is the bucket's start as the API sends it (UTC, RFC 3339).
 */
import type { Command } from "commander";
import type { schemas } from "../provider/client/index.js";
import { BUCKET_SIZES } from "../provider/client/schemas/billing.js";
import { connect } from "./connect.js";
import { UsageError } from "./errors.js";
import { type Column, count, duration, localTime, money, type Terminal, table } from "./output.js";
import { addOutputOptions, choice, type FormatOptions, formatOf, timeOption } from "./parse.js";

type BillingRecord = schemas.BillingRecord;
type BucketSize = (typeof BUCKET_SIZES)[number];

/** `--grouping` value → the v1 `grouping` query value. */
const POD_GROUPING = { podId: "podId", gpuId: "gpuTypeId" } as const;
const ENDPOINT_GROUPING = { endpointId: "endpointId", podId: "podId", gpuId: "gpuTypeId" } as const;

const GROUP_HEADERS = { podId: "pod", gpuTypeId: "gpu type", endpointId: "endpoint" } as const;
type GroupField = keyof typeof GROUP_HEADERS;

interface WindowOptions extends FormatOptions {
  bucketSize: BucketSize;
  startTime?: string;
  endTime?: string;
}

const TIME_HELP = `
Times are RFC 3339 date-times, e.g. 2026-11-01T00:00:00Z or 2026-11-01T00:00:00+02:00.
The table shows amounts in US dollars and bucket start times in your time zone (TZ).`;

function addWindowOptions(command: Command): Command {
  return command
    .addOption(choice("--bucket-size <size>", "length of one billing bucket", BUCKET_SIZES, "day"))
    .option("--start-time <time>", "first instant to include (RFC 3339)", timeOption("--start-time"))
    .option("--end-time <time>", "instant to stop before (RFC 3339)", timeOption("--end-time"));
}

/** The window's query parameters, in runpodctl's order; an unset flag is not sent. */
function windowQuery(opts: WindowOptions) {
  if (opts.startTime && opts.endTime && Date.parse(opts.startTime) > Date.parse(opts.endTime)) {
    throw new UsageError(`--start-time (${opts.startTime}) must not be after --end-time (${opts.endTime}).`);
  }
  return { startTime: opts.startTime, endTime: opts.endTime, bucketSize: opts.bucketSize };
}

const numberOrNull = (n: number | undefined) => n ?? null;
const stringOrNull = (s: string | undefined) => s ?? null;

function usageView(r: BillingRecord, groupFields: readonly GroupField[]) {
  return {
    time: r.time,
    amount: r.amount,
    timeBilledMs: numberOrNull(r.timeBilledMs),
    diskSpaceBilledGb: numberOrNull(r.diskSpaceBilledGb),
    ...Object.fromEntries(groupFields.map((f) => [f, stringOrNull(r[f])])),
  };
}

function total(records: readonly { amount: number }[]): number {
  return Math.round(records.reduce((sum, r) => sum + r.amount, 0) * 10_000) / 10_000;
}

function summary(records: readonly { amount: number }[]): string {
  return `Total ${money(total(records))} over ${records.length} record${records.length === 1 ? "" : "s"}.`;
}

/** Pods and endpoints: time, the grouping column, amount, billed time, billed disk. */
function usageTable(records: readonly BillingRecord[], group: GroupField): string[] {
  if (records.length === 0) return ["No billing records in this window."];
  const columns: Column[] = [
    { header: "time" },
    { header: GROUP_HEADERS[group] },
    { header: "amount", align: "right" },
    { header: "billed time", align: "right" },
    { header: "disk", align: "right" },
  ];
  const rows = records.map((r) => [
    localTime(r.time),
    r[group] ?? "",
    money(r.amount),
    duration(r.timeBilledMs),
    count(r.diskSpaceBilledGb, " GB"),
  ]);
  return [...table(columns, rows), "", summary(records)];
}

function registerPods(billing: Command, out: Terminal): void {
  const command = billing
    .command("pods")
    .description("Pod billing history, per bucket and per GPU type or pod.")
    .addOption(choice("--grouping <field>", "group records by", ["podId", "gpuId"] as const, "gpuId"))
    .option("--pod-id <id>", "only this pod")
    .option("--gpu-id <id>", "only this GPU type, e.g. 'NVIDIA GeForce RTX 4090'");
  addWindowOptions(command);
  addOutputOptions(command)
    .addHelpText(
      "after",
      `${TIME_HELP}\n\nJSON fields (one object per record): time, amount, timeBilledMs, diskSpaceBilledGb, podId, gpuTypeId.`,
    )
    .action(
      async (
        opts: WindowOptions & { grouping: keyof typeof POD_GROUPING; podId?: string; gpuId?: string },
      ) => {
        out.format = formatOf(opts);
        const query = windowQuery(opts);
        const grouping = POD_GROUPING[opts.grouping];
        const { api } = connect(out);
        const records = await out.spin("Fetching pod billing", () =>
          api.billing("pods", { ...query, grouping, podId: opts.podId, gpuTypeId: opts.gpuId }),
        );
        out.data(
          records.map((r) => usageView(r, ["podId", "gpuTypeId"])),
          () => usageTable(records, grouping),
        );
      },
    );
}

function registerServerless(billing: Command, out: Terminal): void {
  const command = billing
    .command("serverless")
    .aliases(["sls", "endpoints"])
    .description("Serverless endpoint billing history, per bucket and per endpoint, worker or GPU type.")
    .addOption(
      choice(
        "--grouping <field>",
        "group records by",
        ["endpointId", "podId", "gpuId"] as const,
        "endpointId",
      ),
    )
    .option("--endpoint-id <id>", "only this endpoint")
    .option("--gpu-id <id>", "only this GPU type, e.g. 'NVIDIA A100 80GB PCIe'");
  addWindowOptions(command);
  addOutputOptions(command)
    .addHelpText(
      "after",
      `${TIME_HELP}\n\nJSON fields (one object per record): time, amount, timeBilledMs, diskSpaceBilledGb, endpointId, podId, gpuTypeId.`,
    )
    .action(
      async (
        opts: WindowOptions & {
          grouping: keyof typeof ENDPOINT_GROUPING;
          endpointId?: string;
          gpuId?: string;
        },
      ) => {
        out.format = formatOf(opts);
        const query = windowQuery(opts);
        const grouping = ENDPOINT_GROUPING[opts.grouping];
        const { api } = connect(out);
        const records = await out.spin("Fetching serverless billing", () =>
          api.billing("endpoints", {
            ...query,
            grouping,
            endpointId: opts.endpointId,
            gpuTypeId: opts.gpuId,
          }),
        );
        out.data(
          records.map((r) => usageView(r, ["endpointId", "podId", "gpuTypeId"])),
          () => usageTable(records, grouping),
        );
      },
    );
}

function registerNetworkVolume(billing: Command, out: Terminal): void {
  const command = billing
    .command("network-volume")
    .alias("nv")
    .description("Network volume storage billing history, per bucket.");
  addWindowOptions(command);
  addOutputOptions(command)
    .addHelpText(
      "after",
      `${TIME_HELP}\n\nJSON fields (one object per record): time, amount, diskSpaceBilledGb, highPerformanceStorageAmount, highPerformanceStorageDiskSpaceBilledGb.`,
    )
    .action(async (opts: WindowOptions) => {
      out.format = formatOf(opts);
      const query = windowQuery(opts);
      const { api } = connect(out);
      const records = await out.spin("Fetching network volume billing", () =>
        api.billing("networkvolumes", query),
      );
      const view = records.map((r) => ({
        time: r.time,
        amount: r.amount,
        diskSpaceBilledGb: numberOrNull(r.diskSpaceBilledGb),
        highPerformanceStorageAmount: numberOrNull(r.highPerformanceStorageAmount),
        highPerformanceStorageDiskSpaceBilledGb: numberOrNull(r.highPerformanceStorageDiskSpaceBilledGb),
      }));
      out.data(view, () => {
        if (records.length === 0) return ["No billing records in this window."];
        const rows = view.map((r) => [
          localTime(r.time),
          money(r.amount),
          count(r.diskSpaceBilledGb, " GB"),
          r.highPerformanceStorageAmount === null ? "" : money(r.highPerformanceStorageAmount),
          count(r.highPerformanceStorageDiskSpaceBilledGb, " GB"),
        ]);
        const columns: Column[] = [
          { header: "time" },
          { header: "amount", align: "right" },
          { header: "disk", align: "right" },
          { header: "high-perf amount", align: "right" },
          { header: "high-perf disk", align: "right" },
        ];
        return [...table(columns, rows), "", summary(records)];
      });
    });
}

export function registerBilling(program: Command, out: Terminal): void {
  const billing = program
    .command("billing")
    .description("Billing history of pods, serverless endpoints and network volumes.");
  registerPods(billing, out);
  registerServerless(billing, out);
  registerNetworkVolume(billing, out);
}
