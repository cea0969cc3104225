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
import { type LogCallOptions, type LogQuery, podLogEvents } from "./logs.js";

export type ListPodsQuery = {
  includeClusterPods?: boolean;
};

export type PodLogsQuery = LogQuery;

/** Never retried on 5xx or a broken connection: the caller resolves an unknown outcome by name. */
export function createPod(
  client: RunpodClient,
  body: z.input<typeof CreatePodRequest>,
  opts: CallOptions = {},
) {
  return client.request({
    method: "POST",
    base: "v2",
    path: "/v2/pods",
    body,
    requestSchema: CreatePodRequest,
    responseSchema: Pod,
    ...opts,
  });
}

export function getPod(client: RunpodClient, id: string, opts: CallOptions = {}) {
  return client.request({
    method: "GET",
    base: "v2",
    path: `/v2/pods/${segment(id)}`,
    responseSchema: Pod,
    ...opts,
  });
}

export async function listPods(client: RunpodClient, query: ListPodsQuery = {}, opts: CallOptions = {}) {
  const res = await client.request({
    method: "GET",
    base: "v2",
    path: "/v2/pods",
    query,
    responseSchema: ListPodsResponse,
    ...opts,
  });
  return res.pods;
}

export function updatePod(
  client: RunpodClient,
  id: string,
  body: z.input<typeof UpdatePodRequest>,
  opts: CallOptions = {},
) {
  return client.request({
    method: "PATCH",
    base: "v2",
    path: `/v2/pods/${segment(id)}`,
    body,
    requestSchema: UpdatePodRequest,
    responseSchema: Pod,
    ...opts,
  });
}

export function deletePod(client: RunpodClient, id: string, opts: CallOptions = {}): Promise<undefined> {
  return client.request<undefined>({
    method: "DELETE",
    base: "v2",
    path: `/v2/pods/${segment(id)}`,
    ...opts,
  });
}

/** `terminate` answers 204 (no pod); the other actions answer the updated pod. */
export function podAction(client: RunpodClient, id: string, action: PodAction, opts: CallOptions = {}) {
  return client.request({
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
 * stream with RUNPOD_INVALID_RESPONSE. `podLogEvents` (logs.ts) also gives each line's cursor.
 */
export async function* podLogs(
  client: RunpodClient,
  id: string,
  query: PodLogsQuery = {},
  opts: LogCallOptions = {},
): AsyncGenerator<PodLogLine> {
  for await (const event of podLogEvents(client, id, query, opts)) yield event.line;
}
