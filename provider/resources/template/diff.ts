/**
 * A Template's replace/update table.
 */
import { containsUnknown } from "../../validation/unknown.js";
import { commandChanged, differs } from "../common.js";
import { TEMPLATE_API_DEFAULTS } from "./defaults.js";
import type { TemplateInputs, TemplateOutputs } from "./types.js";

export interface TemplateDiff {
  readonly changes: boolean;
  readonly replaces: string[];
  readonly updates: string[];
}

/** Compared only when the program sets them: a left-out input is no opinion. */
const OPTIONAL_UPDATABLE = ["disk", "ports", "registry", "allowedCudaVersions"] as const;
/** Compared against the API's default when left out, so a template matches what a fresh create makes. */
export const DEFAULTED = ["startSsh", "startJupyter", "public", "category"] as const;

/**
 * The replace/update table (pure, offline).
 *
 * Replace:
 * - `serverless`: the API would flip it in place, but the id would then name another kind of
 *   template. Pods in the stack that use it keep a templateId that no longer backs a pod and fail
 *   only at their next create (422); endpoints bound to a pod template break. A new id makes every
 *   dependent that takes `template.id` see the change in the same preview.
 * - removing `mounts.persistent`: PATCH leaves the mount unchanged when `mounts` is absent or `{}`.
 *
 * Update in place: everything else `UpdateTemplateRequest` carries. An unknown value (preview)
 * counts as a change.
 */
export function diffTemplate(olds: Partial<TemplateOutputs>, news: TemplateInputs): TemplateDiff {
  const replaces: string[] = [];
  const updates: string[] = [];

  if (differs(news.serverless ?? TEMPLATE_API_DEFAULTS.serverless, olds.serverless ?? false))
    replaces.push("serverless");
  const oldMount = olds.mounts?.persistent ?? null;
  if (containsUnknown(news.mounts)) {
    // It may turn out to remove the mount, which only a replacement can do.
    (oldMount ? replaces : updates).push("mounts.persistent");
  } else {
    const newMount = news.mounts?.persistent ?? null;
    if (oldMount && !newMount) replaces.push("mounts.persistent");
    else if (newMount && differs(newMount, oldMount)) updates.push("mounts.persistent");
  }

  if (differs(news.name, olds.name)) updates.push("name");
  if (differs(news.image, olds.image)) updates.push("image");
  if (commandChanged(news, olds.args)) updates.push("args");
  if (differs(news.env ?? {}, olds.env ?? {})) updates.push("env");
  for (const k of OPTIONAL_UPDATABLE) {
    if (news[k] !== undefined && differs(news[k], olds[k])) updates.push(k);
  }
  for (const k of DEFAULTED) {
    if (differs(news[k] ?? TEMPLATE_API_DEFAULTS[k], olds[k] ?? TEMPLATE_API_DEFAULTS[k])) updates.push(k);
  }
  return { changes: replaces.length + updates.length > 0, replaces, updates };
}
