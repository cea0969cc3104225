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
import { type Command, Option } from "commander";
import type { schemas } from "../provider/client/index.js";
import { BUCKET_SIZES } from "../provider/client/schemas/billing.js";
import { connect } from "./connect.js";
import { UsageError } from "./errors.js";
import { type Column, count, duration, localTime, money, type Terminal, table } from "./output.js";
import { addOutputOptions, choice, type FormatOptions, timeOption } from "./parse.js";

type BillingRecord = schemas.BillingRecord;
type BucketSize = (typeof BUCKET_SIZES)[number];
/** A field of a printed record, named as the API names it. */
type RecordField = keyof BillingRecord & string;

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

/** A record as JSON and YAML print it: exactly `fields`, in that order, null where the API left one out. */
function recordView(r: BillingRecord, fields: readonly RecordField[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f, r[f] ?? null]));
}

/** The help line naming the JSON fields: the same list `recordView` prints. */
function fieldsHelp(fields: readonly RecordField[]): string {
  return `${TIME_HELP}\n\nJSON fields (one object per record): ${fields.join(", ")}.`;
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

/** The fields every pod and endpoint usage record has, before its grouping fields. */
const USAGE_FIELDS = ["time", "amount", "timeBilledMs", "diskSpaceBilledGb"] as const;

/** A usage command: pods or serverless endpoints, grouped by one of `G` and filtered. */
interface UsageSpec<G extends string> {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly description: string;
  /** The v1 billing route. */
  readonly route: "pods" | "endpoints";
  /** `--grouping` choices (runpodctl's names) and the v1 `grouping` value each is sent as. */
  readonly grouping: Readonly<Record<G, GroupField>>;
  readonly defaultGrouping: G;
  /** Filter flags and the query parameter each is sent as, in the order they are sent. */
  readonly filters: readonly {
    readonly flags: string;
    readonly description: string;
    readonly param: GroupField;
  }[];
  /** The grouping fields each printed record carries, after USAGE_FIELDS. */
  readonly fields: readonly GroupField[];
  readonly spinner: string;
}

const POD_USAGE: UsageSpec<"podId" | "gpuId"> = {
  name: "pods",
  aliases: [],
  description: "Pod billing history, per bucket and per GPU type or pod.",
  route: "pods",
  grouping: { podId: "podId", gpuId: "gpuTypeId" },
  defaultGrouping: "gpuId",
  filters: [
    { flags: "--pod-id <id>", description: "only this pod", param: "podId" },
    {
      flags: "--gpu-id <id>",
      description: "only this GPU type, e.g. 'NVIDIA GeForce RTX 4090'",
      param: "gpuTypeId",
    },
  ],
  fields: ["podId", "gpuTypeId"],
  spinner: "Fetching pod billing",
};

const ENDPOINT_USAGE: UsageSpec<"endpointId" | "podId" | "gpuId"> = {
  name: "serverless",
  aliases: ["sls", "endpoints"],
  description: "Serverless endpoint billing history, per bucket and per endpoint, worker or GPU type.",
  route: "endpoints",
  grouping: { endpointId: "endpointId", podId: "podId", gpuId: "gpuTypeId" },
  defaultGrouping: "endpointId",
  filters: [
    { flags: "--endpoint-id <id>", description: "only this endpoint", param: "endpointId" },
    {
      flags: "--gpu-id <id>",
      description: "only this GPU type, e.g. 'NVIDIA A100 80GB PCIe'",
      param: "gpuTypeId",
    },
  ],
  fields: ["endpointId", "podId", "gpuTypeId"],
  spinner: "Fetching serverless billing",
};

function registerUsage<G extends string>(billing: Command, out: Terminal, spec: UsageSpec<G>): void {
  const choices = Object.keys(spec.grouping) as G[];
  const filters = spec.filters.map((f) => ({ param: f.param, option: new Option(f.flags, f.description) }));
  const fields = [...USAGE_FIELDS, ...spec.fields];
  const command = billing
    .command(spec.name)
    .aliases([...spec.aliases])
    .description(spec.description)
    .addOption(choice("--grouping <field>", "group records by", choices, spec.defaultGrouping));
  for (const f of filters) command.addOption(f.option);
  addWindowOptions(command);
  addOutputOptions(command)
    .addHelpText("after", fieldsHelp(fields))
    .action(async (opts: WindowOptions & { grouping: G } & Record<string, unknown>) => {
      const query = windowQuery(opts);
      const grouping = spec.grouping[opts.grouping];
      const filter = Object.fromEntries(
        filters.map((f) => [f.param, opts[f.option.attributeName()] as string | undefined]),
      );
      const { api } = connect(out);
      const records = await out.spin(spec.spinner, () =>
        api.billing(spec.route, { ...query, grouping, ...filter }),
      );
      out.data(
        records.map((r) => recordView(r, fields)),
        () => usageTable(records, grouping),
      );
    });
}

const VOLUME_FIELDS = [
  "time",
  "amount",
  "diskSpaceBilledGb",
  "highPerformanceStorageAmount",
  "highPerformanceStorageDiskSpaceBilledGb",
] as const;

function registerNetworkVolume(billing: Command, out: Terminal): void {
  const command = billing
    .command("network-volume")
    .alias("nv")
    .description("Network volume storage billing history, per bucket.");
  addWindowOptions(command);
  addOutputOptions(command)
    .addHelpText("after", fieldsHelp(VOLUME_FIELDS))
    .action(async (opts: WindowOptions) => {
      const query = windowQuery(opts);
      const { api } = connect(out);
      const records = await out.spin("Fetching network volume billing", () =>
        api.billing("networkvolumes", query),
      );
      out.data(
        records.map((r) => recordView(r, VOLUME_FIELDS)),
        () => {
          if (records.length === 0) return ["No billing records in this window."];
          const rows = records.map((r) => [
            localTime(r.time),
            money(r.amount),
            count(r.diskSpaceBilledGb, " GB"),
            r.highPerformanceStorageAmount === undefined ? "" : money(r.highPerformanceStorageAmount),
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
        },
      );
    });
}

export function registerBilling(program: Command, out: Terminal): void {
  const billing = program
    .command("billing")
    .description("Billing history of pods, serverless endpoints and network volumes.");
  registerUsage(billing, out, POD_USAGE);
  registerUsage(billing, out, ENDPOINT_USAGE);
  registerNetworkVolume(billing, out);
}
