/**
 * v2 pods under base_url (contract: POST {base_url}/v2/pods, States and transitions, Mounts).
 * Create applies the checks in the service's order: body size (before auth, in the wiring),
 * schema (422), cross-field rules (400), template resolution (404/422), expanded size (413),
 * balance (402), pool access (403), capacity (400).
 */

import { MAX_REQUEST_BYTES } from "../provider/client/schemas/common.js";
import {
  type CreatePodRequest as CreateBody,
  CreatePodRequest,
  UpdatePodRequest,
} from "../provider/client/schemas/pods.js";
import { decodeArgs } from "../provider/container-args.js";
import { cpuStockAt, gpuStockAt, pickCuda, reacquire, release } from "./capacity.js";
import { type Boot, bootStatus, lastRunningStart, newBoot, scriptFor } from "./containers.js";
import { badRequest, conflict, HttpError, NO_CAPACITY, notFound, unprocessable } from "./errors.js";
import { publicAddress } from "./pod-ports.js";
import { requireRegistry } from "./registries.js";
import { json, noContent, type RouteContext, type RouteTable } from "./routing.js";
import { type PodAction, PodActionRequest, type PodStatus } from "./schemas/common.js";
import {
  type CpuFlavorRecord,
  type EmulatorState,
  type GpuTypeRecord,
  type Machine,
  type PodRecord,
  requireCpuFlavor,
  requireDataCenter,
  requireGpuType,
  type TemplateRecord,
} from "./state.js";
import { commandArgs, validateBody } from "./validation.js";

const ACTIONS: Record<PodStatus, PodAction[]> = {
  PROVISIONING: ["stop", "terminate"],
  STARTING: ["stop", "terminate"],
  RUNNING: ["stop", "restart", "terminate"],
  EXITED: ["start", "terminate"],
  ERROR: ["start", "terminate"],
  TERMINATED: [],
};

/** Default path of a global volume mount when the create does not give one. */
const GLOBAL_MOUNT_DEFAULT_PATH = "/global";
const DEFAULT_DISK_GB = 20;

// ---------------------------------------------------------------- lifecycle

/**
 * Reads the pod's status off its current boot (containers.ts) at the emulator's now. Reads always
 * settle first; a stopped, terminated or forced pod has no current boot and keeps its status.
 */
export function settle(state: EmulatorState, pod: PodRecord): void {
  const boot = currentBoot(pod);
  if (!boot) return;
  const now = state.now();
  const { status } = bootStatus(boot, now);
  pod.status = status;
  const ran = lastRunningStart(boot, now);
  if (ran !== undefined) pod.startedAt = ran;
}

export function currentBoot(pod: PodRecord): Boot | undefined {
  const last = pod.boots.at(-1);
  return last && last.endedAt === undefined ? last : undefined;
}

/** Ends the current boot, if any (a stop, a terminate, a restart, a status forced out of band). */
export function endBoot(pod: PodRecord, at: number, by: NonNullable<Boot["endedBy"]>): void {
  const boot = currentBoot(pod);
  if (!boot) return;
  boot.endedAt = at;
  boot.endedBy = by;
}

/** A create or a start: PROVISIONING, then what the image's container does (containers.ts). */
export function startSequence(
  state: EmulatorState,
  pod: PodRecord,
  from: number,
  fate: "RUNNING" | "ERROR" = "RUNNING",
  kind: "create" | "start" = "create",
): void {
  endBoot(pod, from, "forced");
  pod.boots.push(newBoot(state, pod, kind, from, fate));
  pod.status = "PROVISIONING";
}

/** The container restarts in place (restart action, or a PATCH that changes it): STARTING again. */
function restartSequence(state: EmulatorState, pod: PodRecord): void {
  const now = state.now();
  endBoot(pod, now, "restart");
  pod.boots.push(newBoot(state, pod, "restart", now));
  pod.status = "STARTING";
}

/** The pod as a live record: undefined when it never existed or its TERMINATED grace has passed. */
export function findPod(state: EmulatorState, id: string): PodRecord | undefined {
  const pod = state.pods.get(id);
  if (!pod) return undefined;
  if (pod.goneAt !== undefined && pod.goneAt <= state.now()) {
    state.pods.delete(id);
    return undefined;
  }
  settle(state, pod);
  return pod;
}

