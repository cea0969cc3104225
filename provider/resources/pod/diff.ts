/** Diff: which input changes a pod takes in place and which replace it. */
import type { PodStatus } from "../../client/vocabulary.js";
import { declaredChanges } from "../../fields/derive.js";
import { differs } from "../../validation/compare.js";
import { containsUnknown, isUnknown } from "../../validation/unknown.js";
import { commandChanged } from "../common.js";
import { POD } from "./fields.js";
import type { PodInputs, PodOutputs } from "./types.js";

// ---------------------------------------------------------------- diff

export interface PodDiff {
  readonly changes: boolean;
  readonly replaces: string[];
  readonly updates: string[];
  readonly deleteBeforeReplace: boolean;
}

export const GPU_CONSTRAINTS = [
  "allowedCudaVersions",
  "minCudaVersion",
  "minRamPerGpu",
  "minVcpuCountPerGpu",
] as const;
export const MOUNT_KINDS = ["persistent", "network", "global"] as const;

/**
 * The inputs compared here rather than by their declaration alone: a GPU or CPU against what the
 * pod has, the data centers against where it runs, mounts by kind and path, the command as the
 * command it describes, and the status and networking against what was asked for.
 */
const COMPARED_HERE = [
  "gpu",
  "cpu",
  "dataCenterIds",
  "mounts",
  "args",
  "cmd",
  "entrypoint",
  "desiredStatus",
  "globalNetworking",
];

/**
 * The replace/update table (pure, offline), as each input's declaration says (fields.ts,
 * `onChange`). Replace: what the API cannot PATCH. Update in place: what PATCH accepts. Volatile
 * outputs (status, runtime, cost, ssh, ...) are never compared; an input left out is its default,
 * or "no opinion" without one; an unknown value (preview) counts as a change.
 */
export function diffPod(olds: Partial<PodOutputs>, news: PodInputs): PodDiff {
  // ---- the inputs the declaration decides alone (fields.ts): name, image, disk, env, ports,
  // registry, locked and the create-time flags, cloud and template
  const declared = declaredChanges(POD, olds, news, COMPARED_HERE);
  const replaces = [...declared.replaces];
  const updates = [...declared.updates];

  // ---- replace: fixed at create
  const oldGpu = olds.gpu ?? null;
  if ((news.gpu === undefined) !== (oldGpu === null)) replaces.push(news.gpu ? "gpu" : "cpu");
  else if (news.gpu && oldGpu) {
    if (isUnknown(news.gpu)) replaces.push("gpu");
    else {
      // Compared with the GPU type the program asked for, not the one placement ended on: a
      // fallback candidate is not a change.
      const requested = olds.requestedGpuId ?? oldGpu.id;
      if (containsUnknown(news.gpu.id) || news.gpu.id !== requested) replaces.push("gpu.id");
      if (differs(news.gpu.count ?? 1, oldGpu.count)) replaces.push("gpu.count");
      for (const c of GPU_CONSTRAINTS) if (differs(news.gpu[c], oldGpu[c])) replaces.push(`gpu.${c}`);
    }
  }
  if (
    news.cpu &&
    olds.cpu &&
    differs(
      { id: news.cpu.id, vcpuCount: news.cpu.vcpuCount },
      { id: olds.cpu.id, vcpuCount: olds.cpu.vcpuCount },
    )
  ) {
    replaces.push("cpu");
  }
  const dcs = news.dataCenterIds;
  if (
    dcs !== undefined &&
    (containsUnknown(dcs) || (dcs.length > 0 && olds.dataCenterId && !dcs.includes(olds.dataCenterId)))
  ) {
    replaces.push("dataCenterIds");
  }
  // ---- mounts: the kind and volume are fixed at create, a path changes in place
  const newMounts = news.mounts ?? {};
  const oldMounts = olds.mounts ?? {};
  if (isUnknown(newMounts)) replaces.push("mounts");
  else {
    // A template's persistent mount is the template's, not the program's: no opinion about it.
    const ignorePersistent = news.templateId !== undefined && newMounts.persistent === undefined;
    const has = (m: PodOutputs["mounts"] | PodInputs["mounts"], kind: (typeof MOUNT_KINDS)[number]) => {
      const v = m?.[kind];
      return Array.isArray(v) ? v.length > 0 : v !== undefined;
    };
    for (const kind of MOUNT_KINDS) {
      if (kind === "persistent" && ignorePersistent) continue;
      if (has(newMounts, kind) !== has(oldMounts, kind)) replaces.push(`mounts.${kind}`);
    }
    if (newMounts.persistent && oldMounts.persistent) {
      if (differs(newMounts.persistent.size, oldMounts.persistent.size))
        replaces.push("mounts.persistent.size");
      if (differs(newMounts.persistent.path, oldMounts.persistent.path))
        updates.push("mounts.persistent.path");
    }
    for (const kind of ["network", "global"] as const) {
      const n = newMounts[kind] ?? [];
      const o = oldMounts[kind] ?? [];
      n.forEach((entry, i) => {
        const old = o[i];
        if (!old) return;
        if (differs(entry.volumeId, old.volumeId)) replaces.push(`mounts.${kind}[${i}].volumeId`);
        if (entry.path !== undefined && differs(entry.path, old.path))
          updates.push(`mounts.${kind}[${i}].path`);
      });
    }
  }

  // ---- update in place
  if (commandChanged(news, olds.args)) updates.push("args");
  if (
    differs(
      news.desiredStatus ?? "RUNNING",
      olds.desiredStatus ?? desiredStatusOf(olds.status, news.desiredStatus),
    )
  )
    updates.push("desiredStatus");
  if (
    differs(
      news.globalNetworking ?? false,
      olds.requestedGlobalNetworking ?? olds.globalNetworking?.enabled ?? false,
    )
  ) {
    updates.push("globalNetworking");
  }

  return { changes: replaces.length + updates.length > 0, replaces, updates, deleteBeforeReplace: false };
}

// ---------------------------------------------------------------- API bodies and outputs

/**
 * What a pod in this status is doing, as a Pod's `desiredStatus` says it: a stopped pod is
 * STOPPED. A failed pod (ERROR) counts as what was asked of it, so the next run does not start a
 * pod kept for inspection (and bill its GPU again) unless an input changes. So does a `parked` pod:
 * one with autostop that something outside the stack stopped (the watcher found it idle, or a
 * person stopped it), which only the user starts again (docs/autostop.md).
 */
export function desiredStatusOf(
  status: PodStatus | undefined,
  asked: "RUNNING" | "STOPPED" = "RUNNING",
  parked = false,
): "RUNNING" | "STOPPED" {
  if (status === "ERROR" || (parked && status === "EXITED")) return asked;
  return status === "EXITED" ? "STOPPED" : "RUNNING";
}

/**
 * Whether a pod is stopped and this stack did not stop it: when the stack last saw it, it was not
 * stopped, or had been stopped outside already. `prior` is what the stack last recorded (the
 * outputs); a stop this stack makes records the pod as its own (`stoppedOutside: false`). A stack
 * that recorded nothing yet (a create, an import) counts a stopped pod as its own.
 */
export function stoppedOutsideNow(
  status: PodStatus,
  prior: { readonly status?: PodStatus; readonly stoppedOutside?: boolean } | undefined,
): boolean {
  if (status !== "EXITED" || prior?.status === undefined) return false;
  return prior.stoppedOutside === true || prior.status !== "EXITED";
}
