/** Catalog reads under base_url (`/v2/catalog/gpus|cpus|datacenters|templates`), with the contract's query parameters. */

import { templateView } from "../account/templates.js";
import { badRequest, notFound } from "../http/errors.js";
import { json, queryList, type RouteContext, type RouteTable } from "../http/routing.js";
import { AVAILABILITY_LEVELS, type Availability } from "../schemas/catalog.js";
import type { CpuFlavorRecord, DataCenterRecord, GpuTypeRecord } from "../store/records.js";
import type { Store } from "../store/store.js";
import {
  availabilityOf,
  compareCuda,
  cpuAvailability,
  cpuStockAt,
  gpuAvailability,
  gpuStockAt,
} from "./capacity.js";

const best = (levels: Availability[]): Availability =>
  levels.reduce<Availability>(
    (a, b) => (AVAILABILITY_LEVELS.indexOf(b) > AVAILABILITY_LEVELS.indexOf(a) ? b : a),
    "NONE",
  );

/** The GPU query parameters, parsed once per request. */
interface GpuQuery {
  /** include=AVAILABILITY (which requires a product). */
  readonly availability: boolean;
  readonly count: number;
  readonly cudaVersions: readonly string[];
  readonly minCudaVersion: string | undefined;
}

function gpuQuery(query: URLSearchParams): GpuQuery {
  const availability = queryList(query, "include").includes("AVAILABILITY");
  if (availability && queryList(query, "product").length === 0) {
    throw badRequest(
      "include=AVAILABILITY requires product (POD, CLUSTER or SERVERLESS): stock differs by product.",
    );
  }
  return {
    availability,
    count: Number(query.get("count") ?? "1"),
    cudaVersions: queryList(query, "cudaVersions"),
    minCudaVersion: query.get("minCudaVersion") ?? undefined,
  };
}

function gpuView(state: Store, type: GpuTypeRecord, options: GpuQuery) {
  const gpuId = type.id;
  const base = { ...type };
  if (!options.availability) return base;
  const { count, cudaVersions: wanted, minCudaVersion: min } = options;
  const dcs = state.seed.dataCenters
    .map((dc) => ({ dc, stock: gpuStockAt(state, dc.id, gpuId) }))
    .filter(
      (x): x is { dc: (typeof x)["dc"]; stock: NonNullable<(typeof x)["stock"]> } => x.stock !== undefined,
    )
    .filter(({ stock }) => wanted.length === 0 || stock.cudaVersions.some((v) => wanted.includes(v)))
    .filter(({ stock }) => min === undefined || stock.cudaVersions.some((v) => compareCuda(v, min) >= 0));
  const dataCenters = dcs.map(({ dc, stock }) => ({
    id: dc.id,
    name: dc.name,
    availability: stock.free < count && stock.availability === undefined ? "NONE" : gpuAvailability(stock),
  }));
  const versions = new Map<string, boolean>();
  for (const { stock } of dcs) {
    for (const v of stock.cudaVersions) versions.set(v, (versions.get(v) ?? false) || stock.free >= count);
  }
  return {
    ...base,
    availability: best(dataCenters.map((d) => d.availability)),
    dataCenters,
    cudaVersions: [...versions.entries()]
      .sort(([a], [b]) => compareCuda(b, a))
      .map(([version, available]) => ({ version, available })),
  };
}

function listGpus(ctx: RouteContext) {
  const cloud = ctx.query.get("cloud");
  const options = gpuQuery(ctx.query);
  const gpus = ctx.state.seed.gpuTypes
    .filter((g) => cloud !== "COMMUNITY" || g.community)
    .map((g) => gpuView(ctx.state, g, options))
    .filter((g) => {
      // With a CUDA filter, a GPU no data center can serve is left out.
      const dcs = (g as { dataCenters?: unknown[] }).dataCenters;
      return dcs === undefined || options.cudaVersions.length === 0 || dcs.length > 0;
    });
  return json(200, { gpus });
}

function getGpu(ctx: RouteContext) {
  const type = ctx.state.gpuTypeById.get(ctx.params.id ?? "");
  if (!type) throw notFound(`GPU type '${ctx.params.id}' was not found.`);
  return json(200, gpuView(ctx.state, type, gpuQuery(ctx.query)));
}

/** include=AVAILABILITY on a CPU read. */
const withAvailability = (query: URLSearchParams) => queryList(query, "include").includes("AVAILABILITY");

