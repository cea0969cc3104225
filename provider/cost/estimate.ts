/**
 * What a resource costs at list price, per hour, from its inputs (and, for one that exists, what
 * it runs on now): the one estimate the cost command, the quickstart and the policy pack's budget
 * all use. Pure: prices come in as a {@link PriceList}, nothing is read from the network.
 *
 * The rules, each in its function below and in docs/cost.md:
 * - Pod: the GPU type's rate for the pod's cloud times `gpu.count` (a CPU pod: the flavor's rate
 *   per vCPU times `cpu.vcpuCount`), plus its container disk and volume disk at the published
 *   storage rate. A pod not yet placed may land on any of its candidates' GPU types: it costs a
 *   range, lowest to highest. A stopped pod bills its volume disk only.
 * - Cluster: every member pod at the GPU's Secure rate.
 * - ServerlessEndpoint: per worker the pool's serverless rate times `gpu.count`; from
 *   `workers.min` workers (the floor, always on) to `workers.max` (the ceiling).
 * - NetworkVolume: the published per-GB-month rate of its tier.
 * - SshKey, Template, Registry, Secret and ServerlessJob cost nothing of their own.
 *
 * A value preview cannot know yet makes the estimate "unknown", never zero; a GPU type, pool or
 * flavor the catalog does not have is an error that names the field.
 */
import { placementSource } from "../catalog/candidates.js";
import { autostopPolicy } from "../resources/pod/autostop.js";
import { runpodTypeName } from "../resources/type-tokens.js";
import { isUnknown } from "../validation/unknown.js";
import { amount, type Fields, HIDDEN, known, record, Stop, text } from "./estimate-fields.js";
import {
  type CostPart,
  type HourlyRange,
  rangeOf,
  showRange,
  single,
  storageHourly,
  sum,
  times,
} from "./hourly-range.js";
import { type PriceList, STORAGE_RATES } from "./prices.js";

/** A GPU type the resource may run on, at its list rate per GPU-hour (the pod's cloud, or serverless). */
export interface GpuRate {
  readonly id: string;
  readonly hourly: number;
}

export type Estimate =
  | {
      readonly kind: "priced";
      readonly hourly: HourlyRange;
      readonly parts: readonly CostPart[];
      /** What RunPod bills the resource now (a pod's `cost`), when it exists and says. */
      readonly billedHourly: number | null;
      /** What the figure leaves out or assumes. */
      readonly notes: readonly string[];
      /** Every GPU type it may run on, with its rate per GPU: what a per-GPU budget checks. */
      readonly gpus: readonly GpuRate[];
    }
  /** A value the estimate needs is unknown (preview) or secret. */
  | { readonly kind: "unknown"; readonly field: string; readonly reason: string }
  /** The resource is not billed on its own. */
  | { readonly kind: "no-charge"; readonly reason: string }
  /** Billed, but at no rate this estimate knows (another provider's resource, an unpublished rate). */
  | { readonly kind: "not-priced"; readonly reason: string }
  /** The inputs name something the price list does not have. */
  | { readonly kind: "error"; readonly field: string; readonly reason: string };

/** A resource as the estimate reads it. */
export interface PricedResource {
  /** The type token (`pulumi-nodejs:dynamic/runpod:Pod`). */
  readonly type: string;
  /** What the program declares: the checked inputs, as state and previews record them. */
  readonly inputs: Readonly<Record<string, unknown>>;
  /**
   * The outputs of the resource as it exists, when it does: where it was placed (a pod's GPU type
   * and cloud, a volume's tier) is read from here, and a pod's billed `cost`.
   */
  readonly live?: Readonly<Record<string, unknown>> | undefined;
}

// ---------------------------------------------------------------- the rules

/** The GPU types a pod not yet placed may land on, with the field naming each. */
function candidateGpus(inputs: Fields, gpuId: string): [field: string, gpuTypeId: unknown][] {
  const placement = record(known(inputs.placement, "placement"));
  switch (placementSource(placement)) {
    case "candidates": {
      const list = known(placement?.candidates, "placement.candidates");
      return (Array.isArray(list) ? list : []).map((c, i) => {
        const candidate = record(known(c, `placement.candidates[${i}]`));
        const id = candidate?.gpuTypeId;
        return id === undefined ? ["gpu.id", gpuId] : [`placement.candidates[${i}].gpuTypeId`, id];
      });
    }
    case "catalog": {
      const more = known(placement?.gpuTypeIds, "placement.gpuTypeIds");
      return [
        ["gpu.id", gpuId],
        ...(Array.isArray(more) ? more : []).map((id, i): [string, unknown] => [
          `placement.gpuTypeIds[${i}]`,
          id,
        ]),
      ];
    }
    case "request":
      return [["gpu.id", gpuId]];
  }
}

