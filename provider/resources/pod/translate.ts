/**
 * Between a Pod resource and the API's pod, both ways: the create key that marks every pod this
 * provider creates, the create and update bodies built from inputs, the outputs read from the API's
 * pod, and the inputs recovered from outputs. What repeats a declared field as it is comes from
 * the declaration (fields.ts); what is built here says why.
 */
import { randomBytes } from "node:crypto";
import type {
  Pod as ApiPod,
  CreatePodRequest as CreateBody,
  UpdatePodRequest,
} from "../../client/schemas/pods.js";
import { apiBody, mirroredInputs, mirroredOutputs } from "../../fields/derive.js";
import { commandOutputs } from "../common.js";
import { stackMark } from "../stack-identity/marks.js";
import { desiredStatusOf, diffPod, GPU_CONSTRAINTS } from "./diff.js";
import { POD, POD_CREATE_AND_UPDATE, POD_CREATE_ONLY, POD_UPDATE_ONLY } from "./fields.js";
import type { PodGpuOutput, PodInputs, PodOutputs } from "./types.js";

/**
 * Every pod this provider creates carries its resource's create key in this environment variable:
 * 32 hex digits, a hash that means nothing outside this provider. It is how an unanswered create
 * (a reset, a timeout, a provider process killed while the pod was starting) is told apart from
 * every other pod of the account, in this run and in the next one.
 */
export const CREATE_KEY_ENV = "RUNPOD_DYNAMIC_CREATE_KEY";
export const CREATE_KEY = /^[0-9a-f]{32}$/;

/**
 * The key of a resource's first create, from the stack instance's identity (a random value kept in
 * its state, provider/dynamic/stack-identity.ts) and where the resource lives in the stack
 * (parent and name). Another stack never computes it, whatever its organization, project, stack
 * and backend are called, nor does this stack once removed and initialised again; the same
 * resource gets the same key in the run after an interrupted one.
 */
export function createKeyOf(stackIdentity: string, parentUrn: string, name: string): string {
  return stackMark("Pod", stackIdentity, parentUrn, name);
}

/** A key for one create whose caller gave none: no later run computes it again. */
export function oneTimeCreateKey(): string {
  return randomBytes(16).toString("hex");
}

export function createKeyIn(props: unknown): string | undefined {
  const key = (props as { __createKey?: unknown } | undefined)?.__createKey;
  return typeof key === "string" && CREATE_KEY.test(key) ? key : undefined;
}

/** Whether a pod was created for the resource with this create key. */
export const carries = (key: string, pod: ApiPod) => pod.env[CREATE_KEY_ENV] === key;

// ---------------------------------------------------------------- bodies

/**
 * The CreatePodRequest for these inputs: the fields the declaration sends on create, as given,
 * plus the create key in env.
 */
export function createBody(inputs: PodInputs, createKey: string): CreateBody {
  const body = apiBody(POD, { ...POD_CREATE_AND_UPDATE, ...POD_CREATE_ONLY }, inputs);
  body.env = { ...inputs.env, [CREATE_KEY_ENV]: createKey };
  return body as CreateBody;
}

/** The update-body fields built here rather than sent as given. */
const BUILT_HERE = ["args", "cmd", "entrypoint", "env", "mounts"];

/** The PATCH body taking a pod from `olds` to `news`: only what changed, never an empty mount array. */
export function updateBody(
  olds: Partial<PodOutputs>,
  news: PodInputs,
  currentEnv: Record<string, string>,
): UpdatePodRequest {
  const d = diffPod(olds, news);
  const has = (p: string) => d.updates.includes(p);
  const body = apiBody(POD, { ...POD_CREATE_AND_UPDATE, ...POD_UPDATE_ONLY }, news, {
    only: d.updates.filter((u) => !BUILT_HERE.includes(u)),
    defaults: true,
  });
  if (has("args")) {
    if (news.args !== undefined) body.args = news.args;
    if (news.cmd !== undefined) body.cmd = news.cmd;
    if (news.entrypoint !== undefined) body.entrypoint = news.entrypoint;
  }
  if (has("env")) {
    // PATCH replaces the whole env: keep what the service injected or a template added, drop only
    // the keys the program stopped declaring.
    const dropped = Object.keys(olds.env ?? {}).filter((k) => !(k in (news.env ?? {})));
    const kept = Object.fromEntries(Object.entries(currentEnv).filter(([k]) => !dropped.includes(k)));
    body.env = { ...kept, ...(news.env ?? {}) };
  }
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
        ["waitFor", "readiness", "failFast", "onCreateFailure", "adoptId"].includes(k),
      ),
    ),
    ...mirroredInputs(POD, o, prior),
    // The command as the program wrote it: the raw string, the arrays, or both.
    ...(prior.args !== undefined ? { args: o.args } : {}),
    ...(prior.cmd !== undefined ? { cmd: o.cmd } : {}),
    ...(prior.entrypoint !== undefined ? { entrypoint: o.entrypoint } : {}),
    ...(Object.keys(o.env).length > 0 || prior.env ? { env: o.env } : {}),
    ...(gpu ? { gpu } : {}),
    ...(o.cpu ? { cpu: { id: o.cpu.id, vcpuCount: o.cpu.vcpuCount } } : {}),
    ...(o.dataCenterIds ? { dataCenterIds: o.dataCenterIds } : {}),
    ...(Object.keys(o.mounts).length > 0 ? { mounts: o.mounts } : {}),
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