export function requirePod(state: EmulatorState, id: string): PodRecord {
  const pod = findPod(state, id);
  if (!pod) throw notFound(`Pod '${id}' was not found.`);
  return pod;
}

function requireModifiable(state: EmulatorState, id: string, verb: string): PodRecord {
  const pod = requirePod(state, id);
  if (pod.status === "TERMINATED") throw notFound(`Pod '${id}' was terminated.`);
  if (pod.cluster) {
    throw conflict(
      `Pod '${id}' belongs to cluster '${pod.cluster.id}' and cannot be ${verb} through the pod endpoints; use /v2/clusters/${pod.cluster.id}.`,
    );
  }
  return pod;
}

// ---------------------------------------------------------------- the response object

const iso = (ms: number) => new Date(ms).toISOString();

export function podView(state: EmulatorState, pod: PodRecord): Record<string, unknown> {
  settle(state, pod);
  const now = state.now();
  const placed = pod.status !== "PROVISIONING" && pod.status !== "TERMINATED";
  const running = pod.status === "RUNNING";
  const { entrypoint, cmd } = decodeArgs(pod.args);
  const m = pod.machine;
  const tcpPorts = pod.ports.filter((p) => p.endsWith("/tcp")).map((p) => Number(p.split("/")[0]));
  const ssh22 = running ? publicAddress(state, pod, 22, now) : undefined;
  return {
    id: pod.id,
    name: pod.name,
    status: pod.status,
    actions: ACTIONS[pod.status],
    image: pod.image,
    args: pod.args,
    entrypoint,
    cmd,
    disk: pod.disk,
    mounts: pod.mounts,
    ports: pod.ports,
    env: pod.env,
    registry: pod.registry,
    ...(pod.gpu
      ? { gpu: { id: pod.gpu.id, count: pod.gpu.count, vcpuCount: m.vcpuCount, memory: m.memoryGb } }
      : { cpu: { id: pod.cpu?.id, vcpuCount: m.vcpuCount, memory: m.memoryGb } }),
    cloud: pod.cloud,
    dataCenterId: m.dataCenterId,
    cudaVersion: placed || pod.status === "EXITED" ? m.cudaVersion : null,
    ssh: {
      proxy: placed
        ? {
            host: "ssh.runpod.io",
            port: 22,
            username: `${pod.id}-64410b3e`,
            command: `ssh ${pod.id}-64410b3e@ssh.runpod.io -i ~/.ssh/id_ed25519`,
          }
        : null,
      direct:
        running && tcpPorts.includes(22) && ssh22
          ? {
              host: ssh22.ip,
              port: ssh22.port,
              username: "root",
              command: `ssh root@${ssh22.ip} -p ${ssh22.port} -i ~/.ssh/id_ed25519`,
            }
          : null,
    },
    ...(pod.cluster ? { cluster: clusterView(pod) } : {}),
    template: null,
    cost: pod.status === "EXITED" || pod.status === "TERMINATED" ? 0.0 : pod.costPerHour,
    locked: pod.locked,
    globalNetworking: pod.globalNetworking
      ? { enabled: true, ip: globalIp(pod.id), internalDns: `${pod.id}.runpod.internal` }
      : { enabled: false },
    runtime: running
      ? {
          uptime: Math.floor((now - (pod.startedAt ?? now)) / 1000),
          gpus: Array.from({ length: pod.gpu?.count ?? 0 }, () => ({ util: 0, memoryUtil: 0 })),
          cpu: { util: 2 },
          memory: { util: 9 },
          ports: pod.ports.map((p) => {
            const [port, type] = p.split("/");
            const priv = Number(port);
            const at = type === "tcp" ? publicAddress(state, pod, priv, now) : undefined;
            return { private: priv, public: at?.port ?? null, type, ip: at?.ip ?? null };
          }),
        }
      : null,
    createdAt: iso(pod.createdAt),
    startedAt: pod.startedAt === null ? null : iso(pod.startedAt),
  };
}

/** A member's rank and overlay address are assigned during provisioning: null and omitted before. */
function clusterView(pod: PodRecord): NonNullable<PodRecord["cluster"]> {
  const c = pod.cluster as NonNullable<PodRecord["cluster"]>;
  if (pod.status !== "PROVISIONING") return c;
  return { id: c.id, rank: null, ...(c.role === undefined ? {} : { role: c.role }) };
}