/** The compute part of a GPU pod, and the GPU types it may run on. */
function podGpu(
  r: PricedResource,
  prices: PriceList,
  gpu: Fields,
  cloud: string,
  stopped: boolean,
): { part: CostPart; gpus: GpuRate[] } {
  const liveGpu = record(r.live?.gpu);
  const count = amount(gpu.count ?? liveGpu?.count, "gpu.count", 1);
  const gpuId = text(liveGpu?.id ?? gpu.id, "gpu.id");
  // Once placed, a pod runs on one GPU type (the outputs say which); before, on any candidate's.
  const candidates: [string, unknown][] = liveGpu ? [["gpu.id", gpuId]] : candidateGpus(r.inputs, gpuId);
  const gpus: GpuRate[] = [];
  const names = new Set<string>();
  for (const [field, id] of candidates) {
    const typeId = text(id, field);
    const price = prices.gpus.get(typeId);
    if (!price)
      throw new Stop("error", field, `GPU type "${typeId}" is not in the catalog (${prices.source})`);
    const rate = cloud === "COMMUNITY" ? price.community : price.secure;
    if (rate === null || gpus.some((g) => g.id === typeId)) continue;
    gpus.push({ id: typeId, hourly: rate });
    names.add(price.name);
  }
  if (gpus.length === 0)
    throw new Stop("error", "gpu.id", `no GPU type this pod may use is offered in the ${cloud} cloud`);
  const hourly = times(rangeOf(gpus.map((g) => g.hourly)), count);
  const what = `${count}x ${[...names].join(" / ")} GPU, ${cloud}`;
  const part = stopped ? { what: `${what}: stopped, not billed`, hourly: single(0) } : { what, hourly };
  return { part, gpus };
}

/** The compute part of a CPU pod: the flavor's Secure rate per vCPU. */
function podCpu(prices: PriceList, cpu: Fields, cloud: string, stopped: boolean): CostPart {
  const id = text(cpu.id, "cpu.id");
  const vcpus = amount(cpu.vcpuCount, "cpu.vcpuCount", 0);
  const flavor = prices.cpus.get(id);
  if (!flavor)
    throw new Stop("error", "cpu.id", `CPU flavor "${id}" is not in the catalog (${prices.source})`);
  if (cloud !== "SECURE")
    throw new Stop(
      "error",
      "cloud",
      `the catalog prices CPU flavors for the SECURE cloud only, not ${cloud}`,
    );
  const what = `${vcpus} vCPU ${flavor.name} (${id})`;
  return stopped
    ? { what: `${what}: stopped, not billed`, hourly: single(0) }
    : { what, hourly: single(flavor.securePerVcpu * vcpus) };
}

function pod(r: PricedResource, prices: PriceList): Estimate {
  const { inputs, live } = r;
  // What the program asks for; a pod stopped outside it shows in what RunPod bills, not here.
  const stopped = (known(inputs.desiredStatus, "desiredStatus") ?? live?.desiredStatus) === "STOPPED";
  const cloud = text(live?.cloud ?? known(inputs.cloud, "cloud") ?? "SECURE", "cloud");
  const gpu = record(known(inputs.gpu, "gpu")) ?? record(live?.gpu);
  const cpu = record(known(inputs.cpu, "cpu")) ?? record(live?.cpu);
  const parts: CostPart[] = [];
  const notes: string[] = [];
  let gpus: GpuRate[] = [];
  if (gpu) {
    const compute = podGpu(r, prices, gpu, cloud, stopped);
    parts.push(compute.part);
    gpus = compute.gpus;
  } else if (cpu) {
    parts.push(podCpu(prices, cpu, cloud, stopped));
  } else {
    throw new Stop("error", "gpu", "a pod has either gpu or cpu");
  }

  const mounts = record(known(inputs.mounts, "mounts")) ?? record(live?.mounts);
  const persistent = record(known(mounts?.persistent, "mounts.persistent"));
  const volumeGb = amount(persistent?.size, "mounts.persistent.size", 0);
  const diskGb = amount(known(inputs.disk, "disk") ?? live?.disk, "disk");
  if (stopped) {
    if (volumeGb > 0)
      parts.push({
        what: `${volumeGb} GB volume disk, stopped pod`,
        hourly: single(storageHourly(volumeGb, STORAGE_RATES.podStoppedVolume)),
      });
  } else {
    if (diskGb === undefined) {
      notes.push("container disk: its size comes from the template or the API's default; not included");
    } else if (diskGb > 0) {
      parts.push({
        what: `${diskGb} GB container disk`,
        hourly: single(storageHourly(diskGb, STORAGE_RATES.podRunning)),
      });
    }
    if (volumeGb > 0)
      parts.push({
        what: `${volumeGb} GB volume disk`,
        hourly: single(storageHourly(volumeGb, STORAGE_RATES.podRunning)),
      });
  }
  if (Array.isArray(mounts?.global) && mounts.global.length > 0)
    notes.push("global volume: billed by use, not included");
  const idle = gpu && !stopped ? autostopNote(inputs.autostop, sum(parts)) : undefined;
  if (idle) notes.push(idle);
  const billed = live?.cost;
  return {
    kind: "priced",
    hourly: sum(parts),
    parts,
    billedHourly: typeof billed === "number" ? billed : null,
    notes,
    gpus,
  };
}

