/**
 * Serverless endpoints: `{base_url}/v2/serverless`, their workers, releases and workers' logs.
 * Their jobs are in jobs.ts.
 */
import type { z } from "zod";
import type { RunpodClient } from "../request.js";
import {
  CreateEndpointRequest,
  Endpoint,
  ListEndpointReleasesResponse,
  ListEndpointsResponse,
  ListEndpointWorkersResponse,
  UpdateEndpointRequest,
} from "../schemas/index.js";
import { type CallOptions, segment } from "./call-options.js";
import { type LogCallOptions, type LogQuery, logEvents } from "./logs.js";

/** Serverless endpoints: `{base_url}/v2/serverless`, their workers, releases and workers' logs (`api.endpoints`). */
export class EndpointsApi {
  constructor(private readonly client: RunpodClient) {}

  /** Never retried on 5xx or a broken connection: the caller resolves an unknown outcome. */
  create(body: z.input<typeof CreateEndpointRequest>, opts: CallOptions = {}) {
    return this.client.request({
      method: "POST",
      base: "v2",
      path: "/v2/serverless",
      body,
      requestSchema: CreateEndpointRequest,
      responseSchema: Endpoint,
      ...opts,
    });
  }

  get(id: string, opts: CallOptions = {}) {
    return this.client.request({
      method: "GET",
      base: "v2",
      path: `/v2/serverless/${segment(id)}`,
      responseSchema: Endpoint,
      ...opts,
    });
  }

  async list(opts: CallOptions = {}) {
    const res = await this.client.request({
      method: "GET",
      base: "v2",
      path: "/v2/serverless",
      responseSchema: ListEndpointsResponse,
      ...opts,
    });
    return res.endpoints;
  }

  update(id: string, body: z.input<typeof UpdateEndpointRequest>, opts: CallOptions = {}) {
    return this.client.request({
      method: "PATCH",
      base: "v2",
      path: `/v2/serverless/${segment(id)}`,
      body,
      requestSchema: UpdateEndpointRequest,
      responseSchema: Endpoint,
      ...opts,
    });
  }

  delete(id: string, opts: CallOptions = {}): Promise<undefined> {
    return this.client.request<undefined>({
      method: "DELETE",
      base: "v2",
      path: `/v2/serverless/${segment(id)}`,
      ...opts,
    });
  }

  /** The endpoint's active workers (scaled-down ones are not listed) and their count per status. */
  workers(id: string, opts: CallOptions = {}) {
    return this.client.request({
      method: "GET",
      base: "v2",
      path: `/v2/serverless/${segment(id)}/workers`,
      responseSchema: ListEndpointWorkersResponse,
      ...opts,
    });
  }

  /** The endpoint's releases, newest first, and how far the current one has rolled out. */
  releases(id: string, opts: CallOptions = {}) {
    return this.client.request({
      method: "GET",
      base: "v2",
      path: `/v2/serverless/${segment(id)}/releases`,
      responseSchema: ListEndpointReleasesResponse,
      ...opts,
    });
  }

  /**
   * A serverless worker's log with each line's resume cursor (logs.ts); worker ids come from
   * `workers`.
   */
  workerLogEvents(endpointId: string, workerId: string, query: LogQuery = {}, opts: LogCallOptions = {}) {
    return logEvents(
      this.client,
      `/v2/serverless/${segment(endpointId)}/workers/${segment(workerId)}/logs`,
      query,
      opts,
    );
  }
}