function globalIp(id: string): string {
  let h = 0;
  for (const c of id) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return `10.${(h >>> 16) & 0xff}.${(h >>> 8) & 0xff}.${(h & 0xfe) + 1}`;
}

// ---------------------------------------------------------------- create

interface Effective {
  body: CreateBody;
  image: string;
  args: string;
  disk: number;
  env: Record<string, string>;
  ports: string[];
  registry: string | null;
  persistent: { size: number; path: string } | undefined;
  startSsh: boolean;
  startJupyter: boolean;
  allowedCudaVersions: string[] | undefined;
  minCudaVersion: string | undefined;
}

function resolveTemplate(state: EmulatorState, id: string): TemplateRecord {
  const t = state.templates.get(id);
  if (!t) throw notFound(`Template '${id}' was not found or is not accessible.`);
  if (t.serverless) {
    throw unprocessable([`$.templateId: template '${id}' is a serverless template and cannot back a pod`]);
  }
  return t;
}

function crossFieldRules(state: EmulatorState, body: CreateBody): void {
  if (!body.gpu === !body.cpu) throw badRequest("Exactly one of gpu or cpu must be set.");
  if (body.gpu?.allowedCudaVersions?.length && body.gpu.minCudaVersion !== undefined) {
    throw badRequest(
      "gpu.allowedCudaVersions (non-empty) and gpu.minCudaVersion cannot be combined; use one of them.",
    );
  }
  const mounts = body.mounts;
  if (mounts?.persistent && (mounts.network?.length || mounts.global?.length)) {
    throw badRequest("mounts.persistent cannot be combined with mounts.network or mounts.global.");
  }
  if (body.cpu) {
    if (mounts?.persistent)
      throw badRequest("mounts.persistent is not supported on CPU pods; use a network volume.");
    const flavor = requireCpuFlavor(state, body.cpu.id, "cpu.id");
    const n = body.cpu.vcpuCount;
    if ((n & (n - 1)) !== 0) throw badRequest(`cpu.vcpuCount ${n} must be a power of two.`);
    if (n < flavor.vcpu.min || n > flavor.vcpu.max) {
      throw badRequest(
        `cpu.vcpuCount ${n} is not valid for flavor ${flavor.id} (${flavor.vcpu.min}-${flavor.vcpu.max}).`,
      );
    }
  }
  // The command rule is checked here, before the template is resolved (400 before 404).
  commandArgs("", body);
}

function effectiveConfig(state: EmulatorState, body: CreateBody): Effective {
  const template = body.templateId ? resolveTemplate(state, body.templateId) : undefined;
  const cudaFromBody = body.gpu?.allowedCudaVersions !== undefined || body.gpu?.minCudaVersion !== undefined;
  const isCpu = body.cpu !== undefined;
  const persistent = body.mounts?.persistent ?? (isCpu ? undefined : template?.mounts.persistent);
  const image = body.image ?? template?.image;
  if (!image)
    throw unprocessable([
      "$: required property 'image' is missing (it is required unless templateId is set)",
    ]);
  const eff: Effective = {
    body,
    image,
    args: commandArgs(template?.args ?? "", body),
    disk: body.disk ?? template?.disk ?? DEFAULT_DISK_GB,
    env: { ...(template?.env ?? {}), ...(body.env ?? {}) },
    ports: body.ports ?? template?.ports ?? [],
    registry: body.registry !== undefined ? body.registry : (template?.registry ?? null),
    persistent,
    startSsh: body.startSsh ?? template?.startSsh ?? false,
    startJupyter: body.startJupyter ?? template?.startJupyter ?? false,
    allowedCudaVersions: isCpu
      ? undefined
      : cudaFromBody
        ? body.gpu?.allowedCudaVersions
        : template?.allowedCudaVersions.length
          ? template.allowedCudaVersions
          : undefined,
    minCudaVersion: isCpu || !cudaFromBody ? undefined : body.gpu?.minCudaVersion,
  };
  if (eff.persistent && (body.mounts?.network?.length || body.mounts?.global?.length)) {
    throw badRequest(
      `mounts.persistent (from template '${body.templateId}') cannot be combined with mounts.network or mounts.global.`,
    );
  }
  // The expanded deployment request (body plus template) has the same size limit.
  const expanded = JSON.stringify({ ...body, ...eff, body: undefined });
  if (Buffer.byteLength(expanded) > MAX_REQUEST_BYTES) {
    throw new HttpError(
      413,
      `The expanded request (body plus template) is ${Buffer.byteLength(expanded)} bytes, over ${MAX_REQUEST_BYTES}. Reduce the JSON body, environment variables or command values in the request or template.`,
    );
  }
  return eff;
}

