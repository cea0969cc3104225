/** The catalog: GPU types, CPU flavors, data centers and public templates (`{base_url}/v2/catalog`). */

import type { CpuFlavorsQuery, DataCentersQuery, GpuTypesQuery } from "../../catalog/types.js";
import type { RunpodClient } from "../request.js";
import {
  ListCpuFlavorsResponse,
  ListDataCentersResponse,
  ListGpuTypesResponse,
  ListTemplatesResponse,
} from "../schemas/index.js";
import type { CallOptions } from "./call-options.js";

export type { CpuFlavorsQuery, DataCentersQuery, GpuTypesQuery };

export type PublicTemplatesQuery = {
  source?: "official" | "verified" | "community";
};

/** What can be had: GPU types, CPU flavors, data centers, public templates (`api.catalog`). */
export class CatalogApi {
  constructor(private readonly client: RunpodClient) {}

  async gpuTypes(query: GpuTypesQuery = {}, opts: CallOptions = {}) {
    return (
      await this.client.request({
        method: "GET",
        base: "v2",
        path: "/v2/catalog/gpus",
        query,
        responseSchema: ListGpuTypesResponse,
        ...opts,
      })
    ).gpus;
  }

  async cpuFlavors(query: CpuFlavorsQuery = {}, opts: CallOptions = {}) {
    return (
      await this.client.request({
        method: "GET",
        base: "v2",
        path: "/v2/catalog/cpus",
        query,
        responseSchema: ListCpuFlavorsResponse,
        ...opts,
      })
    ).cpus;
  }

  async dataCenters(query: DataCentersQuery = {}, opts: CallOptions = {}) {
    return (
      await this.client.request({
        method: "GET",
        base: "v2",
        path: "/v2/catalog/datacenters",
        query,
        responseSchema: ListDataCentersResponse,
        ...opts,
      })
    ).dataCenters;
  }

  async publicTemplates(query: PublicTemplatesQuery = {}, opts: CallOptions = {}) {
    return (
      await this.client.request({
        method: "GET",
        base: "v2",
        path: "/v2/catalog/templates",
        query,
        responseSchema: ListTemplatesResponse,
        ...opts,
      })
    ).templates;
  }
}
