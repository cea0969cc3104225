/**
 * The store's other records: the seed's catalog entries, stock, templates, network volumes,
 * registry credentials and delegations, secrets. Types and the stock key only.
 */
import type { Availability } from "../schemas/catalog.js";
import type { Seed } from "../seed/schema.js";

/** The key of a (data center, GPU type or CPU flavor) stock entry in the store. */
export function stockKey(dataCenterId: string, id: string): string {
  return `${dataCenterId}|${id}`;
}

export interface GpuStock {
  total: number;
  free: number;
  cudaVersions: string[];
  ramPerGpu: number;
  vcpuPerGpu: number;
  availability?: Availability;
}

export interface CpuStock {
  totalVcpu: number;
  free: number;
}

/**
 * A template: the seed's (defaults filled in by the seed schema; public, readable by every
 * account) or one created through the API (`source` "user", owned by `account`).
 */
export type TemplateRecord = Seed["templates"][number];

export type GpuTypeRecord = Seed["gpuTypes"][number];
export type CpuFlavorRecord = Seed["cpuFlavors"][number];
export type DataCenterRecord = Seed["dataCenters"][number];

export interface NetworkVolumeRecord {
  id: string;
  name: string;
  size: number;
  dataCenter: string;
  type: string;
  /** The account that owns it (account/accounts.ts). */
  account: string;
}

export interface RegistryRecord {
  id: string;
  name: string;
  username: string;
  password: string;
  /** The account that owns it (account/accounts.ts). */
  account: string;
}

export interface DelegationRecord {
  id: string;
  name: string | null;
  delegatorUserId: string;
  awsUser: string;
  repository: string;
  tag: string;
  awsRegion: string;
  dockerRegistryUri: string;
  createdAt: string;
  /** The account that owns it (account/accounts.ts). */
  account: string;
}

export interface SecretRecord {
  id: string;
  name: string;
  /** Write-only: read by pods as they boot, never answered. */
  value: string;
  description: string | null;
  createdAt: number;
  valueLastUpdatedAt: number;
  /** The account that owns it (account/accounts.ts). */
  account: string;
}