export function forbidden(
  state: EmulatorState,
  key: string,
  dataCenterId: string,
  gpuTypeId: string | undefined,
): boolean {
  const rules = state.apiKeys.get(key)?.forbidden ?? [];
  return rules.some(
    (r) =>
      (r.dataCenterId === undefined || r.dataCenterId === dataCenterId) &&
      (r.gpuTypeId === undefined || r.gpuTypeId === gpuTypeId),
  );
}

export function randomPort(state: EmulatorState): number {
  return 10_000 + Math.floor(state.random() * 50_000);
}

/** Where a new pod runs, and the catalog entry of what it runs on (its price). */
type Placement = { machine: Machine } & (
  | { gpuType: GpuTypeRecord; cpuFlavor?: never }
  | { cpuFlavor: CpuFlavorRecord; gpuType?: never }
);

function place(state: EmulatorState, eff: Effective, apiKey: string): Placement {
  const body = eff.body;
  for (const id of body.dataCenterIds ?? []) requireDataCenter(state, id, "dataCenterIds:");
  let candidates = body.dataCenterIds?.length
    ? [...body.dataCenterIds]
    : state.seed.dataCenters.map((d) => d.id);

  for (const mount of body.mounts?.network ?? []) {
    const volume = state.networkVolumes.get(mount.volumeId);
    if (!volume) throw badRequest(`Network volume '${mount.volumeId}' does not exist.`);
    if (!candidates.includes(volume.dataCenter)) {
      throw badRequest(
        `Network volume '${volume.id}' is in ${volume.dataCenter}; the pod must be placed in the same data center.`,
      );
    }
    candidates = [volume.dataCenter];
  }
  for (const mount of body.mounts?.global ?? []) {
    if (!state.seed.globalVolumes.some((g) => g.id === mount.volumeId)) {
      throw badRequest(`Global volume '${mount.volumeId}' does not exist.`);
    }
  }

  const allowed = candidates.filter((dc) => !forbidden(state, apiKey, dc, body.gpu?.id));
  if (allowed.length === 0) {
    throw new HttpError(403, "This API key does not have access to the requested pool.");
  }

  const publicIp = `194.68.${Math.floor(state.random() * 250) + 1}.${Math.floor(state.random() * 250) + 1}`;
  const portMap: Record<number, number> = {};
  for (const p of eff.ports) if (p.endsWith("/tcp")) portMap[Number(p.split("/")[0])] = randomPort(state);

  if (body.gpu) {
    const gpu = body.gpu;
    const type = requireGpuType(state, gpu.id, "gpu.id");
    const cloud = body.cloud ?? "SECURE";
    const count = gpu.count ?? 1;
    if (cloud === "COMMUNITY" && !type.community)
      throw badRequest(`${gpu.id} is not offered on the community cloud.`);
    const max = cloud === "SECURE" ? type.maxCount.secure : type.maxCount.community;
    if (count > max)
      throw badRequest(`gpu.count ${count} exceeds the maximum of ${max} ${gpu.id} per pod on ${cloud}.`);
    if (body.globalNetworking && type.manufacturer !== "NVIDIA") {
      throw badRequest("Global networking requires an NVIDIA GPU.");
    }
    for (const dc of allowed) {
      const stock = gpuStockAt(state, dc, gpu.id);
      if (!stock || stock.free < count) continue;
      if (gpu.minRamPerGpu !== undefined && stock.ramPerGpu < gpu.minRamPerGpu) continue;
      if (gpu.minVcpuCountPerGpu !== undefined && stock.vcpuPerGpu < gpu.minVcpuCountPerGpu) continue;
      if (body.globalNetworking && !state.dataCenterById.get(dc)?.globalNetwork) continue;
      const cuda = pickCuda(stock.cudaVersions, eff.allowedCudaVersions, eff.minCudaVersion);
      if (cuda === undefined) continue;
      stock.free -= count;
      const machine: Machine = {
        dataCenterId: dc,
        gpuTypeId: gpu.id,
        gpuCount: count,
        vcpuCount: stock.vcpuPerGpu * count,
        memoryGb: stock.ramPerGpu * count,
        cudaVersion: cuda,
        publicIp,
        portMap,
        held: true,
      };
      return { machine, gpuType: type };
    }
    throw badRequest(NO_CAPACITY);
  }

  const cpu = body.cpu as { id: string; vcpuCount: number };
  if (body.globalNetworking) throw badRequest("Global networking requires an NVIDIA GPU.");
  const flavor = requireCpuFlavor(state, cpu.id, "cpu.id");
  for (const dc of allowed) {
    const stock = cpuStockAt(state, dc, cpu.id);
    if (!stock || stock.free < cpu.vcpuCount) continue;
    stock.free -= cpu.vcpuCount;
    const machine: Machine = {
      dataCenterId: dc,
      cpuFlavorId: cpu.id,
      vcpuCount: cpu.vcpuCount,
      memoryGb: Math.round(flavor.ramGbPerVcpu * cpu.vcpuCount),
      cudaVersion: null,
      publicIp,
      portMap,
      held: true,
    };
    return { machine, cpuFlavor: flavor };
  }
  throw badRequest(NO_CAPACITY);
}