function cpuView(state: Store, flavor: CpuFlavorRecord, availability: boolean) {
  if (!availability) return { ...flavor };
  const dataCenters = state.seed.dataCenters
    .map((dc) => ({ dc, stock: cpuStockAt(state, dc.id, flavor.id) }))
    .filter((x) => x.stock !== undefined)
    .map(({ dc, stock }) => ({
      id: dc.id,
      name: dc.name,
      availability: cpuAvailability(stock as NonNullable<typeof stock>),
    }));
  return { ...flavor, availability: best(dataCenters.map((d) => d.availability)), dataCenters };
}

function listCpus(ctx: RouteContext) {
  const vcpu = ctx.query.get("vcpuCount");
  const availability = withAvailability(ctx.query);
  const cpus = ctx.state.seed.cpuFlavors
    .filter((f) => vcpu === null || (Number(vcpu) >= f.vcpu.min && Number(vcpu) <= f.vcpu.max))
    .map((f) => cpuView(ctx.state, f, availability));
  return json(200, { cpus });
}

function getCpu(ctx: RouteContext) {
  const flavor = ctx.state.cpuFlavorById.get(ctx.params.id ?? "");
  if (!flavor) throw notFound(`CPU flavor '${ctx.params.id}' was not found.`);
  return json(200, cpuView(ctx.state, flavor, withAvailability(ctx.query)));
}

function dataCenterView(state: Store, dc: DataCenterRecord, include: readonly string[]) {
  const out: Record<string, unknown> = { ...dc };
  if (include.includes("GPU_AVAILABILITY")) {
    const gpus = state.seed.gpuTypes
      .map((g) => ({ g, stock: gpuStockAt(state, dc.id, g.id) }))
      .filter((x) => x.stock !== undefined)
      .map(({ g, stock }) => ({
        id: g.id,
        name: g.name,
        availability: gpuAvailability(stock as NonNullable<typeof stock>),
      }));
    if (gpus.length > 0) out.gpuAvailability = gpus;
  }
  if (include.includes("CPU_AVAILABILITY")) {
    const cpus = state.seed.cpuFlavors
      .map((f) => ({ f, stock: cpuStockAt(state, dc.id, f.id) }))
      .filter((x) => x.stock !== undefined)
      .map(({ f, stock }) => ({
        id: f.id,
        name: f.name,
        availability: availabilityOf(stock?.free ?? 0, stock?.totalVcpu ?? 0),
      }));
    if (cpus.length > 0) out.cpuAvailability = cpus;
  }
  return out;
}

function listDataCenters(ctx: RouteContext) {
  const include = queryList(ctx.query, "include");
  const regions = queryList(ctx.query, "regions");
  const volumeTypes = queryList(ctx.query, "networkVolumeTypes");
  const compliance = queryList(ctx.query, "compliance");
  const global = ctx.query.get("globalNetwork");
  const dataCenters = ctx.state.seed.dataCenters
    .filter((d) => regions.length === 0 || regions.includes(d.region))
    .filter((d) => volumeTypes.length === 0 || volumeTypes.some((t) => d.networkVolumeTypes.includes(t)))
    .filter((d) => compliance.length === 0 || compliance.every((c) => d.compliance.includes(c)))
    .filter((d) => global === null || String(d.globalNetwork) === global)
    .map((d) => dataCenterView(ctx.state, d, include));
  return json(200, { dataCenters });
}

function getDataCenter(ctx: RouteContext) {
  const dc = ctx.state.dataCenterById.get(ctx.params.id ?? "");
  if (!dc) throw notFound(`Data center '${ctx.params.id}' was not found.`);
  return json(200, dataCenterView(ctx.state, dc, queryList(ctx.query, "include")));
}

function listPublicTemplates(ctx: RouteContext) {
  const source = ctx.query.get("source") ?? "official";
  if (!["official", "verified", "community"].includes(source)) {
    throw badRequest("source must be one of official, verified, community.");
  }
  const templates = [...ctx.state.templates.values()]
    .filter((t) => t.source === source)
    .slice(0, 100)
    .map((t) => ({ ...templateView(t), registry: null }));
  return json(200, { templates });
}

export const catalogRoutes: RouteTable = {
  v2: [
    { method: "GET", pattern: "/v2/catalog/gpus", handler: listGpus },
    { method: "GET", pattern: "/v2/catalog/gpus/:id", handler: getGpu },
    { method: "GET", pattern: "/v2/catalog/cpus", handler: listCpus },
    { method: "GET", pattern: "/v2/catalog/cpus/:id", handler: getCpu },
    { method: "GET", pattern: "/v2/catalog/datacenters", handler: listDataCenters },
    { method: "GET", pattern: "/v2/catalog/datacenters/:id", handler: getDataCenter },
    { method: "GET", pattern: "/v2/catalog/templates", handler: listPublicTemplates },
  ],
};