// ---------------------------------------------------------------- outputs

/**
 * Outputs from the API's pod and the inputs that made it; JSON-clean (null, never undefined).
 * `stoppedOutside`: the pod is stopped and this stack did not stop it (diff.ts, `stoppedOutsideNow`).
 */
export function podOutputs(pod: ApiPod, inputs: Partial<PodInputs>, stoppedOutside = false): PodOutputs {
  const declared = Object.keys(inputs.env ?? {});
  const env = Object.fromEntries(declared.filter((k) => k in pod.env).map((k) => [k, pod.env[k] as string]));
  const endpoint = (e: { host: string; port: number; username: string; command: string } | null) =>
    e ? { host: e.host, port: e.port, username: e.username, command: e.command } : null;
  const built = {
    status: pod.status,
    actions: [...(pod.actions ?? [])],
    args: pod.args,
    ...commandOutputs(pod.args, pod.cmd, pod.entrypoint),
    env,
    mounts: jsonClean(pod.mounts) as PodOutputs["mounts"],
    gpu: pod.gpu
      ? {
          id: pod.gpu.id,
          count: pod.gpu.count ?? inputs.gpu?.count ?? 1,
          vcpuCount: pod.gpu.vcpuCount ?? null,
          memory: pod.gpu.memory ?? null,
          allowedCudaVersions: inputs.gpu?.allowedCudaVersions ?? null,
          minCudaVersion: inputs.gpu?.minCudaVersion ?? null,
          minRamPerGpu: inputs.gpu?.minRamPerGpu ?? null,
          minVcpuCountPerGpu: inputs.gpu?.minVcpuCountPerGpu ?? null,
        }
      : null,
    cpu: pod.cpu ? { id: pod.cpu.id, vcpuCount: pod.cpu.vcpuCount, memory: pod.cpu.memory ?? null } : null,
    dataCenterId: pod.dataCenterId,
    cudaVersion: pod.cudaVersion ?? null,
    ssh: { proxy: endpoint(pod.ssh?.proxy ?? null), direct: endpoint(pod.ssh?.direct ?? null) },
    cluster: pod.cluster
      ? {
          id: pod.cluster.id,
          rank: pod.cluster.rank,
          role: pod.cluster.role ?? null,
          ip: pod.cluster.ip ?? null,
        }
      : null,
    template: pod.template ?? null,
    cost: pod.cost ?? null,
    desiredStatus: desiredStatusOf(
      pod.status,
      inputs.desiredStatus,
      stoppedOutside && inputs.autostop != null,
    ),
    stoppedOutside,
    globalNetworking: {
      enabled: pod.globalNetworking.enabled,
      ip: pod.globalNetworking.ip ?? null,
      internalDns: pod.globalNetworking.internalDns ?? null,
    },
    requestedGlobalNetworking: inputs.globalNetworking ?? pod.globalNetworking.enabled,
    runtime: pod.runtime === null ? null : (jsonClean(pod.runtime) as Record<string, unknown>),
    createdAt: pod.createdAt,
    startedAt: pod.startedAt ?? null,
    jupyterPassword: pod.env.JUPYTER_PASSWORD ?? null,
    requestedGpuId: inputs.gpu?.id ?? pod.gpu?.id ?? null,
  };
  // The rest repeat a field as the API has it or as the program gave it (fields.ts, `mirror`).
  const mirrored = mirroredOutputs(POD, pod, inputs) as Omit<PodOutputs, keyof typeof built>;
  return { ...mirrored, ...built };
}

function jsonClean(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null));
}
