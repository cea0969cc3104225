/**
 * The seed's resources as records, made when a seed is loaded (state.ts `EmulatorState.load`):
 * its clusters with their member pods, its pods and its serverless endpoints. They exist from the
 * load on, belong to the account the seed names (the default user otherwise), hold no stock (the
 * seed's stock figures are what is free besides them), and draw nothing from the random source,
 * so ids created after a load do not depend on what the seed holds. Pods and network volumes bill
 * from the load on; the pods enter the store through the pod lifecycle (pods/lifecycle.ts).
 */
import { DEFAULT_USER_ID } from "../account/accounts.js";
import { volumeMetering } from "../billing/rates.js";
import { memberMachine, overlayIp, roleOf } from "../clusters/members.js";
import { adoptSeededPod, type NewPod } from "../pods/lifecycle.js";
import type { Seed } from "../seed/schema.js";
import type { ClusterRecord, Machine } from "../store/pod-records.js";
import type { NetworkVolumeRecord } from "../store/records.js";
import { stockKey } from "../store/records.js";
import { type EndpointRecord, V2_DEFAULTS } from "../store/serverless-records.js";
import type { Store } from "../store/store.js";

/** A seeded cluster and its members, RUNNING since the seed was loaded. */
export function seedCluster(state: Store, seed: Seed["clusters"][number]): void {
  const now = state.now();
  const type = seed.type;
  const c: ClusterRecord = {
    id: seed.id,
    name: seed.name ?? seed.id,
    type,
    compute: { gpuTypeId: seed.gpuTypeId, gpuCountPerPod: seed.gpuCountPerPod, podCount: seed.members },
    dataCenterId: seed.dataCenterId,
    memberIds: [],
    createdAt: now,
    account: DEFAULT_USER_ID,
  };
  const stock = state.gpuStock.get(stockKey(seed.dataCenterId, seed.gpuTypeId));
  for (let rank = 0; rank < seed.members; rank += 1) {
    const role = roleOf(type, rank);
    const pod: NewPod = {
      id: `${seed.id}-node${rank}`,
      name: `${seed.id}-node${rank}`,
      image: seed.image,
      args: "",
      disk: 50,
      env: {},
      ports: ["22/tcp"],
      registry: null,
      mounts: {},
      gpu: { id: seed.gpuTypeId, count: seed.gpuCountPerPod },
      cloud: "SECURE",
      machine: memberMachine(stock, seed.dataCenterId, seed.gpuTypeId, seed.gpuCountPerPod, {
        portMap: { 22: 20_000 + rank },
        held: false,
        // Fixed, so loading a seed draws nothing from the random source.
        publicIp: `194.68.10.${rank + 10}`,
      }),
      locked: false,
      globalNetworking: false,
      cluster: { id: seed.id, rank, ...(role === undefined ? {} : { role }), ip: overlayIp(rank) },
      costPerHour: 0,
      createdAt: now,
      account: c.account,
    };
    // A member bills with its cluster, so adopting it meters nothing (billing/rates.ts).
    adoptSeededPod(state, pod, "RUNNING", now);
    c.memberIds.push(pod.id);
  }
  state.clusters.set(c.id, c);
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** A seeded pod, in its seeded status since the load; its cost per hour is the catalog's price. */
export function seedPod(state: Store, seed: Seed["pods"][number], index: number): void {
  const now = state.now();
  const host = { portMap: {}, held: false, publicIp: `194.68.20.${index + 10}` };
  let machine: Machine;
  let costPerHour: number;
  if (seed.gpu) {
    const type = state.gpuTypeById.get(seed.gpu.id);
    const stock = state.gpuStock.get(stockKey(seed.dataCenterId, seed.gpu.id));
    machine = memberMachine(stock, seed.dataCenterId, seed.gpu.id, seed.gpu.count, host);
    const perGpu = seed.cloud === "SECURE" ? type?.price.secure : type?.price.community;
    costPerHour = round3((perGpu ?? 0) * seed.gpu.count);
  } else {
    const cpu = seed.cpu as { id: string; vcpuCount: number };
    const flavor = state.cpuFlavorById.get(cpu.id);
    machine = {
      dataCenterId: seed.dataCenterId,
      cpuFlavorId: cpu.id,
      vcpuCount: cpu.vcpuCount,
      memoryGb: Math.round((flavor?.ramGbPerVcpu ?? 2) * cpu.vcpuCount),
      cudaVersion: null,
      ...host,
    };
    costPerHour = round3((flavor?.price.securePerVcpu ?? 0) * cpu.vcpuCount);
  }
  const pod: NewPod = {
    id: seed.id,
    name: seed.name,
    image: seed.image,
    args: "",
    disk: seed.disk,
    env: {},
    ports: [],
    registry: null,
    mounts: seed.persistent ? { persistent: { ...seed.persistent } } : {},
    ...(seed.gpu ? { gpu: { id: seed.gpu.id, count: seed.gpu.count } } : {}),
    ...(seed.cpu ? { cpu: { ...seed.cpu } } : {}),
    cloud: seed.cloud,
    machine,
    locked: false,
    globalNetworking: false,
    costPerHour,
    createdAt: now,
    account: seed.account ?? DEFAULT_USER_ID,
  };
  adoptSeededPod(state, pod, seed.status, now);
}

/** A seeded network volume, billed from the load. */
export function seedVolume(state: Store, seed: Seed["networkVolumes"][number]): void {
  const { account, ...fields } = seed;
  const v: NetworkVolumeRecord = { ...fields, account: account ?? DEFAULT_USER_ID };
  state.networkVolumes.set(v.id, v);
  state.usage.meter("networkVolumes", v.id, v.account, state.now(), volumeMetering(v));
}

/** A seeded QUEUE endpoint (release 1 at the load), its workers as the seed says. */
export function seedEndpoint(state: Store, seed: Seed["endpoints"][number]): void {
  const now = state.now();
  const account = seed.account ?? DEFAULT_USER_ID;
  const container = {
    image: seed.image,
    args: "",
    disk: V2_DEFAULTS.disk,
    ports: [],
    env: {},
    registry: null,
  };
  const e: EndpointRecord = {
    id: seed.id,
    name: seed.name,
    type: "QUEUE",
    compute: seed.gpu
      ? {
          kind: "GPU",
          pools: [...seed.gpu.pools],
          excludedTypes: [],
          count: seed.gpu.count,
          allowedCudaVersions: [],
          minCudaVersion: null,
        }
      : { kind: "CPU", configs: (seed.cpu ?? []).map((c) => ({ ...c })) },
    workers: { ...seed.workers },
    scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
    dataCenterIds: [],
    networkVolumes: [],
    timeout: V2_DEFAULTS.timeout,
    flashboot: V2_DEFAULTS.flashboot,
    container,
    templateId: null,
    createdAt: now,
    minChangedAt: now,
    billedFrom: now,
    version: 1,
    releases: [
      {
        id: `${seed.id}-release-1`,
        version: 1,
        createdAt: now,
        createdByUserId: account,
        container: structuredClone(container),
        diff: [],
      },
    ],
    userId: account,
    account,
    jobCount: 0,
  };
  state.endpoints.set(e.id, e);
}
