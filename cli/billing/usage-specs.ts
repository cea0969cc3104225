/**
 * What `billing pods` and `billing serverless` differ in: the route each reads, its flags and help,
 * and where each learns what a billed resource runs on (its attribution to GPU types).
 */
import type { RunpodApi, schemas } from "../../provider/client/index.js";
import { type Amounts, amountOf, type Fields } from "./amounts.js";

type BillingQuery = schemas.BillingQuery;
type BillingQueryEcho = schemas.BillingQueryEcho;

/** What the API says a billed resource runs on now. */
export interface Attribution {
  /** GPU type ids, or CPU flavor ids for CPU compute; never empty. */
  readonly gpuIds: readonly string[];
  /** Other names `--gpu-id` matches: an endpoint's pool ids. */
  readonly aliases: readonly string[];
}

/** A record as the route answered it, with the resource id and the amounts apart. */
export interface UsageRow {
  readonly startTime: string;
  readonly endTime: string;
  readonly id: string;
  readonly amounts: Amounts;
}

/** One usage subcommand: its route, its flags and help, and how it attributes a resource. */
export interface UsageSpec {
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

export const POD_USAGE: UsageSpec = {
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
    const res = await api.billing.pods({ ...query, podId });
    return {
      rows: res.records.map((r) => rowOf(r, r.podId, POD_AMOUNTS)),
      echo: res.metadata?.query,
    };
  },
  async attribute(api) {
    const pods = await api.pods.list();
    const out = new Map<string, Attribution>();
    for (const p of pods) {
      const gpuId = p.gpu?.id ?? p.cpu?.id;
      if (gpuId) out.set(p.id, { gpuIds: [gpuId], aliases: [] });
    }
    return out;
  },
};

export const SERVERLESS_USAGE: UsageSpec = {
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
    const res = await api.billing.serverless({ ...query, serverlessId });
    return {
      rows: res.records.map((r) => rowOf(r, r.serverlessId, SERVERLESS_AMOUNTS)),
      echo: res.metadata?.query,
    };
  },
  async attribute(api) {
    const endpoints = await api.endpoints.list();
    const catalog = endpoints.some((e) => e.gpu) ? await api.catalog.gpuTypes() : [];
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
