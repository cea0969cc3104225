/** Request bodies built from inputs, and inputs recovered from outputs. */
import {
  type CreatePodRequest as CreateBody,
  CreatePodRequest,
  type UpdatePodRequest,
} from "../../client/schemas/pods.js";
import { CREATE_KEY_ENV } from "./create-key.js";
import { diffPod, GPU_CONSTRAINTS } from "./diff.js";
import type { PodGpuOutput, PodInputs, PodOutputs } from "./types.js";

/**
 * The CreatePodRequest for these inputs: the contract's fields only, unchanged, plus the create
 * key in env.
 */
export function createBody(inputs: PodInputs, createKey: string): CreateBody {
  const body: Record<string, unknown> = {};
  for (const key of Object.keys(CreatePodRequest.shape)) {
    const v = (inputs as unknown as Record<string, unknown>)[key];
    if (v !== undefined) body[key] = v;
  }
  body.env = { ...inputs.env, [CREATE_KEY_ENV]: createKey };
  return body as CreateBody;
}

/** The PATCH body taking a pod from `olds` to `news`: only what changed, never an empty mount array. */
export function updateBody(
  olds: Partial<PodOutputs>,
  news: PodInputs,
  currentEnv: Record<string, string>,
): UpdatePodRequest {
  const d = diffPod(olds, news);
  const body: Record<string, unknown> = {};
  const has = (p: string) => d.updates.includes(p);
  if (has("name")) body.name = news.name;
  if (has("image")) body.image = news.image;
  if (has("args")) {
    if (news.args !== undefined) body.args = news.args;
    if (news.cmd !== undefined) body.cmd = news.cmd;
    if (news.entrypoint !== undefined) body.entrypoint = news.entrypoint;
  }
  if (has("disk")) body.disk = news.disk;
  if (has("env")) {
    // PATCH replaces the whole env: keep what the service injected or a template added, drop only
    // the keys the program stopped declaring.
    const dropped = Object.keys(olds.env ?? {}).filter((k) => !(k in (news.env ?? {})));
    const kept = Object.fromEntries(Object.entries(currentEnv).filter(([k]) => !dropped.includes(k)));
    body.env = { ...kept, ...(news.env ?? {}) };
  }
  if (has("ports")) body.ports = news.ports;
  if (has("registry")) body.registry = news.registry;
  if (has("locked")) body.locked = news.locked ?? false;
  if (has("globalNetworking")) body.globalNetworking = news.globalNetworking ?? false;
  if (d.updates.some((u) => u.startsWith("mounts."))) {
    // Full entries for every kind the pod has (docs/api-model.md, Mounts, rule 3).
    const mounts: Record<string, unknown> = {};
    const old = olds.mounts ?? {};
    const next = news.mounts ?? {};
    if (old.persistent && next.persistent)
      mounts.persistent = { size: old.persistent.size, path: next.persistent.path };
    for (const kind of ["network", "global"] as const) {
      const entries = old[kind];
      if (!entries?.length) continue;
      mounts[kind] = entries.map((e, i) => ({ volumeId: e.volumeId, path: next[kind]?.[i]?.path ?? e.path }));
    }
    body.mounts = mounts;
  }
  return body as UpdatePodRequest;
}

/** The inputs that would produce `outputs`: what refresh hands back so the next diff starts from the truth. */
export function inputsFromOutputs(o: PodOutputs, prior: Partial<PodInputs>): PodInputs {
  const gpu = o.gpu
    ? {
        id: prior.gpu?.id ?? o.gpu.id,
        ...(o.gpu.count !== 1 || prior.gpu?.count !== undefined ? { count: o.gpu.count } : {}),
        ...Object.fromEntries(GPU_CONSTRAINTS.filter((c) => o.gpu?.[c] !== null).map((c) => [c, o.gpu?.[c]])),
      }
    : undefined;
  const inputs: Record<string, unknown> = {
    ...Object.fromEntries(
      Object.entries(prior).filter(([k]) =>
        ["placement", "waitFor", "readiness", "failFast", "timeouts", "onCreateFailure", "adoptId"].includes(
          k,
        ),
      ),
    ),
    name: o.name,
    image: o.image,
    ...(prior.args !== undefined ? { args: o.args } : {}),
    ...(prior.cmd !== undefined ? { cmd: o.cmd } : {}),
    ...(prior.entrypoint !== undefined ? { entrypoint: o.entrypoint } : {}),
    disk: o.disk,
    ...(Object.keys(o.env).length > 0 || prior.env ? { env: o.env } : {}),
    ports: o.ports,
    ...(prior.registry !== undefined || o.registry !== null ? { registry: o.registry } : {}),
    ...(gpu ? { gpu } : {}),
    ...(o.cpu ? { cpu: { id: o.cpu.id, vcpuCount: o.cpu.vcpuCount } } : {}),
    ...(prior.cloud !== undefined || o.cloud !== "SECURE" ? { cloud: o.cloud } : {}),
    ...(o.dataCenterIds ? { dataCenterIds: o.dataCenterIds } : {}),
    ...(Object.keys(o.mounts).length > 0 ? { mounts: o.mounts } : {}),
    ...(o.templateId ? { templateId: o.templateId } : {}),
    ...(o.startSsh ? { startSsh: true } : {}),
    ...(o.startJupyter ? { startJupyter: true } : {}),
    ...(o.locked || prior.locked !== undefined ? { locked: o.locked } : {}),
    ...(o.desiredStatus === "STOPPED" || prior.desiredStatus !== undefined
      ? { desiredStatus: o.desiredStatus }
      : {}),
    ...(o.requestedGlobalNetworking || prior.globalNetworking !== undefined
      ? { globalNetworking: o.requestedGlobalNetworking }
      : {}),
  };
  return inputs as unknown as PodInputs;
}

export function toGpuInput(g: PodGpuOutput | NonNullable<PodInputs["gpu"]>): NonNullable<PodInputs["gpu"]> {
  const out: Record<string, unknown> = { id: g.id };
  if (g.count !== undefined && g.count !== null) out.count = g.count;
  for (const c of GPU_CONSTRAINTS) {
    const v = (g as Record<string, unknown>)[c];
    if (v !== null && v !== undefined) out[c] = v;
  }
  return out as NonNullable<PodInputs["gpu"]>;
}

export function stripNulls<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as T;
}