export function randomSecret(state: EmulatorState, length = 20): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
  let s = "";
  for (let i = 0; i < length; i += 1) s += alphabet[Math.floor(state.random() * alphabet.length)];
  return s;
}

function costPerHour(body: CreateBody, placement: Placement): number {
  if (placement.gpuType) {
    const { price } = placement.gpuType;
    const perGpu = (body.cloud ?? "SECURE") === "SECURE" ? price.secure : price.community;
    return Math.round(perGpu * (body.gpu?.count ?? 1) * 1000) / 1000;
  }
  return Math.round(placement.cpuFlavor.price.securePerVcpu * (body.cpu?.vcpuCount ?? 0) * 1000) / 1000;
}

function createPod(ctx: RouteContext) {
  const { state } = ctx;
  const body = validateBody(CreatePodRequest, ctx.body);
  crossFieldRules(state, body);
  const eff = effectiveConfig(state, body);
  requireRegistry(state, eff.registry);
  if (state.settings.balanceExhausted) {
    throw new HttpError(402, "Your balance is too low to create this pod. Add funds to continue.");
  }
  const placement = place(state, eff, ctx.apiKey);

  const env = { ...eff.env };
  if (eff.startSsh && state.sshKeys.length > 0 && env.PUBLIC_KEY === undefined)
    env.PUBLIC_KEY = state.sshKeys.join("\n");
  if (eff.startJupyter && env.JUPYTER_PASSWORD === undefined) env.JUPYTER_PASSWORD = randomSecret(state);

  const mounts: PodRecord["mounts"] = {};
  if (eff.persistent) mounts.persistent = { ...eff.persistent };
  if (body.mounts?.network?.length) mounts.network = body.mounts.network.map((m) => ({ ...m }));
  if (body.mounts?.global?.length) {
    mounts.global = body.mounts.global.map((m) => ({
      volumeId: m.volumeId,
      path: m.path ?? GLOBAL_MOUNT_DEFAULT_PATH,
    }));
  }

  const pod: PodRecord = {
    id: state.newId(),
    name: body.name,
    image: eff.image,
    args: eff.args,
    disk: eff.disk,
    env,
    ports: eff.ports,
    registry: eff.registry,
    mounts,
    ...(body.gpu ? { gpu: { id: body.gpu.id, count: body.gpu.count ?? 1 } } : {}),
    ...(body.cpu ? { cpu: { id: body.cpu.id, vcpuCount: body.cpu.vcpuCount } } : {}),
    cloud: body.cloud ?? "SECURE",
    machine: placement.machine,
    locked: false,
    globalNetworking: body.globalNetworking ?? false,
    costPerHour: costPerHour(body, placement),
    createdAt: ctx.now,
    startedAt: null,
    status: "PROVISIONING",
    boots: [],
    ownerKey: ctx.apiKey,
  };
  const fate = state.random() < state.settings.errorShare ? "ERROR" : "RUNNING";
  startSequence(state, pod, ctx.now, fate);
  state.pods.set(pod.id, pod);
  return json(201, podView(state, pod));
}

