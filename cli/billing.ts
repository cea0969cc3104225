/**
 * `runpod-dynamic billing all|pods|serverless|network-volume` (contract: "Command-line commands",
 * Billing).
 *
 * RunPod's v2 billing routes under base_url: `/v2/billing` (the whole account), `/v2/billing/pods`,
 * `/v2/billing/serverless` and `/v2/billing/network-volumes` (`/v2/billing/endpoints` is the billing
 * of RunPod's public hosted-model endpoints, not of serverless endpoints). They answer one record
 * per resource per bucket, with the cost split into components, and have no grouping and no GPU
 * filter. The flags runpodctl users know keep working because this command does both itself:
 *
 * - `--grouping gpuId` and `--gpu-id` use what the API says about each billed resource now: a pod's
 *   GPU type (or CPU flavor) from `GET /v2/pods`; an endpoint's GPU types from `GET /v2/serverless`,
 *   its pools expanded to their GPU types through `GET /v2/catalog/gpus` minus its excluded types
 *   (or its CPU flavors). A record whose pod or endpoint the API no longer lists (terminated,
 *   deleted) cannot be attributed: grouped, it is shown under a null GPU; with `--gpu-id`, it is left
 *   out. Either way the output names those resources and their amount (`unattributed`).
 * - Serverless billing does not say which GPU type each worker ran on, so an endpoint is grouped
 *   under all the types it may run on together (`gpuIds`), and `--gpu-id` keeps an endpoint that
 *   may run on that type (or names its pool).
 * - Serverless `--grouping podId` (per worker) has no v2 equivalent and is refused.
 *
 * JSON/YAML output is one object: `query` (the window the API answered for, and the flags applied
 * here), `records`, `totals` (sums over the printed records) and, for pods and serverless,
 * `unattributed`. Each command's `--help` lists the fields. Amounts are US dollars; times are the
 * API's RFC 3339 strings. Tables show amounts with 4 decimals and times in the user's zone (TZ).
 */
import { type Command, Option } from "commander";
import type { RunpodApi, schemas } from "../provider/client/index.js";
import { BUCKET_SIZES, type BucketSize } from "../provider/client/schemas/billing.js";
import { connect } from "./connect.js";
import { UsageError } from "./errors.js";
import { type Column, fields, localTime, money, type Terminal, table } from "./output.js";
import { addOutputOptions, choice, type FormatOptions, intOption, textOption, timeOption } from "./parse.js";

type BillingQuery = schemas.BillingQuery;
type BillingQueryEcho = schemas.BillingQueryEcho;
type Amounts = Record<string, number>;

interface WindowOptions extends FormatOptions {
  bucketSize: BucketSize;
  startTime?: string;
  endTime?: string;
  lastN?: number;
}

const TIME_HELP = `
Times are RFC 3339 date-times, e.g. 2026-11-01T00:00:00Z or 2026-11-01T00:00:00+02:00. RunPod
widens the window to whole buckets; the JSON's query shows the window it answered for.
Tables show US dollars and bucket start times in your time zone (TZ).`;

function addWindowOptions(command: Command): Command {
  return command
    .addOption(choice("--bucket-size <size>", "length of one billing bucket", BUCKET_SIZES, "day"))
    .option(
      "--start-time <time>",
      "first instant to include (RFC 3339; default 30 days ago)",
      timeOption("--start-time"),
    )
    .option("--end-time <time>", "instant to stop before (RFC 3339; default now)", timeOption("--end-time"))
    .addOption(
      new Option("--last-n <n>", "the last n buckets, ending with the current one, instead of a window")
        .argParser(intOption("--last-n", 1, 10_000))
        .conflicts(["startTime", "endTime"]),
    );
}

/** The window's query parameters in the order sent; an unset flag is not sent. */
function windowQuery(opts: WindowOptions): BillingQuery {
  if (opts.startTime && opts.endTime && Date.parse(opts.startTime) >= Date.parse(opts.endTime)) {
    throw new UsageError(`--start-time (${opts.startTime}) must be before --end-time (${opts.endTime}).`);
  }
  return {
    startTime: opts.startTime,
    endTime: opts.endTime,
    bucketSize: opts.bucketSize,
    lastN: opts.lastN,
  };
}

