/**
 * POST /v2/pods (docs/api-model.md, Creating a pod; Mounts; Limits). Create applies the checks in
 * the service's order: body size (the bytes received, before auth, in the wiring), schema (422),
 * cross-field rules (400), template resolution (404/422), the expanded request's size with a
 * template (413), balance (402), pool access (403), capacity (400). Placement takes the first data
 * center with stock that meets the request.
 */

import { cpuStockAt, gpuStockAt, pickCuda } from "../catalog/capacity.js";
import { badRequest, HttpError, NO_CAPACITY, notFound, unprocessable } from "../http/errors.js";
import { json, type RouteContext } from "../http/routing.js";
import { validateBody } from "../http/validation.js";
import { MAX_REQUEST_BYTES } from "../schemas/common.js";
import { type CreatePodRequest as CreateBody, CreatePodRequest } from "../schemas/pods.js";
import { readableTemplate, requireCpuFlavor, requireGpuType, requireRegistry } from "../store/lookups.js";
import type { ContainerRecord, Machine } from "../store/pod-records.js";
import type { CpuFlavorRecord, GpuTypeRecord, TemplateRecord } from "../store/records.js";
import type { Store } from "../store/store.js";
import { nextArgs } from "./command.js";
import { launchPod, type NewPod } from "./lifecycle.js";
import {
  allowedDataCenters,
  candidateDataCenters,
  podMounts,
  randomPublicIp,
  serviceEnv,
  tcpPortMap,
} from "./new-pod.js";
import { podView } from "./view.js";

const DEFAULT_DISK_GB = 20;

/** The body with its template applied: the container the pod will run, before its mounts are built. */
interface Effective extends Omit<ContainerRecord, "mounts"> {
  body: CreateBody;
  persistent: { size: number; path: string } | undefined;
  startSsh: boolean;
  startJupyter: boolean;
  allowedCudaVersions: string[] | undefined;
  minCudaVersion: string | undefined;
}

export function resolveTemplate(state: Store, id: string, account: string): TemplateRecord {
  const t = readableTemplate(state, id, account);
  if (!t) throw notFound(`Template '${id}' was not found or is not accessible.`);
  if (t.serverless) {
    throw unprocessable([`$.templateId: template '${id}' is a serverless template and cannot back a pod`]);
  }
  return t;
}

/** Network volumes are Secure Cloud storage: a Community Cloud pod cannot mount one. */
export const NETWORK_VOLUME_ON_COMMUNITY =
  "mounts.network: network volumes are available on Secure Cloud only; a COMMUNITY pod cannot mount one. Create the pod with cloud SECURE, or drop the network volume.";

function crossFieldRules(state: Store, body: CreateBody): void {
  if (!body.gpu === !body.cpu) throw badRequest("Exactly one of gpu or cpu must be set.");
  if (body.cloud === "COMMUNITY" && body.mounts?.network?.length)
    throw badRequest(NETWORK_VOLUME_ON_COMMUNITY);
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
  nextArgs("", body);
}

function effectiveConfig(state: Store, body: CreateBody, account: string): Effective {
  const template = body.templateId ? resolveTemplate(state, body.templateId, account) : undefined;
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
    args: nextArgs(template?.args ?? "", body),
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
  if (template) {
    const bytes = Buffer.byteLength(JSON.stringify(expandedRequest(body, template)), "utf8");
    if (bytes > MAX_REQUEST_BYTES) {
      throw new HttpError(
        413,
        `The request expanded with template '${template.id}' is ${bytes} bytes, over the ${MAX_REQUEST_BYTES}-byte limit.`,
      );
    }
  }
  return eff;
}

/**
 * The deployment request built from a body and its template, whose size is limited as the body's
 * is (docs/api-model.md, Limits): the template's container settings with the body's fields over
 * them as a template is applied (Templates on create), and nothing the service fills in by default.
 * Without a template there is nothing to expand: the body as received is all there is to size.
 */
function expandedRequest(body: CreateBody, template: TemplateRecord): Record<string, unknown> {
  const gpuPod = body.gpu !== undefined;
  const cudaFromBody = body.gpu?.allowedCudaVersions !== undefined || body.gpu?.minCudaVersion !== undefined;
  const persistent = gpuPod ? template.mounts.persistent : undefined;
  return {
    image: template.image,
    args: template.args,
    disk: template.disk,
    ports: template.ports,
    ...(template.registry === null ? {} : { registry: template.registry }),
    startSsh: template.startSsh,
    startJupyter: template.startJupyter,
    ...body,
    env: { ...template.env, ...body.env },
    ...(persistent ? { mounts: { persistent, ...body.mounts } } : {}),
    ...(gpuPod && !cudaFromBody && template.allowedCudaVersions.length > 0
      ? { gpu: { ...body.gpu, allowedCudaVersions: template.allowedCudaVersions } }
      : {}),
  };
}

/** Where a new pod runs, and the catalog entry of what it runs on (its price). */
type Placement = { machine: Machine } & (
  | { gpuType: GpuTypeRecord; cpuFlavor?: never }
  | { cpuFlavor: CpuFlavorRecord; gpuType?: never }
);

function place(state: Store, eff: Effective, apiKey: string, account: string): Placement {
  const body = eff.body;
  const candidates = candidateDataCenters(state, body.dataCenterIds, body.mounts, account, "pod");
  const allowed = allowedDataCenters(state, apiKey, candidates, body.gpu?.id);
  const publicIp = randomPublicIp(state);
  const portMap = tcpPortMap(state, eff.ports);

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

function costPerHour(body: CreateBody, placement: Placement): number {
  if (placement.gpuType) {
    const { price } = placement.gpuType;
    const perGpu = (body.cloud ?? "SECURE") === "SECURE" ? price.secure : price.community;
    return Math.round(perGpu * (body.gpu?.count ?? 1) * 1000) / 1000;
  }
  return Math.round(placement.cpuFlavor.price.securePerVcpu * (body.cpu?.vcpuCount ?? 0) * 1000) / 1000;
}

export function createPod(ctx: RouteContext) {
  const { state } = ctx;
  const body = validateBody(CreatePodRequest, ctx.body);
  crossFieldRules(state, body);
  const eff = effectiveConfig(state, body, ctx.account);
  requireRegistry(state, ctx.account, eff.registry);
  if (state.settings.balanceExhausted) {
    throw new HttpError(402, "Your balance is too low to create this pod. Add funds to continue.");
  }
  const placement = place(state, eff, ctx.apiKey, ctx.account);

  const env = serviceEnv(state, ctx.account, eff.env, { ssh: eff.startSsh, jupyter: eff.startJupyter });
  const mounts = podMounts(eff.persistent, body.mounts);

  const fields: NewPod = {
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
    account: ctx.account,
  };
  const fate = state.random() < state.settings.errorShare ? "ERROR" : "RUNNING";
  return json(201, podView(state, launchPod(state, fields, ctx.now, fate)));
}
