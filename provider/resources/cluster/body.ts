/**
 * A Cluster's create body. The API takes the container settings directly, so a template is read and
 * applied here.
 */

import type { RunpodApi } from "../../client/api.js";
import { ERROR_CODES, isRunpodApiError } from "../../client/errors.js";
import type { CreateClusterRequest } from "../../client/schemas/clusters.js";
import type { Template as ApiTemplate } from "../../client/schemas/templates.js";
import type { ClusterInputs } from "./types.js";

/** A template by id: the account's own, else a public one from the catalog. */
async function templateById(api: RunpodApi, id: string): Promise<ApiTemplate> {
  try {
    return await api.templates.get(id);
  } catch (err) {
    if (!isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) throw err;
  }
  const found = (await api.catalog.publicTemplates()).find((t) => t.id === id);
  if (!found) throw new Error(`templateId ${id}: no such template among yours or the public ones.`);
  return found;
}

/** The create body: the program's container settings over the template's (env merged per key). */
export async function createBody(api: RunpodApi, inputs: ClusterInputs): Promise<CreateClusterRequest> {
  const t = inputs.templateId ? await templateById(api, inputs.templateId) : undefined;
  const body: Record<string, unknown> = { name: inputs.name, type: inputs.type, compute: inputs.compute };
  const image = inputs.image ?? t?.image;
  if (image !== undefined) body.image = image;
  const args = inputs.args ?? (t?.args || undefined);
  if (args !== undefined) body.args = args;
  const disk = inputs.disk ?? t?.disk;
  if (disk !== undefined) body.disk = disk;
  const ports = inputs.ports ?? (t?.ports.length ? t.ports : undefined);
  if (ports !== undefined) body.ports = ports;
  const env = { ...(t?.env ?? {}), ...(inputs.env ?? {}) };
  if (Object.keys(env).length > 0) body.env = env;
  for (const k of ["dataCenterIds", "mounts", "startJupyter", "startSsh"] as const) {
    if (inputs[k] !== undefined) body[k] = inputs[k];
  }
  return body as CreateClusterRequest;
}