/**
 * What autostop caps on a running GPU pod: an idle spell bills its window (and a pass or two:
 * docs/autostop.md), not the hours until someone notices. Nothing without autostop (the policy
 * pack's advisory rule says that) or when the setting is not known yet.
 */
function autostopNote(autostop: unknown, hourly: HourlyRange): string | undefined {
  if (isUnknown(autostop) || autostop === HIDDEN) return undefined;
  const given = record(autostop);
  if (!given) return undefined;
  const a = autostopPolicy(given);
  return `autostop: stopped after ${a.idleMinutes} min with every GPU under ${a.gpuUtilBelow} %, so an idle spell bills about ${showRange(times(hourly, a.idleMinutes / 60))} before it stops`;
}

function cluster(r: PricedResource, prices: PriceList): Estimate {
  const compute = record(known(r.inputs.compute, "compute")) ?? record(r.live?.compute);
  if (!compute) throw new Stop("error", "compute", "a cluster has compute");
  const gpuId = text(compute.gpuTypeId, "compute.gpuTypeId");
  const perPod = amount(compute.gpuCountPerPod, "compute.gpuCountPerPod", 1);
  const pods = amount(compute.podCount, "compute.podCount", 0);
  const price = prices.gpus.get(gpuId);
  if (!price)
    throw new Stop(
      "error",
      "compute.gpuTypeId",
      `GPU type "${gpuId}" is not in the catalog (${prices.source})`,
    );
  if (price.secure === null)
    throw new Stop("error", "compute.gpuTypeId", `GPU type "${gpuId}" is not offered in the SECURE cloud`);
  const parts = [
    {
      what: `${pods} pods x ${perPod}x ${price.name} GPU, SECURE`,
      hourly: single(price.secure * perPod * pods),
    },
  ];
  return {
    kind: "priced",
    hourly: sum(parts),
    parts,
    billedHourly: null,
    notes: ["the members' disks and the cluster's networking are billed on top and not included"],
    gpus: [{ id: gpuId, hourly: price.secure }],
  };
}

/** The rate of one worker, lowest to highest over the pools (GPU) or flavors (CPU) it may run on. */
function workerRate(
  inputs: Fields,
  live: Fields | undefined,
  prices: PriceList,
): { worker: CostPart; gpus: GpuRate[] } {
  const gpu = record(known(inputs.gpu, "gpu")) ?? record(live?.gpu);
  if (gpu) {
    const pools = known(gpu.pools, "gpu.pools");
    const excludedList = known(gpu.excludedTypes, "gpu.excludedTypes");
    const excluded = new Set(Array.isArray(excludedList) ? excludedList.map(String) : []);
    const count = amount(gpu.count, "gpu.count", 1);
    const list = Array.isArray(pools) ? pools.map((p, i) => text(p, `gpu.pools[${i}]`)) : [];
    const gpus: GpuRate[] = [];
    list.forEach((pool, i) => {
      const types = [...prices.gpus.values()].filter((g) => g.pool === pool);
      if (types.length === 0)
        throw new Stop(
          "error",
          `gpu.pools[${i}]`,
          `"${pool}" is not a serverless pool in the catalog (${prices.source})`,
        );
      for (const g of types)
        if (!excluded.has(g.id) && g.serverless !== null) gpus.push({ id: g.id, hourly: g.serverless });
    });
    if (gpus.length === 0)
      throw new Stop("error", "gpu.pools", "no GPU type left in these pools has a serverless rate");
    const hourly = times(rangeOf(gpus.map((g) => g.hourly)), count);
    return { worker: { what: `${count}x GPU per worker (${list.join(", ")})`, hourly }, gpus };
  }
  const cpus = known(inputs.cpu, "cpu") ?? live?.cpu;
  if (!Array.isArray(cpus) || cpus.length === 0) throw new Stop("error", "gpu", "an endpoint has gpu or cpu");
  const rates = cpus.map((c, i) => {
    const entry = record(known(c, `cpu[${i}]`)) ?? {};
    const id = text(entry.id, `cpu[${i}].id`);
    const flavor = prices.cpus.get(id);
    if (!flavor)
      throw new Stop("error", `cpu[${i}].id`, `CPU flavor "${id}" is not in the catalog (${prices.source})`);
    return flavor.serverlessPerVcpu * amount(entry.vcpuCount, `cpu[${i}].vcpuCount`, 0);
  });
  return {
    worker: { what: `CPU worker (${cpus.map((c) => record(c)?.id).join(", ")})`, hourly: rangeOf(rates) },
    gpus: [],
  };
}