// ---------------------------------------------------------------- read

function listPods(ctx: RouteContext) {
  const includeCluster = ctx.query.get("includeClusterPods") === "true";
  const pods = [...ctx.state.pods.keys()]
    .map((id) => findPod(ctx.state, id))
    .filter((p): p is PodRecord => p !== undefined && p.status !== "TERMINATED")
    .filter((p) => includeCluster || !p.cluster)
    .map((p) => podView(ctx.state, p));
  return json(200, { pods });
}

function getPod(ctx: RouteContext) {
  return json(200, podView(ctx.state, requirePod(ctx.state, ctx.params.id ?? "")));
}

// ---------------------------------------------------------------- update

type Patch = ReturnType<typeof UpdatePodRequest.parse>;

/** The pod's mounts after a PATCH's `mounts`, checked whole before anything changes. */
function patchedMounts(pod: PodRecord, patch: NonNullable<Patch["mounts"]>): PodRecord["mounts"] {
  if (patch.network?.length === 0)
    throw badRequest("mounts.network must not be an empty array; omit mounts to leave them unchanged.");
  if (patch.global?.length === 0)
    throw badRequest("mounts.global must not be an empty array; omit mounts to leave them unchanged.");
  for (const kind of ["persistent", "network", "global"] as const) {
    if (patch[kind] !== undefined && pod.mounts[kind] === undefined) {
      throw badRequest(
        `mounts.${kind} was not present when the pod was created; the mount kind is fixed at create.`,
      );
    }
  }
  const next = structuredClone(pod.mounts);
  if (patch.persistent && next.persistent) {
    if (patch.persistent.size !== next.persistent.size) {
      throw badRequest("mounts.persistent.size cannot change; only the path may be updated.");
    }
    next.persistent.path = patch.persistent.path;
  }
  for (const kind of ["network", "global"] as const) {
    const entries = patch[kind];
    const current = next[kind];
    if (!entries || !current) continue;
    if (entries.length !== current.length)
      throw badRequest(`mounts.${kind} must list the same volumes as at create.`);
    next[kind] = entries.map((entry, i) => {
      const existing = current[i];
      if (!existing || existing.volumeId !== entry.volumeId) {
        throw badRequest(`mounts.${kind}[${i}].volumeId is immutable; only the path may change.`);
      }
      return { volumeId: existing.volumeId, path: entry.path ?? existing.path };
    });
  }
  return next;
}

function updatePod(ctx: RouteContext) {
  const { state } = ctx;
  const pod = requireModifiable(state, ctx.params.id ?? "", "modified");
  const patch = validateBody(UpdatePodRequest, ctx.body);
  const template = patch.templateId ? resolveTemplate(state, patch.templateId) : undefined;
  const args = commandArgs(template && patch.args === undefined ? template.args : pod.args, patch);
  requireRegistry(state, patch.registry !== undefined ? patch.registry : template?.registry);

  let restart = false;
  const set = <K extends keyof PodRecord>(key: K, value: PodRecord[K] | undefined, restarts: boolean) => {
    if (value === undefined) return;
    if (JSON.stringify(pod[key]) !== JSON.stringify(value)) {
      pod[key] = value;
      if (restarts) restart = true;
    }
  };
  // Every check happens before the first change: a rejected PATCH changes nothing.
  const mounts =
    patch.mounts && Object.keys(patch.mounts).length > 0 ? patchedMounts(pod, patch.mounts) : undefined;
  const env = template ? { ...template.env, ...(patch.env ?? {}) } : patch.env;
  set("mounts", mounts, true);
  set("name", patch.name, false);
  set("image", patch.image ?? template?.image, true);
  set("args", args, true);
  set("disk", patch.disk ?? template?.disk, true);
  set("env", env, true);
  set("ports", patch.ports ?? template?.ports, true);
  set("registry", patch.registry !== undefined ? patch.registry : template?.registry, true);
  set("locked", patch.locked, false);
  if (patch.globalNetworking !== undefined && patch.globalNetworking !== pod.globalNetworking) {
    pod.pendingGlobalNetworking = patch.globalNetworking;
  }
  for (const p of pod.ports) {
    const port = Number(p.split("/")[0]);
    if (p.endsWith("/tcp") && pod.machine.portMap[port] === undefined)
      pod.machine.portMap[port] = randomPort(state);
  }
  if (restart && (pod.status === "RUNNING" || pod.status === "STARTING")) restartSequence(state, pod);
  else if (restart && pod.status === "PROVISIONING") {
    // Not started yet: the container it will start is the changed one.
    const boot = currentBoot(pod);
    if (boot && boot.script.kind !== "error")
      Object.assign(boot, { image: pod.image, script: scriptFor(state, pod) });
  }
  return json(200, podView(state, pod));
}

