/**
 * Finding and removing serverless endpoints: the lookups the endpoint routes and the jobs share.
 */
import { notFound } from "../http/errors.js";
import type { EndpointRecord } from "../store/serverless-records.js";
import type { Store } from "../store/store.js";
import { checkpointEndpoint } from "./usage.js";

/** Endpoint `id`; given an `account`, only when that account owns it (account/accounts.ts). */
export function findEndpoint(state: Store, id: string, account?: string): EndpointRecord | undefined {
  const e = state.endpoints.get(id);
  return e && (account === undefined || e.account === account) ? e : undefined;
}

/** The account's endpoint `id`, or 404. */
export function requireEndpoint(state: Store, id: string, account: string): EndpointRecord {
  const e = findEndpoint(state, id, account);
  if (!e) throw notFound(`Endpoint '${id}' was not found.`);
  return e;
}

/**
 * Deleting an endpoint cancels its jobs and removes its history (docs/api-model.md, Serverless
 * endpoints); its workers' time stays in the usage ledger.
 */
export function deleteEndpointRecord(state: Store, e: EndpointRecord): void {
  checkpointEndpoint(state, e);
  state.endpoints.delete(e.id);
  for (const [jobId, job] of state.jobs) if (job.endpointId === e.id) state.jobs.delete(jobId);
}