/** `query` of the JSON output: the window as the API resolved it (what was sent, without an echo). */
function windowView(sent: BillingQuery, echo: BillingQueryEcho | undefined) {
  return {
    startTime: echo?.startTime ?? sent.startTime ?? null,
    endTime: echo?.endTime ?? sent.endTime ?? null,
    bucketSize: echo?.bucketSize ?? sent.bucketSize ?? "day",
    lastN: sent.lastN ?? null,
  };
}

/** Sums without binary floating-point noise: 0.1 + 0.2 is 0.3 here. */
const exact = (n: number) => Number(n.toFixed(10));

type Fields = Readonly<Record<string, unknown>>;

/** A record's amount field; 0 when missing. */
function amountOf(r: Fields, key: string): number {
  const v = r[key];
  return typeof v === "number" ? v : 0;
}

/** Each of `keys` summed over `records`. */
function sumAmounts(keys: readonly string[], records: readonly Fields[]): Amounts {
  return Object.fromEntries(keys.map((k) => [k, exact(records.reduce((s, r) => s + amountOf(r, k), 0))]));
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * The closing line under a table: the total and the window, and when RunPod widened the window to
 * whole buckets (a week bucket starts on its Monday, before a mid-week --start-time), that it did.
 */
function summary(
  total: number,
  count: number,
  window: ReturnType<typeof windowView>,
  askedStart: string | undefined,
): string {
  const span =
    window.startTime && window.endTime
      ? ` from ${localTime(window.startTime)} to ${localTime(window.endTime)}`
      : "";
  const widened =
    askedStart && window.startTime && Date.parse(window.startTime) < Date.parse(askedStart)
      ? ` RunPod bills whole ${window.bucketSize}s, so the first bucket starts before --start-time (${localTime(askedStart)}).`
      : "";
  return `Total ${money(total)} over ${plural(count, "record")}${span}.${widened}`;
}

const EMPTY = "No billing records in this window.";

// ---------------------------------------------------------------- pods and serverless

/** What the API says a billed resource runs on now. */
interface Attribution {
  /** GPU type ids, or CPU flavor ids for CPU compute; never empty. */
  readonly gpuIds: readonly string[];
  /** Other names `--gpu-id` matches: an endpoint's pool ids. */
  readonly aliases: readonly string[];
}

/** A record as the route answered it, with the resource id and the amounts apart. */
interface UsageRow {
  readonly startTime: string;
  readonly endTime: string;
  readonly id: string;
  readonly amounts: Amounts;
}

interface UsageSpec {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly description: string;
  /** The billed resource, for messages: "pod", "endpoint". */
  readonly noun: string;
  /** The filter flag naming one resource, sent as the route's filter parameter. */
  readonly idFlag: { readonly flag: string; readonly description: string; readonly attribute: string };
  /** Output field of the resource id, and of the ids summed into a GPU group. */
  readonly idField: string;
  readonly idsField: string;
  /** Output field of a GPU group: one id for pods, the list an endpoint may run on for serverless. */
  readonly gpuField: string;
  readonly gpuValue: (a: Attribution) => string | readonly string[];
  readonly gpuFlagHelp: string;
  /** The help's paragraph on where `--grouping gpuId` and `--gpu-id` get a resource's GPU from. */
  readonly attributionHelp: string;
  /** Resources the API no longer lists, for the help. */
  readonly goneExample: string;
  readonly groupings: readonly [string, ...string[]];
  readonly groupingHelp: string;
  readonly defaultGrouping: string;
  readonly retiredGroupings: Readonly<Record<string, string>>;
  /** Amount fields (totalAmount first) and their table headers. */
  readonly amountFields: readonly string[];
  readonly amountHeaders: readonly string[];
  readonly spinner: string;
  fetch(
    api: RunpodApi,
    query: BillingQuery,
    id: string | undefined,
  ): Promise<{
    rows: UsageRow[];
    echo: BillingQueryEcho | undefined;
  }>;
  /** What each resource the API lists runs on, by id. */
  attribute(api: RunpodApi): Promise<Map<string, Attribution>>;
}

const POD_AMOUNTS = ["totalAmount", "gpuAmount", "cpuAmount", "diskAmount"] as const;
const SERVERLESS_AMOUNTS = [...POD_AMOUNTS, "feeAmount"] as const;

function rowOf(
  r: Fields & { startTime: string; endTime: string },
  id: string,
  keys: readonly string[],
): UsageRow {
  return {
    startTime: r.startTime,
    endTime: r.endTime,
    id,
    amounts: Object.fromEntries(keys.map((k) => [k, amountOf(r, k)])),
  };
}

/**
 * The GPU types an endpoint's workers may run on: each pool's types in catalog order, without the
 * excluded ones. A pool the catalog does not know stands for itself.
 */
function endpointGpuTypes(
  gpu: { readonly pools: readonly string[]; readonly excludedTypes?: readonly string[] | undefined },
  catalog: readonly schemas.GpuType[],
): string[] {
  const excluded = new Set(gpu.excludedTypes ?? []);
  const types: string[] = [];
  for (const pool of gpu.pools) {
    const inPool = catalog.filter((g) => g.pool === pool).map((g) => g.id);
    const kept = inPool.length === 0 ? [pool] : inPool.filter((id) => !excluded.has(id));
    for (const id of kept) if (!types.includes(id)) types.push(id);
  }
  return types;
}

const POD_USAGE: UsageSpec = {
  name: "pods",
  aliases: [],
  description: "Pod billing history per bucket, per pod or per GPU type.",
  noun: "pod",
  idFlag: { flag: "--pod-id", description: "only this pod (filtered by RunPod)", attribute: "podId" },
  idField: "podId",
  idsField: "podIds",
  gpuField: "gpuId",
  gpuValue: (a) => a.gpuIds[0] ?? "",
  gpuFlagHelp:
    "only pods on this GPU type (or CPU flavor), e.g. 'NVIDIA GeForce RTX 4090'; matched here against the pods RunPod lists",
  attributionHelp: `RunPod bills per pod and bucket, with no grouping and no GPU filter: --grouping gpuId and --gpu-id
are worked out here from each pod's GPU type (or CPU flavor), as GET /v2/pods lists it now.`,
  goneExample: "terminated pods",
  groupings: ["podId", "gpuId"],
  groupingHelp: "sum the records per pod or per GPU type",
  defaultGrouping: "gpuId",
  retiredGroupings: {},
  amountFields: POD_AMOUNTS,
  amountHeaders: ["total", "gpu", "cpu", "disk"],
  spinner: "Fetching pod billing",
  async fetch(api, query, podId) {
    const res = await api.listPodBilling({ ...query, podId });
    return {
      rows: res.records.map((r) => rowOf(r, r.podId, POD_AMOUNTS)),
      echo: res.metadata?.query,
    };
  },
  async attribute(api) {
    const pods = await api.listPods();
    const out = new Map<string, Attribution>();
    for (const p of pods) {
      const gpuId = p.gpu?.id ?? p.cpu?.id;
      if (gpuId) out.set(p.id, { gpuIds: [gpuId], aliases: [] });
    }
    return out;
  },
};

const SERVERLESS_USAGE: UsageSpec = {
  name: "serverless",
  aliases: ["sls", "endpoints"],
  description: "Serverless endpoint billing history per bucket, per endpoint or per GPU type.",
  noun: "endpoint",
  idFlag: {
    flag: "--endpoint-id",
    description: "only this endpoint (filtered by RunPod)",
    attribute: "endpointId",
  },
  idField: "endpointId",
  idsField: "endpointIds",
  gpuField: "gpuIds",
  gpuValue: (a) => a.gpuIds,
  gpuFlagHelp:
    "only endpoints that may run on this GPU type or pool, e.g. 'NVIDIA A100 80GB PCIe' or AMPERE_80; matched here against the endpoints RunPod lists",
  attributionHelp: `RunPod bills per endpoint and bucket, with no grouping and no GPU filter: --grouping gpuId and
--gpu-id are worked out here from each endpoint's GPU pools (minus its excluded types; the pools'
GPU types from GET /v2/catalog/gpus) or CPU flavors, as GET /v2/serverless lists them now.
Serverless billing does not say which GPU type each worker used, so an endpoint is grouped under
all the types it may run on together (gpuIds), and --gpu-id keeps an endpoint that may run on it.`,
  goneExample: "deleted endpoints",
  groupings: ["endpointId", "gpuId"],
  groupingHelp: "sum the records per endpoint or per GPU types",
  defaultGrouping: "endpointId",
  retiredGroupings: {
    podId:
      "RunPod's v2 billing has no per-worker records, so serverless cannot be grouped by podId any more;",
  },
  amountFields: SERVERLESS_AMOUNTS,
  amountHeaders: ["total", "gpu", "cpu", "disk", "fee"],
  spinner: "Fetching serverless billing",
  async fetch(api, query, serverlessId) {
    const res = await api.listServerlessBilling({ ...query, serverlessId });
    return {
      rows: res.records.map((r) => rowOf(r, r.serverlessId, SERVERLESS_AMOUNTS)),
      echo: res.metadata?.query,
    };
  },
  async attribute(api) {
    const endpoints = await api.listEndpoints();
    const catalog = endpoints.some((e) => e.gpu) ? await api.listGpuTypes() : [];
    const out = new Map<string, Attribution>();
    for (const e of endpoints) {
      const attribution = e.gpu
        ? { gpuIds: endpointGpuTypes(e.gpu, catalog), aliases: e.gpu.pools }
        : { gpuIds: (e.cpu ?? []).map((c) => c.id), aliases: [] };
      if (attribution.gpuIds.length > 0) out.set(e.id, attribution);
    }
    return out;
  },
};

function matchesGpu(a: Attribution, wanted: string): boolean {
  const w = wanted.toLowerCase();
  return [...a.gpuIds, ...a.aliases].some((id) => id.toLowerCase() === w);
}

/**
 * The rows `--gpu-id` keeps (all of them without it), and the rows whose resource the API does
 * not list: those are left out by `--gpu-id`, and kept otherwise.
 */
function splitByAttribution(
  rows: readonly UsageRow[],
  attributions: ReadonlyMap<string, Attribution> | undefined,
  wanted: string | undefined,
): { kept: UsageRow[]; lost: UsageRow[] } {
  if (!attributions) return { kept: [...rows], lost: [] };
  const lost = rows.filter((r) => !attributions.has(r.id));
  if (wanted === undefined) return { kept: [...rows], lost };
  const kept = rows.filter((r) => {
    const a = attributions.get(r.id);
    return a !== undefined && matchesGpu(a, wanted);
  });
  return { kept, lost };
}

/** One printed record: its JSON object, and what its table row shows. */
interface Printed {
  readonly json: Record<string, unknown>;
  readonly startTime: string;
  /** The resource id, or the GPU types of a group. */
  readonly label: string;
  /** How many resources a GPU group sums. */
  readonly resources: number;
  readonly amounts: Amounts;
}

const UNATTRIBUTED = "(unattributed)";

function perResource(spec: UsageSpec, rows: readonly UsageRow[]): Printed[] {
  return rows.map((r) => ({
    json: { startTime: r.startTime, endTime: r.endTime, [spec.idField]: r.id, ...r.amounts },
    startTime: r.startTime,
    label: r.id,
    resources: 1,
    amounts: r.amounts,
  }));
}

/**
 * Rows summed per bucket and GPU selection (the unattributed together): by bucket, then by GPU
 * label, the unattributed last.
 */
function perGpu(
  spec: UsageSpec,
  rows: readonly UsageRow[],
  attributions: ReadonlyMap<string, Attribution>,
): Printed[] {
  const groups = new Map<
    string,
    { first: UsageRow; attribution: Attribution | undefined; rows: UsageRow[] }
  >();
  for (const row of rows) {
    const attribution = attributions.get(row.id);
    const key = [row.startTime, row.endTime, attribution?.gpuIds.join("\n") ?? ""].join("\u0000");
    const group = groups.get(key) ?? { first: row, attribution, rows: [] };
    group.rows.push(row);
    groups.set(key, group);
  }
  const printed = [...groups.values()].map(({ first, attribution, rows: summed }) => {
    const ids = [...new Set(summed.map((r) => r.id))].sort();
    const amounts = sumAmounts(
      spec.amountFields,
      summed.map((r) => r.amounts),
    );
    return {
      json: {
        startTime: first.startTime,
        endTime: first.endTime,
        [spec.gpuField]: attribution ? spec.gpuValue(attribution) : null,
        [spec.idsField]: ids,
        ...amounts,
      },
      startTime: first.startTime,
      label: attribution?.gpuIds.join(", ") ?? UNATTRIBUTED,
      unattributed: attribution === undefined,
      resources: ids.length,
      amounts,
    };
  });
  return printed
    .sort(
      (a, b) =>
        Date.parse(a.startTime) - Date.parse(b.startTime) ||
        Number(a.unattributed) - Number(b.unattributed) ||
        (a.label < b.label ? -1 : a.label > b.label ? 1 : 0),
    )
    .map(({ unattributed: _, ...p }) => p);
}

/** The table, its total, and a line on what could not be attributed. */
function usageLines(
  spec: UsageSpec,
  printed: readonly Printed[],
  byGpu: boolean,
  window: ReturnType<typeof windowView>,
  lost: { readonly recordCount: number; readonly totalAmount: number; readonly ids: readonly string[] },
  wanted: string | undefined,
  askedStart: string | undefined,
): string[] {
  const lines: string[] = [];
  if (printed.length === 0) {
    lines.push(EMPTY);
  } else {
    const columns: Column[] = [
      { header: "time" },
      { header: byGpu ? (spec.noun === "pod" ? "gpu type" : "gpu types") : spec.noun },
      ...(byGpu ? [{ header: `${spec.noun}s`, align: "right" as const }] : []),
      ...spec.amountHeaders.map((header): Column => ({ header, align: "right" })),
    ];
    const rows = printed.map((p) => [
      localTime(p.startTime),
      p.label,
      ...(byGpu ? [String(p.resources)] : []),
      ...spec.amountFields.map((k) => money(p.amounts[k] ?? 0)),
    ]);
    const total = exact(printed.reduce((s, p) => s + (p.amounts.totalAmount ?? 0), 0));
    lines.push(...table(columns, rows), "", summary(total, printed.length, window, askedStart));
  }
  if (lost.recordCount > 0) {
    const what = `${plural(lost.recordCount, "record")} (${money(lost.totalAmount)}) of ${plural(lost.ids.length, spec.noun)} RunPod no longer lists (${lost.ids.join(", ")})`;
    lines.push(
      wanted === undefined
        ? `${what} could not be attributed to a GPU type: shown as ${UNATTRIBUTED}.`
        : `${what} could not be matched against --gpu-id and are left out.`,
    );
  }
  return lines;
}

function usageHelp(spec: UsageSpec): string {
  const amounts = spec.amountFields.join(", ");
  return `${TIME_HELP}

${spec.attributionHelp}
Records of ${spec.noun}s RunPod no longer lists (${spec.goneExample}) cannot be attributed: grouped,
they are shown under ${UNATTRIBUTED} (null in JSON); with --gpu-id they are left out. The output
says which ${spec.noun}s and how much (in JSON: unattributed).

JSON fields (one object): query, records, totals, unattributed.
  query: startTime, endTime, bucketSize (the window RunPod answered for), lastN, grouping,
    ${spec.idField}, gpuId
  records, --grouping ${spec.groupings[0]}: startTime, endTime, ${spec.idField}, ${amounts}
  records, --grouping gpuId: startTime, endTime, ${spec.gpuField}, ${spec.idsField}, ${amounts}
  totals: ${amounts} (sums over the records printed)
  unattributed: recordCount, totalAmount, ${spec.idsField}`;
}

function registerUsage(billing: Command, out: Terminal, spec: UsageSpec): void {
  const command = billing
    .command(spec.name)
    .aliases([...spec.aliases])
    .description(spec.description)
    .addOption(
      choice(
        "--grouping <field>",
        spec.groupingHelp,
        spec.groupings,
        spec.defaultGrouping,
        spec.retiredGroupings,
      ),
    )
    .option(`${spec.idFlag.flag} <id>`, spec.idFlag.description, textOption(spec.idFlag.flag))
    .option("--gpu-id <id>", spec.gpuFlagHelp, textOption("--gpu-id"));
  addWindowOptions(command);
  addOutputOptions(command)
    .addHelpText("after", usageHelp(spec))
    .action(async (opts: WindowOptions & { grouping: string; gpuId?: string } & Record<string, unknown>) => {
      const query = windowQuery(opts);
      const resourceId = opts[spec.idFlag.attribute] as string | undefined;
      const byGpu = opts.grouping === "gpuId";
      const { api } = connect(out);
      const answer = await out.spin(spec.spinner, () => spec.fetch(api, query, resourceId));
      // Only grouping and filtering by GPU need to know what each resource runs on.
      const attributions =
        (byGpu || opts.gpuId !== undefined) && answer.rows.length > 0
          ? await out.spin(`Reading what each ${spec.noun} runs on`, () => spec.attribute(api))
          : undefined;
      const { kept, lost } = splitByAttribution(answer.rows, attributions, opts.gpuId);
      const printed = byGpu ? perGpu(spec, kept, attributions ?? new Map()) : perResource(spec, kept);
      const window = windowView(query, answer.echo);
      const unattributed = {
        recordCount: lost.length,
        totalAmount: exact(lost.reduce((s, r) => s + (r.amounts.totalAmount ?? 0), 0)),
        ids: [...new Set(lost.map((r) => r.id))].sort(),
      };
      const view = {
        query: {
          ...window,
          grouping: opts.grouping,
          [spec.idField]: resourceId ?? null,
          gpuId: opts.gpuId ?? null,
        },
        records: printed.map((p) => p.json),
        totals: sumAmounts(
          spec.amountFields,
          printed.map((p) => p.amounts),
        ),
        unattributed: {
          recordCount: unattributed.recordCount,
          totalAmount: unattributed.totalAmount,
          [spec.idsField]: unattributed.ids,
        },
      };
      out.data(view, () =>
        usageLines(spec, printed, byGpu, window, unattributed, opts.gpuId, query.startTime),
      );
    });
}

// ---------------------------------------------------------------- network volumes

const VOLUME_AMOUNTS = ["totalAmount", "standardAmount", "highPerformanceAmount"] as const;

function registerNetworkVolume(billing: Command, out: Terminal): void {
  const command = billing
    .command("network-volume")
    .alias("nv")
    .description("Network volume storage billing history, per bucket and volume.")
    .option(
      "--network-volume-id <id>",
      "only this network volume (filtered by RunPod)",
      textOption("--network-volume-id"),
    );
  addWindowOptions(command);
  addOutputOptions(command)
    .addHelpText(
      "after",
      `${TIME_HELP}

JSON fields (one object): query, records, totals.
  query: startTime, endTime, bucketSize (the window RunPod answered for), lastN, networkVolumeId
  records: startTime, endTime, networkVolumeId, ${VOLUME_AMOUNTS.join(", ")}
  totals: ${VOLUME_AMOUNTS.join(", ")} (sums over the records)`,
    )
    .action(async (opts: WindowOptions & { networkVolumeId?: string }) => {
      const query = windowQuery(opts);
      const { api } = connect(out);
      const res = await out.spin("Fetching network volume billing", () =>
        api.listNetworkVolumeBilling({ ...query, networkVolumeId: opts.networkVolumeId }),
      );
      const records = res.records.map((r) => ({
        startTime: r.startTime,
        endTime: r.endTime,
        networkVolumeId: r.networkVolumeId,
        ...Object.fromEntries(VOLUME_AMOUNTS.map((k) => [k, r[k]])),
      }));
      const window = windowView(query, res.metadata?.query);
      const totals = sumAmounts(VOLUME_AMOUNTS, records);
      const view = {
        query: { ...window, networkVolumeId: opts.networkVolumeId ?? null },
        records,
        totals,
      };
      out.data(view, () => {
        if (records.length === 0) return [EMPTY];
        return [
          ...table(
            [
              { header: "time" },
              { header: "volume" },
              { header: "total", align: "right" },
              { header: "standard", align: "right" },
              { header: "high-perf", align: "right" },
            ],
            res.records.map((r) => [
              localTime(r.startTime),
              r.networkVolumeId,
              money(r.totalAmount),
              money(r.standardAmount),
              money(r.highPerformanceAmount),
            ]),
          ),
          "",
          summary(totals.totalAmount ?? 0, records.length, window, query.startTime),
        ];
      });
    });
}

// ---------------------------------------------------------------- the whole account

/** The account's cost components by resource family, as `billing all` sums them in its table. */
const FAMILIES = [
  { header: "pods", parts: { GPU: "podGpuAmount", CPU: "podCpuAmount", disk: "podDiskAmount" } },
  {
    header: "serverless",
    parts: {
      GPU: "serverlessGpuAmount",
      CPU: "serverlessCpuAmount",
      disk: "serverlessDiskAmount",
      fee: "serverlessFeeAmount",
    },
  },
  {
    header: "storage",
    parts: { standard: "storageStandardAmount", "high-performance": "storageHighPerformanceAmount" },
  },
  { header: "public endpoints", parts: { total: "endpointAmount" } },
  {
    header: "clusters",
    parts: { GPU: "clusterGpuAmount", disk: "clusterDiskAmount", networking: "clusterNetworkingAmount" },
  },
] as const;

const ALL_AMOUNTS = ["totalAmount", ...FAMILIES.flatMap((f) => Object.values(f.parts))] as const;

function familySum(a: Fields, parts: Readonly<Record<string, string>>): number {
  return exact(Object.values(parts).reduce((s, k) => s + amountOf(a, k), 0));
}

function registerAll(billing: Command, out: Terminal): void {
  const command = billing
    .command("all")
    .description("The whole account's spend per bucket, with every cost component.");
  addWindowOptions(command);
  addOutputOptions(command)
    .addHelpText(
      "after",
      `${TIME_HELP}
The table sums each family's components; JSON has every component. endpointAmount is RunPod's
public (hosted model) endpoints; serverless endpoints are the serverless* amounts.

JSON fields (one object): query, records, totals.
  query: startTime, endTime, bucketSize (the window RunPod answered for), lastN
  records: startTime, endTime, ${ALL_AMOUNTS.join(", ")}
  totals: the same amounts (sums over the records)`,
    )
    .action(async (opts: WindowOptions) => {
      const query = windowQuery(opts);
      const { api } = connect(out);
      const res = await out.spin("Fetching billing", () => api.listBilling(query));
      const records = res.records.map((r) => ({
        startTime: r.startTime,
        endTime: r.endTime,
        ...Object.fromEntries(ALL_AMOUNTS.map((k) => [k, r[k]])),
      }));
      const window = windowView(query, res.metadata?.query);
      const totals = sumAmounts(ALL_AMOUNTS, records);
      out.data({ query: window, records, totals }, () => {
        if (records.length === 0) return [EMPTY];
        return [
          ...table(
            [
              { header: "time" },
              { header: "total", align: "right" },
              ...FAMILIES.map((f): Column => ({ header: f.header, align: "right" })),
            ],
            res.records.map((r) => [
              localTime(r.startTime),
              money(r.totalAmount),
              ...FAMILIES.map((f) => money(familySum(r, f.parts))),
            ]),
          ),
          "",
          summary(totals.totalAmount ?? 0, records.length, window, query.startTime),
          ...fields(
            FAMILIES.map((f) => {
              const parts = Object.entries(f.parts);
              const detail =
                parts.length > 1
                  ? ` (${parts.map(([label, k]) => `${label} ${money(totals[k] ?? 0)}`).join(", ")})`
                  : "";
              return [
                `${f.header[0]?.toUpperCase()}${f.header.slice(1)}`,
                `${money(familySum(totals, f.parts))}${detail}`,
              ] as const;
            }),
          ),
        ];
      });
    });
}

export function registerBilling(program: Command, out: Terminal): void {
  const billing = program
    .command("billing")
    .description("Billing history of the account, pods, serverless endpoints and network volumes.");
  registerAll(billing, out);
  registerUsage(billing, out, POD_USAGE);
  registerUsage(billing, out, SERVERLESS_USAGE);
  registerNetworkVolume(billing, out);
}