// ---------------------------------------------------------------- delete and actions

export function terminate(state: EmulatorState, pod: PodRecord): void {
  if (pod.locked) {
    throw conflict(`Pod '${pod.id}' is locked; unlock it (PATCH locked=false) before terminating it.`);
  }
  release(state, pod.machine);
  endBoot(pod, state.now(), "terminate");
  pod.status = "TERMINATED";
  // Every read goes through findPod, which drops the pod once goneAt has passed.
  pod.goneAt = state.now() + state.settings.terminatingMs;
}

function deletePod(ctx: RouteContext) {
  const pod = requireModifiable(ctx.state, ctx.params.id ?? "", "terminated");
  terminate(ctx.state, pod);
  return noContent;
}

function applyPendingNetworking(pod: PodRecord): void {
  if (pod.pendingGlobalNetworking !== undefined) {
    pod.globalNetworking = pod.pendingGlobalNetworking;
    delete pod.pendingGlobalNetworking;
  }
}

/**
 * The service's wording when a stopped pod cannot get its GPUs back: a stopped pod resumes on the
 * machine it stopped on, so other data centers' stock does not help.
 */
export const NO_CAPACITY_TO_START = "There are not enough free GPUs on the host machine to start this pod.";
const NO_CPU_CAPACITY_TO_START = "There are not enough free CPUs on the host machine to start this pod.";

/**
 * POST /v2/pods/{id}/action (v2 description: podAction): only the actions the pod's `actions[]`
 * lists (409 otherwise). `stop` keeps the pod, its disk and mounts (EXITED, cost 0, capacity given
 * back); `start` takes its machine's GPUs or vCPUs again, or fails with 400 and stays EXITED;
 * `restart` restarts the container in place; `terminate` is a delete (204).
 */
function podAction(ctx: RouteContext) {
  const { state } = ctx;
  const { action } = validateBody(PodActionRequest, ctx.body);
  const pod = requireModifiable(state, ctx.params.id ?? "", "changed");
  if (!ACTIONS[pod.status].includes(action)) {
    throw conflict(
      `Action '${action}' is not valid for a pod in status ${pod.status}; valid: ${ACTIONS[pod.status].join(", ") || "none"}.`,
    );
  }
  switch (action) {
    case "terminate":
      terminate(state, pod);
      return noContent;
    case "stop":
      if (pod.locked) throw conflict(`Pod '${pod.id}' is locked and cannot be stopped.`);
      release(state, pod.machine);
      endBoot(pod, state.now(), "stop");
      pod.status = "EXITED";
      break;
    case "restart":
      if (pod.locked) throw conflict(`Pod '${pod.id}' is locked and cannot be restarted.`);
      applyPendingNetworking(pod);
      restartSequence(state, pod);
      break;
    case "start":
      if (!reacquire(state, pod.machine)) {
        throw badRequest(pod.machine.gpuTypeId ? NO_CAPACITY_TO_START : NO_CPU_CAPACITY_TO_START);
      }
      applyPendingNetworking(pod);
      startSequence(state, pod, state.now(), "RUNNING", "start");
      break;
  }
  return json(200, podView(state, pod));
}

export const podRoutes: RouteTable = {
  v2: [
    {
      method: "POST",
      pattern: "/v2/pods",
      handler: createPod,
      maxBodyBytes: MAX_REQUEST_BYTES,
      sizeBeforeAuth: true,
    },
    { method: "GET", pattern: "/v2/pods", handler: listPods },
    { method: "GET", pattern: "/v2/pods/:id", handler: getPod },
    { method: "PATCH", pattern: "/v2/pods/:id", handler: updatePod },
    { method: "DELETE", pattern: "/v2/pods/:id", handler: deletePod },
    { method: "POST", pattern: "/v2/pods/:id/action", handler: podAction },
  ],
};
