/** Pods: `{base_url}/v2/pods`, and the log stream of one pod. */
import type { z } from "zod";
import type { RunpodClient } from "../request.js";
import {
  CreatePodRequest,
  ListPodsResponse,
  Pod,
  type PodAction,
  PodActionRequest,
  type PodLogLine,
  UpdatePodRequest,
} from "../schemas/index.js";
import { type CallOptions, segment } from "./call-options.js";
import { type LogCallOptions, type LogQuery, logEvents } from "./logs.js";

export type ListPodsQuery = {
  includeClusterPods?: boolean;
};

export type PodLogsQuery = LogQuery;

/** A pod's calls: `{base_url}/v2/pods` and its log (`api.pods`). */
export class PodsApi {
  constructor(private readonly client: RunpodClient) {}

  /** Never retried on 5xx or a broken connection: the caller resolves an unknown outcome by name. */
  create(body: z.input<typeof CreatePodRequest>, opts: CallOptions = {}) {
    return this.client.request({
      method: "POST",
      base: "v2",
      path: "/v2/pods",
      body,
      requestSchema: CreatePodRequest,
      responseSchema: Pod,
      ...opts,
    });
  }

  get(id: string, opts: CallOptions = {}) {
    return this.client.request({
      method: "GET",
      base: "v2",
      path: `/v2/pods/${segment(id)}`,
      responseSchema: Pod,
      ...opts,
    });
  }

  async list(query: ListPodsQuery = {}, opts: CallOptions = {}) {
    const res = await this.client.request({
      method: "GET",
      base: "v2",
      path: "/v2/pods",
      query,
      responseSchema: ListPodsResponse,
      ...opts,
    });
    return res.pods;
  }

  update(id: string, body: z.input<typeof UpdatePodRequest>, opts: CallOptions = {}) {
    return this.client.request({
      method: "PATCH",
      base: "v2",
      path: `/v2/pods/${segment(id)}`,
      body,
      requestSchema: UpdatePodRequest,
      responseSchema: Pod,
      ...opts,
    });
  }

  delete(id: string, opts: CallOptions = {}): Promise<undefined> {
    return this.client.request<undefined>({
      method: "DELETE",
      base: "v2",
      path: `/v2/pods/${segment(id)}`,
      ...opts,
    });
  }

  /** `terminate` answers 204 (no pod); the other actions answer the updated pod. */
  action(id: string, action: PodAction, opts: CallOptions = {}) {
    return this.client.request({
      method: "POST",
      base: "v2",
      path: `/v2/pods/${segment(id)}/action`,
      body: { action },
      requestSchema: PodActionRequest,
      responseSchema: Pod.optional(),
      idempotent: action !== "terminate",
      ...opts,
    });
  }

  /**
   * Follows a pod's log (server-sent events): the last `tail` lines first, then each new line
   * until the pod is gone or `signal` aborts. An event whose data is not a log line ends the
   * stream with RUNPOD_INVALID_RESPONSE. `logEvents` also gives each line's cursor.
   */
  async *logs(id: string, query: PodLogsQuery = {}, opts: LogCallOptions = {}): AsyncGenerator<PodLogLine> {
    for await (const event of this.logEvents(id, query, opts)) yield event.line;
  }

  /** The pod's log with each line's resume cursor (logs.ts). */
  logEvents(id: string, query: LogQuery = {}, opts: LogCallOptions = {}) {
    return logEvents(this.client, `/v2/pods/${segment(id)}/logs`, query, opts);
  }
}
