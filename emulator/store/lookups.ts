/**
 * Finding a record the caller may use, or the typed error that says why not: catalog entries by
 * id (400 pointing at the catalog), and the account-owned records another account cannot see
 * (account/accounts.ts): volumes, templates, SSH keys, registry credentials, secrets by name.
 */
import { badRequest } from "../http/errors.js";
import type {
  CpuFlavorRecord,
  DataCenterRecord,
  GpuTypeRecord,
  NetworkVolumeRecord,
  SecretRecord,
  TemplateRecord,
} from "./records.js";
import type { Store } from "./store.js";

/**
 * The GPU type `id`, or the 400 pointing at the catalog. `field` is how the message names where
 * the id came from, exactly as it starts: `gpu.id` or `gpuTypeIds:`.
 */
export function requireGpuType(state: Store, id: string, field: string): GpuTypeRecord {
  const type = state.gpuTypeById.get(id);
  if (!type) throw badRequest(`${field} '${id}' is not a GPU type; see GET /v2/catalog/gpus.`);
  return type;
}

/** The CPU flavor `id`, or the 400 pointing at the catalog (`field` as for requireGpuType). */
export function requireCpuFlavor(state: Store, id: string, field: string): CpuFlavorRecord {
  const flavor = state.cpuFlavorById.get(id);
  if (!flavor) throw badRequest(`${field} '${id}' is not a CPU flavor; see GET /v2/catalog/cpus.`);
  return flavor;
}

/** The data center `id`, or the 400 pointing at the catalog (`field` as for requireGpuType). */
export function requireDataCenter(state: Store, id: string, field: string): DataCenterRecord {
  const dc = state.dataCenterById.get(id);
  if (!dc) throw badRequest(`${field} '${id}' is not a data center; see GET /v2/catalog/datacenters.`);
  return dc;
}

/** Network volume `id` when `account` owns it; another account's is unknown to it (account/accounts.ts). */
export function ownedVolume(state: Store, id: string, account: string): NetworkVolumeRecord | undefined {
  const v = state.networkVolumes.get(id);
  return v?.account === account ? v : undefined;
}

/** The SSH public keys of `account`. */
export function sshKeysOf(state: Store, account: string): string[] {
  return state.sshKeys.get(account) ?? [];
}

/** Template `id` when `account` may use it: a public one, or its own (account/accounts.ts). */
export function readableTemplate(state: Store, id: string, account: string): TemplateRecord | undefined {
  const t = state.templates.get(id);
  return t && (t.source !== "user" || t.account === account) ? t : undefined;
}

/**
 * Refuses a `registry` reference that names no credential of `account` (null clears it and is
 * always fine).
 */
export function requireRegistry(
  state: Store,
  account: string,
  id: string | null | undefined,
  field = "registry",
): void {
  if (id === undefined || id === null) return;
  if (state.registries.get(id)?.account !== account) {
    throw badRequest(`${field} '${id}' is not a registry credential; see GET /v2/registries.`);
  }
}

/** The secret of `account` called `name`, in any case. */
export function secretNamed(state: Store, name: string, account: string): SecretRecord | undefined {
  const key = name.toLowerCase();
  return [...state.secrets.values()].find((s) => s.account === account && s.name.toLowerCase() === key);
}
