/** Catalog reads under base_url (`/v2/catalog/gpus|cpus|datacenters|templates`), with the contract's query parameters. */
import {
  availabilityOf,
  compareCuda,
  cpuAvailability,
  cpuStockAt,
  gpuAvailability,
  gpuStockAt,
} from "./capacity.js";
import { badRequest, notFound } from "./errors.js";
import { json, type RouteContext, type RouteTable } from "./routing.js";
import { type EmulatorState, stockKey } from "./state.js";
import { templateView } from "./templates.js";

const LEVELS = ["NONE", "LOW", "MEDIUM", "HIGH"] as const;
const best = (levels: string[]) =>
  levels.reduce((a, b) => (LEVELS.indexOf(b as never) > LEVELS.indexOf(a as never) ? b : a), "NONE");

/** `include=A,B` and repeated `include=A&include=B` both work (form style, explode false). */
function list(query: URLSearchParams, name: string): string[] {
  return query
    .getAll(name)
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
}

function gpuView(state: EmulatorState, gpuId: string, query: URLSearchParams) {
  const type = state.seed.gpuTypes.find((g) => g.id === gpuId);
  if (!type) return undefined;
  const include = list(query, "include");
  const product = list(query, "product");
  if (include.includes("AVAILABILITY") && product.length === 0) {
    throw badRequest(
      "include=AVAILABILITY requires product (POD, CLUSTER or SERVERLESS): stock differs by product.",
    );
  }
  const base = { ...type };
  if (!include.includes("AVAILABILITY")) return base;
  const count = Number(query.get("count") ?? "1");
  const wanted = list(query, "cudaVersions");
  const min = query.get("minCudaVersion") ?? undefined;
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
  const gpus = ctx.state.seed.gpuTypes
    .filter((g) => cloud !== "COMMUNITY" || g.community)
    .map((g) => gpuView(ctx.state, g.id, ctx.query))
    .filter((g) => g !== undefined)
    .filter((g) => {
      // With a CUDA filter, a GPU no data center can serve is left out.
      const dcs = (g as { dataCenters?: unknown[] }).dataCenters;
      return dcs === undefined || list(ctx.query, "cudaVersions").length === 0 || dcs.length > 0;
    });
  return json(200, { gpus });
}

function getGpu(ctx: RouteContext) {
  const view = gpuView(ctx.state, ctx.params.id ?? "", ctx.query);
  if (!view) throw notFound(`GPU type '${ctx.params.id}' was not found.`);
  return json(200, view);
}

function cpuView(state: EmulatorState, flavorId: string, query: URLSearchParams) {
  const flavor = state.seed.cpuFlavors.find((f) => f.id === flavorId);
  if (!flavor) return undefined;
  if (!list(query, "include").includes("AVAILABILITY")) return { ...flavor };
  const dataCenters = state.seed.dataCenters
    .map((dc) => ({ dc, stock: cpuStockAt(state, dc.id, flavorId) }))
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
  const cpus = ctx.state.seed.cpuFlavors
    .filter((f) => vcpu === null || (Number(vcpu) >= f.vcpu.min && Number(vcpu) <= f.vcpu.max))
    .map((f) => cpuView(ctx.state, f.id, ctx.query));
  return json(200, { cpus });
}

function getCpu(ctx: RouteContext) {
  const view = cpuView(ctx.state, ctx.params.id ?? "", ctx.query);
  if (!view) throw notFound(`CPU flavor '${ctx.params.id}' was not found.`);
  return json(200, view);
}

function dataCenterView(state: EmulatorState, id: string, include: string[]) {
  const dc = state.seed.dataCenters.find((d) => d.id === id);
  if (!dc) return undefined;
  const out: Record<string, unknown> = { ...dc };
  if (include.includes("GPU_AVAILABILITY")) {
    const gpus = state.seed.gpuTypes
      .map((g) => ({ g, stock: state.gpuStock.get(stockKey(dc.id, g.id)) }))
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
      .map((f) => ({ f, stock: state.cpuStock.get(stockKey(dc.id, f.id)) }))
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
  const include = list(ctx.query, "include");
  const regions = list(ctx.query, "regions");
  const volumeTypes = list(ctx.query, "networkVolumeTypes");
  const compliance = list(ctx.query, "compliance");
  const global = ctx.query.get("globalNetwork");
  const dataCenters = ctx.state.seed.dataCenters
    .filter((d) => regions.length === 0 || regions.includes(d.region))
    .filter((d) => volumeTypes.length === 0 || volumeTypes.some((t) => d.networkVolumeTypes.includes(t)))
    .filter((d) => compliance.length === 0 || compliance.every((c) => d.compliance.includes(c)))
    .filter((d) => global === null || String(d.globalNetwork) === global)
    .map((d) => dataCenterView(ctx.state, d.id, include));
  return json(200, { dataCenters });
}

function getDataCenter(ctx: RouteContext) {
  const view = dataCenterView(ctx.state, ctx.params.id ?? "", list(ctx.query, "include"));
  if (!view) throw notFound(`Data center '${ctx.params.id}' was not found.`);
  return json(200, view);
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
