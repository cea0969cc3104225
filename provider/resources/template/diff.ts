/**
 * A Template's replace/update table.
 */

import { declaredChanges } from "../../fields/derive.js";
import { differs } from "../../validation/compare.js";
import { containsUnknown } from "../../validation/unknown.js";
import { commandChanged } from "../common.js";
import { TEMPLATE } from "./fields.js";
import type { TemplateInputs, TemplateOutputs } from "./types.js";

export interface TemplateDiff {
  readonly changes: boolean;
  readonly replaces: string[];
  readonly updates: string[];
}

/** The inputs compared here rather than by their declaration alone: the mount, the command. */
const COMPARED_HERE = ["mounts", "args", "cmd", "entrypoint"];

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
 * Update in place: everything else `UpdateTemplateRequest` carries, each as its declaration says
 * (fields.ts): an input left out is the API's default, or no opinion without one. An unknown value
 * (preview) counts as a change.
 */
export function diffTemplate(olds: Partial<TemplateOutputs>, news: TemplateInputs): TemplateDiff {
  const { replaces, updates: declared } = declaredChanges(TEMPLATE, olds, news, COMPARED_HERE);
  const updates: string[] = [];
  const oldMount = olds.mounts?.persistent ?? null;
  if (containsUnknown(news.mounts)) {
    // It may turn out to remove the mount, which only a replacement can do.
    (oldMount ? replaces : updates).push("mounts.persistent");
  } else {
    const newMount = news.mounts?.persistent ?? null;
    if (oldMount && !newMount) replaces.push("mounts.persistent");
    else if (newMount && differs(newMount, oldMount)) updates.push("mounts.persistent");
  }
  updates.push(...declared);
  if (commandChanged(news, olds.args)) updates.push("args");
  return { changes: replaces.length + updates.length > 0, replaces, updates };
}
