/** The catalog: GPU types, CPU flavors, data centers and public templates (`{base_url}/v2/catalog`). */
import type { RunpodClient } from "../request.js";
import {
  ListCpuFlavorsResponse,
  ListDataCentersResponse,
  ListGpuTypesResponse,
  ListTemplatesResponse,
} from "../schemas/index.js";
import type { CallOptions } from "./call-options.js";

export type GpuTypesQuery = {
  include?: readonly "AVAILABILITY"[];
  product?: readonly ("POD" | "CLUSTER" | "SERVERLESS")[];
  count?: number;
  cloud?: "SECURE" | "COMMUNITY";
  countryCodes?: readonly string[];
  cudaVersions?: readonly string[];
  minCudaVersion?: string;
};

export type CpuFlavorsQuery = {
  include?: readonly "AVAILABILITY"[];
  product?: readonly string[];
};

export type DataCentersQuery = {
  include?: readonly ("GPU_AVAILABILITY" | "CPU_AVAILABILITY")[];
  regions?: readonly string[];
  globalNetwork?: boolean;
};

export type PublicTemplatesQuery = {
  source?: "official" | "verified" | "community";
};

export async function listGpuTypes(client: RunpodClient, query: GpuTypesQuery = {}, opts: CallOptions = {}) {
  return (
    await client.request({
      method: "GET",
      base: "v2",
      path: "/v2/catalog/gpus",
      query,
      responseSchema: ListGpuTypesResponse,
      ...opts,
    })
  ).gpus;
}

export async function listCpuFlavors(
  client: RunpodClient,
  query: CpuFlavorsQuery = {},
  opts: CallOptions = {},
) {
  return (
    await client.request({
      method: "GET",
      base: "v2",
      path: "/v2/catalog/cpus",
      query,
      responseSchema: ListCpuFlavorsResponse,
      ...opts,
    })
  ).cpus;
}

export async function listDataCenters(
  client: RunpodClient,
  query: DataCentersQuery = {},
  opts: CallOptions = {},
) {
  return (
    await client.request({
      method: "GET",
      base: "v2",
      path: "/v2/catalog/datacenters",
      query,
      responseSchema: ListDataCentersResponse,
      ...opts,
    })
  ).dataCenters;
}

export async function listPublicTemplates(
  client: RunpodClient,
  query: PublicTemplatesQuery = {},
  opts: CallOptions = {},
) {
  return (
    await client.request({
      method: "GET",
      base: "v2",
      path: "/v2/catalog/templates",
      query,
      responseSchema: ListTemplatesResponse,
      ...opts,
    })
  ).templates;
}
