/**
 * What every new pod gets, whether created alone (create.ts) or as a cluster member
 * (clusters/routes.ts): the data centers it may be placed in, the pools its key may use, a public
 * address and ports, the variables the service adds to its environment, its mounts.
 */
import { badRequest, HttpError } from "../http/errors.js";
import type { Mounts } from "../schemas/common.js";
import { ownedVolume, requireDataCenter, sshKeysOf } from "../store/lookups.js";
import type { Machine, PodRecord } from "../store/pod-records.js";
import type { Store } from "../store/store.js";

/** Default path of a global volume mount when the create does not give one. */
const GLOBAL_MOUNT_DEFAULT_PATH = "/global";

type VolumeMounts = Pick<Mounts, "network" | "global">;

/**
 * The data centers a new `what` may be placed in: the ones asked for (each must exist), else every
 * one; a network volume narrows them to its own, which must be among them. Global volumes must exist.
 */
export function candidateDataCenters(
  state: Store,
  dataCenterIds: readonly string[] | undefined,
  mounts: VolumeMounts | undefined,
  account: string,
  what: "pod" | "cluster",
): string[] {
  for (const id of dataCenterIds ?? []) requireDataCenter(state, id, "dataCenterIds:");
  let candidates = dataCenterIds?.length ? [...dataCenterIds] : state.seed.dataCenters.map((d) => d.id);
  for (const mount of mounts?.network ?? []) {
    const volume = ownedVolume(state, mount.volumeId, account);
    if (!volume) throw badRequest(`Network volume '${mount.volumeId}' does not exist.`);
    if (!candidates.includes(volume.dataCenter)) {
      throw badRequest(
        `Network volume '${volume.id}' is in ${volume.dataCenter}; the ${what} must be placed in the same data center.`,
      );
    }
    candidates = [volume.dataCenter];
  }
  for (const mount of mounts?.global ?? []) {
    if (!state.seed.globalVolumes.some((g) => g.id === mount.volumeId)) {
      throw badRequest(`Global volume '${mount.volumeId}' does not exist.`);
    }
  }
  return candidates;
}

/** Whether the seed forbids `key` the pool of `gpuTypeId` in `dataCenterId` (seed `apiKeys[].forbidden`). */
export function forbidden(
  state: Store,
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

/** The candidates `key` may use, or 403 when it may use none of them. */
export function allowedDataCenters(
  state: Store,
  key: string,
  candidates: readonly string[],
  gpuTypeId: string | undefined,
): string[] {
  const allowed = candidates.filter((dc) => !forbidden(state, key, dc, gpuTypeId));
  if (allowed.length === 0)
    throw new HttpError(403, "This API key does not have access to the requested pool.");
  return allowed;
}

export function randomPort(state: Store): number {
  return 10_000 + Math.floor(state.random() * 50_000);
}

export function randomSecret(state: Store, length = 20): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
  let s = "";
  for (let i = 0; i < length; i += 1) s += alphabet[Math.floor(state.random() * alphabet.length)];
  return s;
}

/** A machine's public address, drawn from the seeded random source. */
export function randomPublicIp(state: Store): Machine["publicIp"] {
  return `194.68.${Math.floor(state.random() * 250) + 1}.${Math.floor(state.random() * 250) + 1}`;
}

/** A public port for each `<port>/tcp` entry, in order. */
export function tcpPortMap(state: Store, ports: readonly string[]): Record<number, number> {
  const portMap: Record<number, number> = {};
  for (const p of ports) if (p.endsWith("/tcp")) portMap[Number(p.split("/")[0])] = randomPort(state);
  return portMap;
}

/**
 * `env` with what the service adds unless it is set: the account's SSH keys as PUBLIC_KEY when
 * SSH starts, a random JUPYTER_PASSWORD when Jupyter starts.
 */
export function serviceEnv(
  state: Store,
  account: string,
  env: Readonly<Record<string, string>>,
  start: { readonly ssh: boolean | undefined; readonly jupyter: boolean | undefined },
): Record<string, string> {
  const out = { ...env };
  const sshKeys = sshKeysOf(state, account);
  if (start.ssh && sshKeys.length > 0 && out.PUBLIC_KEY === undefined) out.PUBLIC_KEY = sshKeys.join("\n");
  if (start.jupyter && out.JUPYTER_PASSWORD === undefined) out.JUPYTER_PASSWORD = randomSecret(state);
  return out;
}

/** The pod's mounts: a copy of each, global ones at their default path unless given one. */
export function podMounts(
  persistent: { readonly size: number; readonly path: string } | undefined,
  volumes: VolumeMounts | undefined,
): PodRecord["mounts"] {
  const mounts: PodRecord["mounts"] = {};
  if (persistent) mounts.persistent = { ...persistent };
  if (volumes?.network?.length) mounts.network = volumes.network.map((m) => ({ ...m }));
  if (volumes?.global?.length) {
    mounts.global = volumes.global.map((m) => ({
      volumeId: m.volumeId,
      path: m.path ?? GLOBAL_MOUNT_DEFAULT_PATH,
    }));
  }
  return mounts;
}