function endpoint(r: PricedResource, prices: PriceList): Estimate {
  const workers = record(known(r.inputs.workers, "workers")) ?? record(r.live?.workers) ?? {};
  // The provider's defaults (ENDPOINT_API_DEFAULTS) where the program leaves them out.
  const min = amount(workers.min, "workers.min", 0);
  const max = amount(workers.max, "workers.max", 3);
  const { worker, gpus } = workerRate(r.inputs, r.live, prices);
  const parts = [
    {
      what: `${min}-${max} workers at ${showRange(worker.hourly)}/h each: ${worker.what}`,
      hourly: { low: worker.hourly.low * min, high: worker.hourly.high * max },
    },
  ];
  return {
    kind: "priced",
    hourly: sum(parts),
    parts,
    billedHourly: null,
    notes: [
      `floor: ${min} always-on worker${min === 1 ? "" : "s"}; ceiling: ${max} workers busy; the rest bill only while they handle requests`,
    ],
    gpus,
  };
}

function networkVolume(r: PricedResource, prices: PriceList): Estimate {
  const size = amount(known(r.inputs.size, "size") ?? r.live?.size, "size", 0);
  let tier = r.live?.type ?? known(r.inputs.type, "type");
  if (tier === undefined) {
    const dcId = text(r.inputs.dataCenterId ?? r.live?.dataCenterId, "dataCenterId");
    const dc = prices.dataCenters.get(dcId);
    if (!dc)
      throw new Stop(
        "error",
        "dataCenterId",
        `data center "${dcId}" is not in the catalog (${prices.source})`,
      );
    if (dc.networkVolumeTypes.length !== 1)
      return {
        kind: "unknown",
        field: "type",
        reason: `${dcId} offers ${dc.networkVolumeTypes.join(" and ") || "no"} volume tiers; the volume gets its default, known once it exists: set type`,
      };
    tier = dc.networkVolumeTypes[0];
  }
  if (tier !== "STANDARD")
    return { kind: "not-priced", reason: `RunPod publishes no rate for ${String(tier)} network volumes` };
  const { networkVolume: rate, networkVolumeAbove: above, networkVolumeTierGb: tierGb } = STORAGE_RATES;
  const parts = [
    {
      what: `${size} GB STANDARD network volume`,
      hourly: single(
        storageHourly(Math.min(size, tierGb), rate) + storageHourly(Math.max(0, size - tierGb), above),
      ),
    },
  ];
  return { kind: "priced", hourly: sum(parts), parts, billedHourly: null, notes: [], gpus: [] };
}

const NO_CHARGE: Readonly<Record<string, string>> = {
  SshKey: "an account SSH key is not billed",
  StackIdentity: "a stack's identity lives in its state, not on the account",
  Template: "a template is not billed",
  Registry: "a registry credential is not billed",
  Secret: "an account secret is not billed",
  ServerlessJob: "a job is billed as its endpoint's worker time, within the endpoint's range",
};

const RULES: Readonly<Record<string, (r: PricedResource, prices: PriceList) => Estimate>> = {
  Pod: pod,
  Cluster: cluster,
  ServerlessEndpoint: endpoint,
  NetworkVolume: networkVolume,
};

/** The list-price estimate of one resource. */
export function estimate(resource: PricedResource, prices: PriceList): Estimate {
  const name = runpodTypeName(resource.type);
  if (name === undefined) return { kind: "not-priced", reason: "not a RunPod resource" };
  const noCharge = NO_CHARGE[name];
  if (noCharge !== undefined) return { kind: "no-charge", reason: noCharge };
  const rule = RULES[name];
  if (rule === undefined) return { kind: "not-priced", reason: `no price rule for ${name}` };
  try {
    return rule(resource, prices);
  } catch (err) {
    if (err instanceof Stop) return { kind: err.kind, field: err.field, reason: err.message };
    throw err;
  }
}
